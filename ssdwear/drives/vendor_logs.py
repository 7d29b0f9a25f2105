"""The vendor logs picked by PCI IDs (drives/nvme_vendors.py PCI_LOGS: WDC's D0h, Micron's E1h): which a drive is
asked for, and what their pages give. Each figure says what it rests on:

- D0h (nvme-cli plugins/wdc/wdc-nvme.c struct wdc_ssd_d0_smart_log, lines 1245-1270; all little-endian): NAND writes
  (0x44) and user writes (0x50) count "Lpages", a size nvme-cli does not give: it is settled on each drive against
  the NVMe Data Units Written (exact: 512,000 bytes), the user writes times the one size in LPAGE_SIZES within 1 %
  of it, and NAND bytes are the NAND writes times that size (host counting: user; media counting: NAND). The
  lifetime and trailing-hour write amplification factors (0x10, 0x14) are raw 32-bit numbers whose scale nvme-cli
  does not give (it prints them raw): the scale is the one power of ten in WAF_SCALES that puts the lifetime factor
  within 2 % of the same page's NAND over user writes, else neither factor is used. Resolution: one Lpage; the
  factors' step is 1/scale.
- E1h (plugins/micron/micron-nvme.c e1_log_page, lines 1471-1499): power-on minutes (4 bytes at byte 20: the drive's
  own time base, one-minute steps) and the total erase count (8 bytes at byte 80: block erases, NAND counting; no
  rated count is given, so it is calibrated against Percentage Used like every erase counter).
"""

from __future__ import annotations

from typing import NamedTuple

from ssdwear.model.family import LogSource
from ssdwear.model.records import NVME_DATA_UNIT_BYTES, CounterReading, Snapshot

from .nvme_vendors import MICRON_E1, PCI_LOG_VENDORS, PCI_LOGS, WDC_D0

SUPPORTED_LOG_PAGES = 0x00  # NVMe 2.0 Supported Log Pages: one dword per log ID, bit 0 (LSUPP) set if supported
SUPPORTED_LOG_BYTES = 0x400
LPAGE_SIZES = (512, 4096, 8192, 16384, 32768)  # bytes a D0h "Lpage" may be: 512 B sectors to 32 KiB pages
LPAGE_TOLERANCE = 0.01  # user writes x size must lie this close to Data Units Written (read moments apart)
LPAGE_MIN = 1000  # below this many Lpages the counters' own rounding blurs the size
WAF_SCALES = (1, 10, 100, 1000)
WAF_TOLERANCE = 0.02
WAF_AGREE = 0.05  # the drive's lifetime factor and ssdwear's NAND/host bytes agree within this, else a warning


def pci_logs(snap: Snapshot, notes: list[str] | None = None) -> tuple[LogSource, ...]:
    """The PCI-picked vendor logs to ask this drive for: those whose (vendor, device) table holds the IDs this host
    read for it, when smartctl's PCI vendor (where it printed one) is the same. A drive of one of those vendors
    without readable IDs gets none of them, and a note says why."""
    said = notes if notes is not None else []
    if snap.interface != "nvme":
        return ()
    ids = snap.pci_id
    if ids is None:
        if snap.pci_vendor in PCI_LOG_VENDORS:
            said.append(f"PCI vendor 0x{snap.pci_vendor:04x}: the controller's PCI device ID was not read (no sysfs "
                        "entry for it: a recording, a drive behind a bridge or a fabric), so its vendor logs picked "
                        "by device ID (WDC D0h, Micron E1h) are not asked for")
        return ()
    if snap.pci_vendor is not None and snap.pci_vendor != ids.vendor:
        said.append(f"smartctl's PCI vendor 0x{snap.pci_vendor:04x} is not sysfs's {ids}: the IDs are not trusted "
                    "and no vendor log picked by them is asked for")
        return ()
    return tuple(log for log in PCI_LOGS if (ids.vendor, ids.device) in log.pci_ids)


def lists(page: bytes, log_id: int) -> bool:
    """Whether a Supported Log Pages log (00h) says log `log_id` is supported (its dword's bit 0)."""
    at = 4 * log_id
    return len(page) >= at + 4 and bool(page[at] & 1)


def _u(page: bytes, at: int, size: int) -> int:
    return int.from_bytes(page[at:at + size], "little")


