"""Parsing and printing of durations and byte counts. TB and PB are decimal (vendor convention)."""

from __future__ import annotations

import re
from typing import Optional

from .records import MINUTES_PER_YEAR

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|"
                       r"d|days?|w|weeks?|y|years?)?\s*$", re.I)
_MINUTES = {"s": 1 / 60, "m": 1, "h": 60, "d": 1440, "w": 10080, "y": MINUTES_PER_YEAR}

_BYTES = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]i?b?|b)?\s*$", re.I)
_DECIMAL = {"": 1, "b": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "p": 10**15, "e": 10**18}


def parse_duration_minutes(text: str) -> float:
    """'60m', '1d', '2h', '1.5h', '90' (minutes) -> minutes. Raises ValueError with a usable message."""
    match = _DURATION.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a duration: use a number with s, m, h, d, w or y (e.g. 60m, 1d)")
    value = float(match.group(1))
    unit = (match.group(2) or "m").lower()
    minutes = value * _MINUTES[unit[0] if not unit.startswith("mi") else "m"]
    if minutes <= 0:
        raise ValueError(f"'{text}' is not a positive duration")
    return minutes


def parse_bytes(text: object) -> int:
    """'1.5 PB', '500TB', '3.65e15', 1000 -> bytes. TB/PB decimal; TiB/PiB binary."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        if text <= 0:
            raise ValueError(f"'{text}' is not a positive byte count")
        return int(text)
    raw = str(text).strip()
    try:
        value = float(raw)
    except ValueError:
        match = _BYTES.match(raw)
        if not match:
            raise ValueError(f"'{text}' is not a byte count: use e.g. 500 TB, 1.5 PB, 600 TiB") from None
        number, unit = float(match.group(1)), (match.group(2) or "").lower()
        value = number * 1024 ** "bkmgtpe".index(unit[0]) if "i" in unit else number * _DECIMAL[unit[:1]]
    if value <= 0:
        raise ValueError(f"'{text}' is not a positive byte count")
    return int(value)


_RATE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]i?b|b)\s*(?:/|\s+per\s+|\s+a\s+)\s*"
                   r"(d|days?|w|wk|weeks?|mo|months?|y|yr|years?)\s*$", re.I)
_DWPD = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*dwpd\s*(?:(?:@|\s+of\s+|\s+x\s+)\s*(.+?))?\s*$", re.I)
# Each period the rate may be given per: its name and its length in days (a month is 1/12 of a 365-day year).
_PERIODS = (("mo", "month", 365 / 12), ("d", "day", 1.0), ("w", "week", 7.0), ("y", "year", 365.0))
WRITE_RATE_FORMS = "e.g. 145GB/day, 1 TB/week, 3TB/month, 50 TiB/year or 1DWPD@1.92TB"


def parse_write_rate(text: str) -> tuple[float, str]:
    """'145GB/day', '1 TB per week', '3TB/month', '0.5 DWPD@960GB' -> (bytes per day, the rate in words).

    GB/TB/PB are decimal, GiB/TiB binary; a month is 1/12 of a 365-day year. DWPD (drive writes per day) needs
    the capacity it counts. Raises ValueError with a usable message.
    """
    raw = str(text)
    match = _RATE.match(raw)
    if match:
        number, unit, period = float(match.group(1)), match.group(2), match.group(3).lower()
        name, days = next((name, days) for prefix, name, days in _PERIODS if period.startswith(prefix))
        if number <= 0:
            raise ValueError(f"'{text}' is not a positive write rate")
        return parse_bytes(f"{number}{unit}") / days, f"{number:g} {unit} a {name}"
    match = _DWPD.match(raw)
    if match:
        dwpd, of = float(match.group(1)), match.group(2)
        try:
            capacity = parse_bytes(of or "")
        except ValueError:
            raise ValueError(f"'{text}': DWPD counts drive writes per day, so it needs the drive's capacity, "
                             "e.g. 1DWPD@1.92TB") from None
        if dwpd <= 0:
            raise ValueError(f"'{text}' is not a positive write rate")
        return dwpd * capacity, f"{dwpd:g} DWPD of {human_bytes(capacity)}"
    raise ValueError(f"'{text}' is not a write rate: give a size per day, week, month or year, or DWPD of a "
                     f"capacity ({WRITE_RATE_FORMS})")


def human_bytes(count: Optional[float]) -> str:
    if count is None:
        return "-"
    for unit, size in (("PB", 10**15), ("TB", 10**12), ("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if abs(count) >= size:
            return f"{count / size:.3g} {unit}"
    return f"{count:.0f} B"


def human_minutes(minutes: Optional[float]) -> str:
    if minutes is None:
        return "-"
    if minutes < 120:
        return f"{minutes:.0f} min"
    if minutes < 2880:
        return f"{minutes / 60:.1f} h"
    if minutes < MINUTES_PER_YEAR:
        return f"{minutes / 1440:.1f} d"
    return f"{minutes / MINUTES_PER_YEAR:.1f} y"
