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
