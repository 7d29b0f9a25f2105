"""Read smartctl's text output (``-a``, ``-x`` and their parts; smartctl 5.0.11 to the current source, every
layout of a line it reads pinned by fixtures/formats) into a Builder.

One pass over the lines. Each stripped, non-blank line is, in this order:

1. a line of the table the reader is in (SMART attributes, Device Statistics, SCSI error counter log), read by
   that section's ``rows``;
2. a section header from :data:`SECTIONS` (looked up by its first character);
3. a message smartctl prints when something failed (kept in ``Snapshot.messages``);
4. a ``Key: value`` line, read by :data:`_KEYS` (identity, health, SCSI), the NVMe field map :data:`NVME_KEYS`
   or the NVMe namespace lines.

A blank line ends a table (except in Device Statistics). Adding a section is one :class:`Section` entry in
:data:`SECTIONS`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from ssdwear.model.errors import ParseError

from . import nvmelog
from .builder import Builder
from .text_tables import attribute_row, devstat_row, errlog_row, whole_attribute_row
from .text_words import (
    ATA_DEVICE_5_0_RE,
    ATTR_TABLE_5_0_RE,
    FAILURE_LINES,
    MESSAGE_RE,
    NVME_KEYS,
    SCSI_DEVICE_LOOSE_RE,
    SCSI_DEVICE_RE,
    SMART_5_0_RE,
)
from .values import (
    HINT_TEXT,
    attr9_hours,
    clean_id,
    grouped_int,
    hex_or_int,
    lu_id,
    nvme_version,
    one_line,
    parse_local_time,
    pci_vendor,
    source_name,
    text_wwn,
)

# 'smartctl 7.3 2022-02-28 r5338 [...]' (5.39 on), 'smartctl version 5.38 [i686-pc-linux-gnu] Copyright ...'
# (5.33-5.38), 'smartctl version 5.0-11 Copyright (C) 2002 Bruce Allen' (5.0.11-5.31: no platform)
_BANNER_RE = re.compile(
    r"smartctl\s+(?:version\s+)?((?:pre-)?[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)\s+(?:[0-9]{4}-|\[|r[0-9]|Copyright\b)"
)
_POWER_ON_TIME_RE = re.compile(
    r"Accumulated power on time, hours:minutes\s+([0-9][0-9,.'’\u202f\u00a0]*):([0-9]{1,2})(?![0-9])"
)
_DEVSTAT_TABLE_RE = re.compile(r"Device Statistics \((?:GP|SMART|GP/SMART) Log 0x04\)")
_DEVSTAT_FAILED_RE = re.compile(r"Read Device Statistics .*failed")
_NAMESPACE_KEY_RE = re.compile(r"namespace [0-9]+ (size/capacity|formatted lba size)")
_NVME_CORE = ("percentage_used", "data_units_written", "power_on_hours", "available_spare")
# SCSI error counter log rows: row name -> ScsiHealth field of its 'Gigabytes processed' column.
SCSI_ERRLOG_BYTES = {"read": "bytes_read", "write": "bytes_written"}


# --------------------------------------------------------------------------------------------------
# Sections


def _accept(p: TextParser, m: re.Match[str]) -> bool:
    return True


@dataclass(frozen=True)
class Section:
    """A section of smartctl's text output, recognised by its header line.

    ``header`` is matched at the start of the stripped line; lines are dispatched on its first character, which
    must be a literal. ``enter`` reads the header line and returns False when the line is not this section's
    header after all (it is then read as any other line).

    When ``table`` is true the header opens a table: it counts as a section, its ``name`` goes into
    ``TextParser.seen``, and the lines after it go to ``rows`` until a blank line (unless ``through_blanks``)
    or until ``rows`` returns False (the table ends there and that line is read as any other line). A table
    whose ``rows`` is None is a block of 'Key: value' lines, read by the key handlers, up to the next blank
    line. ``cut_note`` is the note (and ``Snapshot.truncated``) when the output ends inside the table before
    its end: ``rows`` adds the name to ``TextParser.ended`` when it sees the closing legend, or smartctl's
    message that the rest of the table could not be read.
    """

    name: str
    header: re.Pattern[str]
    enter: Callable[[TextParser, re.Match[str]], bool] = _accept
    table: bool = True
    rows: Callable[[TextParser, str], bool] | None = None
    through_blanks: bool = False
    cut_note: str | None = None


def _start_of(p: TextParser, m: re.Match[str]) -> bool:
    """'=== START OF INFORMATION SECTION ===', '=== START OF READ SMART DATA SECTION ===' (and others)."""
    p.sections += 1
    upper = m.string.upper()
    if "INFORMATION SECTION" in upper:
        p.info_section = True
    elif "SMART DATA SECTION" in upper:
        p.data_section = True
    return True


def _banner(p: TextParser, m: re.Match[str]) -> bool:
    """'smartctl 7.3 2022-02-28 r5338 [x86_64-linux-5.15.0] (local build)' and the older forms of _BANNER_RE: the
    first one gives the version, as printed ('5.0-11' is release 5.0.11)."""
    if p.banner:
        return False
    p.banner = True
    p.b.smartctl_version = m.group(1)
    return True


def _power_on_time(p: TextParser, m: re.Match[str]) -> bool:
    """SCSI 'Accumulated power on time, hours:minutes 12,345:07' (grouped in some locales; a SCSI-only line, in the
    background scan log from 5.37 and in -A from 7.2)."""
    p.scsi_marker = True
    pm = _POWER_ON_TIME_RE.match(m.string)
    if pm is not None and p.poh_scsi is None:
        hours = grouped_int(pm.group(1))
        if hours is not None:
            p.poh_scsi = hours + int(pm.group(2)) / 60
    return True


def _factory_hours(p: TextParser, m: re.Match[str]) -> bool:
    """Seagate's and Hitachi's SAS factory log page (vendor page 0x3e), '  number of hours powered up = 7127.12':
    smartctl prints it for drives whose vendor is SEAGATE, HITACHI, HL-DT-ST or HGST, at least since 6.5 (scsiprint.cpp,
    scsiPrintSeagateFactoryLPage: the parameter's minutes / 60 as '%.2f', whose decimal mark follows the locale)."""
    if p.poh_factory is None:
        p.poh_factory = int(m.group(1)) + int(m.group(2)) / 100
    return True


def _attribute_header(p: TextParser, m: re.Match[str]) -> bool:
    """'ID# ATTRIBUTE_NAME ...': the brief format (-x, '-f brief': FLAGS ... FAIL) is followed by its '|' legend;
    the old one (-a, -A: FLAG ... TYPE UPDATED WHEN_FAILED) by a blank line only (smartmontools ataprint.cpp,
    PrintSmartAttribWithThres), so a saved output may end right after its last row."""
    p.attr_legend = "WHEN_FAILED" not in m.string.upper()
    return True


def _attribute_line(p: TextParser, s: str) -> bool:
    """A row of the SMART attribute table, or a line of the '|' legend under ``-x``'s brief format."""
    if attribute_row(p.b, s):
        return True
    if s[0] == "|":
        p.ended.add("attributes")
        return True
    return False


def _devstat_header(p: TextParser, m: re.Match[str]) -> bool:
    """'Device Statistics (GP Log 0x04)' opens the table; 'Device Statistics (GP/SMART Log 0x04) not supported'
    and '... supported pages' (the list of pages, with -l devstat,0) are not it."""
    return _DEVSTAT_TABLE_RE.fullmatch(m.string) is not None


def _devstat_line(p: TextParser, s: str) -> bool:
    """A Device Statistics entry, its '|' legend, or a page title line between the entries (pages marked
    '(empty)' included). smartctl's 'Read Device Statistics page 0x04 failed' ends the table: it printed all
    it could (the line itself is then read as a message)."""
    if devstat_row(p.b, s):
        return True
    if s[0] == "|":
        p.ended.add("devstats")
        return True
    if _DEVSTAT_FAILED_RE.match(s):
        p.ended.add("devstats")
        return False
    return s.startswith("Page") or "=====" in s


def _log_page(p: TextParser, m: re.Match[str]) -> bool:
    """'NVMe Log 0xca (0x0200 bytes)': a page dumped with -l nvmelog; its hex rows follow."""
    return p.dumps.open(m)


def _log_row(p: TextParser, s: str) -> bool:
    return p.dumps.current is not None and nvmelog.add_row(p.dumps.current, s)


def _errlog_line(p: TextParser, s: str) -> bool:
    """A row of the SCSI error counter log ('read: ...'), or one of the three header lines (they have no ':', but
    for 5.1.10-5.32's 'delay:       [rereads/ ...')."""
    return errlog_row(p.scsi_gb, p.scsi_unc, s) or ":" not in s or s.startswith("delay:")


# Every section the reader knows, one entry each. The three with table=False are one line long.
SECTIONS = (
    Section("start", re.compile(r"=== START OF"), _start_of, table=False),
    Section("banner", _BANNER_RE, _banner, table=False),
    Section("attributes", re.compile(r"ID#.*ATTRIBUTE_NAME", re.DOTALL), _attribute_header, rows=_attribute_line,
            cut_note="output ends inside the SMART attribute table (truncated?)"),
    # smartctl 5.0-5.0.10's table: it ends with its last row (no legend, no blank line), so a cut is not seen
    Section("attributes", ATTR_TABLE_5_0_RE, rows=_attribute_line),
    Section("devstats", re.compile(r"Device Statistics \("), _devstat_header, rows=_devstat_line, through_blanks=True,
            cut_note="output ends inside the Device Statistics table (truncated?)"),
    # 'SMART/Health Information (NVMe Log 0x02)': its 'Key: value' lines are read with NVME_KEYS
    Section("nvme", re.compile(r"SMART/Health Information")),
    Section("errlog", re.compile(r"E(?i:rror counter log)"), rows=_errlog_line),
    Section("power_on_time", re.compile(r"Accumulated power on time"), _power_on_time, table=False),
    Section("factory_hours", re.compile(r"number of hours powered up\s*=\s*([0-9]{1,9})[.,]([0-9]{2})$"),
            _factory_hours, table=False),
    Section("nvmelog", nvmelog.HEADER, _log_page, rows=_log_row),
)


def _by_first_character(sections: tuple[Section, ...]) -> dict[str, tuple[Section, ...]]:
    table: dict[str, tuple[Section, ...]] = {}
    for section in sections:
        first = section.header.pattern[:1]
        if not first or not (first.isalnum() or first in "=#/"):
            raise ValueError(f"section {section.name!r}: header pattern must start with a literal character")
        table[first] = (*table.get(first, ()), section)
    return table


_HEADERS = _by_first_character(SECTIONS)


# --------------------------------------------------------------------------------------------------
# The reader


class TextParser:
    def __init__(self, b: Builder) -> None:
        self.b = b
        self.table: Section | None = None  # the table the reader is in
        self.last_table: Section | None = None  # table the last non-blank line arrived in (truncation check)
        self.seen: set[str] = set()  # names of the tables whose header was read
        self.ended: set[str] = set()  # names of the tables whose end was read (legend, or a read failure)
        self.attr_legend = True  # the attribute table is in the brief format, which ends with a legend
        self.banner = False
        self.sections = 0
        self.info_section = False
        self.data_section = False
        self.smartctl_error = False  # a line only smartctl prints ('Smartctl open device: ... failed')
        self.model_number = False
        self.device_model = False
        self.scsi_marker = False
        self.vendor: str | None = None
        self.product: str | None = None
        self.total_nvm_capacity: int | None = None
        self.namespace_capacity: int | None = None
        self.user_capacity: int | None = None
        self.poh_scsi: float | None = None  # SCSI background scan results: 'Accumulated power on time'
        self.poh_factory: float | None = None  # Seagate/Hitachi factory page: 'number of hours powered up'
        self.scsi_gb: dict[str, int] = {}
        self.scsi_unc: dict[str, int] = {}
        self.dumps = nvmelog.Dumps()

    # -- the line loop ---------------------------------------------------------------------------
    def feed(self, lines: list[str]) -> None:
        headers = _HEADERS
        for line in lines:
            s = line.strip()
            if not s:
                # a blank line ends a table, except in Device Statistics (smartctl 7.1+ separates pages)
                if self.table is not None and not self.table.through_blanks:
                    self.table = None
                self.last_table = None
                continue
            table = self.last_table = self.table
            if table is not None and table.rows is not None:
                if table.rows(self, s):
                    continue
                self.table = None
            for section in headers.get(s[0], ()):
                m = section.header.match(s)
                if m is not None and section.enter(self, m):
                    if section.table:
                        self.sections += 1
                        self.seen.add(section.name)
                        self.table = section
                    break
            else:  # not a section header
                self._other_line(s)

    def _other_line(self, s: str) -> None:
        """A line that is neither a table row nor a section header: a smartctl message or a 'Key: value'."""
        b = self.b
        if MESSAGE_RE.match(s) is not None:
            b.add_message(s)
            if s.startswith(FAILURE_LINES):
                self.smartctl_error = True
            if not s.startswith("SMART support is"):
                return
        key, sep, value = s.partition(":")
        if not sep:
            self._smart_5_0(s)
            return
        k = " ".join(key.split()).lower()
        handler = _KEYS.get(k)
        if handler is not None:
            handler(self, value)
            return
        field = NVME_KEYS.get(k)
        if field is not None:
            n = hex_or_int(value)
            if n is not None and field not in b.nvme:
                b.nvme[field] = n
            return
        nm = _NAMESPACE_KEY_RE.fullmatch(k)
        if nm is not None:
            if nm.group(1) == "size/capacity":
                if self.namespace_capacity is None:
                    self.namespace_capacity = grouped_int(value)
            elif b.logical_sector_size is None:
                b.logical_sector_size = grouped_int(value)

    @property
    def recognised(self) -> bool:
        return self.banner or self.sections > 0 or self.smartctl_error

    # -- 'Key: value' lines: identity ------------------------------------------------------------
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

    def _nvme_version(self, v: str) -> None:
        self.b.nvme_version = nvme_version(v)

    def _pci_vendor(self, v: str) -> None:
        self.b.pci_vendor = pci_vendor(v)

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

    # -- 'Key: value' lines: health --------------------------------------------------------------
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

    def _device(self, v: str) -> None:
        """'Device:' of smartctl 5.0-5.0.7 for ATA ('Device: MODEL  Supports ATA Version 7'), of 5.0-5.40 for SCSI
        ('Device: VENDOR   PRODUCT          Version: REV', the INQUIRY fields as they are)."""
        ata = ATA_DEVICE_5_0_RE.fullmatch(v.strip())
        if ata is not None:
            self._device_model(ata.group(1))
            return
        m = SCSI_DEVICE_RE.fullmatch(v.strip(" ")) or SCSI_DEVICE_LOOSE_RE.fullmatch(v.strip())
        if m is None:
            return
        self.scsi_marker = True
        self._vendor(m.group(1))
        self._product(m.group(2))
        self._firmware(m.group(3))

    def _smart_5_0(self, s: str) -> None:
        """smartctl 5.0-5.0.7: 'Drive supports S.M.A.R.T. and is enabled' (or disabled; or does not support it)."""
        m = SMART_5_0_RE.fullmatch(s)
        if m is not None:
            self.b.smart_available = m.group(1) is not None
            self.b.smart_enabled = m.group(1) == "enabled" if m.group(1) else None

    def _scsi_sense(self, v: str) -> None:
        """smartctl 5.0-5.1.12: 'S.M.A.R.T. Sense: Okay!' (5.0), 'Ok!' (5.0.2-5.1.9), 'SMART Sense: Ok!' (5.1.10),
        else the sense text."""
        self.scsi_marker = True
        if v.strip():
            self.b.smart_passed = v.strip().upper() in ("OK!", "OKAY!")

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
        self.scsi_marker = True
        n = grouped_int(v)
        if n is not None:
            self.b.scsi.setdefault("grown_defects", n)

    def _scsi_marker(self, v: str) -> None:
        self.scsi_marker = True

    # -- after the last line ---------------------------------------------------------------------
    def finish(self) -> None:
        self._interface()
        if self.b.interface == "scsi":
            self._scsi()
        if self.b.interface != "nvme" and self.b.interface != "unknown":
            self.b.nvme.clear()
        self.b.capacity_bytes = self.user_capacity or self.total_nvm_capacity or self.namespace_capacity
        self._power()
        self._cut_notes()
        self.b.nvme_logs = nvmelog.pages(self.dumps, self.b.notes)

    def _interface(self) -> None:
        """Which kind of drive printed this, from the sections and keys seen."""
        b = self.b
        if "nvme" in self.seen or self.model_number:
            b.interface = "nvme"
        elif self.device_model or b.attributes or b.devstats:  # Device Statistics are ATA's
            b.interface = "ata"
        elif self.scsi_marker or "errlog" in self.seen:
            b.interface = "scsi"
        elif b.nvme:
            b.interface = "nvme"

    def _scsi(self) -> None:
        """A SCSI device's model (vendor and product), and its totals from the error counter log."""
        b = self.b
        if self.vendor or self.product:
            b.model = " ".join(p for p in (self.vendor, self.product) if p) or None
        for kind, field in SCSI_ERRLOG_BYTES.items():
            if kind in self.scsi_gb:
                b.scsi[field] = self.scsi_gb[kind]
        if self.scsi_unc:
            b.scsi["uncorrected_errors"] = sum(self.scsi_unc.values())

    def _power(self) -> None:
        """Power-on hours and cycles, from where each kind of drive reports them."""
        b = self.b
        a9 = b.attributes.get(9)
        if b.interface == "ata" and a9 is not None:
            b.power_on_hours = attr9_hours(a9)
        elif b.interface == "nvme" and "power_on_hours" in b.nvme:
            b.power_on_hours = float(b.nvme["power_on_hours"])
        elif b.interface == "scsi" and (self.poh_scsi is not None or self.poh_factory is not None):
            b.power_on_hours = self.poh_scsi if self.poh_scsi is not None else self.poh_factory
        a12 = b.attributes.get(12)
        if b.interface == "ata" and a12 is not None:
            b.power_cycles = a12.raw
        elif b.interface == "nvme":
            b.power_cycles = b.nvme.get("power_cycles")

    def _cut_notes(self) -> None:
        """Signs of a cut-off capture, each a parse note that also marks the snapshot truncated."""
        b = self.b
        last = self.last_table
        # An old-format attribute table has no end of its own but the blank line a saved output may lack.
        whole = last is not None and last.name == "attributes" and not self.attr_legend and not b.truncated
        cut_inside = last.cut_note if last is not None and last.name not in self.ended and not whole else None
        unended = self.seen - self.ended  # a table without rows is complete when its end was read
        cut = [
            (cut_inside is not None, cut_inside or ""),
            ("attributes" in unended and not b.attributes, "SMART attribute table header without rows (truncated?)"),
            ("devstats" in unended and not b.devstats, "Device Statistics header without entries (truncated?)"),
            ("nvme" in self.seen and any(f not in b.nvme for f in _NVME_CORE),
             "NVMe SMART/Health Information block incomplete (truncated?)"),
        ]
        for is_cut, note in cut:
            if is_cut:
                b.notes.append(note)
                b.truncated = True
        if self.data_section and b.interface == "ata" and "attributes" not in self.seen:
            b.notes.append("no SMART attribute table (output truncated, or smartctl run without -A/-a/-x)")
        if self.data_section and b.interface == "nvme" and "nvme" not in self.seen:
            b.notes.append("no NVMe SMART/Health Information block (output truncated, or run without -A/-a/-x)")
        has_data = b.smart_passed is not None or b.attributes or b.nvme or b.scsi or b.devstats
        if self.info_section and not self.data_section and not has_data and not b.messages:
            b.notes.append("no SMART data section (output truncated, or smartctl run without -a/-x)")


# 'Key: value' lines: key (lower case, single spaces) -> handler of the value.
_KEYS: dict[str, Callable[[TextParser, str], None]] = {
    "model family": TextParser._model_family,
    "device model": TextParser._device_model,
    "model number": TextParser._model_number,
    "vendor": TextParser._vendor,
    "product": TextParser._product,
    "revision": TextParser._firmware,
    "firmware version": TextParser._firmware,
    "nvme version": TextParser._nvme_version,
    "pci vendor/subsystem id": TextParser._pci_vendor,
    "pci vendor id": TextParser._pci_vendor,
    "serial number": TextParser._serial,
    "lu wwn device id": TextParser._wwn,
    "logical unit id": TextParser._logical_unit_id,
    "user capacity": TextParser._user_capacity,
    "total nvm capacity": TextParser._total_nvm_capacity,
    "sector size": TextParser._sector_size,
    "sector sizes": TextParser._sector_size,
    "logical block size": TextParser._sector_size,
    "formatted lba size": TextParser._sector_size,
    "rotation rate": TextParser._rotation_rate,
    "local time is": TextParser._local_time,
    "smart support is": TextParser._smart_support,
    "smart overall-health self-assessment test result": TextParser._ata_health,
    "smart health status": TextParser._scsi_health,
    "smart sense": TextParser._scsi_sense,
    "s.m.a.r.t. sense": TextParser._scsi_sense,
    "device": TextParser._device,
    "percentage used endurance indicator": TextParser._scsi_percentage,
    "ss media used endurance indicator": TextParser._scsi_percentage,  # smartctl 5.42-6.2's name of it
    "elements in grown defect list": TextParser._grown_defects,
    "transport protocol": TextParser._scsi_marker,
    "physical block size": TextParser._scsi_marker,
}


_DOUBLE_SPACED_MIN = 8  # lines of a paste before its spacing says anything


def single_spaced(lines: list[str]) -> list[str] | None:
    """The lines of a double-spaced paste (a blank line after every line, as some mail and web forms copy text)
    without the added blank lines; None when the text is not one. Real smartctl output never alternates lines with
    blank ones all the way through (its banner and copyright lines come one after the other)."""
    for start in (0, 1):
        added = lines[start + 1::2]
        if len(added) >= _DOUBLE_SPACED_MIN and not any(line.strip() for line in added):
            kept = lines[start::2]
            if any(a.strip() and b.strip() for a, b in pairwise(kept)):
                return kept
    return None


def parse_text(text: str, source: str) -> Builder:
    b = Builder(source)
    p = TextParser(b)
    lines = text.splitlines()
    single = single_spaced(lines)
    if single is not None:
        b.notes.append("a double-spaced copy (a blank line after every line): read without the added blank lines")
        lines = single
        text = "\n".join(lines) + ("\n" if text.endswith(("\n", "\r")) else "")
    if lines and not text.endswith(("\n", "\r")):
        # The last line has no line end. Inside a table, a line that is not a whole row of it is a capture cut
        # mid-row ('228 Workload_Minutes 0x0032 100 1'): the row is dropped and the output marked truncated. A
        # whole attribute row (every field, its raw value's brackets closed) is the row as smartctl printed it:
        # a saved output lacks only its final newline. Elsewhere it is only a missing final newline.
        p.feed(lines[:-1])
        last = lines[-1].strip()
        table = p.table.name if p.table is not None else None
        if table is not None and last and not (table == "attributes" and whole_attribute_row(last)):
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
