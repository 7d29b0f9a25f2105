"""`ssdwear measure`: after the reset, poll the drives until their windows are valid. Yields what it sees;
the CLI draws it (a progress bar) and reports at the end."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Optional

from . import vendors
from .assess import VALID_AFTER_MINUTES
from .errors import DriveError
from .records import Snapshot
from .session import Session
from .smart import Outcome

# Give up waiting this long after the requested time when a drive's window never becomes valid
# (drive powered off, timer not counting): the report then says why.
GRACE_MINUTES = 120


def window_minutes(outcome: Outcome) -> Optional[int]:
    """E4h once it counts (None while it reads 65535, and for drives without the timed workload)."""
    return vendors.timed_value(outcome, 228) if isinstance(outcome, Snapshot) else None


@dataclass(frozen=True)
class Poll:
    """One look at the drives while waiting."""

    elapsed_minutes: float
    states: tuple[tuple[str, str], ...]  # (device, what its timer shows)
    outcomes: tuple[Outcome, ...]
    done: bool  # every window is valid and the time is up, or the grace period ran out


def poll(session: Session, targets: Sequence[tuple[str, Optional[str]]], duration: float, every: float,
         sleep: Callable[[float], None]) -> Iterator[Poll]:
    """Read the drives every `every` minutes until `duration` has passed and every window is valid (at most
    GRACE_MINUTES longer). The last Poll has done=True."""
    started = session.clock()
    while True:
        sleep(every * 60)
        outcomes = tuple(session.read(targets))
        elapsed = (session.clock() - started).total_seconds() / 60
        valid = True
        states = []
        for (device, _), outcome in zip(targets, outcomes, strict=True):
            minutes = window_minutes(outcome)
            if isinstance(outcome, DriveError):
                states.append((device, f"read failed: {outcome.message}"))
            elif minutes is None:
                states.append((device, "E4h 65535 (counting)"))
                valid = False
            else:
                states.append((device, f"E4h {minutes} min"))
                valid = valid and minutes >= VALID_AFTER_MINUTES
        done = (elapsed >= duration and valid) or elapsed >= duration + GRACE_MINUTES
        yield Poll(elapsed, tuple(states), outcomes, done)
        if done:
            return
