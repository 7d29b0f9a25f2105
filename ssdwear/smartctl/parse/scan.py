"""Read ``smartctl --scan-open`` output (text, or ``--json=c``): the devices smartctl lists, and why it could not
open those it could not."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from ssdwear.model.errors import ParseError
from ssdwear.model.records import ScanEntry

from .values import clean_str, decode, jdict, jlist, visible_json

_SCAN_FAILED_RE = re.compile(r"#\s*(\S+)(?:\s+-d\s+(\S+))?\s+#.*?open failed:\s*(.*)")
# smartctl 5.40, the first --scan-open: 'INFO_NAME -d TYPE [PROTOCOL] (opened)' or '(open failed: REASON)', where the
# info name may carry its own bracket ('/dev/sda [SAT]'); from 5.41 the lines smartd.conf takes (below)
_SCAN_5_40_RE = re.compile(r"(\S+)(?: \[[^\]]*\])? -d (\S+) \[[^\]]*\](?: \((?:opened|open failed: (.*))\))?")
_SCAN_LINE_RE = re.compile(r"(\S+)(?:\s+-d\s+(\S+))?\s*(?:#.*)?")
_SCAN_NAME_RE = re.compile(r"(?:/\S+|IOService:\S+|[A-Za-z]+[0-9]+\S*)")


def parse_scan(data: bytes | str) -> list[tuple[str, str | None]]:
    """The devices smartctl could open, from ``smartctl --scan-open`` text or ``--json=c``: [(name, -d type)]."""
    return [(e.name, e.type) for e in parse_scan_entries(data) if e.open_error is None]


def parse_scan_entries(data: bytes | str) -> list[ScanEntry]:
    """Every device ``smartctl --scan-open`` (text or ``--json=c``) lists, with the open error of those it could
    not open (RAID controller volumes say so there). Raises ParseError for JSON that cannot be read."""
    try:
        text = decode(data)
        out: list[ScanEntry] = []
        seen: set[tuple[str, str | None]] = set()

        def add(entry: ScanEntry) -> None:
            if (entry.name, entry.type) not in seen:
                seen.add((entry.name, entry.type))
                out.append(entry)

        stripped = text.lstrip()
        if stripped.startswith("{"):
            _scan_json(stripped, add)
        else:
            _scan_text(text, add)
        return out
    except ParseError:
        raise
    except Exception as exc:
        raise ParseError(f"smartctl --scan-open: internal parser error ({type(exc).__name__})") from exc


def _scan_json(text: str, add: Callable[[ScanEntry], None]) -> None:
    try:
        obj = visible_json(json.loads(text))
    except (ValueError, RecursionError):
        raise ParseError(
            "smartctl --scan-open: truncated or invalid JSON; run 'smartctl --scan-open --json=c' again"
        ) from None
    if not isinstance(obj, dict):
        raise ParseError("smartctl --scan-open: JSON is not a smartctl object")
    for dev_v in jlist(obj.get("devices")):
        dev = jdict(dev_v)
        name = clean_str(dev.get("name"))
        if name is not None:
            error = dev.get("open_error")
            add(ScanEntry(name, clean_str(dev.get("type")),
                          None if "open_error" not in dev else str(error or "open failed")))


def _scan_text(text: str, add: Callable[[ScanEntry], None]) -> None:
    for line in text.splitlines():
        s = line.strip()
        failed = _SCAN_FAILED_RE.fullmatch(s)
        if failed is not None:  # '# /dev/sda -d scsi # /dev/sda, SCSI device open failed: REASON'
            add(ScanEntry(failed.group(1), failed.group(2), failed.group(3).strip()))
            continue
        if not s or s.startswith("#"):
            continue
        old = _SCAN_5_40_RE.fullmatch(s)
        if old is not None:
            add(ScanEntry(old.group(1), old.group(2), old.group(3).strip() if old.group(3) is not None else None))
            continue
        m = _SCAN_LINE_RE.fullmatch(s)
        if m is None or _SCAN_NAME_RE.fullmatch(m.group(1)) is None:
            continue
        add(ScanEntry(m.group(1), m.group(2)))
