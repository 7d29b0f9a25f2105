"""Commands for cron, monitoring and retirement: sample, check (Nagios/Icinga), retire-check."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ssdwear.model.errors import SsdwearError
from ssdwear.model.records import RaidVolume
from ssdwear.render.streams import write

from ..app import (
    EXIT_CANNOT_JUDGE,
    EXIT_OK,
    EXIT_PARTIAL,
    EXIT_RETIRE,
    EXIT_WATCH,
    App,
    Command,
    Limited,
    command,
    device_type_option,
    devices_argument,
    emit_doc,
    envelope,
    finish,
    format_option,
    no_drives,
    reading,
    represents_option,
    say,
    stop_calls,
)

if TYPE_CHECKING:
    from ssdwear.model.units import Limits

if TYPE_CHECKING:
    from ssdwear.host.notify_config import NotifySettings
    from ssdwear.model.groups import Group
    from ssdwear.model.records import DriveReport
    from ssdwear.run.session import Assessed, Session


@command()
@devices_argument
@device_type_option
@click.option("--textfile", metavar="DIR",
              help="Also write DIR/ssdwear.prom (atomically) for node_exporter. Default: the config's textfile_dir.")
@click.option("--notify/--no-notify", "notify", default=None,
              help="After storing the samples, notify as `ssdwear notify` does. Default: when the config has a "
                   "notify: section.")
def sample(app: App, devices: tuple[str, ...], device_type: str | None, textfile: str | None,
           notify: bool | None) -> None:
    """Read every drive, store one sample each (for cron, timers).

    Quiet on success (it prints no data: the history and the textfile are its output), unless it
    notifies and something changed. Exits non-zero only when something failed, naming the drive on
    stderr. The samples are stored whatever happens to the textfile: a textfile that cannot be
    written (its directory missing: no node_exporter here) is one line on stderr and exit 3. With
    --no-history it writes the textfile only. The shipped cron.d file and systemd unit name no
    textfile: set textfile_dir in /etc/ssdwear/config.yaml; with a notify: section there, every
    sample also notifies (ssdwear notify --help).

    \b
    Example (crontab, hourly):
      17 * * * *  root  /usr/local/bin/ssdwear sample
    """
    with reading(app, devices, device_type, fallback=False, lock=True) as (session, targets):
        directory = textfile or session.config.textfile_dir
        settings = _notifying(session, notify)
        if not targets:
            if settings is not None:  # the drives it knows were not read: that is news too
                from ssdwear.run.session import Assessed

                _notify(app, session, settings, Assessed([], [], app.clock()), not devices, ())
            raise no_drives(session)
        assessed = session.assess(session.read(targets))
        # Written before the samples are stored (monitoring goes on when the database is broken); a textfile that
        # cannot be written never stops the samples.
        groups: tuple[Group, ...] = ()  # asked once: for the textfile (config groups: true), for notify's rules
        if (directory and session.config.groups) or (settings is not None and settings.rules.judge_groups):
            from ssdwear.run.groups import find_groups

            groups = find_groups(session, assessed)
        textfile_failed = bool(directory) and not _write_textfile(session, Path(str(directory)), assessed.reports,
                                                                  app.clock().timestamp(),
                                                                  groups if session.config.groups else ())
        textfile_only = session.db_path is None and bool(directory)  # --no-history --textfile DIR
        unstored = [] if textfile_only else session.remember(assessed)
        session.remember_reads(assessed)  # the next run reads the slowest first
        for device, why in unstored:
            say(f"{device}: {why}")
        code = finish(assessed.reports, session, "json")
        notify_failed = settings is not None and _notify(app, session, settings, assessed, not devices, groups)
        if code == EXIT_OK and (unstored or textfile_failed or notify_failed):
            code = EXIT_PARTIAL
        if settings is not None:
            from .notify import ping_after

            code = ping_after(session, settings, code, app.clock())
    sys.exit(code)


def _notifying(session: Session, wanted: bool | None) -> NotifySettings | None:
    """The notify settings when this sample notifies (--notify, or the config's notify: section unless
    --no-notify), None when not. Its store is opened for writing first, so that a database this ssdwear has not
    yet upgraded is upgraded before the drives are assessed with their history."""
    from ssdwear.host.notify_config import NotifySettings
    from ssdwear.run.notify import needs_history

    if wanted is False or (wanted is None and session.config.notify is None):
        return None
    if wanted is None and session.db_path is None:  # --no-history sample --textfile DIR: nothing to keep state in
        session.warn("notify skipped: it keeps its state in the history database, and this run has none")
        return None
    needs_history(session)
    session.store(write=True)
    return session.config.notify or NotifySettings()


def _notify(app: App, session: Session, settings: NotifySettings, assessed: Assessed, complete: bool,
            groups: Sequence[Group]) -> bool:
    from .notify import notify_after

    return notify_after(app, session, assessed, settings, complete=complete, groups=groups)


def _write_textfile(session: Session, directory: Path, reports: Sequence[DriveReport], now: float,
                    groups: Sequence[Group] = ()) -> bool:
    """DIR/ssdwear.prom (with the redundancy groups' metrics, where asked for); False (with one warning) when it
    cannot be written."""
    from ssdwear.render.prometheus import exposition, write_textfile

    if not directory.is_dir():
        why = "is not a directory" if directory.exists() else "does not exist"
        session.warn(f"textfile not written: {directory} {why} (node_exporter's textfile directory: create it, or "
                     "drop --textfile / textfile_dir); the samples are stored")
        return False
    try:
        write_textfile(directory, exposition(reports, now, groups, session.elapsed()))
    except OSError as exc:
        session.warn(f"textfile not written: {directory}/ssdwear.prom: {exc.strerror or exc}; the samples are stored")
        return False
    return True


class NagiosCommand(Command):
    """A command whose usage errors are UNKNOWN (exit 3) in Nagios plugin terms, not click's exit 2."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            write(f"SSDWEAR UNKNOWN - usage: {exc.format_message()}")
            raise click.exceptions.Exit(3) from None


def _threshold_limits(flag: str) -> Callable[[], Limits]:
    def limits() -> Limits:
        from ssdwear.assess.nagios import FLAG_NAMES
        from ssdwear.model.units import THRESHOLDS

        return THRESHOLDS[FLAG_NAMES[flag]]

    return limits


def _threshold_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for name, unit, words in (("years", "years left (judged on the pessimistic bound)", "0 to 100 years"),
                              ("used", "% of rated endurance used", "0 to 255 %"),
                              ("spare", "% NVMe available spare", "0 to 100 %"),
                              ("tbw", "% of rated TBW written", "0 to 1,000 %")):
        for level in ("critical", "warning"):
            fn = click.option(f"--{level}-{name}", type=Limited("N", _threshold_limits(name)), metavar="N",
                              help=f"{level.capitalize()} threshold: {unit}; {words}.")(fn)
    return fn


@command(cls=NagiosCommand, errors=False)  # answers in plugin terms, whatever happens
@devices_argument
@device_type_option
@represents_option
@_threshold_options
def check(app: App, /, devices: tuple[str, ...], device_type: str | None, represents: float | None,
          **levels: float | None) -> None:
    """Nagios/Icinga plugin: OK, WARNING, CRITICAL, UNKNOWN.

    Exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN. Line 1: the state, a short summary and a few
    aggregate perfdata; then one line per drive (its % used, reasons and warnings), the drives'
    perfdata after a '|' on the last of them, one drive a line. Refuses --fallback-replay: a
    check never reports recorded drives as this machine's. Thresholds come from the flags, else
    the config file's `thresholds`, else the defaults (years left 2 / 0.5, used 80 / 100 %,
    spare 20 / 10 %, TBW 80 / 100 %). The output is the plugin format (no --format).

    \b
    Example:
      ssdwear check --warning-years 3 --critical-years 1
    """
    from ssdwear.assess.nagios import UNKNOWN, evaluate, thresholds_from

    try:
        if app.fallback_replay:
            raise SsdwearError("--fallback-replay refused: a monitoring check reports this machine's drives, never "
                               "recorded ones (--replay DIR checks recordings on purpose)")
        with reading(app, devices, device_type, represents, fallback=False) as (session, targets):
            thresholds = thresholds_from(session.config.thresholds, levels)
            if not targets:
                raise no_drives(session)
            assessed = session.assess(session.read(targets))
            volumes = [f"{v.device}: {v.note}" for v in assessed.volumes]
            if not assessed.reports and volumes:  # nothing to judge here: say what the volumes are, as report does
                code, text = UNKNOWN, f"SSDWEAR UNKNOWN - no drive to judge: {'; '.join(volumes)}"
            else:  # the run's warnings (history not used, and why) are part of the plugin's answer: stderr is lost
                code, text = evaluate(assessed.reports, thresholds, volumes, session.warnings)
    except SsdwearError as exc:
        code, text = UNKNOWN, f"SSDWEAR UNKNOWN - {exc}"
    except KeyboardInterrupt:  # ^C, or SIGINT from whatever runs the plugin: still an answer in plugin terms
        stop_calls()
        code, text = UNKNOWN, "SSDWEAR UNKNOWN - interrupted (SIGINT) before the drives were judged"
    except Exception as exc:  # a plugin must always answer in plugin terms
        code, text = UNKNOWN, f"SSDWEAR UNKNOWN - internal error: {type(exc).__name__}: {exc}"
    write(text)
    sys.exit(code)


@command("retire-check")
@click.argument("target", metavar="DEVICE|FILE")
@device_type_option
@represents_option
@format_option()
def retire_check(app: App, target: str, device_type: str | None, represents: float | None, fmt: str) -> None:
    """Keep, watch or retire one drive, with the reasons.

    DEVICE|FILE is a device (read live) or a saved smartctl output. The exit code follows the verdict:
    0 keep, 10 watch, 11 retire, 12 cannot judge (no SMART data, or a RAID volume: its drives are
    named); 1 when the drive cannot be read at all.

    \b
    Examples:
      ssdwear retire-check /dev/sda
      ssdwear retire-check mailed-in/sdb-smartctl-x.txt --format json
    """
    from ssdwear.assess.verdict import RETIRE, UNKNOWN, WATCH, judge
    from ssdwear.host.paths import classify
    from ssdwear.render.report import verdict_text

    if classify(target)[0] in ("file", "missing-file"):  # a saved output; the reading says what is wrong with it
        from ssdwear.run.saved import analyze_files

        cfg = app.config()
        reports, errors = analyze_files([Path(target)], cfg.context(app.clock(), represents))
        if errors:
            raise SsdwearError(str(errors[0].error))
        origin, thresholds = "files", cfg.thresholds
    else:
        with reading(app, [target], device_type, represents) as (session, targets):
            assessed = session.assess(session.read(targets))
            volumes = [] if assessed.reports else session.volumes_with_drives(assessed)
        reports = assessed.reports
        for message in session.warnings:
            say(f"warning: {message}")
        if not reports:
            _volume_verdict(app, session.origin, volumes, target, fmt)
        if reports[0].error:
            raise SsdwearError(f"{target}: {reports[0].error}")
        origin, thresholds = session.origin, session.config.thresholds
    drive = reports[0]
    verdict = judge(drive, thresholds)
    if fmt == "table":
        write(verdict_text(verdict, drive))
    else:
        from ssdwear.render.documents import verdict_doc

        emit_doc(envelope(app, origin, **verdict_doc(verdict, drive)), fmt)
    sys.exit({RETIRE: EXIT_RETIRE, WATCH: EXIT_WATCH, UNKNOWN: EXIT_CANNOT_JUDGE}.get(verdict.level, EXIT_OK))


def _volume_verdict(app: App, origin: str, volumes: list[RaidVolume], target: str, fmt: str) -> None:
    """retire-check on a RAID controller's volume: nothing to judge; what report says about it, and how to reach
    its drives. Exits 12 (cannot judge)."""
    if not volumes:
        raise SsdwearError(f"{target}: smartctl returned no drive")
    reasons = [f"cannot judge {v.device}: {v.note}" for v in volumes]
    drives = [d for v in volumes for d in v.drives]
    if drives:
        name, _, dtype = drives[0].partition(" ")
        reasons.append(f"retire-check each drive through the controller, e.g. ssdwear retire-check {name} -d {dtype}")
    if fmt == "table":
        write("\n".join([f"UNKNOWN: {target}", *(f"  - {r}" for r in reasons)]))
    else:
        from ssdwear.render.documents import no_verdict_doc

        emit_doc(envelope(app, origin, **no_verdict_doc(reasons)), fmt)
    sys.exit(EXIT_CANNOT_JUDGE)


@command(name="import")
@click.argument("what", metavar="smartd", type=click.Choice(["smartd"]))
@click.argument("place", metavar="[DIR]", required=False)
@format_option()
def import_(app: App, what: str, place: str | None, fmt: str) -> None:
    """Copy smartd's attribute logs into the history.

    Reads every drive, finds the log smartd keeps of it (DIR: a directory, or a prefix as smartd's
    -A takes it; default: the config's smartd_attrlog, else /var/lib/smartmontools/attrlog.),
    checks it is that drive's, and stores the first reading of every hour as a sample. Importing
    again adds nothing. report, check and the others read the logs without importing them; import
    keeps their history when smartd's files go (rotated, or smartd removed).

    \b
    Examples:
      ssdwear import smartd
      ssdwear import smartd /var/log/smartd/
    """
    from ssdwear.host.smartd import prefixes
    from ssdwear.render.documents import import_doc
    from ssdwear.run.smartd import import_logs

    with reading(app, fallback=False, lock=True) as (session, targets):  # it stores samples: one run at a time
        places = [place] if place else list(session.attrlog_places) or prefixes(session.config.smartd_attrlog)
        session.store_wanted()  # no database to store in: said before any drive is read
        if not targets:
            raise no_drives(session)
        outcomes = session.read(targets).outcomes
        drives = [o for o in outcomes if not isinstance(o, SsdwearError)]
        results = import_logs(session.writable_store, places, drives, app.clock(), session.config.ratings)
        failed = [o for o in outcomes if isinstance(o, SsdwearError)]
    for bad in failed:
        say(str(bad))
    if fmt == "table":
        for r in results:
            who = " ".join(x for x in (r.where, r.drive.label) if x)
            unstored = f"; {r.rejected:,} not stored: {r.rejected_why}" if r.rejected else ""
            done = r.message or (f"{r.added:,} of {r.offered:,} hourly readings imported "
                                 f"({r.present:,} already there{unstored}) from {r.summary}")
            write(f"{who}: {done}")
    else:
        emit_doc(envelope(app, session.origin, **import_doc(places, results)), fmt)
    sys.exit(EXIT_PARTIAL if failed else EXIT_OK)


COMMANDS = (sample, check, retire_check, import_)
