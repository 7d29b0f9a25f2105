"""Saved smartctl outputs read from files, bounded and checked on the open descriptor, then reported: one report per
drive (assess/series.py joins the readings of one drive), or per file."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from ssdwear.assess.context import Context
from ssdwear.assess.report import assess, failed
from ssdwear.assess.series import SavedReading, series_reports
from ssdwear.drives.families import known
from ssdwear.model.errors import ParseError
from ssdwear.model.escape import display_path
from ssdwear.model.records import DriveReport, Snapshot
from ssdwear.smartctl.exit_status import BIT_CMDLINE, BIT_COMMAND, BIT_OPEN
from ssdwear.smartctl.parse import FAILURE_LINES, MAX_INPUT_BYTES, parse_output
from ssdwear.wear.calendar import dated


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
    snap = parse_output(data, source=shown, device=shown)  # a saved output is named by its file
    if not snap.has_data:
        raise ParseError(_no_drive_data(shown, snap))
    return known(snap)  # its family's row, matched once


def _no_drive_data(shown: str, snap: Snapshot) -> str:
    """Why a saved output holds no drive data: smartctl's own failure where it printed one (its exit status or
    its error lines say so), else the file itself, which is not a whole output as smartctl printed it."""
    said = "; ".join(snap.messages)
    status = f" (exit status {snap.exit_status})" if snap.exit_status else ""
    failed = bool(snap.exit_status and snap.exit_status & (BIT_CMDLINE | BIT_OPEN | BIT_COMMAND))
    if failed or any(m.startswith(FAILURE_LINES) for m in snap.messages):
        return f"{shown}: smartctl could not read the drive{status}: {said or 'no drive data in the output'}"
    seen = "; ".join((*snap.parse_notes, *snap.messages)) or "no identity and no SMART data"
    return (f"{shown}: no drive data could be read from the file ({seen}): it is not a whole output as smartctl "
            "printed it (a partial or mangled copy?); save smartctl -x DEVICE as printed")


def analyze_files(paths: Sequence[Path], ctx: Context, each: bool = False, same_drive: bool = False
                  ) -> tuple[list[DriveReport], list[DriveReport]]:
    """Reports for the files (one per drive, or one per file with `each`; every file one drive with
    `same_drive`), and one per file that could not be read, named by the file, its `error` the one-line reason."""
    readings: list[SavedReading] = []
    errors: list[DriveReport] = []
    for path in paths:
        try:
            snap = load(path)
        except ParseError as exc:
            errors.append(failed(display_path(path), str(exc)))
            continue
        readings.append(SavedReading(snap, assess(snap, ctx)))
    reports = [r.report for r in readings] if each else series_reports(readings, ctx, same_drive)
    when = {r.snap.source: r.snap.local_time for r in readings}
    return [_dated(report, when.get(report.source or ""), ctx) for report in reports], errors


def _dated(report: DriveReport, read_at: datetime | None, ctx: Context) -> DriveReport:
    """A saved output's projection on the calendar: from when smartctl printed it (else now), always on assumed
    (a file's readings carry no duty cycle)."""
    base = read_at or ctx.now
    if report.projection is None or base is None:
        return report
    return replace(report, projection=dated(report.projection, base, None, "saved outputs"))
