"""notify: alerts with state (issue 28); and the notification `sample` makes after storing its samples."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from datetime import date, datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

import click

from ssdwear.model.errors import UsageError
from ssdwear.render.streams import write

from ..app import EXIT_ERROR, EXIT_OK, EXIT_PARTIAL, App, command, envelope, format_option, no_drives, reading, say

if TYPE_CHECKING:
    from ssdwear.host.notify_config import NotifySettings
    from ssdwear.run.notify import Document, Notified, Printer
    from ssdwear.run.session import Assessed, Session


def printer(fmt: str) -> Printer:
    """The stdout channel: one line per event for people, or one JSON document per line."""
    def show(doc: Mapping[str, Any]) -> None:
        if fmt == "json":
            import json

            from ssdwear.render.streams import unicode_ok

            write(json.dumps(doc, ensure_ascii=not unicode_ok()))
        else:
            from ssdwear.render.alerts import event_line

            write(event_line(doc))

    return show


def document(app: App, origin: str) -> Document:
    """Each event's document: the envelope, then render/documents.event_doc."""
    from ssdwear.render.documents import event_doc

    return lambda t: envelope(app, origin, **event_doc(t))


def host_of(session: Session) -> str | None:
    """This machine's name for a live run; none for recordings (they are not this machine's drives)."""
    from ssdwear.host.platforms import host_name

    return host_name() if session.origin == "live" else None


def said(result: Notified) -> None:
    for message in result.messages:
        say(message)


def notify_after(app: App, session: Session, assessed: Assessed, settings: NotifySettings, *, fmt: str = "table",
                 complete: bool = True, dry_run: bool = False) -> bool:
    """Notify over what the session assessed (notify itself, and `sample` after its samples); True when a channel
    could not deliver."""
    from ssdwear.run.notify import notify_run

    result = notify_run(session, assessed, settings, document=document(app, session.origin), printer=printer(fmt),
                        host=host_of(session), complete=complete, dry_run=dry_run)
    said(result)
    return result.failed


def ping_after(session: Session, settings: NotifySettings, code: int, now: datetime) -> int:
    """The config's `ping:` with the run's exit code; the code, raised to 3 when the ping failed."""
    from ssdwear.run.notify import ping_run

    result = ping_run(session, settings, code, now)
    said(result)
    return EXIT_PARTIAL if result.failed and code == EXIT_OK else code


def until_time(text: str, now: datetime) -> datetime:
    """--until: a date (YYYY-MM-DD: from 00:00 UTC that day) or a duration from now (30d); in the future."""
    from ssdwear.model.units import parse_duration_minutes

    try:
        when = datetime.combine(date.fromisoformat(text), datetime.min.time(), timezone.utc)
    except ValueError:
        try:
            when = now + timedelta(minutes=parse_duration_minutes(text))
        except ValueError:
            raise UsageError(f"--until {text!r}: give a date (YYYY-MM-DD, UTC) or a duration (e.g. 30d)") from None
    if when <= now:
        raise UsageError(f"--until {text!r} is not in the future")
    return when


@command()
@click.option("--dry-run", is_flag=True, help="Print the events this run would send; send nothing, change nothing.")
@click.option("--ack", metavar="DRIVE", help="Acknowledge DRIVE's firing alerts (serial, WWN, model or device): "
              "silent until --until, or until each resolves or gets worse.")
@click.option("--until", metavar="DATE", help="With --ack: until DATE (YYYY-MM-DD, 00:00 UTC) or for a duration "
              "(30d).")
@format_option(("table", "json"))
def notify(app: App, dry_run: bool, ack: str | None, until: str | None, fmt: str) -> None:
    """Alerts with state: each change told once, on every channel.

    Reads every drive as report does and evaluates the rules: the pessimistic wear-out date within
    365, 180 or 90 days, retire-check's verdict, rated endurance used past 80, 90 or 100 %, a drive
    not read in 3 runs in a row, a drive replaced by another serial. Compares with the state in the
    history database and delivers one event per change (firing, worse, reminder, resolved,
    acknowledged) to every channel of the config's notify: section (default: stdout). Prints only
    when something changed. Exit 0 whatever fired; 3 when a drive could not be read or a channel
    could not deliver (its events are sent again at the next run).

    \b
    Examples:
      ssdwear notify               from cron: quiet unless something changed
      ssdwear notify --dry-run     what a run would send now
      ssdwear notify --ack S436NA0M000001 --until 2027-03-01
    """
    from ssdwear.host.notify_config import NotifySettings
    from ssdwear.run.notify import needs_history

    if until is not None and ack is None:
        raise UsageError("--until goes with --ack DRIVE")
    now = app.clock()
    settings = app.settings().notify or NotifySettings()
    if ack is not None:
        sys.exit(_acknowledge(app, settings, ack, until_time(until, now) if until else None, now, fmt, dry_run))
    with reading(app, fallback=False, lock=not dry_run) as (session, targets):  # a dry run only reads, as report
        if not dry_run:
            needs_history(session)
            session.store(write=True)  # migrated before the drives are assessed with their history
        from ssdwear.run.session import Assessed

        assessed = session.assess(session.read(targets)) if targets else Assessed([], [], now)
        failed = notify_after(app, session, assessed, settings, fmt=fmt, dry_run=dry_run)
        for message in session.warnings:
            say(f"warning: {message}")
        code = EXIT_PARTIAL if failed or any(r.error for r in assessed.reports) else EXIT_OK
        if not targets:
            say(str(no_drives(session)))
            code = EXIT_ERROR
        if not dry_run:
            code = ping_after(session, settings, code, now)
    sys.exit(code)


def _acknowledge(app: App, settings: NotifySettings, needle: str, until: datetime | None, now: datetime, fmt: str,
                 dry_run: bool) -> int:
    from ssdwear.run.notify import acknowledge_run, needs_history

    session = app.session()
    try:
        if not dry_run:
            needs_history(session)
        result = acknowledge_run(session, settings, needle, until, now, document=document(app, session.origin),
                                 printer=printer(fmt), dry_run=dry_run)
    finally:
        session.close()
    said(result)
    return EXIT_PARTIAL if result.failed else EXIT_OK


COMMANDS = (notify,)
