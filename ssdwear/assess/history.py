"""Wear projections from stored samples: the latest unbroken series, through the calibrated forecast. Pure.

The samples of one drive become readings (power-on hours, percent used, host bytes written) of its wear
indicator and go through the same forecast as saved outputs (series.py) and single readings (report.py):
wear.forecast_projection. Power-on hours are the clock, as in the calibration: a drive that was off neither
aged nor wore, so a power-off gap needs no special case. The forecast never runs across a counter reset:
power-on hours, a byte counter or the wear indicator that went down (a drive swapped under the same serial, a
QEMU NVMe drive that restarts its data units at every boot).

The clock rule: the series is ordered by the drive's own clock, its power-on hours, so a sample stored while the
system clock was wrong still falls into place; rows dated after `now` (passed in) are ignored, and the series
ends at the newest reading: samples with more power-on hours than it come from before a counter reset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Optional

from ssdwear.drives import vendors
from ssdwear.model.records import Projection, Sample, Window
from ssdwear.wear import rates as wear
from ssdwear.wear.forecast import Reading, calibration, clean, too_early

# The byte counters resolve a sector; as a share of a rating that is the step of a TBW-based indicator.
SECTOR_BYTES = 512


@dataclass(frozen=True)
class Segment:
    samples: tuple[Sample, ...]
    cut_reason: Optional[str]  # why the samples before this segment were not used


def _hours(a: datetime, b: datetime) -> float:
    return (b - a).total_seconds() / 3600


def _break(prev: Sample, cur: Sample) -> Optional[str]:
    """Why `cur` cannot continue the series of `prev`, or None. (Called for every stored sample: the time is
    formatted only for a break.)"""
    for name, a, b in (("power-on hours", prev.power_on_hours, cur.power_on_hours),
                       ("host bytes written", prev.host_bytes_written, cur.host_bytes_written),
                       ("NAND bytes written", prev.nand_bytes_written, cur.nand_bytes_written)):
        if a is not None and b is not None and b < a:
            return f"counter reset at {cur.at:%Y-%m-%d %H:%M} ({name} went from {a:,.0f} to {b:,.0f})"
    if (prev.used_percent is not None and cur.used_percent is not None and prev.used_source == cur.used_source
            and cur.used_percent < prev.used_percent - 1.5):
        return (f"wear indicator went back at {cur.at:%Y-%m-%d %H:%M} ({prev.used_percent:g} % -> "
                f"{cur.used_percent:g} %)")
    return None


def up_to(samples: Sequence[Sample], now: datetime) -> list[Sample]:
    """The clock rule: the samples dated up to now (a row dated later was stored with the clock ahead)."""
    return [s for s in samples if s.at <= now]


def clock_warning(now: datetime) -> str:
    """The one warning of a run that found stored rows dated after now."""
    return (f"history: stored samples or resets dated after now ({now:%Y-%m-%d %H:%M} UTC) are ignored: the clock "
            "was ahead when they were stored, or is behind now (check NTP)")


def latest_segment(samples: Sequence[Sample]) -> Segment:
    """The drive's current series: its samples in power-on order up to the newest reading (by the wall clock),
    back to the last break. Without power-on hours on every sample, the wall clock orders them."""
    if not samples:
        return Segment((), None)
    last = max(samples, key=lambda s: s.at).power_on_hours
    reset = None
    if last is None or any(s.power_on_hours is None for s in samples):
        ordered = sorted(samples, key=lambda s: s.at)
    else:
        ordered = sorted((s for s in samples if (s.power_on_hours or 0) <= last),
                         key=lambda s: (s.power_on_hours, s.at))
        older = [s.power_on_hours or 0 for s in samples if (s.power_on_hours or 0) > last]
        if older:
            reset = (f"counter reset: {len(older)} sample(s) with more power-on hours (up to {max(older):,.0f}) "
                     f"than the latest reading ({last:,.0f})")
    start, cut = 0, None
    for i in range(1, len(ordered)):
        why = _break(ordered[i - 1], ordered[i])
        if why is not None:
            start, cut = i, why
    return Segment(tuple(ordered[start:]), "; ".join(r for r in (reset, cut) if r) or None)


@dataclass(frozen=True)
class HistoryResult:
    window: Optional[Window]
    projection: Optional[Projection]
    notes: tuple[str, ...] = ()
    write_bytes_per_day: Optional[float] = None  # host writes per wall-clock day over the series
    readings: int = 0  # distinct readings the projection rests on


def _readings(seg: Sequence[Sample], used_source: Optional[str], rated_bytes: Optional[int]
              ) -> tuple[Optional[str], list[Reading], float]:
    """(counter, readings, step): the wear indicator's samples, else host bytes against the rated TBW."""
    if used_source is not None:
        return used_source, [Reading(s.power_on_hours, s.used_percent, s.host_bytes_written) for s in seg
                             if s.used_source == used_source and s.used_percent is not None
                             and s.power_on_hours is not None], 1.0
    if rated_bytes:
        return "host_bytes_written", [Reading(s.power_on_hours, s.host_bytes_written / rated_bytes * 100,
                                              s.host_bytes_written) for s in seg
                                      if s.host_bytes_written is not None and s.power_on_hours is not None], \
            SECTOR_BYTES / rated_bytes * 100
    return None, [], 1.0


