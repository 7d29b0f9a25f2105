#!/usr/bin/env python3
"""Write the HAND-WRITTEN (not recorded) ZFS machines of fixtures/pools/: zfs-mirror, zfs-raidz, zfs-draid.

ZFS cannot be installed here (no zfsutils in Debian 12's main archive, and its contrib 2.1 has no `-j`), so these
machines are written by this script: `zpool status` in zpool's exact layouts, read from OpenZFS's source
(github.com/openzfs/zfs, cmd/zpool/zpool_main.c and lib/libzfs/libzfs_pool.c; tags named below) and its man page's
published example (man/man8/zpool-status.8, "Example 2: Display the status output in JSON format"):

- text (zfs-2.1.16 and zfs-2.3.0 alike): status_callback prints `  pool: NAME`, ` state: STATE`, the
  status/action/see lines of print_status_reason, `config:`, a blank line, then print_status_config's table:
  "\\t%*s%-*s  %-8s %5s %5s %5s" (depth spaces, the name padded to the widest name plus its depth, at least 10,
  the state, READ, WRITE, CKSUM), the aux words after two spaces ("cannot open", "too many errors"); the classes
  under "\\tdedup\\t", "\\tspecial\\t", "\\tlogs\\t" (print_class_vdevs), then "\\tcache" and "\\tspares"
  (print_l2cache, print_spares; spares say AVAIL or INUSE and "currently in use"); `errors: No known data errors`.
- ZFS 2.1's answer to `-j`: getopt's "zpool: invalid option -- 'j'", zpool_do_status's "invalid option 'j'",
  usage() with HELP_STATUS on stderr, exit 2 (zfs-2.1.16).
- JSON (zfs-2.3.0, status_callback_json, vdev_stats_nvlist, fill_vdev_info, class_vdevs_nvlist, spares_nvlist):
  `output_version` {command "zpool status", vers_major 0, vers_minor 1}, `pools` by name: name, state, pool_guid,
  txg, spa_version, zpl_version, status, `vdevs` {POOL: the root vdev, whose `vdevs` are the top-level vdevs, each
  with name, vdev_type, guid, path (leaves), class, state, the space and error counters as strings, and children in
  `vdevs`}, then `dedup`/`special`/`logs`, `l2cache`, `spares` beside it, and error_count. With -P -L the leaves'
  names are their real paths. The man page's example shows states as "HEALTHY"; the code prints vdev_state_str's
  "ONLINE", which these files follow.
- names (zpool_vdev_name, zpool_draid_name): mirror-0, raidz2-1, draid2:4d:7c:1s-0; distributed spares draid2-0-0.

The drives under the pools are written in smartctl 7.3's `--json=c -x` layout (tools/make_handwritten.py's
builders), and lsblk 2.38's `-J -s` as recorded in fixtures/pools/md-raid1 (here with udev's serials and WWNs, as
a real ZFS host has). The machines:

  zfs-mirror  ZFS 2.3, -j: pool tank, one mirror of two Samsung 860 EVO 1TB bought together (same firmware,
              26,280 and 26,190 power-on hours, 38 % used each): lockstep; `plan --stagger tank` finds a schedule.
  zfs-raidz   ZFS 2.1, text (-j refused): pool backup, raidz1-0 (one of its three disks UNAVAIL: it tolerates no
              more) and raidz2-1 (five disks at 93-95 % used, one FAULTED and covered by the hot spare sdi1):
              `plan --stagger backup/raidz2-1` finds none (exit 1): too little life left to spread them.
  zfs-draid   ZFS 2.3, -j: pool data, draid2:4d:7c:1s-0 over seven SATA SSDs, a special mirror and a log mirror
              of NVMe drives, an NVMe cache and the distributed spare draid2-0-0.

Run: python3 -m tools.make_pools   (rewrites the three folders deterministically)
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tools.make_handwritten import ata_json, attr, dumps, nvme_json, scan_json, write

ROOT = Path(__file__).resolve().parents[1] / "fixtures" / "pools"
LSBLK = ["-J", "-s", "-o", "NAME,KNAME,PATH,TYPE,SERIAL,WWN,MODEL,MOUNTPOINT"]
ZPOOL_JSON = ["status", "-j", "-P", "-L"]
ZPOOL_TEXT = ["status", "-P", "-L"]
EVO = "Samsung SSD 860 EVO 1TB"
EVO_BYTES = 1_000_204_886_016
PM = "SAMSUNG MZVLB256HBHQ-00000"  # PM981 256 GB
PM_BYTES = 256_060_514_304


@dataclass(frozen=True)
class Drive:
    dev: str  # sda, nvme0n1
    serial: str
    model: str
    wwn: int  # the low 36 bits of the NAA-5 WWN (OUI 002538, Samsung)
    poh: int
    used: int
    firmware: str = "RVT04B6Q"
    written_tb: float = 0.0
    read: bool = True  # smartctl can read it (an UNAVAIL disk that is gone cannot)

    @property
    def nvme(self) -> bool:
        return self.dev.startswith("nvme")

    @property
    def wwn_hex(self) -> str:
        return f"5002538{self.wwn:09x}"


@dataclass
class Vdev:
    name: str
    state: str = "ONLINE"
    children: list[Vdev] = field(default_factory=list)
    vdev_type: str = "disk"
    aux: str = ""  # the words after the counters: "cannot open", "too many errors", "currently in use"
    errors: tuple[int, int, int] = (0, 0, 0)


def smartctl(folder: Path, drives: Sequence[Drive]) -> None:
    """The drives' scan and -x readings."""
    found = [d for d in drives if d.read]
    write(["--scan-open", "--json=c"], scan_json([(f"/dev/{d.dev[:-2]}" if d.nvme else f"/dev/{d.dev}",
                                                   "nvme" if d.nvme else "sat", "NVMe" if d.nvme else "ATA")
                                                  for d in found]), folder=folder)
    for d in found:
        if d.nvme:
            device = f"/dev/{d.dev[:-2]}"
            args = ["--json=c", "-x", "-n", "standby", "-d", "nvme", device]
            units = int(d.written_tb * 1e12 / 512_000)
            doc = nvme_json(device, d.model, d.serial, PM_BYTES, d.poh, d.used, units, units * 2, args)
            doc["firmware_version"] = d.firmware
        else:
            device = f"/dev/{d.dev}"
            args = ["--json=c", "-x", "-n", "standby", "-d", "sat", device]
            sectors = int(d.written_tb * 1e12 / 512)
            attrs = [attr(5, "Reallocated_Sector_Ct", 100, 0, thresh=10, flags=51),
                     attr(9, "Power_On_Hours", 95, d.poh), attr(12, "Power_Cycle_Count", 99, 37),
                     attr(177, "Wear_Leveling_Count", 100 - d.used, d.used * 30, flags=51),
                     attr(241, "Total_LBAs_Written", 99, sectors)]
            doc = ata_json(device, "Samsung based SSDs", d.model, d.serial, d.wwn, d.firmware, EVO_BYTES, d.poh,
                           attrs, d.used, args, oui=0x002538, sectors_written=sectors)
        write(args, dumps(doc), folder=folder)


