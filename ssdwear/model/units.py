"""Parsing and printing of durations, byte counts and write rates, and the range every value a user gives may take
(the CLI's options and the config's keys take their limits from here; docs/configuration.md's Ranges section lists
them). TB and PB are decimal (vendor convention), TiB and PiB binary.

Every parser raises ValueError, and nothing else, with a one-line message that quotes the value as it was given.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime

from .records import MINUTES_PER_YEAR, Projection


@dataclass(frozen=True)
class Limits:
    """The range a value may take, in the unit its parser returns; `words` says it to people."""

    what: str  # 'a duration'
    low: float
    high: float
    words: str  # '1 s to 100 years'

    def check(self, value: float, text: object, hint: str = "") -> float:
        """`value` when it lies in the range, else ValueError naming `text` (the value as given)."""
        if not (math.isfinite(value) and self.low <= value <= self.high):
            raise ValueError(f"'{text}' is out of range: {self.what} is {self.words}{hint}")
        return value


# The ranges. Durations in minutes, timeouts in seconds, sizes in bytes, write rates in bytes a day.
DURATION = Limits("a duration", 1 / 60, 100 * MINUTES_PER_YEAR, "1 s to 100 years")
TIMEOUT = Limits("a smartctl timeout", 1, 86_400, "1 to 86,400 seconds (a day)")
DEADLINE = Limits("a run deadline", 1 / 60, 1440, "1 s to a day")  # --deadline, run_deadline (or none)
LOCK_WAIT = Limits("a wait for the run lock", 1 / 60, 1440, "1 s to a day")  # run_lock_wait
CAPACITY = Limits("a drive's capacity", 10**9, 10**15, "1 GB to 1 PB")
NAND = Limits("a drive's raw NAND", 10**9, 2 * 10**15, "1 GB to 2 PB")
RATED_WRITES = Limits("a rating in bytes written", 10**11, 10**18, "100 GB to 1 EB")
WRITE_RATE = Limits("a write rate", 1, 10**18, "1 byte to 1 EB a day")
DWPD = Limits("a DWPD rating", 0.01, 100, "0.01 to 100 drive writes a day")
YEARS = Limits("a number of years", 0.1, 100, "0.1 to 100")  # warranty_years, plan --years
SPARE_PERCENT = Limits("a spare area", 0.1, 99.9, "0.1 to 99.9 % of the user capacity")
WORKERS = Limits("a number of workers", 1, 256, "1 to 256")
THRESHOLDS = {  # check and retire-check: the config's `thresholds` and check's --warning-*/--critical-*
    "years_remaining": Limits("a years-left threshold", 0, 100, "0 to 100 years"),
    "used_percent": Limits("a wear threshold", 0, 255, "0 to 255 %"),
    "spare_percent": Limits("a spare threshold", 0, 100, "0 to 100 %"),
    "rated_used_percent": Limits("a TBW threshold", 0, 1000, "0 to 1,000 %"),
}

# A number as people write one: ASCII digits, 1.5, .5, 3.65e15 (no sign, no inf, no nan); unambiguous, so that a
# long string that does not match fails in linear time.
_NUMBER = r"((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
_DURATION = re.compile(rf"^\s*{_NUMBER}\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|"
                       r"d|days?|w|weeks?|y|years?)?\s*$", re.I)
_MINUTES = {"s": 1 / 60, "m": 1, "h": 60, "d": 1440, "w": 10080, "y": MINUTES_PER_YEAR}

_SECONDS = re.compile(rf"\s*{_NUMBER}\s*(?:s|sec|secs|seconds?)?\s*", re.I)
_BYTES = re.compile(rf"^\s*{_NUMBER}\s*([kmgtpe]i?b?|b)?\s*$", re.I)
_DECIMAL = {"": 1, "b": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "p": 10**15, "e": 10**18}


def parse_duration_minutes(text: object, limits: Limits = DURATION) -> float:
    """'60m', '1d', '2h', '1.5h', '90' (minutes) -> minutes, within `limits`. Raises ValueError with a usable
    message."""
    match = _DURATION.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a duration: use a number with s, m, h, d, w or y (e.g. 60m, 1d)")
    unit = (match.group(2) or "m").lower()
    minutes = float(match.group(1)) * _MINUTES[unit[0] if not unit.startswith("mi") else "m"]
    if minutes <= 0:
        raise ValueError(f"'{text}' is not a positive duration")
    return limits.check(minutes, text)


NO_DEADLINE = ("none", "false")  # --deadline none, run_deadline: none (or false)


def parse_deadline_seconds(text: object) -> float:
    """A run deadline: a duration ('120s', '2m'; a number alone is minutes, as for every duration) -> seconds, or
    'none' -> infinity (no deadline)."""
    if str(text).strip().lower() in NO_DEADLINE:
        return math.inf
    return parse_duration_minutes(text, DEADLINE) * 60


def parse_seconds(text: object, limits: Limits = TIMEOUT) -> float:
    """'60', '2.5' -> seconds, within `limits` (nan, inf, 0 and negatives are refused)."""
    match = _SECONDS.fullmatch(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a number of seconds")
    return limits.check(float(match.group(1)), text)


def parse_number(text: str, limits: Limits) -> float:
    """A plain number ('5', '0.5', '1e3') within `limits` (nan and inf are out of every range)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a number") from None
    return limits.check(value, text)


