"""The command line: parse options, call the core, render, map errors to messages and exit codes.

Exit codes (documented in the README, pinned by tests):
  0  success                         1  nothing could be done (error message on stderr)
  2  usage error                     3  partial: at least one drive failed, the others were reported
  4  start refused a drive (guard)   5  a drive rejected the timer reset
  retire-check: 0 keep, 10 watch, 11 retire.   check: Nagios 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
Global options (--db, --smartctl, ...) are accepted before or after the command.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Protocol

import click

from . import __version__
from .errors import SsdwearError, StoreError, UsageError
from .records import Clock, utc_now

if TYPE_CHECKING:
    from .config import Config
    from .plan import Measured
    from .records import DriveReport, RaidVolume
    from .session import Session, StartResult
    from .smart import Runner

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PARTIAL, EXIT_REFUSED, EXIT_REJECTED = 0, 1, 2, 3, 4, 5
EXIT_WATCH, EXIT_RETIRE = 10, 11
FORMATS = ("table", "json", "yaml")
Devices = list[tuple[str, Optional[str]]]


@dataclass
class App:
    """Options shared by every command, and the injectable clock (tests replace it)."""

    smartctl: Optional[str] = None
    config_file: Optional[str] = None
    db: Optional[str] = None
    timeout: Optional[float] = None
    workers: Optional[int] = None
    wake: Optional[bool] = None
    replay: Optional[str] = None
    fallback_replay: Optional[str] = None
    no_history: bool = False
    runner: Optional[Runner] = None  # a ready Runner (tests inject a ReplayRunner to count the calls)
    clock: Clock = utc_now
    sleep: Callable[[float], None] = time.sleep
    _config: Optional[Config] = None

    def config(self) -> Config:
        if self._config is None:
            from . import config as config_mod
            from .paths import config_paths

            explicit = Path(self.config_file) if self.config_file else None
            self._config = config_mod.load(config_paths(self.config_file), required=explicit)
        return self._config

    def db_path(self, cfg: Config, replaying: bool = False) -> Optional[Path]:
        """--db, else SSDWEAR_DB, else the config's db, else the default; None with --no-history, and for
        replayed runs unless a database is named (recorded drives stay out of this machine's history)."""
        from .paths import db_path

        return db_path(self.db, cfg.db, disabled=self.no_history, replaying=replaying)

    def session(self, represents: Optional[float] = None, replay_dir: Optional[str] = None) -> Session:
        from dataclasses import replace

        from .session import Session

        cfg = self.config()
        overrides: dict[str, Any] = {}
        if self.timeout is not None:
            overrides["smartctl_timeout"] = self.timeout
        if self.workers is not None:
            overrides["workers"] = self.workers
        if self.wake is not None:
            overrides["wake"] = self.wake
        cfg = replace(cfg, **overrides) if overrides else cfg
        replay = replay_dir or self.replay

        def factory() -> Runner:
            if self.runner is not None and not replay_dir:
                return self.runner
            if replay:
                from .replay import ReplayRunner

                return ReplayRunner(Path(replay))
            from .smart import SmartctlRunner, locate_smartctl

            return SmartctlRunner(locate_smartctl(self.smartctl or cfg.smartctl), cfg.smartctl_timeout,
                                  options=cfg.smartctl_options)

        return Session(config=cfg, runner_factory=factory, db_path=self.db_path(cfg, replaying=bool(replay)),
                       clock=self.clock,
                       represents_minutes=represents if represents is not None else cfg.represents_minutes,
                       origin=f"replay:{replay}" if replay else "live")


def say(message: str) -> None:
    """One line on stderr."""
    click.echo(f"ssdwear: {message}", err=True)


def fail(message: str, code: int = EXIT_ERROR) -> None:
    say(message)
    sys.exit(code)


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Domain errors become one line on stderr and an exit code; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except UsageError as exc:
            fail(str(exc), EXIT_USAGE)
        except StoreError as exc:
            fail(f"{exc} (the database: --db FILE or SSDWEAR_DB; --no-history for none)", EXIT_ERROR)
        except SsdwearError as exc:
            fail(str(exc), EXIT_ERROR)
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            sys.exit(EXIT_OK)
        except Exception as exc:  # a bug: still one line, with a way to see more
            if os.environ.get("SSDWEAR_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (set SSDWEAR_DEBUG=1 for a traceback; please "
                 "report it)", EXIT_ERROR)

    return wrapper


# ------------------------------------------------------------------------------------------------
# Option types and the options every command shares


class DurationType(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    name = "DURATION"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        from .units import parse_duration_minutes

        try:
            return parse_duration_minutes(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


DURATION = DurationType()


class SecondsType(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A finite number of seconds above 0 (nan, inf, 0 and negatives are usage errors)."""

    name = "SECONDS"

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} is not a finite number of seconds above 0", param, ctx)
        return seconds


def _into_app(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """Store a global option on the App, wherever it was given (before or after the command)."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None and value is not False:
            setattr(ctx.ensure_object(App), name, value)
        return value

    return callback


_GLOBAL_OPTIONS: tuple[Callable[[Callable[..., Any]], Callable[..., Any]], ...] = (
    click.option("--smartctl", metavar="PATH", envvar="SSDWEAR_SMARTCTL", expose_value=False,
                 callback=_into_app("smartctl"),
                 help="smartctl binary [env SSDWEAR_SMARTCTL]. Default: PATH, then /usr/sbin, /sbin."),
    click.option("--config", metavar="FILE", expose_value=False, callback=_into_app("config_file"),
                 help="Extra config file read after /etc/ssdwear/config.yaml and ~/.config/ssdwear/config.yaml "
                      "[env SSDWEAR_CONFIG]."),
    click.option("--db", metavar="FILE", expose_value=False, callback=_into_app("db"),
                 help="History database [env SSDWEAR_DB]. Default: /var/lib/ssdwear/history.db as root, else "
                      "~/.local/share/ssdwear/history.db."),
    click.option("--no-history", is_flag=True, default=None, expose_value=False, callback=_into_app("no_history"),
                 help="Neither read nor write the history database."),
    click.option("--timeout", type=SecondsType(), expose_value=False, callback=_into_app("timeout"),
                 help="Per smartctl call (default 60)."),
    click.option("--workers", type=click.IntRange(1, 256), metavar="N", expose_value=False,
                 callback=_into_app("workers"), help="Drives read in parallel (default 64)."),
    click.option("--wake/--no-wake", default=None, expose_value=False, callback=_into_app("wake"),
                 help="Spin up drives in standby to read them (default: no, a sleeping drive is reported as such)."),
    click.option("--replay", metavar="DIR", type=click.Path(file_okay=False), expose_value=False,
                 callback=_into_app("replay"), help="Answer smartctl calls from recorded outputs in DIR instead of "
                 "running smartctl (tests, demos); the history is used only with --db or SSDWEAR_DB."),
    click.option("--fallback-replay", metavar="DIR", type=click.Path(file_okay=False), expose_value=False,
                 callback=_into_app("fallback_replay"), help="When this machine has no SMART drive or no smartctl, "
                 "report the recorded outputs in DIR instead, and say so (report, status, check, retire-check, "
                 "scan)."),
)


def global_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(_GLOBAL_OPTIONS):
        fn = option(fn)
    return fn


def format_option(choices: Sequence[str] = FORMATS) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--format", "-f", "fmt", type=click.Choice(list(choices)), default="table",
                        show_default=True, help="table for people; " + "/".join(c for c in choices if c != "table")
                        + " on stdout for scripts.")


def device_type_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("-d", "--type", "device_type", metavar="TYPE",
                        help="smartctl -d type for the DEVICEs given (e.g. sat, nvme, megaraid,28).")(fn)


def represents_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--represents", type=DURATION, metavar="DURATION",
                        help="Real time the measured window stands for (the seed's 60-minute loop = 1d). "
                             "Default: the window stands for itself.")(fn)


def devices_argument(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.argument("devices", nargs=-1, metavar="[DEVICE]...")(fn)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@global_options
@click.version_option(__version__, prog_name="ssdwear")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """SMART wear monitor: percent used and projected years left for every SSD.

    \b
    ssdwear report                 wear of every drive on this machine
    ssdwear measure --for 60m      Intel timed workload: reset, wait, report
    ssdwear analyze out1.txt ...   the same from saved smartctl outputs
    ssdwear plan --from /dev/sda   which drive lasts how long under this workload
    """
    ctx.ensure_object(App)


def main() -> None:
    cli(prog_name="ssdwear")


# ------------------------------------------------------------------------------------------------
# Output


def envelope(app: App, origin: str, **payload: Any) -> dict[str, Any]:
    from .serialize import envelope as make

    return make(origin, app.clock().isoformat(timespec="seconds"), __version__, payload)


def emit_doc(doc: dict[str, Any], fmt: str) -> None:
    """A JSON or YAML document on stdout."""
    from . import render

    click.echo(render.to_json(doc) if fmt == "json" else render.to_yaml(doc), nl=False)


def console_print(renderable: Any) -> None:
    from . import render

    render.console().print(renderable)


def emit_reports(reports: Sequence[DriveReport], fmt: str, origin: str, app: App,
                 volumes: Sequence[RaidVolume] = ()) -> None:
    from . import render

    if fmt == "prometheus":
        from .prometheus import exposition

        click.echo(exposition(reports, app.clock().timestamp()), nl=False)
    elif fmt == "table":
        console_print(render.report_view(reports, render.width(), volumes, render.tables_wanted()))
    else:
        from .serialize import drive_dict

        emit_doc(envelope(app, origin, drives=[drive_dict(r) for r in reports],
                          raid_volumes=[dict(device=v.device, controller=v.controller, drives=list(v.drives),
                                             note=v.note) for v in volumes]), fmt)


class Outcome(Protocol):
    """One drive's line in a command's result: a DriveReport or a StatusRow."""

    @property
    def device(self) -> Optional[str]: ...

    @property
    def error(self) -> Optional[str]: ...


def finish(reports: Sequence[Outcome], session: Session, fmt: str) -> int:
    """Run-level warnings on stderr; each unreadable drive once (the table shows them in their own section,
    the other formats carry them in the document and get one line on stderr each). The exit code."""
    for message in session.warnings:
        say(f"warning: {message}")
    failed = [r for r in reports if r.error]
    if fmt != "table":
        for r in failed:
            say(f"{r.device}: {r.error}")
    if not failed:
        return EXIT_OK
    return EXIT_PARTIAL if len(failed) < len(reports) else EXIT_ERROR


@contextmanager
def opened(app: App, represents: Optional[float] = None) -> Iterator[Session]:
    session = app.session(represents)
    try:
        yield session
    finally:
        session.close()


def no_drives(session: Session) -> SsdwearError:
    """The error for finding no drive, saying what actually failed."""
    from .trust import is_root

    if session.origin != "live":
        why = f"the recordings in {session.origin.split(':', 1)[1]} hold no drive"
    elif is_root():
        why = ("smartctl --scan-open found no drive: this machine shows no SMART devices (a VM or a container "
               "without device access?), or they sit behind a RAID controller: name them with -d TYPE")
    else:
        why = "smartctl --scan-open found no drive it could open: reading drives takes root"
    return SsdwearError(f"no drives found: {why}")


def find_devices(app: App, session: Session, names: Sequence[str], device_type: Optional[str],
                 fallback: bool = True) -> tuple[Session, Devices]:
    """The drives to read; with --fallback-replay and none on this machine (or no smartctl), the recordings."""
    from .errors import SmartctlNotFound

    reason = None
    devices: Devices = []
    try:
        devices = session.devices(names, device_type)
        if not devices:
            reason = "smartctl found no drive"
    except SmartctlNotFound as exc:
        if not (fallback and app.fallback_replay) or names:
            raise
        reason = str(exc).split(":")[0]
    if reason and fallback and app.fallback_replay and not names:
        say(f"no SMART drive on this machine ({reason}); reporting the recorded smartctl outputs in "
            f"{app.fallback_replay} instead")
        session.close()
        session = app.session(session.represents_minutes, replay_dir=app.fallback_replay)
        devices = session.devices(names, device_type)
    return session, devices


def no_fallback(app: App, command: str) -> None:
    if app.fallback_replay:
        raise UsageError(f"--fallback-replay is for the reporting commands (report, status, check, retire-check, "
                         f"scan); {command} acts on this machine's drives")


# ------------------------------------------------------------------------------------------------
# Commands


@cli.command()
@devices_argument
@device_type_option
@represents_option
@click.option("--record", is_flag=True, help="Also store one sample per drive in the history (like sample); "
              "by default report only reads the history. Config: record: true.")
@format_option((*FORMATS, "prometheus"))
@global_options
@click.pass_obj
@handle_errors
def report(app: App, devices: tuple[str, ...], device_type: Optional[str], represents: Optional[float],
           record: bool, fmt: str) -> None:
    """Read the drives and report wear used, the measured window, rate and years left.

    \b
    Examples:
      ssdwear report                        every drive smartctl finds
      ssdwear report /dev/sda --represents 1d --format json
    """
    session = app.session(represents)
    try:
        session, targets = find_devices(app, session, devices, device_type)
        if not targets:
            if fmt in ("json", "yaml"):
                emit_doc(envelope(app, session.origin, drives=[], raid_volumes=[]), fmt)
            raise no_drives(session)
        outcomes = session.read(targets)
        reports = session.assess(outcomes)
        unstored: list[tuple[str, str]] = []
        if record or session.config.record:
            unstored = session.remember()
        emit_reports(reports, fmt, session.origin, app, session.raid_volumes)
        for device, why in unstored:
            say(f"{device}: {why}")
        code = finish(reports, session, fmt)
    finally:
        session.close()
    sys.exit(code)


def _targets_to_reset(session: Session, devices: tuple[str, ...], device_type: Optional[str], all_: bool,
                      command: str) -> Devices:
    if devices and all_:
        raise UsageError(f"{command}: name drives or give --all, not both")
    if not devices and not all_:
        raise UsageError(f"{command} resets drives' timers: name them (ssdwear {command} /dev/sda) or pass --all for "
                         "every eligible drive")
    targets = session.devices(devices, device_type)
    if not targets:
        raise no_drives(session)
    return targets


def _start_results_doc(app: App, session: Session, results: Sequence[StartResult]) -> dict[str, Any]:
    return envelope(app, session.origin, results=[
        dict(device=r.device, model=r.model, serial=r.serial, status=r.status, message=r.message) for r in results])


def start_exit(results: Sequence[StartResult], session: Session, printed: bool) -> int:
    """The exit code of a start; each drive that was not reset gets its line on stderr unless the table already
    said it."""
    for message in session.warnings:
        say(f"warning: {message}")
    if not printed:
        for r in results:
            if r.status != "reset":
                say(f"{r.device}: {r.message}")
    statuses = {r.status for r in results}
    for status, code in (("rejected", EXIT_REJECTED), ("refused", EXIT_REFUSED)):
        if status in statuses:
            return code
    if statuses & {"failed", "unrecorded"}:
        return EXIT_PARTIAL if statuses & {"reset", "unrecorded"} else EXIT_ERROR
    return EXIT_OK


@cli.command()
@devices_argument
@device_type_option
@click.option("--all", "all_", is_flag=True, help="Every drive smartctl finds (each still goes through the guard).")
@click.option("--force", is_flag=True, help="Send the vendor command even to drives it is not documented for.")
@format_option()
@global_options
@click.pass_obj
@handle_errors
def start(app: App, devices: tuple[str, ...], device_type: Optional[str], all_: bool, force: bool, fmt: str) -> None:
    """Reset Intel's timed-workload timer (E4h) and record the reset and a baseline.

    Sends `smartctl -t vendor,0x40` only to Intel/Solidigm SSDs of a family for which the reset is
    documented and that report attributes 226-228; other drives are refused unless --force.

    \b
    Examples:
      ssdwear start /dev/sda        then run the workload for at least 60 minutes
      ssdwear start --all           every eligible drive
    """
    no_fallback(app, "start")
    with opened(app) as session:
        results = session.start(_targets_to_reset(session, devices, device_type, all_, "start"), force)
    if fmt == "table":
        from . import render

        console_print(render.start_view(results, render.width()))
    else:
        emit_doc(_start_results_doc(app, session, results), fmt)
    sys.exit(start_exit(results, session, printed=fmt == "table"))


@cli.command()
@devices_argument
@device_type_option
@format_option()
@global_options
@click.pass_obj
@handle_errors
def status(app: App, devices: tuple[str, ...], device_type: Optional[str], fmt: str) -> None:
    """Show each drive's timed-workload window so far and whether it is valid yet.

    \b
    Example:
      ssdwear status                E4h minutes, wall time since ssdwear's reset, valid or not
    """
    from .status import status_rows

    session = app.session()
    try:
        session, targets = find_devices(app, session, devices, device_type)
        if not targets:
            if fmt != "table":
                emit_doc(envelope(app, session.origin, drives=[]), fmt)
            raise no_drives(session)
        rows = status_rows(session.read(targets), session.last_reset, app.clock())
    finally:
        session.close()
    if fmt == "table":
        from . import render

        console_print(render.status_view(rows, render.width()))
    else:
        emit_doc(envelope(app, session.origin, drives=[row.to_dict() for row in rows]), fmt)
    sys.exit(finish(rows, session, fmt))


@cli.command()
@devices_argument
@device_type_option
@click.option("--all", "all_", is_flag=True, help="Every drive smartctl finds (each still goes through the guard).")
@click.option("--for", "duration", type=DURATION, default="60m", show_default=True, metavar="DURATION",
              help="How long the workload runs (at least the 60 power-on minutes the drive needs).")
@click.option("--poll", type=DURATION, default="1m", show_default=True, metavar="DURATION",
              help="How often to read the drives while waiting.")
@click.option("--force", is_flag=True, help="As for start.")
@represents_option
@format_option()
@global_options
@click.pass_obj
@handle_errors
def measure(app: App, devices: tuple[str, ...], device_type: Optional[str], all_: bool, duration: float,
            poll: float, force: bool, represents: Optional[float], fmt: str) -> None:
    """Start, wait with a progress bar until the window is valid, then report.

    Run your real workload meanwhile. The window is valid once E4h shows at least 60 power-on
    minutes and the requested time has passed.

    \b
    Example:
      ssdwear measure /dev/sda --for 60m --represents 1d
    """
    from . import measure as measure_mod

    no_fallback(app, "measure")
    with opened(app, represents) as session:
        targets = _targets_to_reset(session, devices, device_type, all_, "measure")
        results = session.start(targets, force)
        started = [t for t, r in zip(targets, results, strict=True) if r.status == "reset"]
        for r in results:
            if r.status != "reset":
                say(f"{r.device}: {r.message}")
        if not started:
            sys.exit(start_exit(results, session, printed=True))
        from . import render

        with render.progress(enabled=fmt == "table") as bar:
            last = None
            for last in measure_mod.poll(session, started, duration, poll, app.sleep):
                bar.show(last, duration)
        assert last is not None
        reports = session.assess(last.outcomes)
        emit_reports(reports, fmt, session.origin, app, session.raid_volumes)
        code = finish(reports, session, fmt)
        if code == EXIT_OK and len(started) < len(targets):
            code = start_exit(results, session, printed=True)
    sys.exit(code)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="FILE...")
@click.option("--each", is_flag=True, help="One report per file, even for several readings of one drive.")
@represents_option
@format_option((*FORMATS, "prometheus"))
@global_options
@click.pass_obj
@handle_errors
def analyze(app: App, files: tuple[Path, ...], each: bool, represents: Optional[float], fmt: str) -> None:
    """Report wear from saved smartctl outputs (-a, -x or --json; smartctl 6.x to 7.5).

    Several outputs of one drive give a windowed wear rate between them, with power-on hours as
    the clock. Each drive is named by its file (the last one, for several readings of one drive).

    \b
    Examples:
      ssdwear analyze sda-2023.txt sda-2024.txt
      ssdwear analyze --format json mailed/*.json
    """
    from .analyze import analyze_files

    reports, errors = analyze_files(list(files), app.config().context(app.clock(), represents), each=each)
    for bad in errors:
        say(str(bad.error))
    if reports or fmt in ("json", "yaml"):
        emit_reports(reports, fmt, "files", app)
    if errors:
        sys.exit(EXIT_PARTIAL if reports else EXIT_ERROR)


@cli.command()
@devices_argument
@device_type_option
@click.option("--textfile", metavar="DIR", type=click.Path(file_okay=False, exists=True),
              help="Also write DIR/ssdwear.prom (atomically) for node_exporter's textfile collector. "
                   "Default: textfile_dir from the config file.")
@global_options
@click.pass_obj
@handle_errors
def sample(app: App, devices: tuple[str, ...], device_type: Optional[str], textfile: Optional[str]) -> None:
    """Read every drive and store one sample each: the command for cron and systemd timers.

    Quiet on success (it prints no data: the history and the textfile are its output). Exits non-zero
    only when something failed, naming the drive on stderr.

    \b
    Example (crontab, hourly):
      17 * * * *  root  ssdwear sample --textfile /var/lib/prometheus/node-exporter
    """
    no_fallback(app, "sample")
    with opened(app) as session:
        targets = session.devices(devices, device_type)
        if not targets:
            raise no_drives(session)
        outcomes = session.read(targets)
        reports = session.assess(outcomes)
        directory = textfile or session.config.textfile_dir
        textfile_failed = False
        if directory:  # written before the samples are stored: monitoring goes on when the database is broken
            from .prometheus import exposition, write_textfile

            try:
                write_textfile(Path(directory), exposition(reports, app.clock().timestamp()))
            except OSError as exc:
                session.warn(f"cannot write {directory}/ssdwear.prom: {exc.strerror or exc}")
                textfile_failed = True
        unstored = session.remember()
        for device, why in unstored:
            say(f"{device}: {why}")
        code = finish(reports, session, "json")
        if code == EXIT_OK and (unstored or textfile_failed):
            code = EXIT_PARTIAL
    sys.exit(code)


@cli.command()
@click.argument("drive", metavar="DRIVE")
@click.option("--since", type=DURATION, metavar="DURATION", help="Only samples this recent (e.g. 30d, 1y).")
@format_option((*FORMATS, "csv"))
@global_options
@click.pass_obj
@handle_errors
def history(app: App, drive: str, since: Optional[float], fmt: str) -> None:
    """Show a drive's stored samples: a terminal chart of wear and writes, or the series as JSON/YAML/CSV.

    DRIVE is a serial number, WWN, model or the device path it was last seen at.

    \b
    Examples:
      ssdwear history BTTV12345678200GGN
      ssdwear history /dev/sda --since 90d --format csv > sda.csv
    """
    from datetime import timedelta

    from . import render
    from .store import Store

    path = app.db_path(app.config())
    if path is None:
        raise UsageError("history needs a history database (--no-history was given)")
    with Store.open(path, create=False, write=False) as store:
        matches = store.find_drives(drive)
        if not matches:
            raise SsdwearError(f"no drive matching '{drive}' in {path}: give a serial, WWN, model or device path "
                               "(ssdwear sample records drives)")
        if len(matches) > 1:
            keys = ", ".join(f"{m['model']} [{m['serial'] or m['wwn']}]" for m in matches)
            raise SsdwearError(f"'{drive}' matches {len(matches)} drives ({keys}): give the serial number")
        found = matches[0]
        series = store.samples(found["key"], since=app.clock() - timedelta(minutes=since) if since else None)
    if fmt == "csv":
        click.echo(render.samples_csv(series), nl=False)
    elif fmt == "table":
        console_print(render.history_chart(found, series))
    else:
        emit_doc(envelope(app, f"history:{path}", **render.samples_doc(found, series)), fmt)


class NagiosCommand(click.Command):
    """A command whose usage errors are UNKNOWN (exit 3) in Nagios plugin terms, not click's exit 2."""

    def make_context(self, info_name: Optional[str], args: list[str], parent: Optional[click.Context] = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            click.echo(f"SSDWEAR UNKNOWN - usage: {exc.format_message()}")
            raise click.exceptions.Exit(3) from None


def _threshold_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for name, unit in (("years", "years left (judged on the pessimistic bound)"),
                       ("used", "% of rated endurance used"), ("spare", "% NVMe available spare"),
                       ("tbw", "% of rated TBW written")):
        for level in ("critical", "warning"):
            fn = click.option(f"--{level}-{name}", type=float, metavar="N",
                              help=f"{level.capitalize()} threshold: {unit}.")(fn)
    return fn


@cli.command(cls=NagiosCommand)
@devices_argument
@device_type_option
@represents_option
@_threshold_options
@global_options
@click.pass_obj
def check(app: App, /, devices: tuple[str, ...], device_type: Optional[str], represents: Optional[float],
          **levels: Optional[float]) -> None:
    """Nagios/Icinga plugin: one status line with perfdata; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.

    Thresholds come from the flags, else the config file's `thresholds`, else the defaults
    (years left 2 / 0.5, used 80 / 100 %, spare 20 / 10 %, TBW 80 / 100 %). The output is the
    plugin format (no --format).

    \b
    Example:
      ssdwear check --warning-years 3 --critical-years 1
    """
    from .checks import UNKNOWN, evaluate, thresholds_from

    try:
        with opened(app, represents) as first:
            thresholds = thresholds_from(first.config.thresholds, levels)
            session, targets = find_devices(app, first, devices, device_type)
            try:
                if not targets:
                    raise no_drives(session)
                code, text = evaluate(session.assess(session.read(targets)), thresholds)
                text += "".join(f"\n{v.device}: {v.note}" for v in session.raid_volumes)
            finally:
                session.close()
    except SsdwearError as exc:
        code, text = UNKNOWN, f"SSDWEAR UNKNOWN - {exc}"
    except Exception as exc:  # a plugin must always answer in plugin terms
        code, text = UNKNOWN, f"SSDWEAR UNKNOWN - internal error: {type(exc).__name__}: {exc}"
    click.echo(text)
    sys.exit(code)


@cli.command("retire-check")
@click.argument("target", metavar="DEVICE|FILE")
@device_type_option
@represents_option
@format_option()
@global_options
@click.pass_obj
@handle_errors
def retire_check(app: App, target: str, device_type: Optional[str], represents: Optional[float], fmt: str) -> None:
    """Verdict for one drive: keep, watch or retire, with the reasons.

    TARGET is a device (read live) or a saved smartctl output. The exit code follows the verdict:
    0 keep, 10 watch, 11 retire (1 when the drive cannot be read at all).

    \b
    Examples:
      ssdwear retire-check /dev/sda
      ssdwear retire-check mailed-in/sdb-smartctl-x.txt --format json
    """
    from . import render
    from .verdict import RETIRE, WATCH, judge

    path = Path(target)
    if path.is_file():
        from .analyze import analyze_files

        cfg = app.config()
        reports, errors = analyze_files([path], cfg.context(app.clock(), represents))
        if errors:
            raise SsdwearError(str(errors[0].error))
        origin, thresholds = "files", cfg.thresholds
    else:
        with opened(app, represents) as first:
            session, targets = find_devices(app, first, [target], device_type)
            try:
                reports = session.assess(session.read(targets))
            finally:
                session.close()
        for message in session.warnings:
            say(f"warning: {message}")
        if reports[0].error:
            raise SsdwearError(f"{target}: {reports[0].error}")
        origin, thresholds = session.origin, session.config.thresholds
    drive = reports[0]
    verdict = judge(drive, thresholds)
    if fmt == "table":
        click.echo(render.verdict_text(verdict, drive))
    else:
        from .serialize import drive_dict

        emit_doc(envelope(app, origin, verdict=verdict.level, reasons=list(verdict.reasons),
                          facts=list(verdict.facts), drive=drive_dict(drive)), fmt)
    sys.exit({RETIRE: EXIT_RETIRE, WATCH: EXIT_WATCH}.get(verdict.level, EXIT_OK))


def _plan_sources(app: App, values: Sequence[str], device_type: Optional[str], represents: Optional[float]
                  ) -> list[Measured]:
    """The drives `plan --from` names: saved outputs (FILE), drives read now (DEVICE, /dev/...) and drives known
    from the history (SERIAL, WWN or model; the database is only read, never created)."""
    from datetime import timedelta

    from .analyze import analyze_files
    from .plan import Measured, entry_for, report_from_history
    from .ratings import catalogue

    cfg = app.config()
    files = [Path(v) for v in values if Path(v).is_file() or ("/" in v and not v.startswith("/dev/"))]
    devices = [v for v in values if v.startswith("/dev/") and not Path(v).is_file()]
    keys = [v for v in values if Path(v) not in files and v not in devices]
    found: list[Measured] = []

    def add(report: DriveReport, where: str, origin: str) -> None:
        if report.error:
            say(f"{where}: {report.error}")
            return
        found.append(Measured(report, where, entry_for(report, catalogue(), cfg.ratings), origin))

    if files:
        reports, errors = analyze_files(files, cfg.context(app.clock(), represents))
        for bad in errors:
            say(str(bad.error))
        for r in reports:
            add(r, r.device or "?", "files")
    if devices:
        with opened(app, represents) as session:
            targets = session.devices(devices, device_type)
            for r in session.assess(session.read(targets)):
                add(r, r.device or "?", session.origin)
        for message in session.warnings:
            say(f"warning: {message}")
    if keys:
        from .store import Store

        path = app.db_path(cfg, replaying=bool(app.replay))
        if path is None:
            raise UsageError(f"'{keys[0]}' is neither a file nor a device (/dev/...), and a drive in the history needs "
                             "the history database (--db FILE or SSDWEAR_DB)")
        with Store.open(path, create=False, write=False) as store:
            for key in keys:
                matches = store.find_drives(key)
                if not matches:
                    raise SsdwearError(f"'{key}' is not a file, not a device (/dev/...) and no drive in {path} has "
                                       "that serial, WWN or model (ssdwear sample records drives)")
                if len(matches) > 1:
                    names = ", ".join(f"{m['model']} [{m['serial'] or m['wwn']}]" for m in matches)
                    raise SsdwearError(f"'{key}' matches {len(matches)} drives in {path} ({names}): give the serial")
                since = app.clock() - timedelta(minutes=cfg.history_window_minutes)
                samples = store.samples(matches[0]["key"], since=since)
                add(report_from_history(matches[0], samples, cfg.ratings, cfg.interval_level), f"history:{path}",
                    f"history:{path}")
    return found


@cli.command()
@click.option("--from", "sources", multiple=True, metavar="DEVICE|SERIAL|FILE",
              help="Measure the workload here (repeat for several): a drive read now, a drive's stored history "
                   "(serial, WWN or model), or saved smartctl outputs. Each drive is also a candidate as measured.")
@click.option("--host-writes", metavar="RATE",
              help="Or give the workload: host writes as 145GB/day, 1TB/week, 3TB/month or 1DWPD@1.92TB.")
@click.option("--candidate", "patterns", multiple=True, metavar="PATTERN",
              help="Only candidates matching this regular expression (name, family, model; repeatable).")
@click.option("--years", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default="5", metavar="N",
              help="What lasting means: at least N years (judged on the pessimistic bound).")
@click.option("--spare", type=click.FloatRange(0, 100, min_open=True, max_open=True), metavar="PERCENT",
              help="Leave PERCENT of each drive's user capacity unused (spare area): a published rating where one "
                   "applies, else a write-amplification model.")
@device_type_option
@represents_option
@format_option()
@global_options
@click.pass_obj
@handle_errors
def plan(app: App, sources: tuple[str, ...], host_writes: Optional[str], patterns: tuple[str, ...], years: float,
         spare: Optional[float], device_type: Optional[str], represents: Optional[float], fmt: str) -> None:
    """Which drive lasts how long under this workload: every candidate's projected years, sorted by fit.

    Exit status: 0 when at least one candidate meets --years, 1 when none does, 2 on usage errors.

    \b
    Examples:
      ssdwear plan --from /dev/sda --represents 1d        the workload a timed window measured
      ssdwear plan --from BTTV12345678200GGN --years 7    a drive's stored history
      ssdwear plan --host-writes 145GB/day --candidate 710 --spare 20
    """
    import re

    from . import plan as plan_mod
    from .ratings import catalogue
    from .units import parse_write_rate

    if bool(sources) == bool(host_writes):
        raise UsageError("plan needs the workload: --from DEVICE|SERIAL|FILE (measured) or --host-writes RATE "
                         "(given), one of the two")
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise UsageError(f"--candidate '{pattern}' is not a regular expression: {exc}") from None
    measured: list[plan_mod.Measured] = []
    if host_writes:
        try:
            per_day, words = parse_write_rate(host_writes)
        except ValueError as exc:
            raise UsageError(f"--host-writes: {exc}") from None
        workload, origin = plan_mod.given_workload(per_day, words), "given"
    else:
        measured = _plan_sources(app, sources, device_type, represents)
        found = plan_mod.measured_workload(measured)
        if found is None:
            raise SsdwearError("no workload could be measured: the drives given have no rating with a wear rate and "
                               "no host-write counters; give --host-writes RATE" if measured else
                               "no workload could be measured: none of the drives given could be read")
        workload = found
        origin = found.source.origin if found.source is not None else "files"
    try:
        result = plan_mod.plan(workload, measured, catalogue(), app.config().ratings, patterns, years, spare)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if fmt == "table":
        from . import render

        console_print(render.plan_view(result, render.width()))
    else:
        emit_doc(envelope(app, origin, **plan_mod.plan_dict(result)), fmt)
    sys.exit(EXIT_OK if result.met else EXIT_ERROR)


@cli.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script (the files in completions/ are this output).

    \b
    Example:
      ssdwear completion bash > /usr/share/bash-completion/completions/ssdwear
    """
    from .completion import GENERATORS

    click.echo(GENERATORS[shell](cli), nl=False)


@cli.command()
@format_option()
@global_options
@click.pass_obj
@handle_errors
def scan(app: App, fmt: str) -> None:
    """List the drives smartctl can open, with their -d types.

    \b
    Example:
      ssdwear scan
    """
    with opened(app) as first:
        session, found = find_devices(app, first, [], None)
        session.close()
    if fmt == "table":
        for name, dtype in found:
            click.echo(f"{name}\t{dtype or '-'}")
    else:
        emit_doc(envelope(app, session.origin, devices=[dict(device=n, type=t) for n, t in found]), fmt)
    for message in session.warnings:
        say(f"warning: {message}")
    if not found:
        fail(str(no_drives(session)))


__all__ = ["App", "cli", "main"]
