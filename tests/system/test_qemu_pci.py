"""An NVMe controller's PCI IDs read from a real kernel's sysfs (host/pci.py) in a QEMU guest: QEMU's NVMe controller
is PCI 1b36:0010 (Red Hat's QEMU NVM Express controller), reached through the kernel's own links
(/sys/class/nvme/nvme0 and its `device`); and a live `report` of that drive, whose IDs no vendor's table lists,
asks for no vendor log (smartctl's own call log: a wrapper on PATH records every argv)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from support.tools import require_qemu

from tools import qemuvm

GUEST = """
set -u
OUT="$SSDWEAR_VM_OUT"
{python} -c 'from ssdwear.host.pci import nvme_pci_id as f; print(f("/dev/nvme0"), f("/dev/nvme0n1"), f("/dev/sda"))' \
    > "$OUT/ids.out" 2> "$OUT/ids.err"
mkdir -p /run/wrap
printf '#!/bin/sh\\necho "$*" >> "$SSDWEAR_VM_OUT/argv.log"\\nexec /usr/sbin/smartctl "$@"\\n' > /run/wrap/smartctl
chmod 755 /run/wrap/smartctl
{python} -m ssdwear --smartctl /run/wrap/smartctl --no-history report --format json > "$OUT/report.out" \
    2> "$OUT/report.err"; echo $? > "$OUT/report.rc"
"""


@pytest.mark.qemu
def test_the_ids_come_from_the_kernels_sysfs_and_no_vendor_log_is_asked(tmp_path: Path) -> None:
    require_qemu()
    result = qemuvm.run_vm([qemuvm.Drive.nvme("NVME0001"), qemuvm.Drive.sata("AHCI0001")],
                           GUEST.format(python=shlex.quote(sys.executable)), timeout_s=200, workdir=tmp_path)
    assert result.returncode == 0, result.console[-4000:]
    out = result.outdir
    assert (out / "ids.out").read_text().split() == ["1b36:0010", "1b36:0010", "None"], (out / "ids.err").read_text()
    assert int((out / "report.rc").read_text()) in (0, 1), (out / "report.err").read_text()
    drives = {d["serial"]: d for d in json.loads((out / "report.out").read_text())["drives"]}
    assert "NVME0001" in drives and not any("PCI" in n for n in drives["NVME0001"]["notes"])
    calls = (out / "argv.log").read_text().splitlines()
    assert any("/dev/nvme0" in c for c in calls) and not any(c.startswith("-l nvmelog") for c in calls), calls
