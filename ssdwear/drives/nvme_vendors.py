"""NVMe families of other vendors whose vendor log 0xCA reuses Intel's SMART attribute layout (rows of the table in
families.py, after Intel's): the page is read read-only (`smartctl -l nvmelog,0xca,0x200`, as on Intel's drives), for
its ADh wear levelling count (min, max and average erase cycles) and its F4h NAND writes (their unit settled against
the NVMe Data Units Written, as on Intel's: drives/fine.py). Nothing is ever sent to these drives but reads: the
timed-workload reset (Set Features 0xD5) is Intel's and Solidigm's, documented for none of them, and refused even
with --force (Family.no_timer_reset); their E2h-E4h entries are not read as a timed workload (Memblaze's own header
marks them "unknown definition"; SSSTC's layout has none).

Sources: nvme-cli (github.com/linux-nvme/nvme-cli at e117ee68, 2026-08-21; lines of that revision), each vendor's
plugin, whose smart-log-add command reads log 0xCA as Intel's `struct nvme_additional_smart_log` (12-byte entries: key
at byte 0, normalized value at 3, 48-bit raw value at 5-10; ADh's raw as min, max, avg 16-bit counts), cited beside
each row. None of the plugins prints a rated P/E count, and no vendor publishes one beside the log: the average erase
count is calibrated against the drive's Percentage Used (wear/fine.py's lifetime basis), never divided by a guess.

The model expressions are the vendor's name as the first word of the model string (no output of these drives is in
fixtures/corpus: MANIFEST.md); Memblaze's follow nvme-cli's own test for its Intel-layout models (memblaze-nvme.c
getlogpage_format_type: a model string beginning with 'P' below 'P5920' has Memblaze's older layout and is not
matched). A page read from a drive is used only when its entries carry the layout's first keys (ABh, ACh, ADh;
drives/fine.py intel_ca_layout): a firmware that serves another 0xCA is a note, never a figure.
"""

from __future__ import annotations

from ssdwear.model.family import Family, LogSource

NVME_CLI = "nvme-cli e117ee68"
NO_RESET = ("Set Features 0xD5 (the timed-workload reset) is documented only for Intel/Solidigm data-centre NVMe "
            "drives; this vendor's nvme-cli plugin documents its own commands and that one is not among them")


def _row(name: str, model: str, source: str) -> Family:
    """A vendor's row: log 0xCA in Intel's layout, read with smartctl from the drives its model expression names."""
    log = LogSource(0xCA, "SMART attributes in Intel's layout (smart-log-add)", source, model=model,
                    layout="intel-ca", reader="smartctl")
    return Family(name, source, model=model, interfaces=("nvme",), nvme_logs=(log,), no_timer_reset=NO_RESET)


FAMILIES: tuple[Family, ...] = (
    _row("DapuStor NVMe", r"(?i)DAPUSTOR\b.*",
         f"{NVME_CLI} plugins/dapustor/dapustor-nvme.c: struct nvme_additional_smart_log (lines 59-73, Intel's "
         "entries in Intel's order), read from log 0xca (line 491)"),
    _row("ScaleFlux NVMe", r"(?i)SCALEFLUX\b.*",
         f"{NVME_CLI} plugins/scaleflux/sfx-types.h: struct nvme_additional_smart_log (lines 133-146, Intel's "
         "entries first), read from log 0xca by sfx-nvme.c (line 373)"),
    _row("Memblaze NVMe (Intel-layout models)", r"(?i)MEMBLAZE\s+\S.*|PBLAZE[5-9].*",
         f"{NVME_CLI} plugins/memblaze/memblaze-utils.h: the 'Intel Format' entry IDs ABh-F5h (lines 11-25; F4h and "
         "F5h 'unit is 32MiB', lines 51-52), read from log 0xca by memblaze-nvme.c (line 449) for the models "
         "getlogpage_format_type (lines 84-95) gives Intel's format"),
    _row("YMTC NVMe", r"(?i)YMTC\s+\S.*",
         f"{NVME_CLI} plugins/ymtc/ymtc-utils.h: the entry IDs ABh, ACh, ADh, F4h, F5h (lines 33-57), read by key "
         "from 'YMTC additional SMART information (Log ID 0xCA)' in ymtc-nvme.c (lines 391-426)"),
    _row("Shannon Systems NVMe", r"(?i)SHANNON\b.*",
         f"{NVME_CLI} plugins/shannon/shannon-nvme.c: the items in Intel's order (lines 21-33), read from log 0xca "
         "(line 144)"),
    _row("SSSTC NVMe", r"(?i)SSSTC\s+\S.*",
         f"{NVME_CLI} plugins/ssstc/ssstc-nvme.c: struct nvme_additional_smart_log (lines 36-59: ABh-C7h, then F4h "
         "and F5h, no timed workload), read from log 0xca (line 415)"),
)

