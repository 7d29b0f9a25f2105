"""`ssdwear report --groups` live in the QEMU VM, against real md, LUKS, LVM raid and btrfs devices built there with
the host's mdadm, cryptsetup, lvm2 and btrfs-progs (issue 28.7): the groups found and their members followed down
to the drives smartctl reads, through partitions and LUKS, by the installed command as root runs it."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

from tools import qemuvm
from tools.record_pools import LUKS, PARTITION, SETUP_ENV

SETUP = "\n".join([
    PARTITION.format(disk="/dev/sda"), PARTITION.format(disk="/dev/sdb"),
    LUKS.format(part="/dev/sda1", name="crypta"), LUKS.format(part="/dev/sdb1", name="cryptb"),
    "mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --homehost=vm --name=luks /dev/mapper/crypta "
    "/dev/mapper/cryptb",
    "pvcreate -q /dev/sda2 /dev/sdb2", "vgcreate -q vg0 /dev/sda2 /dev/sdb2",
    "lvcreate -q --type raid1 -m 1 -L 100M -n data vg0",
    "mkfs.btrfs -q -L fast -d raid1 -m raid1 /dev/nvme0n1 /dev/nvme1n1",
    "mkdir -p /srv/fast && mount -t btrfs /dev/nvme0n1 /srv/fast",
])

GUEST = """
OUT="$SSDWEAR_VM_OUT"
( {setup} ) > "$OUT/setup.log" 2>&1 || exit 7
S="{python} -m ssdwear"
$S --no-history report --groups --format json > "$OUT/report.json" 2> "$OUT/report.err"; echo $? > "$OUT/report.rc"
$S --no-history report --groups > "$OUT/table.txt" 2>&1
$S --no-history plan --stagger md1 --format json > "$OUT/stagger.json" 2> "$OUT/stagger.err"
echo $? > "$OUT/stagger.rc"
"""


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = qemuvm.qemu_available()
    missing = [t for t in ("mdadm", "lvm", "cryptsetup", "mkfs.btrfs") if not any(
        os.access(os.path.join(d, t), os.X_OK) for d in ("/usr/sbin", "/sbin", "/usr/bin", "/bin"))]
    if reason is None and missing:
        reason = f"{', '.join(missing)} not installed (contrib/install-deps.sh --test installs them)"
    if reason is not None:
        if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
            pytest.fail(f"the pools VM cannot run here: {reason}")
        pytest.skip(f"the pools VM cannot run here: {reason}")
    drives = [qemuvm.Drive.nvme("NVMEC001"), qemuvm.Drive.nvme("NVMEC002"),
              qemuvm.Drive.sata("S5COMB001", model="Samsung SSD 860 EVO 1TB", rotation_rate=1),
              qemuvm.Drive.sata("S5COMB002", model="Samsung SSD 860 EVO 1TB", rotation_rate=1)]
    script = GUEST.format(setup=SETUP_ENV + SETUP, python=shlex.quote(sys.executable))
    result = qemuvm.run_vm(drives, script, timeout_s=400, workdir=tmp_path_factory.mktemp("vm"),
                           modules=qemuvm.POOL_MODULES)
    setup_log = result.outdir / "setup.log"
    assert result.returncode == 0, (setup_log.read_text() if setup_log.exists() else "") + result.console[-3000:]
    print(f"VM run: {result.seconds:.1f} s")
    return result.outdir


@pytest.mark.qemu
def test_every_group_is_found_live_and_reaches_its_drives(vm: Path) -> None:
    assert (vm / "report.rc").read_text().strip() == "0", (vm / "report.err").read_text()
    assert (vm / "report.err").read_text() == ""
    found = {g["name"]: g for g in json.loads((vm / "report.json").read_text())["groups"]}
    assert set(found) == {"md1", "vg0/data", "fast"}
    md, lv, fs = found["md1"], found["vg0/data"], found["fast"]
    assert (md["kind"], md["level"], md["tolerates"]) == ("md", "raid1", 1)
    assert [(m["serial"], m["device"]) for m in md["members"]] == [("S5COMB001", "/dev/sda"), ("S5COMB002", "/dev/sdb")]
    assert [m["member"] for m in md["members"]] == ["/dev/dm-0", "/dev/dm-1"]  # LUKS on the first partitions
    assert (lv["kind"], lv["level"]) == ("lvm", "raid1")
    assert [(m["member"], m["serial"]) for m in lv["members"]] == [("/dev/sda2", "S5COMB001"),
                                                                  ("/dev/sdb2", "S5COMB002")]
    assert (fs["kind"], fs["level"], fs["tolerates"]) == ("btrfs", "raid1", 1)
    assert [(m["serial"], m["matched_by"]) for m in fs["members"]] == [("NVMEC001", "serial"),
                                                                      ("NVMEC002", "serial")]
    table = (vm / "table.txt").read_text()
    assert "md1 (md)" in table and "vg0/data (lvm)" in table and "fast (btrfs)" in table


@pytest.mark.qemu
def test_stagger_of_drives_without_projections_says_why(vm: Path) -> None:
    """QEMU's drives report 0 power-on hours: no projection, so no schedule can be made (exit 1, one line)."""
    assert (vm / "stagger.rc").read_text().strip() == "1"
    assert (vm / "stagger.err").read_text().strip() == (
        "ssdwear: md1: no pessimistic wear-out date for /dev/dm-0, /dev/dm-1 (no drive found under it, or no "
        "projection): nothing to stagger on")
