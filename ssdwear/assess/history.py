"""Stored samples as a drive's history: the latest unbroken series, through the one windowed projection. Pure.

The samples of one drive become readings of it (windowed.py's DriveReading) and go through the same windowed
projection as saved outputs (series.py): windowed.windowed_projection. Power-on hours are the clock, as in the
calibration: a drive that was off neither aged nor wore, so a power-off gap needs no special case. The projection
never runs across a counter reset: power-on hours, a byte counter or the wear indicator that went down (a drive
swapped under the same serial, a QEMU NVMe drive that restarts its data units at every boot).

The clock rule: the series is ordered by the drive's own clock, its power-on hours, so a sample stored while the
system clock was wrong still falls into place; rows dated after `now` (passed in) are ignored, and the series
ends at the newest reading: samples with more power-on hours than it come from before a counter reset.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from ssdwear.drives import timed
from ssdwear.model.counts import count_text
from ssdwear.model.records import DriveId, DriveReport, Sample, Snapshot
from ssdwear.model.units import time_text
from ssdwear.smartctl.smartd import SOURCE
from ssdwear.wear import calendar

from .context import Past
from .windowed import DriveReading, Windowed, windowed_projection, with_windowed


@dataclass(frozen=True)
class Segment:
    samples: tuple[Sample, ...]
    cut_reason: str | None  # why the samples before this segment were not used


def _break(prev: Sample, cur: Sample) -> str | None:
    """Why `cur` cannot continue the series of `prev`, or None. (Called for every stored sample: the time is
    formatted only for a break.)"""
    for name, a, b in (("power-on hours", prev.power_on_hours, cur.power_on_hours),
                       ("host bytes written", prev.host_bytes_written, cur.host_bytes_written),
                       ("NAND bytes written", prev.nand_bytes_written, cur.nand_bytes_written)):
        if a is not None and b is not None and b < a:
            return f"counter reset at {time_text(cur.at, zone=False)} ({name} went from {a:,.0f} to {b:,.0f})"
    if (prev.used_percent is not None and cur.used_percent is not None and prev.used_source == cur.used_source
            and cur.used_percent < prev.used_percent - 1.5):
        return (f"wear indicator went back at {time_text(cur.at, zone=False)} ({prev.used_percent:g} % -> "
                f"{cur.used_percent:g} %)")
    return None


def sample_of(snap: Snapshot, report: DriveReport, at: datetime) -> Sample:
    """The sample a reading and its report make: what `sample` stores, and what an attribute log's line becomes."""
    return Sample(
        at=at,
        power_on_hours=report.power_on_hours,
        used_percent=report.used_percent,
        used_source=report.used_source,
        host_bytes_written=report.writes.host_bytes_written,
        host_bytes_read=report.writes.host_bytes_read,
        nand_bytes_written=report.writes.nand_bytes_written,
        e2h=timed.timed_raw(snap, 226),
        e3h=timed.timed_raw(snap, 227),
        e4h=timed.timed_raw(snap, 228),
        available_spare=report.health.available_spare_percent,
        media_errors=report.health.media_errors,
        counter_source=report.counters[0].source if report.counters else None,
        counter=report.counters[0].value if report.counters else None,
        counter_rated=report.counters[0].rated if report.counters else None,
    )


def up_to(samples: Sequence[Sample], now: datetime) -> list[Sample]:
    """The clock rule: the samples dated up to now (a row dated later was stored with the clock ahead)."""
    return [s for s in samples if s.at <= now]


def clock_warning(now: datetime) -> str:
    """The one warning of a run that found stored rows dated after now."""
    return (f"history: stored samples or resets dated after now ({time_text(now)}) are ignored: the clock "
            "was ahead when they were stored, or is behind now (check NTP)")


def mistyped_warning(count: int) -> str:
    """The one warning of a run that found stored samples holding something other than numbers."""
    return (f"history: {count_text(count, 'stored sample')} {'holds' if count == 1 else 'hold'} text, a blob or an "
            f"infinity where a count belongs and {'is' if count == 1 else 'are'} ignored: the database was changed "
            "outside ssdwear")


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
            reset = (f"counter reset: {count_text(len(older), 'sample')} with more power-on hours (up to "
                     f"{max(older):,.0f}) than the latest reading ({last:,.0f})")
    start, cut = 0, None
    for i in range(1, len(ordered)):
        why = _break(ordered[i - 1], ordered[i])
        if why is not None:
            start, cut = i, why
    return Segment(tuple(ordered[start:]), "; ".join(r for r in (reset, cut) if r) or None)


def reading_of(sample: Sample) -> DriveReading:
    """A stored sample as a reading of its drive (its E2h where it counts the drive's whole life)."""
    return DriveReading(sample.power_on_hours, sample.used_percent, sample.used_source,
                        fine_percent=timed.lifetime_e2h_percent(sample.e2h, sample.e4h, sample.power_on_hours),
                        host_bytes_written=sample.host_bytes_written, nand_bytes_written=sample.nand_bytes_written,
                        at=sample.at, counter_source=sample.counter_source, counter=sample.counter)


