"""Byte counters: what a drive's write counters say in bytes, read as its family's row (families.py) names them, and
whether a count can be true at all (a counter faster than the drive's link is dropped with a warning)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ssdwear.model.family import Counter
from ssdwear.model.records import DEVSTAT_LOGICAL_SECTORS_READ, DEVSTAT_LOGICAL_SECTORS_WRITTEN, Attribute, Snapshot

from . import families
from .indicators import RATED_ERASE_RANGE, used_readings

MiB = 1 << 20
GiB = 1 << 30


@dataclass(frozen=True)
class ByteCount:
    bytes: int
    source: str  # e.g. 'attribute 241 Host_Writes_32MiB x 32 MiB'


_UNIT_SUFFIXES: tuple[tuple[re.Pattern[str], int, str], ...] = (
    (re.compile(r"_32MiB$", re.I), 32 * MiB, "32 MiB"),
    (re.compile(r"_1GiB$|GiB$|_GiB_", re.I), GiB, "1 GiB"),
    (re.compile(r"_GB$|_GB_", re.I), 1_000_000_000, "1 GB"),
)


def _by_name_unit(attr: Attribute) -> tuple[int, str] | None:
    for pattern, unit, label in _UNIT_SUFFIXES:
        if pattern.search(attr.name):
            return unit, label
    return None


def _sector_bytes(snap: Snapshot) -> int:
    return snap.logical_sector_size or 512


def _counter_bytes(snap: Snapshot, counter: Counter) -> ByteCount | None:
    """What this counter says (with the attributes it adds, `plus`, where the drive has them), or None when the
    attribute is absent or its unit cannot be known."""
    count = _one_counter_bytes(snap, counter)
    for extra in (_one_counter_bytes(snap, replace(counter, id=i)) for i in counter.plus):
        if count is not None and extra is not None:
            count = ByteCount(count.bytes + extra.bytes, f"{count.source} + {extra.source}")
    return count


def _one_counter_bytes(snap: Snapshot, counter: Counter) -> ByteCount | None:
    attr = snap.attr(counter.id)
    if attr is None or attr.raw is None:
        return None
    if counter.unit is not None:
        return ByteCount(attr.raw * counter.unit, f"attribute {attr.id} {attr.name} x {counter.unit_label}")
    if counter.name_must_match and not re.search(counter.name_must_match, attr.name, re.I):
        return None
    unit = _by_name_unit(attr)
    if unit is not None:
        return ByteCount(attr.raw * unit[0], f"attribute {attr.id} {attr.name} x {unit[1]}")
    if counter.name_must_match:
        return None
    size = _sector_bytes(snap)
    if attr.name in counter.lba_names:
        return ByteCount(attr.raw * size, f"attribute {attr.id} {attr.name} x {size} B")
    if counter.sectors_as:
        return ByteCount(attr.raw * size, f"attribute {attr.id} ({counter.sectors_as}) x {size} B")
    return None


def _first_of(snap: Snapshot, counters: Sequence[Counter]) -> tuple[Counter, ByteCount] | None:
    return next(((counter, c) for counter in counters if (c := _counter_bytes(snap, counter)) is not None), None)


def _devstat_bytes(snap: Snapshot, key: tuple[int, int], label: str) -> ByteCount | None:
    sectors = snap.devstat(key)
    if sectors is None:
        return None
    size = _sector_bytes(snap)
    return ByteCount(sectors * size, f"Device Statistics '{label}' x {size} B")


# The most bytes a drive can have moved, by interface: its link's top speed (SATA 6 Gb/s = 600 MB/s; SAS-4
# 24 Gb/s on two ports; NVMe up to PCIe 6.0 x8), twice over for clock slack, across its whole power-on time.
# Without a power-on time: a million full drive writes, beyond what any flash survives.
LINK_BYTES_PER_SECOND = {"ata": 600e6, "scsi": 4.8e9, "nvme": 128e9}
MAX_DRIVE_WRITES = 1_000_000
MAX_BYTES = (1 << 63) - 1  # SQLite's INTEGER


def bytes_ceiling(snap: Snapshot) -> int:
    """The largest byte counter this drive could plausibly show."""
    ceiling = float(MAX_BYTES)
    poh = snap.power_on_hours if snap.power_on_hours_trusted else None
    if poh is not None and poh >= 0:
        speed = LINK_BYTES_PER_SECOND.get(snap.interface, max(LINK_BYTES_PER_SECOND.values()))
        ceiling = min(ceiling, 2 * speed * max(poh, 1.0) * 3600)
    elif snap.capacity_bytes:
        ceiling = min(ceiling, float(snap.capacity_bytes) * MAX_DRIVE_WRITES)
    return int(ceiling)


def implausible(snap: Snapshot, count: ByteCount | None) -> str | None:
    """Why a byte counter cannot be true (0xFFFFFFFFFFFF 'invalid' raws, counters faster than the link)."""
    if count is None:
        return None
    ceiling = bytes_ceiling(snap)
    if 0 <= count.bytes <= ceiling:
        return None
    return (f"{count.source} gives {count.bytes:,} B, more than this drive can have transferred "
            f"(at most {ceiling:,} B); ignored")


def sane_bytes(snap: Snapshot, count: ByteCount | None, problems: list[str] | None) -> ByteCount | None:
    reason = implausible(snap, count)
    if reason is None:
        return count
    if problems is not None:
        problems.append(reason)
    return None


# The fewest bytes a drive in use writes: 100 kB per power-on hour (an idle system's logging alone writes more;
# the corpus drives whose units are known write 33 MB/h and more, those read in a wrong unit 0.6-38 kB/h), from 100
# power-on hours on. And for the wear it reports: 1 % of its capacity per 1 % used (u % of a rating of at least
# RATED_ERASE_RANGE[0] = 100 erase cycles over its capacity, at a write amplification below 100).
MIN_HOST_BYTES_PER_HOUR = 100_000
MIN_HOURS_FOR_FLOOR = 100


def host_written_floor(snap: Snapshot) -> tuple[int, str] | None:
    """The fewest host bytes this drive can have written, and why; None when nothing bounds it."""
    hours = snap.power_on_hours if snap.power_on_hours_trusted else None
    floors = []
    if hours is not None and hours >= MIN_HOURS_FOR_FLOOR:
        floors.append((int(hours * MIN_HOST_BYTES_PER_HOUR), f"{MIN_HOST_BYTES_PER_HOUR // 1000} kB per power-on hour "
                       f"over {hours:,.0f} hours"))
    readings = used_readings(snap).readings if snap.is_solid_state is not False else []
    if readings and readings[0].percent >= 1 and snap.capacity_bytes:
        used = min(readings[0].percent, 100.0)
        floors.append((int(snap.capacity_bytes * used / 100), f"{used:g} % of the capacity at the {used:g} % of its "
                       f"endurance the drive reports used ({readings[0].source})"))
    return max(floors) if floors else None


def too_small(snap: Snapshot, count: ByteCount | None) -> str | None:
    """Why a host-write count read from a vendor attribute cannot be true: fewer bytes than the drive's hours and
    wear allow (a counter read in a smaller unit than the drive keeps: 241 in GiB read as 512-byte sectors)."""
    floor = host_written_floor(snap) if count is not None else None
    if count is None or floor is None or count.bytes >= floor[0]:
        return None
    return (f"{count.source} gives {count.bytes:,} B, fewer than this drive can have written (at least {floor[0]:,} B: "
            f"{floor[1]}): likely counted in a larger unit than assumed; not used")


def _pick(snap: Snapshot, devstat: ByteCount | None, attribute: ByteCount | None,
          problems: list[str] | None) -> ByteCount | None:
    """The standard device statistic, unless the vendor attribute shows it wrapped around.

    Some firmwares (Crucial MX500) keep 'Logical Sectors Written' in 32 bits, so it wraps every 2 TiB of
    512-byte sectors while attribute 246 keeps counting: when the two disagree by more than 10 %, the
    larger one is the one that did not wrap. A counter that cannot be true is never picked.
    """
    devstat, attribute = sane_bytes(snap, devstat, problems), sane_bytes(snap, attribute, problems)
    if devstat is None or attribute is None:
        return devstat or attribute
    if attribute.bytes > devstat.bytes * 1.1:
        return ByteCount(attribute.bytes, f"{attribute.source} (Device Statistics say only "
                                          f"{devstat.bytes:,} B: a counter that wrapped)")
    return devstat


# How far a host counter whose unit is doubted may stand from Device Statistics (modulo its wraps) and still agree:
# two of its counts (a GiB counter is truncated; the corpus SA400's 241 is 0.001 % from its statistic).
DOUBTED_SLACK_COUNTS = 2


def doubted_host(snap: Snapshot, counter: Counter, count: ByteCount, devstat: ByteCount | None) -> str | None:
    """Why a host counter whose unit the drive database doubts (Counter.unit_doubted) is not used: it must agree
    with Device Statistics (exact, by the ATA standard; modulo the wraps of a statistic the family keeps in fewer
    bits, Family.host_counters_wrap_at) or, where the drive prints none, with the wear indicator (doubted_unit);
    None when it does."""
    if devstat is None:
        return doubted_unit(snap, counter, count)
    wrap = families.family_of(snap).host_counters_wrap_at
    apart = count.bytes - devstat.bytes
    if wrap and apart > 0:
        apart = min(apart % wrap, wrap - apart % wrap)
    if abs(apart) <= DOUBTED_SLACK_COUNTS * (counter.unit or _sector_bytes(snap)):
        return None
    wraps = f" (or that plus whole wraps of {wrap:,} B)" if wrap else ""
    return (f"{count.source} is not used: {counter.unit_doubted}, and here it gives {count.bytes:,} B where "
            f"{devstat.source} gives {devstat.bytes:,} B{wraps}")


def _vendor_host(snap: Snapshot, counters: Sequence[Counter], devstat: ByteCount | None,
                 problems: list[str] | None) -> ByteCount | None:
    """The family's first host counter that reads, unless its unit is doubted and it disagrees (doubted_host)."""
    found = _first_of(snap, counters)
    if found is None:
        return None
    counter, count = found
    reason = doubted_host(snap, counter, count, devstat) if counter.unit_doubted else None
    if reason is None:
        return count
    if problems is not None:
        problems.append(reason)
    return None


