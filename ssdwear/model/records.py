"""The data that flows through ssdwear: smartctl output -> Snapshot -> DriveReport.

Everything here is a frozen dataclass with no behaviour beyond small derived properties.
Units are written into the field names or beside them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, Literal, NamedTuple, Protocol

from .counts import count_text
from .family import CounterKind, Family

# One NVMe "data unit" is 1000 logical blocks of 512 bytes (NVMe base spec, SMART/Health log).
NVME_DATA_UNIT_BYTES = 512_000
# Intel's timed-workload media wear counter (E2h) counts 1/1024 of one percent.
E2H_STEPS_PER_PERCENT = 1024
# Raw values Intel's timed-workload attributes hold until 60 power-on minutes after a reset.
TIMER_SENTINELS = (0xFFFF, 0xFFFFFFFF)
MINUTES_PER_YEAR = 525_600  # 365 days, as Intel MAS and the seed article count a year

# A measured window: Intel's timed workload since a reset, a finer counter since `start` stored its baseline (any
# SSD), two or more saved outputs of one drive, the history.
WindowKind = Literal["timed-workload", "counter", "readings", "history"]
DriveKind = Literal["ssd", "hdd", "unknown"]



@dataclass(frozen=True)
class Attribute:
    """One row of the ATA SMART attribute table."""

    id: int
    name: str  # smartctl's name; drive-database dependent, never used to decide meaning alone
    value: int | None  # normalized VALUE column (None when smartctl printed '---')
    worst: int | None
    thresh: int | None
    raw: int | None  # the raw value as a number: JSON raw.value, or the leading number of RAW_VALUE
    raw_string: str  # RAW_VALUE exactly as printed (e.g. '23 (Min/Max 18/31)', '0x14610d501461')
    when_failed: str = ""  # '', 'FAILING_NOW', 'In_the_past'
    prefailure: bool = False


@dataclass(frozen=True)
class DevStat:
    """One entry of the ATA Device Statistics log (GP log 04h)."""

    page: int
    offset: int
    name: str
    value: int | None  # None when smartctl marked it not valid
    valid: bool = True
    normalized: bool = False


# Device statistics we read, as (page, offset).
DEVSTAT_POWER_ON_HOURS = (0x01, 0x010)
DEVSTAT_LOGICAL_SECTORS_WRITTEN = (0x01, 0x018)
DEVSTAT_LOGICAL_SECTORS_READ = (0x01, 0x028)
DEVSTAT_PERCENT_USED = (0x07, 0x008)


@dataclass(frozen=True)
class NvmeHealth:
    """The NVMe SMART/Health Information log page (log 02h)."""

    critical_warning: int | None = None  # bit field; bit 2 = reliability degraded
    temperature_celsius: int | None = None
    available_spare: int | None = None  # percent
    available_spare_threshold: int | None = None  # percent
    percentage_used: int | None = None  # vendor estimate; may exceed 100; saturates at 255
    data_units_read: int | None = None  # units of NVME_DATA_UNIT_BYTES, rounded up
    data_units_written: int | None = None  # units of NVME_DATA_UNIT_BYTES, rounded up
    host_read_commands: int | None = None
    host_write_commands: int | None = None
    power_cycles: int | None = None
    power_on_hours: int | None = None
    unsafe_shutdowns: int | None = None
    media_errors: int | None = None  # Media and Data Integrity Errors
    error_log_entries: int | None = None


@dataclass(frozen=True)
class ScsiHealth:
    """What a SCSI/SAS device reports that bears on wear."""

    percentage_used: int | None = None  # 'Percentage used endurance indicator', may reach 255
    bytes_written: int | None = None  # error counter log, write: bytes processed
    bytes_read: int | None = None
    uncorrected_errors: int | None = None  # read + write + verify total uncorrected errors
    grown_defects: int | None = None  # 'Elements in grown defect list'


class PciId(NamedTuple):
    """A PCI function's vendor and device IDs (an NVMe controller's: sysfs /sys/class/nvme/nvmeN/device/vendor and
    device). Vendor logs whose reader picks drives by them (nvme-cli's WDC and Micron plugins) are asked of no
    drive without them."""

    vendor: int
    device: int

    def __str__(self) -> str:
        return f"{self.vendor:04x}:{self.device:04x}"


@dataclass(frozen=True)
class Snapshot:
    """Everything one smartctl call told us about one drive, in one model for every format."""

    source: str  # device path or file name the output came from
    interface: str = "unknown"  # 'ata', 'nvme', 'scsi' or 'unknown'
    device: str | None = None  # device name smartctl printed or was given, e.g. /dev/sda
    device_type: str | None = None  # smartctl -d type, e.g. 'sat', 'nvme', 'megaraid,28'
    model: str | None = None
    model_family: str | None = None  # smartctl's drive-database family, when known
    serial: str | None = None  # None when absent or masked ('--', 'XXXX', 'REDACTED')
    wwn: str | None = None  # lower-case hex without spaces; None when absent or truncated
    firmware: str | None = None
    capacity_bytes: int | None = None
    logical_sector_size: int | None = None  # bytes
    rotation_rate: int | None = None  # 0 = solid state, > 0 = rpm, None = not reported
    smartctl_version: str | None = None
    smart_available: bool | None = None
    smart_enabled: bool | None = None
    smart_passed: bool | None = None  # overall-health self-assessment
    power_on_hours: float | None = None
    power_on_hours_trusted: bool = True  # False for absurd h+m+s values (SandForce firmwares)
    power_cycles: int | None = None
    local_time: datetime | None = None  # when smartctl ran, if it printed a usable time
    attributes: Mapping[int, Attribute] = field(default_factory=dict)
    devstats: Mapping[tuple[int, int], DevStat] = field(default_factory=dict)
    nvme: NvmeHealth | None = None
    nvme_logs: Mapping[int, bytes] = field(default_factory=dict)  # log pages: smartctl's dumps, nvme-cli's reads
    nvme_version: str | None = None  # the NVMe version the controller reports, e.g. '1.4'
    pci_vendor: int | None = None  # the PCI vendor ID smartctl printed for an NVMe controller (nvme_pci_vendor.id)
    pci_id: PciId | None = None  # the controller's PCI vendor and device IDs as this host's sysfs gives them
    scsi: ScsiHealth | None = None
    exit_status: int | None = None  # smartctl's exit status, when known
    messages: tuple[str, ...] = ()  # smartctl's own error/warning messages
    parse_notes: tuple[str, ...] = ()  # what the parser noticed (odd values, missing sections)
    problems: tuple[str, ...] = ()  # impossible values the parser dropped (they become warnings)
    truncated: bool = False  # the output was cut off (a capture that ends inside a table)
    # The drive-family row this reading was matched to (drives/families.py), once per reading: every layer reads it.
    family: Family | None = field(default=None, compare=False, repr=False)

    def attr(self, attr_id: int) -> Attribute | None:
        return self.attributes.get(attr_id)

    def devstat(self, key: tuple[int, int]) -> int | None:
        entry = self.devstats.get(key)
        if entry is None or not entry.valid:
            return None
        return entry.value

    @property
    def has_data(self) -> bool:
        """Whether smartctl told us anything about the drive at all (identity or SMART data)."""
        return bool(self.attributes or self.devstats or self.nvme or self.scsi or self.model or self.serial)

    @property
    def has_smart_data(self) -> bool:
        """Whether the output holds any of the drive's SMART data (an identity-only one, `smartctl -i`, has none)."""
        return bool(self.attributes or self.devstats or self.nvme or self.scsi) or self.smart_passed is not None

    @property
    def is_solid_state(self) -> bool | None:
        if self.interface == "nvme":
            return True
        if self.rotation_rate is None:
            return None
        return self.rotation_rate == 0


# ------------------------------------------------------------------------------------------------
# Reports: what ssdwear concludes about one drive. The JSON output is produced from these.


@dataclass(frozen=True)
class UsedSource:
    """One lifetime-wear indicator a drive offered, and what it said."""

    source: str  # stable identifier, e.g. 'nvme_percentage_used', 'intel_233_media_wearout'
    percent: float  # percent of rated endurance used
    at_least: bool  # saturated indicator: the true value is this or more
    detail: str  # what was read, e.g. "attribute 233 normalized 090"


class WindowState(Enum):
    """Where a window stands, as its rule judged it (the words are what the report's table prints)."""

    VALID = "valid"
    NOT_YET = "not valid yet"  # it becomes valid by itself as power-on minutes pass (it says when)
    HELD = "not valid"  # Intel's counters hold 65535 with no reset ssdwear recorded: valid some time, when not known
    UNTRUSTED = "not trustworthy"  # the timer's values cannot be a measurement
    REFUSED = "not usable"  # no window from these readings or this baseline, and none will come by waiting

    @property
    def pending(self) -> bool:
        """Not valid *yet*: it becomes valid by itself as power-on minutes pass (measure waits for it)."""
        return self in (WindowState.NOT_YET, WindowState.HELD)


@dataclass(frozen=True)
class Window:
    """A measured wear window: Intel's timed workload (E2h/E3h/E4h) or two readings of one counter."""

    kind: WindowKind
    state: WindowState
    reason: str | None = None  # why the window is not valid (yet), or how it was formed; a timed window that is not
    # valid says its state first ('not valid yet: ...', 'timer not trustworthy: ...')
    minutes: float | None = None  # E4h power-on minutes, or power-on minutes between readings
    wear_percent: float | None = None  # wear caused in the window, percent of rated endurance
    wear_steps: int | None = None  # raw E2h (1/1024 %) for the timed workload
    host_reads_percent: float | None = None  # E3h
    represents_minutes: float | None = None  # real time the window stands for (--represents)
    valid_in_minutes: float | None = None  # power-on minutes until the window becomes valid
    counter: str | None = None  # the counter a 'counter', 'readings' or 'history' window used
    wear_percent_low: float | None = None  # a counter window: the range of the wear in it
    wear_percent_high: float | None = None
    counter_delta: int | None = None  # a counter window: how far the counter moved, in its units
    started_at: datetime | None = None  # a counter window: when `start` stored its baseline
    write_amplification: float | None = None  # a counter window: NAND over host bytes written in it, where both count

    @property
    def valid(self) -> bool:
        return self.state is WindowState.VALID

    @property
    def pending(self) -> bool:
        """Not valid *yet*: it becomes valid by itself as power-on minutes pass."""
        return self.state.pending


@dataclass(frozen=True)
class CounterReading:
    """One finer counter of one reading (drives/fine.py reads them): its raw count in its unit, what it is, and the
    drive's own rating of it (the count that means 100 % of the rated wear) where the drive reports one."""

    source: str  # stable identifier: 'nand_bytes_written', 'average_erase_count', 'nvme_media_units_written', ...
    kind: CounterKind
    value: int  # whole units: the counter moves in steps of one
    unit: str  # what one unit is, for people: '1 GiB', 'NAND page', 'erase cycle', '10^9 bytes'
    unit_bytes: int | None  # bytes in one unit, where the unit is a settled number of bytes
    detail: str  # what was read: 'attributes 247 Host_Program_Page_Count + 248 FTL_Program_Page_Count'
    rated: int | None = None  # the drive's own count for 100 % of its rated wear (same unit), if it reports one
    rated_detail: str = ""

    def amount(self, count: int) -> str:
        """A count of this counter for people: '1,234 bytes', '56 erase cycles', '1 NAND page', '861 x 10^9 bytes'."""
        if self.unit[:1].isdigit():  # a quantity: '10^9 bytes', '1 GiB'
            return f"{count:,} x {self.unit}"
        return f"{count:,} {self.unit}{'' if abs(count) == 1 else 's'}"


@dataclass(frozen=True)
class FineWear:
    """Lifetime wear read finer than the whole-percent indicator: a counter times the drive's own wear per unit of
    it (wear/fine.py), `percent` with its range, or None where the counter is no finer than the indicator yet
    (one reading's step) or contradicts it (a warning says so)."""

    source: str  # the counter ('nand_bytes_written', ...) or 'intel_e2h_since_manufacture'
    percent: float | None  # used_fine_percent
    low: float | None
    high: float | None
    calibration: str  # 'rated' (the drive's own rating), 'lifetime' (one reading), 'readings' (several), 'e2h'
    per_unit: float | None  # wear per counter unit, percent, and its range
    per_unit_low: float | None
    per_unit_high: float | None
    detail: str  # what was read and what calibrated it


@dataclass(frozen=True)
class Trend:
    """The recent wear rate and the lifetime average disagree beyond their intervals."""

    direction: str  # 'speeding up' or 'slowing down'
    years_at_recent: float | None  # years remaining at the recent rate (None: no end in sight)
    years_at_lifetime: float | None  # years remaining at the lifetime average
    text: str  # 'wear speeding up: 1.9 years at the recent rate, 4.7 years at the lifetime rate'


@dataclass(frozen=True)
class Projection:
    """A wear rate and the (power-on) years it leaves, each with its interval.

    Rates are percent of rated endurance per year; a year is 365 days of power-on time. Every figure has a
    low/high: for calibrated projections the interval at `interval_level` (e.g. 0.8: the true figure lies
    inside for 80 % of drives in the back-test), for the Intel timed window the counter's resolution only
    (`interval_level` None: how well the window stands for the workload is the user's call, --represents).
    A None *_high years figure is unbounded (the rate may be 0); years_remaining* are None when the lifetime
    wear is unknown, and years_remaining alone is None (its low set) when the central rate is 0.
    """

    method: str  # 'timed-workload', 'lifetime-average', 'readings:SOURCE', 'history:SOURCE'
    basis: str  # one line saying what the figures rest on
    percent_per_year: float | None
    percent_per_year_low: float | None
    percent_per_year_high: float | None
    years_remaining: float | None  # (100 - used) / rate
    years_remaining_low: float | None  # the pessimistic bound: what check, retire-check and alerts judge
    years_remaining_high: float | None
    years_new_drive: float | None  # 100 / rate: a new drive's life at this workload (Intel MAS figure)
    years_new_drive_low: float | None
    years_new_drive_high: float | None
    interval_level: float | None  # None: the interval is the counter's resolution only
    rates: Mapping[str, float] = field(default_factory=dict)  # every rate considered, percent per year
    trend: Trend | None = None
    wear_class: str | None = None  # the calibration class the interval came from
    # On the calendar: the years are power-on years; the drive's duty cycle (power-on hours per wall-clock hour)
    # turns them into dates (wear/calendar.py). `duty_measured` False: assumed always on (one reading).
    duty_cycle: float | None = None
    duty_measured: bool = False
    duty_basis: str | None = None  # what the duty cycle rests on, in words
    wears_out_at: datetime | None = None  # when the rated endurance ends at the central rate (UTC)
    wears_out_low_at: datetime | None = None  # ... at the pessimistic end (from years_remaining_low)


@dataclass(frozen=True)
class Writes:
    host_bytes_written: int | None = None
    host_bytes_read: int | None = None
    nand_bytes_written: int | None = None
    write_amplification: float | None = None  # NAND bytes / host bytes
    # the drive's own write amplification (WDC log D0h, its scale settled on the page): lifetime, trailing hour
    drive_write_amplification: float | None = None
    drive_write_amplification_hour: float | None = None
    sources: Mapping[str, str] = field(default_factory=dict)  # field -> how it was derived
    rated_bytes: int | None = None  # rated endurance (TBW) in bytes, when known
    rated_used_percent: float | None = None  # host_bytes_written / rated_bytes
    rating_source: str | None = None
    host_bytes_per_day: float | None = None  # host write rate fitted over the stored history


@dataclass(frozen=True)
class Health:
    smart_passed: bool | None = None
    available_spare_percent: int | None = None
    available_spare_threshold_percent: int | None = None
    critical_warning: int | None = None
    media_errors: int | None = None  # NVMe media and data integrity errors / SCSI uncorrected errors
    reallocated_sectors: int | None = None  # ATA attribute 5 raw
    pending_sectors: int | None = None  # ATA attribute 197 raw
    uncorrectable_errors: int | None = None  # ATA attribute 187 / 198 raw
    failing_attributes: tuple[str, ...] = ()  # attributes at or below threshold now, temperatures apart
    # temperature attributes at or below threshold now ('190 Airflow_Temperature_Cel 045 at threshold 045, 55 °C'):
    # a condition to fix (cooling), not wear or a defect
    temperatures_at_threshold: tuple[str, ...] = ()


@dataclass(frozen=True)
class DriveReport:
    device: str | None
    device_type: str | None = None  # smartctl -d type it was read with ('sat+megaraid,0')
    model: str | None = None
    serial: str | None = None
    wwn: str | None = None
    firmware: str | None = None
    interface: str = "unknown"
    kind: DriveKind = "unknown"
    capacity_bytes: int | None = None
    power_on_hours: float | None = None  # to the minute where power_on_minutes is known
    power_on_minutes: int | None = None  # the drive's own power-on minutes (Micron log E1h), where it gives them
    used_percent: float | None = None
    used_at_least: bool = False
    used_source: str | None = None
    used_step: float | None = None  # the indicator's resolution, percent (1, or 1/1024 for Intel E2h)
    used_sources: tuple[UsedSource, ...] = ()
    window: Window | None = None
    projection: Projection | None = None
    writes: Writes = field(default_factory=Writes)
    health: Health = field(default_factory=Health)
    smart_available: bool | None = None  # False: the device gives no SMART data at all (nothing can be judged)
    warnings: tuple[str, ...] = ()  # something is wrong or doubtful: read these
    notes: tuple[str, ...] = ()  # how the figures were reached (informational)
    error: str | None = None  # set when the drive could not be read; the other fields are then empty
    error_reason: str | None = None  # why, in one word (errors.DriveErrorKind: timeout, deadline, standby, ...)
    read_seconds: float | None = None  # how long reading the drive took (all its calls), where it was read live
    source: str | None = None  # file name or device path the reading came from
    readings: int = 1  # how many readings (saved outputs or samples) the report rests on
    counters: tuple[CounterReading, ...] = ()  # the finer counters read, the one that counts wear best first
    fine: FineWear | None = None  # the finer counter as wear (used_fine_percent), where it has one

    def to_dict(self) -> dict[str, Any]:
        """Exactly the drive's entry in `ssdwear report --format json` (docs/json.md, DRIVE)."""
        from .schema import drive_dict  # not needed to start the CLI

        return drive_dict(self)

    @property
    def where(self) -> str:
        """The drive's name in messages and labels: its device with the -d type where drives share a path."""
        return location(self.device or "?", self.device_type)

    @property
    def measured_window(self) -> bool:
        """Whether the projection is a window measured since `start` (Intel's timed workload since a reset, or a
        counter window since its baseline): it measured the workload itself, so neither saved readings nor the
        stored history replace it."""
        return self.projection is not None and (self.projection.method == "timed-workload"
                                                or self.projection.method.startswith("window:"))


@dataclass(frozen=True)
class ResetRecord:
    """ssdwear's own reset of a drive's timed-workload timer (from the history store)."""

    at: datetime  # wall-clock time of the reset (UTC)
    device: str | None = None
    power_on_hours: float | None = None  # the drive's power-on hours at the reset


@dataclass(frozen=True)
class LastLook:
    """What ssdwear saw the previous time it read a drive (from the history store)."""

    at: datetime
    e4h_minutes: int | None = None  # raw 228 then (None when absent or 65535)


@dataclass(frozen=True)
class Sample:
    """One stored reading of one drive: the counters history projections are fitted to."""

    at: datetime  # wall-clock time of the reading (UTC)
    power_on_hours: float | None = None
    used_percent: float | None = None
    used_source: str | None = None
    host_bytes_written: int | None = None
    host_bytes_read: int | None = None
    nand_bytes_written: int | None = None
    e2h: int | None = None  # Intel timed workload raw values (None when absent)
    e3h: int | None = None
    e4h: int | None = None
    available_spare: int | None = None
    media_errors: int | None = None
    counter_source: str | None = None  # the drive's best finer counter (DriveReport.counters[0]) and its count
    counter: int | None = None
    counter_rated: int | None = None  # the drive's own rating of it, where it reports one


@dataclass(frozen=True)
class ScanEntry:
    """One line of `smartctl --scan-open`: a device and its -d type, or one smartctl could not open and why
    (a RAID controller's volume: "DELL or MegaRaid controller, please try adding '-d megaraid,N'")."""

    name: str
    type: str | None = None
    open_error: str | None = None


@dataclass(frozen=True)
class RaidVolume:
    """A RAID controller's logical volume: not a drive. Its drives are read through the controller."""

    device: str
    controller: str  # what the volume says it is ('DELL PERC H730P Mini'), or how smartctl named it
    drives: tuple[str, ...] = ()  # the pass-through drives read in the same run ('/dev/bus/0 sat+megaraid,0')

    @property
    def note(self) -> str:
        if self.drives:
            are = "is" if len(self.drives) == 1 else "are"
            return (f"RAID volume ({self.controller}); its {count_text(len(self.drives), 'drive')} {are} read "
                    f"through the controller: {', '.join(self.drives)}")
        return (f"RAID volume ({self.controller}); smartctl lists no drive behind it: name them in the config "
                "with their pass-through type (megaraid,N; cciss,N; aacraid,H,L,ID; areca,N/E)")


# Device types that reach a drive through a RAID controller (smartctl -d): several drives share one path.
PASS_THROUGH_TYPE = re.compile(r"(^|\+)(megaraid|cciss|aacraid|areca|3ware|hpt|mpi3mr|sssraid),", re.I)
# Device types that name a port of a SATA port multiplier or USB bridge (smartctl 7.3-7.5: jmb39x,N and its -q/-q2
# variants, jms56x,N, usbjmicron[,p][,x][,PORT], intelliprop,N): several drives share one path there too.
PORT_TYPE = re.compile(r"(^|\+)(jmb39x(-q2?)?|jms56x|usbjmicron|intelliprop),", re.I)


def location(device: str, device_type: str | None) -> str:
    """Where a drive sits: its device path, plus the -d type when several drives share the path, behind a
    controller's pass-through ('/dev/bus/0 sat+megaraid,1') or on a port ('/dev/sdb jmb39x,0'). Every name of a
    drive (messages, JSON, Prometheus labels, the device -> serial memory) is this."""
    if device_type and (PASS_THROUGH_TYPE.search(device_type) or PORT_TYPE.search(device_type)):
        return f"{device} {device_type}"
    return device


# smartctl exit status bit 3: "SMART status check returned DISK FAILING".
EXIT_DISK_FAILING = 0x08


def passed_given_status(passed: bool | None, exit_status: int | None) -> bool | None:
    """The overall-health verdict, taking smartctl's exit status into account when the output lacks one."""
    if passed is None and exit_status is not None and exit_status & EXIT_DISK_FAILING:
        return False
    return passed


class Identified(Protocol):
    """What names a drive (a Snapshot, a DriveReport)."""

    @property
    def model(self) -> str | None: ...

    @property
    def serial(self) -> str | None: ...

    @property
    def wwn(self) -> str | None: ...

    @property
    def interface(self) -> str: ...


@dataclass(frozen=True)
class DriveId:
    """Who a drive is: model + serial, else its WWN, never its /dev name (the history's key). The interface is kept
    beside it (the history stores it) but is not part of who the drive is."""

    model: str | None = None
    serial: str | None = None
    wwn: str | None = None
    interface: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, drive: Identified) -> DriveId:
        return cls(drive.model, drive.serial, drive.wwn, drive.interface)

    @classmethod
    def unknown(cls) -> DriveId:
        """A drive nothing is known of (one that could not be read)."""
        return cls()

    @property
    def key(self) -> str | None:
        """model|serial, else wwn:WWN; None when the drive cannot be identified (then nothing is stored of it)."""
        if self.serial:
            return f"{(self.model or '').strip()}|{self.serial.strip()}"
        if self.wwn:
            return f"wwn:{self.wwn}"
        return None

    @property
    def label(self) -> str:
        """Which drive, in words: 'MODEL [SERIAL]', the WWN standing in for a serial the drive does not give ('' when
        nothing is known). Every message, view and document for people names a drive so (render/layout.drive_name
        is this, with the model kept from breaking across lines)."""
        said = self.serial or self.wwn
        return " ".join(x for x in (self.model, said and f"[{said}]") if x)


@dataclass(frozen=True)
class StoredDrive:
    """A drive the history holds: who it is and its key; for the period asked, its samples (how many, the first and
    the last) and the device it was last seen at."""

    drive: DriveId
    key: str
    samples: int = 0
    first: datetime | None = None
    last: datetime | None = None
    device: str | None = None
