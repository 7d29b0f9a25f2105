"""`plan --stagger GROUP`: which members of a redundancy group to replace, and by when, so that no two members'
pessimistic wear-out dates fall in the same calendar quarter. Pure: a Group (its members' reports) and `now`.

A replacement is like for like: the new drive is written as the member it replaces was (its pessimistic, high wear
rate, at its duty cycle), after the rebuild writes the member's whole capacity to it (a ZFS resilver writes only the
data it holds: the whole is the pessimistic figure). The rebuild's wear is that capacity against the drive's rated
endurance (TBW) where it is known, else against its own lifetime wear per byte written.

The schedule: members whose quarters are shared by no one keep theirs; of several in one quarter the one that wears
out last stays, and each of the others, earliest first, is replaced so that its new drive's date falls in the latest
quarter still free, no later than its own pessimistic wear-out date and not before now. When a member's new date
cannot reach a free quarter, no schedule fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from ssdwear.model.errors import SsdwearError
from ssdwear.model.groups import Group, GroupMember

DAYS_PER_YEAR = 365.0  # as the projections count a year


class CannotStagger(SsdwearError):
    "A group whose members' wear-out dates are not all known cannot be staggered."


@dataclass(frozen=True)
class Step:
    """One member's part in the schedule."""

    member: GroupMember
    wears_out_low_at: datetime | None  # its pessimistic wear-out date now (None: beyond the calendar)
    replace: bool = False
    replace_from: datetime | None = None  # the window to replace it in (new drive's date in a free quarter)
    replace_by: datetime | None = None
    new_wears_out_low_at: datetime | None = None  # the new drive's pessimistic date, replaced at replace_by
    rebuild_percent: float | None = None  # the rebuild's writes, % of the new drive's rated endurance
    rebuild_basis: str = ""


@dataclass(frozen=True)
class Stagger:
    group: Group
    steps: tuple[Step, ...]
    fits: bool
    notes: tuple[str, ...] = ()


def quarter(at: datetime) -> int:
    return at.year * 4 + (at.month - 1) // 3


def quarter_text(q: int) -> str:
    return f"{q // 4} Q{q % 4 + 1}"


def _quarter_start(q: int) -> datetime:
    return datetime(q // 4, q % 4 * 3 + 1, 1, tzinfo=timezone.utc)


def rebuild(member: GroupMember) -> tuple[float | None, str]:
    """The rebuild's wear on the new drive: its capacity as % of its rated endurance, or of its wear per byte."""
    r = member.report
    assert r is not None
    if not r.capacity_bytes:
        return None, "not counted: the drive gives no capacity"
    if r.writes.rated_bytes:
        return r.capacity_bytes / r.writes.rated_bytes * 100, "its capacity against its rated endurance"
    if r.used_percent and r.writes.host_bytes_written:
        return (r.capacity_bytes * r.used_percent / r.writes.host_bytes_written,
                "its capacity at its own lifetime wear per byte written")
    return None, "not counted: no rated endurance and no written bytes to weigh the capacity against"


def _life_days(member: GroupMember, rebuild_percent: float | None) -> float | None:
    """A new drive's pessimistic life on the calendar, in days, after the rebuild (None: no end in sight)."""
    p = member.projection
    assert p is not None
    rate = p.percent_per_year_high if p.percent_per_year_high is not None else p.percent_per_year
    if not rate:
        return None
    return (100 - (rebuild_percent or 0)) / rate / (p.duty_cycle or 1) * DAYS_PER_YEAR


def stagger(group: Group, now: datetime) -> Stagger:
    """The schedule (Stagger.fits) or why none fits; CannotStagger when a working member has no drive or no date."""
    working = [m for m in group.members if m.working]
    unknown = [m.member for m in working if not m.projected]
    if unknown or len(working) < 2:
        raise CannotStagger(f"{group.name}: " + (f"no pessimistic wear-out date for {', '.join(unknown)} (no drive "
                                                 "found under it, or no projection): nothing to stagger on"
                                                 if unknown else "fewer than two working members: nothing to stagger"))
    dates = {id(m): (m.projection.wears_out_low_at if m.projection else None) for m in working}
    by_quarter: dict[int, list[GroupMember]] = {}
    for m in working:
        if (at := dates[id(m)]) is not None:
            by_quarter.setdefault(quarter(at), []).append(m)
    taken = set(by_quarter)
    replaced: list[GroupMember] = []
    for members in by_quarter.values():
        members.sort(key=lambda m: dates[id(m)] or now)
        replaced += members[:-1]  # the last to wear out stays
    steps = {id(m): Step(m, dates[id(m)]) for m in working}
    placed: list[tuple[GroupMember, int]] = []
    for m in sorted(replaced, key=lambda m: dates[id(m)] or now):
        step, q = _schedule(m, dates[id(m)], now, taken)
        steps[id(m)] = step
        if q is not None:
            placed.append((m, q))
    for m, q in sorted(placed, key=lambda placed: -placed[1]):  # then each window widened over the free quarters
        steps[id(m)] = _widen(steps[id(m)], q, now, taken)
    fits = all(s.replace_by is not None for s in steps.values() if s.replace)
    notes = () if replaced else ("no replacement needed: no two members' pessimistic wear-out dates share a quarter",)
    return Stagger(group, tuple(steps[id(m)] for m in working), fits, notes)


def _window(q: int, life: timedelta, now: datetime, deadline: datetime) -> tuple[datetime, datetime]:
    """The replacement dates whose new drive's pessimistic date falls in quarter `q` (no later than `deadline`)."""
    return (max(now, _quarter_start(q) - life),
            min(deadline, _quarter_start(q + 1) - timedelta(seconds=1) - life))


def _schedule(m: GroupMember, wears_out: datetime | None, now: datetime, taken: set[int]
              ) -> tuple[Step, int | None]:
    """Replace `m` so that its new drive's pessimistic date lands in the latest free quarter it can reach."""
    percent, basis = rebuild(m)
    days = _life_days(m, percent)
    deadline = max(now, wears_out or now)
    if days is None:  # a new drive that never wears out at this rate: any time before the old one does
        return Step(m, wears_out, True, now, deadline, None, percent, basis), None
    life = timedelta(days=days)
    for q in range(quarter(deadline + life), quarter(now + life) - 1, -1):
        start, end = _window(q, life, now, deadline)
        if q not in taken and start <= end:
            taken.add(q)
            return Step(m, wears_out, True, start, end, end + life, percent, basis), q
    return Step(m, wears_out, True, None, None, None, percent, basis), None


def _widen(step: Step, q: int, now: datetime, taken: set[int]) -> Step:
    """The step's window reaching back over the free quarters before its own (taking them), down to now."""
    assert step.replace_by is not None and step.new_wears_out_low_at is not None and step.replace_from is not None
    life = step.new_wears_out_low_at - step.replace_by
    start = step.replace_from
    while start > now and q - 1 not in taken and q - 1 >= quarter(now + life):
        q -= 1
        taken.add(q)
        start = _window(q, life, now, step.replace_by)[0]
    return Step(step.member, step.wears_out_low_at, True, start, step.replace_by, step.new_wears_out_low_at,
                step.rebuild_percent, step.rebuild_basis)
