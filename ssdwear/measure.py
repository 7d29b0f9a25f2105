"""`ssdwear measure`: after the reset, poll the drives until their windows are valid, then report."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable, Optional

from . import vendors
from .assess import VALID_AFTER_MINUTES
from .errors import DriveError
from .model import TIMER_SENTINELS, DriveReport, Snapshot

# Give up waiting this long after the requested time when a drive's window never becomes valid
# (drive powered off, timer not counting): the report then says why.
GRACE_MINUTES = 120


def window_minutes(outcome: Any) -> Optional[int]:
    """E4h once it counts (None while it reads 65535, and for drives without the timed workload)."""
    e4 = vendors.timed_raw(outcome, 228) if isinstance(outcome, Snapshot) else None
    return None if e4 is None or e4 in TIMER_SENTINELS else e4


def run_measure(session: Any, targets: Sequence[tuple[str, Optional[str]]], duration: float, poll: float,
                sleep: Callable[[float], None], show_progress: bool) -> list[DriveReport]:
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    started = session.clock()
    outcomes: list[Any] = []
    with Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                  TextColumn("{task.fields[state]}", markup=False), TimeElapsedColumn(),
                  console=Console(stderr=True, markup=False, emoji=False), disable=not show_progress,
                  transient=False) as progress:
        tasks = {device: progress.add_task(device, total=duration, state="waiting") for device, _ in targets}
        while True:
            sleep(poll * 60)
            outcomes = session.read(targets)
            elapsed = (session.clock() - started).total_seconds() / 60
            done = True
            for (device, _), outcome in zip(targets, outcomes):
                minutes = window_minutes(outcome)
                if isinstance(outcome, DriveError):
                    state = f"read failed: {outcome.message}"
                elif minutes is None:
                    state = "E4h 65535 (counting)"
                    done = False
                else:
                    state = f"E4h {minutes} min"
                    done = done and minutes >= VALID_AFTER_MINUTES
                progress.update(tasks[device], completed=min(elapsed, duration), state=state)
            if elapsed >= duration and done:
                break
            if elapsed >= duration + GRACE_MINUTES:
                break
    return list(session.assess(outcomes))
