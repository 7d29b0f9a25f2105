"""Commands that read drives or saved outputs and report: report, status, analyze, history, scan, completion."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ssdwear.model.errors import SsdwearError, UsageError
from ssdwear.render.streams import write

from ..app import (
    DURATION,
    EXIT_ERROR,
    EXIT_PARTIAL,
    FORMATS,
    METRIC_FORMATS,
    App,
    Command,
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
    from ssdwear.model.records import StoredDrive


@command()
@devices_argument
@device_type_option
@represents_option
@click.option("--record", is_flag=True, help="Also store one sample per drive in the history (like sample); "
              "by default report only reads the history. Config: record: true.")
@click.option("--groups", "groups_wanted", is_flag=True,
              help="Also the redundancy groups the drives belong to (ZFS vdevs, md arrays, LVM raid LVs, btrfs): "
                   "when each loses its redundancy, and whether its drives wear in lockstep. Config: groups: true.")
@format_option((*FORMATS, *METRIC_FORMATS))
def report(app: App, devices: tuple[str, ...], device_type: str | None, represents: float | None,
           record: bool, groups_wanted: bool, fmt: str) -> None:
    """Wear used, the measured window, rate and years left.

    Reads every drive smartctl finds (or the DEVICEs named) and reports each; with --groups also the
    mirrors, RAID arrays and pools they belong to (zpool, mdadm, lvm, btrfs and lsblk, where installed,
    asked read-only).

    \b
    Examples:
      ssdwear report                        every drive smartctl finds
      ssdwear report /dev/sda --represents 1d --format json
      ssdwear report --groups               and the mirrors and pools they are in
    """
    if fmt in METRIC_FORMATS and app.fallback_replay:
        raise UsageError(f"--fallback-replay is refused with --format {fmt}: monitoring reads the metrics as this "
                         "machine's drives, never as recordings (as check and sample --textfile); --replay DIR "
                         "shows recordings on purpose")
    drives_only = fmt in ("influx", "otlp")  # they carry drives; the groups are in prometheus, json and yaml
    if groups_wanted and drives_only:
        raise UsageError(f"--groups is not in --format {fmt}, which carries the drives only: the redundancy groups "
                         "are in --format prometheus, json and yaml")
    with reading(app, devices, device_type, represents) as (session, targets):
        if not targets:
            if fmt in ("json", "yaml"):
                from ssdwear.render.documents import report_doc

                emit_doc(envelope(app, session.origin, **report_doc([])), fmt)
            raise no_drives(session)
        assessed = session.assess(session.read(targets))
        unstored = session.remember(assessed) if record or session.config.record else []
        groups = None
        if (groups_wanted or session.config.groups) and not drives_only:
            from ssdwear.run.groups import find_groups

            groups = find_groups(session, assessed)
        emit_reports(assessed.reports, fmt, session.origin, app, assessed.volumes, groups, session.elapsed())
        for device, why in unstored:
            say(f"{device}: {why}")
        code = finish(assessed.reports, session, fmt)
    sys.exit(code)


@command()
@devices_argument
@device_type_option
@format_option()
def status(app: App, devices: tuple[str, ...], device_type: str | None, fmt: str) -> None:
    """Each drive's timed-workload window so far: valid yet?

    \b
    Example:
      ssdwear status     E4h minutes, time since ssdwear's reset, valid or not
    """
    from ssdwear.assess.status import status_rows

    with reading(app, devices, device_type) as (session, targets):
        if not targets:
            if fmt != "table":
                from ssdwear.render.documents import status_doc

                emit_doc(envelope(app, session.origin, **status_doc([])), fmt)
            raise no_drives(session)
        now = app.clock()
        rows = status_rows(session.read(targets).outcomes, lambda snap: session.context(snap, now))
    if fmt == "table":
        from ssdwear.render.layout import width
        from ssdwear.render.timed import status_view

        console_print(status_view(rows, width()))
    else:
        from ssdwear.render.documents import status_doc

        emit_doc(envelope(app, session.origin, **status_doc(rows)), fmt)
    sys.exit(finish(rows, session, fmt))


@command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="FILE...")
@click.option("--each", is_flag=True, help="One report per file, even for several readings of one drive.")
@click.option("--same-drive", is_flag=True, help="The files are readings of one drive (serials masked): join them "
              "into one series. Otherwise only a serial or WWN joins files.")
@represents_option
@format_option((*FORMATS, *METRIC_FORMATS))
def analyze(app: App, files: tuple[Path, ...], each: bool, same_drive: bool, represents: float | None,
            fmt: str) -> None:
    """Report wear from saved smartctl outputs.

    The outputs of -a, -x or --json, smartctl 6.x to 7.5. Several outputs of one drive (the same
    serial or WWN, or --same-drive) give a windowed wear rate between them, with power-on hours as
    the clock. Each drive is named by its file (the last one, for several readings of one drive).

    \b
    Examples:
      ssdwear analyze sda-2023.txt sda-2024.txt
      ssdwear analyze --format json mailed/*.json
    """
    from ssdwear.run.saved import analyze_files

    if each and same_drive:
        raise UsageError("analyze: --each reports every file alone; --same-drive joins them: give one")
    reports, errors = analyze_files(list(files), app.config().context(app.clock(), represents), each=each,
                                    same_drive=same_drive)
    for bad in errors:
        say(str(bad.error))
    if reports or fmt in ("json", "yaml"):
        emit_reports(reports, fmt, "files", app)
    if errors:
        sys.exit(EXIT_PARTIAL if reports else EXIT_ERROR)


@command()
@click.argument("drive", metavar="[DRIVE]", required=False)
@click.option("--since", type=DURATION, metavar="DURATION",
              help="Only samples this recent (e.g. 30d, 1y; 1 s to 100 years).")
@format_option((*FORMATS, "csv"))
def history(app: App, drive: str | None, since: float | None, fmt: str) -> None:
    """List the stored drives, or chart one drive's samples.

    Without DRIVE, the drives the history holds; with one, a terminal chart of its wear and writes,
    or the series as JSON, YAML or CSV. DRIVE is a serial number, WWN, model or the device path it
    was last seen at (sda for /dev/sda), in any case.

    \b
    Examples:
      ssdwear history                  serial, model, last device, samples, span
      ssdwear history BTTV12345678200GGN
      ssdwear history sda --since 90d --format csv > sda.csv
    """
    from datetime import timedelta

    from ssdwear.host.store.queries import MissingStore, Store
    from ssdwear.render.documents import samples_csv
    from ssdwear.render.history import history_view
    from ssdwear.render.layout import width

    path = app.db_path(app.config())
    if path is None:
        raise UsageError("history needs a history database (--no-history was given)")
    now = app.clock()
    start = now - timedelta(minutes=since) if since else None
    try:
        opened = Store.open(path, create=False, write=False)
    except MissingStore:
        raise SsdwearError(_no_history_yet(path, drive)) from None
    with opened as store:
        if drive is None:
            drives = store.drive_list(since=start, until=now)
            keys = [d.key for d in drives]
        else:
            found = store.the_drive(drive)
            series, keys = store.samples(found.key, since=start, until=now), [found.key]
        for warning in store.ignored(keys, now):
            say(f"warning: {warning}")
    if drive is None:
        _drive_list(app, f"history:{path}", drives, fmt)
    elif fmt == "csv":
        write(samples_csv(series), nl=False)
    elif fmt == "table":
        console_print(history_view(found, series, width()))
    else:
        from ssdwear.render.documents import samples_doc

        emit_doc(envelope(app, f"history:{path}", **samples_doc(found, series)), fmt)


def _no_history_yet(path: Path, drive: str | None) -> str:
    """What history says where nothing was ever stored: that, not a database error."""
    asked = f", so '{drive}' is not in it" if drive is not None else ""
    return (f"no history yet: nothing was stored at {path}{asked} (`ssdwear sample` stores a reading of every drive "
            "there, `ssdwear import smartd` copies smartd's attribute logs in; --db FILE or SSDWEAR_DB reads another "
            "history)")


def _drive_list(app: App, origin: str, drives: list[StoredDrive], fmt: str) -> None:
    from ssdwear.render.documents import drive_list_csv, drive_list_doc
    from ssdwear.render.history import drive_list_view
    from ssdwear.render.layout import width

    if fmt == "csv":
        write(drive_list_csv(drives), nl=False)
    elif fmt == "table":
        if drives:
            console_print(drive_list_view(drives, width()))
    else:
        emit_doc(envelope(app, origin, drives=drive_list_doc(drives)), fmt)
    if not drives:
        fail(f"no drive in {origin.split(':', 1)[1]} yet: ssdwear sample records the drives it reads")


@click.command(cls=Command)  # prints a script: neither the global options nor the App
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script.

    The files in completions/ are this output.

    \b
    Example:
      ssdwear completion bash > /usr/share/bash-completion/completions/ssdwear
    """
    from ..completion import GENERATORS

    root = click.get_current_context().find_root().command
    assert isinstance(root, click.Group)
    write(GENERATORS[shell](root), nl=False)


@command()
@format_option()
def scan(app: App, fmt: str) -> None:
    """List the drives smartctl can open, with their -d types.

    \b
    Example:
      ssdwear scan
    """
    with reading(app) as (session, found):
        pass
    if fmt == "table":
        from ssdwear.render.layout import width
        from ssdwear.render.scan import scan_view

        if found:
            console_print(scan_view(found, width()))
    else:
        from ssdwear.render.documents import scan_doc

        emit_doc(envelope(app, session.origin, **scan_doc(found)), fmt)
    for message in session.warnings:
        say(f"warning: {message}")
    if not found:
        fail(str(no_drives(session)))


COMMANDS = (report, status, analyze, history, completion, scan)
