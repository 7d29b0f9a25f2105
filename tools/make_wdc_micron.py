#!/usr/bin/env python3
"""Write the HAND-MADE (not recorded) fixture machine fixtures/wdc-micron/ and its README (README below): NVMe drives
whose vendor log is picked by PCI vendor and device ID (ssdwear/drives/nvme_vendors.py PCI_LOGS: WDC's D0h, Micron's
E1h), their sysfs IDs under sys/ as the kernel writes them, and drives that must never be asked for either log.

Run: python3 -m tools.make_wdc_micron   (rewrites fixtures/wdc-micron/ deterministically)
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any, NamedTuple

from tools.formats import nvme
from tools.make_intel_nvme import BANNER, ROOT, SMARTCTL_7_3, identity, write, x_document

HERE = ROOT / "wdc-micron"
INTEL_BASE = "smartctl_exporter__intel-ssdpe2kx010t8__1.json"  # a real NVMe -x document (73 % used, 8,843 h)
MICRON_BASE = "smartctl_exporter__micron-mtfdhax1t6mce__1.json"  # a real Micron NVMe -x document (69 %, 29,891 h)
DATA_UNIT = 512_000
LPAGE = 4096  # the D0h Lpage these pages count in (ssdwear settles it against Data Units Written)
TIMELINE = ((0, 0), (0, 100_000), (1, 200_000))  # (power-on hours added, Data Units Written added) per reading


class Drive(NamedTuple):
    device: str
    base: str
    model: str
    serial: str
    vendor: int  # what smartctl prints (nvme_pci_vendor.id)
    sysfs: tuple[int, int] | None  # the IDs under sys/ (None: no sysfs entry)
    log: str  # 'd0', 'e1', 'd0-unlisted' (log 00h without D0h) or '' (no vendor log may be asked for)


DRIVES = (
    Drive("/dev/nvme0", INTEL_BASE, "WUS4BB019D7P3E3", "WD00000000A1", 0x1B96, (0x1B96, 0x2400), "d0"),
    Drive("/dev/nvme1", MICRON_BASE, "MTFDHAX1T6MCE-1AN1ZABYY", "MU00000000A2", 0x1344, (0x1344, 0x51C0), "e1"),
    Drive("/dev/nvme2", INTEL_BASE, "WUS4BB019D7P3E3", "WD00000000A3", 0x1B96, (0x1B96, 0x2401), "d0-unlisted"),
    Drive("/dev/nvme3", INTEL_BASE, "WUS4BB019D7P3E3", "WD00000000A4", 0x1B96, None, ""),
    Drive("/dev/nvme4", INTEL_BASE, "WUS5EA138ESP7E3", "WD00000000A5", 0x1B96, (0x1B96, 0x2700), ""),
    Drive("/dev/nvme5", MICRON_BASE, "MTFDHAX1T6MCE-1AN1ZABYY", "MU00000000A6", 0x1344, (0x1344, 0x5410), ""),
)
WAF = 1.60  # NAND over user writes on the D0h drive
WAF_HOUR = 1.75
WAF_SCALE = 100  # D0h's factors as raw numbers: 160 means 1.60
ERASES_PER_GB = 3  # E1h total erase count grows by this per 10^9 bytes the host writes (made up)
README = """# fixtures/wdc-micron: NVMe drives whose vendor log is picked by PCI IDs (WDC D0h, Micron E1h), hand-made

