"""The command line: parse options, call the core, render, map errors to messages and exit codes.

Exit codes (documented in the README, pinned by tests):
  0  success                         1  nothing could be done (error message on stderr)
  2  usage error                     3  partial: at least one drive failed, the others were reported
  4  start refused a drive (guard)   5  a drive rejected the timer reset
  retire-check: 0 keep, 10 watch, 11 retire.   check: Nagios 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional

import click

from . import __version__
from .errors import ConfigError, SsdwearError, UsageError

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PARTIAL, EXIT_REFUSED, EXIT_REJECTED = 0, 1, 2, 3, 4, 5
EXIT_WATCH, EXIT_RETIRE = 10, 11
FORMATS = ("table", "json", "yaml")


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
    runner: Any = None  # a ready Runner (tests inject a ReplayRunner to count the calls)
    clock: Callable[[], datetime] = field(default_factory=lambda: _utc_now)
    sleep: Callable[[float], None] = time.sleep
    _config: Any = None

    def config(self) -> Any:
        if self._config is None:
            from . import config as config_mod
            from .paths import config_paths

            paths = config_paths(self.config_file)
            explicit = Path(self.config_file) if self.config_file else None
            self._config = config_mod.load(paths, required=explicit)
        return self._config

    def db_path(self, cfg: Any, replaying: bool = False) -> Optional[Path]:
        """--db, else SSDWEAR_DB, else the config's db, else the default; None with --no-history, and for
        replayed runs unless a database is named (recorded drives stay out of this machine's history)."""
        from .paths import default_db_path

        explicit = self.db or os.environ.get("SSDWEAR_DB")
        if self.no_history or (replaying and not explicit):
            return None
        return Path(explicit or cfg.db or default_db_path())

    def session(self, represents: Optional[float] = None, replay_dir: Optional[str] = None) -> Any:
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
        db_path = self.db_path(cfg, replaying=bool(replay))

        def factory() -> Any:
            if self.runner is not None and not replay_dir:
                return self.runner
            if replay:
                from .replay import ReplayRunner

                return ReplayRunner(Path(replay))
            from .smart import SmartctlRunner, locate_smartctl

            return SmartctlRunner(locate_smartctl(self.smartctl or cfg.smartctl), cfg.smartctl_timeout,
                                  options=cfg.smartctl_options)

        return Session(config=cfg, runner_factory=factory, db_path=db_path, clock=self.clock,
                       represents_minutes=represents if represents is not None else cfg.represents_minutes,
                       origin=f"replay:{replay}" if replay else "live")


def _utc_now() -> datetime:
    from datetime import timezone

    return datetime.now(timezone.utc)


def fail(message: str, code: int = EXIT_ERROR) -> None:
    click.echo(f"ssdwear: {message}", err=True)
    sys.exit(code)


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Domain errors become one line on stderr and an exit code; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except UsageError as exc:
            fail(str(exc), EXIT_USAGE)
        except SsdwearError as exc:
            fail(str(exc), EXIT_ERROR)
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except click.exceptions.Exit:
            raise
        except (click.ClickException, click.Abort):
            raise
        except BrokenPipeError:
            sys.exit(EXIT_OK)
        except Exception as exc:  # a bug: still one line, with a way to see more
            if os.environ.get("SSDWEAR_DEBUG"):
                raise
            fail(f"internal error: {type(exc).__name__}: {exc} (set SSDWEAR_DEBUG=1 for a traceback; please "
                 "report it)", EXIT_ERROR)

    return wrapper


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


def _finite(ctx: click.Context, param: click.Parameter, value: Optional[float]) -> Optional[float]:
    import math

    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number of seconds", ctx=ctx, param=param)
    return value


def format_option(choices: Sequence[str] = FORMATS) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--format", "-f", "fmt", type=click.Choice(list(choices)), default="table",
                        show_default=True, help="table for people; json/yaml on stdout for scripts.")


def device_type_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("-d", "--type", "device_type", metavar="TYPE",
                        help="smartctl -d type for the DEVICEs given (e.g. sat, nvme, megaraid,28).")(fn)


def represents_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--represents", type=DURATION, metavar="DURATION",
                        help="Real time the measured window stands for (the seed's 60-minute loop = 1d). "
                             "Default: the window stands for itself.")(fn)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--smartctl", metavar="PATH", envvar="SSDWEAR_SMARTCTL",
              help="smartctl binary [env SSDWEAR_SMARTCTL]. Default: PATH, then /usr/sbin, /sbin.")
@click.option("--config", "config_file", metavar="FILE", help="Extra config file read after "
              "/etc/ssdwear/config.yaml and ~/.config/ssdwear/config.yaml [env SSDWEAR_CONFIG].")
