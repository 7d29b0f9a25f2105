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
