"""Wear from a counter finer than the whole-percent indicator: the wear per unit of the counter, the fine wear
indicator it gives, and the wear in a window between two readings of it, each with its range. Pure; no clock.

Wear per unit (percent of rated endurance per counter unit) comes, in order of trust:
- from the drive's own rating of the counter: 100 / the rated erase count (Silicon Motion 168, Indilinx 205), or
  100 / the endurance estimate of an NVMe Endurance Group or OCP log for its media writes;
- from the drive's lifetime: a whole-percent indicator reading u floors the true wear, which lies in [u, u + step),
  so one reading puts the wear per unit in [u / C, (u + step) / C] (C the counter then); several readings of the
  same drive narrow it to the intersection of theirs (a reading just before a tick and one just after pin it).
  An empty intersection means the counter does not count the indicator's wear: no figure (the caller warns).
A counter rated by the drive is cross-checked against the indicator: outside [u - tol, u + step + tol] (tol the
larger of one step and 10 % of u) it contradicts it.

The window between two readings: wear = delta counter x wear per unit x drift. The counter moves in whole units,
so delta is known to one unit either way; the wear per unit carries its range; and the drift is how far the wear
per unit of a window strays from its lifetime value (calibration.json's `drift`, measured by bench/calibrate.py on
drives whose Intel E2h counts wear in 1/1024 % steps: for media writes within 2 %, for host writes, which do not see
write amplification, much more).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .forecast import Calibration, RateForecast, Reading, calibration, clean

# Readings of the indicator and the counter are taken moments apart (the NVMe indicator is updated once a power-on
# hour): each reading's range is widened by this share before they are intersected.
INTERSECT_SLACK = 0.005
CONTRADICTION_SHARE = 0.10


@dataclass(frozen=True)
class PerUnit:
    """Wear per unit of a counter, percent of rated endurance per unit, as an interval [low, high]."""

    low: float
    high: float
    basis: str  # 'rated' (the drive's own rating), 'lifetime' (one reading), 'readings' (several, intersected)
    detail: str

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2

    @property
    def calibrated(self) -> bool:
        """Whether it has a lower bound above 0 (an indicator still at 0 bounds the wear per unit from above only)."""
        return self.low > 0


class Point(NamedTuple):
    """One reading for the lifetime calibration: the counter, and the whole-step indicator beside it."""

    counter: float
    used_percent: float
    step: float


def rated(rated_count: float, what: str) -> PerUnit | None:
    """100 % of the rated wear over the drive's own rated count of the counter."""
    if rated_count <= 0:
        return None
    k = 100.0 / rated_count
    return PerUnit(k, k, "rated", what)


def lifetime(points: Sequence[Point]) -> PerUnit | None:
    """The intersection of every reading's range [u / C, (u + step) / C]; None when they do not intersect (the
    counter does not count the indicator's wear), or no reading has a counter above 0."""
    usable = [p for p in points if p.counter > 0]
    if not usable:
        return None
    low = max(p.used_percent / p.counter * (1 - INTERSECT_SLACK) for p in usable)
    high = min((p.used_percent + p.step) / p.counter * (1 + INTERSECT_SLACK) for p in usable)
    if low > high:
        return None
    latest = max(usable, key=lambda p: p.counter)
    shown = f"{latest.used_percent:g} %" if latest.used_percent > 0 else f"under {latest.step:g} %"
    what = (f"{shown} used at the latest of {len(usable)} readings, the ranges of every reading intersected"
            if len(usable) > 1 else f"{shown} used (true wear in [{latest.used_percent:g}, "
            f"{latest.used_percent + latest.step:g}) %) over the lifetime counter")
    return PerUnit(max(low, 0.0), high, "readings" if len(usable) > 1 else "lifetime", what)


def contradicts(fine_percent: float, used_percent: float, step: float) -> bool:
    """A drive-rated fine figure contradicts the whole-step indicator beside it (see the module docstring)."""
    tol = max(step, CONTRADICTION_SHARE * used_percent)
    return not used_percent - tol <= fine_percent <= used_percent + step + tol


class FinePercent(NamedTuple):
    percent: float
    low: float
    high: float

    @property
    def uncertainty(self) -> float:
        return (self.high - self.low) / 2


def fine_percent(count: float, per_unit: PerUnit) -> FinePercent:
    """The counter as wear: count x wear per unit, with the range of the wear per unit (and of one unit)."""
    return FinePercent(count * per_unit.mid, count * per_unit.low, (count + 1) * per_unit.high)


