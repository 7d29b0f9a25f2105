"""Redundancy groups: the ZFS vdevs, md arrays, LVM raid LVs and btrfs filesystems the drives belong to.

Two kinds of records. What the storage tools said (smartctl/pools/ parses it; no drive is known there yet):
FoundGroup with its FoundMembers, and the block devices lsblk lists (BlockDevice), gathered in a Discovery. What
ssdwear concludes about each group once its members are resolved to drives (assess/groups.py): Group with its
GroupMembers, each carrying the member's DriveReport.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from .records import DriveReport, Projection

GroupKind = Literal["zfs", "md", "lvm", "btrfs"]
# How a member was matched to a drive smartctl read: the WWN or serial lsblk gives the disk below it, or (no udev
# to give lsblk either) the disk's device node, which smartctl names too; a by-id link's name (wwn-0x...,
# ata-MODEL_SERIAL).
MatchedBy = Literal["wwn", "serial", "device", "by-id"]


@dataclass(frozen=True)
class FoundMember:
    """One member of a group as its tool names it: the devices it is made of (one, except an LVM raid image spread
    over several physical volumes) and the tool's word for its state."""

    devices: tuple[str, ...]  # /dev/sda1, /dev/dm-0, /dev/mapper/crypta, /dev/disk/by-id/wwn-0x...
    state: str | None = None  # ONLINE, FAULTED (zpool), active (md), ...
    working: bool = True  # False: failed, missing, offline: it holds no copy now

    @property
    def name(self) -> str:
        return ",".join(self.devices)


@dataclass(frozen=True)
class FoundGroup:
    """A redundancy group as its tool describes it."""

    kind: GroupKind
    name: str  # 'tank' (a pool of one group), 'tank/mirror-1', 'md0', 'vg0/data', a btrfs label or mount point
    level: str  # mirror, raidz2, draid2, disk (zfs); raid1, raid5, raid10 (md, lvm); raid1, raid1c3 (btrfs); unknown
    tolerates: int | None  # member failures it survives as built (None: not known, e.g. an unmounted btrfs)
    members: tuple[FoundMember, ...]
    role: str = "data"  # zfs: data, special, dedup or log (the vdev's allocation class)
    state: str | None = None  # the tool's word for the whole group: ONLINE, DEGRADED, clean, ...
    uuid: str | None = None  # md's UUID, the LV's uuid, btrfs's uuid, the pool's guid (zpool -j)
    missing: int = 0  # positions without a member at all (md: raid devices less the members listed)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BlockDevice:
    """One block device as `lsblk -J -s` lists it, and the devices it is built on (its children in that tree)."""

    kname: str  # the kernel's name: sda, sda1, dm-0, md0, nvme0n1
    name: str  # lsblk's NAME: the same, or a device-mapper name (crypta, vg0-data)
    path: str | None  # /dev/sda1, /dev/mapper/crypta
    type: str  # disk, part, crypt, lvm, raid1, ...
    serial: str | None = None
    wwn: str | None = None  # as lsblk prints it: 0x5002538e40a1b2c3, eui.00253858..., nvme's naa/eui
    model: str | None = None
    mountpoint: str | None = None
    below: tuple[str, ...] = ()  # knames of what it is built on (a partition: its disk)


@dataclass(frozen=True)
class Discovery:
    """What the storage tools told of this machine: the groups, the block devices (None when lsblk could not be
    run: members are then matched by their device names alone), and what could not be learnt."""

    groups: tuple[FoundGroup, ...] = ()
    devices: tuple[BlockDevice, ...] | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class GroupMember:
    """A member resolved to the drive under it (report None where it was not: `note` says why)."""

    member: str  # as the group's tool names it
    state: str | None
    working: bool
    report: DriveReport | None = field(default=None, compare=False)
    matched_by: MatchedBy | None = None
    wears_out_high_at: datetime | None = None  # the optimistic end of its wear-out interval (None: unbounded)
    note: str | None = None

    @property
    def projection(self) -> Projection | None:
        return None if self.report is None else self.report.projection

    @property
    def projected(self) -> bool:
        """It has a pessimistic figure: a missing date then means 'not within 5,000 years' or 'no end in sight'."""
        p = self.projection
        return p is not None and p.years_remaining_low is not None


@dataclass(frozen=True)
class Group:
    """A redundancy group with its members' drives and what follows from their wear-out dates."""

    kind: GroupKind
    name: str
    level: str
    role: str
    tolerates: int | None  # failures it survives now: as built, less the members missing or failed
    members: tuple[GroupMember, ...]
    state: str | None = None
    uuid: str | None = None
    missing: int = 0  # members missing or not working
    redundancy_lost_at: datetime | None = None  # the (tolerates+1)-th working member's central wear-out date
    redundancy_lost_low_at: datetime | None = None  # ... its pessimistic one
    lockstep: bool = False  # every condition of lockstep_reasons holds
    lockstep_reasons: tuple[str, ...] = ()  # the lockstep conditions that hold
    notes: tuple[str, ...] = ()
    failed: bool = False  # more members missing or failed than it survives as built: no wear-out date matters now

    @property
    def key(self) -> str:
        """Stable across runs (for alert state): the kind and the group's uuid, else its name."""
        return f"{self.kind}:{self.uuid or self.name}"
