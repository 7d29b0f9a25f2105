"""One run of ssdwear against live drives (or replayed recordings): find, read, remember, assess.

The CLI builds a Session from its options and calls these methods; everything here returns data
(reports, outcomes) and raises domain errors; nothing prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from . import assess as assess_mod
from . import history as history_mod
from . import smart, vendors
from .config import Config, DeviceSpec
from .errors import DriveError, SsdwearError, StoreError
from .model import DriveReport, Sample, Snapshot, drive_key

if TYPE_CHECKING:
    from .store import Store

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Session:
    config: Config
    runner_factory: Callable[[], smart.Runner]
    db_path: Optional[Path] = None  # None: do not use the history store
    clock: Clock = utc_now
    represents_minutes: Optional[float] = None
    origin: str = "live"
    warnings: list[str] = field(default_factory=list)  # run-level messages for stderr
    _runner: Optional[smart.Runner] = None
    _store: Optional[Store] = None  # opened on first use: sqlite3 is not imported by runs without history
    _store_failed: bool = False

    # -- plumbing ------------------------------------------------------------------------------

    @property
    def runner(self) -> smart.Runner:
        if self._runner is None:
            self._runner = self.runner_factory()
        return self._runner

    def store(self, required: bool = False) -> Optional[Store]:
        """The history store, opened on first use. Optional uses degrade to a warning when it fails."""
        if self._store is None and self.db_path is not None and not self._store_failed:
            from .store import Store

            try:
                self._store = Store.open(self.db_path)
            except StoreError as exc:
                if required:
                    raise
                self._store_failed = True
                self.warnings.append(f"history not used: {exc}")
        if required and self._store is None:
            raise StoreError("no history database configured: pass --db FILE")
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    # -- finding and reading drives ------------------------------------------------------------

    def devices(self, names: Sequence[str], device_type: Optional[str] = None) -> list[tuple[str, Optional[str]]]:
        """Devices named on the command line, else the config's list, else every drive smartctl finds."""
        if names:
            return [(name, device_type) for name in names]
        if self.config.devices:
            return [(d.device, d.type) for d in self.config.devices]
        return smart.scan(self.runner)

    def read(self, devices: Sequence[tuple[str, Optional[str]]]) -> list[smart.Outcome]:
        return smart.read_many(self.runner, devices, workers=self.config.workers, wake=self.config.wake)

    # -- turning readings into reports ---------------------------------------------------------

    def context(self, snap: Snapshot, now: datetime) -> assess_mod.Context:
        store = self.store()
        key = drive_key(snap.model, snap.serial, snap.wwn)
        reset = look = previous = None
        if store is not None:
            try:
                if key is not None:
                    reset = store.last_reset(key)
                    look = store.last_look(key)
                if snap.device:
                    previous = store.serial_at(snap.device)
            except StoreError as exc:
                self.warnings.append(f"history not used: {exc}")
        return assess_mod.Context(now=now, represents_minutes=self.represents_minutes, ratings=self.config.ratings,
                                  reset=reset, last_look=look, previous_serial=previous)

    def assess(self, outcomes: Sequence[smart.Outcome], remember: bool = True, strict: bool = False
               ) -> list[DriveReport]:
        """Reports for every outcome (failed drives included), and one stored sample per drive read."""
        now = self.clock()
        reports = []
        for outcome in outcomes:
            if isinstance(outcome, DriveError):
                reports.append(assess_mod.failed(outcome.device, outcome.message))
                continue
            report = assess_mod.assess(outcome, self.context(outcome, now))
            reports.append(self.with_history(outcome, report, now))
        if remember:
            self.remember([o for o in outcomes if not isinstance(o, DriveError)], reports, now, strict)
        return reports

    def with_history(self, snap: Snapshot, report: DriveReport, now: datetime) -> DriveReport:
        """For drives without a valid timed window: the wear rate fitted to the stored samples."""
        store = self.store()
        key = drive_key(snap.model, snap.serial, snap.wwn)
        timed = report.window is not None and report.window.kind == "timed-workload" and report.window.valid
        if store is None or key is None or timed:
            return report
        since = now - timedelta(minutes=self.config.history_window_minutes)
        try:
            samples = store.samples(key, since=since)
        except StoreError as exc:
            self.warnings.append(f"history not used: {exc}")
            return report
        samples.append(sample_of(snap, report, now))
        result = history_mod.project(samples, report.used_percent, report.writes.rated_bytes, report.used_at_least)
        writes = replace(report.writes, host_bytes_per_day=result.write_bytes_per_day)
        report = replace(report, writes=writes)
        if result.window is None:
            return replace(report, notes=report.notes + result.notes)
        if not result.well_bounded and report.projection is not None:
            # A counter that moves in 1 % steps says little over a few days: keep the lifetime average.
            notes = (*result.notes, f"history: keeping the {report.projection.method} projection until the "
                                    "history bounds the rate better")
            return replace(report, notes=report.notes + notes, readings=len(samples))
        return assess_mod.with_projection(report, result.window, result.projection, len(samples), result.notes)

    def remember(self, snaps: Sequence[Snapshot], reports: Sequence[DriveReport], now: datetime,
                 strict: bool = False) -> None:
        """One sample per drive, all in one transaction. `strict`: a store failure is an error, not a warning."""
        store = self.store(required=strict)
        if store is None:
            return
        by_source = {r.source: r for r in reports}
        rows = []
        for snap in snaps:
            key = drive_key(snap.model, snap.serial, snap.wwn)
            report = by_source.get(snap.source)
            if key is None or report is None:
                if strict and report is not None:
                    self.warnings.append(f"{snap.device}: drive has no serial number or WWN; no sample stored")
                continue
            rows.append((key, snap.model, snap.serial, snap.wwn, snap.interface, sample_of(snap, report, now),
                         snap.device))
        if rows:
            try:
                store.add_samples(rows)
            except StoreError as exc:
                if strict:
                    raise
                self.warnings.append(f"samples not stored: {exc}")

    # -- the timed-workload reset --------------------------------------------------------------

    def start(self, devices: Sequence[tuple[str, Optional[str]]], force: bool) -> list[StartResult]:
        """Reset the E4h timer on each drive the guard allows; record the reset and a baseline."""
        results = []
        outcomes = self.read(devices)
        store = self.store(required=True)
        assert store is not None
        for (device, dtype), outcome in zip(devices, outcomes):
            if isinstance(outcome, DriveError):
                results.append(StartResult(device, "failed", outcome.message))
                continue
            snap = outcome
            refusal = vendors.reset_refusal(snap)
            if refusal is not None and not force:
                results.append(StartResult(device, "refused", f"not reset: {refusal}; --force overrides (at your "
                                                               "own risk: vendor subcommands are undefined there)"))
                continue
            key = drive_key(snap.model, snap.serial, snap.wwn)
            if key is None:
                results.append(StartResult(device, "failed", "drive has no serial number or WWN, so its reset "
                                                             "cannot be recorded; not reset"))
                continue
            baseline = assess_mod.assess(snap, self.context(snap, self.clock()))
            try:
                smart.reset_timer(self.runner, device, dtype or snap.device_type)
            except DriveError as exc:
                results.append(StartResult(device, "rejected" if exc.kind == "rejected" else "failed", exc.message))
                continue
            at = self.clock()
            from .render import drive_dict

            store.record_reset(key, snap.model, snap.serial, snap.wwn, snap.interface, at, device,
                               snap.power_on_hours, drive_dict(baseline))
            store.add_sample(key, snap.model, snap.serial, snap.wwn, snap.interface,
                             sample_of(snap, baseline, at - timedelta(milliseconds=1)), device)
            note = f" (forced: {refusal})" if refusal else ""
            results.append(StartResult(device, "reset", f"timer reset at {at:%Y-%m-%d %H:%M:%S %Z}; the window is "
                                                         f"valid after 60 power-on minutes{note}", snap.serial))
        return results


@dataclass(frozen=True)
class StartResult:
    device: str
    status: str  # 'reset', 'refused', 'rejected', 'failed'
    message: str
    serial: Optional[str] = None


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
