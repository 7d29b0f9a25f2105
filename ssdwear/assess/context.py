"""What assess knows beyond a snapshot: the clock, --represents, the ratings, ssdwear's own reset and last look."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ssdwear.drives.ratings import Rating
from ssdwear.model.records import LastLook, ResetRecord, Sample
from ssdwear.wear.forecast import DEFAULT_LEVEL


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


NO_CONTEXT = Context()  # a snapshot alone: no clock, no history
