"""The command line's frame: the group and its global options, the App they fill, the helpers every command uses
(options, output, errors -> messages and exit codes). The commands are in commands/ and main.py assembles them.

Exit codes (documented in docs/exit-codes.md, pinned by tests):
  0  success                         1  nothing could be done (error message on stderr)
  2  usage error                     3  partial: at least one drive failed, the others were reported
  4  start refused a drive (guard)   5  a drive rejected the timer reset
  6  another run held the run lock for longer than run_lock_wait (sample, notify, start, measure, import)
  retire-check: 0 keep, 10 watch, 11 retire, 12 cannot judge.   check: Nagios 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.
Global options (--db, --smartctl, ...) are accepted before or after the command.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import click

from ssdwear.host.platforms import facts, host_name
from ssdwear.model.clock import Clock, utc_now
from ssdwear.model.errors import Busy, HistoryOff, SsdwearError, StoreError, UsageError
from ssdwear.model.version import __version__
from ssdwear.render.streams import write

if TYPE_CHECKING:
    from ssdwear.host.config import Config
    from ssdwear.model.groups import Group as RedundancyGroup
    from ssdwear.model.records import DriveReport, PciId, RaidVolume
    from ssdwear.model.units import Limits
    from ssdwear.render.documents import Doc, Json
    from ssdwear.run.groups import Tools
    from ssdwear.run.session import Session, Source
    from ssdwear.smartctl.bounds import Bounds
    from ssdwear.smartctl.runner import Runner

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PARTIAL, EXIT_REFUSED, EXIT_REJECTED, EXIT_BUSY = 0, 1, 2, 3, 4, 5, 6
EXIT_WATCH, EXIT_RETIRE, EXIT_CANNOT_JUDGE = 10, 11, 12
EXIT_INTERRUPTED = 130  # SIGINT (^C) outside a reset: 128 + 2, as a shell reports a command SIGINT ended
FORMATS = ("table", "json", "yaml")
METRIC_FORMATS = ("prometheus", "influx", "otlp")  # the reports as a monitoring engine reads them
Devices = list[tuple[str, str | None]]
# The run deadline of each command that reads drives (seconds), unless --deadline or the config's run_deadline give
# one: the commands that run unattended (cron, timers, a monitoring plugin) end in time; the others have none.
DEFAULT_DEADLINES: dict[str, float] = {"sample": 120.0, "check": 120.0, "notify": 120.0}


@dataclass
class App:
    """Options shared by every command, and the injectable clocks and sleep (tests replace them)."""

    smartctl: str | None = None
    config_file: str | None = None
    db: str | None = None
    timeout: float | None = None
    deadline: float | None = None  # seconds (inf: none); None: run_deadline, else the command's own
    workers: int | None = None
    wake: bool | None = None
    replay: str | None = None
    fallback_replay: str | None = None
    no_history: bool = False
    runner: Runner | None = None  # a ready Runner (tests inject a ReplayRunner to count the calls)
    nvme_runner: Runner | None = None  # the same for nvme-cli
    tools: Tools | None = None  # the same for the storage tools of redundancy groups (run/groups.py)
    sysfs: str | None = None  # the sysfs NVMe PCI IDs are read from (tests); else --replay's DIR/sys, or /sys
    clock: Clock = utc_now
    sleep: Callable[[float], None] = time.sleep
    monotonic: Callable[[], float] = time.monotonic  # times waits (measure); the wall clock may step
    host: Callable[[], str] = host_name  # this machine's name, as the influx and otlp formats tag it
    _config: Config | None = None

    def config(self) -> Config:
        if self._config is None:
            from ssdwear.host import config as config_mod
            from ssdwear.host.paths import config_paths

            explicit = Path(self.config_file) if self.config_file else None
            self._config = config_mod.load(config_paths(self.config_file), required=explicit)
        return self._config

    def db_path(self, cfg: Config, replaying: bool = False) -> Path | None:
        """--db, else SSDWEAR_DB, else the config's db, else the default; None with --no-history, and for
        replayed runs unless a database is named (recorded drives stay out of this machine's history)."""
        from ssdwear.host.paths import db_path

        return db_path(self.db, cfg.db, disabled=self.no_history, replaying=replaying)

    def settings(self) -> Config:
        """The configuration with the global options that override it (--timeout, --workers, --wake, --smartctl)."""
        from dataclasses import replace

        overrides: dict[str, Any] = {name: value for name, value in (
            ("smartctl_timeout", self.timeout), ("workers", self.workers), ("wake", self.wake),
            ("smartctl", self.smartctl)) if value is not None}
        return replace(self.config(), **overrides) if overrides else self.config()

    def _runner(self, cfg: Config, source: Source, program: str = "smartctl") -> Runner:
        """What answers the calls: the one the source chose, an injected one (tests) unless recordings stand in for
        this machine, else runner_for."""
        from ssdwear.run.session import runner_for

        injected = self.runner if program == "smartctl" else self.nvme_runner
        if program == "smartctl" and source.runner is not None:
            return source.runner
        if injected is not None and source.instead is None:
            return injected
        return runner_for(cfg, source.replay, program)

    def source(self, named: bool) -> Source:
        """Where the readings come from, decided once, before the session: --replay's recordings or this machine,
        unless --fallback-replay's stand in (run/session.choose_source); then one line on stderr says so."""
        from ssdwear.run.session import Source, choose_source

        cfg = self.settings()
        primary = Source(Path(self.replay) if self.replay else None)
        fallback = Path(self.fallback_replay) if self.fallback_replay else None
        chosen = choose_source(primary, lambda: self._runner(cfg, primary), fallback, named, cfg)
        if chosen.instead is not None:
            say(f"no SMART drive on this machine ({chosen.instead}); reporting the recorded smartctl outputs in "
                f"{self.fallback_replay} instead")
        return chosen

    def bounds(self, cfg: Config, source: Source) -> Bounds:
        """How long each call and each reading of the command may take (smartctl/bounds.py): the deadline is
        --deadline, else the config's run_deadline, else the command's own (DEFAULT_DEADLINES)."""
        from ssdwear.host.platforms import on_usb
        from ssdwear.smartctl.bounds import Bounds

        ctx = click.get_current_context(silent=True)
        own = DEFAULT_DEADLINES.get(ctx.info_name or "") if ctx is not None else None
        deadline = next((d for d in (self.deadline, cfg.run_deadline, own) if d is not None), None)
        kept = None if deadline is None or math.isinf(deadline) else deadline  # inf: none
        if source.replay is None:  # recordings are on no USB bridge of this machine
            return Bounds(cfg.smartctl_timeout, on_usb, kept)
        return Bounds(cfg.smartctl_timeout, deadline_s=kept)

    def session(self, represents: float | None = None, source: Source | None = None) -> Session:
        """The session of one command, reading from `source` (default: --replay's recordings, else this machine)."""
        from ssdwear.host.paths import db_path
        from ssdwear.run.session import Session, Source

        cfg = self.settings()
        source = source or Source(Path(self.replay) if self.replay else None)
        locks = db_path(self.db, cfg.db, replaying=source.replay is not None)  # the one it would use: readers too
        places: tuple[str, ...] = ()
        if not self.no_history and cfg.read_attrlog:  # smartd's logs of a replayed run's drives: only when named
            from ssdwear.host.smartd import prefixes

            places = (cfg.smartd_attrlog,) if cfg.smartd_attrlog else () if source.replay else tuple(prefixes(None))
        off = ("--no-history was given: drop it to store them" if self.no_history else
               "a replayed run (--replay) uses one only when it is named: --db FILE or SSDWEAR_DB")
        return Session(config=cfg, runner_factory=lambda: self._runner(cfg, source),
                       nvme_runner_factory=lambda: self._runner(cfg, source, "nvme"),
                       db_path=self.db_path(cfg, replaying=source.replay is not None), history_off=off,
                       clock=self.clock,
                       represents_minutes=represents if represents is not None else cfg.represents_minutes,
                       origin=source.origin, scanned=source.scanned, attrlog_places=places,
                       tools_factory=lambda: self._tools(cfg, source), bounds=self.bounds(cfg, source), locks=locks,
                       monotonic=self.monotonic, sleep=self.sleep, pci_ids=self._pci_ids(source))

    def _pci_ids(self, source: Source) -> Callable[[str], PciId | None] | None:
        """Where an NVMe controller's PCI IDs come from: the sysfs given, a replay's `sys/` (its recordings'),
        this machine's /sys when it is read; none for an injected runner's recordings (not this machine's)."""
        from ssdwear.host.pci import nvme_pci_id

        if self.sysfs is not None:
            return functools.partial(nvme_pci_id, sysfs=self.sysfs)
        if source.replay is not None:
            return functools.partial(nvme_pci_id, sysfs=str(source.replay / "sys"))
        return None if self.runner is not None else functools.partial(nvme_pci_id, sysfs="/sys")

    def _tools(self, cfg: Config, source: Source) -> Tools:
        """The storage tools: injected ones (tests, the recorder) unless recordings stand in for this machine, else
        the recordings of the run's source or the programs found here (run/groups.tools_for)."""
        from ssdwear.run.groups import tools_for

        if self.tools is not None and source.instead is None:
            return self.tools
        return tools_for(cfg, source.replay)


def say(message: str) -> None:
    """One line on stderr."""
    write(f"ssdwear: {message}", err=True)


def fail(message: str, code: int = EXIT_ERROR) -> None:
    say(message)
    sys.exit(code)


def stop_calls() -> None:
    """After a SIGINT: the smartctl calls still under way in the reading threads killed (host/runner.py)."""
    from ssdwear.host.runner import stop_calls as stop

    stop()


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Domain errors become one line on stderr and an exit code; never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except UsageError as exc:
            fail(str(exc), EXIT_USAGE)
        except Busy as exc:
            fail(str(exc), EXIT_BUSY)
        except HistoryOff as exc:  # says why there is no database; the advice below would repeat the option
            fail(str(exc), EXIT_ERROR)
        except StoreError as exc:
            fail(f"{exc} (the database: --db FILE or SSDWEAR_DB; --no-history for none)", EXIT_ERROR)
        except SsdwearError as exc:
            fail(str(exc), EXIT_ERROR)
        except KeyboardInterrupt:
            stop_calls()
            fail("interrupted", EXIT_INTERRUPTED)
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


def unit_limits(name: str) -> Callable[[], Limits]:
    """units.NAME, looked up when a value is converted (units is not imported for --help)."""

    def limits() -> Limits:
        from ssdwear.model import units

        found: Limits = getattr(units, name)
        return found

    return limits


class Limited(click.ParamType):  # type: ignore[type-arg,unused-ignore]
    """A value within one of units.py's ranges: a duration ('1d', in minutes), seconds, a number or a whole
    number. Anything else (nan, inf, out of range) is a usage error that quotes the value as given. Each option's
    help states its range (tests/cli/test_limits.py checks it against units.py)."""

    def __init__(self, name: str, limits: Callable[[], Limits], kind: str = "number") -> None:
        self.name, self.limits, self.kind = name, limits, kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        from ssdwear.model import units

        parse = {"duration": units.parse_duration_minutes, "seconds": units.parse_seconds,
                 "number": units.parse_number, "integer": units.parse_whole_number}.get(self.kind)
        try:
            return parse(str(value), self.limits()) if parse else units.parse_deadline_seconds(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


DURATION = Limited("DURATION", unit_limits("DURATION"), "duration")  # minutes


def _into_app(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """Store a global option on the App, wherever it was given (before or after the command)."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None and value is not False:
            setattr(ctx.ensure_object(App), name, value)
        return value

    return callback


# The reading commands that may show recordings instead of this machine (--fallback-replay); the others act on this
# machine's drives (sample, start, measure) or monitor them (check) and refuse it.
FALLBACK_COMMANDS = "report, status, retire-check, scan, plan --from DEVICE"


# The options of `ssdwear` itself: listed once, in `ssdwear --help`; every command accepts them too (after its name),
# hidden from its own help, which points at them instead.
_HERE = facts()  # this machine's paths, named in the help
_GLOBAL_OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--smartctl", dict(metavar="PATH", envvar="SSDWEAR_SMARTCTL", callback=_into_app("smartctl"),
                        help="smartctl binary [env SSDWEAR_SMARTCTL]. Default: PATH, then "
                             f"{', '.join(_HERE.program_dirs[:2])}.")),
    ("--config", dict(metavar="FILE", callback=_into_app("config_file"),
                      help=f"Extra config file read after {_HERE.system_config} and ~/.config/ssdwear/config.yaml "
                           "[env SSDWEAR_CONFIG].")),
    ("--db", dict(metavar="FILE", callback=_into_app("db"),
                  help=f"History database [env SSDWEAR_DB]. Default: {_HERE.system_db} as root, else "
                       "~/.local/share/ssdwear/history.db.")),
    ("--no-history", dict(is_flag=True, default=None, callback=_into_app("no_history"),
                          help="Neither read nor write the history database, and read no smartd "
                               "attribute log: each drive from its reading alone.")),
    ("--timeout", dict(type=Limited("SECONDS", unit_limits("TIMEOUT"), "seconds"), callback=_into_app("timeout"),
                       help="Each smartctl call may take 1 to 86,400 seconds (a day); default 20, 10 behind a USB "
                            "bridge.")),
    ("--workers", dict(type=Limited("N", unit_limits("WORKERS"), "integer"), callback=_into_app("workers"),
                       help="Drives read in parallel: 1 to 256 (default 64).")),
    ("--wake/--no-wake", dict(default=None, callback=_into_app("wake"),
                              help="Spin up drives in standby to read them (default: no, a sleeping drive is "
                                   "reported as such).")),
    ("--deadline", dict(type=Limited("DURATION", unit_limits("DEADLINE"), "deadline"), callback=_into_app("deadline"),
                        metavar="DURATION", help="Each reading of the drives ends by then (1 s to a day, or none): the "
                                                 "drives not read are reported so. Default: the config's run_deadline, "
                                                 "else 120s for sample, check and notify, none for the others.")),
    ("--replay", dict(metavar="DIR", type=click.Path(file_okay=False), callback=_into_app("replay"),
                      help="Answer smartctl calls from recorded outputs in DIR instead of running smartctl (tests, "
                           "demos); the history is used only with --db or SSDWEAR_DB.")),
    ("--fallback-replay", dict(metavar="DIR", type=click.Path(file_okay=False), callback=_into_app("fallback_replay"),
                               help="When this machine has no SMART drive or no smartctl, report the recorded outputs "
                                    f"in DIR instead, and say so ({FALLBACK_COMMANDS}; never check or a metrics "
                                    "format: prometheus, influx, otlp).")),
)
GLOBAL_OPTION_NAMES = tuple(name for name, _ in _GLOBAL_OPTIONS)


def _global_options(hidden: bool) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def apply(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name, settings in reversed(_GLOBAL_OPTIONS):
            fn = click.option(name, expose_value=False, hidden=hidden, **settings)(fn)
        return fn

    return apply


def global_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The global options on a command: accepted after its name, shown in `ssdwear --help` only."""
    return _global_options(hidden=True)(fn)


class Command(click.Command):
    """A command whose help ends by pointing at the global options it accepts (listed once, in `ssdwear --help`)."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        if any(isinstance(p, click.Option) and p.hidden for p in self.params):
            import textwrap

            said = f"{', '.join(GLOBAL_OPTION_NAMES)}: see\xa0`ssdwear\xa0--help`; before or after the command."
            lines = [line.replace("\xa0", " ") for line in textwrap.wrap(  # never a line break inside the command
                said, max(formatter.width - formatter.current_indent - 2, 40), break_on_hyphens=False)]
            with formatter.section("Global options"):
                formatter.write_text("\b\n" + "\n".join(lines))


class Group(click.Group):
    command_class = Command


def format_option(choices: Sequence[str] = FORMATS) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--format", "-f", "fmt", type=click.Choice(list(choices)), default="table",
                        show_default=True, help="table for people; " + "/".join(c for c in choices if c != "table")
                        + " on stdout for scripts.")


def device_type_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("-d", "--type", "device_type", metavar="TYPE",
                        help="smartctl -d type for the DEVICEs given (e.g. sat, nvme, megaraid,28).")(fn)


def represents_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--represents", type=DURATION, metavar="DURATION",
                        help="Real time the measured window stands for (1d for a 60-minute test standing for one "
                             "day; 1 s to 100 years). Default: the window stands for itself.")(fn)


def devices_argument(fn: Callable[..., Any]) -> Callable[..., Any]:
    return click.argument("devices", nargs=-1, metavar="[DEVICE]...")(fn)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@_global_options(hidden=False)
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


# ------------------------------------------------------------------------------------------------
# Output


def envelope(app: App, origin: str, **payload: Json) -> Doc:
    from ssdwear.render.documents import envelope as make

    return make(origin, app.clock().isoformat(timespec="seconds"), __version__, payload)


def emit_doc(doc: Doc, fmt: str) -> None:
    """A JSON or YAML document on stdout: ASCII (with the format's escapes) unless stdout is UTF-8."""
    from ssdwear.render.documents import to_json, to_yaml
    from ssdwear.render.streams import unicode_ok

    ascii_only = not unicode_ok()
    write(to_json(doc, ascii_only) if fmt == "json" else to_yaml(doc, ascii_only), nl=False)


def console_print(renderable: object) -> None:
    from ssdwear.render.layout import console

    console().print(renderable, crop=False)  # a line longer than the width (a path) is printed whole


def emit_reports(reports: Sequence[DriveReport], fmt: str, origin: str, app: App,
                 volumes: Sequence[RaidVolume] = (), groups: Sequence[RedundancyGroup] | None = None,
                 run_seconds: float | None = None) -> None:
    """The reports in `fmt`; with `groups` (report --groups) the redundancy groups too; `run_seconds`: how long the
    run took (Prometheus)."""
    from ssdwear.render.layout import tables_wanted, width
    from ssdwear.render.report import report_view

    if fmt in METRIC_FORMATS:
        emit_metrics(reports, fmt, origin, app, groups, run_seconds)
    elif fmt == "table":
        console_print(report_view(reports, width(), volumes, tables_wanted(), groups))
    else:
        from ssdwear.render.documents import report_doc

        emit_doc(envelope(app, origin, **report_doc(reports, volumes, groups)), fmt)


def emit_metrics(reports: Sequence[DriveReport], fmt: str, origin: str, app: App,
                 groups: Sequence[RedundancyGroup] | None = None, run_seconds: float | None = None) -> None:
    """The reports in a metrics format, at the run's time (Prometheus: with how long the run took); influx and otlp
    name this machine as the host, except for saved outputs (analyze), which may come from anywhere."""
    from ssdwear.render.streams import write_utf8

    now = app.clock()
    if fmt == "prometheus":
        from ssdwear.render.prometheus import exposition

        write_utf8(exposition(reports, now.timestamp(), groups or (), run_seconds))
        return
    host = None if origin == "files" else app.host()
    if fmt == "influx":
        from ssdwear.render.influx import line_protocol

        write_utf8(line_protocol(reports, now, host))
    else:
        from ssdwear.render.otlp import otlp_json

        write_utf8(otlp_json(reports, now, host, __version__))


class Outcome(Protocol):
    """One drive's line in a command's result: a DriveReport or a StatusRow."""

    @property
    def device(self) -> str | None: ...

    @property
    def error(self) -> str | None: ...

    @property
    def where(self) -> str: ...


def finish(reports: Sequence[Outcome], session: Session, fmt: str) -> int:
    """Run-level warnings on stderr; each unreadable drive once (the table shows them in their own section,
    the other formats carry them in the document and get one line on stderr each). The exit code."""
    for message in session.warnings:
        say(f"warning: {message}")
    failed = [r for r in reports if r.error]
    if fmt != "table":
        for r in failed:
            say(f"{r.where}: {r.error}")
    if not failed:
        return EXIT_OK
    return EXIT_PARTIAL if len(failed) < len(reports) else EXIT_ERROR


def no_drives(session: Session) -> SsdwearError:
    """The error for finding no drive, saying what actually failed."""
    from ssdwear.model.process import is_root

    if session.origin != "live":
        why = f"the recordings in {session.origin.split(':', 1)[1]} hold no drive"
    elif is_root():
        why = ("smartctl --scan-open found no drive: this machine shows no SMART devices (a VM or a container "
               "without device access?), or they sit behind a RAID controller: name them with -d TYPE")
    else:
        why = "smartctl --scan-open found no drive it could open: reading drives takes root"
    return SsdwearError(f"no drives found: {why}")


def device_arguments(names: Sequence[str]) -> list[str]:
    """The devices named on the command line, each classified as every command does (paths.classify): a /dev/
    path or device node as given, a kernel name as its /dev/ path ('sda' -> '/dev/sda'). A file, or a name that
    is neither, is a usage error saying what it is and which command reads saved outputs. Names smartctl must
    never see are left for Session.devices to refuse with its reason."""
    from ssdwear.host.paths import DEVICE_FORMS, classify
    from ssdwear.host.trust import device_problem
    from ssdwear.model.escape import visible

    out = []
    for name in names:
        kind, value = ("device", name) if device_problem(name) is not None else classify(name)
        shown = visible(name)
        if kind == "file":
            raise UsageError(f"{shown} is a file, not a device: ssdwear analyze {shown} reports saved smartctl "
                             f"outputs (ssdwear retire-check {shown} judges one)")
        if kind == "missing-file":
            raise UsageError(f"{shown}: no such file, and not a device ({DEVICE_FORMS}); saved smartctl outputs "
                             "go to ssdwear analyze FILE")
        if kind == "name":
            raise UsageError(f"{shown}: no such file, and not a device: name one as {DEVICE_FORMS} (ssdwear scan "
                             "lists them)")
        out.append(value)
    return out


@contextmanager
def reading(app: App, names: Sequence[str] = (), device_type: str | None = None,
            represents: float | None = None, *, fallback: bool = True, lock: bool = False
            ) -> Iterator[tuple[Session, Devices]]:
    """The session of a command that reads drives and the drives it reads (those named, classified by
    device_arguments, else the config's, else the scan's), closed once at the end. Live or recorded is decided
    here, once, before the session (App.source); a command that acts on this machine's drives (`fallback` False)
    refuses --fallback-replay. With `lock` (sample, notify, start, measure, import smartd) the run lock is held from
    before the drives are found until the end (host/store/lock.py)."""
    ctx = click.get_current_context(silent=True)
    command = ctx.info_name if ctx and ctx.info_name else "this command"
    if app.fallback_replay and not fallback:
        raise UsageError(f"--fallback-replay is for the reporting commands ({FALLBACK_COMMANDS}); {command} acts on "
                         "this machine's drives")
    names = device_arguments(names)
    session = app.session(represents, app.source(bool(names)) if fallback else None)
    try:
        with session.run_lock(command) if lock else nullcontext():
            yield session, session.devices(names, device_type)
    finally:
        session.close()


def command(name: str | None = None, *, cls: type[click.Command] = Command, errors: bool = True,
            **settings: Any) -> Callable[[Callable[..., Any]], click.Command]:
    """A command of `ssdwear`: its own options (the decorators below this one), then the global options (accepted
    after its name, listed in `ssdwear --help`), the App as its first argument and, unless `errors` is False (check
    answers in plugin terms), domain errors mapped to one line and an exit code. main.py puts it on the group."""
    def make(fn: Callable[..., Any]) -> click.Command:
        own = getattr(fn, "__click_params__", [])
        fn.__click_params__ = []  # type: ignore[attr-defined]
        fn = global_options(fn)
        fn.__click_params__ += own  # type: ignore[attr-defined]  # (click reverses the list: its own come first)
        return click.command(name, cls=cls, **settings)(click.pass_obj(handle_errors(fn) if errors else fn))

    return make


__all__ = ["App", "cli"]
