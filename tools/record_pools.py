#!/usr/bin/env python3
"""Record real redundancy-group layouts (md, LVM raid, LUKS, btrfs) from QEMU-emulated drives into fixtures/pools/.

Usage: python3 -m tools.record_pools [LAYOUT...] [--out DIR] [--timeout SECONDS]

For each layout (all of LAYOUTS by default) one VM is booted (tools/qemuvm.py, with the md, dm and btrfs modules):
the guest builds the layout with the host's mdadm, lvm2, cryptsetup and btrfs-progs (run in the guest's chroot of
the host's /), then runs ssdwear's own `report --groups --format json` in-process with every program it calls
(smartctl, nvme-cli, lsblk, mdadm, lvm, btrfs) wrapped in a recorder, so the recordings are exactly the calls
ssdwear makes, named as replay names them (`mdadm --detail --export _dev_md0.out`, `.rc`, `.err` where it printed
on stderr; `@N` for the N-th call of the same argv). Back on the host the folder is replayed through the same
command at the same clock, and the two documents must be equal. The layouts' shell steps are also what
tests/system/test_qemu_pools.py builds live.

The same file runs inside the guest (``--guest OUTDIR LAYOUT CLOCK``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_OUT = REPO / "fixtures" / "pools"

# What every setup runs under: no udev in the guest, so libdevmapper makes the /dev/mapper nodes itself.
SETUP_ENV = "export DM_DISABLE_UDEV=1 LVM_SUPPRESS_FD_WARNINGS=1\nset -e\n"
# Two partitions on a disk (MBR, busybox fdisk: the host may have no sfdisk): 400 MiB, then the rest.
PARTITION = "printf 'n\\np\\n1\\n\\n+400M\\nn\\np\\n2\\n\\n\\nw\\n' | busybox fdisk {disk} >/dev/null"
LUKS = ("printf pw | cryptsetup luksFormat --batch-mode --pbkdf pbkdf2 --pbkdf-force-iterations 1000 {part} -\n"
        "printf pw | cryptsetup open --key-file - {part} {name}")
SAMSUNG = "Samsung SSD 860 EVO 1TB"


@dataclass(frozen=True)
class Layout:
    name: str
    what: str  # one line for the README
    drives: tuple[tuple[str, str, str | None], ...]  # (kind, serial, SATA model)
    setup: str  # shell, run as root in the guest


LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in (
    Layout("md-raid1", "md raid1 over two whole NVMe namespaces (md0)",
           (("nvme", "NVMEA001", None), ("nvme", "NVMEA002", None)),
           "mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --homehost=vm --name=mirror "
           "/dev/nvme0n1 /dev/nvme1n1"),
    Layout("md-raid5", "md raid5 over three whole SATA disks (md5)",
           tuple(("sata", f"S5RAID{i:03d}", SAMSUNG) for i in range(1, 4)),
           "mdadm --create /dev/md5 --run --level=5 --raid-devices=3 --homehost=vm --name=r5 "
           "/dev/sda /dev/sdb /dev/sdc"),
    Layout("md-raid10", "md raid10 (near=2) over four whole NVMe namespaces (md10)",
           tuple(("nvme", f"NVMEB00{i}", None) for i in range(1, 5)),
           "mdadm --create /dev/md10 --run --level=10 --raid-devices=4 --homehost=vm --name=r10 "
           "/dev/nvme0n1 /dev/nvme1n1 /dev/nvme2n1 /dev/nvme3n1"),
    Layout("lvm-raid1", "LVM raid1 LV vg0/data (and a linear LV vg0/plain) on the second partitions of two SATA disks",
           (("sata", "S5LVM0001", SAMSUNG), ("sata", "S5LVM0002", SAMSUNG)),
           "\n".join([PARTITION.format(disk="/dev/sda"), PARTITION.format(disk="/dev/sdb"),
                      "pvcreate -q /dev/sda2 /dev/sdb2", "vgcreate -q vg0 /dev/sda2 /dev/sdb2",
                      "lvcreate -q --type raid1 -m 1 -L 100M -n data vg0", "lvcreate -q -L 40M -n plain vg0"])),
    Layout("luks-md-raid1", "md raid1 (md1) over two LUKS2 devices, each on the first partition of a SATA disk",
           (("sata", "S5LUKS001", SAMSUNG), ("sata", "S5LUKS002", SAMSUNG)),
           "\n".join([PARTITION.format(disk="/dev/sda"), PARTITION.format(disk="/dev/sdb"),
                      LUKS.format(part="/dev/sda1", name="crypta"), LUKS.format(part="/dev/sdb1", name="cryptb"),
                      "mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --homehost=vm --name=luks "
                      "/dev/mapper/crypta /dev/mapper/cryptb"])),
    Layout("btrfs-raid1", "btrfs over three whole SATA disks, data raid1 and metadata raid1c3, mounted at /srv/pool",
           tuple(("sata", f"S5BTRFS0{i}", SAMSUNG) for i in range(1, 4)),
           "mkfs.btrfs -q -L pool -d raid1 -m raid1c3 /dev/sda /dev/sdb /dev/sdc\n"
           "mkdir -p /srv/pool && mount -t btrfs /dev/sda /srv/pool"),
)}

VERSIONS = (["mdadm", "--version"], ["lvm", "version"], ["btrfs", "--version"], ["cryptsetup", "--version"],
            ["lsblk", "--version"], ["smartctl", "--version"], ["uname", "-r"])


# ---------------------------------------------------------------------------------------------------------
# inside the guest


class Recording:
    """A Runner that passes each call to `runner` and writes what it answered, named as replay looks it up."""

    def __init__(self, runner: Any, program: str, folder: Path, seen: Counter[str], lock: threading.Lock) -> None:
        self.runner, self.program, self.folder, self.seen, self.lock = runner, program, folder, seen, lock

    def run(self, args: Sequence[str]) -> Any:
        from ssdwear.smartctl.replay import fixture_name

        result = self.runner.run(args)
        base = fixture_name(args, self.program)
        with self.lock:
            self.seen[base] += 1
            name = base if self.seen[base] == 1 else f"{base}@{self.seen[base]}"
        (self.folder / f"{name}.out").write_bytes(result.stdout)
        (self.folder / f"{name}.rc").write_text(f"{result.status}\n")
        if result.stderr:
            (self.folder / f"{name}.err").write_bytes(result.stderr)
        return result


def _report(app: Any) -> tuple[int, str, str]:
    from click.testing import CliRunner

    from ssdwear.cli.main import cli

    result = CliRunner().invoke(cli, ["--no-history", "report", "--groups", "--format", "json"], obj=app)
    return result.exit_code, result.stdout, result.stderr


def guest_main(outdir: Path, layout: Layout, clock: datetime) -> int:
    from ssdwear.cli.app import App
    from ssdwear.host.runner import NvmeCliRunner, SmartctlRunner, locate_nvme, locate_smartctl, storage_tool
    from ssdwear.run.groups import Tools
    from ssdwear.smartctl.pools import lvm
    from ssdwear.smartctl.pools.discover import PROGRAMS

    setup = subprocess.run(["/bin/sh", "-c", SETUP_ENV + layout.setup], capture_output=True, text=True, check=False)
    notes: dict[str, Any] = {"setup": {"rc": setup.returncode, "stdout": setup.stdout, "stderr": setup.stderr}}
    if setup.returncode != 0:
        (outdir / "notes.json").write_text(json.dumps(notes, indent=1))
        return 3
    folder = outdir / "rec"
    folder.mkdir()
    seen: Counter[str] = Counter()
    lock = threading.Lock()
    tools = {p: Recording(r, p, folder, seen, lock) for p in PROGRAMS if (r := storage_tool(p, 60)) is not None}
    app = App(clock=lambda: clock, runner=Recording(SmartctlRunner(locate_smartctl()), "smartctl", folder, seen, lock),
              nvme_runner=Recording(NvmeCliRunner(locate_nvme()), "nvme", folder, seen, lock), tools=Tools(tools))
    code, stdout, stderr = _report(app)
    notes["report"] = {"rc": code, "stdout": stdout, "stderr": stderr}
    if "lvm" in tools and "vgcreate" in layout.setup:  # what ssdwear asks an LVM without --reportformat json
        tools["lvm"].run(list(lvm.TEXT_ARGS))
    notes["versions"] = {argv[0]: _version(argv) for argv in VERSIONS}
    notes["tools"] = sorted(tools)
    (outdir / "notes.json").write_text(json.dumps(notes, indent=1))
    return 0


def _version(argv: list[str]) -> str:
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    return next((line.strip() for line in lines if line.strip()), "")


# ---------------------------------------------------------------------------------------------------------
# on the host


def replayed(folder: Path, clock: datetime) -> tuple[int, str, str]:
    """`ssdwear --replay FOLDER --no-history report --groups --format json` at `clock`, in this process."""
    from click.testing import CliRunner

    from ssdwear.cli.app import App
    from ssdwear.cli.main import cli

    result = CliRunner().invoke(cli, ["--replay", str(folder), "--no-history", "report", "--groups", "--format",
                                      "json"], obj=App(clock=lambda: clock))
    return result.exit_code, result.stdout, result.stderr


def comparable(doc: str) -> Any:
    data = json.loads(doc)
    data.pop("origin", None)
    return data


def drives(layout: Layout) -> list[Any]:
    from tools import qemuvm

    return [qemuvm.Drive.nvme(serial) if kind == "nvme" else
            qemuvm.Drive.sata(serial, model=model, rotation_rate=1 if model else None)
            for kind, serial, model in layout.drives]


def _readme(layout: Layout, notes: dict[str, Any], files: Sequence[str], clock: datetime) -> str:
    groups = json.loads(notes["report"]["stdout"])["groups"]
    said = "\n".join(f"- `{g['name']}` ({g['kind']} {g['level']}, tolerates {g['tolerates']}): "
                     + ", ".join(f"`{m['member']}` -> {m['serial'] or '?'} ({m['matched_by'] or 'not matched'})"
                                 for m in g["members"]) for g in groups) or "- none"
    versions = "\n".join(f"- `{k}`: {v}" for k, v in notes["versions"].items())
    drive_rows = "\n".join(f"| {kind} | `{serial}` | {model or '-'} |" for kind, serial, model in layout.drives)
    calls = "\n".join(f"- `{name}`" for name in files)
    return f"""# fixtures/pools/{layout.name}: {layout.what}

