"""Wear rates from stored samples: segment the history, fit every counter, keep the best. Pure; no I/O.

The fit runs over wall-clock time within the most recent stretch of samples that can be trusted as one
series. It never fits across:
- a counter reset: power-on hours, a wear indicator or a byte counter that went down (a QEMU NVMe drive
  restarts its data units at every boot; a drive swapped under the same serial would do the same);
- a power-off gap: wall-clock time that advanced more than the drive's power-on hours (the drive or the
  machine was off, so wall time no longer measures the workload).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Optional

from . import wear
from .model import E2H_STEPS_PER_PERCENT, TIMER_SENTINELS, Projection, Sample, Window

GAP_SLACK_HOURS = 1.0  # sampling jitter and hour rounding of power-on hours
GAP_FRACTION = 0.1  # wall time may exceed power-on time by this fraction before it counts as a gap
MIN_SPAN_HOURS = 0.5  # a fit needs at least this much time


@dataclass(frozen=True)
class Segment:
    samples: tuple[Sample, ...]
    cut_reason: Optional[str]  # why the samples before this segment were not used


def _hours(a: datetime, b: datetime) -> float:
    return (b - a).total_seconds() / 3600


def _break(prev: Sample, cur: Sample) -> Optional[str]:
    """Why `cur` cannot continue the series of `prev`, or None."""
    when = cur.at.strftime("%Y-%m-%d %H:%M")
    for name, a, b in (("power-on hours", prev.power_on_hours, cur.power_on_hours),
                       ("host bytes written", prev.host_bytes_written, cur.host_bytes_written),
                       ("NAND bytes written", prev.nand_bytes_written, cur.nand_bytes_written)):
        if a is not None and b is not None and b < a:
            return f"counter reset at {when} ({name} went from {a:,.0f} to {b:,.0f})"
    if (prev.used_percent is not None and cur.used_percent is not None and prev.used_source == cur.used_source
            and cur.used_percent < prev.used_percent - 1.5):
        return f"wear indicator went back at {when} ({prev.used_percent:g} % -> {cur.used_percent:g} %)"
    if prev.power_on_hours is not None and cur.power_on_hours is not None:
        wall = _hours(prev.at, cur.at)
        powered = cur.power_on_hours - prev.power_on_hours
        if wall - powered > max(GAP_SLACK_HOURS, GAP_FRACTION * wall):
            return (f"power-off gap before {when} ({wall:,.1f} h of wall-clock time but only {powered:,.1f} "
                    "power-on hours)")
    return None


def latest_segment(samples: Sequence[Sample]) -> Segment:
    """The most recent stretch of samples that forms one series."""
    ordered = sorted(samples, key=lambda s: s.at)
    start = 0
    reason = None
    for i in range(1, len(ordered)):
        why = _break(ordered[i - 1], ordered[i])
        if why is not None:
            start, reason = i, why
    return Segment(tuple(ordered[start:]), reason)


@dataclass(frozen=True)
class Candidate:
    counter: str
    rate: wear.Rate
    delta: float  # change of the counter's percent over the span
    step: float  # resolution in percent


def _series(samples: Sequence[Sample], value: Callable[[Sample], Optional[float]]) -> tuple[list[float], list[float]]:
    t0 = samples[0].at
    hours, values = [], []
    for s in samples:
        v = value(s)
        if v is not None:
            hours.append(_hours(t0, s.at))
            values.append(v)
    return hours, values


def candidates(segment: Sequence[Sample], rated_bytes: Optional[int]) -> list[Candidate]:
    """A rate from every counter the segment carries throughout."""
    out: list[Candidate] = []

    def add(counter: str, value: Callable[[Sample], Optional[float]], step: float) -> None:
        hours, values = _series(segment, value)
        if len(hours) < 2 or hours[-1] - hours[0] < MIN_SPAN_HOURS or len(hours) < len(segment):
            return
        rate = wear.fit_rate(hours, values, step)
        out.append(Candidate(counter, rate, values[-1] - values[0], step))

    e4 = [s.e4h for s in segment]
    if all(x is not None and x not in TIMER_SENTINELS for x in e4) and e4 == sorted(e4):  # type: ignore[type-var]
        add("intel_e2h_workload_media_wear",
            lambda s: None if s.e2h is None or s.e2h in TIMER_SENTINELS else s.e2h / E2H_STEPS_PER_PERCENT,
            1 / E2H_STEPS_PER_PERCENT)
    sources = {s.used_source for s in segment}
    if len(sources) == 1 and None not in sources:
        add(str(sources.pop()), lambda s: s.used_percent, 1.0)
    if rated_bytes:
        add("host_bytes_written", lambda s: None if s.host_bytes_written is None
            else s.host_bytes_written / rated_bytes * 100, 512 / rated_bytes * 100)
    return out


def _quality(c: Candidate) -> tuple[int, float, float]:
    """Sort key. A wear counter that was measured well (range within ±25 %) comes first: it is the flash's own
    account. Then the narrowest relative range (TBW from host bytes is usually tight); unbounded ranges last,
    the tightest lower bound first."""
    if c.rate.low <= 0 or c.rate.per_year <= 0:
        return (2, float("inf"), c.rate.high)
    spread = (c.rate.high - c.rate.low) / c.rate.per_year
    return (0 if spread <= 0.5 and c.counter != "host_bytes_written" else 1, spread, 0.0)


MAX_SPREAD = 1.0  # a fit is "well bounded" when (high - low) <= rate: the range is within about ±50 %


@dataclass(frozen=True)
class HistoryResult:
    window: Optional[Window]
    projection: Optional[Projection]
    notes: tuple[str, ...] = ()
    write_bytes_per_day: Optional[float] = None
    well_bounded: bool = False  # the rate's range is narrow enough to prefer it over a lifetime average


def project(samples: Sequence[Sample], used_percent: Optional[float], rated_bytes: Optional[int],
            used_at_least: bool = False) -> HistoryResult:
    """The best-bounded projection the history allows, or why there is none."""
    if len(samples) < 2:
        return HistoryResult(None, None)
    segment = latest_segment(samples)
    notes = [f"history: samples before this series skipped: {segment.cut_reason}"] if segment.cut_reason else []
    seg = segment.samples
    span = _hours(seg[0].at, seg[-1].at)
    write_rate = None
    hw = [s.host_bytes_written for s in seg]
    if span > 0 and hw[0] is not None and hw[-1] is not None:
        write_rate = (hw[-1] - hw[0]) / span * 24
    if len(seg) < 2 or span < MIN_SPAN_HOURS:
        notes.append(f"history: {len(seg)} sample(s) over {span:.1f} h since the last break: too short to fit")
        return HistoryResult(None, None, tuple(notes), write_rate)
    found = sorted(candidates(seg, rated_bytes), key=_quality)
    if not found:
        notes.append("history: no counter is present throughout the series")
        return HistoryResult(None, None, tuple(notes), write_rate)
    best = found[0]
    n0, n1, h0, h1 = seg[0].nand_bytes_written, seg[-1].nand_bytes_written, hw[0], hw[-1]
    if n0 is not None and n1 is not None and h0 is not None and h1 is not None and h1 != h0:
        amp = (n1 - n0) / (h1 - h0)
        notes.append(f"history: write amplification {amp:.2f} over the series (NAND / host bytes written)")
    used = used_percent if used_percent is not None and not used_at_least else None
    if best.counter == "host_bytes_written" and rated_bytes:
        latest = seg[-1].host_bytes_written or 0
        used = latest / rated_bytes * 100
    since = seg[0].at.strftime("%Y-%m-%d %H:%M")
    reason = (f"{len(seg)} samples over {span / 24:,.1f} days since {since}; rate fitted to {best.counter}"
              + (f" (also fitted: {', '.join(c.counter for c in found[1:])})" if len(found) > 1 else ""))
    window = Window(kind="history", valid=True, reason=reason, minutes=span * 60, wear_percent=best.delta,
                    counter=best.counter)
    basis = (f"{best.delta:.4g} % of rated {'writes' if best.counter == 'host_bytes_written' else 'endurance'} "
             f"in {span:,.1f} h of history ({len(seg)} samples)")
    projection = wear.project(best.rate, used, f"history:{best.counter}", basis)
    rate = best.rate
    bounded = rate.low > 0 and rate.high - rate.low <= MAX_SPREAD * rate.per_year
    if not bounded:
        notes.append(f"history: {span:,.1f} h of samples bound the wear rate only to {rate.low:.3g}-{rate.high:.3g} "
                     f"%/year ({best.counter} moves in steps of {best.step:.3g} %); more samples will narrow it")
    return HistoryResult(window, projection, tuple(notes), write_rate, bounded)
