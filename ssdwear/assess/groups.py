"""Redundancy groups, concluded: each member followed down to the drive under it, and what the drives' wear-out
dates mean for the group. Pure: the tools' answers (a Discovery), the drives' reports and `now` in; Groups out.

- **Members to drives.** A member is a partition, a LUKS (dm-crypt) device, a physical volume, a whole disk or a
  by-id link: lsblk's tree (`-s`) leads from it down to the disk(s) it is built on, and a disk is the drive smartctl
  read that has its WWN, else its serial, else (where lsblk knows neither: no udev) its device node (an NVMe
  namespace's controller: /dev/nvme0n1 -> /dev/nvme0). Without lsblk the member's own name is matched, its partition
  number taken off. A member over several drives (an LVM image spread over two physical volumes) is not judged.
- **Tolerates**: the failures it survives now: as built, less its members missing or failed.
- **Redundancy lost**: the date the (k+1)-th working member reaches its wear-out date, k being what it tolerates:
  from then on, unless members are replaced, more have worn out than it survives. Central and pessimistic (each
  member's own central and pessimistic dates); none where a member has no projected date.
- **Lockstep**: drives bought together and written together wear out together: the members share model and
  firmware, their power-on hours lie within 10 % and their wear-out intervals (pessimistic to optimistic) overlap.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone

from ssdwear.model.counts import count_text
from ssdwear.model.groups import BlockDevice, Discovery, FoundGroup, Group, GroupMember, MatchedBy
from ssdwear.model.records import DriveReport
from ssdwear.model.units import month_text
from ssdwear.wear.calendar import on_calendar

POWER_ON_SPREAD = 0.10  # power-on hours "within 10 %": (max - min) <= 10 % of max

_PARTITION = (re.compile(r"^(/dev/(?:nvme\d+n\d+|mmcblk\d+|nbd\d+))p\d+$"),  # nvme0n1p1, mmcblk0p2
              re.compile(r"^(/dev/(?:[hsv]|xv)d[a-z]+)\d+$"),  # sda1, vdb2, xvda1
              re.compile(r"^(/dev/(?:ada|da|nvd|nda)\d+)(?:p\d+|s\d+[a-h]?)$"))  # FreeBSD: ada0p1, da0s1a
_NAMESPACE = re.compile(r"^(/dev/nvme\d+)n\d+$")


def assess_groups(found: Discovery, reports: Sequence[DriveReport], now: datetime) -> tuple[Group, ...]:
    """Every group the tools described, its members resolved to the drives in `reports`."""
    readable = [r for r in reports if not r.error]
    return tuple(conclude(g, [member(m.devices, m.state, m.working, found.devices, readable, now) for m in g.members])
                 for g in found.groups)


# -- members -> drives --------------------------------------------------------------------------------------


def _hex(wwn: str | None) -> str | None:
    """A WWN as bare lower-case hex ('0x5002538E...', 'naa.5002...', '5 002538 e4...' -> '5002538e...')."""
    if not wwn:
        return None
    text = re.sub(r"^(0x|naa\.|eui\.|wwn-0x)", "", wwn.strip().lower())
    text = re.sub(r"[\s:-]", "", text)
    return text if re.fullmatch(r"[0-9a-f]{8,32}", text) else None


def _node(devices: Sequence[BlockDevice], name: str) -> BlockDevice | None:
    base = name.rsplit("/", 1)[-1]
    return next((d for d in devices if name in (d.path, f"/dev/{d.kname}", f"/dev/mapper/{d.name}")), None) or \
        next((d for d in devices if base == d.kname), None)


def _disks(devices: Sequence[BlockDevice], node: BlockDevice, depth: int = 0) -> list[BlockDevice]:
    """The leaves under a device in lsblk's tree: the disks it is built on."""
    if not node.below or depth > 16:
        return [node]
    by_kname = {d.kname: d for d in devices}
    return [disk for k in node.below if k in by_kname for disk in _disks(devices, by_kname[k], depth + 1)]


def _by_disk(disk: BlockDevice, reports: Sequence[DriveReport]) -> tuple[DriveReport, MatchedBy] | None:
    wwn = _hex(disk.wwn)
    for r in reports:
        if wwn is not None and _hex(r.wwn) == wwn:
            return r, "wwn"
    for r in reports:
        if disk.serial and r.serial and r.serial.strip() == disk.serial:
            return r, "serial"
    path = disk.path or f"/dev/{disk.kname}"
    for r in reports:
        if r.device in (path, _controller(path)) and not (disk.serial and r.serial and disk.serial != r.serial):
            return r, "device"
    return None


def _controller(path: str) -> str:
    """An NVMe namespace's controller, which smartctl names the drive by (/dev/nvme0n1 -> /dev/nvme0)."""
    m = _NAMESPACE.match(path)
    return m.group(1) if m else path


def _whole_disk(path: str) -> str:
    for pattern in _PARTITION:
        if m := pattern.match(path):
            return m.group(1)
    return path


def _by_id(name: str, reports: Sequence[DriveReport]) -> DriveReport | None:
    """A /dev/disk/by-id link's drive, from the link's name: wwn-0xHEX, or BUS-MODEL_SERIAL (ata-, nvme-, scsi-)."""
    link = re.sub(r"-part\d+$", "", name.rsplit("/", 1)[-1])
    if link.startswith("wwn-"):
        wwn = _hex(link)
        return next((r for r in reports if wwn and _hex(r.wwn) == wwn), None)
    return next((r for r in reports if r.serial and link.endswith("_" + r.serial.strip().replace(" ", "_"))), None)


