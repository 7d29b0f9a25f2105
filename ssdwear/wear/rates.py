"""Pure wear maths: rates and the years they leave, with their intervals. No I/O; no clock.

A *rate* is percent of rated endurance per (power-on) year, with an interval. Two kinds:
- the Intel timed workload (E2h over E4h power-on minutes): its interval is the counter's resolution, one E2h
  step either side (how well the window stands for the real workload is the user's statement, --represents);
  a window of 30 days or more also carries the calibrated range of the drift of real workloads;
- everything else comes from forecast.py: a central rate with a prediction interval calibrated on real drives.
Both become a Projection here, with the trend when a recent rate and the lifetime average disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

from ssdwear.model.records import E2H_STEPS_PER_PERCENT, MINUTES_PER_YEAR, Projection, Trend
from ssdwear.model.units import human_years

from .forecast import HOURS_PER_YEAR, RateForecast, Reading, clean, long_multipliers, rate_forecast


@dataclass(frozen=True)
class Rate:
    """Wear rate in percent of rated endurance per year, with its interval."""

    per_year: float  # central estimate (0 when no wear was seen)
    low: float  # lowest rate the interval allows (0 = possibly no wear at all)
    high: float  # highest rate the interval allows

    @classmethod
    def from_forecast(cls, fc: RateForecast) -> Rate:
        return cls(fc.central * HOURS_PER_YEAR, fc.low * HOURS_PER_YEAR, fc.high * HOURS_PER_YEAR)


def timed_workload_rate(e2h_steps: int, window_minutes: float, represents_minutes: float | None = None) -> Rate:
    """Rate from Intel's timed workload: E2h (1/1024 %) worn during a window of E4h power-on minutes.

    `represents_minutes` is the real time the window stands for (the seed's 60-minute loop = 1 day);
    by default the window stands for itself. E2h counts whole steps and neither its rounding nor the
    phase of the first step is documented, so the true wear lies within one step either side.
    """
    if window_minutes <= 0:
        raise ValueError("window_minutes must be positive")
    span = represents_minutes if represents_minutes else window_minutes
    scale = MINUTES_PER_YEAR / span / E2H_STEPS_PER_PERCENT
    return Rate(per_year=e2h_steps * scale, low=max(e2h_steps - 1, 0) * scale, high=(e2h_steps + 1) * scale)


# A timed window at least this long (power-on minutes) is a stretch of the drive's own history, like the
# readings the forecast was calibrated on (their spans: 56 h to years, 99 % of them 562 h or more, median 6,812 h;
# bench/calibrate.py's multi-reading cases), so it carries their calibrated range of how far the future rate
# strays from the past one. Shorter windows (the seed's hour, a day's measure) keep the counter's resolution.
LONG_WINDOW_MINUTES = 30 * 24 * 60


def calibrated_window_rate(rate: Rate, used_percent: float, e2h_steps: int, interface: str, level: float
                           ) -> tuple[Rate, str]:
    """A long timed window's rate with the calibrated long-horizon range of its class around it (never narrower
    than the counter's resolution), and the class."""
    lo, hi, cls = long_multipliers(used_percent, float(e2h_steps), interface, level)
    return Rate(rate.per_year, min(rate.low, rate.per_year * lo), max(rate.high, rate.per_year * hi)), cls


def years_left(percent_left: float, per_year: float) -> float | None:
    """Years until `percent_left` more percent are worn at `per_year`; 0 when nothing is left; None = unbounded."""
    if percent_left <= 0:
        return 0.0
    if per_year <= 0:
        return None
    return percent_left / per_year


def rate_projection(rate: Rate, used_percent: float | None, method: str, basis: str, level: float | None,
            rates: Mapping[str, float] | None = None, trend: Trend | None = None,
            wear_class: str | None = None) -> Projection:
    """Years for a new drive (100 / rate) and years remaining ((100 - used) / rate), each with its interval:
    the high rate gives the low years, the low rate the high years."""
    left = None if used_percent is None else max(100.0 - used_percent, 0.0)
    return Projection(
        method=method, basis=basis,
        percent_per_year=rate.per_year, percent_per_year_low=rate.low, percent_per_year_high=rate.high,
        years_remaining=None if left is None else years_left(left, rate.per_year),
        years_remaining_low=None if left is None else years_left(left, rate.high),
        years_remaining_high=None if left is None else years_left(left, rate.low),
        years_new_drive=years_left(100.0, rate.per_year),
        years_new_drive_low=years_left(100.0, rate.high),
        years_new_drive_high=years_left(100.0, rate.low),
        interval_level=level, rates=dict(rates or {}), trend=trend, wear_class=wear_class,
    )


def forecast_rates(fc: RateForecast) -> dict[str, float]:
    """The rates a forecast weighed, percent per year: what the JSON's `projection.rates` shows."""
    out = {"lifetime": fc.lifetime * HOURS_PER_YEAR}
    if fc.recent is not None:
        out["recent"] = fc.recent * HOURS_PER_YEAR
    if fc.write_calibrated is not None:
        out["write_calibrated"] = fc.write_calibrated * HOURS_PER_YEAR
    return out


def trend(recent: Rate, lifetime: Rate, used_percent: float | None) -> Trend | None:
    """Wear speeding up (or slowing down): the recent rate's interval lies wholly above (below) the lifetime
    average's. None when they overlap, or when the lifetime indicator is unknown or still 0 (then it says only
    that less than one step has worn, and its interval is the population's, not the drive's)."""
    if used_percent is None or used_percent <= 0:
        return None
    if recent.low > lifetime.high:
        direction = "speeding up"
    elif recent.high < lifetime.low:
        direction = "slowing down"
    else:
        return None
    left = max(100.0 - used_percent, 0.0)
    if left <= 0:
        return None  # nothing left to run out faster or slower
    at_recent, at_lifetime = years_left(left, recent.per_year), years_left(left, lifetime.per_year)

    def years(y: float | None) -> str:
        return "no end in sight" if y is None else f"{human_years(y)} years"

    return Trend(direction, at_recent, at_lifetime,
                 f"wear {direction}: {years(at_recent)} at the recent rate, {years(at_lifetime)} at the lifetime rate")


def forecast_projection(readings: Sequence[Reading], step: float, interface: str, method: str, basis: str,
                        level: float, used_percent: float | None = None) -> Projection | None:
    """The calibrated projection from one drive's readings of one indicator (forecast.py), with the trend when
    several readings and the lifetime average disagree. `used_percent` defaults to the latest reading's.

    The one code path behind every projection but the timed window: `report` (one reading, or the stored
    history), `analyze` (saved outputs), `check`, `retire-check`, Prometheus, and bench/backtest.py.
    """
    fc = rate_forecast(readings, step, interface, level)
    if fc is None:
        return None
    latest = clean(readings)[-1]
    used = latest.used_percent if used_percent is None else used_percent
    found = None
    if fc.mode == "multi":
        lifetime = rate_forecast([latest], step, interface, level)
        if lifetime is not None:
            found = trend(Rate.from_forecast(fc), Rate.from_forecast(lifetime), used)
    method = method if fc.mode == "multi" else "lifetime-average"
    return rate_projection(Rate.from_forecast(fc), used, method, f"{basis}: {central_words(fc, latest, step)}",
                           level, forecast_rates(fc), found, fc.wear_class)


def central_words(fc: RateForecast, latest: Reading, step: float) -> str:
    """What a calibrated projection's central rate is, for its basis line: the lifetime rate as read, the rate
    the readings give, and the class's calibrated median ratio that turns it into the central figure."""
    def per_year(rate: float) -> str:  # three significant digits, trailing zeros kept: 2.20
        return f"{rate * HOURS_PER_YEAR:#.3g}".rstrip(".")

    u, hours = latest.used_percent, latest.power_on_hours
    read = f"lifetime {per_year(u / hours)} %/year as read" if u > 0 else \
        f"{u:g} % so far, under one step ({step:g} %)"
    if fc.mode == "single":
        rate = (f"{per_year(fc.base)} at the step's midpoint ({u + step / 2:.4g} %)" if u > 0 else
                f"{per_year(fc.base)} %/year at half a step, shrunk towards the population's")
    else:
        anchor = "lifetime" if fc.write_calibrated is None or (fc.write_calibrated <= 0 and fc.moved_steps > 0) \
            else "write-calibrated"
        other = fc.lifetime if anchor == "lifetime" else fc.write_calibrated or 0.0
        rate = (f"the readings' {per_year(fc.base)} (recent {per_year(fc.recent or 0.0)} weighed "
                f"{fc.weight_recent * 100:.0f} % against {anchor} {per_year(other)})")
    if fc.base <= 0:
        return f"{read}; {rate}: central 0"
    return (f"{read}; {rate}; central {per_year(fc.central)} = {fc.central / fc.base:.3g} x that, the calibrated "
            f"median of its class ({fc.wear_class})")


# ------------------------------------------------------------------------------------------------
# A finer counter of the same wear


FINE_STEP = 1 / E2H_STEPS_PER_PERCENT  # Intel E2h: 1/1024 %


def same_wear(fine_percent: float, coarse_percent: float, coarse_step: float) -> bool:
    """A finer counter counts the same wear as a whole-step indicator when it lies within that indicator's step
    of it (E2h of a timer never reset beside Device Statistics' whole percent)."""
    return coarse_step > FINE_STEP and abs(fine_percent - coarse_percent) <= coarse_step


class Point(NamedTuple):
    """One reading of a drive: its whole-step indicator and, where it has one, a finer counter (percent)."""

    power_on_hours: float
    used_percent: float
    step: float
    fine_percent: float | None
    host_bytes_written: float | None


def finer_readings(points: Sequence[Point]) -> list[Reading] | None:
    """The readings of the finer counter when every point has one that counts the same wear as its indicator
    (same_wear) and it never went back: its movement is the recent rate, at its own resolution (forecast.py then
    weighs it far above the write-calibrated rate: one 1/1024 % step is worth k x step / W hours). None when the
    points offer no such counter."""
    ordered = sorted(points, key=lambda p: p.power_on_hours)
    if len(ordered) < 2 or any(p.fine_percent is None or not same_wear(p.fine_percent, p.used_percent, p.step)
                               for p in ordered):
        return None
    fine = [float(p.fine_percent or 0.0) for p in ordered]
    if any(b < a for a, b in pairwise(fine)):
        return None
    return [Reading(p.power_on_hours, f, p.host_bytes_written) for p, f in zip(ordered, fine, strict=True)]