@click.option("--db", metavar="FILE", help="History database [env SSDWEAR_DB]. Default: "
              "/var/lib/ssdwear/history.db as root, else ~/.local/share/ssdwear/history.db.")
@click.option("--no-history", is_flag=True, help="Neither read nor write the history database.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), callback=lambda c, p, v: _finite(c, p, v),
              metavar="SECONDS", help="Per smartctl call (default 60).")
@click.option("--workers", type=click.IntRange(1, 256), metavar="N", help="Drives read in parallel (default 64).")
@click.option("--wake/--no-wake", default=None, help="Spin up drives in standby to read them (default: no, "
              "a sleeping drive is reported as such).")
@click.option("--replay", metavar="DIR", type=click.Path(file_okay=False), help="Answer smartctl calls from "
              "recorded outputs in DIR instead of running smartctl (tests, demos); the history is used only "
              "with --db or SSDWEAR_DB.")
@click.option("--fallback-replay", metavar="DIR", type=click.Path(file_okay=False), help="When this machine has "
              "no SMART drive or no smartctl, report the recorded outputs in DIR instead, and say so.")
@click.version_option(__version__, prog_name="ssdwear")
@click.pass_context
def cli(ctx: click.Context, /, **options: Any) -> None:
    """SMART wear monitor: percent used and projected years left for every SSD.

    \b
    ssdwear report                 wear of every drive on this machine
    ssdwear measure --for 60m      Intel timed workload: reset, wait, report
    ssdwear analyze out1.txt ...   the same from saved smartctl outputs
    """
    app = ctx.find_object(App) or App()
    for key, value in options.items():
        if value is not None and value is not False:
            setattr(app, key, value)
    ctx.obj = app


def main() -> None:
    cli(prog_name="ssdwear")


# ------------------------------------------------------------------------------------------------
# Output helpers


def emit_reports(reports: Sequence[Any], fmt: str, origin: str, app: App, title: Optional[str] = None) -> None:
    from . import render

    if fmt == "prometheus":
        from .prometheus import exposition

        click.echo(exposition(reports, app.clock().timestamp()), nl=False)
        return
    if fmt == "table":
        console_print(render.table(reports, title=title))
        return
    emit_doc(render.document(reports, origin, app.clock().isoformat(timespec="seconds"), __version__), fmt)


def emit_doc(doc: Any, fmt: str) -> None:
    """A JSON or YAML document on stdout."""
    from . import render

    click.echo(render.to_json(doc) if fmt == "json" else render.to_yaml(doc), nl=False)


def console_print(renderable: Any) -> None:
    from rich.console import Console

    width = None if sys.stdout.isatty() else int(os.environ.get("COLUMNS") or 140)
    # Drive strings are external input: never read them as rich markup ('[/]' in a serial) or emoji codes.
    Console(width=width, soft_wrap=False, highlight=False, markup=False, emoji=False).print(renderable)


def report_exit(reports: Sequence[Any], session: Any) -> int:
    for message in session.warnings:
        click.echo(f"ssdwear: warning: {message}", err=True)
    failed = [r for r in reports if r.error]
    for r in failed:
        click.echo(f"ssdwear: {r.device}: {r.error}", err=True)
    if not failed:
        return EXIT_OK
    return EXIT_PARTIAL if len(failed) < len(reports) else EXIT_ERROR


def read_reports(app: App, names: Sequence[str], device_type: Optional[str], represents: Optional[float]
                 ) -> tuple[list[Any], Any]:
    """Read and assess drives; fall back to replayed recordings when asked and the machine has none."""
    from .errors import SmartctlNotFound

    session = app.session(represents)
    reason = None
    devices: list[Any] = []
    try:
        devices = session.devices(names, device_type)
        if not devices:
            reason = "smartctl found no drive"
    except SmartctlNotFound as exc:
        if not app.fallback_replay or names:
            raise
        reason = str(exc).split(":")[0]
    if reason and app.fallback_replay and not names:
        click.echo(f"ssdwear: no SMART drive on this machine ({reason}); reporting the recorded smartctl "
                   f"outputs in {app.fallback_replay} instead", err=True)
        session.close()
        session = app.session(represents, replay_dir=app.fallback_replay)
        devices = session.devices(names, device_type)
    if not devices:
        raise SsdwearError("no drives found: smartctl --scan-open lists none (run as root? drives behind a RAID "
                           "controller need -d TYPE and a device name)")
    reports = session.assess(session.read(devices))
    return reports, session


# ------------------------------------------------------------------------------------------------
# Commands


