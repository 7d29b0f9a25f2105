"""Calibrated wear-rate forecasts: a central rate and a prediction interval at a stated level. Pure; no clock.

The interval has to cover what really moves "years left": the resolution of a wear indicator that moves in
whole steps, the disagreement between the rates a drive offers (its lifetime average, its recent readings, its
recent writes), and how much workloads drift. The last cannot be derived; it was measured on 18,504 real drives
read repeatedly over months and years (linuxhw/EnterpriseDrive, Linux Hardware Project, CC BY 4.0) by
bench/calibrate.py, which wrote the table in calibration.json. bench/backtest.py measures the result out of sample.

Vocabulary
- reading: (power-on hours, used percent, host bytes written or None) of one drive, one wear indicator. The
  indicator moves in steps of `step` percent and shows u while the true wear lies in [u, u + step) (the series
  show this: the lifetime average is unbiased only at the step's midpoint).
- rates are percent per power-on hour (x 8760 = per power-on year).

The central rate:
- one reading (or readings less than a day apart): the lifetime average at the step's midpoint,
  (u + step/2) / h; an indicator still at 0 only bounds the rate, and its midpoint is shrunk towards the
  population as step/2 / (h + h0);
- several readings: w x recent + (1 - w) x write-calibrated, where recent = m steps moved over the readings'
  span S, write-calibrated W = lifetime average x (recent bytes per hour / lifetime bytes per hour) (the drive's
  own wear per byte times its recent writes; the lifetime average when bytes are missing), and
  w = S / (S + k x step / W): W counts as the hours it needs to move the indicator k steps. That is the mean of
  a gamma-Poisson posterior for the tick rate, (k + m) x step / (k x step / W + S): one tick in two days says
  little (a 1 % indicator that ticked once in 48 h is not wearing 180 % a year), ten ticks in a year say most;
- times the class's median ratio of realized to estimated rate.
The interval: the central rate (before that multiplier) times the class's calibrated quantiles of the realized
future rate over it; for years left the long-horizon row, for the prediction of a reading some hours ahead the
row for the indicator movement expected over that horizon (which carries the chance that a whole-step
indicator does or does not tick).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from ssdwear.model.records import MINUTES_PER_YEAR
from ssdwear.model.units import hours_text

HOURS_PER_YEAR = MINUTES_PER_YEAR / 60  # 8760: 365 days, as everywhere in ssdwear
LEVELS = (0.5, 0.8, 0.9)  # the interval levels the table is calibrated for
DEFAULT_LEVEL = 0.8
CALIBRATION_FILE = Path(__file__).resolve().parent / "calibration.json"


class Reading(NamedTuple):
    power_on_hours: float
    used_percent: float
    host_bytes_written: float | None = None


@dataclass(frozen=True)
class Calibration:
    """The fitted table (calibration.json): constants and, per class, the interval multipliers."""

    h0_hours: float  # prior hours that shrink the midpoint of an indicator still at 0
    prior_steps: float  # k: the write-calibrated rate weighs as much as k indicator steps
    min_span_hours: float  # readings closer than this count as one
    classes: Mapping[str, Mapping[str, Any]]
    provenance: Mapping[str, Any] = field(default_factory=dict)
    # A drive younger than this that already shows wear is too early to project (0: no minimum)
    min_power_on_hours: float = 0.0
    # How far a window's wear per unit of a finer counter strays from its lifetime value: {'media'|'host': {level:
    # [low, high], 'median': m}} (wear/fine.py)
    drift: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def spans(self, hours: float) -> bool:
        """Whether readings this far apart give a rate: the one minimum span for wear rates and write rates."""
        return hours >= self.min_span_hours

    @classmethod
    def from_dict(cls, table: Mapping[str, Any]) -> Calibration:
        return cls(h0_hours=float(table["h0_hours"]), prior_steps=float(table["prior_steps"]),
                   min_span_hours=float(table["min_span_hours"]), classes=table["classes"],
                   provenance=table.get("provenance", {}),
                   min_power_on_hours=float(table.get("min_power_on_hours", 0.0)), drift=table.get("drift", {}))


@lru_cache(maxsize=1)
def calibration() -> Calibration:
    """The table shipped with ssdwear (read once), as package data: found inside a zipapp too."""
    from importlib import resources

    text = resources.files(__package__).joinpath(CALIBRATION_FILE.name).read_text(encoding="utf-8")
    return Calibration.from_dict(json.loads(text))


@dataclass(frozen=True)
class RateForecast:
    """A wear rate with its prediction interval, in percent per power-on hour."""

    central: float
    low: float
    high: float
    level: float
    base: float  # the readings' rate before the class's central multiplier: the intervals are multiples of it
    wear_class: str  # calibration class, e.g. 'single|u5', 'multi|u5nvme'
    mode: str  # 'single' (lifetime average) or 'multi' (several readings)
    lifetime: float  # lifetime average at the step midpoint (before any multiplier)
    recent: float | None = None  # the indicator's movement over the readings' span
    write_calibrated: float | None = None  # lifetime wear per byte x recent bytes per hour
    weight_recent: float = 0.0
    moved_steps: float = 0.0  # indicator steps moved over the readings
    span_hours: float = 0.0  # power-on hours the readings span
    readings: int = 1  # distinct readings used

    @property
    def interval(self) -> tuple[float, float, float]:
        return self.low, self.central, self.high


def clean(readings: Sequence[Reading]) -> list[Reading]:
    """Sorted by power-on hours; identical readings (same hours and counters) count once; readings without
    power-on time dropped."""
    seen: set[Reading] = set()
    out: list[Reading] = []
    for r in sorted(readings, key=lambda x: (x.power_on_hours, x.used_percent)):
        key = Reading(float(r.power_on_hours), float(r.used_percent),
                      None if r.host_bytes_written is None else float(r.host_bytes_written))
        if key.power_on_hours > 0 and key not in seen:
            seen.add(key)
            out.append(key)
    return out


def lifetime_rate(hours: float, used: float, step: float, h0_hours: float) -> float:
    """The lifetime average at the midpoint of the indicator's step (shrunk when the indicator is still 0)."""
    if used <= 0:
        return step / 2 / (hours + h0_hours)
    return (used + step / 2) / hours