def _lsblk_object(node: dict, indent: int) -> list[str]:
    pad = " " * indent
    keys = ["name", "kname", "path", "type", "serial", "wwn", "model", "mountpoint"]
    lines = [f"{pad}{{"]
    fields = [f'{pad}   "{k}": {json.dumps(node.get(k))}' for k in keys]
    if node.get("children"):
        fields.append(f'{pad}   "children": [')
    lines += [line + "," for line in fields[:-1]] + [fields[-1]]
    if node.get("children"):
        lines += _lsblk_list(node["children"], indent + 3)
        lines.append(f"{pad}   ]")
    lines.append(f"{pad}}}")
    return lines


def _lsblk_list(nodes: Sequence[dict], indent: int) -> list[str]:
    out: list[str] = []
    for i, node in enumerate(nodes):
        obj = _lsblk_object(node, indent + 3)
        if i:
            out[-1] = out[-1] + "," + obj[0].strip()
            obj = obj[1:]
        out += obj
    return out


def lsblk(folder: Path, drives: Sequence[Drive]) -> None:
    """`lsblk -J -s`: each ZFS partition (1: the pool's, 9: ZFS's 8 MiB reserve) a root, its disk its child."""
    roots = []
    for d in drives:
        if not d.read:
            continue
        disk = {"name": d.dev, "kname": d.dev, "path": f"/dev/{d.dev}", "type": "disk", "serial": d.serial,
                "wwn": None if d.nvme else f"0x{d.wwn_hex}", "model": d.model, "mountpoint": None}
        if d.nvme:
            disk["wwn"] = f"eui.0025388{d.wwn:09x}"
        for n in (1, 9):
            part = f"{d.dev}p{n}" if d.nvme else f"{d.dev}{n}"
            roots.append({"name": part, "kname": part, "path": f"/dev/{part}", "type": "part", "serial": None,
                          "wwn": disk["wwn"], "model": None, "mountpoint": None, "children": [disk]})
    text = "\n".join(["{", '   "blockdevices": [', *_lsblk_list(roots, 3), "   ]", "}"]) + "\n"
    write(LSBLK, text, folder=folder, program="lsblk")


