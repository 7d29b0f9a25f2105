"""The made-up drives every fixture of the matrix shows, and the printing helpers several outputs share.

One drive of each kind, with the same values in every release, so that a test can ask every release's fixture
for the same figures: an Intel DC S3700 on ATA, an HGST SAS SSD on SCSI, an Intel P4510 on NVMe (a data-centre
drive whose vendor log 0xCA ssdwear reads). The values are invented; where smartctl derives a printed string
from a number (thousands separators, the ``[200 GB]`` capacities) the helpers below do what its
``format_with_thousands_sep`` and ``format_capacity`` do (smartmontools/utility.cpp).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# --- ATA: Intel SSD DC S3700 200 GB -------------------------------------------------------------------------


@dataclass(frozen=True)
class AtaAttr:
    id: int
    name: str
    flags: int
    value: int
    worst: int
    thresh: int
    raw: int

    @property
    def prefailure(self) -> bool:
        return bool(self.flags & 0x01)

    @property
    def online(self) -> bool:
        return bool(self.flags & 0x02)

    @property
    def letters(self) -> str:
        """The flags as `-f brief` and JSON's flags.string print them: P O S R C K, '-' for a clear bit."""
        return "".join(ch if self.flags & bit else "-" for bit, ch in
                       ((0x01, "P"), (0x02, "O"), (0x04, "S"), (0x08, "R"), (0x10, "C"), (0x20, "K")))

    @property
    def state(self) -> str:
        """smartctl's judgement of the normalized values: failing now, in the past, or fine."""
        if self.thresh and self.value <= self.thresh:
            return "now"
        if self.thresh and self.worst <= self.thresh:
            return "past"
        return ""


@dataclass(frozen=True)
class Ata:
    model: str = "INTEL SSDSC2BA200G3"
    serial: str = "BTTV312400AB200GGN"
    firmware: str = "5DV10270"
    family: str | None = "Intel 730 and DC S35x0/3610/3700 Series SSDs"
    capacity: int = 200_049_647_616
    logical_sector: int = 512
    physical_sector: int = 4096
    wwn: tuple[int, int, int] | None = (5, 0x5CD2E4, 0x04B605189)
    power_on_hours: int = 12_345
    power_cycles: int = 42
    attributes: tuple[AtaAttr, ...] = (
        AtaAttr(1, "Raw_Read_Error_Rate", 0x000F, 100, 100, 6, 0),
        AtaAttr(3, "Spin_Up_Time", 0x0003, 100, 30, 34, 0),  # worst below threshold once: failed in the past
        AtaAttr(5, "Reallocated_Sector_Ct", 0x0033, 100, 100, 36, 0),
        AtaAttr(9, "Power_On_Hours", 0x0032, 100, 100, 0, 12_345),
        AtaAttr(12, "Power_Cycle_Count", 0x0032, 100, 100, 20, 42),
        AtaAttr(197, "Current_Pending_Sector", 0x0012, 100, 100, 0, 0),
        AtaAttr(198, "Offline_Uncorrectable", 0x0010, 100, 100, 0, 0),
    )
    # Device Statistics: (page, offset, size, value, flags byte), flags 0x80 supported, 0x40 valid, 0x20 normalized
    devstats: tuple[tuple[int, int, int, int, int], ...] = (
        (1, 0x008, 4, 42, 0xC0),
        (1, 0x010, 4, 12_345, 0xC0),
        (1, 0x018, 6, 98_765_432_100, 0xC0),
        (1, 0x020, 6, 1_234_567_890, 0xC0),
        (1, 0x028, 6, 87_654_321_000, 0xC0),
        (1, 0x030, 6, 987_654_321, 0xC0),
        (7, 0x008, 1, 7, 0xE0),
    )