@cli.command()
@click.argument("devices", nargs=-1, metavar="[DEVICE]...")
@device_type_option
@represents_option
@format_option((*FORMATS, "prometheus"))
@click.pass_obj
@handle_errors
def report(app: App, devices: tuple[str, ...], device_type: Optional[str], represents: Optional[float],
           fmt: str) -> None:
    """Read the drives and report wear used, the measured window, rate and years left.

    \b
    Examples:
      ssdwear report                        every drive smartctl finds
      ssdwear report /dev/sda --represents 1d --format json
    """
    reports, session = read_reports(app, devices, device_type, represents)
    try:
        emit_reports(reports, fmt, session.origin, app)
        code = report_exit(reports, session)
    finally:
        session.close()
    sys.exit(code)


@cli.command()
@click.argument("devices", nargs=-1, metavar="[DEVICE]...")
@device_type_option
@click.option("--force", is_flag=True, help="Send the vendor command even to drives it is not documented for.")
@format_option()
@click.pass_obj
@handle_errors
def start(app: App, devices: tuple[str, ...], device_type: Optional[str], force: bool, fmt: str) -> None:
    """Reset Intel's timed-workload timer (E4h) and record the reset and a baseline.

    Sends `smartctl -t vendor,0x40` only to Intel/Solidigm SSDs of a family for which the reset is
    documented and that report attributes 226-228; other drives are refused unless --force.

    \b
    Example:
      ssdwear start /dev/sda        then run the workload for at least 60 minutes
    """
    session = app.session()
    try:
        targets = session.devices(devices, device_type)
        if not targets:
            raise SsdwearError("no drives found to start: name them, e.g. ssdwear start /dev/sda")
        results = session.start(targets, force)
    finally:
        session.close()
    emit_start(results, fmt)
    sys.exit(start_exit(results, session))


def emit_start(results: Sequence[Any], fmt: str) -> None:
    if fmt == "table":
        from rich.table import Table

        t = Table()
        for col in ("Device", "Serial", "Result", "Detail"):
            t.add_column(col)
        for r in results:
            t.add_row(r.device, r.serial or "", r.status, r.message)
        console_print(t)
    else:
        emit_doc({"results": [dict(device=r.device, serial=r.serial, status=r.status, message=r.message)
                              for r in results]}, fmt)


def start_exit(results: Sequence[Any], session: Any) -> int:
    for message in session.warnings:
        click.echo(f"ssdwear: warning: {message}", err=True)
    for r in results:
        if r.status != "reset":
            click.echo(f"ssdwear: {r.device}: {r.message}", err=True)
    statuses = {r.status for r in results}
    if "reset" not in statuses:
        if statuses == {"refused"}:
            return EXIT_REFUSED
        if "rejected" in statuses:
            return EXIT_REJECTED
        return EXIT_ERROR if statuses == {"failed"} else EXIT_REFUSED
    for status, code in (("rejected", EXIT_REJECTED), ("refused", EXIT_REFUSED), ("failed", EXIT_PARTIAL),
                         ("unrecorded", EXIT_PARTIAL)):
        if status in statuses:
            return code
    return EXIT_OK


@cli.command()
@click.argument("devices", nargs=-1, metavar="[DEVICE]...")
@device_type_option
@format_option()
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
        targets = session.devices(devices, device_type)
        if not targets:
            raise SsdwearError("no drives found")
        outcomes = session.read(targets)
        rows = status_rows(session, outcomes)
        reports = session.assess(outcomes)
    finally:
        session.close()
    if fmt == "table":
        from rich.table import Table

        t = Table()
        for col in ("Device", "Drive", "E4h window", "Since our reset", "Valid", "Detail"):
            t.add_column(col)
        for row in rows:
            t.add_row(row["device"], " ".join(x for x in (row["model"], row["serial"] and f"[{row['serial']}]")
                                              if x), row["window_text"], row["since_reset_text"],
                      {True: "yes", False: "no", None: "-"}[row["valid"]], row["reason"] or "")
        console_print(t)
    else:
        emit_doc({"drives": [{k: v for k, v in row.items() if not k.endswith("_text")} for row in rows]}, fmt)
    sys.exit(report_exit(reports, session))


@cli.command()
@click.argument("devices", nargs=-1, metavar="[DEVICE]...")
@device_type_option
@click.option("--for", "duration", type=DURATION, default="60m", show_default=True, metavar="DURATION",
              help="How long the workload runs (at least the 60 power-on minutes the drive needs).")
@click.option("--poll", type=DURATION, default="1m", show_default=True, metavar="DURATION",
              help="How often to read the drives while waiting.")
