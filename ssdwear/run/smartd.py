"""A live drive's smartd attribute log as readings: found by the name smartd gives it, read streaming (host/smartd.py),
confirmed against the drive, and each line used turned into a sample exactly as a stored sample is made: the line as a
snapshot of the drive (smartctl/smartd.py), its figures read through the drive table (report.figures: a line feeds
the drive's history and is not an assessment of its own), `sample_of`.

Bounds: the whole file is streamed once (its lines counted and checked, the span taken); of the lines in the
projection's window at most 2 x WINDOW_LINES are kept, evenly spaced (every k-th, k doubling as needed), and only
those are read in full. The clock: power-on hours. Where a line's timestamp is later than the power-on
hours after it allow (the clock was ahead when smartd wrote it), it is moved back to what they allow.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from ssdwear.assess import report as assess_mod
from ssdwear.assess.context import Context
from ssdwear.assess.history import sample_of
from ssdwear.drives.ratings import Rating
from ssdwear.host import smartd as logs
from ssdwear.model.escape import display_path
from ssdwear.model.records import DriveId, Sample, Snapshot, location
from ssdwear.model.units import date_text, hours_text, time_text
from ssdwear.smartctl import smartd as fmt

if TYPE_CHECKING:
    from ssdwear.host.store.queries import Store

WINDOW_LINES = 128  # lines of the window read in full: between this and twice this, evenly spaced
SLACK_HOURS = 1.0  # power-on hours count whole hours: one may tick at once after the previous line


@dataclass(frozen=True)
class LogReadings:
    """What one drive's attribute log gave."""

    path: Path
    kind: fmt.LogKind
    samples: tuple[Sample, ...]  # the window's readings in file order, timestamps repaired by the clock rule
    lines: int  # lines in smartd's format in the part read
    bad: int  # lines skipped, with why
    first: datetime | None  # the first and last lines' times (UTC)
    last: datetime | None
    notes: tuple[str, ...] = ()

    @property
    def summary(self) -> str:
        """'smartd:attrlog FILE: 17,520 lines over 365.0 days (2025-12-01 to 2026-12-01), 2 skipped'."""
        span = "" if self.first is None or self.last is None else (
            f" over {(self.last - self.first).total_seconds() / 86400:,.1f} days "
            f"({date_text(self.first)} to {date_text(self.last)})")
        skipped = f", {self.bad:,} skipped" if self.bad else ""
        return f"{fmt.SOURCE} {display_path(self.path)}: {self.lines:,} lines{span}{skipped}"


class _Thinned:
    """Every k-th line offered, k doubling whenever 2 x limit are held: evenly spaced, never more than 2 x limit."""

    def __init__(self, limit: int) -> None:
        self.limit, self.stride, self.seen = limit, 1, 0
        self.kept: list[bytes] = []

    def offer(self, raw: bytes) -> None:
        if self.seen % self.stride == 0:
            self.kept.append(raw)
            if len(self.kept) >= 2 * self.limit:
                self.kept, self.stride = self.kept[::2], self.stride * 2
        self.seen += 1


class _Hourly:
    """The first line of every hour (ssdwear's own sampling interval): what an import stores."""

    def __init__(self) -> None:
        self.kept: list[bytes] = []

    def offer(self, raw: bytes) -> None:
        if not self.kept or self.kept[-1][:13] != raw[:13]:  # 'YYYY-MM-DD HH'
            self.kept.append(raw)


def _read(path: Path, since: str, window: _Thinned | _Hourly) -> tuple[list[bytes], logs.Stats]:
    """The lines `window` keeps of those from `since` on (timestamps as text), and the newest line; the stats."""
    fd = logs.open_log(path)
    stats = logs.Stats()
    newest, start = b"", since.encode("ascii")
    try:
        for raw in logs.lines(fd, stats):
            if raw >= start:  # the timestamp leads the line, and sorts as text
                window.offer(raw)
            newest = raw
    finally:
        os.close(fd)
    kept = window.kept
    if newest and (not kept or kept[-1] is not newest):
        kept.append(newest)
    return kept, stats


