"""`ssdwear status`: the timed window of each drive so far (Intel's timer, or a counter since `start`), as data
(the CLI renders it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ssdwear.drives.timed import timed_value, trio
from ssdwear.model.errors import DriveError
from ssdwear.model.records import DriveId, Snapshot, WindowState, location
from ssdwear.smartctl.calls import Outcome

from .context import Context
from .counter_window import NO_FINER_COUNTER
from .report import assess


@dataclass(frozen=True)
class StatusRow:
    device: str
    device_type: str | None = None  # the -d type it was read with
    drive: DriveId = field(default_factory=DriveId.unknown)  # who the drive is (nothing known: not read)
    timed: bool = False  # the drive carries Intel's timed-workload attributes
    counting: bool = False  # E4h has left 65535 and counts minutes
    e4h_minutes: int | None = None
    timer: str = "E4h"  # the timer, as the drive's family names it, short (Samsung's data-centre drives: 247)
    reset_at: datetime | None = None  # ssdwear's own last reset of this drive
    since_reset_minutes: float | None = None
    state: WindowState | None = None  # the window's, as report judged it; None: no window on this drive
    reason: str | None = None
    error: str | None = None  # the drive could not be read
    kind: str | None = None  # the window: 'timed-workload' (Intel's timer), 'counter' (since `start`'s baseline)
    counter: str | None = None  # a counter window's counter

    @property
    def where(self) -> str:
        return location(self.device, self.device_type)

    @property
    def valid(self) -> bool | None:
        """None: no timed workload (nor counter window) on this drive."""
        return None if self.state is None else self.state is WindowState.VALID

    @property
    def pending(self) -> bool:
        """Not valid *yet* (it becomes valid as power-on minutes pass); else refused for good, or valid."""
        return self.state is not None and self.state.pending


# Why a drive has no timed window, whatever its family: ssdwear reads a workload timer only where a family's row
# documents one (Intel's E2h-E4h, the same trio under other IDs such as Samsung's 245-247).
NO_TIMER = "ssdwear reads one only where the drive's family documents it (Intel's E2h-E4h, Samsung's 245-247)"

def status_row(snap: Snapshot, ctx: Context) -> StatusRow:
    """Where this drive's timed window stands: counting or not, minutes so far, valid or not and why, by the
    same rule as `report` (report.judged_window); `ctx` carries the clock and ssdwear's own last reset."""
    reset, now = ctx.reset, ctx.now
    since = (now - reset.at).total_seconds() / 60 if reset is not None and now is not None else None
    common = dict(device=snap.device or snap.source, device_type=snap.device_type, drive=DriveId.of(snap),
                  reset_at=reset.at if reset else None, since_reset_minutes=since)
    report = assess(snap, ctx)
    window = report.window
    if window is not None and window.kind == "counter":  # a counter window since `start`'s baseline
        common.update(reset_at=window.started_at, since_reset_minutes=window.minutes)
        return StatusRow(**common, state=window.state, reason=window.reason,  # type: ignore[arg-type]
                         kind="counter", counter=window.counter)
    if window is None:
        finer = "" if report.counters else f"; {NO_FINER_COUNTER}"
        more = ("; `ssdwear start` stores a counter baseline for a window on its "
                f"{report.counters[0].source}") if report.counters else finer
        return StatusRow(**common, reason=f"no workload timer: {NO_TIMER}" + more)  # type: ignore[arg-type]
    e4 = timed_value(snap, 228)
    # the held window's reason says already that ssdwear has no record of a reset
    unrecorded = "" if reset is not None or window.state is WindowState.HELD else "no reset by ssdwear recorded"
    reason = "; ".join(x for x in (window.reason, unrecorded) if x) or None
    return StatusRow(**common, timed=True, counting=e4 is not None, e4h_minutes=e4,  # type: ignore[arg-type]
                     timer=trio(snap).labels[2].removeprefix("attribute "), state=window.state, reason=reason,
                     kind=window.kind)


def status_rows(outcomes: Sequence[Outcome], context: Callable[[Snapshot], Context]) -> list[StatusRow]:
    rows = []
    for outcome in outcomes:
        if isinstance(outcome, DriveError):
            rows.append(StatusRow(device=outcome.device, device_type=outcome.device_type, error=outcome.message))
            continue
        rows.append(status_row(outcome, context(outcome)))
    return rows