HAND-MADE, not recorded (no output of these logs is in fixtures/corpus; no emulator has them): written by
`python3 -m tools.make_wdc_micron`. One machine, its NVMe controllers' PCI IDs under `sys/` as sysfs gives them
(`sys/class/nvme/nvmeN/device` a link to `sys/devices/pci0000:00/0000:00:0N.0`, whose `vendor` and `device` files
hold '0x' and four hex digits and a newline, as drivers/pci/pci-sysfs.c writes them): the files ssdwear reads in
place of /sys (ssdwear/host/pci.py).

  /dev/nvme0  1b96:2400 (an SN640 ID, nvme-cli wdc-nvme.c line 79): log 00h lists D0h, so D0h is read
  /dev/nvme1  1344:51c0 (an M51CX ID, micron-nvme.c line 185): E1h is read
  /dev/nvme2  1b96:2401 (SN640): log 00h does not list D0h: D0h is not asked for
  /dev/nvme3  smartctl says vendor 0x1b96, sysfs has no entry (as behind a bridge): nothing asked
  /dev/nvme4  1b96:2700 (SN650, line 85: nvme-cli checks no D0h for it): nothing asked
  /dev/nvme5  1344:5410 (M5410: not among vs-smart-ext-log's E1h models): nothing asked

The model strings and serials are made up or a corpus drive's (the logs are picked by the IDs, never the model:
which marketing model carries which device ID is not what these fixtures claim). nvme0/2/3/4 read three times
(`@2`, `@3`: 100,000 more Data Units Written in the same hour, then one more hour and 200,000), as does nvme1.

* `smartctl --json=c -x`: nvme0, 2, 3, 4 the real fixtures/corpus/smartctl_exporter__intel-ssdpe2kx010t8__1.json,
  nvme1 and 5 the real fixtures/corpus/smartctl_exporter__micron-mtfdhax1t6mce__1.json (origins and licences in
  fixtures/corpus/SOURCES.md), with the smartctl call, device name, model, serial, nvme_pci_vendor (vendor as above),
  power-on hours and Data Units Written changed, and the IEEE OUI removed.
* `smartctl -l nvmelog,0x00,0x400`: the NVMe 2.0 Supported Log Pages log, one dword per log ID, bit 0 set for 01h,
  02h, 03h (and D0h on nvme0), what nvme-cli's wdc_nvme_check_supported_log_page reads (wdc-nvme.c lines
  2811-2823, 2838-2851).
* `smartctl -l nvmelog,0xd0,0x200` (nvme0): struct wdc_ssd_d0_smart_log (wdc-nvme.c lines 1245-1270, little-endian):
  power-on hours at 0x08, lifetime write amplification 160 at 0x10 and trailing-hour 175 at 0x14 (raw; the scale,
  100, is made up: nvme-cli prints them raw), lifetime NAND writes at 0x44 and user writes at 0x50 in 4,096-byte
  Lpages (the size is made up: user writes x 4,096 is the Data Units Written in bytes), NAND = 1.60 x the first
  reading's user writes + 1.75 x those written since (the trailing hour's factor), % P/E cycles remaining 27 at 0x64.
* `smartctl -l nvmelog,0xe1,0x100` (nvme1): e1_log_page (micron-nvme.c lines 1471-1499): power-on minutes at byte
  20 (the first reading's hours x 60 + 17, then 30 and 61 minutes on: the third reading's hours are one more),
  total erase count at byte 80 (3 per 10^9 host bytes).
* Every page printed as smartctl 7.3 dumps it (tools/formats/nvme.py). No other call is recorded: a D0h or E1h
  request to another drive fails the replay.
"""


def dword_list(*log_ids: int) -> bytes:
    data = bytearray(0x400)
    for lid in log_ids:
        data[4 * lid] = 1
    return bytes(data)


def d0_page(hours: int, data_units: int, first_units: int) -> bytes:
    """D0h with NAND writes 1.60 x the first reading's user writes, and 1.75 x those written since (the trailing
    hour's factor)."""
    user, first = data_units * DATA_UNIT // LPAGE, first_units * DATA_UNIT // LPAGE
    data = bytearray(0x200)
    for at, size, value in ((0x08, 4, hours), (0x10, 4, round(WAF * WAF_SCALE)), (0x14, 4, round(WAF_HOUR * WAF_SCALE)),
                            (0x44, 8, round(first * WAF + (user - first) * WAF_HOUR)), (0x50, 8, user), (0x64, 4, 27)):
        data[at:at + size] = value.to_bytes(size, "little")
    return bytes(data)


