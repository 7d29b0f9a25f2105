"""One run of ssdwear against live drives (or replayed recordings): find, read, remember, assess.

The CLI builds a Session from its options and calls these methods; everything here returns data
(reports, outcomes) and raises domain errors; nothing prints.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Optional

from ssdwear.assess import history as history_mod
from ssdwear.assess import report as assess_mod
from ssdwear.assess.context import Context
from ssdwear.assess.windowed import with_windowed
from ssdwear.drives import vendors
from ssdwear.host.config import Config, DeviceSpec
from ssdwear.model.clock import Clock, utc_now
from ssdwear.model.errors import DriveError, HistoryOff, SsdwearError, StoreError, UsageError
from ssdwear.model.records import PASS_THROUGH_TYPE, DriveId, DriveReport, RaidVolume, Sample, Snapshot, location
from ssdwear.smartctl.calls import Outcome, identify, read_many, reset_nvme_timer, reset_timer, says_raid_volume, scan
from ssdwear.smartctl.runner import Runner

if TYPE_CHECKING:
    from ssdwear.host.store.queries import Store


def runner_for(config: Config, replay: Optional[Path] = None, program: str = "smartctl") -> Runner:
    """What answers the calls to smartctl (or nvme-cli, `program="nvme"`): the recordings in `replay`, else the
    real program, found and checked as root would need it, with the configured timeout and options."""
    if replay is not None:
        from ssdwear.smartctl.replay import ReplayRunner

        return ReplayRunner(replay, program=program)
    from ssdwear.host.runner import NvmeCliRunner, SmartctlRunner, locate_nvme, locate_smartctl  # live runs only

    if program == "nvme":
        return NvmeCliRunner(locate_nvme(), config.smartctl_timeout)
    return SmartctlRunner(locate_smartctl(config.smartctl), config.smartctl_timeout, options=config.smartctl_options)


@dataclass
class Session:
    config: Config
    runner_factory: Callable[[], Runner]
    # nvme-cli, for the NVMe timer reset only (None: not available; made on first use)
    nvme_runner_factory: Optional[Callable[[], Runner]] = None
    db_path: Optional[Path] = None  # None: do not use the history store
    history_off: str = "no history database is configured"  # why db_path is None, for commands that store
    clock: Clock = utc_now
    represents_minutes: Optional[float] = None
    origin: str = "live"
    warnings: list[str] = field(default_factory=list)  # run-level messages for stderr
    _runner: Optional[Runner] = None
    _store: Optional[Store] = None
    _store_writes: bool = False  # the open store may be written (created, upgraded)
    _read_failed: bool = False
    assessed_at: Optional[datetime] = None  # the clock reading the last reports were made at
    _assessed: list[tuple[Snapshot, DriveReport]] = field(default_factory=list)
    _read_targets: list[tuple[str, Optional[str]]] = field(default_factory=list)
    _volumes: list[tuple[str, str]] = field(default_factory=list)  # (device, controller) of RAID volumes met
    interrupted: Optional[str] = None  # the signal that stopped a start (SIGINT, SIGTERM), once one arrived

    # -- plumbing ------------------------------------------------------------------------------

    @property
    def runner(self) -> Runner:
        if self._runner is None:
            self._runner = self.runner_factory()
        return self._runner

    def _nvme_runner(self) -> Runner:
        if self.nvme_runner_factory is None:
            raise SsdwearError("no way to run nvme-cli here")
        return self.nvme_runner_factory()

    def store(self, write: bool = False) -> Optional[Store]:
        """The history store, opened on first use (sqlite3 is not imported by runs without history).

        For reading it is never created or changed: no database means no history, and one that cannot be read
        is a warning. For writing it is created and upgraded, and any failure is an error.
        """
        if self.db_path is None:
            if write:
                raise HistoryOff(f"this command stores samples in the history database, but {self.history_off}")
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

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    # -- finding and reading drives ------------------------------------------------------------

    def devices(self, names: Sequence[str], device_type: Optional[str] = None) -> list[tuple[str, Optional[str]]]:
        """Devices named on the command line, else the config's list, else every drive smartctl finds.

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
        found = []
        for entry in scan(self.runner):
            name, dtype = entry.name, entry.type
            problem = device_problem(name) or (device_problem(dtype) if dtype is not None else None)
            if problem is not None:
                self.warn(f"smartctl --scan-open listed {visible(name)!r} (-d {visible(dtype or '-')}); skipped: "
                          f"{problem}")
            elif entry.open_error is not None:
                if says_raid_volume(entry.open_error):
                    self._volumes.append((name, f"smartctl: {entry.open_error}"))
            else:
                found.append((name, dtype))
        return found

    def read(self, devices: Sequence[tuple[str, Optional[str]]]) -> list[Outcome]:
        self._read_targets = list(devices)
        return read_many(self.runner, devices, workers=self.config.workers, wake=self.config.wake)

    @property
    def raid_volumes(self) -> list[RaidVolume]:
        """The RAID controllers' volumes met in this run (not drives: notes), with the pass-through drives read."""
        drives = tuple(location(name, dtype) for name, dtype in self._read_targets
                       if dtype and PASS_THROUGH_TYPE.search(dtype))
        seen: dict[str, RaidVolume] = {}
        for device, controller in self._volumes:
            seen.setdefault(device, RaidVolume(device, controller, drives))
        return list(seen.values())

    def volumes_with_drives(self) -> list[RaidVolume]:
        """The RAID volumes met, with the pass-through drives a scan finds behind the controllers: for a command
        that read only the volume (retire-check), so that it can say how to reach the drives."""
        try:
            found = tuple(location(name, dtype) for name, dtype in self.devices([])
                          if dtype and PASS_THROUGH_TYPE.search(dtype))
        except SsdwearError:
            found = ()
        return [replace(v, drives=v.drives or found) for v in self.raid_volumes]

    # -- turning readings into reports ---------------------------------------------------------

    def context(self, snap: Snapshot, now: datetime) -> Context:
        store = self.store()
        key = DriveId.of(snap).key
        reset = look = previous = None
        if store is not None:
            try:
                if key is not None:
                    self._clock_rule(store, key, now)
                    reset = store.last_reset(key, until=now)
                    look = store.last_look(key, until=now)
                if snap.device:
                    previous = store.serial_at(location(snap.device, snap.device_type))
            except StoreError as exc:
                self.warn(f"history not used: {exc}")
        return Context(now=now, represents_minutes=self.represents_minutes, ratings=self.config.ratings,
                                  reset=reset, last_look=look, previous_serial=previous,
                                  interval_level=self.config.interval_level)

    def assess(self, outcomes: Sequence[Outcome], remember: bool = False) -> list[DriveReport]:
        """Reports for every outcome (failed drives included; RAID volumes go to raid_volumes instead), and with
        `remember` one stored sample per drive read.

        A drive whose assessment fails on a bug becomes that drive's error; the other drives are still reported.
        """
        now = self.assessed_at = self.clock()
        reports = []
        self._assessed = []
        for outcome in outcomes:
            if isinstance(outcome, DriveError):
                if outcome.kind == "raid-volume":
                    self._volumes.append((outcome.device, outcome.message))
                else:
                    reports.append(assess_mod.failed(outcome.device, outcome.message, outcome.device_type))
                continue
            controller = vendors.raid_volume(outcome)
            if controller is not None:
                self._volumes.append((outcome.device or outcome.source, controller))
                continue
            try:
                report = assess_mod.assess(outcome, self.context(outcome, now))
                report = self.with_history(outcome, report, now)
                self._assessed.append((outcome, report))
            except Exception as exc:
                if os.environ.get("SSDWEAR_DEBUG"):
                    raise
                device = outcome.device or outcome.source
                report = assess_mod.failed(device, f"internal error assessing this drive ({type(exc).__name__}: "
                                                   f"{exc}); set SSDWEAR_DEBUG=1 for a traceback and please report it",
                                           outcome.device_type)
            reports.append(report)
        if remember:
            try:
                self.remember()
            except StoreError as exc:
                self.warn(f"samples not stored: {exc}")
        return reports

    def warn(self, message: str) -> None:
        if message not in self.warnings:
            self.warnings.append(message)

    def _clock_rule(self, store: Store, key: str, now: datetime) -> None:
        """The one warning of a run whose drives have stored rows dated after now (which are then ignored)."""
        if store.dated_after(key, now):
            self.warn(history_mod.clock_warning(now))

    def with_history(self, snap: Snapshot, report: DriveReport, now: datetime) -> DriveReport:
        """The report with the windowed projection over its drive's stored samples (assess/history.py)."""
        store = self.store()
        key = DriveId.of(snap).key
        if store is None or key is None:
            return report
        since = now - timedelta(minutes=self.config.history_window_minutes)
        try:
            samples = store.samples(key, since=since)
        except StoreError as exc:
            self.warn(f"history not used: {exc}")
            return report
        samples.append(sample_of(snap, report, now))
        return with_windowed(report, history_mod.history_windowed(samples, report, self.config.interval_level, now))

    def remember(self) -> list[tuple[str, str]]:
        """One sample per drive of the last assessment, all in one transaction, stamped with its time.

        Returns (device, why) for each drive whose sample was not stored; raises StoreError when the database
        itself cannot be used (then nothing was stored).
        """
        store = self.store(write=True)
        assert store is not None
        now = self.assessed_at or self.clock()
        rows = []
        skipped: list[tuple[str, str]] = []
        by_key: dict[str, str] = {}
        for snap, report in self._assessed:
            device = location(snap.device or snap.source, snap.device_type)
            drive = DriveId.of(snap)
            if drive.key is None:
                skipped.append((device, "drive has no serial number or WWN; no sample stored"))
                continue
            by_key[drive.key] = device
            rows.append((drive, sample_of(snap, report, now), device))
        rejected = store.add_samples(rows) if rows else {}
        return skipped + [(by_key[key], f"sample not stored: {why}") for key, why in rejected.items()]

    # -- the timed-workload reset --------------------------------------------------------------

    def start(self, devices: Sequence[tuple[str, Optional[str]]], force: bool, every: bool = False
              ) -> list[StartResult]:
        """Reset the E4h timer on each drive the guard allows; record a baseline and the reset.

        Order, so that no reset goes unrecorded: the baseline sample is stored first (a database that cannot be
        written stops the drive before anything is sent); the drive's identity is read again just before the
        command (a drive swapped in between is refused); then, with SIGINT and SIGTERM held, the reset is
        recorded, sent, and its record removed again if the drive certainly did not take it. A signal that
        arrived meanwhile is acted on once the command has finished: the drives after it are not reset.
        With `every` (start --all) a drive the guard finds ineligible is skipped, not refused.
        """
        results: list[StartResult] = []
        outcomes = self.read(devices)
        store = self.store(write=True)
        assert store is not None
        for (device, dtype), outcome in zip(devices, outcomes, strict=True):
            if self.interrupted is not None:
                results.append(StartResult(device, "interrupted", f"not reset, nothing was sent: ssdwear was "
                                           f"interrupted ({self.interrupted}) before this drive's turn",
                                           device_type=dtype))
            elif isinstance(outcome, DriveError):
                results.append(StartResult(device, "failed", outcome.message, device_type=dtype))
            else:
                results.append(self._start_one(store, device, dtype or outcome.device_type, outcome, force, every))
        return results

    def _start_one(self, store: Store, device: str, dtype: Optional[str], snap: Snapshot, force: bool,
                   every: bool = False) -> StartResult:
        def result(status: StartStatus, message: str) -> StartResult:
            return StartResult(device, status, message, snap.serial, snap.model, dtype)

        refusal = vendors.reset_refusal(snap)
        if refusal is not None and not force:
            if every:
                return result("skipped", f"not eligible: {refusal}")
            return result("refused", f"not reset: {refusal}; --force sends it anyway, at your own risk")
        nvme: Optional[Runner] = None
        if snap.interface == "nvme":
            if dtype not in (None, "nvme"):
                why = (f"the NVMe timer is reset with nvme-cli, which reaches only a directly attached drive, "
                       f"not one behind -d {dtype}")
                return result("skipped", f"not eligible: {why}") if every else result("refused", f"not reset: {why}")
            try:
                nvme = self._nvme_runner()
            except SsdwearError as exc:
                return result("failed", f"not reset, nothing was sent: {exc}")
        drive = DriveId.of(snap)
        if drive.key is None:
            return result("failed", "not reset: the drive has no serial number or WWN, so its reset could not be "
                                    "recorded")
        baseline = assess_mod.assess(snap, self.context(snap, self.clock()))
        try:
            store.add_sample(drive, sample_of(snap, baseline, self.clock() - timedelta(milliseconds=1)),
                             location(device, dtype))
        except StoreError as exc:
            return result("failed", f"not reset, nothing was sent: the reset could not be recorded ({exc})")
        try:
            now = identify(self.runner, device, dtype)
        except DriveError as exc:
            return result("failed", f"not reset: its identity could not be read again just before the reset "
                                    f"({exc.message})")
        if DriveId.of(now) != drive:
            return result("refused", f"not reset: the drive behind {device} changed since it was read "
                                     f"({drive.label}, now {DriveId.of(now).label}); run start again")
        status, message = self._send_reset(store, drive, device, dtype, snap, nvme, baseline)
        if status == "reset" and refusal:
            message += f" (forced: {refusal})"
        return result(status, message)

    def _send_reset(self, store: Store, drive: DriveId, device: str, dtype: Optional[str], snap: Snapshot,
                    nvme: Optional[Runner], baseline: DriveReport) -> tuple[StartStatus, str]:
        """Record the reset, send it, and take the record back if the drive certainly did not take it; SIGINT
        and SIGTERM wait until all that is done (the command, which inherits the held signals, finishes too)."""
        from ssdwear.model.schema import drive_dict

        unrecordable: Optional[StoreError] = None
        failure: Optional[DriveError] = None
        forgotten = ""
        with held_signals() as caught:
            at = self.clock()
            try:
                store.record_reset(drive, at, location(device, dtype), snap.power_on_hours, drive_dict(baseline))
            except StoreError as exc:
                unrecordable = exc
            if unrecordable is None:
                try:
                    if nvme is not None:
                        reset_nvme_timer(nvme, device)
                    else:
                        reset_timer(self.runner, device, dtype)
                except DriveError as exc:
                    failure = exc
            kept = failure is None or failure.kind == "timeout"  # a killed call may have reached the drive
            if not kept:
                try:
                    store.forget_reset(drive, at)
                except StoreError as exc:
                    forgotten = f"; its record could not be removed ({exc}): status will say it did not take effect"
        if caught:
            self.interrupted = caught[0]
            self.warn(f"interrupted by {caught[0]} while {location(device, dtype)}'s reset was under way: ssdwear "
                      "let the command finish and recorded what it did, then stopped (drives after it were not reset)")
        if unrecordable is not None:
            return "failed", f"not reset, nothing was sent: the reset could not be recorded ({unrecordable})"
        if failure is not None:
            status: StartStatus = "rejected" if failure.kind == "rejected" else "failed"
            extra = ("; the reset may have reached the drive: the attempt is recorded, and status shows whether "
                     "the timer restarted") if kept else ""
            return status, failure.message + extra + forgotten
        return "reset", f"timer reset at {at:%Y-%m-%d %H:%M:%S %Z}; the window is valid after 60 power-on minutes"


