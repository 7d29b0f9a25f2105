"""One home for the words of times and units (issue 27.4): a moment, a day, a month, a drive's power-on hours and
byte figures are said by ssdwear/model/units.py's functions, never by an inline format (27 lines across assess/,
run/, render/ and wear/ spelled them before, and the byte words of ratings lived in drives/ratings.py)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from support.paths import ROOT

from ssdwear.model.units import bytes_text, capacity_text, date_text, hours_text, month_text, time_text

# Formats that are not words: smartd's own timestamp, which the log is searched by (host/smartd.py), and SQLite's.
NOT_WORDS = {"ssdwear/host/smartd.py", "ssdwear/host/store/queries.py"}
INLINE = re.compile(r"%Y-%m|:,\.0f\} power-on hours|/ 1e1[25]:g\} [TP]B")


def test_times_and_units_are_said_in_one_place() -> None:
    strays = []
    for path in sorted((ROOT / "ssdwear").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name == "ssdwear/model/units.py" or name in NOT_WORDS:
            continue
        strays += [f"{name}:{n}: {line.strip()}" for n, line in enumerate(path.read_text().splitlines(), 1)
                   if INLINE.search(line)]
    assert strays == []


def test_the_words() -> None:
    at = datetime(2026, 11, 30, 12, 5, 9, tzinfo=timezone.utc)
    assert time_text(at) == "2026-11-30 12:05 UTC" and time_text(at, seconds=True) == "2026-11-30 12:05:09 UTC"
    assert time_text(at, zone=False) == "2026-11-30 12:05" and time_text(at.replace(tzinfo=None)) == "2026-11-30 12:05"
    assert time_text(at.astimezone(timezone(timedelta(hours=1), "CET"))) == "2026-11-30 13:05 CET"
    assert date_text(at) == "2026-11-30" and month_text(at) == "2026-11"
    assert hours_text(12000.4) == "12,000 power-on hours"
    assert capacity_text(1.92e12) == "1.92 TB" and bytes_text(1.5e15) == "1.5 PB" and bytes_text(5e12) == "5.0 TB"