def _repair(times: list[datetime], hours: Sequence[float], now: datetime) -> int:
    """The clock rule, from the newest line back: no line may be later than the power-on hours after it allow (a
    clock ahead), none after now; a line before a counter reset is left alone. Returns how many were moved."""
    moved = 0
    if times and times[-1] > now:
        times[-1], moved = now, 1
    for i in range(len(times) - 2, -1, -1):
        gap = hours[i + 1] - hours[i]
        if gap < 0:
            continue
        latest = times[i + 1] - timedelta(hours=max(gap - SLACK_HOURS, 0.0))
        if times[i] > latest:
            times[i], moved = latest, moved + 1
    return moved


def _foreign(snap: Snapshot, last_hours: float | None, last_at: datetime, now: datetime) -> str | None:
    """Why the log is not this drive's, by its newest line: more power-on hours than the drive has now."""
    live = snap.power_on_hours
    if live is None or last_hours is None or last_hours <= live + SLACK_HOURS:
        return None
    return (f"its newest line ({time_text(last_at)}) has {hours_text(last_hours)}, more than the drive "
            f"has now ({live:,.0f}): another drive's log under the same name (a drive replaced), not used")


@dataclass
class _Parsed:
    """The usable lines of the part read, each made a sample as it is parsed so that no parsed line is kept: the samples
    (dated by the line's own stamp), the clock (power-on hours, times) and the first change of attributes."""

    raws: list[bytes] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    hours: list[float] = field(default_factory=list)
    times: list[datetime] = field(default_factory=list)
    ids: frozenset[int] | None = None  # the attributes of the latest line
    changed: tuple[str, str] | None = None  # the first change of attributes: (its line's stamp, '-1, +2')


def _line_sample(snap: Snapshot, line: fmt.Line, kind: fmt.LogKind, hours: float, at: datetime,
              ratings: Sequence[Rating], source: str) -> Sample:
    seen = fmt.line_snapshot(snap, line, kind, hours, source)
    return sample_of(seen, assess_mod.figures(seen, Context(now=at, ratings=ratings)), at)


def _parse(raws: Iterable[bytes], snap: Snapshot, kind: fmt.LogKind, decode: fmt.Decoder | None,
           stats: logs.Stats, ratings: Sequence[Rating], source: str) -> _Parsed:
    out = _Parsed()
    for raw in raws:
        line = fmt.parse_line(raw, kind)
        if isinstance(line, str):
            stats.skip(line)
            continue
        hours = fmt.line_hours(line, kind, decode)
        if hours is None:
            stats.skip("no power-on hours in the line")
            continue
        at = logs.local_time(line.stamp)
        ids = frozenset(i for i, _, _ in line.ata)
        if out.ids is not None and ids != out.ids and out.changed is None:  # a firmware update, or a partial read
            said = ", ".join([*(f"-{i}" for i in sorted(out.ids - ids)), *(f"+{i}" for i in sorted(ids - out.ids))])
            out.changed = (line.stamp, said)
        out.ids = ids
        out.raws.append(raw)
        out.samples.append(_line_sample(snap, line, kind, hours, at, ratings, source))
        out.hours.append(hours)
        out.times.append(at)
    return out


def _redate(parsed: _Parsed, before: Sequence[datetime], snap: Snapshot, kind: fmt.LogKind,
            ratings: Sequence[Rating], source: str) -> None:
    """The samples whose time the clock rule moved, made again at their new time (rare: a clock ahead)."""
    for i, (was, at) in enumerate(zip(before, parsed.times, strict=True)):
        if was != at:
            line = fmt.parse_line(parsed.raws[i], kind)
            assert not isinstance(line, str)  # it parsed before
            parsed.samples[i] = _line_sample(snap, line, kind, parsed.hours[i], at, ratings, source)


def _notes(name: str, stats: logs.Stats, moved: int, decoded_as: str | None, changed: tuple[str, str] | None
           ) -> tuple[str, ...]:
    """What reading the log changed or skipped, each said once."""
    notes = []
    if moved:
        notes.append(f"{moved} line(s) dated later than their power-on hours allow (the clock was ahead): placed by "
                     "their power-on hours")
    if stats.skipped_bytes:
        notes.append(f"{name} is {stats.skipped_bytes + logs.MAX_READ_BYTES:,} bytes; only its last "
                     f"{logs.MAX_READ_BYTES:,} were read")
    if stats.bad:
        why = ", ".join(f"{n:,} {reason}" for reason, n in sorted(stats.reasons.items()))
        notes.append(f"{stats.bad:,} line(s) of {name} skipped ({why})")
    if decoded_as is not None and decoded_as != "hours":
        notes.append(f"attribute 9 read as {decoded_as}, as the drive's own reading shows it")
    if changed is not None:
        notes.append(f"the drive's attributes changed at {changed[0]} ({changed[1]}: a firmware update?); each line "
                     "is read by the attributes it holds")
    return tuple(notes)


