"""The timed window on any SSD, without touching the drive: `start` stores a baseline of the drive's finer counter
and sends nothing; every later reading measures the window from it. Pure; the clock is passed in (Context.now).

wear in the window = delta counter x the drive's wear per unit (its own rating, else the whole-percent steps of
the baseline and of this reading, intersected) x the calibrated drift of a window's wear per unit (wear/fine.py),
over the window's time: the wall clock since the baseline, checked against the power-on hours (where the drive
counts its own power-on minutes at both ends, Micron's log E1h, the window's time is those minutes, checked against
the wall clock to POWER_SLACK_MINUTES). Those count whole
hours, so a window whose power-on hours fall more than POWER_SLACK_HOURS short of the wall clock had a power-off in
it: it is said, and the window's time is its power-on hours; a window whose drive was off for nearly all of it is
not valid. `--represents` applies as to Intel's windows. The one rule of the counter window, for `report`,
`status`, `measure`, `check` and `retire-check` alike (report.assess calls it; status reads the report's window),
and for saved outputs of one drive (`analyze`, `plan --from FILE`: series.py calls it) too short for the readings'
own rule: their first reading is the baseline and their clocks (smartctl's local_time) the wall clock.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import NamedTuple

from ssdwear.drives.indicators import indicator_step
from ssdwear.drives.vendor_logs import WAF_AGREE
from ssdwear.model.records import MINUTES_PER_YEAR, CounterReading, DriveReport, Projection, Sample, Window, WindowState
from ssdwear.model.units import hours_text, human_minutes, time_text
from ssdwear.wear import fine
from ssdwear.wear import rates as wear

from .context import Context
from .timed_window import REPRESENTS_SLACK, VALID_AFTER_MINUTES

# What a drive without Intel's timer and without a finer counter is told (start, status).
NO_FINER_COUNTER = ("it has no counter finer than its wear indicator for a counter window either: `ssdwear sample` "
                    "every hour builds the history that gives its rate")
POWER_SLACK_HOURS = 1.5  # power-on hours are whole hours, read at another moment than the wall clock
POWER_SLACK_MINUTES = 2  # the drive's own power-on minutes (log E1h): one minute each end
TRAILING_HOUR = (45.0, 75.0)  # a window this long (minutes) is compared with the drive's trailing-hour figure


class _Span(NamedTuple):
    minutes: float  # the window's time
    words: str
    warning: str | None


def with_counter_window(report: DriveReport, ctx: Context) -> DriveReport:
    """The report with the counter window since `start`'s baseline, where ssdwear stored one and no timed window
    was measured since a reset; its projection replaces the lifetime average once the window is valid."""
    base = ctx.window_start
    if base is None or ctx.now is None or not applies(report, base):
        return report
    window, projection, warnings = counter_window(report, base, ctx.now, ctx)
    return replace(report, window=window, projection=projection or report.projection,
                   warnings=(*report.warnings, *warnings))


def _refused(base: Sample, why: str, minutes: float | None = None, pending: bool = False,
             valid_in: float | None = None) -> Window:
    return Window(kind="counter", state=WindowState.NOT_YET if pending else WindowState.REFUSED, reason=why,
                  minutes=minutes, counter=base.counter_source, valid_in_minutes=valid_in, started_at=base.at)


def applies(report: DriveReport, base: Sample) -> bool:
    """Whether a counter window from `base` is this reading's to measure: a baseline with a counter, and no timed
    window measured since a reset (that stands)."""
    return not report.error and not report.measured_window and base.counter_source is not None


def counter_window(report: DriveReport, base: Sample, now: datetime, ctx: Context, since: str = ""
                   ) -> tuple[Window, Projection | None, list[str]]:
    """The window from `base` to this reading: valid, with its wear and range, or why not (yet). `since` says
    where the baseline came from (default: `start`'s, stored by ssdwear)."""
    wall = (now - base.at).total_seconds() / 60
    started = since or since_words(base)
    since = since or f"since ssdwear stored its baseline at {time_text(base.at)}"
    counter = next((c for c in report.counters if c.source == base.counter_source), None)
    if counter is None:
        return _refused(base, f"not valid: this reading has no {base.counter_source}, the counter the baseline holds "
                              f"({since})"), None, []
    if wall < 0:
        return _refused(base, f"not valid: the baseline is dated after now ({since}): the clock went back"), None, []
    if wall < VALID_AFTER_MINUTES:
        return _refused(base, f"not valid yet: {wall:,.0f} of {VALID_AFTER_MINUTES} minutes {since}; valid in "
                              f"{VALID_AFTER_MINUTES - wall:,.0f} more minutes", wall, True,
                        VALID_AFTER_MINUTES - wall), None, []
    delta = counter.value - (base.counter or 0)
    if delta < 0:
        return _refused(base, f"not valid: {counter.source} went back from {base.counter:,} to {counter.value:,} "
                              f"{since} (a counter reset, or another drive)"), None, []
    span = _span(report, base, wall)
    if span.minutes <= 0:
        return _refused(base, f"not valid: {span.words}", wall), None, []
    per_unit = _per_unit(report, counter, base)
    if per_unit is None:
        return _refused(base, "not valid: the counter's wear per unit cannot be calibrated (no wear indicator beside "
                              "it, or it does not count the indicator's wear)", span.minutes), None, []
    return _measured(report, base, counter, delta, span, per_unit, ctx, started)


def _base_minutes(report: DriveReport, base: Sample) -> int | None:
    """The baseline's power-on minutes where both ends count them (log E1h): this reading gives its minutes and the
    baseline's stored hours have a fraction of whole minutes (smartctl's NVMe hours are whole; a baseline that fell
    on a whole hour is read in hours, the coarser way)."""
    if report.power_on_minutes is None or base.power_on_hours is None:
        return None
    minutes = base.power_on_hours * 60
    whole = round(minutes)
    return whole if abs(minutes - whole) < 1e-6 and whole % 60 else None


def _minute_span(report: DriveReport, base_minutes: int, wall: float) -> _Span:
    """The window's time on the drive's own power-on minutes (log E1h): the time base the drive attests."""
    on = (report.power_on_minutes or 0) - base_minutes
    drive = f"{human_minutes(on)} of the drive's own power-on time (log E1h)"
    if on < wall - POWER_SLACK_MINUTES:
        if on < VALID_AFTER_MINUTES:  # as the hour rule: under an hour on, the window is too short to stand
            return _Span(0.0, f"the drive was powered on for less than {VALID_AFTER_MINUTES} minutes of the window: "
                              f"{human_minutes(wall)} of wall-clock time, {drive}", None)
        return _Span(on, f"{drive} (a power-off in the window: {human_minutes(wall)} of wall-clock time)",
                     f"power-off in the counter window: {drive} in {human_minutes(wall)} of wall-clock time; the "
                     "window's time is the drive's power-on minutes")
    if on > wall + POWER_SLACK_MINUTES:
        return _Span(on, f"{drive} (the wall clock shows only {human_minutes(wall)}: it was set back)",
                     f"the wall clock shows {human_minutes(wall)} since the window's baseline but the drive counted "
                     f"{drive}; the window's time is the drive's power-on minutes")
    return _Span(on, f"{drive}, {human_minutes(wall)} of wall-clock time: no power-off", None)


def _span(report: DriveReport, base: Sample, wall: float) -> _Span:
    """The window's time, and what the power-on hours (or the drive's own minutes) say about it."""
    base_minutes = _base_minutes(report, base)
    if base_minutes is not None:
        return _minute_span(report, base_minutes, wall)
    if report.power_on_hours is None or base.power_on_hours is None:
        return _Span(wall, f"{human_minutes(wall)} of wall-clock time (no power-on hours to check it against)", None)
    on = report.power_on_hours - base.power_on_hours
    hours = wall / 60
    if on < hours - POWER_SLACK_HOURS:
        if on < 1:
            return _Span(0.0, f"the drive was powered off for nearly all of the window: {human_minutes(wall)} of "
                              f"wall-clock time, {hours_text(on)}", None)
        return _Span(on * 60, f"{hours_text(on)} (a power-off in the window: {human_minutes(wall)} of "
                              "wall-clock time)",
                     f"power-off in the counter window: {hours_text(on)} in {human_minutes(wall)} of "
                     "wall-clock time; the window's time is its power-on hours (whole hours: one either way)")
    if on > hours + POWER_SLACK_HOURS:
        said = (f"the wall clock shows {human_minutes(wall)} since the window's baseline but the drive counted "
                f"{hours_text(on)}; the window's time is its power-on hours")
        return _Span(on * 60, f"{hours_text(on)} (the wall clock shows only {human_minutes(wall)}: it was "
                              "set back)", said)
    return _Span(wall, f"{human_minutes(wall)} of wall-clock time ({hours_text(on)}: no power-off)", None)


def _per_unit(report: DriveReport, counter: CounterReading, base: Sample) -> fine.PerUnit | None:
    """The drive's rating of the counter (where the fine indicator rests on it), else the whole-percent steps of
    the baseline and of this reading, intersected."""
    if report.fine is not None and report.fine.source == counter.source and report.fine.calibration == "rated" \
            and counter.rated:
        return fine.rated(counter.rated, counter.rated_detail)
    if report.used_percent is None or report.used_at_least or report.used_source is None:
        return None
    step = report.used_step or 1.0
    points = [fine.Point(counter.value, report.used_percent, step)]
    if base.used_source == report.used_source and base.used_percent is not None and base.counter:
        points.append(fine.Point(base.counter, base.used_percent, indicator_step(base.used_source)))
    return fine.lifetime(points)


def _represents(ctx: Context, minutes: float) -> tuple[float, float | None, str | None]:
    """The time the window stands for (--represents, where the window is no longer), and why it was not applied."""
    given = ctx.represents_minutes
    if not given:
        return minutes, None, None
    if minutes > given * (1 + REPRESENTS_SLACK):
        return minutes, None, (f"--represents {human_minutes(given)} not applied: the counter window "
                               f"({human_minutes(minutes)}) is longer than the time it would stand for; projected as "
                               "itself")
    return given, given, None


def _measured(report: DriveReport, base: Sample, counter: CounterReading, delta: int, span: _Span,
              per_unit: fine.PerUnit, ctx: Context, since: str) -> tuple[Window, Projection, list[str]]:
    level = ctx.interval_level
    worn = fine.window_wear(delta, per_unit, counter.kind, level)
    stands, represents, not_applied = _represents(ctx, span.minutes)
    scale = MINUTES_PER_YEAR / stands
    rate = wear.Rate(worn.central * scale, worn.low * scale, worn.high * scale)
    moved = f"{counter.source} +{counter.amount(delta)} x {per_unit.mid:.4g} % per unit ({per_unit.basis})"
    drift = "host writes, which do not see write amplification" if counter.kind == "host" else "media writes"
    standing = f", standing for {human_minutes(represents)} of real time" if represents else ""
    basis = (f"{moved} in {span.words}{standing}: {worn.central:.4g} % ({worn.low:.4g}-{worn.high:.4g} %) worn; "
             f"range: the counter's steps, the wear per unit's range and the calibrated drift of {drift}")
    rates = {"window": rate.per_year}
    trend = None
    lifetime = report.projection
    if lifetime is not None and lifetime.percent_per_year is not None and report.used_percent is not None:
        rates["lifetime"] = lifetime.percent_per_year
        trend = wear.trend(rate, wear.Rate(lifetime.percent_per_year, lifetime.percent_per_year_low or 0.0,
                                           lifetime.percent_per_year_high or 0.0), report.used_percent)
    projection = wear.rate_projection(rate, report.used_percent, f"window:{counter.source}", basis, level, rates,
                                      trend, f"window|{counter.kind}")
    amplification, checked = _amplification(report, base, span.minutes)
    window = Window(kind="counter", state=WindowState.VALID, reason=f"counter window {since}: {span.words}",
                    minutes=span.minutes, wear_percent=worn.central, represents_minutes=represents,
                    counter=counter.source, wear_percent_low=worn.low, wear_percent_high=worn.high,
                    counter_delta=delta, started_at=base.at, write_amplification=amplification)
    warnings = [w for w in (span.warning, not_applied, trend.text if trend else None, checked) if w]
    return window, projection, warnings


def _amplification(report: DriveReport, base: Sample, minutes: float) -> tuple[float | None, str | None]:
    """The window's NAND over host bytes, where both ends count both; on a window of about an hour, a warning when
    it disagrees with the drive's own trailing-hour figure (WDC log D0h) by more than WAF_AGREE."""
    w = report.writes
    if None in (w.nand_bytes_written, w.host_bytes_written, base.nand_bytes_written, base.host_bytes_written):
        return None, None
    host = (w.host_bytes_written or 0) - (base.host_bytes_written or 0)
    nand = (w.nand_bytes_written or 0) - (base.nand_bytes_written or 0)
    if host <= 0 or nand < 0:
        return None, None
    own, drives = nand / host, w.drive_write_amplification_hour
    if drives is None or not drives > 0 or not TRAILING_HOUR[0] <= minutes <= TRAILING_HOUR[1] or \
            abs(own / drives - 1) <= WAF_AGREE:
        return own, None
    return own, (f"the counter window's write amplification ({human_minutes(minutes)}: NAND over host bytes) is "
                 f"{own:.2f}, the drive's own trailing-hour figure (log D0h) {drives:.2f}: they disagree by more "
                 f"than {WAF_AGREE:.0%}")


def since_words(base: Sample) -> str:
    return f"since {time_text(base.at)}"
