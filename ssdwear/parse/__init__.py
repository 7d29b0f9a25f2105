"""Parse smartctl output (text or JSON) into a :class:`~ssdwear.records.Snapshot`.

Two entry points:

* :func:`parse_output` reads what one ``smartctl`` call printed (``-a``/``-x`` text of any version from 6.x to
  7.5, Windows CRLF and Latin-1 captures included, or ``--json`` output) and returns one ``Snapshot``.
* :func:`parse_scan` reads ``smartctl --scan-open`` (text or ``--json=c``) and returns
  ``(device, -d type)`` pairs.

Anything that is not smartctl output raises :class:`~ssdwear.errors.ParseError` with a one-line
message; no other exception ever escapes. Only the standard library is imported, every regular
expression is compiled once at import, and text is parsed in one pass over its lines.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ..errors import ParseError
from ..records import Attribute, DevStat, Snapshot
from .builder import Builder
from .json_reader import parse_json
from .scan import parse_scan, parse_scan_entries
from .values import (
    HINT_TEXT,
    MAX_DIGITS,
    MAX_INPUT_BYTES,
    attr9_hours,
    clean_id,
    decode,
    gigabytes_to_bytes,
    grouped_int,
    hex_or_int,
    lu_id,
    one_line,
    parse_local_time,
    raw_int,
    small_int,
    source_name,
    text_wwn,
)

__all__ = ["MAX_INPUT_BYTES", "parse_output", "parse_scan", "parse_scan_entries"]

# --------------------------------------------------------------------------------------------------
# Text


_BANNER_RE = re.compile(r"smartctl\s+(?:version\s+)?((?:pre-)?[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)\s+(?:[0-9]{4}-|\[|r[0-9])")
# `-x` brief format: ID# ATTRIBUTE_NAME FLAGS VALUE WORST THRESH FAIL RAW_VALUE
_ATTR_BRIEF_RE = re.compile(
    r"([0-9]{1,3})\s+(\S+)\s+([A-Za-z-]{6})\+?\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+"
    r"(-|NOW|Past|now|past)\s+(\S.*)"
)
# `-a` / `-f old`: ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW_VALUE
_ATTR_OLD_RE = re.compile(
    r"([0-9]{1,3})\s+(\S+)\s+0x[0-9a-fA-F]{4}\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+"
    r"(Pre-fail|Old_age)\s+(Always|Offline)\s+(\S+)\s+(\S.*)"
)
_DEVSTAT_RE = re.compile(r"0x([0-9a-fA-F]{2})\s+0x([0-9a-fA-F]{3})\s+[0-9]+\s+(-?[0-9]+|-)\s+([A-Z-]{3,4})\s+(\S.*)")
_POWER_ON_TIME_RE = re.compile(
    r"Accumulated power on time, hours:minutes\s+([0-9][0-9,.'’\u202f\u00a0]*):([0-9]{1,2})(?![0-9])"
)
_ERRLOG_ROW_RE = re.compile(r"(read|write|verify):\s*(.*)")
# Split table columns on ASCII blanks only: U+202F and NBSP are thousands separators, not column gaps.
_ASCII_WS_RE = re.compile(r"[ \t]+")
_NAMESPACE_KEY_RE = re.compile(r"namespace [0-9]+ (size/capacity|formatted lba size)")
_MESSAGE_RE = re.compile(
    r"(?:Smartctl open device: .*"
    r"|Smartctl: .*"
    r"|Device is in .* mode.*"
    r"|=+> .*"
    r"|Read Device Identity failed.*"
    r"|A mandatory SMART command failed.*"
    r"|SMART support is:\s*Unavailable.*"
    r"|SMART Disabled\..*"
    r"|SMART Status not supported.*"
    r"|SMART Status command failed.*"
    r"|Warning: .*"
    r"|Read \S.* failed.*"
    r"|Please specify device type.*"
    r"|/dev/\S+: (?:Unknown|Unable|Unsupported|Device).*"
    r"|Terminate command early.*"
    r"|No such device.*"
    r"|Permission denied.*"
    r"|Device open changed type.*"
    r")"
)

# Error lines only smartctl prints: enough to recognise its output even without the banner.
_SMARTCTL_ERROR_PREFIXES = (
    "Smartctl open device:",
    "Smartctl: ",
    "Device is in ",
    "=======> ",
    "Read Device Identity failed",
    "A mandatory SMART command failed",
)
_FAIL_TEXT = {
    "-": "",
    "NOW": "FAILING_NOW",
    "now": "FAILING_NOW",
    "Past": "In_the_past",
    "past": "In_the_past",
}

_MODE_NONE = 0
_MODE_ATTR = 1
_MODE_DEVSTAT = 2
_MODE_NVME = 3
_MODE_ERRLOG = 4
_TABLE_MODES = (_MODE_ATTR, _MODE_DEVSTAT, _MODE_NVME, _MODE_ERRLOG)

# NVMe SMART/Health log lines: key (lower case, single spaces) -> NvmeHealth field.
_NVME_KEYS = {
    "critical warning": "critical_warning",
    "temperature": "temperature_celsius",
    "available spare": "available_spare",
    "available spare threshold": "available_spare_threshold",
    "percentage used": "percentage_used",
    "data units read": "data_units_read",
    "data units written": "data_units_written",
    "host read commands": "host_read_commands",
    "host write commands": "host_write_commands",
    "power cycles": "power_cycles",
    "power on hours": "power_on_hours",
    "unsafe shutdowns": "unsafe_shutdowns",
    "media and data integrity errors": "media_errors",
    "error information log entries": "error_log_entries",
}
_NVME_CORE = ("percentage_used", "data_units_written", "power_on_hours", "available_spare")


class _TextParser:
    def __init__(self, b: Builder) -> None:
        self.b = b
        self.mode = _MODE_NONE
        self.banner = False
        self.sections = 0
        self.info_section = False
        self.data_section = False
        self.attr_header = False
        self.attr_legend = False
        self.devstat_header = False
        self.devstat_legend = False
        self.last_line_mode = _MODE_NONE  # table the last non-blank line arrived in (truncation check)
        self.nvme_block = False
        self.errlog = False
        self.smartctl_error = False  # a line only smartctl prints ('Smartctl open device: ... failed')
        self.model_number = False
        self.device_model = False
        self.scsi_marker = False
        self.vendor: Optional[str] = None
        self.product: Optional[str] = None
        self.total_nvm_capacity: Optional[int] = None
        self.namespace_capacity: Optional[int] = None
        self.user_capacity: Optional[int] = None
        self.poh_scsi: Optional[float] = None
        self.scsi_gb: dict[str, int] = {}
        self.scsi_unc: dict[str, int] = {}
        self.handlers: dict[str, Callable[[str], None]] = {
            "model family": self._model_family,
            "device model": self._device_model,
            "model number": self._model_number,
            "vendor": self._vendor,
            "product": self._product,
            "revision": self._firmware,
            "firmware version": self._firmware,
            "serial number": self._serial,
            "lu wwn device id": self._wwn,
            "logical unit id": self._logical_unit_id,
            "user capacity": self._user_capacity,
            "total nvm capacity": self._total_nvm_capacity,
            "sector size": self._sector_size,
            "sector sizes": self._sector_size,
            "logical block size": self._sector_size,
            "formatted lba size": self._sector_size,
            "rotation rate": self._rotation_rate,
            "local time is": self._local_time,
            "smart support is": self._smart_support,
            "smart overall-health self-assessment test result": self._ata_health,
            "smart health status": self._scsi_health,
            "percentage used endurance indicator": self._scsi_percentage,
            "elements in grown defect list": self._grown_defects,
            "transport protocol": self._scsi_marker,
            "physical block size": self._scsi_marker,
        }

    # -- identity --------------------------------------------------------------------------------
    def _model_family(self, v: str) -> None:
        if self.b.model_family is None:
            self.b.model_family = v.strip() or None

    def _device_model(self, v: str) -> None:
        self.device_model = True
        if self.b.model is None:
            self.b.model = v.strip() or None

    def _model_number(self, v: str) -> None:
        self.model_number = True
        if self.b.model is None:
            self.b.model = v.strip() or None

    def _vendor(self, v: str) -> None:
        self.scsi_marker = True
        if self.vendor is None:
            self.vendor = v.strip()

    def _product(self, v: str) -> None:
        self.scsi_marker = True
        if self.product is None:
            self.product = v.strip()

    def _firmware(self, v: str) -> None:
        if self.b.firmware is None:
            self.b.firmware = clean_id(v)

    def _serial(self, v: str) -> None:
        if self.b.serial is None:
            self.b.serial = clean_id(v)

    def _wwn(self, v: str) -> None:
        if self.b.wwn is None:
            self.b.wwn = text_wwn(v)

    def _logical_unit_id(self, v: str) -> None:
        self.scsi_marker = True
        if self.b.wwn is None:
            self.b.wwn = lu_id(v)

    def _user_capacity(self, v: str) -> None:
        if self.user_capacity is None:
            self.user_capacity = grouped_int(v)

    def _total_nvm_capacity(self, v: str) -> None:
        if self.total_nvm_capacity is None:
            self.total_nvm_capacity = grouped_int(v)

    def _sector_size(self, v: str) -> None:
        if self.b.logical_sector_size is None:
            self.b.logical_sector_size = grouped_int(v)

    def _rotation_rate(self, v: str) -> None:
        if self.b.rotation_rate is not None:
            return
        if "solid state" in v.lower():
            self.b.rotation_rate = 0
        else:
            self.b.rotation_rate = grouped_int(v)

    def _local_time(self, v: str) -> None:
        if self.b.local_time is None:
            self.b.local_time = parse_local_time(v, self.b.notes)

    def _smart_support(self, v: str) -> None:
        word = v.strip().split(" ", 1)[0].lower() if v.strip() else ""
        if word == "available":
            self.b.smart_available = True
        elif word == "unavailable":
            self.b.smart_available = False
        elif word == "enabled":
            self.b.smart_enabled = True
        elif word == "disabled":
            self.b.smart_enabled = False

    def _ata_health(self, v: str) -> None:
        word = v.strip().upper()
        if word.startswith("PASSED"):
            self.b.smart_passed = True
        elif word.startswith("FAILED"):
            self.b.smart_passed = False

    def _scsi_health(self, v: str) -> None:
        self.scsi_marker = True
        word = v.strip()
        if word:
            self.b.smart_passed = word.upper() == "OK"

    def _scsi_percentage(self, v: str) -> None:
        self.scsi_marker = True
        n = grouped_int(v)
        if n is not None:
            self.b.scsi.setdefault("percentage_used", n)

    def _grown_defects(self, v: str) -> None:
        n = grouped_int(v)
        if n is not None:
            self.b.scsi.setdefault("grown_defects", n)

    def _scsi_marker(self, v: str) -> None:
        self.scsi_marker = True

    # -- tables ----------------------------------------------------------------------------------
    def _attr_row(self, s: str) -> bool:
        m = _ATTR_BRIEF_RE.fullmatch(s)
        if m is not None:
            aid, name, flags, value, worst, thresh, fail, raw = m.groups()
            prefail = flags[0] == "P"
            when_failed = _FAIL_TEXT.get(fail, "")
        else:
            m = _ATTR_OLD_RE.fullmatch(s)
            if m is None:
                return False
            aid, name, value, worst, thresh, kind, _updated, fail, raw = m.groups()
            prefail = kind == "Pre-fail"
            when_failed = "" if fail == "-" else fail
        attr_id = int(aid)
        if not 0 < attr_id < 256:
            return False
        raw = raw.rstrip()
        if attr_id not in self.b.attributes:
            self.b.attributes[attr_id] = Attribute(
                id=attr_id,
                name=name,
                value=small_int(value),
                worst=small_int(worst),
                thresh=small_int(thresh),
                raw=raw_int(raw),
                raw_string=raw,
                when_failed=when_failed,
                prefailure=prefail,
            )
        return True

    def _devstat_row(self, s: str) -> bool:
        m = _DEVSTAT_RE.fullmatch(s)
        if m is None:
            return False
        page_s, offset_s, value_s, flags, name = m.groups()
        page, offset = int(page_s, 16), int(offset_s, 16)
        valid = value_s != "-" and len(value_s) <= MAX_DIGITS
        key = (page, offset)
        if key not in self.b.devstats:
            self.b.devstats[key] = DevStat(
                page=page,
                offset=offset,
                name=name.strip(),
                value=int(value_s) if valid else None,
                valid=valid,
                normalized="N" in flags,
            )
        return True

    def _errlog_row(self, s: str) -> bool:
        m = _ERRLOG_ROW_RE.fullmatch(s)
        if m is None:
            return False
        kind, rest = m.groups()
        tokens = [t for t in _ASCII_WS_RE.split(rest.strip()) if t]
        if len(tokens) >= 2:
            gb = gigabytes_to_bytes(tokens[-2])
            unc = grouped_int(tokens[-1]) if tokens[-1].isdigit() else None
            if gb is not None:
                self.scsi_gb.setdefault(kind, gb)
            if unc is not None:
                self.scsi_unc.setdefault(kind, unc)
        return True

    # -- main loop -------------------------------------------------------------------------------
    def feed(self, lines: list[str]) -> None:
        b = self.b
        handlers = self.handlers
        for line in lines:
            s = line.strip()
            if not s:
                # a blank line ends a table, except in Device Statistics (smartctl 7.1+ separates pages)
                if self.mode != _MODE_DEVSTAT:
                    self.mode = _MODE_NONE
                self.last_line_mode = _MODE_NONE
                continue
            mode = self.last_line_mode = self.mode
            if mode == _MODE_ATTR:
                if self._attr_row(s):
                    continue
                if s[0] == "|":
                    self.attr_legend = True
                    continue
                self.mode = _MODE_NONE
            elif mode == _MODE_DEVSTAT:
                if self._devstat_row(s):
                    continue
                if s[0] == "|":
                    self.devstat_legend = True
                    continue
                if s.startswith("Page") or "=====" in s:
                    continue
                self.mode = _MODE_NONE
            elif mode == _MODE_ERRLOG:
                if self._errlog_row(s):
                    continue
                if ":" not in s:
                    continue  # the three header lines of the table
                self.mode = _MODE_NONE

            first = s[0]
            if first == "=":
                if s.startswith("=== START OF"):
                    self.sections += 1
                    upper = s.upper()
                    if "INFORMATION SECTION" in upper:
                        self.info_section = True
                    elif "SMART DATA SECTION" in upper:
                        self.data_section = True
                    continue
            elif first == "I" and s.startswith("ID#") and "ATTRIBUTE_NAME" in s:
                self.mode = _MODE_ATTR
                self.attr_header = True
                self.sections += 1
                continue
            elif first == "D" and s.startswith("Device Statistics ("):
                self.mode = _MODE_DEVSTAT
                self.devstat_header = True
                self.sections += 1
                continue
            elif first == "S" and s.startswith("SMART/Health Information"):
                self.mode = _MODE_NVME
                self.nvme_block = True
                self.sections += 1
                continue
            elif first == "s" and not self.banner:
                bm = _BANNER_RE.match(s)
                if bm is not None:
                    self.banner = True
                    b.smartctl_version = bm.group(1)
                    continue
            elif first == "E" and s.lower().startswith("error counter log"):
                self.mode = _MODE_ERRLOG
                self.errlog = True
                self.sections += 1
                continue
            elif first == "A" and s.startswith("Accumulated power on time"):
                pm = _POWER_ON_TIME_RE.match(s)
                if pm is not None and self.poh_scsi is None:
                    hours = grouped_int(pm.group(1))
                    if hours is not None:
                        self.poh_scsi = hours + int(pm.group(2)) / 60
                continue

            if _MESSAGE_RE.match(s) is not None:
                b.add_message(s)
                if s.startswith(_SMARTCTL_ERROR_PREFIXES):
                    self.smartctl_error = True
                if not s.startswith("SMART support is"):
                    continue

            key, sep, value = s.partition(":")
            if not sep:
                continue
            k = " ".join(key.split()).lower()
            handler = handlers.get(k)
            if handler is not None:
                handler(value)
                continue
            field = _NVME_KEYS.get(k)
            if field is not None:
                n = hex_or_int(value)
                if n is not None and field not in b.nvme:
                    b.nvme[field] = n
                continue
            nm = _NAMESPACE_KEY_RE.fullmatch(k)
            if nm is not None:
                if nm.group(1) == "size/capacity":
                    if self.namespace_capacity is None:
                        self.namespace_capacity = grouped_int(value)
                elif b.logical_sector_size is None:
                    b.logical_sector_size = grouped_int(value)

    def finish(self) -> None:
        b = self.b
        if self.nvme_block or self.model_number:
            b.interface = "nvme"
        elif self.device_model or b.attributes:
            b.interface = "ata"
        elif self.scsi_marker or self.errlog:
            b.interface = "scsi"
        elif b.nvme:
            b.interface = "nvme"

        if b.interface == "scsi":
            if self.vendor or self.product:
                b.model = " ".join(p for p in (self.vendor, self.product) if p) or None
            if "read" in self.scsi_gb:
                b.scsi["bytes_read"] = self.scsi_gb["read"]
            if "write" in self.scsi_gb:
                b.scsi["bytes_written"] = self.scsi_gb["write"]
            if self.scsi_unc:
                b.scsi["uncorrected_errors"] = sum(self.scsi_unc.values())
        if b.interface != "nvme" and b.interface != "unknown":
            b.nvme.clear()

        b.capacity_bytes = self.user_capacity or self.total_nvm_capacity or self.namespace_capacity

        # power-on hours and cycles
        a9 = b.attributes.get(9)
        if b.interface == "ata" and a9 is not None:
            b.power_on_hours = attr9_hours(a9)
        elif b.interface == "nvme" and "power_on_hours" in b.nvme:
            b.power_on_hours = float(b.nvme["power_on_hours"])
        elif b.interface == "scsi" and self.poh_scsi is not None:
            b.power_on_hours = self.poh_scsi
        a12 = b.attributes.get(12)
        if b.interface == "ata" and a12 is not None:
            b.power_cycles = a12.raw
        elif b.interface == "nvme":
            b.power_cycles = b.nvme.get("power_cycles")

        # signs of a cut-off capture
        cut = [
            (self.last_line_mode == _MODE_ATTR and not self.attr_legend,
             "output ends inside the SMART attribute table (truncated?)"),
            (self.last_line_mode == _MODE_DEVSTAT and not self.devstat_legend,
             "output ends inside the Device Statistics table (truncated?)"),
            (self.attr_header and not b.attributes, "SMART attribute table header without rows (truncated?)"),
            (self.devstat_header and not b.devstats, "Device Statistics header without entries (truncated?)"),
            (self.nvme_block and any(f not in b.nvme for f in _NVME_CORE),
             "NVMe SMART/Health Information block incomplete (truncated?)"),
        ]
        for is_cut, note in cut:
            if is_cut:
                b.notes.append(note)
                b.truncated = True
        if self.data_section and b.interface == "ata" and not self.attr_header:
            b.notes.append("no SMART attribute table (output truncated, or smartctl run without -A/-a/-x)")
        if self.data_section and b.interface == "nvme" and not self.nvme_block:
            b.notes.append("no NVMe SMART/Health Information block (output truncated, or run without -A/-a/-x)")
        has_data = b.smart_passed is not None or b.attributes or b.nvme or b.scsi or b.devstats
        if self.info_section and not self.data_section and not has_data and not b.messages:
            b.notes.append("no SMART data section (output truncated, or smartctl run without -a/-x)")

    @property
    def recognised(self) -> bool:
        return self.banner or self.sections > 0 or self.smartctl_error


def _parse_text(text: str, source: str) -> Builder:
    b = Builder(source)
    p = _TextParser(b)
    lines = text.splitlines()
    if lines and not text.endswith(("\n", "\r")):
        # The last line has no line end. Inside a table that is a capture cut mid-row ('228 ... 60' of 6000):
        # the row is dropped and the output marked truncated. Elsewhere it is only a missing final newline.
        p.feed(lines[:-1])
        if p.mode in _TABLE_MODES and lines[-1].strip():
            b.notes.append(f"last line {one_line(lines[-1])[:80]!r} has no line end: the capture was cut "
                           "mid-row; the row was dropped")
            b.truncated = True
        else:
            p.feed(lines[-1:])
    else:
        p.feed(lines)
    if not p.recognised:
        raise ParseError(f"{source_name(source)}: not smartctl output (no smartctl banner or JSON); {HINT_TEXT}")
    p.finish()
    return b


# --------------------------------------------------------------------------------------------------
# Public API


def parse_output(data: bytes | str, source: str, device: str | None = None, device_type: str | None = None) -> Snapshot:
    """Parse one smartctl output (text or JSON) into a Snapshot.

    ``source`` (file name or device path) goes into ``Snapshot.source`` and error messages; ``device`` and
    ``device_type`` override what the output says. Raises ParseError, and nothing else, for input that is not
    smartctl output.
    """
    try:
        if len(data) > MAX_INPUT_BYTES:
            raise ParseError(f"{source_name(source)}: {len(data):,} bytes is far more than smartctl prints for one "
                             f"drive (at most {MAX_INPUT_BYTES // 1024 // 1024} MiB is read); {HINT_TEXT}")
        text = decode(data)
        stripped = text.lstrip()
        if not stripped:
            raise ParseError(f"{source_name(source)}: empty input, not smartctl output; {HINT_TEXT}")
        if stripped[0] == "{":
            b = parse_json(text, source)
        else:
            try:
                b = _parse_text(text, source)
            except ParseError:
                # JSON after a user-typed command line ('$ smartctl -j -x /dev/sda')
                brace = text.find("\n{")
                if brace < 0 or "smartctl" not in text[:brace]:
                    raise
                b = parse_json(text[brace + 1 :], source)
        return b.build(device, device_type)
    except ParseError:
        raise
    except Exception as exc:  # a parser bug must not take the whole run down
        raise ParseError(
            f"{source_name(source)}: internal parser error ({type(exc).__name__}) on this smartctl output; "
            "please report it with the file attached"
        ) from exc