def parse_whole_number(text: str, limits: Limits) -> int:
    value = parse_number(text, limits)
    if not value.is_integer():
        raise ValueError(f"'{text}' is not a whole number")
    return int(value)


def _scaled(number: str, unit: str) -> float:
    """The bytes of `number` `unit` ('1.5', 'TB'): TB/PB decimal, TiB/PiB binary, no unit bytes."""
    unit = unit.lower()
    value = float(number)
    if "i" in unit:
        return value * float(1024 ** "bkmgtpe".index(unit[0]))
    return value * _DECIMAL[unit[:1]]


def parse_bytes(text: object, limits: Limits) -> int:
    """'1.5 PB', '500TB', '3.65e15', 1000 -> bytes, within `limits`. A number without a unit is bytes: when that
    is out of range the message suggests the unit."""
    match = _BYTES.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a byte count: use e.g. 500 TB, 1.5 PB, 600 TiB")
    number, unit = match.group(1), match.group(2) or ""
    value = _scaled(number, unit)
    if value <= 0:
        raise ValueError(f"'{text}' is not a positive byte count")
    unitless = not unit and math.isfinite(value) and value < limits.low
    hint = f" (a number without a unit is bytes: give the unit, e.g. {number} TB)" if unitless else ""
    return round(limits.check(value, text, hint))


_RATE = re.compile(rf"^\s*{_NUMBER}\s*([kmgtpe]i?b|b)\s*(?:/|\s+per\s+|\s+a\s+)\s*"
                   r"(d|days?|w|wk|weeks?|mo|months?|y|yr|years?)\s*$", re.I)
_DWPD = re.compile(rf"^\s*{_NUMBER}\s*dwpd\s*(?:(?:@|\s+of\s+|\s+x\s+)\s*(.+?))?\s*$", re.I)
# Each period the rate may be given per: its name and its length in days (a month is 1/12 of a 365-day year).
_PERIODS = (("mo", "month", 365 / 12), ("d", "day", 1.0), ("w", "week", 7.0), ("y", "year", 365.0))
WRITE_RATE_FORMS = "e.g. 145GB/day, 1 TB/week, 3TB/month, 50 TiB/year or 1DWPD@1.92TB"


