"""A live drive's smartd attribute log as readings: found by the name smartd gives it, read streaming (host/smartd.py),
confirmed against the drive, and each line used turned into a sample exactly as a stored sample is made: the line as a
snapshot of the drive (smartctl/smartd.py), its figures read through the drive table (report.figures: a line feeds
the drive's history and is not an assessment of its own), `sample_of`.

Bounds: the whole file is streamed once (its lines counted and checked, the span taken); the lines in the
projection's window are parsed, those whose power-on hours no drive can have or that leave their order are skipped
(fmt.hours_problem, fmt.InOrder), and of the others at most 2 x WINDOW_LINES are kept, evenly spaced (every k-th,
k doubling as needed), and only those are read in full. The clock: power-on hours. Where a line's timestamp is later
than the power-on hours after it allow (the clock was ahead when smartd wrote it), it is moved back (_placed).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from ssdwear.assess import report as assess_mod
from ssdwear.assess.context import Context
from ssdwear.assess.history import sample_of
from ssdwear.drives.ratings import Rating
from ssdwear.host import smartd as logs
from ssdwear.model.counts import count_text
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


@dataclass(frozen=True, slots=True)
class _Usable:
    """A line in smartd's format with plausible power-on hours (read again in full when its sample is made; an import
    holds one of these for every hour of the log)."""

    raw: bytes
    hours: float

    @property
    def stamp(self) -> str:
        return self.raw[:fmt.STAMP_LENGTH].decode("ascii")


class _Thinned:
    """Every k-th line offered, k doubling whenever 2 x limit are held: evenly spaced, never more than 2 x limit."""

    def __init__(self, limit: int) -> None:
        self.limit, self.stride, self.seen = limit, 1, 0
        self.kept: list[_Usable] = []

    def offer(self, line: _Usable) -> None:
        if self.seen % self.stride == 0:
            self.kept.append(line)
            if len(self.kept) >= 2 * self.limit:
                self.kept, self.stride = self.kept[::2], self.stride * 2
        self.seen += 1


class _Hourly:
    """The first usable line of every hour (ssdwear's own sampling interval): what an import stores."""

    def __init__(self) -> None:
        self.kept: list[_Usable] = []

    def offer(self, line: _Usable) -> None:
        if not self.kept or self.kept[-1].raw[:13] != line.raw[:13]:  # 'YYYY-MM-DD HH'
            self.kept.append(line)


CONTEXT_LINES = 8  # lines before the window read for the order of power-on hours only (a glitch at its start)


@dataclass
class _Lines:
    """How a log's lines are read: the kind, attribute 9's decoder, the live drive's power-on hours (the order's last
    word: the log ends before the drive's reading now), and what reading them met."""

    kind: fmt.LogKind
    decode: fmt.Decoder | None
    live_hours: float | None
    stats: logs.Stats = field(default_factory=logs.Stats)

    def usable(self, raw: bytes, stats: logs.Stats | None = None) -> _Usable | None:
        """The line, or None when it is skipped (counted in `stats`, the log's own unless given)."""
        said = self.stats if stats is None else stats
        line = fmt.parse_line(raw, self.kind)
        if isinstance(line, str):
            said.skip(line)
            return None
        hours = fmt.line_hours(line, self.kind, self.decode)
        problem = "no power-on hours in the line" if hours is None else fmt.hours_problem(hours)
        if problem is not None:
            said.skip(problem)
            return None
        assert hours is not None  # (a line without hours has its problem)
        return _Usable(raw, hours)


def _read(path: Path, since: str, window: _Thinned | _Hourly, how: _Lines) -> list[_Usable]:
    """The usable lines `window` keeps of those from `since` on (timestamps as text: they lead the line and sort
    as text), in the order of their power-on hours (fmt.InOrder: the lines out of it are skipped and counted), and
    the newest of them."""
    fd = logs.open_log(path)
    order: fmt.InOrder[_Usable | None] = fmt.InOrder()
    before: deque[bytes] = deque(maxlen=CONTEXT_LINES)
    start, newest = since.encode("ascii"), None

    def offer(hours: float, line: _Usable | None) -> None:
        nonlocal newest
        for ok in order.offer(hours, line):
            if ok is not None:
                window.offer(ok)
                newest = ok

    try:
        for raw in logs.lines(fd, how.stats, how.kind):
            if raw < start:
                before.append(raw)
                continue
            while before:  # the lines just before the window: what the window's first lines are in order with
                seen = how.usable(before.popleft(), logs.Stats())
                if seen is not None:
                    offer(seen.hours, None)
            line = how.usable(raw)
            if line is not None:
                offer(line.hours, line)
    finally:
        os.close(fd)
    if how.live_hours is not None:
        offer(how.live_hours, None)  # the drive now: a last line of the log out of order with it is skipped
    for ok in order.close():
        if ok is not None:
            window.offer(ok)
            newest = ok
    for _ in filter(None, order.dropped):
        how.stats.skip(fmt.OUT_OF_ORDER)
    kept = window.kept
    if newest is not None and (not kept or kept[-1] is not newest):
        kept.append(newest)
    return kept


MIN_SPACING = timedelta(seconds=10)  # smartd checks every 10 s at the most (smartd(8), -i): lines are this far apart


def _latest(after: datetime, after_hours: float | None, hours: float) -> datetime | None:
    """The latest a line of `hours` can have been written, by the line after it (written at `after` with
    `after_hours`): at least its power-on hours must lie between them (they count whole hours: one may tick at once);
    None before a counter reset (fewer hours after it: nothing to say)."""
    if after_hours is None:
        return after
    gap = after_hours - hours
    return None if gap < 0 else after - timedelta(hours=max(gap - SLACK_HOURS, 0.0))


@dataclass(frozen=True)
class _Placed:
    """The lines' times after the clock rule, how many it moved, and the first line read as local time (the lines
    before it are UTC: written by smartd 7.0 or older), or None."""

    times: list[datetime]
    moved: int
    local_from: int | None


def _placed(lines: Sequence[_Usable], utc: bool | None, now: datetime, live_hours: float | None) -> _Placed:
    """The clock rule, from the drive's reading now back to the oldest line: no line may be later than the power-on
    hours after it allow, nor after now. A line that is (the clock was ahead) is moved back and keeps its distance
    from the line after it where its own stamp gives one that fits its power-on hours (lines written while the clock
    was ahead are shifted alike), else the power-on hours between them, at least MIN_SPACING: moved lines keep
    distinct times in their order. Stamps are read in smartd's zone: UTC where `utc` (smartd 7.0 and older), else
    local time; a line of a local log that does not fit as local time but fits as UTC where its power-on hours put
    it (smartd upgraded from 7.0 or older since it wrote it) is read as UTC, and so is every line before it."""
    read = [logs.local_time(line.stamp, bool(utc)) for line in lines]
    times, moved, local_from = list(read), 0, None if utc else 0
    after, after_hours = now, live_hours
    for i in range(len(lines) - 1, -1, -1):
        hours = lines[i].hours
        latest = _latest(after, after_hours, hours)
        if latest is not None and times[i] > latest:
            if local_from == 0 and _fits_as_utc(lines[i].stamp, after, after_hours, hours, latest):
                local_from = i + 1
                read[: i + 1] = times[: i + 1] = [logs.local_time(line.stamp, True) for line in lines[: i + 1]]
            else:
                gap = timedelta(hours=max(0.0, (after_hours if after_hours is not None else hours) - hours))
                own = read[i + 1] - read[i] if i + 1 < len(lines) else timedelta(0)
                times[i] = after - (own if own >= after - latest and own > timedelta(0) else max(gap, MIN_SPACING))
                moved += 1
        after, after_hours = times[i], hours
    return _Placed(times, moved, local_from or None)


UTC_SWITCH_HOURS = 1.0  # a smartd upgrade restarts it (or the machine): the line after is this much later at most


def _fits_as_utc(stamp: str, after: datetime, after_hours: float | None, hours: float, latest: datetime) -> bool:
    """Whether a line whose local reading is later than the line after it allows sits where its power-on hours put
    it when read as UTC: not later than allowed, and no further before the line after it than its power-on hours
    and an upgrade's restart."""
    if after_hours is None:
        return False
    at = logs.local_time(stamp, True)
    return after - timedelta(hours=after_hours - hours + SLACK_HOURS + UTC_SWITCH_HOURS) <= at <= latest


def _foreign(snap: Snapshot, last_hours: float | None, last_at: datetime, now: datetime) -> str | None:
    """Why the log is not this drive's, by its newest line: more power-on hours than the drive has now."""
    live = snap.power_on_hours
    if live is None or last_hours is None or last_hours <= live + SLACK_HOURS:
        return None
    return (f"its newest line ({time_text(last_at)}) has {hours_text(last_hours)}, more than the drive "
            f"has now ({live:,.0f}): another drive's log under the same name (a drive replaced), not used")


def _line_sample(snap: Snapshot, line: fmt.Line, kind: fmt.LogKind, hours: float, at: datetime,
                 ratings: Sequence[Rating], source: str) -> Sample:
    seen = fmt.line_snapshot(snap, line, kind, hours, source)
    return sample_of(seen, assess_mod.figures(seen, Context(now=at, ratings=ratings)), at)


def _samples(lines: Sequence[_Usable], times: Sequence[datetime], snap: Snapshot, kind: fmt.LogKind,
             ratings: Sequence[Rating], source: str) -> tuple[list[Sample], tuple[str, str] | None]:
    """Each line made a sample at its time, one at a time (no parsed line is kept), and the first change of attributes:
    (its line's stamp, '-1, +2')."""
    samples: list[Sample] = []
    ids: frozenset[int] | None = None
    changed: tuple[str, str] | None = None
    for usable, at in zip(lines, times, strict=True):
        line = fmt.parse_line(usable.raw, kind)
        assert not isinstance(line, str)  # it parsed before
        now_ids = frozenset(i for i, _, _ in line.ata)
        if ids is not None and now_ids != ids and changed is None:  # a firmware update, or a partial read
            said = ", ".join([*(f"-{i}" for i in sorted(ids - now_ids)), *(f"+{i}" for i in sorted(now_ids - ids))])
            changed = (line.stamp, said)
        ids = now_ids
        samples.append(_line_sample(snap, line, kind, usable.hours, at, ratings, source))
    return samples, changed


def _notes(name: str, stats: logs.Stats, placed: _Placed, utc: bool | None, lines: Sequence[_Usable],
           decoded_as: str | None, changed: tuple[str, str] | None) -> tuple[str, ...]:
    """What reading the log changed or skipped, each said once."""
    notes = []
    if utc:
        notes.append("timestamps read as UTC: smartd 7.0 and older write UTC (local time from 7.1 on), and this "
                     "machine's smartmontools is older than 7.1")
    elif placed.local_from is not None:
        notes.append(f"lines up to {lines[placed.local_from - 1].stamp} read as UTC: they fit their power-on hours "
                     "only so (written by smartd 7.0 or older, which wrote UTC, before an upgrade)")
    if placed.moved:
        notes.append(f"{count_text(placed.moved, 'line')} dated later than {'its' if placed.moved == 1 else 'their'} "
                     "power-on hours allow (the clock was ahead): placed by their power-on hours")
    if stats.skipped_bytes:
        notes.append(f"{name} is {stats.skipped_bytes + logs.MAX_READ_BYTES:,} bytes; only its last "
                     f"{logs.MAX_READ_BYTES:,} were read")
    if stats.bad:
        why = ", ".join(f"{n:,} {reason}" for reason, n in sorted(stats.reasons.items()))
        notes.append(f"{count_text(stats.bad, 'line')} of {name} skipped ({why})")
    if decoded_as is not None and decoded_as != "hours":
        notes.append(f"attribute 9 read as {decoded_as}, as the drive's own reading shows it")
    if changed is not None:
        notes.append(f"the drive's attributes changed at {changed[0]} ({changed[1]}: a firmware update?); each line "
                     "is read by the attributes it holds")
    return tuple(notes)


def read_log(found: logs.Found, snap: Snapshot, since: datetime | None, now: datetime,
             ratings: Sequence[Rating] = ()) -> LogReadings | str:
    """The drive's readings from one log since `since` (a window's worth, evenly thinned), or with `since` None
    the first usable line of every hour of the whole log (an import); or why there are none (one line naming the
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
    utc = fmt.stamps_in_utc(snap.smartctl_version) if found.kind == "ata" else False  # NVMe logs: 7.5 on
    live_hours = snap.power_on_hours if snap.power_on_hours_trusted else None
    how = _Lines(found.kind, decoder[1] if decoder else None, live_hours)
    try:
        lines = _read(found.path, "", _Hourly(), how) if since is None else \
            _read(found.path, logs.local_stamp(since, bool(utc)), _Thinned(WINDOW_LINES), how)
    except logs.AttrlogError as exc:
        return str(exc)
    stats = how.stats
    if not lines:
        return f"{name}: no usable line ({stats.lines:,} read, {stats.bad:,} skipped)"
    placed = _placed(lines, utc, now, live_hours)
    foreign = _foreign(snap, lines[-1].hours, placed.times[-1], now)
    if foreign is not None:
        return f"{name}: {foreign}"
    samples, changed = _samples(lines, placed.times, snap, found.kind, ratings, str(found.path))
    notes = _notes(name, stats, placed, utc, lines, decoder[0] if decoder else None, changed)
    first = logs.local_time(stats.first, bool(utc) or placed.local_from is not None) if stats.first else None
    last = logs.local_time(stats.last, bool(utc)) if stats.last else None
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
    rejected: int = 0  # of those, readings the history cannot hold (values that do not fit), not stored
    rejected_why: str | None = None  # why, with how many each
    summary: str | None = None  # the log read (LogReadings.summary)
    message: str | None = None  # why nothing was imported

    @property
    def present(self) -> int:
        """The readings the history held already (importing again)."""
        return self.offered - self.added - self.rejected


def import_logs(store: Callable[[], Store], places: Sequence[str], drives: Sequence[Snapshot], now: datetime,
                ratings: Sequence[Rating] = ()) -> list[Imported]:
    """Each drive's attribute log copied into the history: the first line of every hour (ssdwear's own sampling
    interval), each once (Store.import_samples: importing again adds nothing). The history is opened (`store`,
    created where there is none) only once a log gives readings to store."""
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
        added, rejected = store().import_samples(drive, log.samples)
        said_why = "; ".join(f"{n:,} {reason}" for reason, n in sorted(rejected.items()))
        out.append(replace(said, added=added, offered=len(log.samples), rejected=sum(rejected.values()),
                           rejected_why=said_why or None, summary=log.summary))
    return out