def ata_host_written(snap: Snapshot, problems: list[str] | None = None) -> ByteCount | None:
    """Host writes: Device Statistics (exact, by the ATA standard), else the family's attribute, which must
    also be no fewer than the drive's hours and wear allow (too_small)."""
    # A statistic that cannot be true (all ones) is none: the attribute is then held to the floor as without one.
    devstat = sane_bytes(snap, _devstat_bytes(snap, DEVSTAT_LOGICAL_SECTORS_WRITTEN, "Logical Sectors Written"),
                         problems)
    attribute = _vendor_host(snap, families.host_written(families.family_of(snap)), devstat, problems)
    if devstat is None and (reason := too_small(snap, sane_bytes(snap, attribute, None))) is not None:
        if problems is not None:
            problems.append(reason)
        attribute = None
    return _pick(snap, devstat, attribute, problems)


def ata_host_read(snap: Snapshot, problems: list[str] | None = None) -> ByteCount | None:
    devstat = _devstat_bytes(snap, DEVSTAT_LOGICAL_SECTORS_READ, "Logical Sectors Read")
    attribute = _vendor_host(snap, families.host_read(families.family_of(snap)), sane_bytes(snap, devstat, None),
                             problems)
    return _pick(snap, devstat, attribute, problems)


def doubted_unit(snap: Snapshot, counter: Counter, count: ByteCount) -> str | None:
    """Why a count whose unit the drive database doubts (Counter.unit_doubted) is not used: it must agree with the
    wear indicator, as full writes of the capacity per percent used at a rated erase count any flash has
    (RATED_ERASE_RANGE); None when it does."""
    readings = used_readings(snap).readings
    if not readings or readings[0].at_least or not snap.capacity_bytes:
        return (f"{count.source} is not used: {counter.unit_doubted}, and this reading has no wear indicator (or "
                "capacity) to check it against")
    used, step = readings[0].percent, readings[0].step
    writes = count.bytes / snap.capacity_bytes
    low, high = writes * 100 / (used + step), writes * 100 / used if used > 0 else float("inf")
    if high >= RATED_ERASE_RANGE[0] and low <= RATED_ERASE_RANGE[1]:
        return None
    shown = [f"{x:,.0f}" if x >= 100 else f"{x:.3g}" for x in (writes, low, high)]
    return (f"{count.source} is not used: {counter.unit_doubted}, and here it gives {shown[0]} full writes of the "
            f"capacity at {used:g} % used ({readings[0].source}), a rated {shown[1]}-{shown[2]} erase cycles, "
            f"outside any flash's {RATED_ERASE_RANGE[0]:,}-{RATED_ERASE_RANGE[1]:,}")


def ata_nand_written(snap: Snapshot, problems: list[str] | None = None) -> ByteCount | None:
    """NAND writes: the first of the family's counters that reads, if it can be true (and, where its unit is
    doubted, agrees with the wear indicator)."""
    for counter in families.nand_written(families.family_of(snap)):
        count = _counter_bytes(snap, counter)
        if count is None:
            continue
        reason = doubted_unit(snap, counter, count) if counter.unit_doubted else None
        if reason is not None:
            if problems is not None:
                problems.append(reason)
            return None
        return sane_bytes(snap, count, problems)
    return None
