"""What assess knows beyond a snapshot: the clock, --represents, the ratings, ssdwear's own reset and last look, and in
a live run the drive's past (its stored samples, smartd's attribute log of it)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ssdwear.drives.ratings import Rating
from ssdwear.model.records import LastLook, ResetRecord, Sample
from ssdwear.wear.forecast import DEFAULT_LEVEL


@dataclass(frozen=True)
class Past:
    """A drive's readings before this one, as a live run gathers them (run/session.py): its stored samples since the
    history window, and smartd's attribute log of it where one is read (its readings, what it held, notes on it)."""

    stored: Sequence[Sample] = ()
    logged: Sequence[Sample] | None = None  # smartd's attribute log's readings (None: no log read)
    log_summary: str | None = None  # what the log held, for the window's reason
    log_notes: Sequence[str] = ()  # notes on the log read
    notes: Sequence[str] = ()  # why the attribute logs that bear the drive's name were not used


@dataclass(frozen=True)
class Context:
    """What the caller knows beyond the snapshot. Everything optional; `now` is the injected clock."""

    now: datetime | None = None
    represents_minutes: float | None = None  # --represents: real time the timed window stands for
    ratings: Sequence[Rating] = ()
    reset: ResetRecord | None = None  # our own last reset of this drive's timer
    last_look: LastLook | None = None  # our previous reading of this drive
    previous_serial: str | None = None  # serial last seen behind the same device path
    interval_level: float = DEFAULT_LEVEL  # the level prediction intervals are stated at
    window_start: Sample | None = None  # the baseline `start` stored for a counter window (nothing was sent)
    past: Past | None = None  # the drive's past, in a live run (its history's windowed projection and dates)


NO_CONTEXT = Context()  # a snapshot alone: no clock, no history