# -- zpool status, text --------------------------------------------------------------------------------------


def _width(v: Vdev, depth: int) -> int:
    return max([len(v.name) + depth, *(_width(c, depth + 2) for c in v.children)])


def _rows(v: Vdev, depth: int, width: int, spare: bool = False) -> list[str]:
    counters = "" if spare else " " + " ".join(f"{n:>5}" for n in v.errors)
    aux = f"  {v.aux}" if v.aux else ""
    line = f"\t{' ' * depth}{v.name:<{width - depth}}  {v.state:<8}{counters}{aux}".rstrip() if spare else \
        f"\t{' ' * depth}{v.name:<{width - depth}}  {v.state:<8}{counters}{aux}"
    return [line] + [row for c in v.children for row in _rows(c, depth + 2, width, spare)]


def zpool_text(pool: str, state: str, status: str, data: Sequence[Vdev], classes: Mapping[str, Sequence[Vdev]],
               spares: Sequence[Vdev]) -> str:
    root = Vdev(pool, state, list(data), "root")
    everything = [root, *(v for vs in classes.values() for v in vs), *spares]
    width = max(10, *(_width(v, 0 if v is root else 2) for v in everything))
    lines = [f"  pool: {pool}", f" state: {state}", *status.splitlines(), "config:", "",
             f"\t{'NAME':<{width}}  {'STATE':<8} {'READ':>5} {'WRITE':>5} {'CKSUM':>5}", *_rows(root, 0, width)]
    for cls in ("dedup", "special", "logs"):
        if classes.get(cls):
            lines.append(f"\t{cls}\t")
            lines += [row for v in classes[cls] for row in _rows(v, 2, width)]
    if classes.get("cache"):
        lines.append("\tcache")
        lines += [row for v in classes["cache"] for row in _rows(v, 2, width)]
    if spares:
        lines.append("\tspares")
        lines += [row for v in spares for row in _rows(v, 2, width, spare=True)]
    return "\n".join([*lines, "", "errors: No known data errors"]) + "\n"


ZPOOL_21_J = ("zpool: invalid option -- 'j'\ninvalid option 'j'\nusage:\n"
              "\tstatus [--power] [-c [script1,script2,...]] [-igLpPstvxD]  [-T d|u] [pool] ... \n"
              "\t    [interval [count]]\n")


# -- zpool status -j ---------------------------------------------------------------------------------------


def _guid(name: str) -> str:
    """A vdev's guid, made up from its name (stable across runs of this script)."""
    return str(int(hashlib.sha256(name.encode()).hexdigest()[:15], 16))


def _json_vdev(v: Vdev, cls: str, spare: bool = False) -> dict:
    out: dict = {"name": v.name, "vdev_type": v.vdev_type, "guid": _guid(v.name)}
    if not v.children:
        out["path"] = v.name
    out["class"] = cls
    out["state"] = v.state
    if not spare:
        if not v.children:
            out.update({"rep_dev_size": "931G", "phys_space": "932G"})
        out.update({"read_errors": str(v.errors[0]), "write_errors": str(v.errors[1]),
                    "checksum_errors": str(v.errors[2])})
        if not v.children:
            out["slow_ios"] = "0"
    if v.children:
        out["vdevs"] = {c.name: _json_vdev(c, cls) for c in v.children}
    return out


