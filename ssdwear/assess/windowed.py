"""The one windowed projection over several readings of one drive, whatever they come from: saved smartctl outputs
(series.py), stored samples (history.py) or any other series of readings. Pure: no I/O, no clock.

The rules, one home each:
- a timed window the newest reading measured since a reset stands: readings never replace it;
- the rate is the drive's wear indicator now (the newest report's), over the readings of that same indicator
  (known power-on hours, not saturated); without one, or with a saturated one, host bytes written against the
  rated endurance stand in for it; a finer counter of the same wear (Intel E2h never reset) replaces the indicator
  where every reading has it (wear.finer_readings); else a wear counter on every reading (media writes, erase
  cycles: drives/fine.py) times its wear per unit is the indicator read finer (`used_fine_percent`), its recent
  rate spread as its class was calibrated (wear/fine.fine_forecast);
- readings too early, fewer than two distinct ones, or less than the calibrated span give no rate: the lifetime
  average of the newest reading stands;
- the projection is the calibrated forecast (wear.forecast_projection), its years left from the wear the newest
  report shows; host writes a wall-clock day need readings dated on both ends.
What changes with the kind of readings is only how it is said: a series the user joined (`readings`: saved
outputs) gets a window that says why it gives no rate; the history (`history`), read for every drive, a note.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import pairwise
from typing import Literal

from ssdwear.drives.fine import WEAR_KINDS
from ssdwear.drives.timed import E2H_LIFETIME_SOURCE, LIFETIME_SOURCES
from ssdwear.model.counts import count_text
from ssdwear.model.records import E2H_STEPS_PER_PERCENT, DriveReport, FineWear, Projection, Window, WindowState
from ssdwear.model.units import hours_text, time_text
from ssdwear.wear import fine
from ssdwear.wear import rates as wear
from ssdwear.wear.forecast import Reading, calibration, clean, rate_forecast, too_early

from .fine_wear import as_wear

SeriesKind = Literal["readings", "history"]
# The byte counters resolve a sector; as a share of a rating that is the step of a TBW-based indicator.
SECTOR_BYTES = 512


@dataclass(frozen=True)
class DriveReading:
    """One reading of one drive, from any source: what a windowed projection needs of it."""

    power_on_hours: float | None  # None when unknown or not plausible: such a reading gives no rate
    used_percent: float | None
    used_source: str | None  # the wear indicator read (drives/indicators.py's source names)
    used_at_least: bool = False  # a saturated indicator: the true wear is this or more
    fine_percent: float | None = None  # a finer counter of lifetime wear (drives/timed.py lifetime_e2h_percent)
    host_bytes_written: float | None = None
    nand_bytes_written: float | None = None
    at: datetime | None = None  # the wall-clock time of the reading, where known
    name: str | None = None  # what the reading is called (a saved output's file name)
    counter_source: str | None = None  # the drive's best finer counter (DriveReport.counters[0]) and its count
    counter: float | None = None


@dataclass(frozen=True)
class Windowed:
    """What the readings add to the newest report: a window (valid, or for `readings` why there is none), its
    projection, notes and the trend's warning, the readings it rests on (0: the report's own), host writes a day."""

    window: Window | None = None
    projection: Projection | None = None
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    readings: int = 0
    host_bytes_per_day: float | None = None
    fine: FineWear | None = None  # used_fine_percent, where the readings together pin the wear per unit finer


@dataclass(frozen=True)
class _Counter:
    name: str  # the source the rate comes from
    readings: list[Reading]
    step: float
    finer: bool = False  # a finer counter of the indicator's wear
    rated: bool = False  # host bytes written against the rating
    per_unit: fine.PerUnit | None = None  # a wear counter's wear per unit: the readings are used_fine_percent
    counted: str = ""  # that counter
    indicator_step: float = 1.0  # the indicator's step the wear per unit was calibrated against


def _fine_counter(same: Sequence[DriveReading], latest: DriveReport, step: float) -> _Counter | None:
    """The readings as used_fine_percent: the drive's wear counter (media writes, erase cycles) on every reading of
    its indicator, never going back, times its wear per unit (the drive's rating, else every reading's step
    intersected: wear/fine.py); None where it has none, or the indicator still reads 0 (no lower bound)."""
    wear_counter = next((c for c in latest.counters if c.kind in WEAR_KINDS), None)
    if wear_counter is None or len(same) < 2 or latest.used_source in LIFETIME_SOURCES:  # E2h: the gold standard
        return None
    ordered = sorted(same, key=lambda r: r.power_on_hours or 0.0)
    counts = [r.counter for r in ordered if r.counter_source == wear_counter.source and r.counter is not None]
    if len(counts) != len(ordered) or any(b < a for a, b in pairwise(counts)):
        return None
    rated = latest.fine is not None and latest.fine.calibration == "rated" and wear_counter.rated
    per_unit = fine.rated(wear_counter.rated or 0, wear_counter.rated_detail) if rated else \
        fine.lifetime([fine.Point(c, r.used_percent or 0.0, step) for c, r in zip(counts, ordered, strict=True)])
    if per_unit is None or not per_unit.calibrated:
        return None
    readings = [Reading(r.power_on_hours or 0.0, c * per_unit.mid, r.host_bytes_written)
                for c, r in zip(counts, ordered, strict=True)]
    return _Counter(f"used_fine_percent ({wear_counter.source})", readings, per_unit.mid, finer=True,
                    per_unit=per_unit, counted=wear_counter.source, indicator_step=step)


def _readings_fine(counter: _Counter | None, latest: DriveReport) -> FineWear | None:
    """The newest report's used_fine_percent from the wear per unit its readings' steps pinned together (one
    reading alone is no finer than its indicator), where the report has no figure of its own."""
    if counter is None or counter.per_unit is None or counter.per_unit.basis != "readings" or \
            (latest.fine is not None and latest.fine.percent is not None):
        return None
    wear_counter = next((c for c in latest.counters if c.source == counter.counted), None)
    if wear_counter is None:
        return None
    found = as_wear(wear_counter, counter.per_unit, counter.indicator_step,
                    f"wear per unit from {counter.per_unit.detail}")
    used = latest.used_percent
    if found.percent is None or found.low is None or found.high is None or used is None:
        return None
    # calibrated from the indicator, the figure lies within its step (the readings' slack aside)
    top = used + counter.indicator_step
    return replace(found, percent=min(max(found.percent, used), top), low=min(max(found.low, used), top),
                   high=max(min(found.high, top), used))


def _counter(readings: Sequence[DriveReading], latest: DriveReport) -> _Counter | None:
    """The counter the rate comes from: the indicator now (or its finer counter), else writes against the rating."""
    source = None if latest.used_at_least else latest.used_source
    rated = latest.writes.rated_bytes
    if source is not None:
        step = latest.used_step or 1.0
        same = [r for r in readings if r.used_source == source and not r.used_at_least
                and r.used_percent is not None and r.power_on_hours is not None]
        e2h = wear.finer_readings([wear.Point(r.power_on_hours or 0.0, r.used_percent or 0.0, step, r.fine_percent,
                                              r.host_bytes_written) for r in same])
        if e2h is not None:
            lifetime = source if source in LIFETIME_SOURCES else E2H_LIFETIME_SOURCE  # (the family's E2h)
            return _Counter(lifetime, e2h, wear.FINE_STEP, finer=True)
        counted = _fine_counter(same, latest, step)
        if counted is not None:
            return counted
        return _Counter(source, [Reading(r.power_on_hours or 0.0, r.used_percent or 0.0, r.host_bytes_written)
                                 for r in same], step)
    if rated:
        return _Counter("host_bytes_written", [Reading(r.power_on_hours, r.host_bytes_written / rated * 100,
                                                       r.host_bytes_written) for r in readings
                                               if r.host_bytes_written is not None and r.power_on_hours is not None],
                        SECTOR_BYTES / rated * 100, rated=True)
    return None


def _hours(a: datetime, b: datetime) -> float:
    return (b - a).total_seconds() / 3600


def host_bytes_per_day(readings: Sequence[DriveReading]) -> float | None:
    """Host bytes written a wall-clock day from the first reading to the last, when both are dated and they span
    what a wear rate needs, in power-on hours and on the wall clock alike (samples seconds apart made petabytes a
    day)."""
    if not readings:
        return None
    first, last = readings[0], readings[-1]
    if first.host_bytes_written is None or last.host_bytes_written is None or first.power_on_hours is None \
            or last.power_on_hours is None or first.at is None or last.at is None:
        return None
    wall = _hours(first.at, last.at)
    if not (calibration().spans(wall) and calibration().spans(last.power_on_hours - first.power_on_hours)):
        return None
    return (last.host_bytes_written - first.host_bytes_written) / wall * 24


def _write_amplification(readings: Sequence[DriveReading]) -> float | None:
    first, last = readings[0], readings[-1]
    n0, n1, h0, h1 = first.nand_bytes_written, last.nand_bytes_written, first.host_bytes_written, \
        last.host_bytes_written
    if n0 is None or n1 is None or h0 is None or h1 is None or h1 == h0:
        return None
    return (n1 - n0) / (h1 - h0)


def windowed_projection(readings: Sequence[DriveReading], latest: DriveReport, kind: SeriesKind, level: float,
                        origin: str | None = None) -> Windowed:
    """The calibrated projection over `readings` (of one drive, in power-on order, the newest last), whose newest
    report is `latest`; or why they give none (see the module's rules). `kind` words it; `origin` names where a
    history's readings come from ('history': the stored samples, 'smartd:attrlog') in its notes and method."""
    words = _Words(kind, readings, origin or kind)
    if latest.measured_window:
        return Windowed(readings=words.joined)
    per_day = host_bytes_per_day(readings)
    counter = _counter(readings, latest)
    distinct = clean(counter.readings) if counter is not None else []
    span = distinct[-1].power_on_hours - distinct[0].power_on_hours if distinct else 0.0
    why = None
    if counter is None:
        why = words.no_counter()
    elif (early := too_early(distinct)) is not None:
        why = early
    elif len(distinct) < 2 or not calibration().spans(span):
        why = words.too_few(counter.name, len(distinct), span)
    if why is not None:
        return words.refused(why, per_day)
    assert counter is not None
    moved = distinct[-1].used_percent - distinct[0].used_percent
    used = None if counter.rated else latest.used_percent
    basis = words.basis(counter, moved, span, distinct, latest)
    if counter.per_unit is not None:
        projection = _fine_projection(distinct, counter.per_unit, f"{words.origin}:used_fine_percent", basis, level,
                                      latest)
    else:
        projection = wear.forecast_projection(distinct, counter.step, latest.interface,
                                              f"{words.origin}:{counter.name}", basis, level, used)
    notes = []
    wa = _write_amplification(readings) if readings else None
    if wa is not None:
        notes.append(words.note(f"write amplification {wa:.2f} over the series (NAND / host bytes written)"))
    window = Window(kind=kind, state=WindowState.VALID, reason=words.reason(counter.name, span, distinct),
                    minutes=span * 60,
                    wear_percent=moved, counter=counter.name)
    trend = (projection.trend.text,) if projection is not None and projection.trend is not None else ()
    return Windowed(window, projection, tuple(notes), trend, len(distinct), per_day, _readings_fine(counter, latest))


def _fine_projection(distinct: Sequence[Reading], per_unit: fine.PerUnit, method: str, basis: str, level: float,
                     latest: DriveReport) -> Projection | None:
    """The recent rate of used_fine_percent with its class's calibrated spread (wear/fine.fine_forecast, what
    bench/backtest.py measures), the years from the wear the newest report shows."""
    fc = fine.fine_forecast(distinct, per_unit, level)
    if fc is None:
        return None
    rate = wear.Rate.from_forecast(fc)
    rates = wear.forecast_rates(fc)
    lifetime = rate_forecast([distinct[-1]], per_unit.mid, latest.interface, level)
    trend = wear.trend(rate, wear.Rate.from_forecast(lifetime), latest.used_percent) if lifetime else None
    return wear.rate_projection(rate, latest.used_percent, method, f"{basis}: recent {rate.per_year:#.3g} %/year "
                                f"(wear per unit {per_unit.basis}: {per_unit.low:.4g}-{per_unit.high:.4g} %)",
                                level, rates, trend, fc.wear_class)


class _Words:
    """How a windowed projection is said, by the kind of readings: the only thing that differs between them."""

    def __init__(self, kind: SeriesKind, readings: Sequence[DriveReading], origin: str) -> None:
        self.kind = kind
        self.origin = origin
        self.readings = readings
        self.names = ", ".join(r.name or "?" for r in readings)
        self.joined = len(readings) if kind == "readings" else 0  # saved outputs are joined, rate or not
        self.since = next((time_text(r.at, zone=False) for r in readings if r.at is not None), "?")

    def note(self, text: str) -> str:
        return f"{self.origin}: {text}" if self.kind == "history" else text

    def refused(self, why: str, per_day: float | None) -> Windowed:
        if self.kind == "history":
            return Windowed(notes=(self.note(why),), host_bytes_per_day=per_day)
        window = Window(kind="readings", state=WindowState.REFUSED,
                        reason=f"{len(self.readings)} readings ({self.names}): {why}")
        return Windowed(window, readings=self.joined, host_bytes_per_day=per_day)

    def no_counter(self) -> str:
        if self.kind == "history":
            return "no wear indicator and no rated writes to project from"
        return self.not_comparable()

    @staticmethod
    def not_comparable() -> str:
        return ("they share no wear indicator that is comparable across them (indicator saturated, different "
                "sources, or untrusted power-on hours)")

    def too_few(self, counter: str, distinct: int, span: float) -> str:
        if self.kind == "history":
            return (f"{count_text(distinct, 'distinct reading')} of {counter} over {span:,.1f} power-on hours since "
                    "the last break: less than a day, so the lifetime average stands")
        if distinct < 2:
            return self.not_comparable()
        return f"they span only {span:,.1f} power-on hours; the lifetime average stands"

    def reason(self, counter: str, span: float, distinct: Sequence[Reading]) -> str:
        if self.kind == "history":
            first, last = self.readings[0].at, self.readings[-1].at
            days = f" ({_hours(first, last) / 24:,.1f} wall-clock days)" if first is not None and last is not None \
                else ""
            return (f"{count_text(len(distinct), 'reading')} over {hours_text(span)}{days} since {self.since}; "
                    f"rate from {counter}")
        return (f"{count_text(len(distinct), 'reading')} of this drive from {distinct[0].power_on_hours:,.0f} to "
                f"{hours_text(distinct[-1].power_on_hours)} ({self.names}); rate from {counter}")

    def basis(self, counter: _Counter, moved: float, span: float, distinct: Sequence[Reading],
              latest: DriveReport) -> str:
        if self.kind == "history":
            what = "writes" if counter.rated else "endurance"
            return (f"{moved:.4g} % of rated {what} in {hours_text(span)} of history "
                    f"({count_text(len(distinct), 'reading')} since {self.since})")
        more = "more of its rated writes" if counter.rated else "more wear"
        finer = "" if not counter.finer else (f" (E2h, {moved * E2H_STEPS_PER_PERCENT:,.0f} steps of 1/1024 %, finer "
                                              f"than {latest.used_source})")
        if counter.per_unit is not None:
            finer = f" (its {counter.counted} counter, finer than {latest.used_source})"
        return f"{moved:.4g} % {more}{finer} in {hours_text(span)} across {len(distinct)} readings"


def with_windowed(report: DriveReport, result: Windowed, notes: Sequence[str] = ()) -> DriveReport:
    """The report with what its readings add (the one place a windowed projection joins a report): their window
    and projection where they give one (the report's own lifetime average where they do not), the readings it
    rests on, host writes a day, their notes (after `notes`) and the trend's warning."""
    writes = report.writes if result.host_bytes_per_day is None else \
        replace(report.writes, host_bytes_per_day=result.host_bytes_per_day)
    return replace(report, window=result.window or report.window, fine=result.fine or report.fine,
                   projection=result.projection or report.projection, readings=result.readings or report.readings,
                   writes=writes, notes=(*report.notes, *notes, *result.notes),
                   warnings=(*report.warnings, *result.warnings))
