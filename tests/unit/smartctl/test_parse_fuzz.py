"""Property tests: whatever it is fed, parse_output returns a Snapshot or raises ParseError, nothing else.

The parser has a last-resort guard that turns an unexpected exception into ParseError("... internal parser
error ..."); these tests treat that message as a failure, so a bug cannot hide behind the guard.
The corpus-based properties read the recorded outputs where they lie and are skipped when the corpus is absent.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.paths import CORPUS

from ssdwear.model.errors import ParseError
from ssdwear.model.records import Snapshot
from ssdwear.smartctl.parse import parse_output, parse_scan

pytestmark = pytest.mark.slow  # hypothesis campaigns, ~7 s together

CORPUS_FILES = sorted(p for p in CORPUS.iterdir() if p.is_file() and p.suffix in (".txt", ".json"))
CORPUS_DATA = [p.read_bytes() for p in CORPUS_FILES]
CORPUS_JSON = [json.loads(d) for p, d in zip(CORPUS_FILES, CORPUS_DATA, strict=True) if p.suffix == ".json"]

# SSDWEAR_FUZZ_EXAMPLES raises the budget for a longer campaign; the default keeps this file under ~10 s.
FUZZ = settings(
    max_examples=int(os.environ.get("SSDWEAR_FUZZ_EXAMPLES") or 150),
    deadline=None,
    database=None,  # leave no .hypothesis directory in the repository
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def check(data: bytes | str, source: str = "fuzz.txt") -> Snapshot | None:
    """The property itself: a Snapshot, or a one-line ParseError that is not the internal-error guard."""
    try:
        snap = parse_output(data, source)
    except ParseError as exc:
        msg = str(exc)
        assert "internal parser error" not in msg, f"{msg}: {exc.__cause__!r}"
        assert "\n" not in msg
        return None
    assert isinstance(snap, Snapshot)
    assert snap.interface in ("ata", "nvme", "scsi", "unknown")
    assert isinstance(snap.messages, tuple) and isinstance(snap.parse_notes, tuple)
    for attr_id, attr in snap.attributes.items():
        assert attr.id == attr_id
    for key, entry in snap.devstats.items():
        assert (entry.page, entry.offset) == key
        assert entry.valid == (entry.value is not None)
    return snap


# ---------------------------------------------------------------------------------------------------
# Arbitrary input


@FUZZ
@given(st.binary(max_size=4000))
def test_arbitrary_bytes(data: bytes) -> None:
    check(data)


@FUZZ
@given(st.text(max_size=2000))
def test_arbitrary_text(text: str) -> None:
    check(text)


# Lines in smartctl's formats with random contents: reaches the table and key/value code paths.
_WORD = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=25)
_NUMBERISH = st.from_regex(r"[0-9 ,.'’\u202f\u00a0x%hms+\-\[\]()]{0,30}", fullmatch=True)
_LINES = st.one_of(
    st.sampled_from(
        [
            "smartctl 7.3 2022-02-28 r5338 [x86_64-linux-5.15.0] (local build)",
            "=== START OF INFORMATION SECTION ===",
            "=== START OF READ SMART DATA SECTION ===",
            "ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE",
            "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE",
            "Device Statistics (GP Log 0x04)",
            "SMART/Health Information (NVMe Log 0x02)",
            "Error counter log:",
            "                            ||||||_ K auto-keep",
            "",
        ]
    ),
    st.builds(
        "{:>3} {} {}   {}   {}   {}    {}    {}".format,
        st.integers(-5, 300),
        _WORD,
        st.sampled_from(["PO--CK", "-O--CK", "------", "POSR-K"]),
        st.sampled_from(["100", "001", "---", "255"]),
        st.sampled_from(["100", "253", "---"]),
        st.sampled_from(["000", "010", "---"]),
        st.sampled_from(["-", "NOW", "Past"]),
        _NUMBERISH,
    ),
    st.builds(
        "{:>3} {} 0x{:04x}   {}   {}   {}    {}  {}  {}  {}".format,
        st.integers(0, 999),
        _WORD,
        st.integers(0, 0xFFFF),
        st.sampled_from(["100", "001", "---"]),
        st.sampled_from(["100", "253"]),
        st.sampled_from(["000", "---"]),
        st.sampled_from(["Pre-fail", "Old_age"]),
        st.sampled_from(["Always", "Offline"]),
        st.sampled_from(["-", "FAILING_NOW", "In_the_past"]),
        _NUMBERISH,
    ),
    st.builds(
        "0x{:02x}  0x{:03x}  {}  {:>14}  {}  {}".format,
        st.integers(0, 255),
        st.integers(0, 0xFFF),
        st.integers(0, 8),
        st.one_of(st.integers(-(10**30), 10**30).map(str), st.just("-")),
        st.sampled_from(["---", "N--", "ND-", "-D-", "NDC"]),
        _WORD,
    ),
    st.builds(
        "{}: {}".format,
        st.sampled_from(
            [
                "Device Model",
                "Model Number",
                "Vendor",
                "Product",
                "Serial Number",
                "LU WWN Device Id",
                "Logical Unit id",
                "User Capacity",
                "Total NVM Capacity",
                "Namespace 1 Size/Capacity",
                "Namespace 1 Formatted LBA Size",
                "Sector Sizes",
                "Rotation Rate",
                "Local Time is",
                "SMART support is",
                "SMART overall-health self-assessment test result",
                "SMART Health Status",
                "Critical Warning",
                "Temperature",
                "Available Spare",
                "Percentage Used",
                "Data Units Written",
                "Power On Hours",
                "Power Cycles",
                "Percentage used endurance indicator",
                "Elements in grown defect list",
                "read",
                "write",
                "verify",
                "Firmware Version",
                "Revision",
            ]
        ),
        st.one_of(_NUMBERISH, _WORD),
    ),
    st.builds("Accumulated power on time, hours:minutes {}:{}".format, _NUMBERISH, st.integers(0, 99)),
    _WORD,
)


@FUZZ
@given(st.lists(_LINES, max_size=40), st.sampled_from(["\n", "\r\n"]))
def test_smartctl_shaped_text(lines: list[str], newline: str) -> None:
    check(newline.join(lines))


# ---------------------------------------------------------------------------------------------------
# JSON

_JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
_JSON = st.recursive(
    _JSON_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=12), children, max_size=5),
    ),
    max_leaves=25,
)
_SMARTCTL_KEYS = st.sampled_from(
    [
        "smartctl", "device", "model_name", "serial_number", "wwn", "firmware_version", "user_capacity",
        "logical_block_size", "rotation_rate", "local_time", "smart_status", "smart_support",
        "ata_smart_attributes", "ata_device_statistics", "nvme_smart_health_information_log", "power_on_time",
        "power_cycle_count", "scsi_error_counter_log", "scsi_grown_defect_list", "logical_unit_id",
        "scsi_percentage_used_endurance_indicator", "scsi_vendor", "scsi_product", "nvme_total_capacity",
    ]
)  # fmt: skip


@FUZZ
@given(_JSON)
def test_arbitrary_json_values(value: Any) -> None:
    check(json.dumps(value), "fuzz.json")


@FUZZ
@given(st.dictionaries(_SMARTCTL_KEYS, _JSON, max_size=10), _JSON)
def test_smartctl_keys_with_arbitrary_values(doc: dict[str, Any], version: Any) -> None:
    doc["json_format_version"] = [1, 0]
    if not isinstance(doc.get("smartctl"), dict):
        doc["smartctl"] = {"version": version}
    assert check(json.dumps(doc), "fuzz.json") is not None


# ---------------------------------------------------------------------------------------------------
# Damaged corpus files


@FUZZ
@given(st.sampled_from(CORPUS_DATA), st.floats(0, 1))
def test_truncated_corpus_files(data: bytes, where: float) -> None:
    check(data[: int(len(data) * where)])


@FUZZ
@given(
    st.sampled_from(CORPUS_DATA),
    st.lists(st.tuples(st.sampled_from(["delete", "duplicate", "swap"]), st.floats(0, 1)), max_size=12),
)
def test_corpus_line_edits(data: bytes, edits: list[tuple[str, float]]) -> None:
    lines = data.splitlines(keepends=True)
    for op, where in edits:
        if not lines:
            break
        i = min(int(where * len(lines)), len(lines) - 1)
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
    check(b"".join(lines))


@FUZZ
@given(
    st.sampled_from(CORPUS_DATA),
    st.lists(
        st.tuples(st.sampled_from(["set", "insert", "delete"]), st.floats(0, 1), st.binary(max_size=4)), max_size=20
    ),
)
def test_corpus_byte_mutations(data: bytes, edits: list[tuple[str, float, bytes]]) -> None:
    buf = bytearray(data)
    for op, where, chunk in edits:
        i = min(int(where * len(buf)), max(len(buf) - 1, 0))
        if op == "set" and buf and chunk:
            buf[i] = chunk[0]
        elif op == "insert":
            buf[i:i] = chunk
        elif op == "delete" and buf:
            del buf[i : i + 1 + len(chunk)]
    check(bytes(buf))


def _replace_subtree(doc: Any, path: list[int], value: Any) -> Any:
    """Replace the node reached by following `path` (indices into keys/items) with `value`."""
    if not path or not isinstance(doc, (dict, list)) or not doc:
        return value
    if isinstance(doc, dict):
        key = list(doc)[path[0] % len(doc)]
        return {**doc, key: _replace_subtree(doc[key], path[1:], value)}
    i = path[0] % len(doc)
    return [*doc[:i], _replace_subtree(doc[i], path[1:], value), *doc[i + 1 :]]


@FUZZ
@given(
    st.sampled_from(CORPUS_JSON),
    st.lists(st.tuples(st.lists(st.integers(0, 50), min_size=1, max_size=6), _JSON), min_size=1, max_size=4),
)
def test_corpus_json_with_replaced_subtrees(doc: Any, edits: list[tuple[list[int], Any]]) -> None:
    for path, value in edits:
        doc = _replace_subtree(doc, path, value)
    check(json.dumps(doc), "fuzz.json")


# ---------------------------------------------------------------------------------------------------
# --scan-open


@FUZZ
@given(st.one_of(st.text(max_size=500), _JSON.map(json.dumps), st.binary(max_size=500)))
def test_parse_scan_never_crashes(data: str | bytes) -> None:
    try:
        result = parse_scan(data)
    except ParseError as exc:
        assert "internal parser error" not in str(exc)
        return
    assert all(isinstance(name, str) and (kind is None or isinstance(kind, str)) for name, kind in result)
