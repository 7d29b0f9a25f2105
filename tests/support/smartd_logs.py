"""smartd attribute logs written by a test, line by line in smartd.cpp's format (write_dev_attrlog: the stamp, then
`\\tID;NORMALISED;RAW;` per attribute), for the workstation drive of fixtures/smartd: Samsung SSD 860 EVO 1TB
[S3Z9NB0K000777A], 12,132 power-on hours, 177 raw 72 (12 % used) and 241 raw 137,581,922,743 at NOW. The lines
count back from that reading, so that the log is that drive's: wear, writes and power-on hours rising as it runs.

A test changes what it reproduces (the hours of a few lines, the clock of a week) and runs the commands over the
fixture machine with `smartd_attrlog` pointing at the folder it wrote."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

NOW = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)  # fixtures/smartd's reading
SDA_LOG = "attrlog.Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777A.ata.csv"
LIVE_HOURS = 12_132
LIVE_SECTORS = 137_581_922_743
SECTORS_AN_HOUR = 40e9 / 12 / 512  # 40 GB in a 12-hour working day


@dataclass(frozen=True)
class Point:
    """One check cycle: when smartd ran (UTC) and the drive's power-on hours then."""

    at: datetime
    hours: float


def on_daily(days: int, hours_a_day: int = 12, every_minutes: int = 30, zone: str = "Europe/Berlin") -> list[Point]:
    """smartd's check cycles on a drive on from 08:00 local for `hours_a_day` hours every day, over `days` days up to
    minutes before NOW; power-on hours counted back from the drive's reading."""
    tz = ZoneInfo(zone)
    ats: list[datetime] = []
    day = (NOW - timedelta(days=days)).astimezone(tz).date()
    while day <= NOW.astimezone(tz).date():
        first = datetime(day.year, day.month, day.day, 8, tzinfo=tz)
        for k in range(hours_a_day * 60 // every_minutes):
            at = (first + timedelta(minutes=every_minutes * k)).astimezone(timezone.utc)
            if NOW - timedelta(days=days) <= at < NOW - timedelta(minutes=4):
                ats.append(at)
        day += timedelta(days=1)
    step = every_minutes / 60
    return [Point(at, LIVE_HOURS - (len(ats) - 1 - i) * step) for i, at in enumerate(ats)]


def always_on(days: int, every_minutes: int = 60) -> list[Point]:
    """smartd's check cycles on a drive that is always on, every `every_minutes`, up to minutes before NOW."""
    count = days * 24 * 60 // every_minutes
    last = NOW - timedelta(minutes=5)
    return [Point(last - timedelta(minutes=every_minutes * k), LIVE_HOURS - k * every_minutes / 60)
            for k in range(count - 1, -1, -1)]


def line(point: Point, zone: str = "Europe/Berlin", hours: int | None = None, stamp: datetime | None = None) -> str:
    """The line smartd writes at `point` (its stamp in `zone`, 'UTC' as smartd 7.0 wrote it); `hours` replaces
    attribute 9's raw value, `stamp` the time the host's clock said."""
    behind = LIVE_HOURS - point.hours
    used = 12 - behind / 2000
    fields = [(5, 100, 0), (9, 98, int(point.hours) if hours is None else hours), (12, 99, 41),
              (177, 100 - int(used), round(used * 6)), (179, 100, 0), (190, 70, 30),
              (241, 99, int(LIVE_SECTORS - behind * SECTORS_AN_HOUR))]
    written = (stamp or point.at).astimezone(ZoneInfo(zone))
    return f"{written:%Y-%m-%d %H:%M:%S};" + "".join(f"\t{i};{n};{r};" for i, n, r in fields) + "\n"


def write_log(folder: Path, points: Sequence[Point], make: Callable[[int, Point], str | None] | None = None) -> Path:
    """The log of `points` in `folder` (made if needed), each line as `make(index, point)` writes it (None: none),
    else as smartd writes it; and a config naming the folder (returned)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = "".join(x for k, p in enumerate(points) if (x := make(k, p) if make else line(p)) is not None)
    (folder / SDA_LOG).write_text(text)
    config = folder.parent / f"{folder.name}.yaml"
    config.write_text(f"smartd_attrlog: {folder}/\n")
    return config