def parse_write_rate(text: str) -> tuple[float, str]:
    """'145GB/day', '1 TB per week', '3TB/month', '0.5 DWPD@960GB' -> (bytes per day, the rate in words).

    GB/TB/PB are decimal, GiB/TiB binary; a month is 1/12 of a 365-day year. DWPD (drive writes per day) needs
    the capacity it counts (with its unit). Within WRITE_RATE. Raises ValueError with a usable message.
    """
    raw = str(text)
    match = _RATE.match(raw)
    if match:
        number, unit, period = match.group(1), match.group(2), match.group(3).lower()
        name, days = next((name, days) for prefix, name, days in _PERIODS if period.startswith(prefix))
        per_day = _scaled(number, unit) / days
        if per_day <= 0:
            raise ValueError(f"'{text}' is not a positive write rate")
        return WRITE_RATE.check(per_day, text), f"{number} {unit} a {name}"
    match = _DWPD.match(raw)
    if match:
        number, of = match.group(1), match.group(2)
        if float(number) <= 0:
            raise ValueError(f"'{text}' is not a positive write rate")
        dwpd = DWPD.check(float(number), text)
        if of is None or not _BYTES.match(of):
            raise ValueError(f"'{text}': DWPD counts drive writes per day, so it needs the drive's capacity, "
                             "e.g. 1DWPD@1.92TB")
        try:
            capacity = parse_bytes(of, CAPACITY)
        except ValueError as exc:
            raise ValueError(f"'{text}': {exc}") from None
        return WRITE_RATE.check(dwpd * capacity, text), f"{number} DWPD of {human_bytes(capacity)}"
    raise ValueError(f"'{text}' is not a write rate: give a size per day, week, month or year, or DWPD of a "
                     f"capacity ({WRITE_RATE_FORMS})")


# Byte words. Vendors' TB and PB are decimal.
GB = 10**9
TB = 10**12
PB = 10**15


def capacity_text(count: float | None) -> str:
    """Nominal capacities as vendors write them: '200 GB', '1.92 TB'."""
    if not count:
        return ""
    return f"{count / TB:g} TB" if count >= TB else f"{count / GB:g} GB"


def bytes_text(count: float) -> str:
    """Ratings as vendors write them: '500 TB', '1.1 PB', '8.76 PB'."""
    value, unit = (count / PB, "PB") if count >= PB else (count / TB, "TB")
    text = f"{value:.3g}" if value >= 10 else f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{text if '.' in text or value >= 10 else text + '.0'} {unit}"


def bytes_span(low: float, high: float) -> str:
    """A range of ratings: '5.0-60 TB', '500 TB-1.5 PB'."""
    return span_text(bytes_text(low), bytes_text(high))