@click.option("--force", is_flag=True, help="As for start.")
@represents_option
@format_option()
@click.pass_obj
@handle_errors
def measure(app: App, devices: tuple[str, ...], device_type: Optional[str], duration: float, poll: float,
            force: bool, represents: Optional[float], fmt: str) -> None:
    """Start, wait with a progress bar until the window is valid, then report.

    Run your real workload meanwhile. The window is valid once E4h shows at least 60 power-on
    minutes and the requested time has passed.

    \b
    Example:
      ssdwear measure /dev/sda --for 60m --represents 1d
    """
    from .measure import run_measure

    session = app.session(represents)
    try:
        targets = session.devices(devices, device_type)
        if not targets:
            raise SsdwearError("no drives found to measure")
        results = session.start(targets, force)
        started = [t for t, r in zip(targets, results) if r.status == "reset"]
        for r in results:
            if r.status != "reset":
                click.echo(f"ssdwear: {r.device}: {r.message}", err=True)
        if not started:
            sys.exit(start_exit(results, session))
        reports = run_measure(session, started, duration, poll, app.sleep, show_progress=fmt == "table")
        emit_reports(reports, fmt, session.origin, app)
        code = report_exit(reports, session)
        if code == EXIT_OK and len(started) < len(targets):
            code = start_exit(results, session)
    finally:
        session.close()
    sys.exit(code)


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path), metavar="FILE...")
@click.option("--each", is_flag=True, help="One report per file, even for several readings of one drive.")
@represents_option
@format_option()
@click.pass_obj
@handle_errors
def analyze(app: App, files: tuple[Path, ...], each: bool, represents: Optional[float], fmt: str) -> None:
    """Report wear from saved smartctl outputs (-a, -x or --json; smartctl 6.x to 7.5).

    Several outputs of one drive give a windowed wear rate between them, with power-on hours as
    the clock.

    \b
    Examples:
      ssdwear analyze sda-2023.txt sda-2024.txt
      ssdwear analyze --format json mailed/*.json
    """
    from .analyze import analyze_files
    from .assess import Context

    cfg = app.config()
    ctx = Context(now=app.clock(), represents_minutes=represents or cfg.represents_minutes, ratings=cfg.ratings)
    reports, errors = analyze_files(list(files), ctx, each=each)
    for message in errors:
        click.echo(f"ssdwear: {message}", err=True)
    if reports:
        emit_reports(reports, fmt, "files", app)
    if errors:
        sys.exit(EXIT_PARTIAL if reports else EXIT_ERROR)


@cli.command()
@click.argument("devices", nargs=-1, metavar="[DEVICE]...")
@device_type_option
@click.option("--textfile", metavar="DIR", type=click.Path(file_okay=False, exists=True),
              help="Also write DIR/ssdwear.prom (atomically) for node_exporter's textfile collector. "
                   "Default: textfile_dir from the config file.")
@click.pass_obj
@handle_errors
def sample(app: App, devices: tuple[str, ...], device_type: Optional[str], textfile: Optional[str]) -> None:
    """Read every drive and store one sample each: the command for cron and systemd timers.

    Quiet on success. Exits non-zero only when something failed, naming the drive on stderr.

    \b
    Example (crontab, hourly):
      17 * * * *  root  ssdwear sample --textfile /var/lib/prometheus/node-exporter
    """
    session = app.session()
    try:
        targets = session.devices(devices, device_type)
        if not targets:
            raise SsdwearError("no drives found: smartctl --scan-open lists none (run as root?)")
        outcomes = session.read(targets)
        reports = session.assess(outcomes, remember=False)
        directory = textfile or session.config.textfile_dir
        textfile_failed = False
        if directory:  # written before the samples are stored: monitoring goes on when the database is broken
            from .prometheus import exposition, write_textfile

            try:
                write_textfile(Path(directory), exposition(reports, app.clock().timestamp()))
            except OSError as exc:
                session.warn(f"cannot write {directory}/ssdwear.prom: {exc.strerror or exc}")
                textfile_failed = True
        unstored = session.remember(outcomes, reports)
        for device, why in unstored:
            click.echo(f"ssdwear: {device}: {why}", err=True)
        code = report_exit(reports, session)
        if code == EXIT_OK and (unstored or textfile_failed):
            code = EXIT_PARTIAL
    finally:
        session.close()
    sys.exit(code)


