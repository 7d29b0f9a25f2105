"""`start` (and `measure`'s start): the guarded reset of Intel's timed-workload timer, drive by drive, as its steps;
a drive it is not documented for that has a finer counter gets a counter window's baseline instead (nothing sent).

1. the guard: a family whose reset is documented (else refused, or skipped with --all), reachable by the command
   it takes (nvme-cli reaches only a directly attached NVMe drive), identified (its reset must be recorded);
2. the baseline stored: a sample of the drive as it is now (a database that cannot be written stops the drive
   before anything is sent);
3. the identity read again, just before the command: a drive swapped in between is refused;
4. the reset recorded and the command sent, with SIGINT and SIGTERM held until both are done; the record is taken
   back if the drive certainly did not take the command. Recorded first, so that no reset goes unrecorded (a
   signal, or a crash, between sending and recording would lose one). A signal that arrived meanwhile is acted on
   once the command has finished: the drives after it are not reset.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

from ssdwear.assess import report as assess_mod
from ssdwear.assess.counter_window import NO_FINER_COUNTER
from ssdwear.drives.timed import reset_forbidden, reset_refusal
from ssdwear.model.errors import DriveError, SsdwearError, StoreError
from ssdwear.model.records import DriveId, DriveReport, Snapshot, location
from ssdwear.model.units import time_text
from ssdwear.smartctl.calls import identify, reset_nvme_timer, reset_timer

from .order import Target
from .session import Session, sample_of

if TYPE_CHECKING:
    from ssdwear.host.store.queries import Store
    from ssdwear.smartctl.runner import Runner

# What start did to one drive: 'skipped' (start --all: not eligible), 'interrupted' (a signal stopped the run before
# this drive's turn). The reset is recorded before it is sent, so none goes unrecorded.
# 'baseline': a drive without Intel's timer but with a finer counter: a counter window's baseline was stored and
# nothing was sent to it (issue 19).
StartStatus = Literal["reset", "baseline", "refused", "skipped", "rejected", "failed", "interrupted"]
STARTED: tuple[StartStatus, ...] = ("reset", "baseline")  # a window was started


@dataclass(frozen=True)
class StartResult:
    device: str
    status: StartStatus
    message: str
    drive: DriveId = field(default_factory=DriveId.unknown)  # who the drive is (nothing known: not read)
    device_type: str | None = None  # the -d type it was sent with

    @property
    def where(self) -> str:
        return location(self.device, self.device_type)


class NotReset(Exception):
    """A step stopped this drive's reset: what start says about the drive."""

    def __init__(self, status: StartStatus, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


def start(session: Session, devices: Sequence[Target], force: bool, every: bool = False) -> list[StartResult]:
    """Reset the E4h timer on each drive the guard allows (`every`, start --all: a drive it finds ineligible is
    skipped, not refused), each through the module's steps."""
    results: list[StartResult] = []
    session.store_wanted()
    outcomes = session.read(devices).outcomes
    read = [t for t, outcome in zip(devices, outcomes, strict=True) if not isinstance(outcome, DriveError)]
    with session.resetting(read):  # the drives it may send a reset to: other runs' readers leave them alone
        for (device, dtype), outcome in zip(devices, outcomes, strict=True):
            if session.interrupted is not None:
                results.append(StartResult(device, "interrupted", f"not reset, nothing was sent: ssdwear was "
                                           f"interrupted ({session.interrupted}) before this drive's turn",
                                           device_type=dtype))
            elif isinstance(outcome, DriveError):
                results.append(StartResult(device, "failed", outcome.message, device_type=dtype))
            else:
                dtype = dtype or outcome.device_type
                try:
                    status, message = _reset_one(session, device, dtype, outcome, force, every)
                except NotReset as stop:
                    status, message = stop.status, stop.message
                results.append(StartResult(device, status, message, DriveId.of(outcome), dtype))
    return results


def _reset_one(session: Session, device: str, dtype: str | None, snap: Snapshot, force: bool,
               every: bool) -> tuple[StartStatus, str]:
    """The steps, in order; each raises NotReset to stop. A drive the reset is not documented for, with a finer
    counter, gets a counter window instead: its baseline stored, nothing sent. The history is opened (created where
    there is none) only when a step stores something."""
    force = force and reset_forbidden(snap) is None  # --force never overrides a family's "never"
    refusal = reset_refusal(snap)
    if refusal is not None and not force:
        started = counter_baseline(session, device, dtype, snap)
        if started is not None:
            return started[0], f"{started[1]} (no timer reset: {refusal})"
    refusal, nvme = guard(session, snap, dtype, force, every)
    drive = DriveId.of(snap)
    store, baseline = store_baseline(session, drive, snap, location(device, dtype))
    same_drive_still(session, drive, device, dtype)
    at = record_and_send(session, store, drive, device, dtype, snap, nvme, baseline)
    forced = f" (forced: {refusal})" if refusal else ""
    return "reset", (f"timer reset at {time_text(at, seconds=True)}; the window is valid after 60 power-on minutes"
                     f"{forced}")


def guard(session: Session, snap: Snapshot, dtype: str | None, force: bool, every: bool
          ) -> tuple[str | None, Runner | None]:
    """Step 1. (Why the family is not documented, when --force sends it anyway; nvme-cli's runner for an NVMe
    drive.)"""
    def refused(why: str, hint: str = "") -> NotReset:
        return NotReset("skipped", f"not eligible: {why}") if every else NotReset("refused", f"not reset: {why}{hint}")

    refusal = reset_refusal(snap)
    if refusal is not None and not force:
        hint = "" if reset_forbidden(snap) else "; --force sends it anyway, at your own risk"
        raise refused(f"{refusal}; {NO_FINER_COUNTER}", hint)
    nvme = None
    if snap.interface == "nvme":
        if dtype not in (None, "nvme"):
            raise refused(f"the NVMe timer is reset with nvme-cli, which reaches only a directly attached drive, not "
                          f"one behind -d {dtype}")
        try:
            nvme = session.nvme_runner()
        except SsdwearError as exc:
            raise NotReset("failed", f"not reset, nothing was sent: {exc}") from None
    if DriveId.of(snap).key is None:
        raise NotReset("failed", "not reset: the drive has no serial number or WWN, so its reset could not be "
                                 "recorded")
    return refusal, nvme


def counter_baseline(session: Session, device: str, dtype: str | None, snap: Snapshot
                     ) -> tuple[StartStatus, str] | None:
    """A counter window's start: the drive's sample stored and marked as the window's baseline; NOTHING is sent
    to the drive. None where it has no finer counter (assess/counter_window.py measures the window later)."""
    at = session.clock()
    report = assess_mod.assess(snap, session.context(snap, at))
    drive = DriveId.of(snap)
    if not report.counters:
        return None
    if drive.key is None:
        return "failed", "no baseline stored: the drive has no serial number or WWN; nothing was sent to it"
    counter = report.counters[0]
    try:
        store = session.writable_store()
        store.add_sample(drive, sample_of(snap, report, at), location(device, dtype))
        store.record_window(drive, at, location(device, dtype))
    except StoreError as exc:
        return "failed", f"no baseline stored ({exc}); nothing was sent to the drive"
    return "baseline", (f"counter window started at {time_text(at, seconds=True)}: baseline {counter.source} = "
                        f"{counter.amount(counter.value)}, nothing was sent to the drive; run the workload, then "
                        "`ssdwear status` or `report` (valid after 60 minutes)")


def store_baseline(session: Session, drive: DriveId, snap: Snapshot, where: str) -> tuple[Store, DriveReport]:
    """Step 2: the drive's report now, stored as a sample just before the reset (and kept with its record); the
    store it is in."""
    baseline = assess_mod.assess(snap, session.context(snap, session.clock()))
    try:
        store = session.writable_store()
        store.add_sample(drive, sample_of(snap, baseline, session.clock() - timedelta(milliseconds=1)), where)
    except StoreError as exc:
        raise NotReset("failed", f"not reset, nothing was sent: the reset could not be recorded ({exc})") from None
    return store, baseline


def same_drive_still(session: Session, drive: DriveId, device: str, dtype: str | None) -> None:
    """Step 3: the drive behind the device is still the one read."""
    try:
        now = identify(session.runner, device, dtype)
    except DriveError as exc:
        raise NotReset("failed", f"not reset: its identity could not be read again just before the reset "
                                 f"({exc.message})") from None
    if DriveId.of(now) != drive:
        raise NotReset("refused", f"not reset: the drive behind {device} changed since it was read ({drive.label}, "
                                  f"now {DriveId.of(now).label}); run start again")


def record_and_send(session: Session, store: Store, drive: DriveId, device: str, dtype: str | None,
                    snap: Snapshot, nvme: Runner | None, baseline: DriveReport) -> datetime:
    """Step 4: record the reset, send it, and take the record back if the drive certainly did not take it; SIGINT
    and SIGTERM wait until all that is done (the command, which inherits the held signals, finishes too). When the
    reset was recorded and sent."""
    from ssdwear.model.schema import drive_dict

    unrecordable: StoreError | None = None
    failure: DriveError | None = None
    forgotten = ""
    with held_signals() as caught:
        at = session.clock()
        try:
            store.record_reset(drive, at, location(device, dtype), snap.power_on_hours, drive_dict(baseline))
        except StoreError as exc:
            unrecordable = exc
        if unrecordable is None:
            try:
                if nvme is not None:
                    reset_nvme_timer(nvme, device)
                else:
                    reset_timer(session.runner, device, dtype)
            except DriveError as exc:
                failure = exc
        kept = failure is None or failure.kind == "timeout"  # a killed call may have reached the drive
        if not kept:
            try:
                store.forget_reset(drive, at)
            except StoreError as exc:
                forgotten = f"; its record could not be removed ({exc}): status will say it did not take effect"
    if caught:
        session.interrupted = caught[0]
        session.warn(f"interrupted by {caught[0]} while {location(device, dtype)}'s reset was under way: ssdwear let "
                     "the command finish and recorded what it did, then stopped (drives after it were not reset)")
    if unrecordable is not None:
        raise NotReset("failed", f"not reset, nothing was sent: the reset could not be recorded ({unrecordable})")
    if failure is not None:
        extra = ("; the reset may have reached the drive: the attempt is recorded, and status shows whether the "
                 "timer restarted") if kept else ""
        raise NotReset("rejected" if failure.kind == "rejected" else "failed", failure.message + extra + forgotten)
    return at


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