def history_windowed(samples: Sequence[Sample], latest: DriveReport, level: float, now: datetime,
                     origin: str = "history") -> Windowed:
    """The windowed projection (windowed.py) over the latest unbroken series of samples dated up to `now`, whose
    newest report is `latest` (its wear indicator now: the samples of that indicator are the readings), or why
    there is none; nothing for fewer than two samples. `origin` names where the samples come from."""
    samples = up_to(samples, now)
    if len(samples) < 2:
        return Windowed()
    segment = latest_segment(samples)
    result = windowed_projection([reading_of(s) for s in segment.samples], latest, "history", level, origin)
    if segment.cut_reason is None:
        return result
    return replace(result, notes=(f"{origin}: samples before this series skipped: {segment.cut_reason}",
                                  *result.notes))


@dataclass(frozen=True)
class Series:
    """One drive's samples from one origin, with the newest report they are read by (its wear indicator now)."""

    samples: Sequence[Sample]
    latest: DriveReport
    origin: str = "history"  # 'history' (the stored samples) or 'smartd:attrlog'
    summary: str | None = None  # what the origin held, for the window's reason
    notes: Sequence[str] = ()  # notes on the origin's readings (said with the origin's name)


def _span(series: Series) -> float:
    source = None if series.latest.used_at_least else series.latest.used_source
    hours = [s.power_on_hours for s in series.samples if s.power_on_hours is not None
             and (source is None or s.used_source == source)]
    return max(hours) - min(hours) if len(hours) > 1 else 0.0


def longer(a: Series, b: Series) -> Series:
    """The series that reaches further back in power-on hours (of its indicator's readings); `a` on a tie. The
    two are never mixed: their indicators, clocks and resolutions may differ."""
    return b if _span(b) > _span(a) else a


def series_windowed(series: Series, level: float, now: datetime) -> Windowed:
    """history_windowed over a series, its origin named in the notes, the method and the window's reason (what the
    origin held first)."""
    result = history_windowed(series.samples, series.latest, level, now, series.origin)
    if series.origin == "history":
        return result
    window = result.window
    if window is not None and series.summary:
        window = replace(window, reason=f"{series.summary}; {window.reason}")
    return replace(result, window=window, notes=(*(f"{series.origin}: {n}" for n in series.notes), *result.notes))

def with_dates(report: DriveReport, now: datetime, series: Series | None) -> DriveReport:
    """The report's projection with its calendar dates from `now`, at the duty cycle of the series' latest unbroken
    stretch (dated up to now) where it measures one, else always on (wear/calendar.py)."""
    if report.projection is None:
        return report
    duty = None
    if series is not None:
        seg = latest_segment(up_to(series.samples, now)).samples
        duty = calendar.duty_cycle([(s.at, s.power_on_hours) for s in seg])
    origin = "stored samples" if series is None or series.origin == "history" else series.origin
    return replace(report, projection=calendar.dated(report.projection, now, duty, origin))


def choose_series(snap: Snapshot, report: DriveReport, past: Past, now: datetime,
                  seen: tuple[Snapshot, DriveReport] | None) -> tuple[Series, list[str]]:
    """The series the drive's history projection rests on, and notes on the attribute logs not used (pure): of the
    stored samples read by the drive's indicator now, the stored samples read by the indicator smartd logs (imported
    ones: the log holds no Device Statistics) and smartd's log itself, the one that reaches furthest back. `seen` is
    the drive now as smartd logs it (its reading's figures), where there are stored samples or a log to compare."""
    notes = [f"{SOURCE}: {n}" for n in past.notes]
    series = Series([*past.stored, sample_of(snap, report, now)], report)
    if seen is None:
        return series, notes
    live = sample_of(*seen, now)
    if past.stored and seen[1].used_source != report.used_source:
        series = longer(series, Series([*past.stored, live], seen[1]))
    if past.logged is not None:
        series = longer(series, Series([*past.logged, live], seen[1], SOURCE, past.log_summary, past.log_notes))
        if series.origin != SOURCE:
            notes.append(f"{past.log_summary}: the stored samples reach as far back, and are used")
    return series, notes


def with_past(snap: Snapshot, report: DriveReport, past: Past, level: float, now: datetime,
              seen: tuple[Snapshot, DriveReport] | None) -> DriveReport:
    """The report with the windowed projection over its drive's past (the series choose_series picks), unless a
    window measured since `start` stands, and every projection's calendar dates, at the duty cycle of that series
    where it measures one."""
    if DriveId.of(snap).key is None:
        return with_dates(report, now, None)
    series, notes = choose_series(snap, report, past, now, seen)
    if report.measured_window:  # a timed window stands (the log's own report does not know it)
        report = replace(report, notes=report.notes + tuple(notes))
    else:
        report = with_windowed(report, series_windowed(series, level, now), notes)
    return with_dates(report, now, series)