@cli.command()
@click.argument("drive", metavar="DRIVE")
@click.option("--since", type=DURATION, metavar="DURATION", help="Only samples this recent (e.g. 30d, 1y).")
@format_option(("table", "json", "csv"))
@click.pass_obj
@handle_errors
def history(app: App, drive: str, since: Optional[float], fmt: str) -> None:
    """Show a drive's stored samples: a terminal chart of wear and writes, or the series as JSON/CSV.

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
        raise UsageError("history needs a history database: pass --db FILE")
    with Store.open(path, create=False) as store:
        matches = store.find_drives(drive)
        if not matches:
            raise SsdwearError(f"no drive matching '{drive}' in {path}: give a serial, WWN, model or device path "
                               "(ssdwear sample records drives)")
        if len(matches) > 1:
            keys = ", ".join(f"{m['model']} [{m['serial'] or m['wwn']}]" for m in matches)
            raise SsdwearError(f"'{drive}' matches {len(matches)} drives ({keys}): give the serial number")
        found = matches[0]
        start = app.clock() - timedelta(minutes=since) if since else None
        series = store.samples(found["key"], since=start)
    if fmt == "csv":
        click.echo(render.samples_csv(series), nl=False)
    elif fmt == "json":
        emit_doc(render.samples_doc(found, series), fmt)
    else:
        console_print(render.history_chart(found, series))


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
    for name, unit in (("years", "years left"), ("used", "% of rated endurance used"),
                       ("spare", "% NVMe available spare"), ("tbw", "% of rated TBW written")):
        for level in ("critical", "warning"):
            fn = click.option(f"--{level}-{name}", type=float, metavar="N",
                              help=f"{level.capitalize()} threshold: {unit}.")(fn)
    return fn


@cli.command(cls=NagiosCommand)
@click.argument("devices", nargs=-1, metavar="[DEVICE]...")
@device_type_option
@represents_option
@_threshold_options
@click.pass_obj
def check(app: App, /, devices: tuple[str, ...], device_type: Optional[str], represents: Optional[float],
          **levels: Optional[float]) -> None:
    """Nagios/Icinga plugin: one status line with perfdata; exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.

    Thresholds come from the flags, else the config file's `thresholds`, else the defaults
    (years left 2 / 0.5, used 80 / 100 %, spare 20 / 10 %, TBW 80 / 100 %).

    \b
    Example:
      ssdwear check --warning-years 3 --critical-years 1
    """
    from .checks import run_check

    try:
        code, text = run_check(app, devices, device_type, represents, levels)
    except SsdwearError as exc:
        code, text = 3, f"SSDWEAR UNKNOWN - {exc}"
    except Exception as exc:  # a plugin must always answer in plugin terms
        code, text = 3, f"SSDWEAR UNKNOWN - internal error: {type(exc).__name__}: {exc}"
    click.echo(text)
    sys.exit(code)


@cli.command("retire-check")
@click.argument("target", metavar="DEVICE|FILE")
@device_type_option
@represents_option
@format_option()
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
        from .assess import Context

        cfg = app.config()
        ctx = Context(now=app.clock(), represents_minutes=represents or cfg.represents_minutes, ratings=cfg.ratings)
        reports, errors = analyze_files([path], ctx)
        if errors:
            raise SsdwearError(errors[0])
        thresholds = cfg.thresholds
    else:
        reports, session = read_reports(app, [target], device_type, represents)
        session.close()
        thresholds = session.config.thresholds
        if reports[0].error:
            raise SsdwearError(f"{target}: {reports[0].error}")
    drive = reports[0]
    verdict = judge(drive, thresholds)
    if fmt == "table":
        who = " ".join(x for x in (drive.model, drive.serial and f"[{drive.serial}]", drive.device) if x)
        click.echo(f"{verdict.level.upper()}: {who}")
        for reason in verdict.reasons:
            click.echo(f"  - {reason}")
        for fact in verdict.facts:
            click.echo(f"  ok: {fact}")
    else:
        emit_doc({"verdict": verdict.level, "reasons": list(verdict.reasons), "facts": list(verdict.facts),
                  "drive": render.drive_dict(drive)}, fmt)
    sys.exit({RETIRE: EXIT_RETIRE, WATCH: EXIT_WATCH}.get(verdict.level, EXIT_OK))


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
@click.pass_obj
@handle_errors
def scan(app: App, fmt: str) -> None:
    """List the drives smartctl can open, with their -d types.

    \b
    Example:
      ssdwear scan
    """
    session = app.session()
    found = session.devices([])
    if fmt == "table":
        for name, dtype in found:
            click.echo(f"{name}\t{dtype or '-'}")
    else:
        emit_doc({"devices": [dict(device=n, type=t) for n, t in found]}, fmt)
    if not found:
        fail("smartctl found no drive (run as root?)")


__all__ = ["App", "ConfigError", "cli", "main"]
