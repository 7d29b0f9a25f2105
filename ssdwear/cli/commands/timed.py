"""The timed-workload commands: start (the guarded reset) and measure (reset, wait, report)."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from ssdwear.model.errors import UsageError

from ..app import (
    DURATION,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PARTIAL,
    EXIT_REFUSED,
    EXIT_REJECTED,
    App,
    Devices,
    command,
    console_print,
    device_type_option,
    devices_argument,
    emit_doc,
    emit_reports,
    envelope,
    fail,
    finish,
    format_option,
    no_drives,
    reading,
    represents_option,
    say,
)

if TYPE_CHECKING:
    from ssdwear.run.measure import Poll
    from ssdwear.run.reset import StartResult
    from ssdwear.run.session import Session


@contextmanager
def resetting(app: App, devices: tuple[str, ...], device_type: str | None, all_: bool, command: str,
              represents: float | None = None) -> Iterator[tuple[Session, Devices]]:
    """The session of a command that resets timers and the drives it resets: the ones named, or with --all every
    drive found (one of the two); this machine's drives only (--fallback-replay is refused)."""
    if devices and all_:
        raise UsageError(f"{command}: name drives or give --all, not both")
    if not devices and not all_:
        raise UsageError(f"{command} resets drives' timers: name them (ssdwear {command} /dev/sda) or pass --all for "
                         "every eligible drive")
    with reading(app, devices, device_type, represents, fallback=False, lock=True) as (session, targets):
        if not targets:
            raise no_drives(session)
        yield session, targets


def start_exit(results: Sequence[StartResult], session: Session, printed: bool) -> int:
    """The exit code of a start; each drive that was not reset gets its line on stderr unless the table already
    said it. A drive skipped by --all (not eligible) does not change the code; a run stopped by a signal is
    partial (3)."""
    from ssdwear.run.reset import STARTED

    for message in session.warnings:
        say(f"warning: {message}")
    if not printed:
        for r in results:
            if r.status not in STARTED:
                say(f"{r.where}: {r.message}")
    statuses = {r.status for r in results}
    if statuses <= {"skipped"}:
        return EXIT_REFUSED  # start --all found no eligible drive: nothing was reset
    for status, code in (("rejected", EXIT_REJECTED), ("refused", EXIT_REFUSED)):
        if status in statuses:
            return code
    if session.interrupted is not None or "interrupted" in statuses:
        return EXIT_PARTIAL
    if "failed" in statuses:
        return EXIT_PARTIAL if statuses & set(STARTED) else EXIT_ERROR
    return EXIT_OK


@command()
@devices_argument
@device_type_option
@click.option("--all", "all_", is_flag=True, help="Every eligible drive smartctl finds; the others are listed as "
              "skipped, with the reason.")
@click.option("--force", is_flag=True, help="Send the vendor command even to drives it is not documented for.")
@format_option()
def start(app: App, devices: tuple[str, ...], device_type: str | None, all_: bool, force: bool, fmt: str) -> None:
    """Start a timed window: reset the timer or store a baseline.

    The reset and a baseline sample are stored in the history.

    Sends `smartctl -t vendor,0x40` only to Intel/Solidigm SSDs of a family for which the reset is
    documented and that report attributes 226-228. Any other SSD with a counter finer than its
    wear indicator (NAND writes, erase counts, NVMe endurance logs) gets a counter window: its
    baseline is stored and NOTHING is sent to it. Other drives are refused unless --force.

    \b
    Examples:
      ssdwear start /dev/sda        then run the workload for at least 60 minutes
      ssdwear start --all           every eligible drive
    """
    from ssdwear.run.reset import start as reset

    with resetting(app, devices, device_type, all_, "start") as (session, targets):
        results = reset(session, targets, force, all_)
    if fmt == "table":
        from ssdwear.render.layout import width
        from ssdwear.render.timed import start_view

        console_print(start_view(results, width()))
    else:
        from ssdwear.render.documents import start_doc

        emit_doc(envelope(app, session.origin, **start_doc(results)), fmt)
    sys.exit(start_exit(results, session, printed=fmt == "table"))