class D0(NamedTuple):
    power_on_hours: int
    waf_raw: int
    waf_hour_raw: int
    nand_lpages: int
    user_lpages: int
    pe_cycles_left_percent: int


def wdc_d0(snap: Snapshot) -> D0 | None:
    page = snap.nvme_logs.get(WDC_D0.log_id) if WDC_D0 in pci_logs(snap) else None
    if page is None or len(page) < 0x68:
        return None
    return D0(_u(page, 0x08, 4), _u(page, 0x10, 4), _u(page, 0x14, 4), _u(page, 0x44, 8), _u(page, 0x50, 8),
              _u(page, 0x64, 4))


def lpage_size(user_lpages: int, data_units_written: int | None) -> tuple[int | None, str]:
    """The size of one D0h Lpage, settled against Data Units Written; None and why when no single size fits."""
    if not data_units_written:
        return None, "no Data Units Written to settle it against"
    if user_lpages < LPAGE_MIN:
        return None, f"user writes = {user_lpages:,} Lpages, too few to settle their size"
    exact = data_units_written * NVME_DATA_UNIT_BYTES
    fits = [s for s in LPAGE_SIZES if abs(user_lpages * s / exact - 1) <= LPAGE_TOLERANCE]
    if len(fits) != 1:
        return None, f"user writes = {user_lpages:,} Lpages match Data Units Written ({exact:,} B) at no single size"
    return fits[0], f"user writes = {user_lpages:,} x {fits[0]:,} B is within 1 % of Data Units Written ({exact:,} B)"


def waf_scale(d0: D0) -> int | None:
    """The power of ten that puts D0h's lifetime factor on the page's own NAND over user writes, or None."""
    if d0.user_lpages <= 0 or d0.nand_lpages <= 0 or d0.waf_raw <= 0:
        return None
    ratio = d0.nand_lpages / d0.user_lpages
    fits = [s for s in WAF_SCALES if abs(d0.waf_raw / s / ratio - 1) <= WAF_TOLERANCE]
    return fits[0] if len(fits) == 1 else None


def drive_amplification(snap: Snapshot, notes: list[str]) -> tuple[float, float] | None:
    """D0h's lifetime and trailing-hour write amplification, as the drive figures them, once their scale is
    settled on the page (waf_scale); None (a note) when it is not."""
    d0 = wdc_d0(snap)
    if d0 is None:
        return None
    scale = waf_scale(d0)
    if scale is None:
        notes.append(f"log D0h write amplification factors not used: the raw {d0.waf_raw:,} fits the page's NAND "
                     f"over user writes ({d0.nand_lpages:,} / {d0.user_lpages:,}) at no single scale")
        return None
    return d0.waf_raw / scale, d0.waf_hour_raw / scale


def vendor_log_counters(snap: Snapshot, notes: list[str]) -> list[CounterReading]:
    """D0h's NAND writes in bytes (media) and E1h's total erase count (erase), where the drive's log was read."""
    out = []
    d0 = wdc_d0(snap)
    if d0 is not None and d0.nand_lpages > 0:
        size, why = lpage_size(d0.user_lpages, snap.nvme.data_units_written if snap.nvme else None)
        if size is None:
            notes.append(f"log D0h NAND writes not used: the size of its Lpages is not published and could not be "
                         f"settled on this drive ({why})")
        else:
            out.append(CounterReading("nand_bytes_written", "media", d0.nand_lpages * size, "byte", 1,
                                      f"log D0h lifetime NAND writes = {d0.nand_lpages:,} Lpages x {size:,} B (size "
                                      f"settled: {why})"))
    e1 = snap.nvme_logs.get(MICRON_E1.log_id) if MICRON_E1 in pci_logs(snap) else None
    if e1 is not None and len(e1) >= 88 and _u(e1, 80, 8) > 0:
        out.append(CounterReading("total_erase_count", "erase", _u(e1, 80, 8), "block erase", None,
                                  f"log E1h total erase count = {_u(e1, 80, 8):,} block erases"))
    return out


def power_on_minutes(snap: Snapshot) -> int | None:
    """E1h's power-on minutes: the drive's own clock, to the minute."""
    e1 = snap.nvme_logs.get(MICRON_E1.log_id) if MICRON_E1 in pci_logs(snap) else None
    return _u(e1, 20, 4) if e1 is not None and len(e1) >= 24 else None