def e1_page(minutes: int, data_units: int) -> bytes:
    data = bytearray(0x100)
    data[20:24] = minutes.to_bytes(4, "little")
    data[80:88] = (data_units * DATA_UNIT // 10**9 * ERASES_PER_GB).to_bytes(8, "little")
    return bytes(data)


def reading(d: Drive, hours: int, units: int) -> dict[str, Any]:
    doc = x_document(d.base, d.device, d.serial)
    doc["model_name"] = d.model
    doc["nvme_pci_vendor"] = {"id": d.vendor, "subsystem_id": d.vendor}
    doc.pop("nvme_ieee_oui_identifier", None)
    doc["power_on_time"]["hours"] += hours
    health = doc["nvme_smart_health_information_log"]
    health["power_on_hours"] += hours
    health["data_units_written"] += units
    return doc


def sysfs(d: Drive, n: int) -> None:
    if d.sysfs is None:
        return
    function = HERE / "sys" / "devices" / "pci0000:00" / f"0000:00:0{n}.0"
    function.mkdir(parents=True)
    for name, value in zip(("vendor", "device"), d.sysfs, strict=True):
        (function / name).write_text(f"0x{value:04x}\n")
    link = HERE / "sys" / "class" / "nvme" / f"nvme{n}"
    link.mkdir(parents=True)
    os.symlink(f"../../../devices/pci0000:00/0000:00:0{n}.0", link / "device")


def page_call(device: str, log_id: int, size: int, data: bytes, at: str = "") -> None:
    args = ["-l", f"nvmelog,0x{log_id:02x},0x{size:x}", "-d", "nvme", device]
    write(HERE, args, BANNER + nvme.dump(SMARTCTL_7_3, data, log_id), at=at)


def drive(n: int, d: Drive) -> None:
    sysfs(d, n)
    read = ["--json=c", "-x", "-n", "standby", "-d", "nvme", d.device]
    docs = []
    for i, (hours, units) in enumerate(TIMELINE, start=1):
        at = "" if i == 1 else f"@{i}"
        doc = reading(d, hours, units)
        docs.append(doc)
        write_doc(read, doc, at)
        health = doc["nvme_smart_health_information_log"]
        if d.log in ("d0", "d0-unlisted"):
            page_call(d.device, 0x00, 0x400, dword_list(1, 2, 3, *((0xD0,) if d.log == "d0" else ())), at)
        if d.log == "d0":
            first = docs[0]["nvme_smart_health_information_log"]["data_units_written"]
            page_call(d.device, 0xD0, 0x200, d0_page(health["power_on_hours"], health["data_units_written"], first), at)
        if d.log == "e1":
            minutes = (health["power_on_hours"] - hours) * 60 + 17 + (0, 30, 61)[i - 1]  # 61 minutes: the next hour
            page_call(d.device, 0xE1, 0x100, e1_page(minutes, health["data_units_written"]), at)
    write(HERE, ["--json=c", "-i", "-d", "nvme", d.device], json.dumps(identity(docs[0], d.device), indent=1) + "\n")


def write_doc(read: list[str], doc: dict[str, Any], at: str) -> None:
    write(HERE, read, json.dumps(doc, indent=1) + "\n", at=at)


def main() -> int:
    if HERE.exists():
        shutil.rmtree(HERE)
    HERE.mkdir()
    scan = {"json_format_version": [1, 0], "smartctl": {"version": [7, 3], "argv": ["smartctl", "--scan-open",
            "--json=c"], "exit_status": 0},
            "devices": [{"name": d.device, "info_name": d.device, "type": "nvme", "protocol": "NVMe"} for d in DRIVES]}
    write(HERE, ["--scan-open", "--json=c"], json.dumps(scan, indent=1) + "\n")
    for n, d in enumerate(DRIVES):
        drive(n, d)
    (HERE / "README.md").write_text(README)
    print(f"wrote {sum(1 for _ in HERE.rglob('*'))} files to {HERE}")
    return 0


def tree(folder: Path) -> dict[str, str | bytes]:
    """Every file (its bytes) and link (its target) under `folder`, for comparing a written tree with the fixture."""
    return {str(p.relative_to(folder)): os.readlink(p) if p.is_symlink() else p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_symlink() or p.is_file()}


if __name__ == "__main__":
    sys.exit(main())
