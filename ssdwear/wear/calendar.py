"""Power-on years on the calendar. Pure; the clock is passed in.

A projection's years are power-on years: a drive that is off neither ages nor wears. The drive's duty cycle, its
power-on hours per wall-clock hour over readings that carry both (stored samples, smartd's attribute log), turns
them into a date: wears out = then + years / duty. From a single reading, or readings too close together, it is
assumed to be always on (duty 1), and the projection says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ssdwear.model.records import Projection
from ssdwear.model.units import hours_text

from .forecast import HOURS_PER_YEAR, calibration

ASSUMED = "assumed always on (no dated readings a day apart to measure it from)"
# Beyond this a date says nothing a year count does not (and datetime ends at 9999).
MAX_CALENDAR_YEARS = 5_000.0


def duty_cycle(points: Sequence[tuple[datetime, float | None]]) -> tuple[float, float, float] | None:
    """(duty, power-on hours, wall-clock hours) from the first to the last (time, power-on hours) of one drive's
    readings in order, when both spans give a rate (the calibrated minimum span); at most 1: a clock that ran
    slow does not make a drive run more than always."""
    dated = [(at, h) for at, h in points if h is not None]
    if len(dated) < 2:
        return None
    (t0, h0), (t1, h1) = dated[0], dated[-1]
    assert h0 is not None and h1 is not None
    wall, on = (t1 - t0).total_seconds() / 3600, h1 - h0
    if not (calibration().spans(wall) and on > 0):
        return None
    return min(on / wall, 1.0), on, wall


def on_calendar(base: datetime, years: float | None, duty: float) -> datetime | None:
    """When `years` of power-on time from `base` end at `duty` power-on hours a wall-clock hour; None for no
    years, or more than MAX_CALENDAR_YEARS of the calendar."""
    if years is None or years / duty > MAX_CALENDAR_YEARS:
        return None
    return base + timedelta(hours=years / duty * HOURS_PER_YEAR)


def dated(p: Projection, base: datetime, duty: tuple[float, float, float] | None, origin: str) -> Projection:
    """The projection with its dates: from `base` (when its readings end), at the measured duty cycle (of readings
    from `origin`), else always on."""
    if duty is None:
        rate, measured, basis = 1.0, False, ASSUMED
    else:
        rate, on, wall = duty
        measured = True
        basis = f"{rate * 100:.0f} % power-on ({hours_text(on)} in {wall:,.0f} wall-clock hours of {origin})"
    return replace(p, duty_cycle=rate, duty_measured=measured, duty_basis=basis,
                   wears_out_at=on_calendar(base, p.years_remaining, rate),
                   wears_out_low_at=on_calendar(base, p.years_remaining_low, rate))
