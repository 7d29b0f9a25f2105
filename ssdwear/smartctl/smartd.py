"""What smartd writes: its attribute log (`smartd -A PREFIX`, `--attributelog`), read as readings of one drive. Pure.

The format, as smartmontools' src/smartd.cpp writes it (write_dev_attrlog; the ATA and SCSI lines unchanged from
5.39 and 6.1 to 8.0-pre but for the time zone of the stamp, the NVMe lines from 7.5 on):

- one file per drive, `PREFIX MODEL-SERIAL.ata.csv` (ATA), `PREFIX VENDOR-MODEL-SERIAL.scsi.csv` (SCSI) and, from
  smartmontools 7.5 on, `PREFIX MODEL-SERIAL[-nNSID].nvme.csv` (NVMe); MODEL, SERIAL and VENDOR are the drive's
  strings with the blanks around them dropped, then every byte that is not an ASCII letter or digit made `_`
  (not_allowed_in_filename), so the name's `-` only separate its parts; a control byte is one `_` (format_char_array,
  used for NVMe and, after 7.5, for ATA, makes it '?' first: '_' all the same);
- one line per check cycle (`-i`, 1800 s by default, at least 10 s), appended: `YYYY-MM-DD HH:MM:SS;` in UTC
  (gmtime) up to smartmontools 7.0, in the host's LOCAL time (time_to_tm_local) from 7.1 on (commit e9d93a4be,
  NEWS of 7.1: "Attribute logs now use local time instead of UTC"; smartd(8) still said UTC up to 7.3 and says local
  time from 7.4, commit 691731225), then for ATA `\\tID;NORMALISED;RAW;` per attribute (RAW is the 48-bit raw value
  as a decimal number, undecoded), for SCSI `\\tNAME;VALUE;` error counters (`read-gb-processed;%.3f;`, ...) and
  `\\ttemperature;N;`, for NVMe `\\tNAME;VALUE;` SMART/Health fields (`percentage-used`, `data-units-written`,
  `power-on-hours`, ...), then `\\n`.

Every line is untrusted input: one that does not have exactly this form (cut by a crash, garbage, a line of another
kind of drive) is skipped and counted, never guessed at; so is one whose power-on hours no drive can have
(plausible_hours, the live parser's rule) or that leave the order of the lines around it and come back (InOrder).
A line becomes a Snapshot of the live drive (line_snapshot): the live drive's identity and attribute names, the
line's values, so that the drive table (drives/) reads it exactly as it reads the drive now. The raw value of
attribute 9 is decoded the way the live drive's own reading shows it (hours, a 32-bit hour count beside
milliseconds, minutes, seconds: poh_decoder).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from functools import lru_cache
from typing import Generic, Literal, TypeVar

from ssdwear.model.records import Attribute, NvmeHealth, ScsiHealth, Snapshot

from .parse.builder import plausible_hours

LogKind = Literal["ata", "scsi", "nvme"]
SUFFIXES: dict[LogKind, str] = {"ata": ".ata.csv", "scsi": ".scsi.csv", "nvme": ".nvme.csv"}
SOURCE = "smartd:attrlog"  # how the readings' source is named everywhere
STAMP_LENGTH = 19  # 'YYYY-MM-DD HH:MM:SS'
# The longest line smartd can write: 255 ATA attributes of at most 3 + 3 + 15 digits, or the NVMe/SCSI fields; far
# more is not smartd's (a line is read up to this and then skipped).
MAX_LINE_BYTES = 16 * 1024
MAX_RAW48 = (1 << 48) - 1

_NOT_ALLOWED = re.compile(rb"[^0-9A-Za-z]")
_STAMP = rb"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d;"
_FIELDS: dict[LogKind, tuple[bytes, int]] = {  # what follows the stamp on each kind's line: a field, how many at most
    "ata": (rb"\t\d{1,3};\d{1,3};\d{1,15};", 255),  # one per attribute ID
    "scsi": (rb"\t[a-z][a-z-]{0,40};\d{1,20}(?:\.\d{1,6})?;", 64),  # smartd writes about a dozen named fields
    "nvme": (rb"\t[a-z][a-z-]{0,40};-?\d{1,20};", 64),
}
# A whole line of each kind, as written (without its '\n').
LINE_FORMS: dict[LogKind, re.Pattern[bytes]] = {
    kind: re.compile(_STAMP + rb"(?:%s)*" % field) for kind, (field, _) in _FIELDS.items()}
# The same lines found in a whole chunk at once, where a line starts (after a '\n': the chunk is searched with one
# put before it), with no more fields than smartd writes (so never longer than MAX_LINE_BYTES): a chunk of junk
# costs no Python work per line (host/smartd.lines).
CHUNK_FORMS: dict[LogKind, re.Pattern[bytes]] = {
    kind: re.compile(rb"\n(%s(?:%s){0,%d})(?=\n)" % (_STAMP, field, most)) for kind, (field, most) in _FIELDS.items()}
_ATA_FIELD = re.compile(rb"\t(\d+);(\d+);(\d+);")
_NAMED_FIELD = re.compile(rb"\t([a-z-]+);(-?[0-9.]+);")

# NVMe attrlog names (smartd 7.5: "names similar to smartctl JSON output with '-' instead of '_'") -> NvmeHealth.
NVME_FIELDS = {
    "critical-warning": "critical_warning", "temperature": "temperature_celsius", "available-spare": "available_spare",
    "available-spare-threshold": "available_spare_threshold", "percentage-used": "percentage_used",
    "data-units-read": "data_units_read", "data-units-written": "data_units_written",
    "host-reads": "host_read_commands", "host-writes": "host_write_commands", "power-cycles": "power_cycles",
    "power-on-hours": "power_on_hours", "unsafe-shutdowns": "unsafe_shutdowns", "media-errors": "media_errors",
    "num-err-log-entries": "error_log_entries",
}


def name_part(text: str) -> str:
    """MODEL, SERIAL or VENDOR as smartd puts it into a file name: surrounding blanks dropped (as smartd's id
    strings are), then every byte that is not an ASCII letter or digit replaced by '_'."""
    return _NOT_ALLOWED.sub(b"_", text.strip().encode("utf-8", "surrogateescape")).decode("ascii")


# A control character as the parser shows it (model/escape.visible): '\x1b' for one byte of the drive's string,
# '\u2028' for a character beyond U+00FF (its UTF-8 bytes).
_SHOWN_CONTROL = re.compile(r"\\x[0-9a-f]{2}|\\u[0-9a-f]{4}")


def _as_written(match: re.Match[str]) -> str:
    code = int(match.group()[2:], 16)
    return "_" * (1 if code < 0x100 else len(chr(code).encode("utf-8")))


def name_parts(text: str) -> list[str]:
    """The names smartd may have given a drive string that the parser shows with escapes: smartd saw the control
    byte itself and wrote one '_' for it (where ESC is shown '\\x1b'), and the text may also be written so literally
    (a backslash is not escaped). One name for a string without escapes."""
    names = [name_part(_SHOWN_CONTROL.sub(_as_written, text)), name_part(text)]
    return list(dict.fromkeys(names))


def log_kind(interface: str) -> LogKind | None:
    return {"ata": "ata", "scsi": "scsi", "nvme": "nvme"}.get(interface)  # type: ignore[return-value]


def stems(snap: Snapshot) -> list[str]:
    """The file names (without the prefix) smartd gives this drive's attribute log; [] when it has no serial.
    SCSI names hold `VENDOR-MODEL`, which smartctl prints as one model string 'VENDOR MODEL': each way of splitting
    it at a blank is a candidate (the file's contents then decide)."""
    kind = log_kind(snap.interface)
    if kind is None or not snap.model or not snap.serial:
        return []
    suffix = SUFFIXES[kind]
    if kind == "scsi":
        words = snap.model.split()
        models = [f"{vendor}-{model}" for i in range(1, len(words))
                  for vendor in name_parts(" ".join(words[:i])) for model in name_parts(" ".join(words[i:]))]
    else:
        models = name_parts(snap.model)
    return list(dict.fromkeys(f"{model}-{serial}{suffix}" for model in models for serial in name_parts(snap.serial)))


_NAMESPACE = re.compile(r"-n\d{1,10}$")


def nvme_namespace_stem(name: str) -> str:
    """An NVMe log's name without the namespace smartd adds for a drive opened as one (`-n1`)."""
    if not name.endswith(SUFFIXES["nvme"]):
        return name
    stem = name[: -len(SUFFIXES["nvme"])]
    return _NAMESPACE.sub("", stem) + SUFFIXES["nvme"]


@dataclass(frozen=True)
class LogName:
    """What a file name says (never proof of whose log it is: the contents and the live drive decide)."""

    kind: LogKind
    model: str  # as in the name: blanks and other characters already '_' (SCSI: VENDOR_MODEL)
    serial: str


_NAME = re.compile(r"(?P<model>[0-9A-Za-z_]*)-(?P<serial>[0-9A-Za-z_]+)(?:-n\d{1,10})?$")
_ATA_NAME = re.compile(r"(?P<model>[0-9A-Za-z_]*)-(?P<serial>[0-9A-Za-z_]+)$")
_SCSI_NAME = re.compile(r"(?P<vendor>[0-9A-Za-z_]*)-(?P<model>[0-9A-Za-z_]*)-(?P<serial>[0-9A-Za-z_]+)$")


def parse_name(name: str) -> LogName | None:
    """The drive a log's file name names, read from its end (the prefix before it can be anything)."""
    for kind, suffix in SUFFIXES.items():
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            if kind == "scsi":
                m = _SCSI_NAME.search(stem)
                return LogName(kind, f"{m['vendor']}_{m['model']}", m["serial"]) if m else None
            m = (_NAME if kind == "nvme" else _ATA_NAME).search(stem)
            return LogName(kind, m["model"], m["serial"]) if m else None
    return None


# ------------------------------------------------------------------------------------------------
# Lines


@dataclass(frozen=True)
class Line:
    """One line of an attribute log, checked."""

    stamp: str  # 'YYYY-MM-DD HH:MM:SS' as written: the host's local time
    ata: tuple[tuple[int, int, int], ...] = ()  # (id, normalised, raw48) per attribute
    values: Mapping[str, float] = field(default_factory=dict)  # SCSI and NVMe: name -> value


def stamp_problem(stamp: str) -> str | None:
    """Why a line's 'YYYY-MM-DD HH:MM:SS' (in smartd's shape: digits where the form has them) is not a time smartd
    could have written, or None: a date that does not exist (2026-02-31, month 13), a time past 23:59:60, a year
    before 1970 or after 9998 (the clock of a machine smartd runs on, and room for the time zone). Called for every
    line of a log: the time is compared as text, the day looked up once a day."""
    if stamp[11:13] > "23" or stamp[14:16] > "59" or stamp[17:19] > "60":
        return "impossible date"
    return _day_problem(stamp[:10])


@lru_cache(maxsize=4096)
def _day_problem(day: str) -> str | None:
    year, month, number = int(day[0:4]), int(day[5:7]), int(day[8:10])
    if not 1970 <= year <= 9998:
        return "impossible date"
    try:
        date(year, month, number)
    except ValueError:
        return "impossible date"
    return None


def parse_line(raw: bytes, kind: LogKind) -> Line | str:
    """The line (without its '\\n'), or why it is not one smartd writes for this kind of drive."""
    if not LINE_FORMS[kind].fullmatch(raw):
        return "not in smartd's format"
    stamp = raw[:STAMP_LENGTH].decode("ascii")
    if stamp_problem(stamp) is not None:
        return f"impossible date {stamp}"
    body = raw[STAMP_LENGTH + 1:]
    if kind == "ata":
        fields = tuple((int(a), int(n), int(r)) for a, n, r in _ATA_FIELD.findall(body))
        ids = [f[0] for f in fields]
        if len(set(ids)) != len(ids) or any(not 1 <= i <= 255 or n > 255 or r > MAX_RAW48 for i, n, r in fields):
            return "attribute ID, value or raw value out of range, or an ID twice"
        return Line(stamp, ata=fields)
    named = {k.decode("ascii"): float(v) for k, v in _NAMED_FIELD.findall(body)}
    if len(named) != body.count(b"\t"):
        return "a field twice"
    return Line(stamp, values=named)


# ------------------------------------------------------------------------------------------------
# The raw value of attribute 9, decoded as the live drive shows it

Decoder = Callable[[int], float]
# How drives and smartctl's drive database (-v 9,FORMAT) lay out power-on time in the 48-bit raw value.
POH_DECODERS: tuple[tuple[str, Decoder], ...] = (
    ("hours", float),
    ("hours in the low 32 bits (msec24hour32)", lambda r: float(r & 0xFFFFFFFF)),
    ("hours in the low 24 bits (raw24)", lambda r: float(r & 0xFFFFFF)),
    ("hours in the low 16 bits", lambda r: float(r & 0xFFFF)),
    ("minutes", lambda r: r / 60),
    ("minutes in the low 32 bits", lambda r: (r & 0xFFFFFFFF) / 60),
    ("half-minutes", lambda r: r / 120),
    ("seconds", lambda r: r / 3600),
)


def poh_decoder(live: Snapshot) -> tuple[str, Decoder] | None:
    """The layout of attribute 9's raw value under which the live drive's raw value gives its power-on hours (to
    the hour); None when none does (then the log's attribute 9 cannot be read as hours)."""
    attr = live.attr(9)
    if attr is None or attr.raw is None or live.power_on_hours is None or not live.power_on_hours_trusted:
        return None
    return next(((name, fn) for name, fn in POH_DECODERS if abs(fn(attr.raw) - live.power_on_hours) <= 1.0), None)


def line_hours(line: Line, kind: LogKind, decode: Decoder | None) -> float | None:
    """The line's power-on hours: attribute 9 decoded (ATA), the NVMe field; None for SCSI (smartd logs none)."""
    if kind == "nvme":
        value = line.values.get("power-on-hours")
        return None if value is None else float(value)
    if kind == "ata" and decode is not None:
        return next((decode(raw) for i, _, raw in line.ata if i == 9), None)
    return None


def hours_problem(hours: float) -> str | None:
    """Why a line's power-on hours cannot be the drive's (attribute 9 raw 0xFFFFFFFFFFFF, 9,000,000 h), or None: the
    live parser's one rule for every source of power-on hours (plausible_hours)."""
    return None if plausible_hours(hours) else "power-on hours no drive can have"


OUT_OF_ORDER = "power-on hours out of order with the lines around them (went down or up and came back)"
# A run of lines out of order that has not come back after this many lines is a break (a drive replaced, a counter
# reset), not a glitch: the lines are kept and the series reads the break (assess/history.py).
GLITCH_LINES = 256

T = TypeVar("T")


class InOrder(Generic[T]):
    """The lines whose power-on hours keep their order, each let through once the lines after it have shown it is
    in order. Power-on hours only go up: a run of lines below the line before it that comes back up to it, or a line
    above the next line that is not below the line before it, went out and came back, which no drive's clock does
    (a firmware's glitch: 0 h, or 50,000 h, between lines of 12,000 h). Such lines are held back (`dropped`). A run
    that has not come back within GLITCH_LINES lines is a break (a drive replaced), and is let through."""

    def __init__(self) -> None:
        self.last: float | None = None  # the hours of the last line let through
        self.pending: list[tuple[float, T]] = []
        self.dropped: list[T] = []

    def offer(self, hours: float, item: T) -> list[T]:
        """The items now known to be in order (in file order) once this line is offered."""
        self.pending.append((hours, item))
        return self._resolve(final=False)

    def close(self) -> list[T]:
        """The items still held that are in order: at the end, a run that has not come back is let through."""
        return self._resolve(final=True)

    def _verdict(self) -> int | None:
        """How many lines at the head of `pending` are out of order (0: the first is in order); None: not known yet."""
        p, last = self.pending, self.last
        first = p[0][0]
        if last is None:
            return 0
        if first < last:  # down: out of order when a line after it comes back up to the line before it
            return next((k for k, (h, _) in enumerate(p) if h >= last), None)
        for h, _ in p[1:]:  # up: out of order when the next line not below the line before it is below it
            if h > first:
                return 0
            if last <= h < first:
                return 1
        return None  # (lines at its very hours, or below the line before it: not known yet)

    def _resolve(self, final: bool) -> list[T]:
        out: list[T] = []
        while self.pending:
            out_of_order = self._verdict()
            if out_of_order is None:
                if not final and len(self.pending) <= GLITCH_LINES:
                    break
                out_of_order = 0  # no way back: a break (or the end), and the series goes on from it
            if out_of_order:
                self.dropped.extend(item for _, item in self.pending[:out_of_order])
                del self.pending[:out_of_order]
            else:
                self.last, item = self.pending.pop(0)
                out.append(item)
        return out


# smartd writes its stamps in local time from smartmontools 7.1 on, in UTC before (commit e9d93a4be).
LOCAL_TIME_SINCE = (7, 1)
_VERSION = re.compile(r"(\d+)\.(\d+)")


def stamps_in_utc(smartmontools: str | None) -> bool | None:
    """Whether the smartd of this smartmontools release ('7.0', '7.3'; the smartctl that read the drive is the same
    package) writes attribute-log stamps in UTC; None when the release is not known (a pre-release of 7.1, none)."""
    m = _VERSION.fullmatch(smartmontools or "")
    if m is None:
        return None
    return (int(m[1]), int(m[2])) < LOCAL_TIME_SINCE


def _attributes(live: Snapshot, line: Line) -> dict[int, Attribute]:
    out = {}
    for i, value, raw in line.ata:
        known = live.attr(i)
        out[i] = Attribute(id=i, name=known.name if known is not None else "Unknown_Attribute", value=value,
                           worst=None, thresh=known.thresh if known is not None else None, raw=raw,
                           raw_string=str(raw), prefailure=known.prefailure if known is not None else False)
    return out


def _nvme(line: Line) -> NvmeHealth:
    return NvmeHealth(**{field: int(line.values[name]) for name, field in NVME_FIELDS.items() if name in line.values})


def _scsi(line: Line) -> ScsiHealth:
    v = line.values
    unc = [v[f"{k}-total-unc-errors"] for k in ("read", "write", "verify") if f"{k}-total-unc-errors" in v]
    gb = {k: round(v[f"{k}-gb-processed"] * 1e9) for k in ("read", "write") if f"{k}-gb-processed" in v}
    return ScsiHealth(bytes_written=gb.get("write"), bytes_read=gb.get("read"),
                      uncorrected_errors=int(sum(unc)) if unc else None)


def as_logged(live: Snapshot) -> Snapshot:
    """The live reading as smartd logs it: without what the log never holds (Device Statistics, log pages, the
    health verdict, smartctl's messages), so that it reads through the drive table as the log's lines do."""
    return replace(live, devstats={}, nvme_logs={}, messages=(), parse_notes=(), problems=(), exit_status=None,
                   smart_passed=None, local_time=None, truncated=False)


def line_snapshot(live: Snapshot, line: Line, kind: LogKind, hours: float | None, source: str) -> Snapshot:
    """The drive as this line saw it: the live drive's identity and attribute names with the line's values (and
    nothing the log does not hold: as_logged)."""
    trusted = hours is not None and hours_problem(hours) is None
    base = replace(as_logged(live), source=source, power_on_hours=hours, power_on_hours_trusted=trusted,
                   attributes={}, nvme=None, scsi=None, power_cycles=None)
    if kind == "ata":
        attributes = _attributes(live, line)
        cycles = attributes.get(12)
        return replace(base, attributes=attributes, power_cycles=cycles.raw if cycles is not None else None)
    if kind == "nvme":
        nvme = _nvme(line)
        return replace(base, nvme=nvme, power_cycles=nvme.power_cycles)
    return replace(base, scsi=_scsi(line))