def _write_rate(seg: Sequence[Sample]) -> Optional[float]:
    """Host bytes written a wall-clock day over the series, when it spans what a wear rate needs, in power-on hours
    and on the wall clock alike (samples seconds apart made petabytes a day)."""
    first, last = seg[0], seg[-1]
    if first.host_bytes_written is None or last.host_bytes_written is None or first.power_on_hours is None \
            or last.power_on_hours is None:
        return None
    wall = _hours(first.at, last.at)
    if not (calibration().spans(wall) and calibration().spans(last.power_on_hours - first.power_on_hours)):
        return None
    return (last.host_bytes_written - first.host_bytes_written) / wall * 24


def history_projection(samples: Sequence[Sample], used_source: Optional[str], used_step: Optional[float],
                       interface: str, rated_bytes: Optional[int], level: float, now: datetime) -> HistoryResult:
    """The calibrated projection over the latest unbroken series of samples dated up to `now`, or why there is none.

    `used_source` is the drive's wear indicator now (None when it has none, or it saturated): its samples are
    the readings; without one, host bytes written against a rated TBW (`rated_bytes`) stand in for it.
    """
    samples = up_to(samples, now)
    if len(samples) < 2:
        return HistoryResult(None, None)
    segment = latest_segment(samples)
    notes = [f"history: samples before this series skipped: {segment.cut_reason}"] if segment.cut_reason else []
    seg = segment.samples
    wall = _hours(seg[0].at, seg[-1].at)
    write_rate = _write_rate(seg)
    counter, readings, step = _readings(seg, used_source, rated_bytes)
    if used_source is not None and used_step is not None:
        step = used_step
    fine = wear.finer_readings([wear.Point(s.power_on_hours, s.used_percent, step, vendors.lifetime_e2h_percent(
        s.e2h, s.e4h, s.power_on_hours), s.host_bytes_written) for s in seg if s.used_source == used_source
        and s.used_percent is not None and s.power_on_hours is not None]) if used_source is not None else None
    if fine is not None:  # a finer counter of the same wear (Intel E2h never reset): its movement is the rate
        counter, readings, step = vendors.E2H_LIFETIME_SOURCE, fine, wear.FINE_STEP
    distinct = clean(readings)
    span = distinct[-1].power_on_hours - distinct[0].power_on_hours if distinct else 0.0
    if counter is None:
        notes.append("history: no wear indicator and no rated writes to project from")
        return HistoryResult(None, None, tuple(notes), write_rate)
    early = too_early(distinct)
    if early is not None:
        notes.append(f"history: {early}")
        return HistoryResult(None, None, tuple(notes), write_rate, len(distinct))
    if len(distinct) < 2 or not calibration().spans(span):
        notes.append(f"history: {len(distinct)} distinct reading(s) of {counter} over {span:,.1f} power-on hours "
                     "since the last break: less than a day, so the lifetime average stands")
        return HistoryResult(None, None, tuple(notes), write_rate, len(distinct))
    moved = distinct[-1].used_percent - distinct[0].used_percent
    what = "writes" if counter == "host_bytes_written" else "endurance"
    basis = (f"{moved:.4g} % of rated {what} in {span:,.0f} power-on hours of history "
             f"({len(distinct)} readings since {seg[0].at:%Y-%m-%d %H:%M})")
    projection = wear.forecast_projection(distinct, step, interface, f"history:{counter}", basis, level)
    n0, n1, h0, h1 = seg[0].nand_bytes_written, seg[-1].nand_bytes_written, seg[0].host_bytes_written, \
        seg[-1].host_bytes_written
    if n0 is not None and n1 is not None and h0 is not None and h1 is not None and h1 != h0:
        notes.append(f"history: write amplification {(n1 - n0) / (h1 - h0):.2f} over the series "
                     "(NAND / host bytes written)")
    reason = (f"{len(distinct)} readings over {span:,.0f} power-on hours ({wall / 24:,.1f} days) since "
              f"{seg[0].at:%Y-%m-%d %H:%M}; rate from {counter}")
    window = Window(kind="history", valid=True, reason=reason, minutes=span * 60, wear_percent=moved,
                    counter=counter)
    return HistoryResult(window, projection, tuple(notes), write_rate, len(distinct))
