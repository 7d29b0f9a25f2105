"""btrfs: its filesystems and their devices (`btrfs filesystem show --raw`), and a mounted one's profiles
(`btrfs filesystem df --raw MOUNTPOINT`: which profile, and so which redundancy, its data and metadata have).

What is read (btrfs-progs 6.2, recorded in fixtures/pools/btrfs-raid1): per filesystem a `Label: 'NAME'  uuid: UUID`
line (`Label: none` unlabelled), `Total devices N ...`, one `devid ID size BYTES used BYTES path DEVICE` line per
device present (newer releases mark an absent one `MISSING`) and `*** Some devices missing` when some are not; df
prints `Data, RAID1: total=..., used=...`, likewise Metadata and System. The profile lives in the mounted filesystem
only: an unmounted one's level is unknown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ssdwear.model.counts import count_text
from ssdwear.model.escape import visible
from ssdwear.model.groups import FoundGroup, FoundMember

SHOW_ARGS = ("filesystem", "show", "--raw")


def df_args(mountpoint: str) -> tuple[str, ...]:
    return ("filesystem", "df", "--raw", mountpoint)


# Device failures a profile survives (btrfs-progs' and the kernel's table of raid attributes: DUP keeps two copies
# on one device).
TOLERATES = {"single": 0, "dup": 0, "raid0": 0, "raid1": 1, "raid10": 1, "raid5": 1, "raid1c3": 2, "raid6": 2,
             "raid1c4": 3}


@dataclass(frozen=True)
class Filesystem:
    label: str | None
    uuid: str
    devices: tuple[tuple[str, bool], ...]  # (path, present)
    total: int
    some_missing: bool


def parse_show(text: str) -> list[Filesystem]:
    out: list[Filesystem] = []
    for block in re.split(r"^(?=Label: )", text, flags=re.M):
        head = re.match(r"Label: (?:'(.*)'|none)\s+uuid: (\S+)", block)
        if head is None:
            continue
        total = re.search(r"^\s+Total devices (\d+)", block, re.M)
        devices = tuple((visible(m.group(1)), not m.group(2)) for m in
                        re.finditer(r"^\s+devid\s+\d+ size \S+ used \S+ path (.+?)(\s+MISSING)?$", block, re.M))
        out.append(Filesystem(visible(head.group(1)) if head.group(1) else None, head.group(2), devices,
                              int(total.group(1)) if total else len(devices), "Some devices missing" in block))
    return out


def parse_df(text: str) -> dict[str, str]:
    """{'Data': 'raid1', 'Metadata': 'raid1', 'System': 'raid1'} (GlobalReserve is no profile)."""
    found = {}
    for line in text.splitlines():
        if m := re.match(r"(Data|Metadata|System|Data\+Metadata), (\w+):", line):
            found[m.group(1)] = m.group(2).lower()
    return found


def group_of(fs: Filesystem, profiles: Mapping[str, str] | None, mountpoint: str | None) -> FoundGroup:
    """The filesystem as a group: the data profile's level; it survives as many failures as its least redundant
    profile does (a metadata profile below the data's loses the filesystem first)."""
    members = tuple(FoundMember((path,), "present" if present else "missing", present) for path, present in fs.devices)
    missing = max(fs.total - len(fs.devices), 0)
    name = fs.label or mountpoint or fs.uuid
    if not profiles:
        why = "not mounted" if mountpoint is None else f"btrfs filesystem df {mountpoint} gave no profiles"
        return FoundGroup("btrfs", visible(name), "unknown", None, members, uuid=fs.uuid, missing=missing,
                          notes=(f"{why}: its profile (and so its redundancy) is read from the mounted filesystem",))
    known = {kind: TOLERATES.get(profile) for kind, profile in profiles.items()}
    tolerates = min((t for t in known.values() if t is not None), default=None)
    level = profiles.get("Data") or profiles.get("Data+Metadata") or next(iter(profiles.values()))
    notes: tuple[str, ...] = ()
    if len(set(profiles.values())) > 1:
        survives = "an unknown number of device failures" if tolerates is None else \
            count_text(tolerates, "device failure")
        notes = ("profiles differ: " + ", ".join(f"{k.lower()} {v}" for k, v in profiles.items())
                 + f"; it survives {survives}, its least redundant profile's",)
    return FoundGroup("btrfs", visible(name), level, tolerates, members,
                      state="degraded" if fs.some_missing or missing else "ok", uuid=fs.uuid, missing=missing,
                      notes=notes)
