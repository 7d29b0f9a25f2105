#!/usr/bin/env python3
"""Record what nvme-cli answers to the endurance-log reads ssdwear makes, from QEMU's emulated NVMe drive, into
fixtures/nvmelog/ (issue 19.5: real recordings, refusals included).

Usage: python3 -m tools.record_nvme_cli [--out DIR] [--timeout SECONDS]

Boots one VM (tools/qemuvm.py) with one NVMe drive and runs, in the guest, the host's nvme-cli with exactly the argv
ssdwear uses (Identify Controller as JSON; the Endurance Group log and OCP's C0h as raw pages) and nvme-cli's own
subcommands for the same logs (`endurance-log`, `ocp smart-add-log`), plus the standard SMART/Health log (02h) as a
raw page beside smartctl's dump of it: the same bytes, which shows that `get-log -b` prints the page and nothing
else. Each call is `nvme <args>.out` (stdout as printed, bytes) / `.rc` / `.err` (stderr, where there was any).
Rerunning it rewrites those files; what may change is the drive's temperature and counters in the 02h page.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
from pathlib import Path

from ssdwear.smartctl.replay import fixture_name

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parent / "fixtures" / "nvmelog"
DEVICE = "/dev/nvme0"
CALLS: list[list[str]] = [
    ["id-ctrl", DEVICE, "-o", "json"],
    ["get-log", DEVICE, "--log-id=0x09", "--lsi=1", "--log-len=512", "-b"],
    ["get-log", DEVICE, "--log-id=0xc0", "--log-len=512", "-b"],
    ["endurance-log", DEVICE, "-g", "1", "-o", "json"],
    ["ocp", "smart-add-log", DEVICE, "-o", "json"],
    ["get-log", DEVICE, "--log-id=0x02", "--log-len=512", "-b"],
]
SMARTCTL_02 = ["-l", "nvmelog,0x2,0x200", "-d", "nvme", DEVICE]


def guest_script() -> str:
    lines = ['OUT="$SSDWEAR_VM_OUT"', "mkdir -p \"$OUT/rec\""]
    for program, args in [*(("nvme", a) for a in CALLS), ("smartctl", SMARTCTL_02)]:
        name = shlex.quote(fixture_name(args, program))
        lines.append(f'{program} {" ".join(shlex.quote(a) for a in args)} > "$OUT/rec/"{name}.out '
                     f'2> "$OUT/rec/"{name}.err; echo $? > "$OUT/rec/"{name}.rc')
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from ssdwear.smartctl.parse import parse_output
    from tools import qemuvm

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args(argv)
    reason = qemuvm.qemu_available()
    if reason is not None:
        print(f"record_nvme_cli: cannot boot a VM here: {reason}", file=sys.stderr)
        return 2
    vm = qemuvm.run_vm([qemuvm.Drive.nvme("NVME0001")], guest_script(), timeout_s=args.timeout)
    rec = vm.outdir / "rec"
    if vm.returncode != 0 or not rec.is_dir():
        print(vm.console[-4000:], file=sys.stderr)
        return 1
    raw = (rec / f"{fixture_name(CALLS[-1], 'nvme')}.out").read_bytes()
    dump = parse_output((rec / f"{fixture_name(SMARTCTL_02)}.out").read_bytes(), source="smartctl").nvme_logs.get(2)
    same = dump is not None and raw == dump
    for call in CALLS:
        for suffix in (".out", ".rc", ".err"):
            src = rec / f"{fixture_name(call, 'nvme')}{suffix}"
            dest = args.out / src.name
            if suffix == ".err" and not src.read_bytes():
                dest.unlink(missing_ok=True)
                continue
            shutil.copyfile(src, dest)
        rc = (rec / f"{fixture_name(call, 'nvme')}.rc").read_text().strip()
        err = (rec / f"{fixture_name(call, 'nvme')}.err").read_text(errors="replace").strip()
        print(f"  rc={rc} {fixture_name(call, 'nvme')}{'  (' + err + ')' if err else ''}")
    print(f"record_nvme_cli: get-log 0x02 -b and smartctl's dump of 0x02 hold {'the same' if same else 'DIFFERENT'} "
          f"{len(raw)} bytes")
    shutil.rmtree(vm.workdir, ignore_errors=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
