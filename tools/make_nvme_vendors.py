#!/usr/bin/env python3
"""Write the HAND-MADE (not recorded) fixture machine fixtures/nvme-vendors/ and its README (README below): NVMe
drives of the vendors whose log 0xCA reuses Intel's layout (ssdwear/drives/nvme_vendors.py), each read three times
while it writes, with its 0xCA page built from the layout nvme-cli's plugins document and printed as smartctl 7.3
dumps it (tools/formats/nvme.py; the machine's other helpers are tools/make_intel_nvme.py's).

Run: python3 -m tools.make_nvme_vendors   (rewrites fixtures/nvme-vendors/ deterministically)
"""

from __future__ import annotations

import json
import shutil
import sys
from typing import Any

from tools.formats import nvme
from tools.make_intel_nvme import ROOT, drive, write, x_document

HERE = ROOT / "nvme-vendors"
BASE = "smartctl_exporter__intel-ssdpe2kx010t8__1.json"  # a real NVMe -x document (73 % used, 8,843 h)
MIB32 = 32 << 20
DATA_UNIT = 512_000
# (device, model, firmware, serial, NAND writes per host write, ADh min/max/avg erase cycles)
DRIVES = (
    ("/dev/nvme0", "DAPUSTOR H3200 3.2TB", "R1.0.0", "DP0000000000A1", 1.60, (2101, 2276, 2190)),
    ("/dev/nvme1", "ScaleFlux CSD 3000", "U1.0.0", "SF0000000000A2", 1.10, (2150, 2230, 2191)),
    ("/dev/nvme2", "MEMBLAZE P6536", "M1.0.0", "MB0000000000A3", 2.05, (2099, 2310, 2192)),
    ("/dev/nvme3", "YMTC PE511 1.92TB", "Y1.0.0", "YM0000000000A4", 1.45, (2120, 2260, 2193)),
    ("/dev/nvme4", "SHANNON DIRECT-IO G6", "S1.0.0", "SH0000000000A5", 1.30, (2111, 2270, 2194)),
    ("/dev/nvme5", "SSSTC PJ1-GW3840", "T1.0.0", "ST0000000000A6", 1.75, (2130, 2250, 2195)),
)
NOT_INTEL = ("/dev/nvme6", "YMTC PE511 3.84TB", "Y1.0.1", "YM0000000000A7")
TIMELINE = ((0, 0), (0, 100_000), (1, 200_000))  # (power-on hours added, Data Units Written added) per reading
# SSSTC's log has no timed workload (plugins/ssstc/ssstc-nvme.c lines 36-59): its entries in its own order
SSSTC_ORDER = (0xAB, 0xAC, 0xAD, 0xB8, 0xC7, 0xF4, 0xF5)
README = """# fixtures/nvme-vendors: NVMe drives whose vendor log 0xCA is Intel's layout, hand-made

HAND-MADE, not recorded (no output of these drives is in fixtures/corpus, MANIFEST.md; no emulator has log 0xCA):
written by `python3 -m tools.make_nvme_vendors`. One machine with a DapuStor, a ScaleFlux, a Memblaze, a YMTC, a
Shannon Systems and an SSSTC NVMe drive (/dev/nvme0-5), each read three times (`@2`, `@3`: the same power-on hour
with 100,000 more Data Units Written, then one more hour and 200,000), and a YMTC drive (/dev/nvme6) whose page 0xCA
is not in Intel's layout (its first entries are not ABh, ACh, ADh).

* The `smartctl --json=c -x` documents are the real fixtures/corpus/smartctl_exporter__intel-ssdpe2kx010t8__1.json
  (origin and licence in fixtures/corpus/SOURCES.md) with the smartctl call, the device name, the model string,
  firmware and serial number (made up: the vendor's name first, as the rows match), the power-on hours and the Data
  Units Written changed, and the PCI vendor and IEEE OUI fields removed (Intel's; the vendors' own were not checked).
* `smartctl -l nvmelog,0xca,0x200` is each page as smartctl 7.3 prints it (tools/formats/nvme.py), built from the
  layout in nvme-cli's plugins (github.com/linux-nvme/nvme-cli at e117ee68): 12-byte entries, key at byte 0,
  normalized value (100) at 3, 48-bit little-endian raw value at 5-10 (`struct nvme_additional_smart_log_item`,
  plugins/dapustor/dapustor-nvme.c lines 24-57), in Intel's order AB AC AD B8 C7 E2 E3 E4 EA F0 F3 F4 F5
  (dapustor-nvme.c lines 59-73; scaleflux/sfx-types.h lines 133-146; shannon/shannon-nvme.c lines 21-33;
  memblaze/memblaze-utils.h lines 11-25; ymtc/ymtc-utils.h lines 33-57, read there by key) and SSSTC's AB AC AD B8
  C7 F4 F5 (ssstc/ssstc-nvme.c lines 36-59). ADh's raw is min, max and average erase cycles, 16 bits each
  (dapustor-nvme.c lines 31-35); F4h NAND and F5h host writes count 32 MiB (memblaze-utils.h lines 51-52, "unit is
  32MiB"; ssdwear settles the unit on each drive against Data Units Written): F5h is the Data Units Written in 32 MiB,
  F4h that times a write amplification made up per drive (1.10 to 2.05). E2h-E4h hold 0.
* No `nvme set-feature` answer is recorded: nothing but reads may be asked of these drives (a call without a
  recording fails the replay).
"""


