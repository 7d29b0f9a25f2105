"""Saved smartctl outputs -> reports, including windowed projections across readings of one drive.

Several outputs of the same drive (same serial; or, when serials are masked, same model, firmware and
capacity with counters that never run backwards) form a series. Its wear rate is fitted against
power-on hours - the offline twin of the timed-workload method - and projected like a timed window.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from . import assess as assess_mod
from . import vendors, wear
from .errors import ParseError
from .model import E2H_STEPS_PER_PERCENT, TIMER_SENTINELS, DriveReport, Snapshot, Window, drive_key
from .parse import MAX_INPUT_BYTES, parse_output
from .trust import display_path

# Host byte counters from ATA Device Statistics wrap at 2^32 sectors on some firmwares (Crucial MX500):
# a decrease below that size is not proof of another drive.
WRAP_32BIT_SECTORS = 2**32 * 512


@dataclass(frozen=True)
class Reading:
    snap: Snapshot
    report: DriveReport


def load(path: Path) -> Snapshot:
    """Parse one saved output; ParseError (one line) for unreadable files.

    Only regular files are read, and at most MAX_INPUT_BYTES + 1 bytes of them: a FIFO would block, /dev/zero
    would never end, and st_size says nothing about either. The file is opened non-blocking and checked on the
    open descriptor, so it cannot be swapped for something else in between.
    """
    shown = display_path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise ParseError(f"{shown}: no such file") from None
    except OSError as exc:
        raise ParseError(f"{shown}: cannot read ({exc.strerror})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else \
                "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file"
            raise ParseError(f"{shown}: is {kind}, skipped; give files that hold smartctl output")
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise ParseError(f"{shown}: cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > MAX_INPUT_BYTES:
        raise ParseError(f"{shown}: more than {MAX_INPUT_BYTES // 1024 // 1024} MiB is not one drive's smartctl "
                         "output; give one drive's output per file")
    snap = parse_output(data, source=shown)
    if not snap.has_data:
        said = "; ".join(snap.messages) or "no drive data in the output"
        status = f" (exit status {snap.exit_status})" if snap.exit_status else ""
        raise ParseError(f"{shown}: smartctl could not read the drive{status}: {said}")
    return snap


def _identity(snap: Snapshot) -> tuple[str, ...]:
    key = drive_key(snap.model, snap.serial, snap.wwn)
    if key is not None:
        return ("id", key)
    return ("masked", snap.model or "?", snap.firmware or "?", str(snap.capacity_bytes or "?"))


def _counters(r: Reading) -> list[Optional[float]]:
    """Counters that never decrease on one drive (None where unknown)."""
    s, w = r.snap, r.report.writes
    nvme = s.nvme
    return [s.power_on_hours if s.power_on_hours_trusted else None, s.power_cycles, w.host_bytes_written,
            w.host_bytes_read, w.nand_bytes_written, nvme.data_units_read if nvme else None,
            nvme.data_units_written if nvme else None, _timer(s, 226), _timer(s, 228)]


def _timer(snap: Snapshot, attr_id: int) -> Optional[float]:
    """A timed-workload raw value once it counts (None for 65535 and on drives without the timed workload)."""
    raw = vendors.timed_raw(snap, attr_id)
    return None if raw is None or raw in TIMER_SENTINELS else float(raw)


def _follows(earlier: Reading, later: Reading) -> bool:
    a, b = _counters(earlier), _counters(later)
    e2a, e4a, e2b, e4b = a[7], a[8], b[7], b[8]
    for i, (x, y) in enumerate(zip(a, b)):
        if x is None or y is None or i in (7, 8):
            continue
        if y < x and not (i in (2, 3) and x < WRAP_32BIT_SECTORS):
            return False
    # Intel E2h may restart with a timer reset (E4h falls too); otherwise it never decreases.
    return not (e2a is not None and e2b is not None and e4a is not None and e4b is not None
                and e4b >= e4a and e2b < e2a)


def group(readings: Sequence[Reading]) -> list[list[Reading]]:
    """Readings of the same drive together, oldest (fewest power-on hours) first."""
    by_id: dict[tuple[str, ...], list[Reading]] = {}
    for r in readings:
        by_id.setdefault(_identity(r.snap), []).append(r)
    groups: list[list[Reading]] = []
    for members in by_id.values():
        timed = sorted((r for r in members if r.snap.power_on_hours is not None),
                       key=lambda r: r.snap.power_on_hours or 0.0)
        chains: list[list[Reading]] = []
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


def _series_values(chain: Sequence[Reading]) -> Optional[tuple[str, list[float], list[float], float]]:
    """(counter, hours, percent values, step) of the finest counter every reading of the chain has."""
    hours = [r.snap.power_on_hours for r in chain]
    if any(h is None for h in hours) or not all(r.snap.power_on_hours_trusted for r in chain):
        return None
    clock = [float(h) for h in hours if h is not None]
    # Intel E2h: 1/1024 % steps, usable while no reset happened between readings and the timer is trusted.
    windows = [r.report.window for r in chain]
    if all(w is not None and w.kind == "timed-workload" and w.valid and w.wear_steps is not None for w in windows):
        e4 = [_timer(r.snap, 228) for r in chain]
        if all(x is not None for x in e4) and all(b >= a for a, b in zip(e4, e4[1:])):  # type: ignore[operator]
            steps = [float(w.wear_steps) for w in windows if w is not None and w.wear_steps is not None]
            return ("intel_e2h_workload_media_wear", clock, [s / E2H_STEPS_PER_PERCENT for s in steps],
                    1 / E2H_STEPS_PER_PERCENT)
    sources = {r.report.used_source for r in chain}
    if len(sources) == 1 and None not in sources and not any(r.report.used_at_least for r in chain):
        values = [r.report.used_percent for r in chain]
        return (str(sources.pop()), clock, [float(v) for v in values if v is not None], 1.0)
    return None


def series_report(chain: Sequence[Reading], ctx: assess_mod.Context) -> DriveReport:
    latest = chain[-1]
    if len(chain) < 2:
        return latest.report
    names = ", ".join(Path(r.snap.source).name for r in chain)
    first_h, last_h = chain[0].snap.power_on_hours, latest.snap.power_on_hours
    masked = chain[0].snap.serial is None and chain[0].snap.wwn is None
    notes = ["serial masked: readings matched by model, firmware, capacity and counters that only grow"] \
        if masked else []
    found = _series_values(chain)
    if found is None or first_h is None or last_h is None or last_h <= first_h:
        why = ("the readings share no wear counter that is comparable across them (indicator saturated, "
               "different sources, or untrusted power-on hours)")
        if first_h is not None and last_h is not None and last_h <= first_h:
            why = "the readings do not span any power-on time"
        window = Window(kind="readings", valid=False, reason=f"{len(chain)} readings ({names}): {why}")
        return assess_mod.with_projection(latest.report, window, None, len(chain), notes)
    counter, hours, values, step = found
    rate = wear.fit_rate(hours, values, step)
    used = latest.report.used_percent
    reason = (f"{len(chain)} readings of this drive from {hours[0]:,.0f} to {hours[-1]:,.0f} power-on hours "
              f"({names}); rate fitted to {counter}")
    window = Window(kind="readings", valid=True, reason=reason, minutes=(hours[-1] - hours[0]) * 60,
                    wear_percent=values[-1] - values[0], counter=counter)
    projection = wear.project(rate, used, f"readings:{counter}",
                              f"{values[-1] - values[0]:.4g} % more wear in {hours[-1] - hours[0]:,.0f} "
                              f"power-on hours across {len(chain)} readings")
    return assess_mod.with_projection(latest.report, window, projection, len(chain), notes)


def analyze_files(paths: Sequence[Path], ctx: assess_mod.Context, each: bool = False
                  ) -> tuple[list[DriveReport], list[str]]:
    """Reports for the files (one per drive, or one per file with `each`) and an error line per bad file."""
    readings: list[Reading] = []
    errors: list[str] = []
    for path in paths:
        try:
            snap = load(path)
        except ParseError as exc:
            errors.append(str(exc))
            continue
        readings.append(Reading(snap, assess_mod.assess(snap, ctx)))
    if each:
        return [r.report for r in readings], errors
    return [series_report(chain, ctx) for chain in group(readings)], errors