# Vendor logs that nvme-cli's plugins read only from drives they pick by PCI vendor and device ID (smartctl prints the
# vendor, never the device: host/pci.py reads both from sysfs). Neither is a family row: the IDs, not the model
# string, say which drive has the log. Read with smartctl (`-l nvmelog,0xd0,0x200`, `-l nvmelog,0xe1,0x100`): the
# Get Log Page nvme-cli's commands send (nvme_get_log_simple, the whole page at offset 0), nothing else.
WDC_VENDOR_2 = 0x1B96  # wdc-nvme.c line 70, WDC_NVME_VID_2
WDC_D0_DEVICES = (
    0x2200, 0x2201,  # SN630 (lines 75-76): D0h checked at lines 1702-1705
    0x2400, 0x2401, 0x2402, 0x2404, 0x2712, 0x2713, 0x2714, 0x2704,  # SN640, SN560, SN660 (79-82, 93-96): 1754-1757
    0x2300, 0x2500, 0x2730, 0x2600, 0x2610,  # SN840, SN860, ZN540, SN540 (77-78, 92, 83-84): lines 1797-1800
)
WDC_D0 = LogSource(
    0xD0, "WDC D0h SMART log (lifetime and trailing-hour write amplification)",
    f"{NVME_CLI} plugins/wdc/wdc-nvme.c: log 0xD0, 512 bytes (lines 432-434); struct wdc_ssd_d0_smart_log (lines "
    "1245-1270: power-on hours at 0x08, lifetime and trailing-hour write amplification factors at 0x10 and 0x14, NAND "
    "writes at 0x44 and user writes at 0x50 in 'Lpages', % P/E cycles remaining at 0x64); the drives "
    "wdc_get_drive_capabilities gives WDC_DRIVE_CAP_D0_LOG_PAGE (vendor 0x1b96, the device IDs of lines 1690-1801), "
    "each when wdc_nvme_check_supported_log_page finds D0h in the Supported Log Pages log (lines 2826-2890, log 00h "
    "at 2838-2851; its fallback, WDC's C2h device-management log, is not read: a drive whose log 00h does not list "
    "D0h gets a note)",
    layout="wdc-d0", reader="smartctl", pci_ids=frozenset((WDC_VENDOR_2, d) for d in WDC_D0_DEVICES), listed=True)
MICRON_VENDOR = 0x1344  # micron-nvme.c line 95, MICRON_VENDOR_ID
MICRON_E1_DEVICES = (
    0x51C0, 0x51C1, 0x51C2, 0x51C3, 0x51C4,  # M51CX (lines 185-190)
    0x51B7, 0x51B8, 0x51B9,  # M51BY (lines 166-169)
    0x51BB, 0x51BD, 0x51BC, 0x51BE, 0x51BF, 0x51C8, 0x51C9, 0x51CA, 0x51CB, 0x51CC, 0x51CD, 0x51CE,  # M51CY (171-183)
    0x6003, 0x6004,  # M6003, M6004 (lines 206-211)
)
MICRON_E1 = LogSource(
    0xE1, "Micron E1h extended SMART log (power-on minutes, total erase count)",
    f"{NVME_CLI} plugins/micron/micron-nvme.c: e1_log_page (lines 1471-1499: power-on minutes, 4 bytes at byte 20; "
    "total erase count, 8 bytes at byte 80), 256 bytes (line 63), read by vs-smart-ext-log (lines 1929-1939) from the "
    "models M51CX, M51BY, M51CY, M6003 and M6004, which GetDriveModel (lines 142-216) gives vendor 0x1344 and these "
    "device IDs",
    layout="micron-e1", reader="smartctl", size=0x100, pci_ids=frozenset((MICRON_VENDOR, d) for d in MICRON_E1_DEVICES))
PCI_LOGS: tuple[LogSource, ...] = (WDC_D0, MICRON_E1)
PCI_LOG_VENDORS = frozenset(v for log in PCI_LOGS for v, _ in log.pci_ids)