def read_log(found: logs.Found, snap: Snapshot, since: datetime | None, now: datetime,
             ratings: Sequence[Rating] = ()) -> LogReadings | str:
    """The drive's readings from one log since `since` (a window's worth, evenly thinned), or with `since` None
    the first line of every hour of the whole log (an import); or why there are none (one line naming the
    file)."""
    name = display_path(found.path)
    if found.note is not None:
        return found.note
    if found.kind == "scsi":
        return (f"{name}: smartd's SCSI attribute log holds error counters and temperature, no power-on hours and no "
                "wear indicator: nothing to project from")
    decoder = fmt.poh_decoder(snap) if found.kind == "ata" else None
    if found.kind == "ata" and decoder is None:
        return (f"{name}: the drive's attribute 9 does not give its power-on hours in any layout smartd's raw values "
                "can be read in, so the log's lines have no clock: not used")
    try:
        raws, stats = _read(found.path, "", _Hourly()) if since is None else \
            _read(found.path, logs.local_stamp(since), _Thinned(WINDOW_LINES))
    except logs.AttrlogError as exc:
        return str(exc)
    source = str(found.path)
    parsed = _parse(raws, snap, found.kind, decoder[1] if decoder else None, stats, ratings, source)
    del raws  # the lines used are in parsed.raws
    first = logs.local_time(stats.first) if stats.first else None
    last = logs.local_time(stats.last) if stats.last else None
    if not parsed.samples:
        return f"{name}: no usable line ({stats.lines:,} read, {stats.bad:,} skipped)"
    foreign = _foreign(snap, parsed.hours[-1], parsed.times[-1], now)
    if foreign is not None:
        return f"{name}: {foreign}"
    before = list(parsed.times)
    moved = _repair(parsed.times, parsed.hours, now)
    if moved:
        _redate(parsed, before, snap, found.kind, ratings, source)
    notes = _notes(name, stats, moved, decoder[0] if decoder else None, parsed.changed)
    samples = parsed.samples
    return LogReadings(found.path, found.kind, tuple(samples), stats.lines, stats.bad, first, last, notes)


def drive_log(places: Sequence[str], snap: Snapshot, since: datetime | None, now: datetime,
              ratings: Sequence[Rating] = ()) -> tuple[LogReadings | None, list[str]]:
    """The drive's attribute log readings (read_log: since `since`, or hourly) from the first place that holds a
    usable one, and notes on the files that bear its name but were not used."""
    notes: list[str] = []
    for place in places:
        for found in logs.find(place, snap):
            result = read_log(found, snap, since, now, ratings)
            if isinstance(result, str):
                notes.append(result)
            else:
                return result, notes
    return None, notes


@dataclass(frozen=True)
class Imported:
    """What `import smartd` did for one drive."""

    where: str
    drive: DriveId
    added: int = 0  # samples stored
    offered: int = 0  # hourly readings the log gave
    summary: str | None = None  # the log read (LogReadings.summary)
    message: str | None = None  # why nothing was imported


def import_logs(store: Store, places: Sequence[str], drives: Sequence[Snapshot], now: datetime,
                ratings: Sequence[Rating] = ()) -> list[Imported]:
    """Each drive's attribute log copied into the history: the first line of every hour (ssdwear's own sampling
    interval), each once (Store.import_samples: importing again adds nothing)."""
    out = []
    for snap in drives:
        where, drive = location(snap.device or snap.source, snap.device_type), DriveId.of(snap)
        said = Imported(where, drive)
        if drive.key is None:
            out.append(replace(said, message="the drive has no serial number or WWN: nothing to key its samples by"))
            continue
        log, notes = drive_log(places, snap, None, now, ratings)
        if log is None:
            why = "; ".join(notes) or \
                f"no smartd attribute log for it in {', '.join(places) or '(no place)'}"
            out.append(replace(said, message=why))
            continue
        added = store.import_samples(drive, log.samples)
        out.append(replace(said, added=added, offered=len(log.samples), summary=log.summary))
    return out