def finer(fine: FinePercent, step: float) -> bool:
    """Whether the fine figure is finer than the whole-step indicator (its range narrower than the step)."""
    return fine.high - fine.low < step


GRID = 40  # the quantile points a calibrated spread is kept at (calibration.json), and the wear per unit split into


def spread(per_unit: PerUnit, grid: Sequence[float], level: float) -> tuple[float, float, float]:
    """(low, median, high) at `level` of the wear per unit times a calibrated spread: the wear per unit uniform over
    its range (the true wear lies anywhere in the indicator's step; the midpoint is unbiased), times the spread,
    given as its quantiles (`grid`). Deterministic: every point of one against every point of the other."""
    ks = [per_unit.low + (per_unit.high - per_unit.low) * (j + 0.5) / GRID for j in range(GRID)]
    products = sorted(k * q for k in ks for q in grid)
    tail = (1 - level) / 2
    return quantile(products, tail), quantile(products, 0.5), quantile(products, 1 - tail)


def quantile(xs: Sequence[float], p: float) -> float:
    """Linear-interpolation quantile of a sorted list."""
    x = p * (len(xs) - 1)
    i = int(x)
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (xs[j] - xs[i]) * (x - i)


def drift_grid(kind: str) -> list[float]:
    """The calibrated quantiles of a window's wear per unit over its lifetime value, for counters that see the
    flash ('media', 'erase') or host writes ('host')."""
    return [float(q) for q in calibration().drift["host" if kind == "host" else "media"]["grid"]]


class WindowWear(NamedTuple):
    """Wear in a window, percent of rated endurance: central, and the range at its level (low 0: possibly none)."""

    central: float
    low: float
    high: float


def window_wear(delta: float, per_unit: PerUnit, kind: str, level: float) -> WindowWear:
    """Delta counter (whole units: one more or less either way) x the wear per unit and the drift, combined at
    `level` (spread)."""
    low, mid, high = spread(per_unit, drift_grid(kind), level)
    delta = max(delta, 0.0)
    return WindowWear(delta * mid, max(delta - 1, 0.0) * low, (delta + 1) * high)


# ------------------------------------------------------------------------------------------------
# The recent rate of a fine indicator


def fine_class(used_percent: float) -> str:
    """The calibration class of a rate measured by a fine indicator, by the wear used."""
    u = used_percent
    return "fine|u0" if u < 1 else "fine|u1" if u < 5 else "fine|u5" if u < 20 else "fine|u20"


def fine_forecast(readings: Sequence[Reading], per_unit: PerUnit, level: float,
                  table: Calibration | None = None) -> RateForecast | None:
    """The recent rate of a fine indicator (percent, per power-on hour) with its calibrated interval, from readings
    of it (E2h never reset, or a finer counter times its wear per unit's midpoint): the indicator's own movement over
    the readings' span, times the spread that the calibration half showed between such a rate and the drive's
    realized future rate (its class's grid), combined with the wear per unit's range relative to its midpoint
    (`per_unit`: exact for E2h and drive-rated counters). None for readings under the calibrated span."""
    cal = table or calibration()
    rs = clean(readings)
    if len(rs) < 2 or not cal.spans(rs[-1].power_on_hours - rs[0].power_on_hours):
        return None
    first, latest = rs[0], rs[-1]
    span = latest.power_on_hours - first.power_on_hours
    rate = max(latest.used_percent - first.used_percent, 0.0) / span
    cls = fine_class(latest.used_percent)
    row = cal.classes[cls]
    relative = PerUnit(per_unit.low / per_unit.mid, per_unit.high / per_unit.mid, per_unit.basis, per_unit.detail) \
        if per_unit.mid > 0 else PerUnit(1.0, 1.0, "rated", "")
    lo, mid, hi = spread(relative, [float(q) for q in row["grid"]], level)
    lifetime_rate = latest.used_percent / latest.power_on_hours
    low, high = (rate * lo, rate * hi) if rate > 0 else (0.0, lifetime_rate * hi)
    return RateForecast(central=rate * mid, low=low, high=high, level=level, base=rate, wear_class=cls, mode="fine",
                        lifetime=lifetime_rate, recent=rate, weight_recent=1.0, span_hours=span, readings=len(rs))
