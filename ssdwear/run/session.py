"""One run of ssdwear against live drives (or replayed recordings): find, read, assess, remember; the guarded reset.

The CLI builds a Session from its options and calls these methods, each of which returns a value the next takes
(devices -> read -> Run -> assess -> Assessed -> remember); everything here returns data and raises domain errors;
nothing prints.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from ssdwear.assess import report as assess_mod
from ssdwear.assess.context import Context, Past
from ssdwear.assess.history import sample_of
from ssdwear.drives import families
from ssdwear.host.config import Config, DeviceSpec
from ssdwear.model.clock import Clock, utc_now
from ssdwear.model.errors import DriveError, HistoryOff, SsdwearError, StoreError, UsageError
from ssdwear.model.records import PASS_THROUGH_TYPE, DriveId, DriveReport, PciId, RaidVolume, Sample, Snapshot, location
from ssdwear.smartctl.bounds import Bounded, Bounds
from ssdwear.smartctl.calls import Outcome, read_drive, read_many, says_raid_volume, scan
from ssdwear.smartctl.runner import LazyRunner, Runner

from .order import Target, reads_of, slowest_first

if TYPE_CHECKING:
    from ssdwear.model.records import ScanEntry

if TYPE_CHECKING:
    from ssdwear.host.store.lock import Resets
    from ssdwear.host.store.queries import Store
    from ssdwear.host.store.read_times import LastRead

    from .groups import Tools
    from .smartd import LogReadings



def runner_for(config: Config, replay: Path | None = None, program: str = "smartctl") -> Runner:
    """What answers the calls to smartctl (or nvme-cli, `program="nvme"`): the recordings in `replay`, else the
    real program, found and checked as root would need it, with the configured timeout and options."""
    if replay is not None:
        from ssdwear.smartctl.replay import ReplayRunner

        return ReplayRunner(replay, program=program)
    from ssdwear.host.runner import NvmeCliRunner, SmartctlRunner, locate_nvme, locate_smartctl  # live runs only

    if program == "nvme":
        return NvmeCliRunner(locate_nvme(), config.call_timeout)
    return SmartctlRunner(locate_smartctl(config.smartctl), config.call_timeout, options=config.smartctl_options)


@dataclass(frozen=True)
class Run:
    """One reading of drives: each target's outcome (its Snapshot, or the DriveError that says why not), and how
    long reading it took (seconds; None for a drive that was never started: the deadline, a reset elsewhere)."""

    outcomes: tuple[Outcome, ...]
    targets: tuple[Target, ...] = ()
    seconds: tuple[float | None, ...] = ()


@dataclass(frozen=True)
class Assessed:
    """What a run concluded: a report per drive (those that could not be read included), the RAID controllers'
    volumes met (not drives), and what remember() stores: each drive read with its report, and the clock reading
    the reports were made at."""

    reports: list[DriveReport]
    volumes: list[RaidVolume]
    at: datetime
    drives: tuple[tuple[Snapshot, DriveReport], ...] = ()


@dataclass(frozen=True)
class Found:
    """What a scan found: the drives to read, the RAID volumes smartctl could not open (device, what it said),
    and the names it listed that never reach smartctl's command line (each a warning)."""

    devices: list[Target]
    volumes: list[tuple[str, str]]
    skipped: list[str]


def found_in(entries: Sequence[ScanEntry]) -> Found:
    """The drives of a `smartctl --scan-open`: a name or -d type smartctl would take for an option (a leading
    '-') or that carries control characters is skipped with a warning; a RAID controller's volume is no drive."""
    from ssdwear.host.trust import device_problem
    from ssdwear.model.escape import visible

    found = Found([], [], [])
    for entry in entries:
        name, dtype = entry.name, entry.type
        problem = device_problem(name) or (device_problem(dtype) if dtype is not None else None)
        if problem is not None:
            found.skipped.append(f"smartctl --scan-open listed {visible(name)!r} (-d {visible(dtype or '-')}); "
                                 f"skipped: {problem}")
        elif entry.open_error is not None:
            if says_raid_volume(entry.open_error):
                found.volumes.append((name, f"smartctl: {entry.open_error}"))
        else:
            found.devices.append((name, dtype))
    return found


@dataclass(frozen=True)
class Source:
    """Where a run's readings come from, decided once, before its session (choose_source): recordings (`replay`), or
    this machine's smartctl (through `runner` and with the scan the choice made, when it made them)."""

    replay: Path | None = None
    runner: Runner | None = None
    scanned: tuple[ScanEntry, ...] | None = None
    instead: str | None = None  # the recordings stand in for this machine (--fallback-replay): why

    @property
    def origin(self) -> str:
        """As the JSON envelope's origin: 'live' or 'replay:DIR'."""
        return "live" if self.replay is None else f"replay:{self.replay}"