@contextmanager
def held_signals() -> Iterator[list[str]]:
    """SIGINT and SIGTERM are held (blocked, so that a child started meanwhile, which inherits the mask, is not
    killed by them either) and handled once the block ends: the list then names the signals that arrived.
    Outside the main thread (the API called from a worker thread) nothing is changed."""
    caught: list[str] = []
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield caught
        return
    wanted = {signal.SIGINT, signal.SIGTERM}

    def note(signum: int, frame: object) -> None:
        caught.append(signal.Signals(signum).name)

    previous = {s: signal.signal(s, note) for s in wanted}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, wanted)
    try:
        yield caught
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a held signal is delivered here, to note()
        for s, handler in previous.items():
            signal.signal(s, handler)


# What start did to one drive: 'skipped' (start --all: not eligible), 'interrupted' (a signal stopped the run before
# this drive's turn). The reset is recorded before it is sent, so none goes unrecorded.
StartStatus = Literal["reset", "refused", "skipped", "rejected", "failed", "interrupted"]


@dataclass(frozen=True)
class StartResult:
    device: str
    status: StartStatus
    message: str
    serial: Optional[str] = None
    model: Optional[str] = None
    device_type: Optional[str] = None  # the -d type it was sent with

    @property
    def where(self) -> str:
        return location(self.device, self.device_type)


def sample_of(snap: Snapshot, report: DriveReport, at: datetime) -> Sample:
    return Sample(
        at=at,
        power_on_hours=report.power_on_hours,
        used_percent=report.used_percent,
        used_source=report.used_source,
        host_bytes_written=report.writes.host_bytes_written,
        host_bytes_read=report.writes.host_bytes_read,
        nand_bytes_written=report.writes.nand_bytes_written,
        e2h=vendors.timed_raw(snap, 226),
        e3h=vendors.timed_raw(snap, 227),
        e4h=vendors.timed_raw(snap, 228),
        available_spare=report.health.available_spare_percent,
        media_errors=report.health.media_errors,
    )


__all__ = ["DeviceSpec", "Session", "SsdwearError", "StartResult", "sample_of", "utc_now"]