def ca_page(raws: dict[int, int], order: tuple[int, ...] = nvme.CA_ORDER) -> bytes:
    """Log 0xCA: the entries of `order`, normalized value 100, the raws given (others 0), the rest of 512 bytes 0."""
    data = bytearray(nvme.LOG_SIZE)
    for i, key in enumerate(order):
        at = 12 * i
        data[at], data[at + 3] = key, 100
        data[at + 5:at + 11] = raws.get(key, 0).to_bytes(6, "little")
    return bytes(data)


def reading(device: str, model: str, firmware: str, serial: str, hours: int, units: int) -> dict[str, Any]:
    doc = x_document(BASE, device, serial)
    doc.update(model_name=model, firmware_version=firmware)
    for key in ("nvme_pci_vendor", "nvme_ieee_oui_identifier"):
        doc.pop(key, None)
    doc["power_on_time"]["hours"] += hours
    health = doc["nvme_smart_health_information_log"]
    health["power_on_hours"] += hours
    health["data_units_written"] += units
    return doc


def main() -> int:
    if HERE.exists():
        shutil.rmtree(HERE)
    HERE.mkdir()
    devices = [d[0] for d in DRIVES] + [NOT_INTEL[0]]
    scan = {"json_format_version": [1, 0], "smartctl": {"version": [7, 3], "argv": ["smartctl", "--scan-open",
            "--json=c"], "exit_status": 0},
            "devices": [{"name": d, "info_name": d, "type": "nvme", "protocol": "NVMe"} for d in devices]}
    write(HERE, ["--scan-open", "--json=c"], json.dumps(scan, indent=1) + "\n")
    for device, model, firmware, serial, amplification, (low, high, avg) in DRIVES:
        docs: list[dict[str, Any]] = []
        pages: list[bytes | None] = []
        for hours, units in TIMELINE:
            doc = reading(device, model, firmware, serial, hours, units)
            host = round(doc["nvme_smart_health_information_log"]["data_units_written"] * DATA_UNIT / MIB32)
            raws = {0xAD: low | high << 16 | avg << 32, 0xF4: round(host * amplification), 0xF5: host}
            docs.append(doc)
            pages.append(ca_page(raws, SSSTC_ORDER if model.startswith("SSSTC") else nvme.CA_ORDER))
        drive(HERE, device, docs, pages)
    device, model, firmware, serial = NOT_INTEL
    other = bytearray(ca_page({0xAD: 2190 << 32}))
    other[0] = other[12] = 0  # the first entries are not the layout's
    drive(HERE, device, [reading(device, model, firmware, serial, 0, 0)], [bytes(other)])
    (HERE / "README.md").write_text(README)
    print(f"wrote {sum(1 for _ in HERE.rglob('*'))} files to {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