def zpool_json(pool: str, state: str, data: Sequence[Vdev], classes: Mapping[str, Sequence[Vdev]],
               spares: Sequence[Vdev]) -> str:
    root = {"name": pool, "vdev_type": "root", "guid": _guid(pool + "-root"), "class": "normal", "state": state,
            "alloc_space": "1.21T", "total_space": "3.62T", "def_space": "3.62T", "read_errors": "0",
            "write_errors": "0", "checksum_errors": "0", "vdevs": {v.name: _json_vdev(v, "normal") for v in data}}
    item: dict = {"name": pool, "state": state, "pool_guid": _guid(pool), "txg": "2318841", "spa_version": "5000",
                  "zpl_version": "5", "status": "OK" if state == "ONLINE" else "FAULTED_DEV_R",
                  "vdevs": {pool: root}}
    for cls, key in (("dedup", "dedup"), ("special", "special"), ("logs", "log")):
        if classes.get(cls):
            item[cls] = {v.name: _json_vdev(v, key) for v in classes[cls]}
    if classes.get("cache"):
        item["l2cache"] = {v.name: _json_vdev(v, "l2cache") for v in classes["cache"]}
    if spares:
        item["spares"] = {v.name: _json_vdev(v, "spare", spare=True) for v in spares}
    item["error_count"] = "0"
    doc = {"output_version": {"command": "zpool status", "vers_major": 0, "vers_minor": 1}, "pools": {pool: item}}
    return json.dumps(doc, indent=4) + "\n"


def leaf(d: Drive, **kw: object) -> Vdev:
    return Vdev(f"/dev/{d.dev}p1" if d.nvme else f"/dev/{d.dev}1", **kw)  # type: ignore[arg-type]


def machine(name: str, drives: Sequence[Drive]) -> Path:
    folder = ROOT / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    smartctl(folder, drives)
    lsblk(folder, drives)
    return folder


def zfs_mirror() -> None:
    a = Drive("sda", "S3Z9NB0K100001A", EVO, 0x0000861001, 26_280, 38, written_tb=228.0)
    b = Drive("sdb", "S3Z9NB0K100002A", EVO, 0x0000861002, 26_190, 38, written_tb=226.0)
    folder = machine("zfs-mirror", [a, b])
    mirror = Vdev("mirror-0", children=[leaf(a), leaf(b)], vdev_type="mirror")
    write(ZPOOL_JSON, zpool_json("tank", "ONLINE", [mirror], {}, []), folder=folder, program="zpool")
    readme(folder, "zfs-mirror", "ZFS 2.3 (`zpool status -j`): pool tank, one mirror of two Samsung 860 EVO 1TB "
           "bought together (same firmware RVT04B6Q, 26,280 and 26,190 power-on hours, 38 % used each): the two "
           "wear out in lockstep; `plan --stagger tank` schedules one replacement.", [a, b])


def zfs_raidz() -> None:
    z1 = [Drive("sda", "S3Z9NB0K200001B", EVO, 0x0000862001, 17_520, 12, written_tb=70.0),
          Drive("sdb", "S3Z9NB0K200002B", EVO, 0x0000862002, 9_800, 6, firmware="RVT03B6Q", written_tb=36.0),
          Drive("sdc", "S3Z9NB0K200003B", EVO, 0x0000862003, 0, 0, read=False)]
    z2 = [Drive(f"sd{x}", f"S3Z9NB0K3000{i:02d}C", EVO, 0x0000863000 + i, 40_300 + 20 * i, 93 + i % 3,
                written_tb=560.0 + i) for i, x in enumerate("defgh", start=1)]
    spare = Drive("sdi", "S3Z9NB0K400001D", EVO, 0x0000864001, 1_200, 0, written_tb=1.0)
    folder = machine("zfs-raidz", [*z1, *z2, spare])
    raidz1 = Vdev("raidz1-0", "DEGRADED", [leaf(z1[0]), leaf(z1[1]), Vdev("/dev/sdc1", "UNAVAIL", aux="cannot open")],
                  "raidz")
    faulted = Vdev("spare-3", "DEGRADED", [leaf(z2[3], state="FAULTED", errors=(3, 104, 0), aux="too many errors"),
                                           leaf(spare)], "spare")
    raidz2 = Vdev("raidz2-1", "DEGRADED", [leaf(z2[0]), leaf(z2[1]), leaf(z2[2]), faulted, leaf(z2[4])], "raidz")
    status = ("status: One or more devices could not be opened.  Sufficient replicas exist for\n"
              "\tthe pool to continue functioning in a degraded state.\n"
              "action: Attach the missing device and online it using 'zpool online'.\n"
              "   see: https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-2Q\n"
              "  scan: resilvered 812G in 05:12:41 with 0 errors on Sun Nov 29 03:12:41 2026")
    text = zpool_text("backup", "DEGRADED", status, [raidz1, raidz2], {},
                      [Vdev("/dev/sdi1", "INUSE", aux="currently in use")])
    write(ZPOOL_JSON, "", rc=2, folder=folder, program="zpool", err=ZPOOL_21_J)
    write(ZPOOL_TEXT, text, folder=folder, program="zpool")
    readme(folder, "zfs-raidz", "ZFS 2.1 (`-j` refused, exit 2; the text read instead): pool backup, raidz1-0 "
           "(/dev/sdc1 UNAVAIL and unreadable: it tolerates no more failures) and raidz2-1 (five disks at 93-95 % "
           "used; sdg1 FAULTED, the hot spare sdi1 standing in): `plan --stagger backup/raidz2-1` finds no "
           "schedule (exit 1).", [*z1, *z2, spare])