def human_bytes(count: float | None) -> str:
    if count is None:
        return "-"
    for unit, size in (("PB", 10**15), ("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if abs(count) >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count:.0f} B"


def time_text(at: datetime, seconds: bool = False, zone: bool = True) -> str:
    """A moment, in every message and view: '2026-11-30 12:00 UTC' (to the second with `seconds`; the zone the time
    carries, none for a time without one or without `zone`)."""
    said = at.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    return f"{said} {at.strftime('%Z')}".rstrip() if zone else said


def date_text(at: datetime) -> str:
    """A day: '2026-11-30'."""
    return at.strftime("%Y-%m-%d")


def month_text(at: datetime) -> str:
    """A month: '2026-11'."""
    return at.strftime("%Y-%m")


def hours_text(hours: float) -> str:
    """A drive's clock: '12,000 power-on hours'."""
    return f"{hours:,.0f} power-on hours"


def human_minutes(minutes: float | None) -> str:
    if minutes is None:
        return "-"
    if minutes < 120:
        return f"{minutes:.0f} min"
    if minutes < 2880:
        return f"{minutes / 60:.1f} h"
    if minutes < MINUTES_PER_YEAR:
        return f"{minutes / 1440:.1f} d"
    return f"{minutes / MINUTES_PER_YEAR:.1f} y"


# Years of a wear projection printed as figures. Beyond MAX_PRINTED_YEARS the data cannot support a figure: the
# calibration's drives were followed for at most 6.3 power-on years (55,342 h) and had run for at most 23
# (bench/calibrate.py over the linuxhw/EnterpriseDrive series, docs/accuracy.md), so a century is already far
# outside what was ever checked; below MIN_PRINTED_YEARS the figure is under the projection's own resolution of
# days. Both are printed as bounds ('> 100', '< 0.1'); the JSON keeps the exact figure.
MAX_PRINTED_YEARS = 100.0
MIN_PRINTED_YEARS = 0.1


def human_years(years: float) -> str:
    """A projection's years for people: '18.7', '0.0' (nothing left), or a bound: '> 100', '< 0.1'."""
    if years > MAX_PRINTED_YEARS:
        return f"> {MAX_PRINTED_YEARS:g}"
    if 0 < years < MIN_PRINTED_YEARS:
        return f"< {MIN_PRINTED_YEARS:g}"
    return f"{years:.1f}"


def fmt_years(central: float | None, low: float | None, high: float | None) -> str:
    """A projection's years with their range, bounded where the data cannot support a figure (human_years):
    '18.7 (17.5-20.0)'; '51.4 (≥ 35.2)' when the range reaches beyond 100 years or has no end; '> 100';
    '1.2 (< 0.1-3.0)'; '-' when unknown."""
    def bounded(years: float | None) -> bool:
        return years is None or years > MAX_PRINTED_YEARS

    if low is None:
        return "-" if central is None else human_years(central)
    if bounded(low):
        return human_years(MAX_PRINTED_YEARS + 1)
    if central is None:
        return f"≥ {human_years(low)}"
    if bounded(high):
        return f"{human_years(central)} (≥ {human_years(low)})"
    assert high is not None
    if human_years(low) == human_years(high):
        return human_years(central)
    return f"{human_years(central)} ({human_years(low)}-{human_years(high)})"


# Other figures for people, one form each everywhere (tables, cron mail, check, retire-check, plan)


def rate_text(rate: float) -> str:
    """A wear rate in % a year to three significant figures, never in exponent form: '5.35', '0.0145', '11,402'."""
    if rate == 0 or not math.isfinite(rate):
        return f"{rate:g}"
    if abs(rate) >= 100:
        return f"{rate:,.0f}"
    text = f"{rate:.{max(0, 2 - math.floor(math.log10(abs(rate))))}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def percent_text(percent: float, at_least: bool = False) -> str:
    """Wear used: '15 %', '0.9551 %', '≥ 255 %' when the indicator saturated (the true value is that or more)."""
    return f"{'≥ ' if at_least else ''}{percent:.4g} %"


def span_text(low: str, high: str) -> str:
    """Two figures with their units as one range: '137-156 GB' when they share the unit, else '900 GB-1.2 TB'."""
    if low.split()[-1] == high.split()[-1]:
        return f"{low.split()[0]}-{high}"
    return f"{low}-{high}"


def _month(at: datetime | None, years: float | None) -> str:
    """The month a projection's years end on the calendar, bounded as its years are (human_years): 'after 2126'
    where they lie beyond MAX_PRINTED_YEARS, 'no end' where the rate is 0."""
    if years is None:
        return "no end"
    if at is None or years > MAX_PRINTED_YEARS:
        return f"> {MAX_PRINTED_YEARS:g} years"
    return month_text(at)


def wears_out_text(p: Projection, short: bool = False, duty: bool = True) -> str | None:
    """When the rated endurance ends on the calendar: '2031-04 (pessimistic 2028-11, at 36 % power-on)' (`short`:
    '2031-04 (2028-11)'); 'already (...)' for a drive whose rated endurance is used up; None without dates. The duty
    cycle is said (measured, or 'always on assumed') unless `duty` is False."""
    if p.duty_cycle is None or (p.years_remaining is None and p.years_remaining_low is None):
        return None
    if p.years_remaining is not None and p.years_remaining <= 0:  # worn out already: no month ahead to name
        return "used up" if short else "already (rated endurance used up)"
    central, low = _month(p.wears_out_at, p.years_remaining), _month(p.wears_out_low_at, p.years_remaining_low)
    if short:  # a bound says nothing the years above it do not: only dates, '≥ low' when the central has none
        dates = [x if x[0].isdigit() else None for x in (central, low)]
        if dates[1] is None:
            return None
        return f"≥ {low}" if dates[0] is None else central if central == low else f"{central} ({low})"
    if not duty:
        return f"{central} (pessimistic {low})"
    cycle = f"at {p.duty_cycle * 100:.0f} % power-on" if p.duty_measured else "always on assumed"
    return f"{central} (pessimistic {low}, {cycle})"
