"""`ssdwear measure`: after the reset, poll the drives until their windows are valid. Yields what it sees;
the CLI draws it (a progress bar, or a line every few minutes off a terminal) and reports at the end.

The wait is timed by a monotonic clock (a wall clock stepped by NTP or by hand neither stretches nor cuts it);
the window itself is measured by the drive, in power-on minutes (E4h); a counter window (a drive without Intel's
timer) by the wall clock since its baseline, checked against the power-on hours.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ssdwear.assess.context import Context
from ssdwear.assess.report import judged_window
from ssdwear.drives.timed import timed_value
from ssdwear.model.errors import DriveError
from ssdwear.model.records import Snapshot, location
from ssdwear.model.units import human_minutes
from ssdwear.smartctl.calls import Outcome

from .session import Run, Session

# Off a terminal (cron, nohup, CI) measure prints one progress line this often (minutes of the wait).
PROGRESS_LINE_MINUTES = 5.0

# Give up waiting this long after the requested time when a drive's window never becomes valid
# (drive powered off, timer not counting): the report then says why.
GRACE_MINUTES = 120


def window_minutes(outcome: Outcome) -> int | None:
    """E4h once it counts (None while it reads 65535, and for drives without the timed workload)."""
    return timed_value(outcome, 228) if isinstance(outcome, Snapshot) else None


@dataclass(frozen=True)
class Poll:
    """One look at the drives while waiting."""

    elapsed_minutes: float
    states: tuple[tuple[str, str], ...]  # (where the drive is: records.location, what its timer shows)
    run: Run
    done: bool  # every window is valid (or refused for good) and the time is up, or the grace period ran out

    @property
    def outcomes(self) -> tuple[Outcome, ...]:
        return self.run.outcomes


@dataclass(frozen=True)
class DriveState:
    """One drive at one poll: what its timer shows, and whether its window is valid or still pending."""

    shown: str
    valid: bool
    pending: bool  # not valid *yet*: worth waiting for (a window refused for good, or a failed read, is not)


def drive_state(outcome: Outcome, context: Callable[[Snapshot], Context]) -> DriveState:
    """Validity is report's own rule (report.judged_window): measure never stops on a window report refuses,
    and never waits for one that cannot become valid. `context` gives a drive's Context (clock, our reset)."""
    if isinstance(outcome, DriveError):
        return DriveState(f"read failed: {outcome.message}", False, False)
    window = judged_window(outcome, context(outcome))
    minutes = window_minutes(outcome)
    shown = "E4h 65535 (counting)" if minutes is None else f"E4h {minutes} min"
    if window is not None and window.kind == "counter":  # a counter window since start's baseline: nothing sent
        moved = f" +{window.counter_delta:,}" if window.counter_delta is not None else ""
        shown = f"{window.counter}{moved}, {human_minutes(window.minutes or 0)}"
    if window is None:
        return DriveState(f"{shown}, no timed-workload window", False, False)
    if window.valid or window.pending:
        return DriveState(shown, window.valid, window.pending)
    return DriveState(f"{shown}, not valid: {window.reason}", False, False)


def poll(session: Session, targets: Sequence[tuple[str, str | None]], duration: float, every: float,
         sleep: Callable[[float], None], monotonic: Callable[[], float]) -> Iterator[Poll]:
    """Read the drives every `every` minutes until `duration` has passed on the monotonic clock and no window
    is still pending (at most GRACE_MINUTES longer). The last Poll has done=True."""
    started = monotonic()
    while True:
        sleep(every * 60)
        run = session.read(targets)
        elapsed = (monotonic() - started) / 60
        states, waiting = [], False
        for (device, dtype), outcome in zip(targets, run.outcomes, strict=True):
            state = drive_state(outcome, lambda snap: session.context(snap, session.clock()))
            states.append((location(device, dtype), state.shown))
            waiting = waiting or state.pending
        done = (elapsed >= duration and not waiting) or elapsed >= duration + GRACE_MINUTES
        yield Poll(elapsed, tuple(states), run, done)
        if done:
            return


def _wait(minutes: float) -> str:
    """A time of the wait: seconds under a minute ('--poll 5s' waits '10 s', not '0 min'), else human_minutes."""
    return f"{minutes * 60:.0f} s" if minutes < 1 else human_minutes(minutes)


def wait_text(poll: Poll, duration: float) -> str:
    """How far the wait is: '30 min of 60 min, 30 min left' (or 'done', or waiting on past the time)."""
    left = duration - poll.elapsed_minutes
    when = "done" if poll.done else f"{_wait(left)} left" if left > 0 else "time is up, waiting for the windows"
    return f"{_wait(poll.elapsed_minutes)} of {_wait(duration)}, {when}"


def begin_text(duration: float, every: float) -> str:
    """The wait before its first poll: '0 s of 60 min, 60 min left, first reading in 1 min'."""
    return f"0 s of {_wait(duration)}, {_wait(duration)} left, first reading in {_wait(every)}"


def progress_line(poll: Poll, duration: float) -> str:
    """One line of measure's progress off a terminal: the wait, and what each drive's timer shows."""
    return f"measure: {wait_text(poll, duration)}; " + "; ".join(f"{device}: {state}" for device, state in poll.states)


def line_due(poll: Poll, printed_at: float | None) -> bool:
    """Whether an off-terminal progress line is due: the first poll, every PROGRESS_LINE_MINUTES, the last."""
    return printed_at is None or poll.done or poll.elapsed_minutes - printed_at >= PROGRESS_LINE_MINUTES
