"""Conformance of ssdwear.smartctl.parse over the recorded smartctl corpus, against the hand-read MANIFEST.md.

The corpus lies in fixtures/corpus (copied from the project's shared corpus with its MANIFEST and SOURCES);
nothing from it is copied here. The expected values are parsed from MANIFEST.md's tables at test time,
exactly as printed there, and converted with the small helpers below.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.corpus import FILES, Row, manifest_rows
from support.paths import CORPUS, CORPUS_MANIFEST

from ssdwear.model.errors import ParseError
from ssdwear.model.records import DEVSTAT_PERCENT_USED, Snapshot
from ssdwear.smartctl.parse import parse_output

MANIFEST = CORPUS_MANIFEST
# Files allowed to raise ParseError: none. Every recorded output, the Windows open failure included, is a
# smartctl output and gives a Snapshot (the open failure an empty one with exit_status 2 and its message).
MAY_RAISE: frozenset[str] = frozenset()


@pytest.fixture(scope="module")
def manifest() -> list[Row]:
    if not MANIFEST.is_file():
        pytest.skip("MANIFEST.md not found beside the corpus")
    return manifest_rows(MANIFEST.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------------------------
# Values as printed -> numbers

_ESCAPES = {"\\xA0": "\u00a0", "\\xa0": "\u00a0", "\\u202F": "\u202f", "\\u202f": "\u202f"}
_PRINTED_INT = re.compile(r"\s*([0-9]+(?:[,.'’\u202f\u00a0 ][0-9]{3}(?![0-9]))*)")
_RAW_INT = re.compile(r"\s*(0x[0-9a-fA-F]+|[0-9]+)")


def unescape(value: str) -> str:
    for esc, char in _ESCAPES.items():
        value = value.replace(esc, char)
    return value


def printed_int(value: str) -> int:
    """'2,603,733,369 [1.33 PB]' -> 2603733369, '5.809' -> 5809, '18924h+45m+31.870s' -> 18924, '146:02' -> 146."""
    m = _PRINTED_INT.match(unescape(value))
    assert m is not None, f"no number in {value!r}"
    return int(re.sub(r"[^0-9]", "", m.group(1)))


def raw_int(value: str) -> int:
    """Leading number of a RAW_VALUE as printed: '0x14610d501461' -> hex, '9558 2344 9558' -> 9558."""
    m = _RAW_INT.match(value)
    assert m is not None, f"no raw number in {value!r}"
    token = m.group(1)
    return int(token, 16) if token.startswith("0x") else int(token)


def norm_int(value: str) -> int | None:
    return None if value.strip() == "---" else int(value)


def is_na(value: str) -> bool:
    return value.strip().lower() in ("n/a", "")


# ---------------------------------------------------------------------------------------------------
# Checks


class Checker:
    def __init__(self, name: str, snap: Snapshot) -> None:
        self.name = name
        self.snap = snap
        self.failures: list[str] = []

    def eq(self, field: str, expected: object, got: object) -> None:
        if expected != got:
            self.failures.append(f"{self.name}: {field}: expected {expected!r}, got {got!r}")

    # one method per kind of MANIFEST column
    def model(self, v: str) -> None:
        self.eq("model", v, self.snap.model)

    def interface(self, v: str) -> None:
        self.eq("interface", v, self.snap.interface)

    def smartctl(self, v: str) -> None:
        self.eq("smartctl_version", v.split()[0], self.snap.smartctl_version)

    def hours(self, v: str) -> None:
        expected = printed_int(v)
        a9 = self.snap.attr(9)
        if a9 is not None:
            self.eq("attribute 9 raw", expected, a9.raw)
        replaced = any("using Device Statistics" in n for n in self.snap.parse_notes)
        if self.snap.power_on_hours_trusted and not replaced:  # (else the clock is Device Statistics' hours)
            got = self.snap.power_on_hours
            self.eq("power_on_hours (integer part)", expected, None if got is None else int(got))
        else:  # absurd attribute 9 (SandForce h+m+s): the parser must say why it did not trust it
            self.eq("parse note for untrusted power-on hours", True, bool(self.snap.parse_notes))
        if self.snap.interface == "nvme":
            self.eq("nvme.power_on_hours", expected, self.snap.nvme and self.snap.nvme.power_on_hours)

    def attr_raw(self, attr_id: int, v: str) -> None:
        a = self.snap.attr(attr_id)
        self.eq(f"attribute {attr_id} raw", raw_int(v), None if a is None else a.raw)

    def attr_norm(self, attr_id: int, v: str) -> None:
        a = self.snap.attr(attr_id)
        self.eq(f"attribute {attr_id} normalized", norm_int(v), None if a is None else a.value)

    def devstat(self, v: str) -> None:
        entry = self.snap.devstats.get(DEVSTAT_PERCENT_USED)
        self.eq("devstat 0x07/0x008", int(v), None if entry is None else entry.value)

    def health(self, v: str) -> None:
        health, _, exit_part = v.partition(" / ")
        health = health.strip()
        if health in ("PASSED", "OK"):
            self.eq("smart_passed", True, self.snap.smart_passed)
        elif health in ("FAILED!", "FAILED"):
            self.eq("smart_passed", False, self.snap.smart_passed)
        elif not is_na(health):
            self.failures.append(f"{self.name}: health: MANIFEST value {health!r} not understood")
        m = re.search(r"exit_status (\d+)", exit_part)
        if m is not None:
            status = int(m.group(1))
            self.eq("exit_status", status, self.snap.exit_status)
            if status & 2:  # device open failed: a valid, empty snapshot carrying smartctl's message
                self.eq("messages present", True, bool(self.snap.messages))
                self.eq("model (open failure)", None, self.snap.model)
                self.eq("attributes (open failure)", {}, dict(self.snap.attributes))

    def attr_items(self, v: str, with_norm: bool) -> None:
        for item in (x.strip() for x in v.split(";")):
            if item.startswith("Percentage Used"):
                self.nvme_pu(item.removeprefix("Percentage Used"))
            elif item.startswith("DUW "):
                self.nvme_duw(item.removeprefix("DUW "))
            elif with_norm:
                m = re.fullmatch(r"(\d+) (\S+) (\d+|---)/(.+)", item)
                assert m is not None, f"{self.name}: MANIFEST attribute item not understood: {item!r}"
                attr_id = int(m.group(1))
                self.attr_name(attr_id, m.group(2))
                self.attr_norm(attr_id, m.group(3))
                self.attr_raw(attr_id, m.group(4))
            else:
                m = re.fullmatch(r"(\d+) (\S+) (.+)", item)
                assert m is not None, f"{self.name}: MANIFEST counter item not understood: {item!r}"
                self.attr_name(int(m.group(1)), m.group(2))
                self.attr_raw(int(m.group(1)), m.group(3))

    def attr_name(self, attr_id: int, name: str) -> None:
        a = self.snap.attr(attr_id)
        self.eq(f"attribute {attr_id} name", name, None if a is None else a.name)

    def nvme_pu(self, v: str) -> None:
        self.eq("nvme.percentage_used", printed_int(v), self.snap.nvme and self.snap.nvme.percentage_used)

    def nvme_duw(self, v: str) -> None:
        self.eq("nvme.data_units_written", printed_int(v), self.snap.nvme and self.snap.nvme.data_units_written)

    def nvme_spare(self, v: str) -> None:
        self.eq("nvme.available_spare", printed_int(v), self.snap.nvme and self.snap.nvme.available_spare)

    def scsi_pu(self, v: str) -> None:
        self.eq("scsi.percentage_used", printed_int(v), self.snap.scsi and self.snap.scsi.percentage_used)

    def local_time(self, v: str) -> None:
        if v.strip() == "--" or "..." in v:
            self.eq("local_time (masked)", None, self.snap.local_time)

    def column(self, header: str, value: str) -> None:
        """Check one MANIFEST cell; unknown columns fail so that new MANIFEST data cannot be skipped silently."""
        h = header.lower()
        if h in ("file", "notes", "series", "drive id", "commit (date)", "key figures") or h.startswith("source"):
            return
        if is_na(value):
            return
        m = re.fullmatch(r"(\d+) (raw|norm)", h)
        simple: dict[str, Callable[[str], None]] = {
            "model": self.model,
            "if": self.interface,
            "smartctl": self.smartctl,
            "devstat %": self.devstat,
            "percentage used": self.nvme_pu,
            "data units written (as printed)": self.nvme_duw,
            "duw integer": self.nvme_duw,
            "available spare": self.nvme_spare,
            "percentage used endurance indicator": self.scsi_pu,
            "local time is": self.local_time,
        }
        if m is not None:
            (self.attr_raw if m.group(2) == "raw" else self.attr_norm)(int(m.group(1)), value)
        elif h in simple:
            simple[h](value)
        elif h.startswith(("poh", "power on hours", "power-on time")):
            self.hours(value)
        elif h.startswith("health"):
            self.health(value)
        elif h.startswith(("wear-related attrs", "relevant attrs")):
            self.attr_items(value, with_norm=True)
        elif h.startswith("write/read counters"):
            self.attr_items(value, with_norm=False)
        else:
            self.failures.append(f"{self.name}: MANIFEST column {header!r} has no check")


# ---------------------------------------------------------------------------------------------------
# Tests


def parse_file(path: Path) -> Snapshot:
    return parse_output(path.read_bytes(), path.name)


def test_corpus_is_complete(manifest: list[Row]) -> None:
    text = MANIFEST.read_text(encoding="utf-8")
    m = re.search(r"Files: (\d+) recorded outputs", text)
    assert m is not None, "MANIFEST.md no longer states its file count"
    assert len(FILES) == int(m.group(1)), f"{len(FILES)} files in {CORPUS}, MANIFEST says {m.group(1)}"
    names = {p.name for p in FILES}
    listed = {r.file for r in manifest}
    assert sorted(listed - names) == [], "MANIFEST rows without a file"
    class_rows = [r for r in manifest if re.match(r"[A-E]\. ", r.table)]
    class_files = [r.file for r in class_rows]
    assert sorted(names - set(class_files)) == [], "files without a MANIFEST class row"
    assert len(class_files) == len(set(class_files)), "files listed in more than one class table"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_parses_without_unexpected_errors(path: Path) -> None:
    try:
        snap = parse_file(path)
    except ParseError as exc:
        assert path.name in MAY_RAISE, f"{path.name}: ParseError: {exc}"
        return
    assert snap.source == path.name
    assert snap.interface in ("ata", "nvme", "scsi", "unknown")
    if snap.nvme is not None or snap.interface == "nvme":
        assert snap.interface == "nvme" and snap.nvme is not None, f"{path.name}: NVMe health vs interface"
    if snap.interface != "scsi":
        assert snap.scsi is None, f"{path.name}: ScsiHealth on a {snap.interface} device"
    for attr_id, a in snap.attributes.items():
        assert attr_id == a.id and 0 < attr_id < 256
        if path.suffix == ".txt":
            assert a.raw == raw_int(a.raw_string), f"{path.name}: attribute {attr_id} raw {a.raw_string!r}"
    for (page, offset), d in snap.devstats.items():
        assert (page, offset) == (d.page, d.offset)
        assert d.valid == (d.value is not None)
    if snap.local_time is not None:
        assert snap.local_time.tzinfo is not None


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_matches_manifest(path: Path, manifest: list[Row]) -> None:
    rows = [r for r in manifest if r.file == path.name]
    assert rows, f"{path.name}: not in MANIFEST.md"
    snap = parse_file(path)
    checker = Checker(path.name, snap)
    for row in rows:
        for header, value in row.cells.items():
            checker.column(header, value)
    assert not checker.failures, "\n".join(checker.failures)


def _timings() -> Iterator[tuple[str, float, int]]:
    for path in FILES:
        data = path.read_bytes()
        best = min(_time_once(data, path.name) for _ in range(3))
        yield path.name, best, len(data)


def _time_once(data: bytes, name: str) -> float:
    t0 = time.perf_counter()
    parse_output(data, name)
    return time.perf_counter() - t0


def test_parse_speed() -> None:
    timings = list(_timings())
    mean = sum(t for _, t, _ in timings) / len(timings)
    worst = max(timings, key=lambda x: x[1])
    # Loose bounds (best of three runs) so a busy machine does not fail the suite: the parser is ~10x faster.
    assert mean < 0.005, f"mean parse time {mean * 1000:.2f} ms"
    assert worst[1] < 0.05, f"{worst[0]}: {worst[1] * 1000:.1f} ms for {worst[2]} bytes"