def zfs_draid() -> None:
    data = [Drive(f"sd{x}", f"S3Z9NB0K5000{i:02d}E", EVO, 0x0000865000 + i, 8_760 + 500 * i, 4 + i,
                  written_tb=20.0 + 5 * i) for i, x in enumerate("abcdefg", start=1)]
    special = [Drive(f"nvme{i}n1", f"S4EUNX0M60000{i}F", PM, 0x0000866000 + i, 8_760, 9, firmware="EXA7301Q",
                     written_tb=14.0) for i in (0, 1)]
    logs = [Drive(f"nvme{i}n1", f"S4EUNX0M70000{i}G", PM, 0x0000867000 + i, 8_700, 41 + i, firmware="EXA7301Q",
                  written_tb=61.0) for i in (2, 3)]
    cache = Drive("nvme4n1", "S4EUNX0M800004H", PM, 0x0000868004, 8_700, 22, firmware="EXA7301Q", written_tb=33.0)
    folder = machine("zfs-draid", [*data, *special, *logs, cache])
    draid = Vdev("draid2:4d:7c:1s-0", children=[leaf(d) for d in data], vdev_type="draid")
    classes = {"special": [Vdev("mirror-1", children=[leaf(d) for d in special], vdev_type="mirror")],
               "logs": [Vdev("mirror-2", children=[leaf(d) for d in logs], vdev_type="mirror")],
               "cache": [leaf(cache)]}
    spares = [Vdev("draid2-0-0", "AVAIL", vdev_type="dspare")]
    write(ZPOOL_JSON, zpool_json("data", "ONLINE", [draid], classes, spares), folder=folder, program="zpool")
    readme(folder, "zfs-draid", "ZFS 2.3 (`zpool status -j`): pool data, a dRAID vdev draid2:4d:7c:1s-0 over seven "
           "SATA SSDs, a special mirror-1 and a log mirror-2 of NVMe drives, an NVMe cache and the dRAID's "
           "distributed spare draid2-0-0 (no drive).", [*data, *special, *logs, cache])


def readme(folder: Path, name: str, what: str, drives: Sequence[Drive]) -> None:
    rows = "\n".join(f"| `/dev/{d.dev}` | `{d.serial}` | {d.model} | {d.firmware} | {d.poh:,} | {d.used} % | "
                     f"{'yes' if d.read else 'no (gone)'} |" for d in drives)
    (folder / "README.md").write_text(f"""# fixtures/pools/{name}: HAND-WRITTEN, not recorded

{what}

Written by `python3 -m tools.make_pools` (tools/make_pools.py; do not edit by hand: it rewrites this folder).
Nothing here was recorded: `zpool status` is written in zpool's exact layout as OpenZFS's source prints it, and the
drives in smartctl 7.3's layout, as that script's docstring says and cites (like fixtures/intel, which no emulator
could make either). The files are named after the calls they replace: `zpool status -j -P -L`, `zpool status -P -L`,
`lsblk -J -s -o ...`, `smartctl --scan-open --json=c`, `smartctl --json=c -x -n standby -d TYPE DEVICE` (`.out`,
`.rc`, `.err`).

| device | serial | model | firmware | power-on hours | used | readable |
| --- | --- | --- | --- | ---: | ---: | --- |
{rows}
""")


def main() -> None:
    zfs_mirror()
    zfs_raidz()
    zfs_draid()
    for name in ("zfs-mirror", "zfs-raidz", "zfs-draid"):
        print(f"wrote {len(list((ROOT / name).iterdir()))} files to {ROOT / name}")


if __name__ == "__main__":
    main()