RECORDED, not edited: written by `python3 -m tools.record_pools {layout.name}` (do not edit by hand; the script
rewrites this folder). A QEMU VM (tools/qemuvm.py, pure software emulation) with these drives:

| kind | serial | model (SATA) |
| --- | --- | --- |
{drive_rows}

The guest built the layout with the host's tools run in its chroot of the host's `/` (no udev runs there: lsblk
gives no serial or WWN of a SATA disk, only its device node, and a model cut to 16 characters):

```
{layout.setup}
```

then ran ssdwear's `report --groups --format json` with every program it calls recorded: each call is
`PROGRAM <argv, '/' -> '_'>.out` (stdout), `.rc` (exit status) and `.err` (stderr, where it printed any). Replayed
(`ssdwear --replay fixtures/pools/{layout.name} report --groups`) at the recording's clock
({clock.isoformat(timespec='seconds')}) it gives the same document the live run gave. The groups found:

{said}

Versions in the guest:

{versions}

The recordings:

{calls}
"""


def record(layout: Layout, out: Path, timeout: float) -> bool:
    from tools import qemuvm

    clock = datetime.now(timezone.utc).replace(microsecond=0)
    script = (f"cd {shlex.quote(str(REPO))} && exec {shlex.quote(sys.executable)} -m tools.record_pools "
              f"--guest \"$SSDWEAR_VM_OUT\" {layout.name} {clock.isoformat()}\n")
    print(f"record_pools: {layout.name}: booting the VM ...", flush=True)
    vm = qemuvm.run_vm(drives(layout), script, timeout_s=timeout, modules=qemuvm.POOL_MODULES)
    notes_file = vm.outdir / "notes.json"
    if vm.returncode != 0 or not notes_file.exists():
        print(vm.console[-4000:], file=sys.stderr)
        print(f"record_pools: {layout.name}: the guest failed with status {vm.returncode}", file=sys.stderr)
        return False
    notes = json.loads(notes_file.read_text())
    folder = out / layout.name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    files = sorted(p.name for p in (vm.outdir / "rec").iterdir())
    for name in files:
        shutil.copyfile(vm.outdir / "rec" / name, folder / name)
    (folder / "README.md").write_text(_readme(layout, notes, files, clock))
    shutil.rmtree(vm.workdir, ignore_errors=True)
    code, stdout, stderr = replayed(folder, clock)
    same = code == notes["report"]["rc"] and comparable(stdout) == comparable(notes["report"]["stdout"])
    print(f"record_pools: {layout.name}: VM {vm.seconds:.0f} s, {len(files)} files; live exit "
          f"{notes['report']['rc']}, replayed exit {code}: {'the same document' if same else 'MISMATCH'}")
    if not same:
        print(f"live stderr: {notes['report']['stderr']}\nreplayed stderr: {stderr}", file=sys.stderr)
    return same


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("layouts", nargs="*", metavar="LAYOUT", help=", ".join(LAYOUTS) + " (default: all)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder of the layouts' folders (%(default)s)")
    ap.add_argument("--timeout", type=float, default=400, help="seconds before a VM is killed")
    ap.add_argument("--guest", nargs=3, metavar=("OUTDIR", "LAYOUT", "CLOCK"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.guest is not None:
        outdir, name, clock = args.guest
        return guest_main(Path(outdir), LAYOUTS[name], datetime.fromisoformat(clock))
    unknown = [name for name in args.layouts if name not in LAYOUTS]
    if unknown:
        ap.error(f"unknown layouts {unknown}: choose from {', '.join(LAYOUTS)}")
    from tools import qemuvm

    if (reason := qemuvm.qemu_available()) is not None:
        print(f"record_pools: cannot boot a VM here: {reason}", file=sys.stderr)
        return 2
    ok = [record(LAYOUTS[name], args.out.resolve(), args.timeout) for name in (args.layouts or LAYOUTS)]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
