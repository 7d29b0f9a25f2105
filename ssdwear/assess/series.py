"""Readings of saved smartctl outputs -> reports, joining the readings of one drive into the one windowed projection
(windowed.py; the files themselves are read by run/saved.py).

Several outputs of the same drive form a series: the same drive only when its identity proves it (serial, else
WWN), or when the user says so (--same-drive: every file given is one drive, as when serials were masked before
publishing); and within one drive, counters that never run backwards. Masked files are otherwise reported each
alone, saying why: two drives of one model, firmware and capacity are not one drive. The series' wear rate is
fitted against power-on hours - the offline twin of the timed-workload method - and projected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ssdwear.drives import timed
from ssdwear.drives.families import family_of
from ssdwear.model.errors import UsageError
from ssdwear.model.records import DriveId, DriveReport, Projection, Snapshot, Window
from ssdwear.model.units import time_text

from .context import Context
from .counter_window import applies, counter_window
from .history import sample_of
from .windowed import DriveReading, windowed_projection, with_windowed


@dataclass(frozen=True)
class SavedReading:
    snap: Snapshot
    report: DriveReport


def _identity(snap: Snapshot, same_drive: bool) -> tuple[str, ...]:
    """Which drive a reading is of: its serial/WWN; every file one drive with --same-drive; else the file alone."""
    if same_drive:
        return ("same-drive",)
    key = DriveId.of(snap).key
    if key is not None:
        return ("id", key)
    return ("alone", snap.source)


def _look_alike(snap: Snapshot) -> tuple[str, ...] | None:
    """What two masked files of one drive share (model, firmware, capacity); None without an identity section."""
    if snap.model is None:
        return None
    return (snap.model, snap.firmware or "?", str(snap.capacity_bytes or "?"))


_JOINED_BY = ("files are joined into one drive's series only by serial or WWN (--same-drive when they are readings of "
              "one drive)")
MASKED_ALONE = ("serial masked: reported alone, although other files show the same model, firmware and capacity: "
                f"{_JOINED_BY}")
NO_IDENTITY_ALONE = f"no identity section (model, serial): reported alone, as nothing says which drive it is: " \
                    f"{_JOINED_BY}"


def _same_drive_check(readings: Sequence[SavedReading]) -> None:
    """--same-drive with files whose identities prove two drives is a usage error."""
    keys = {DriveId.of(r.snap).key: r.snap.source for r in readings}
    keys.pop(None, None)
    if len(keys) > 1:
        (a, file_a), (b, file_b) = list(keys.items())[:2]
        raise UsageError(f"--same-drive: the files hold different drives ({a} in {file_a}, {b} in {file_b}); "
                         "give the files of one drive")


_HOST_COUNTERS = ("host_bytes_written", "host_bytes_read")


def _counters(r: SavedReading) -> dict[str, float | None]:
    """Counters that never decrease on one drive (None where unknown)."""
    s, w = r.snap, r.report.writes
    nvme = s.nvme
    return {"power_on_hours": s.power_on_hours if s.power_on_hours_trusted else None,
            "power_cycles": s.power_cycles, "host_bytes_written": w.host_bytes_written,
            "host_bytes_read": w.host_bytes_read, "nand_bytes_written": w.nand_bytes_written,
            "nvme_units_read": nvme.data_units_read if nvme else None,
            "nvme_units_written": nvme.data_units_written if nvme else None}


def _follows(earlier: SavedReading, later: SavedReading) -> bool:
    a, b = _counters(earlier), _counters(later)
    wraps_at = family_of(later.snap).host_counters_wrap_at  # host counters that wrap are no proof
    for name, x in a.items():
        y = b[name]
        if x is None or y is None or y >= x:
            continue
        if not (name in _HOST_COUNTERS and wraps_at is not None and x < wraps_at):
            return False
    # Intel E2h may restart with a timer reset (E4h falls too); otherwise it never decreases.
    e2a, e4a, e2b, e4b = (timed.timed_value(r.snap, i) for r in (earlier, later) for i in (226, 228))
    return not (e2a is not None and e2b is not None and e4a is not None and e4b is not None
                and e4b >= e4a and e2b < e2a)


def group(readings: Sequence[SavedReading], same_drive: bool = False) -> list[list[SavedReading]]:
    """Readings of the same drive together, oldest (fewest power-on hours) first."""
    if same_drive:
        _same_drive_check(readings)
    by_id: dict[tuple[str, ...], list[SavedReading]] = {}
    for r in readings:
        by_id.setdefault(_identity(r.snap, same_drive), []).append(r)
    groups: list[list[SavedReading]] = []
    for members in by_id.values():
        timed = sorted((r for r in members if r.snap.power_on_hours is not None),
                       key=lambda r: r.snap.power_on_hours or 0.0)
        chains: list[list[SavedReading]] = []
        for r in timed:
            for chain in chains:
                if _follows(chain[-1], r):
                    chain.append(r)
                    break
            else:
                chains.append([r])
        groups.extend(chains)
        groups.extend([r] for r in members if r.snap.power_on_hours is None)
    return groups


def reading_of(saved: SavedReading) -> DriveReading:
    """A saved output as a reading of its drive (power-on hours only where plausible; its E2h where it counts the
    drive's whole life), named by its file."""
    snap, rep = saved.snap, saved.report
    return DriveReading(snap.power_on_hours if snap.power_on_hours_trusted else None, rep.used_percent,
                        rep.used_source, rep.used_at_least,
                        timed.lifetime_e2h_percent(timed.timed_raw(snap, 226), timed.timed_raw(snap, 228),
                                                     snap.power_on_hours),
                        rep.writes.host_bytes_written, rep.writes.nand_bytes_written, name=Path(snap.source).name,
                        counter_source=rep.counters[0].source if rep.counters else None,
                        counter=rep.counters[0].value if rep.counters else None)


def series_report(chain: Sequence[SavedReading], ctx: Context) -> DriveReport:
    """One report for several saved outputs of one drive: the windowed projection over their readings
    (windowed.py: the timed window of the latest, when it measured one, stands)."""
    latest = chain[-1].report
    if len(chain) < 2:
        return latest
    masked = any(r.snap.serial is None and r.snap.wwn is None for r in chain)
    notes = ["serial masked: readings joined as one drive because --same-drive said so (their counters only "
             "grow)"] if masked else []
    result = windowed_projection([reading_of(r) for r in chain], latest, "readings", ctx.interval_level)
    if result.projection is None and result.window is not None:
        counted = _counter_window(chain, ctx)
        if counted is not None and counted[0].valid:
            window, projection, warnings = counted
            return replace(latest, window=window, projection=projection or latest.projection, readings=len(chain),
                           notes=(*latest.notes, *notes), warnings=(*latest.warnings, *warnings))
        if counted is not None:  # why the counter window does not stand either
            result = replace(result, window=replace(result.window, reason=f"{result.window.reason}; as a counter "
                                                                          f"window: {counted[0].reason}"))
    return with_windowed(latest, result, notes)


def _counter_window(chain: Sequence[SavedReading], ctx: Context) -> tuple[Window, Projection | None, list[str]] | None:
    """Readings too short for their own rule, dated by smartctl's clock: the counter window from the first to the
    newest, by the live path's rule (counter_window.py); None where they are undated or have no counter."""
    first, last = chain[0], chain[-1]
    start, end = first.snap.local_time, last.snap.local_time
    if start is None or end is None:
        return None
    base = sample_of(first.snap, first.report, start)
    if not applies(last.report, base):
        return None
    since = f"since the first reading ({Path(first.snap.source).name}, {time_text(start)})"
    return counter_window(last.report, base, end, ctx, since.replace(" )", ")"))


def _alone_note(chain: Sequence[SavedReading], readings: Sequence[SavedReading], same_drive: bool
                ) -> DriveReport | None:
    """A masked file reported alone while other masked files look like the same drive: its report, saying why."""
    if same_drive or len(chain) != 1 or DriveId.of(chain[0].snap).key:
        return None
    mine = _look_alike(chain[0].snap)
    if mine is None:
        note = NO_IDENTITY_ALONE if len(readings) > 1 else None
    else:
        alike = [r for r in readings if r is not chain[0] and _look_alike(r.snap) == mine
                 and DriveId.of(r.snap).key is None]
        note = MASKED_ALONE if alike else None
    return replace(chain[0].report, notes=(*chain[0].report.notes, note)) if note else None


def series_reports(readings: Sequence[SavedReading], ctx: Context, same_drive: bool = False
                   ) -> list[DriveReport]:
    """One report per drive (every reading one drive with `same_drive`): its series' projection, or the reading
    alone, saying why when it was not joined."""
    return [_alone_note(chain, readings, same_drive) or series_report(chain, ctx)
            for chain in group(readings, same_drive)]
