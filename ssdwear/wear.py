"""Pure wear maths: rates, projections and their bounds. No I/O; no clock (time comes in as numbers).

A *rate* is percent of rated endurance per year. Every rate carries a range that follows from the
resolution of the counter it came from (and, for fits over many samples, from their scatter):
a counter that moves in whole steps cannot say more than one step finer than it counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from .model import E2H_STEPS_PER_PERCENT, MINUTES_PER_YEAR, Projection

HOURS_PER_YEAR = MINUTES_PER_YEAR / 60  # 8760


@dataclass(frozen=True)
class Rate:
    """Wear rate in percent of rated endurance per year, with its range."""

    per_year: float  # central estimate (0 when no wear was seen)
    low: float  # lowest rate the readings allow (0 = possibly no wear at all)
    high: float  # highest rate the readings allow


def timed_workload_rate(e2h_steps: int, window_minutes: float, represents_minutes: Optional[float] = None) -> Rate:
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


def delta_rate(delta: float, step: float, elapsed_hours: float) -> Rate:
    """Rate from the change `delta` (percent) of an indicator that moves in `step` percent, over `elapsed_hours`.

    Each of the two readings may sit anywhere within its step, so the true change lies within
    (delta - step, delta + step).
    """
    if elapsed_hours <= 0:
        raise ValueError("elapsed_hours must be positive")
    per_hour = 1.0 / elapsed_hours
    delta = max(delta, 0.0)
    return Rate(
        per_year=delta * per_hour * HOURS_PER_YEAR,
        low=max(delta - step, 0.0) * per_hour * HOURS_PER_YEAR,
        high=(delta + step) * per_hour * HOURS_PER_YEAR,
    )


def fit_rate(hours: Sequence[float], values: Sequence[float], step: float) -> Rate:
    """Least-squares rate over many readings (hours, percent), bounded by resolution and scatter.

    The range is the wider of: the two-reading resolution bound over the whole span, and the slope's
    95 % interval (±2 standard errors) when there are enough points to estimate one.
    """
    n = len(hours)
    if n != len(values) or n < 2:
        raise ValueError("need at least two readings")
    span = hours[-1] - hours[0]
    if span <= 0:
        raise ValueError("readings must span positive time")
    mean_h = sum(hours) / n
    mean_v = sum(values) / n
    sxx = sum((h - mean_h) ** 2 for h in hours)
    sxy = sum((h - mean_h) * (v - mean_v) for h, v in zip(hours, values))
    slope = max(sxy / sxx, 0.0)  # percent per hour; wear never runs backwards
    resolution = delta_rate(slope * span, step, span)
    low, high = resolution.low, resolution.high
    if n > 2:
        residual = sum((v - (mean_v + slope * (h - mean_h))) ** 2 for h, v in zip(hours, values))
        stderr = math.sqrt(residual / (n - 2) / sxx) * HOURS_PER_YEAR
        low = min(low, max(slope * HOURS_PER_YEAR - 2 * stderr, 0.0))
        high = max(high, slope * HOURS_PER_YEAR + 2 * stderr)
    return Rate(per_year=slope * HOURS_PER_YEAR, low=low, high=high)


def _years(percent_left: float, rate: float) -> Optional[float]:
    if rate <= 0:
        return None
    return percent_left / rate


def project(rate: Rate, used_percent: Optional[float], method: str, basis: str = "") -> Projection:
    """Years for a new drive (100 / rate) and years remaining ((100 - used) / rate), with their range.

    The range bounds years_remaining when the lifetime wear is known, else years_new_drive. With no
    wear seen (rate 0) the central figures are None and years_low is a lower bound.
    """
    left = None if used_percent is None else max(100.0 - used_percent, 0.0)
    bounded = 100.0 if left is None else left
    return Projection(
        percent_per_year=rate.per_year,
        years_new_drive=_years(100.0, rate.per_year),
        years_remaining=None if left is None else (0.0 if left == 0 else _years(left, rate.per_year)),
        years_low=0.0 if bounded == 0 else _years(bounded, rate.high),
        years_high=0.0 if bounded == 0 else _years(bounded, rate.low),
        bounds_of="years_new_drive" if left is None else "years_remaining",
        method=method,
        basis=basis,
        years_new_drive_low=_years(100.0, rate.high),
        years_new_drive_high=_years(100.0, rate.low),
    )


def bytes_rate_projection(written: int, rated: int, bytes_per_hour_low: float, bytes_per_hour: float,
                          bytes_per_hour_high: float, method: str, basis: str = "") -> Projection:
    """Years until `rated` bytes (TBW) are written, at a write rate in bytes per (power-on) hour."""
    percent_per_year = bytes_per_hour * HOURS_PER_YEAR / rated * 100
    rate = Rate(per_year=percent_per_year,
                low=bytes_per_hour_low * HOURS_PER_YEAR / rated * 100,
                high=bytes_per_hour_high * HOURS_PER_YEAR / rated * 100)
    return project(rate, written / rated * 100, method, basis)
