"""The fine wear indicator (`used_fine_percent`): a counter finer than the whole-percent indicator, as wear. Pure.

Which counter, and what calibrates its wear per unit (wear/fine.py does the maths):
- Intel E2h of a timer never reset counts wear itself, in 1/1024 % steps: the gold standard where it exists;
- else a counter that sees the flash (media writes, average erase cycles), the drive's own rating of it first (a
  rated erase count, an endurance estimate), cross-checked against the whole-percent indicator: a contradiction is
  a warning, and that counter gives no fine figure;
- else the same counters calibrated from the indicator: one reading puts the wear per unit within the indicator's
  step, so its figure is no finer than the indicator (`percent` None, the wear per unit kept for windows); several
  readings (stored samples, saved outputs) intersect their steps and may pin it.
Host writes do not see write amplification: they give windows (with a wider range), never a fine indicator.
"""

from __future__ import annotations

from collections.abc import Sequence

from ssdwear.drives.fine import WEAR_KINDS
from ssdwear.drives.indicators import UsedReading
from ssdwear.drives.timed import LIFETIME_SOURCES
from ssdwear.model.records import CounterReading, FineWear
from ssdwear.model.units import percent_text
from ssdwear.wear import fine


def wear_counters(counters: Sequence[CounterReading]) -> list[CounterReading]:
    """The counters that count wear (they see write amplification), the drive-rated ones first."""
    return [c for c in counters if c.kind in WEAR_KINDS]


def as_wear(counter: CounterReading, per_unit: fine.PerUnit, step: float, what: str) -> FineWear:
    """The counter as wear with this wear per unit: its figure where it is finer than the indicator's step."""
    figure = fine.fine_percent(counter.value, per_unit)
    finer = per_unit.calibrated and fine.finer(figure, step)
    return FineWear(counter.source, figure.percent if finer else None, figure.low if finer else None,
                    figure.high if finer else None, per_unit.basis, per_unit.mid, per_unit.low, per_unit.high,
                    f"{counter.detail}; {what}")


def rated_wear(counter: CounterReading, used: UsedReading | None) -> tuple[FineWear | None, str | None]:
    """A drive-rated counter as wear, or the warning that it contradicts the indicator (and no figure)."""
    per_unit = fine.rated(counter.rated or 0, counter.rated_detail)
    if per_unit is None:
        return None, None
    wear = as_wear(counter, per_unit, used.step if used is not None else 1.0, f"x 100 / {counter.rated_detail}")
    figure = counter.value * per_unit.mid
    if used is not None and not used.at_least and fine.contradicts(figure, used.percent, used.step):
        return None, (f"wear indicators disagree: {counter.detail} of {counter.rated_detail} means "
                      f"{figure:.3g} % used, but {used.detail} means {percent_text(used.percent, used.at_least)}; "
                      "the finer counter is not used")
    return wear, None


def lifetime_wear(counter: CounterReading, used: UsedReading | None) -> FineWear | None:
    """A counter calibrated from the indicator beside it (one reading: within its step)."""
    if used is None or used.at_least or used.source in LIFETIME_SOURCES:
        return None
    per_unit = fine.lifetime([fine.Point(counter.value, used.percent, used.step)])
    if per_unit is None:
        return None
    return as_wear(counter, per_unit, used.step,
                   f"wear per unit from the lifetime: {per_unit.detail} ({used.source}); no finer than the indicator "
                   "from one reading: `start` and a window, or stored samples, sharpen it")


def reading_wear(counters: Sequence[CounterReading], used: UsedReading | None
                 ) -> tuple[FineWear | None, list[str]]:
    """The fine indicator of one reading (see the module docstring), and the warnings of contradicted counters."""
    if used is not None and used.source in LIFETIME_SOURCES:
        return FineWear(used.source, used.percent, used.percent, used.percent + used.step, "e2h", None, None,
                        None, used.detail), []
    warnings: list[str] = []
    wear = wear_counters(counters)
    for counter in wear:
        if counter.rated:
            found, contradiction = rated_wear(counter, used)
            warnings += [contradiction] if contradiction else []
            if found is not None:
                return found, warnings
    for counter in wear:
        found = lifetime_wear(counter, used)
        if found is not None:
            return found, warnings
    return None, warnings
