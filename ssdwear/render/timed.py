"""The timed workload for people: what `start` did to each drive, where `status` finds each window, and `measure`'s
progress bar."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ssdwear.model.records import WindowState
from ssdwear.model.units import human_minutes, time_text

from .layout import console, drive_name, labelled, paragraph

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.progress import TaskID

    from ssdwear.assess.status import StatusRow
    from ssdwear.run.measure import Poll
    from ssdwear.run.reset import StartResult


def start_view(results: Sequence[StartResult], columns: int) -> RenderableType:
    """What start did to each drive, one block each (drive strings printed literally)."""
    from rich.console import Group

    parts: list[RenderableType] = []
    for r in results:
        who = drive_name(r.drive)
        style = {"reset": "green", "baseline": "green", "refused": "yellow", "skipped": "dim"}.get(r.status, "red")
        parts += paragraph(f"{r.where}  {who}  {r.status.upper()}", columns, style)
        parts += labelled("", r.message, columns)
    return Group(*parts)


def status_view(rows: Sequence[StatusRow], columns: int) -> RenderableType:
    from rich.console import Group
    from rich.text import Text

    parts: list[RenderableType] = []
    for row in rows:
        who = drive_name(row.drive)
        if row.error:
            parts.append(Text(f"{row.where}  could not be read", style="red"))
            parts += labelled("", row.error, columns, "red")
            continue
        window = "-" if not row.timed else "65535" if not row.counting else human_minutes(row.e4h_minutes)
        since = human_minutes(row.since_reset_minutes) if row.since_reset_minutes is not None else "-"
        valid = "-" if row.state is None else row.state.value if row.state in (WindowState.VALID, WindowState.NOT_YET) \
            else "not valid"  # (held at 65535 with no reset known: no telling when; or refused)
        parts += paragraph(f"{row.where}  {who}", columns)
        if row.kind == "counter":
            parts += labelled("counter window", f"{row.counter}, {since}, {valid}", columns)
            parts += labelled("our baseline", time_text(row.reset_at) if row.reset_at else "-", columns)
        else:
            parts += labelled(f"{row.timer} window", f"{window}, {valid}", columns)
            parts += labelled("our reset", since if row.reset_at is None else
                              f"{time_text(row.reset_at)}, {since} ago", columns)
        if row.reason:
            parts += labelled("note", row.reason, columns, "dim")
    return Group(*parts)


class _Progress:
    """measure's progress bar on stderr (a terminal's): minutes waited of the total, time left, each timer. It is
    drawn when the wait begins and again at each poll (no redraws in between: nothing changes then). Messages
    written to stderr meanwhile print above it; stdout, which carries the report, is left alone."""

    def __init__(self, enabled: bool) -> None:
        from rich.progress import BarColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                            TextColumn("{task.fields[state]}", markup=False), console=console(stderr=True),
                            disable=not enabled, transient=False, auto_refresh=False, redirect_stdout=False)
        self.tasks: dict[str, TaskID] = {}

    def begin(self, devices: Sequence[tuple[str, str]], duration: float, every: float) -> None:
        """The bar of each (device, what was done to it) at the start of the wait, before the first poll."""
        from ssdwear.run.measure import begin_text

        for device, done in devices:
            self.tasks[device] = self.bar.add_task(device, total=duration, state=f"{begin_text(duration, every)}; "
                                                                                 f"{done}")
        self.bar.refresh()

    def show(self, poll: Poll, duration: float) -> None:
        from ssdwear.run.measure import wait_text

        for device, state in poll.states:
            if device not in self.tasks:
                self.tasks[device] = self.bar.add_task(device, total=duration, state="")
            self.bar.update(self.tasks[device], completed=min(poll.elapsed_minutes, duration),
                            state=f"{wait_text(poll, duration)}; {state}")
        self.bar.refresh()


@contextmanager
def progress(enabled: bool) -> Iterator[_Progress]:
    shown = _Progress(enabled)
    with shown.bar:
        yield shown