def _drives(name: str, devices: Sequence[BlockDevice] | None, reports: Sequence[DriveReport]
            ) -> list[tuple[DriveReport, MatchedBy]] | None:
    """The drives under one device a member is made of; None where it is not known (not in lsblk, no drive)."""
    if name.startswith("/dev/disk/by-id/"):
        found = _by_id(name, reports)
        if found is not None:
            return [(found, "by-id")]
    node = _node(devices, name) if devices is not None else None
    if node is not None:
        matched = [_by_disk(disk, reports) for disk in _disks(devices or (), node)]
        return None if None in matched else [m for m in matched if m is not None]
    whole = _whole_disk(name)
    direct = next((r for r in reports if r.device in (whole, _controller(whole))), None)
    return None if direct is None else [(direct, "device")]


def member(names: Sequence[str], state: str | None, working: bool, devices: Sequence[BlockDevice] | None,
           reports: Sequence[DriveReport], now: datetime) -> GroupMember:
    """One member and the drive under it, or why there is none."""
    shown = ",".join(names)
    found: dict[str, tuple[DriveReport, MatchedBy]] = {}
    for name in names:
        drives = _drives(name, devices, reports)
        if drives is None:
            return GroupMember(shown, state, working, note=f"{shown}: no drive that smartctl read was found under it")
        for r, how in drives:
            found.setdefault(r.where, (r, how))
    if len(found) != 1:
        return GroupMember(shown, state, working, note=f"{shown} lies on {len(found)} drives "
                           f"({', '.join(found)}): not judged as one member")
    ((report, how),) = found.values()
    p = report.projection
    high = None if p is None or p.duty_cycle is None else on_calendar(now, p.years_remaining_high, p.duty_cycle)
    return GroupMember(shown, state, working, report, how, high)


# -- conclusions --------------------------------------------------------------------------------------------

_NEVER = datetime.max.replace(tzinfo=timezone.utc)  # 'not within the calendar': no end, or > 5,000 years


def _ends(members: Iterable[GroupMember], pessimistic: bool) -> list[datetime | None]:
    """Each member's wear-out date; _NEVER where its projection has none within the calendar; None for one without
    a projection."""
    out: list[datetime | None] = []
    for m in members:
        p = m.projection
        at = None if p is None else (p.wears_out_low_at if pessimistic else p.wears_out_at)
        out.append(at if at is not None else _NEVER if m.projected else None)
    return out


def _kth(ends: Sequence[datetime | None], k: int) -> datetime | None:
    """The (k+1)-th earliest date; None when a date is unknown, there are not that many, or it is _NEVER."""
    known = sorted(e for e in ends if e is not None)
    if len(known) < len(ends) or k >= len(known) or known[k] == _NEVER:
        return None
    return known[k]


def conclude(found: FoundGroup, members: Sequence[GroupMember]) -> Group:
    working = [m for m in members if m.working]
    missing = found.missing + len(members) - len(working)
    tolerates = None if found.tolerates is None else found.tolerates - missing
    notes = list(found.notes) + [m.note for m in members if m.note]
    lost = lost_low = None
    if tolerates is not None and tolerates < 0:
        notes.append(f"{count_text(missing, 'member')} missing or failed: more than the {found.tolerates} it survives")
    elif tolerates is not None:
        unknown = [m.member for m in working if not m.projected]
        if unknown:
            notes.append(f"no redundancy-lost date: no projected wear-out date for {', '.join(unknown)}")
        lost = _kth(_ends(working, False), tolerates)
        lost_low = _kth(_ends(working, True), tolerates)
    reasons = lockstep_reasons(working)
    return Group(found.kind, found.name, found.level, found.role, None if tolerates is None else max(tolerates, 0),
                 tuple(members), found.state, found.uuid, missing, lost, lost_low,
                 lockstep=len(reasons) == 4, lockstep_reasons=tuple(reasons), notes=tuple(notes),
                 failed=tolerates is not None and tolerates < 0)


def lockstep_reasons(members: Sequence[GroupMember]) -> list[str]:
    """The conditions of lockstep that hold for these members (two or more, each on a drive)."""
    reports = [m.report for m in members if m.report is not None]
    if len(reports) < 2 or len(reports) != len(members):
        return []
    out = []
    for what, values in (("model", [r.model for r in reports]), ("firmware", [r.firmware for r in reports])):
        if values[0] and all(v == values[0] for v in values):
            out.append(f"same {what} ({values[0]})")
    hours = [r.power_on_hours for r in reports]
    if all(h is not None for h in hours):
        low, high = min(h for h in hours if h is not None), max(h for h in hours if h is not None)
        if high - low <= POWER_ON_SPREAD * high:
            out.append(f"power-on hours within 10 % ({low:,.0f} to {high:,.0f} h)")
    lows, highs = _ends(members, True), [m.wears_out_high_at or _NEVER for m in members]
    if all(x is not None for x in lows) and all(m.projected for m in members):
        start, end = max(x for x in lows if x is not None), min(highs)
        if start <= end and start != _NEVER:
            shown = "no end" if end == _NEVER else month_text(end)
            out.append(f"wear-out intervals overlap ({month_text(start)} to {shown})")
    return out