DEVSTAT_NAMES = {  # ataprint.cpp devstat_info_0x01 / 0x07 (the same names from 5.42 to the current source)
    1: "General Statistics", (1, 0x008): "Lifetime Power-On Resets", (1, 0x010): "Power-on Hours",
    (1, 0x018): "Logical Sectors Written", (1, 0x020): "Number of Write Commands",
    (1, 0x028): "Logical Sectors Read", (1, 0x030): "Number of Read Commands",
    7: "Solid State Device Statistics", (7, 0x008): "Percentage Used Endurance Indicator",
}

# --- SCSI: HGST Ultrastar SSD800MM 800 GB (SAS) -------------------------------------------------------------


@dataclass(frozen=True)
class Scsi:
    vendor: str = "HGST"
    product: str = "HUSMM1680ASS204"
    revision: str = "C2D0"
    serial: str = "0PX1D5KA"
    capacity: int = 800_166_076_416
    logical_block: int = 512
    physical_block: int = 4096
    lu_id: str = "0x5000cca04e0d1a2c"
    transport: str = "SAS (SPL-3)"
    percentage_used: int = 3
    grown_defects: int = 12
    power_on_minutes: int = 23_456 * 60 + 30
    # error counter log rows: (ECC fast, delayed, rereads/rewrites, total corrected, algorithm invocations,
    # bytes processed, total uncorrected)
    errlog: dict[str, tuple[int, int, int, int, int, int, int]] = field(default_factory=lambda: {
        "read": (0, 12, 0, 12, 0, 105_436_012_544_512, 0),
        "write": (0, 0, 0, 0, 0, 79_212_330_123_264, 0),
        "verify": (0, 3, 0, 3, 0, 1_572_864_000, 0),
    })


# --- NVMe: Intel SSD DC P4510 1 TB --------------------------------------------------------------------------


@dataclass(frozen=True)
class Nvme:
    model: str = "INTEL SSDPE2KX010T8"
    serial: str = "PHLJ000000AB1P0FGN"
    firmware: str = "VDV10131"
    capacity: int = 1_000_204_886_016
    lba_size: int = 512
    version: str = "1.2"
    critical_warning: int = 0
    temperature: int = 35
    available_spare: int = 100
    available_spare_threshold: int = 10
    percentage_used: int = 3
    data_units_read: int = 123_456_789
    data_units_written: int = 98_765_432
    host_reads: int = 1_234_567_890
    host_writes: int = 987_654_321
    busy_time: int = 1_234
    power_cycles: int = 42
    power_on_hours: int = 12_345
    unsafe_shutdowns: int = 7
    media_errors: int = 0
    error_log_entries: int = 0
    # vendor log 0xCA: the timed workload (E2h 1/1024 %, E3h %, E4h minutes), ADh min/max/avg erase cycles,
    # F4h/F5h NAND and host writes in 32 MiB units (F5h x 32 MiB within 0.01 % of Data Units Written x 512,000)
    e2: int = 20
    e3: int = 64
    e4: int = 1_440
    erase_min_max_avg: tuple[int, int, int] = (200, 288, 240)
    nand_32mib: int = 1_808_465
    host_32mib: int = 1_507_054


ATA, SCSI, NVME = Ata(), Scsi(), Nvme()


def thousands(n: int) -> str:
    """format_with_thousands_sep in the C locale: 1,234,567."""
    return f"{n:,}"


def capacity(n: int) -> str:
    """format_capacity: three significant digits, truncated, SI units: '200 GB', '1.00 TB', '50.5 TB'."""
    prefixes = " KMGTP"
    i, d = 0, 1
    while n >= d * 1000 and i < len(prefixes) - 1:
        d *= 1000
        i += 1
    whole = n // d
    if i == 0:
        return f"{whole} B"
    if whole >= 100:
        return f"{whole} {prefixes[i]}B"
    if whole >= 10:
        return f"{whole}.{(n % d) * 10 // d} {prefixes[i]}B"
    return f"{whole}.{(n % d) * 100 // d:02d} {prefixes[i]}B"
