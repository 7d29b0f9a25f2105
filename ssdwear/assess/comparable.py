"""Whether a `plan` candidate's years compare with the workload as computed (`comparable`, and why), and the years a
measured drive of its family gives where they do not. Pure.

A rating's bytes are bytes of its own workload (ratings.WORKLOAD_KINDS). Rated writes (a measuring drive's wear
times its rating) are bytes of that drive's rating workload: they compare with a rating on the same workload only,
since what a byte costs in wear differs between workloads and between drives (at the Intel SSD 710 review's
workload the SSD 320 wore 4 times as fast as the 710). Host writes compare with a rating that states its workload,
as far as this workload writes like that one; a rating that states none compares with no workload. A drive as
measured needs no rating. Where a candidate's years do not compare but a drive of its family was measured (`plan
--from`, one workload), that measurement gives its years, scaled by capacity, and the note says how far the rating
disagrees.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ssdwear.drives.ratings import WORKLOAD_KINDS, Rating
from ssdwear.model.units import capacity_text

from .spare_area import SpareResult, spare_result

if TYPE_CHECKING:
    from .plan import Candidate, Measured, Workload

Years = tuple[float | None, float | None, float | None]  # central, pessimistic, optimistic


def judged(c: Candidate, w: Workload) -> tuple[bool, str]:
    """(comparable, why) of a candidate's years at the workload `w`."""
    if c.years is None and c.years_low is None:
        return False, "no wear projection: no years to compare" if c.kind == "measured" else \
            "no rating: no years to compare"
    if c.kind == "measured":
        return True, "its own wear as measured at this workload: no rating in it"
    r = c.rating
    if r is None:
        return False, "no rating: no years to compare"
    mine = r.workload_kind
    stated = r.workload or "none given"
    if w.kind == "host-writes":
        if mine is None:
            return False, (f"its rating states no workload ({stated}): how these host writes wear it against its "
                           "rating is unknown")
        return True, f"host writes against its rating on {WORKLOAD_KINDS[mine]}, as far as this workload writes so"
    source = w.source.entry if w.source is not None else None
    theirs = w.rating_kind
    if mine is not None and mine == theirs:
        return True, f"rated on {WORKLOAD_KINDS[mine]}, the workload's own currency"
    if source is not None and (r == source or (_same_family(r, source) and r.workload == source.workload)):
        return True, f"rated as the measuring drive's family is ({stated}): the workload's own currency"
    whose = f"rated writes of {WORKLOAD_KINDS[theirs]} (the measuring drive's rating)" if theirs else \
        f"rated writes of a rating that states no workload ({w.rating_workload or 'none given'})"
    on = f"its rating states no workload ({stated})" if mine is None else f"it is rated on {WORKLOAD_KINDS[mine]}"
    return False, f"{on}, the workload is {whose}: what a byte costs in wear differs between workloads and drives"


class FromFamily(NamedTuple):
    """Years from a measured drive of the candidate's family, and the words for them."""

    measured: Measured
    years: Years
    notes: tuple[str, str]  # where the years come from; what the rating gives against them ('' without one)
    reason: str
    spare: SpareResult | None  # the spare area's effect on the candidate, where --spare asked for it


def from_family(c: Candidate, why: str, measured: Sequence[Measured], spare: float | None,
                family: Sequence[Rating]) -> FromFamily | None:
    """The years of catalogue or config candidate `c`, whose own are not comparable (`why`), from the first measured
    drive of its family (vendor and family of the catalogue entry that describes it) with a projected new-drive
    life: that life x the capacities' ratio (the same NAND per GB and write amplification assumed) x the candidate's
    spare-area gain. None where none was measured or a capacity is unknown."""
    r = c.rating
    if r is None or c.kind == "measured" or not r.nominal_capacity_bytes:
        return None
    for m in measured:
        p, e = m.report.projection, m.entry
        own = (e.nominal_capacity_bytes if e is not None else None) or m.report.capacity_bytes
        if e is None or not (e == r or _same_family(e, r)) or p is None or not own or \
                (p.years_new_drive is None and p.years_new_drive_low is None):
            continue
        scale = r.nominal_capacity_bytes / own
        gain, result = _gain(c, r, spare, family)
        factor = scale * gain
        years = tuple(None if y is None else y * factor for y in
                      (p.years_new_drive, p.years_new_drive_low, p.years_new_drive_high))
        rating = f"by its rating ({c.rating_text}): {_span(c.years, c.years_low, c.years_high)} years here, " \
                 f"{_against(years[0], c)}" if c.years is not None or c.years_low is not None else ""
        notes = (f"years from {m.label} as measured at this workload ({m.where}), in proportion to the capacity "
                 f"against its {capacity_text(own)} (the same NAND per GB and write amplification assumed)", rating)
        return FromFamily(m, (years[0], years[1], years[2]), notes,
                          f"from {m.label}, a drive of its family measured at this workload; by its rating "
                          f"alone not comparable: {why}", result)
    return None


def _same_family(a: Rating, b: Rating) -> bool:
    return a.family is not None and a.vendor == b.vendor and a.family == b.family


def _gain(c: Candidate, r: Rating, spare: float | None, family: Sequence[Rating]
          ) -> tuple[float, SpareResult | None]:
    """What the candidate's spare area multiplies a life by (a published spare-area rating listed on its own, the
    spare area asked for with --spare, else 1), and that spare area's result."""
    full = r.bytes_for(None)
    if c.variant == "spare-area" and r.spare_area_bytes and full:
        return r.spare_area_bytes / full, None
    if spare is None:
        return 1.0, None
    result = c.spare if c.spare is not None else spare_result(r, family, spare)
    return result.gain or 1.0, result


def _span(central: float | None, low: float | None, high: float | None) -> str:
    if central is not None:
        return f"{central:.1f}"
    return f"{low or 0:.1f}-{high or 0:.1f}" if high is not None else f"at least {low or 0:.1f}"


def _against(measured: float | None, c: Candidate) -> str:
    """How far the rating's years lie from the measured ones: 'x3.8-54 fewer than measured'."""
    ends = [c.years] if c.years is not None else [c.years_high, c.years_low]
    if measured is None or not all(ends):
        return "open-ended: no factor against the measured ones"
    ends = [y for y in ends if y]
    ratios = sorted(measured / y for y in ends)
    if ratios[-1] <= 1:
        inverse = sorted(1 / x for x in ratios)
        return f"{_times(inverse)} times more than measured"
    if ratios[0] >= 1:
        return f"{_times(ratios)} times fewer than measured"
    return f"from {_ratio(1 / ratios[0])} times more to {_ratio(ratios[-1])} times fewer than measured"


def _times(ratios: Sequence[float]) -> str:
    low, high = _ratio(ratios[0]), _ratio(ratios[-1])
    return low if low == high else f"{low}-{high}"


def _ratio(x: float) -> str:
    """Two significant figures, never in exponent form: 3.8, 52, 260."""
    return f"{x:.2g}" if x < 10 else f"{float(f'{x:.2g}'):,.0f}"