def choose_source(primary: Source, runner: Callable[[], Runner], fallback: Path | None, named: bool,
                  config: Config) -> Source:
    """`primary` (this machine, or --replay's recordings), unless the `fallback` recordings (--fallback-replay)
    stand in because it cannot answer: no smartctl, or a scan that finds no drive it can open, whether or not drives
    are named (on the command line or in the config: a name is read from the recordings then, as it was recorded).
    The runner, and the scan where no drive is named, are kept for the session."""
    from ssdwear.model.errors import SmartctlNotFound

    if fallback is None:
        return primary
    try:
        live = runner()
        entries = tuple(scan(live))
    except SmartctlNotFound as exc:
        return Source(fallback, instead=str(exc).split(":")[0])
    if found_in(entries).devices:
        return replace(primary, runner=live, scanned=None if named or config.devices else entries)
    return Source(fallback, instead="smartctl found no drive" + _unopened(entries))


def _unopened(entries: Sequence[ScanEntry]) -> str:
    """What the scan said of the devices it listed but could not open (not root, say), for the fallback's line."""
    from ssdwear.model.escape import visible

    failed = [f"{visible(e.name)}: {visible(e.open_error)}" for e in entries if e.open_error is not None]
    return f" it could open ({'; '.join(failed[:3])}{'; ...' if len(failed) > 3 else ''})" if failed else ""


