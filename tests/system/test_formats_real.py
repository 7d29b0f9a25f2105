"""The format matrix agrees with a real smartctl where one exists: tools/formats renders, as smartctl 7.3 prints
them, the drives the real smartctl 7.3 of Debian 12 read in the QEMU VM (fixtures/qemu, fixtures/nvmelog), and the
lines it renders are the lines the recordings hold; the installed smartctl (`smartctl --version`, the JSON
envelope of `--json=c --scan-open`, which need no drive) prints what the matrix says 7.3 prints."""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import replace

from support.paths import FIXTURES
from support.tools import require

from ssdwear.smartctl.parse import parse_output
from tools.formats import ata, jsondocs, nvme, releases, scan, scsi
from tools.formats.drives import Ata, AtaAttr, Nvme, Scsi

QEMU = FIXTURES / "qemu"
R73 = releases.RELEASES["7.3"]  # its platform is the QEMU guest's: x86_64-linux-6.1.0-57-amd64


def recording(name: str) -> str:
    return (QEMU / f"{name}.out").read_text()


def lines_of(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip() and not line.startswith("Local Time is:")]


def test_every_recording_starts_with_the_banner_the_matrix_prints_for_7_3() -> None:
    for path in [*QEMU.glob("smartctl -[!-]*.out"), *(FIXTURES / "nvmelog").glob("smartctl -[!-]*.out")]:
        assert path.read_text().startswith(releases.banner(R73)), path.name


def test_the_ata_information_section_and_brief_table_are_7_3s() -> None:
    text = recording("smartctl -x -n standby -d sat _dev_sdb")
    drive = Ata(model="INTEL SSDSC2BA200G3", serial="AHCI0002", firmware="2.5+", capacity=1_073_741_824,
                logical_sector=512, physical_sector=512, wwn=None, attributes=(
                    AtaAttr(1, "Raw_Read_Error_Rate", 0x0003, 100, 100, 6, 0),
                    AtaAttr(3, "Spin_Up_Time", 0x0003, 100, 100, 0, 16),
                    AtaAttr(4, "Start_Stop_Count", 0x0002, 100, 100, 20, 100),
                    AtaAttr(5, "Reallocated_Sector_Ct", 0x0003, 100, 100, 36, 0),
                    AtaAttr(9, "Power_On_Hours", 0x0003, 100, 100, 0, 1),
                    AtaAttr(12, "Power_Cycle_Count", 0x0003, 100, 100, 0, 0),
                    AtaAttr(190, "Temperature_Case", 0x0003, 69, 69, 50, 31)))
    for line in lines_of(ata.info_lines(R73, drive)):
        assert line in text.splitlines(), line
    assert re.search(r"^Local Time is:    \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} UTC$", text, re.M)
    table = ata.table(R73, drive.attributes, brief=True, raw_of={190: "31 (Min/Max 31/31)"})
    assert table in text  # header, rows, legend and the blank line, byte for byte


def test_the_nvme_identity_and_health_block_are_7_3s() -> None:
    text = recording("smartctl -x -n standby -d nvme _dev_nvme0")
    drive = replace(Nvme(), model="QEMU NVMe Ctrl", serial="NVME0001", firmware="7.2.22", version="1.4",
                    temperature=50, available_spare=0, available_spare_threshold=0, percentage_used=0,
                    data_units_read=1, data_units_written=0, host_reads=4, host_writes=0, busy_time=0,
                    power_cycles=0, power_on_hours=0, unsafe_shutdowns=0)
    kept = ("Model Number:", "Serial Number:", "Firmware Version:", "NVMe Version:")
    for line in nvme.info_lines(R73, drive).splitlines():
        if line.startswith(kept):
            assert line in text.splitlines(), line
    block = nvme.health_lines(R73, n=drive)
    assert block.rstrip("\n") + "\n" in text  # 7.3 prints two optional temperature lines after the block


def test_the_scsi_identity_is_7_3s() -> None:
    text = recording("smartctl -x -n standby -d scsi _dev_sdc")
    drive = replace(Scsi(), vendor="QEMU", product="QEMU HARDDISK", revision="2.5+", serial="VSCSI0001",
                    capacity=1_073_741_824)
    keys = {line.split(":")[0] for line in text.splitlines() if ":" in line}
    compared = [line for line in scsi.info_lines(R73, drive).splitlines() if line.split(":")[0] in keys]
    assert len(compared) >= 7  # Vendor, Product, Revision, User Capacity, Logical block size, Serial, Device type
    for line in compared:
        if not line.startswith(("Local Time is:", "SMART support is:")):
            assert line in text.splitlines(), line


