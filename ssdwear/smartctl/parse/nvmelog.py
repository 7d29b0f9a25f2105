"""NVMe log pages that smartctl printed as hex dumps (``smartctl -l nvmelog,0xPAGE,0xSIZE``).

smartctl prints a header, ``NVMe Log 0xca (0x0200 bytes)`` (6.5 to 7.4) or ``NVMe Log 0xca (NSID 0xffffffff,
0x0200 bytes)`` (7.5 on: the namespace the page was read for, smartmontools nvmeprint.cpp), then ``dStrHex``'s
lines: the offset in hex, up to 16 bytes as two hex digits each, and an ASCII column from column 60 that may hold
anything printable (spaces and hex-looking letters too; up to 7.3 a line's trailing blanks are cut). A row is read
as its offset and exactly as many byte cells as the header leaves for it (16, fewer on the last line), so the
ASCII column is never read as bytes. A page is kept only when every row is in sequence and it has exactly the
header's size; a damaged or cut-off dump is a note, never a guess. JSON output has no key for the dump: only
``--json=co`` carries it, as these same lines in ``smartctl.output``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

HEADER = re.compile(r"NVMe Log 0x([0-9a-fA-F]{2}) \((?:NSID 0x[0-9a-fA-F]{1,8}, )?0x([0-9a-fA-F]{1,5}) bytes\)$")
MAX_LOG_BYTES = 0x4000  # the most smartctl reads (smartctl.8: SIZE from 0x4 to 0x4000)
MAX_DUMPS = 16  # pages kept from one output; smartctl prints one per -l nvmelog option
_OFFSET = re.compile(r"[0-9a-fA-F]{2,4}")
_BYTE = re.compile(r"[0-9a-fA-F]{2}")


@dataclass
class Dump:
    log_id: int
    size: int
    data: bytearray = field(default_factory=bytearray)
    damaged: str | None = None


def start(m: re.Match[str]) -> Dump | None:
    """The dump a header line opens, or None for a size smartctl cannot print."""
    size = int(m.group(2), 16)
    return Dump(int(m.group(1), 16), size) if 0 < size <= MAX_LOG_BYTES else None


@dataclass
class Dumps:
    """The dumps of one output: the first MAX_DUMPS kept, the others only counted (a file of nothing but headers
    must not cost a dump object and a note each)."""

    kept: list[Dump] = field(default_factory=list)
    more: int = 0
    current: Dump | None = None  # the dump whose rows follow (one beyond the limit reads its rows into nothing)

    def open(self, m: re.Match[str]) -> bool:
        """Start the dump a header line opens; False for a size smartctl cannot print."""
        dump = start(m)
        if dump is not None and len(self.kept) >= MAX_DUMPS:
            self.more += 1
            dump.damaged = "beyond the limit"  # its rows are consumed, not stored
        elif dump is not None:
            self.kept.append(dump)
        self.current = dump
        return dump is not None


def add_row(dump: Dump, line: str) -> bool:
    """Read one stripped line into the dump; False when it is not a dump row (the dump ended before it)."""
    tokens = line.split()
    if not tokens or not _OFFSET.fullmatch(tokens[0]):
        return False
    if dump.damaged is not None:
        return True
    want = min(16, dump.size - len(dump.data))
    if int(tokens[0], 16) != len(dump.data) or want <= 0:
        dump.damaged = f"has a row at offset 0x{tokens[0]} out of sequence"
        return True
    cells = tokens[1:1 + want]
    if len(cells) != want or not all(_BYTE.fullmatch(c) for c in cells):
        dump.damaged = f"has a row at offset 0x{tokens[0]} that is not {want} hex bytes"
        return True
    dump.data += bytes(int(c, 16) for c in cells)
    return True


def read_lines(lines: Iterable[str]) -> Dumps:
    """Every dump in these lines (``smartctl.output`` of ``--json=co``): a header, its rows up to a blank line."""
    dumps = Dumps()
    for line in lines:
        s = line.strip()
        if dumps.current is not None and s and add_row(dumps.current, s):
            continue
        dumps.current = None
        m = HEADER.match(s)
        if m is not None:
            dumps.open(m)
    return dumps


def pages(dumps: Dumps, notes: list[str]) -> dict[int, bytes]:
    """The complete pages by log id (the first of a log printed twice); a note for each one left out."""
    out: dict[int, bytes] = {}
    for dump in dumps.kept:
        why = dump.damaged
        if why is None and len(dump.data) != dump.size:
            why = f"ends after {len(dump.data)} of its {dump.size} bytes (truncated?)"
        if why is not None:
            notes.append(f"NVMe log 0x{dump.log_id:02x} dump {why}; ignored")
        elif dump.log_id not in out:
            out[dump.log_id] = bytes(dump.data)
    if dumps.more:
        notes.append(f"{dumps.more:,} more NVMe log dumps in this output ignored (smartctl prints one per "
                     f"-l nvmelog option; at most {MAX_DUMPS} are read)")
    return out