@command()
@devices_argument
@device_type_option
@click.option("--all", "all_", is_flag=True, help="Every eligible drive smartctl finds; the others are listed as "
              "skipped, with the reason.")
@click.option("--for", "duration", type=DURATION, default="60m", show_default=True, metavar="DURATION",
              help="How long the workload runs (at least the 60 power-on minutes the drive needs; 1 s to "
                   "100 years).")
@click.option("--poll", type=DURATION, default="1m", show_default=True, metavar="DURATION",
              help="How often to read the drives while waiting (1 s to 100 years).")
@click.option("--force", is_flag=True, help="As for start.")
@represents_option
@format_option()
def measure(app: App, devices: tuple[str, ...], device_type: str | None, all_: bool, duration: float,
            poll: float, force: bool, represents: float | None, fmt: str) -> None:
    """Reset the timer, wait until the window is valid, report.

    The wait shows a progress bar.

    Run your real workload meanwhile. The window is valid once E4h shows at least 60 power-on
    minutes and the requested time has passed.

    \b
    Example:
      ssdwear measure /dev/sda --for 60m --represents 1d
    """
    from ssdwear.assess.timed_window import REPRESENTS_SLACK
    from ssdwear.run.reset import start as reset

    if represents is not None and duration > represents * (1 + REPRESENTS_SLACK):
        raise UsageError(f"measure: --for ({duration:g} min) is longer than --represents ({represents:g} min): a "
                         "window cannot stand for less time than it lasted; measure for at most the time it stands "
                         "for")
    from ssdwear.run.reset import STARTED

    with resetting(app, devices, device_type, all_, "measure", represents) as (session, targets):
        results = reset(session, targets, force, all_)
        started = [t for t, r in zip(targets, results, strict=True) if r.status in STARTED]
        for r in results:
            if r.status not in STARTED:
                say(f"{r.where}: {r.message}")
        if not started or session.interrupted is not None:
            sys.exit(start_exit(results, session, printed=True))
        last = _wait(app, session, results, started, duration, poll)
        assessed = session.assess(last.run)
        emit_reports(assessed.reports, fmt, session.origin, app, assessed.volumes)
        code = finish(assessed.reports, session, fmt)
        if code == EXIT_OK and any(r.status not in (*STARTED, "skipped") for r in results):
            code = start_exit(results, session, printed=True)
    sys.exit(code)


def _wait(app: App, session: Session, results: Sequence[StartResult], started: Devices, duration: float,
          every: float) -> Poll:
    """measure's wait: a progress bar on a terminal (drawn at once, then at each poll), else a line every few
    minutes; the last poll. SIGINT (^C) ends it with exit 130, the resets kept on record (the windows go on)."""
    from ssdwear.render.timed import progress
    from ssdwear.run import measure as measure_mod
    from ssdwear.run.reset import STARTED

    terminal, printed_at, last = sys.stderr.isatty(), None, None
    try:
        with progress(enabled=terminal) as bar:
            if terminal:
                done = {"reset": "timer reset", "baseline": "baseline stored"}
                bar.begin([(r.where, done.get(r.status, r.status)) for r in results if r.status in STARTED],
                          duration, every)
            for last in measure_mod.poll(session, started, duration, every, app.sleep, app.monotonic):
                if terminal:
                    bar.show(last, duration)
                elif measure_mod.line_due(last, printed_at):  # cron, nohup, CI: a line every few minutes
                    printed_at = last.elapsed_minutes
                    say(measure_mod.progress_line(last, duration))
    except KeyboardInterrupt:
        fail("interrupted while waiting: each window goes on, its reset or baseline kept on record (`ssdwear "
             "status` shows how far it is, `ssdwear report` reports it once valid)", EXIT_INTERRUPTED)
    assert last is not None
    return last


COMMANDS = (start, measure)
