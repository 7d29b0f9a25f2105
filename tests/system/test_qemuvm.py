"""The QEMU harness itself: boot a VM and check that smartctl inside sees the emulated drives."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from support.tools import require_qemu

from tools import qemuvm


@pytest.mark.qemu
def test_vm_smartctl_sees_nvme_and_sata(tmp_path: Path) -> None:
    require_qemu()

    script = f"""
smartctl --scan-open > "$SSDWEAR_VM_OUT/scan.txt" 2>&1
echo $? > "$SSDWEAR_VM_OUT/scan.rc"
smartctl -x -d nvme /dev/nvme0 > "$SSDWEAR_VM_OUT/nvme0.txt" 2>&1
echo $? > "$SSDWEAR_VM_OUT/nvme0.rc"
smartctl -i -d sat /dev/sda > "$SSDWEAR_VM_OUT/sda.txt" 2>&1
ls -A /var/lib/ssdwear > "$SSDWEAR_VM_OUT/fresh.txt"
{shlex.quote(sys.executable)} -c 'import sys; print(sys.version)' > "$SSDWEAR_VM_OUT/python.txt"
echo written > /etc/ssdwear-vm-probe && rm /etc/os-release
(cd "$SSDWEAR_VM_CHANGES" && find ./etc -maxdepth 1 ! -type d -printf '%y %p\n' | sort) > "$SSDWEAR_VM_OUT/changes.txt"
touch "$SSDWEAR_VM_CHANGES/x" 2> /dev/null; echo $? > "$SSDWEAR_VM_OUT/changes_rc.txt"
"""
    drives = [qemuvm.Drive.nvme("NVMETEST1"), qemuvm.Drive.sata("SATATEST1")]
    result = qemuvm.run_vm(drives, script, timeout_s=240, workdir=tmp_path / "vm")

    assert result.returncode == 0, result.console[-4000:]
    out = result.outdir
    scan = (out / "scan.txt").read_text()
    assert (out / "scan.rc").read_text().strip() == "0", scan
    assert "/dev/nvme0 -d nvme" in scan, scan
    assert "/dev/sda -d sat" in scan, scan

    nvme0 = (out / "nvme0.txt").read_text()
    assert "NVMETEST1" in nvme0, nvme0
    assert "QEMU NVMe Ctrl" in nvme0, nvme0
    assert "SMART/Health Information" in nvme0, nvme0
    # bit 0 (command line) and bit 1 (open failed) must be clear
    assert int((out / "nvme0.rc").read_text()) & 0b11 == 0, nvme0

    sda = (out / "sda.txt").read_text()
    assert "SATATEST1" in sda, sda

    # the host's Python runs in the guest, and ssdwear's state directory starts empty
    assert (out / "python.txt").read_text().strip() == sys.version
    assert (out / "fresh.txt").read_text() == ""
    # what the guest changed in the host's tree is seen, read-only: a file written, a whiteout for one deleted
    assert (out / "changes.txt").read_text() == "c ./etc/os-release\nf ./etc/ssdwear-vm-probe\n"
    assert (out / "changes_rc.txt").read_text().strip() != "0"
    assert os.path.lexists("/etc/os-release") and not os.path.exists("/etc/ssdwear-vm-probe")  # the host's: as was
    assert result.seconds < 240


def test_only_modules_the_image_holds_can_be_asked_for(tmp_path: Path) -> None:
    """run_vm(modules=...) loads on-demand modules (md, dm, btrfs: qemuvm.POOL_MODULES); any other is refused
    before anything is built or booted."""
    assert {"md_mod", "raid1", "dm_crypt", "btrfs"} <= set(qemuvm.POOL_MODULES)
    with pytest.raises(ValueError, match=r"modules \['zfs'\] are not in the image"):
        qemuvm.run_vm([qemuvm.Drive.nvme("N1")], "true", modules=["zfs"], workdir=tmp_path)