def _write_factor(window: Sequence[Reading]) -> float | None:
    """Recent bytes per hour / lifetime bytes per hour; None when the byte counter is missing or went down."""
    first, last = window[0], window[-1]
    b0, b1 = first.host_bytes_written, last.host_bytes_written
    if b0 is None or b1 is None or b1 <= 0 or b1 < b0 or last.power_on_hours <= first.power_on_hours:
        return None
    return ((b1 - b0) / (last.power_on_hours - first.power_on_hours)) / (b1 / last.power_on_hours)


def wear_class(mode: str, used: float, moved: float, interface: str) -> str:
    """The calibration class: single or several readings, current wear, whether the indicator moved, and for
    worn NVMe drives with several readings (whose recent rate drifts more) the interface."""
    u = used  # classed by percent used, whatever the indicator's step
    if mode == "single":
        return "single|u0" if u == 0 else "single|u1" if u < 5 else "single|u5" if u < 20 else "single|u20"
    if u >= 5 and interface == "nvme":
        return "multi|u5nvme"
    if u >= 20:
        return "multi|u20"
    if u >= 5:
        return "multi|u5"
    if moved == 0:
        return "multi|still0" if u == 0 else "multi|still1"
    return "multi|low"


def _bucket(expected_steps: float, edges: Sequence[float]) -> int:
    for i, edge in enumerate(edges):
        if expected_steps < edge:
            return i
    return len(edges)


@dataclass(frozen=True)
class Estimate:
    """The central rate the readings give before calibration, and what it rests on (rates per hour)."""

    rate: float
    mode: str  # 'single' (lifetime average) or 'multi' (several readings)
    wear_class: str
    used: float  # the latest reading's percent used
    lifetime: float
    recent: float | None = None
    write_calibrated: float | None = None
    weight_recent: float = 0.0
    moved_steps: float = 0.0
    span_hours: float = 0.0
    readings: int = 1


def estimate(readings: Sequence[Reading], step: float, interface: str, h0_hours: float, prior_steps: float,
             min_span_hours: float) -> Estimate | None:
    """The uncalibrated central rate (see the module docstring); None when no reading has power-on time."""
    rs = clean(readings)
    if not rs:
        return None
    latest = rs[-1]
    life = lifetime_rate(latest.power_on_hours, latest.used_percent, step, h0_hours)
    span = latest.power_on_hours - rs[0].power_on_hours
    if len(rs) < 2 or span < min_span_hours:
        return Estimate(life, "single", wear_class("single", latest.used_percent, 0.0, interface),
                        latest.used_percent, life, span_hours=span, readings=len(rs))
    moved = max(latest.used_percent - rs[0].used_percent, 0.0) / step
    recent = moved * step / span
    factor = _write_factor(rs)
    written = None if factor is None else life * factor
    anchor = life if written is None or (written <= 0 and moved > 0) else written
    weight = span / (span + prior_steps * step / anchor) if anchor > 0 else 1.0
    rate = weight * recent + (1 - weight) * anchor
    return Estimate(rate, "multi", wear_class("multi", latest.used_percent, moved, interface), latest.used_percent,
                    life, recent, written, weight, moved, span, len(rs))


