"""Ask each storage tool found on this machine (or recorded) about its redundancy groups, through one Runner per
tool, in the order the answers depend on: lsblk first (what each device is built on; btrfs's mount points), then
zpool, mdadm, lvm and btrfs. Read-only calls only. A tool that fails, times out or prints what cannot be read
becomes a note, never an error: the drives' report stands without it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ssdwear.model.errors import ParseError, SsdwearError
from ssdwear.model.escape import has_control, visible
from ssdwear.model.groups import BlockDevice, Discovery, FoundGroup

from ..runner import CallResult, Runner
from . import btrfs, lsblk, lvm, mdadm, zpool

# The programs, as they are looked up and as their recordings are named (`zpool status -j -P -L.out`).
PROGRAMS = ("lsblk", "zpool", "mdadm", "lvm", "btrfs")


class _Asker:
    """Calls through the runners, each failure kept as a note."""

    def __init__(self, tools: Mapping[str, Runner]) -> None:
        self.tools = tools
        self.notes: list[str] = []

    def ask(self, program: str, args: Sequence[str], quiet: bool = False) -> CallResult | None:
        """The call's result when it exited 0; else None, and (unless `quiet`) a note saying why."""
        runner = self.tools.get(program)
        if runner is None:
            return None
        said = f"{program} {' '.join(args)}"
        try:
            result = runner.run(list(args))
        except SsdwearError as exc:
            self.notes.append(f"{said}: {exc}")
            return None
        if result.status != 0:
            if not quiet:
                err = (result.stderr or result.stdout).decode("utf-8", "replace").strip().splitlines()
                self.notes.append(f"{said} exited with status {result.status}" +
                                  (f": {visible(err[0])[:200]}" if err else ""))
            return None
        return result

    def parsed(self, program: str, read: Callable[[str], list[FoundGroup]], result: CallResult | None
               ) -> list[FoundGroup]:
        if result is None:
            return []
        try:
            return read(result.stdout.decode("utf-8", "replace"))
        except ParseError as exc:
            self.notes.append(f"{program}: {exc}")
            return []


def discover(tools: Mapping[str, Runner]) -> Discovery:
    """The groups the tools in `tools` (program -> its Runner, for those found) describe, and the block devices."""
    asker = _Asker(tools)
    devices = _block_devices(asker)
    groups = [*_zfs(asker), *_md(asker), *_lvm(asker), *_btrfs(asker, devices or ())]
    return Discovery(tuple(groups), devices, tuple(asker.notes))


def _block_devices(asker: _Asker) -> tuple[BlockDevice, ...] | None:
    result = asker.ask("lsblk", lsblk.ARGS, quiet=True)
    if result is None and "lsblk" in asker.tools:
        result = asker.ask("lsblk", lsblk.ARGS_NO_PATH)  # lsblk before 2.33 has no PATH column
    if result is None:
        return None
    try:
        return lsblk.parse(result.stdout.decode("utf-8", "replace"))
    except ParseError as exc:
        asker.notes.append(f"lsblk: {exc}")
        return None


def _zfs(asker: _Asker) -> list[FoundGroup]:
    result = asker.ask("zpool", zpool.JSON_ARGS, quiet=True)  # refused before ZFS 2.3 ("invalid option 'j'")
    if result is not None:
        return asker.parsed("zpool", zpool.parse_json, result)
    return asker.parsed("zpool", zpool.parse_text, asker.ask("zpool", zpool.TEXT_ARGS))


def _md(asker: _Asker) -> list[FoundGroup]:
    scan = asker.ask("mdadm", mdadm.SCAN_ARGS)
    if scan is None:
        return []
    arrays, notes = mdadm.parse_scan(scan.stdout.decode("utf-8", "replace"))
    asker.notes.extend(notes)
    out = []
    for device in arrays:
        if not device.startswith("/dev/") or has_control(device):
            asker.notes.append(f"mdadm --detail --scan listed {visible(device)!r}: not a /dev path, not asked")
            continue
        result = asker.ask("mdadm", mdadm.detail_args(device))
        if result is None:
            continue
        try:
            group = mdadm.parse_detail(result.stdout.decode("utf-8", "replace"), device)
        except ParseError as exc:
            asker.notes.append(f"mdadm: {exc}")
            continue
        if group is not None:
            out.append(group)
    return out


def _lvm(asker: _Asker) -> list[FoundGroup]:
    result = asker.ask("lvm", lvm.JSON_ARGS, quiet=True)  # --reportformat json: LVM 2.02.158 and later
    if result is not None:
        return asker.parsed("lvm", lvm.parse_json, result)
    return asker.parsed("lvm", lvm.parse_text, asker.ask("lvm", lvm.TEXT_ARGS))


def _btrfs(asker: _Asker, devices: Sequence[BlockDevice]) -> list[FoundGroup]:
    show = asker.ask("btrfs", btrfs.SHOW_ARGS)
    if show is None:
        return []
    mounted = {d.path: d.mountpoint for d in devices if d.mountpoint and d.path}
    out = []
    for fs in btrfs.parse_show(show.stdout.decode("utf-8", "replace")):
        mountpoint = next((mounted[path] for path, _ in fs.devices if path in mounted), None)
        profiles = None
        if mountpoint is not None and mountpoint.startswith("/") and not has_control(mountpoint):
            df = asker.ask("btrfs", btrfs.df_args(mountpoint))
            profiles = btrfs.parse_df(df.stdout.decode("utf-8", "replace")) if df is not None else None
        out.append(btrfs.group_of(fs, profiles, mountpoint))
    return out