@dataclass
class Session:
    config: Config
    runner_factory: Callable[[], Runner]
    # nvme-cli, for the NVMe timer reset only (None: not available; made on first use)
    nvme_runner_factory: Callable[[], Runner] | None = None
    db_path: Path | None = None  # None: do not use the history store
    history_off: str = "no history database is configured"  # why db_path is None, for commands that store
    clock: Clock = utc_now
    represents_minutes: float | None = None
    origin: str = "live"
    # the scan already made (the one that chose this machine over --fallback-replay): devices() does not repeat it
    scanned: Sequence[ScanEntry] | None = None
    attrlog_places: tuple[str, ...] = ()  # where smartd's attribute logs are read (host/smartd.py); () for none
    # the storage tools that describe redundancy groups (run/groups.py), found on first use
    tools_factory: Callable[[], Tools] | None = None
    warnings: list[str] = field(default_factory=list)  # run-level messages for stderr
    interrupted: str | None = None  # the signal that stopped a start (SIGINT, SIGTERM), once one arrived
    bounds: Bounds = field(default_factory=Bounds)  # each call's timeout, each reading's deadline
    # the history database the run lock and the reset lock sit beside (host/store/lock.py), for readers too: the one
    # this run would use; None (recordings) for none
    locks: Path | None = None
    monotonic: Callable[[], float] = time.monotonic  # times reads, deadlines and the lock's wait
    sleep: Callable[[float], None] = time.sleep
    # an NVMe controller's PCI IDs, from the sysfs of the machine read (host/pci.py); None: no such machine
    pci_ids: Callable[[str], PciId | None] | None = None
    _runner: Runner | None = None
    _tools: Tools | None = None
    _nvme_reader: Runner | None = None
    _store: Store | None = None
    _store_writes: bool = False  # the open store may be written (created, upgraded)
    _read_failed: bool = False
    _scan_volumes: list[tuple[str, str]] = field(default_factory=list)  # RAID volumes the scan met (every Assessed)
    _started: float = 0.0  # monotonic: when the run began (after the run lock)
    _deadline_at: float | None = None  # monotonic: when the reading under way must end
    _last_reads: Mapping[str, LastRead] = field(default_factory=dict)  # each place's last read, as the history had it

    def __post_init__(self) -> None:
        self._started = self.monotonic()

    # -- plumbing ------------------------------------------------------------------------------

    @property
    def runner(self) -> Runner:
        """smartctl, each call bounded (smartctl/bounds.py): its timeout, and within a reading its deadline."""
        if self._runner is None:
            self._runner = Bounded(self.runner_factory(), self.bounds, self._left)
        return self._runner

    def elapsed(self) -> float:
        """Seconds since the run began (`ssdwear_run_duration_seconds`)."""
        return self.monotonic() - self._started

    def _begin_reading(self) -> None:
        if self._deadline_at is None and self.bounds.deadline_s is not None:
            self._deadline_at = self.monotonic() + self.bounds.deadline_s

    def _left(self) -> float | None:
        """Seconds left of the reading under way, None when it has no deadline (or none is under way)."""
        return None if self._deadline_at is None else self._deadline_at - self.monotonic()

    @contextmanager
    def run_lock(self, command: str) -> Iterator[None]:
        """One run at a time (host/store/lock.py): held until the block ends. A run without a database (--no-history)
        stores nothing and takes none."""
        if self.db_path is None:
            yield
            return
        from ssdwear.host.store.lock import run_lock

        with run_lock(self.db_path, command, self.config.run_lock_wait, self.sleep, self.monotonic, self.clock()):
            self._started = self.monotonic()
            yield

    @contextmanager
    def resetting(self, targets: Sequence[Target]) -> Iterator[None]:
        """While the block sends resets to `targets`: the readers of other runs leave them alone."""
        if self.db_path is None:
            yield
            return
        from ssdwear.host.store.lock import resetting

        with resetting(self.db_path, targets, self.config.run_lock_wait, self.sleep, self.monotonic):
            yield

    @contextmanager
    def _reset_guard(self) -> Iterator[Resets]:
        """The drives another run is resetting (none to leave alone, while no reset may start): lock.reading_guard.
        A lock file root must not use is a warning, and the reading goes on."""
        from ssdwear.host.store.lock import Resets, reading_guard

        with ExitStack() as held:
            resets = Resets()
            if self.locks is not None:
                try:
                    resets = held.enter_context(reading_guard(self.locks))
                except StoreError as exc:
                    self.warn(f"reset lock not used: {exc}")
            yield resets

    def tools(self) -> Tools:
        """The storage tools' runners (run/groups.py), looked up once."""
        if self._tools is None:
            from .groups import Tools

            self._tools = self.tools_factory() if self.tools_factory is not None else Tools({})
        return self._tools

    def nvme_runner(self) -> Runner:
        """nvme-cli's runner (for the NVMe timer reset only)."""
        if self.nvme_runner_factory is None:
            raise SsdwearError("no way to run nvme-cli here")
        return self.nvme_runner_factory()

    def store(self, write: bool = False) -> Store | None:
        """The history store, opened on first use (sqlite3 is not imported by runs without history).

        For reading it is never created or changed: no database means no history, and one that cannot be read
        is a warning. For writing it is created and upgraded, and any failure is an error.
        """
        if write:
            self.store_wanted()
        if self.db_path is None:
            return None
        if self._store is not None and (self._store_writes or not write):
            return self._store
        if not write and self._read_failed:
            return None
        from ssdwear.host.store.queries import MissingStore, Store

        try:
            store = Store.open(self.db_path, create=write, write=write)
        except StoreError as exc:
            if write:
                raise
            self._read_failed = True
            if not isinstance(exc, MissingStore):
                self.warn(f"history not used: {exc}")
            return None
        if self._store is not None:
            self._store.close()
        self._store, self._store_writes = store, write
        return store

    def store_wanted(self) -> None:
        """For a command that stores: HistoryOff now, before any drive is read, when there is no database to use."""
        if self.db_path is None:
            raise HistoryOff(f"this command stores samples in the history database, but {self.history_off}")

    def writable_store(self) -> Store:
        """The history store for writing (created and upgraded where needed): opened only once there is something to
        store, so that a command that stores nothing creates nothing."""
        store = self.store(write=True)
        assert store is not None  # store(write=True) raises rather than return None
        return store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    # -- finding and reading drives ------------------------------------------------------------

    def devices(self, names: Sequence[str], device_type: str | None = None) -> list[Target]:
        """Devices named on the command line, else the config's list, else every drive smartctl finds (found_in).

        A name or -d type that smartctl would take for an option (a leading '-') or that carries control
        characters never reaches its command line: refused when the user gave it, skipped with a warning when
        the scan printed it.
        """
        from ssdwear.host.trust import device_problem
        from ssdwear.model.escape import visible

        if names:
            for value in (*names, *([device_type] if device_type is not None else [])):
                problem = device_problem(value)
                if problem is not None:
                    raise UsageError(f"device {visible(value)!r} refused: {problem}")
            return [(name, device_type) for name in names]
        if self.config.devices:
            return [(d.device, d.type) for d in self.config.devices]  # checked when the config was read
        self._begin_reading()  # the scan is part of the reading: its deadline starts here
        found = found_in(self.scanned if self.scanned is not None else scan(self.runner))
        for message in found.skipped:
            self.warn(message)
        self._scan_volumes.extend(v for v in found.volumes if v not in self._scan_volumes)
        return found.devices

    def read(self, devices: Sequence[Target]) -> Run:
        """One reading of `devices` (within the deadline, which a scan before it began), each timed, the slowest at
        their last read started first (run/order.py); a drive another run is resetting now is left unread
        (lock.reading_guard)."""
        self._begin_reading()
        took: dict[Target, float] = {}
        try:
            with self._reset_guard() as resets:
                busy = {t: resets.left_alone(*t) for t in devices if resets.covers(*t)}
                rest = slowest_first([t for t in devices if t not in busy], self._read_times())
                done: dict[Target, list[Outcome]] = {}
                for target, outcome in zip(rest, read_many(self.runner, rest, workers=self.config.workers,
                                                           wake=self.config.wake, reader=self._timed(took),
                                                           nvme=self._nvme_reads), strict=True):
                    done.setdefault(target, []).append(outcome)
                outcomes = tuple(busy[t] if t in busy else done[t].pop(0) for t in devices)  # as given
        finally:
            self._deadline_at = None
        return Run(outcomes, tuple(devices), tuple(took.get(t) for t in devices))

    def _read_times(self) -> Mapping[str, LastRead]:
        """Each place's last read, from the history (none without one)."""
        store = self.store()
        if store is not None:
            from ssdwear.host.store.read_times import load

            try:
                self._last_reads = load(store)
            except StoreError as exc:
                self.warn(f"last read times not used (the drives are read in the scan's order): {exc}")
        return self._last_reads

    def remember_reads(self, assessed: Assessed) -> None:
        """Each place's read in this run, for the next run's order (sample, notify): stored where the history is
        written or already exists, never a database made for them alone; a failure is a warning."""
        if self.db_path is None or not (self._store_writes or self.db_path.exists()):
            return
        reads = reads_of(assessed.reports, self._last_reads)
        if not reads:
            return
        from ssdwear.host.store.read_times import record

        try:
            record(self.writable_store(), reads, assessed.at)
        except StoreError as exc:
            self.warn(f"read times not stored: {exc}")

    def _timed(self, took: dict[Target, float]) -> Callable[..., Snapshot]:
        """read_drive, its time kept in `took`; a drive whose turn comes after the deadline is not started."""
        def read(runner: Runner, device: str, device_type: str | None, wake: bool, nvme: Runner | None = None
                 ) -> Snapshot:
            left = self._left()
            if left is not None and left <= 0:
                raise self.bounds.passed(device)
            started = self.monotonic()
            try:
                return read_drive(runner, device, device_type, wake, nvme=nvme, pci=self.pci_ids)
            finally:
                took[(device, device_type)] = self.monotonic() - started

        return read

    @property
    def _nvme_reads(self) -> Runner | None:
        """nvme-cli for the NVMe endurance logs, made when a drive first needs it (None: no way to run it here)."""
        if self.nvme_runner_factory is None:
            return None
        if self._nvme_reader is None:
            self._nvme_reader = Bounded(LazyRunner(self.nvme_runner_factory), self.bounds, self._left)
        return self._nvme_reader

    def _volumes(self, met: Sequence[tuple[str, str]], targets: Sequence[Target]) -> list[RaidVolume]:
        """The RAID controllers' volumes met (the scan's and a run's: not drives, notes), with the pass-through
        drives the run read."""
        drives = tuple(location(name, dtype) for name, dtype in targets if dtype and PASS_THROUGH_TYPE.search(dtype))
        seen: dict[str, RaidVolume] = {}
        for device, controller in [*self._scan_volumes, *met]:
            seen.setdefault(device, RaidVolume(device, controller, drives))
        return list(seen.values())

    def volumes_with_drives(self, assessed: Assessed) -> list[RaidVolume]:
        """The RAID volumes met, with the pass-through drives a scan finds behind the controllers: for a command
        that read only the volume (retire-check), so that it can say how to reach the drives."""
        try:
            found = tuple(location(name, dtype) for name, dtype in self.devices([])
                          if dtype and PASS_THROUGH_TYPE.search(dtype))
        except SsdwearError:
            found = ()
        known = {v.device for v in assessed.volumes}
        scanned = [RaidVolume(device, controller) for device, controller in self._scan_volumes if device not in known]
        return [replace(v, drives=v.drives or found) for v in [*assessed.volumes, *scanned]]

    # -- turning readings into reports ---------------------------------------------------------

    def context(self, snap: Snapshot, now: datetime, past: bool = False) -> Context:
        """What ssdwear knows of the drive (its stored reset, last look, window baseline; with `past`, its stored
        samples and smartd's attribute log of it): everything its one assessment reads beyond the reading."""
        store = self.store()
        key = DriveId.of(snap).key
        reset = look = previous = window = None
        if store is not None:
            try:
                if key is not None:
                    self._clock_rule(store, key, now)
                    reset = store.last_reset(key, until=now)
                    look = store.last_look(key, until=now)
                    window = store.window_start(key, until=now)
                if snap.device:
                    previous = store.serial_at(location(snap.device, snap.device_type))
            except StoreError as exc:
                self.warn(f"history not used: {exc}")
        return Context(now=now, represents_minutes=self.represents_minutes, ratings=self.config.ratings,
                       reset=reset, last_look=look, previous_serial=previous,
                       interval_level=self.config.interval_level, window_start=window,
                       past=self.past(snap, key, now) if past else None)

    def assess(self, run: Run) -> Assessed:
        """A report for every outcome (failed drives included; RAID volumes are listed apart, not reported).

        A drive whose assessment fails on a bug becomes that drive's error; the other drives are still reported.
        """
        now = self.clock()
        reports: list[DriveReport] = []
        drives: list[tuple[Snapshot, DriveReport]] = []
        volumes: list[tuple[str, str]] = []
        seconds = run.seconds or (None,) * len(run.outcomes)
        for outcome, took in zip(run.outcomes, seconds, strict=True):
            if isinstance(outcome, DriveError):
                if outcome.kind == "raid-volume":
                    volumes.append((outcome.device, outcome.message))
                else:
                    reports.append(replace(assess_mod.failed(outcome.device, outcome.message, outcome.device_type,
                                                             outcome.kind), read_seconds=took))
                continue
            controller = families.volume(outcome)
            if controller is not None:
                volumes.append((outcome.device or outcome.source, controller))
                continue
            try:
                report = replace(assess_mod.assess(outcome, self.context(outcome, now, past=True)),
                                 read_seconds=took)
                drives.append((outcome, report))
            except Exception as exc:
                if os.environ.get("SSDWEAR_DEBUG"):
                    raise
                report = assess_mod.failed(outcome.device or outcome.source, f"internal error assessing this drive "
                                           f"({type(exc).__name__}: {exc}); set SSDWEAR_DEBUG=1 for a traceback and "
                                           "please report it", outcome.device_type, "internal")
            reports.append(report)
        return Assessed(reports, self._volumes(volumes, run.targets), now, tuple(drives))

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _clock_rule(self, store: Store, key: str, now: datetime) -> None:
        """The warnings of a run whose drives have stored rows dated after now, or samples that are not numbers
        (both then ignored)."""
        for warning in store.ignored([key], now):
            self.warn(warning)

    def past(self, snap: Snapshot, key: str | None, now: datetime) -> Past:
        """The drive's past its assessment reads (history.choose_series picks the series): the samples stored since
        the history window, and smartd's attribute log of the drive over it."""
        if key is None:
            return Past()
        since = now - timedelta(minutes=self.config.history_window_minutes)
        stored = self._stored(key, since)
        log, notes = self.attrlog(snap, since, now)
        if log is None:
            return Past(stored, notes=notes)
        return Past(stored, log.samples, log.summary, log.notes, notes)

    def _stored(self, key: str, since: datetime) -> list[Sample]:
        store = self.store()
        if store is None:
            return []
        try:
            return store.samples(key, since=since)
        except StoreError as exc:
            self.warn(f"history not used: {exc}")
            return []

    def attrlog(self, snap: Snapshot, since: datetime, now: datetime) -> tuple[LogReadings | None, list[str]]:
        """The drive's smartd attribute log readings since `since` (None where there is none), and notes."""
        if not self.attrlog_places:
            return None, []
        from .smartd import drive_log

        return drive_log(self.attrlog_places, snap, since, now, self.config.ratings)

    def remember(self, assessed: Assessed) -> list[tuple[str, str]]:
        """One sample per drive assessed, all in one transaction, stamped with the time of the assessment.

        Returns (device, why) for each drive whose sample was not stored; raises StoreError when the database
        itself cannot be used (then nothing was stored).
        """
        self.store_wanted()
        rows = []
        skipped: list[tuple[str, str]] = []
        by_key: dict[str, str] = {}
        for snap, report in assessed.drives:
            device = location(snap.device or snap.source, snap.device_type)
            drive = DriveId.of(snap)
            if drive.key is None:
                skipped.append((device, "drive has no serial number or WWN; no sample stored"))
                continue
            by_key[drive.key] = device
            rows.append((drive, sample_of(snap, report, assessed.at), device))
        rejected = self.writable_store().add_samples(rows) if rows else {}  # nothing to store: no database made
        return skipped + [(by_key[key], f"sample not stored: {why}") for key, why in rejected.items()]


__all__ = ["Assessed", "DeviceSpec", "Found", "Run", "Session", "SsdwearError", "sample_of", "utc_now"]