QEMU_SCAN: list[scan.Device] = [("/dev/sda", "sat", "/dev/sda [SAT]", "ATA", None),
                                ("/dev/sdb", "sat", "/dev/sdb [SAT]", "ATA", None),
                                ("/dev/sdc", "scsi", "/dev/sdc", "SCSI", None),
                                ("/dev/nvme0", "nvme", "/dev/nvme0", "NVMe", None),
                                ("/dev/nvme1", "nvme", "/dev/nvme1", "NVMe", None)]


def test_the_scan_is_7_3s_in_text_and_json() -> None:
    assert scan.text(R73, QEMU_SCAN) == recording("smartctl --scan-open")
    assert scan.json_text(R73, QEMU_SCAN) == recording("smartctl --scan-open --json=c")


def _in_order(mine: list[str], real: list[str]) -> list[str]:
    common = [k for k in mine if k in real]
    return common if common == [k for k in real if k in mine] else [f"order differs: {common}"]


def test_the_json_documents_have_7_3s_envelope_keys_and_order() -> None:
    for kind, device, build in (("nvme", "/dev/nvme0", jsondocs.nvme), ("scsi", "/dev/sdc", jsondocs.scsi),
                                ("sat", "/dev/sdb", jsondocs.ata)):
        argv = ["--json=c", "-x", "-n", "standby", "-d", kind, device]
        real = json.loads(recording(f"smartctl {' '.join(argv).replace('/', '_')}"))
        mine = build(R73, argv)
        # every key of the matrix's envelope, as 7.3 prints it (7.3 adds drive_database_version for ATA drives,
        # which ssdwear does not read and the matrix leaves out)
        assert {k: real["smartctl"][k] for k in mine["smartctl"] if k != "exit_status"} == \
            {k: v for k, v in mine["smartctl"].items() if k != "exit_status"}
        assert "order differs" not in " ".join(_in_order(list(mine), list(real))), kind
        parsed = parse_output(recording(f"smartctl {' '.join(argv).replace('/', '_')}"), device)
        assert parsed.smartctl_version == "7.3" and parsed.local_time is not None
    ata_real = json.loads(recording("smartctl --json=c -x -n standby -d sat _dev_sdb"))["ata_smart_attributes"]
    ata_mine = jsondocs.ata(R73, [])["ata_smart_attributes"]
    assert list(ata_mine["table"][0]) == list(ata_real["table"][0])  # id, name, value, ..., flags, raw
    assert list(ata_mine["table"][0]["flags"]) == list(ata_real["table"][0]["flags"])


def test_the_nvme_dumps_are_7_3s() -> None:
    for path in (FIXTURES / "nvmelog").glob("smartctl -l nvmelog,0x2,*.out"):
        text = path.read_text()
        page = parse_output(text, source=path.name).nvme_logs[0x02]
        assert text == releases.banner(R73) + nvme.dump(R73, page, 0x02), path.name


def test_the_installed_smartctl_prints_the_banner_and_envelope_the_matrix_gives_its_release() -> None:
    """Debian 12's smartctl 7.3 here (the QEMU recordings' binary); another release of 7.x is held to the banner and
    envelope the matrix prints for it (its own release when the matrix has it: same date and SVN revision)."""
    smartctl = require("smartctl")
    version = subprocess.run([smartctl, "--version"], capture_output=True, text=True, timeout=30).stdout
    first = version.splitlines()[0]
    m = re.fullmatch(r"smartctl ((\d+)\.(\d+)) (\S+) r(\d+) \[(\S+)\] \(local build\)", first)
    assert m is not None, first
    assert (int(m.group(2)), int(m.group(3))) >= (7, 0), f"{first}: the matrix's envelope check needs --json (7.0)"
    known = releases.RELEASES.get(m.group(1))
    if known is not None:
        assert (m.group(4), int(m.group(5))) == (known.date, known.svn)
    here = replace(known or R73, name=m.group(1), version=m.group(1), date=m.group(4), svn=int(m.group(5)),
                   platform=m.group(6))
    lines = 2 if known is not None else 1  # the copyright years of a release the matrix has not: not known here
    assert version.splitlines()[:lines] == releases.banner(here).splitlines()[:lines]
    out = subprocess.run([smartctl, "--json=c", "--scan-open"], capture_output=True, text=True, timeout=30).stdout
    doc = json.loads(out)
    expected = jsondocs.envelope(here, ["--json=c", "--scan-open"], exit_status=doc["smartctl"]["exit_status"])
    assert {k: v for k, v in doc.items() if k != "devices"} == expected