def too_early(readings: Sequence[Reading], table: Calibration | None = None) -> str | None:
    """Why these readings are too early to project from (None when they are not): the latest is at fewer power-on
    hours than the calibrated minimum, below which a young drive's wear so far says little about its pace (in the
    series, the lifetime average's 80 % interval covered 56-66 % of such drives that showed wear;
    bench/calibrate.py). An indicator still at 0 that young says as little: its projection would be the
    population's prior alone (a WD SN730 at 0 % after 66 h: 144 years, 12.5 pessimistic; it then used 2 % in the
    next 930 h)."""
    cal = table or calibration()
    rs = clean(readings)
    if not rs or rs[-1].power_on_hours >= cal.min_power_on_hours:
        return None
    latest = rs[-1]
    before = f"before {hours_text(cal.min_power_on_hours)}"
    if latest.used_percent <= 0:
        return (f"too early to project: {latest.used_percent:g} % used in only {latest.power_on_hours:,.0f} power-on "
                f"hours; {before} an indicator that has not moved says nothing of the drive's own pace")
    return (f"too early to project: {latest.used_percent:g} % used in only {latest.power_on_hours:,.0f} power-on "
            f"hours; {before} a drive's wear so far does not predict its pace (calibrated on real drives)")


def rate_forecast(readings: Sequence[Reading], step: float = 1.0, interface: str = "",
                  level: float = DEFAULT_LEVEL, horizon_hours: float | None = None,
                  table: Calibration | None = None) -> RateForecast | None:
    """The central rate and its interval at `level` from one drive's readings of one wear indicator.

    `horizon_hours` None gives the interval for years left; a number gives the interval for the reading that
    many power-on hours after the latest one (bench/backtest.py checks those). None when no reading has
    power-on time, or when they are too early to project from (too_early says why). The readings must all come
    from one indicator and none may be saturated.
    """
    if level not in LEVELS:
        raise ValueError(f"interval level {level} is not calibrated; use one of {', '.join(map(str, LEVELS))}")
    cal = table or calibration()
    est = estimate(readings, step, interface, cal.h0_hours, cal.prior_steps, cal.min_span_hours)
    if est is None or too_early(readings, cal) is not None:
        return None
    row = cal.classes[est.wear_class]
    key = f"{level:g}"
    rate = est.rate
    if horizon_hours is None:
        lo, hi = row["long"][key]
    else:
        lo, hi = row["iv"][_bucket(rate * horizon_hours / step, row["e_edges"])][key]
    low, high = rate * lo, rate * hi
    if rate <= 0 and horizon_hours is None:
        # Nothing written over the readings: the drive may stay idle (low 0) or its old workload may return
        # (high: its lifetime rate, scaled as any long-horizon rate).
        low, high = 0.0, est.lifetime * hi
    return RateForecast(central=rate * float(row["mult"]), low=low, high=high, level=level, base=rate,
                        wear_class=est.wear_class, mode=est.mode, lifetime=est.lifetime, recent=est.recent,
                        write_calibrated=est.write_calibrated, weight_recent=est.weight_recent,
                        moved_steps=est.moved_steps, span_hours=est.span_hours, readings=est.readings)


def long_multipliers(used: float, moved: float, interface: str, level: float = DEFAULT_LEVEL,
                     table: Calibration | None = None) -> tuple[float, float, str]:
    """(low, high, class): the calibrated long-horizon range of the realized future rate over a rate measured
    across several readings (or a window between two), for a drive at `used` percent whose indicator moved
    `moved` steps; the class it came from."""
    if level not in LEVELS:
        raise ValueError(f"interval level {level} is not calibrated; use one of {', '.join(map(str, LEVELS))}")
    cls = wear_class("multi", used, moved, interface)
    lo, hi = (table or calibration()).classes[cls]["long"][f"{level:g}"]
    return float(lo), float(hi), cls


def predicted_reading(fc: RateForecast, used: float, hours_ahead: float) -> tuple[float, float, float]:
    """(predicted, low, high) for the indicator `hours_ahead` power-on hours after the latest reading (with a
    forecast made for that horizon)."""
    return used + fc.central * hours_ahead, used + fc.low * hours_ahead, used + fc.high * hours_ahead


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Calibration", "Estimate", "RateForecast", "Reading", "calibration", "clean",
           "estimate", "long_multipliers", "predicted_reading", "rate_forecast", "too_early"]
