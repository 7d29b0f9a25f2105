"""plan: which drive lasts how long under the workload ssdwear measured (or one given by hand)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ssdwear.model.errors import SsdwearError, StoreError, UsageError

from ..app import (
    EXIT_ERROR,
    EXIT_OK,
    App,
    Limited,
    command,
    console_print,
    device_type_option,
    emit_doc,
    envelope,
    format_option,
    reading,
    represents_option,
    say,
    unit_limits,
)

if TYPE_CHECKING:
    from ssdwear.assess.plan import Measured
    from ssdwear.model.records import DriveReport


def _plan_sources(app: App, values: Sequence[str], device_type: str | None, represents: float | None
                  ) -> list[Measured]:
    """The drives `plan --from` names: saved outputs (FILE), drives read now (DEVICE, /dev/...) and drives known
    from the history (SERIAL, WWN or model; the database is only read, never created)."""
    from ssdwear.assess.plan import Measured, entry_for
    from ssdwear.drives.ratings import catalogue
    from ssdwear.host.paths import classify
    from ssdwear.run.saved import analyze_files

    cfg = app.config()
    kinds = [(value, *classify(value)) for value in values]
    files = [Path(value) for value, kind, _ in kinds if kind in ("file", "missing-file")]
    devices = [name for _, kind, name in kinds if kind == "device"]
    keys = [value for value, kind, _ in kinds if kind == "name"]
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
        with reading(app, devices, device_type, represents) as (session, targets):
            for r in session.assess(session.read(targets)).reports:
                add(r, r.device or "?", session.origin)
        for message in session.warnings:
            say(f"warning: {message}")
    if keys:
        _history_sources(app, keys, add)
    return found


def _history_sources(app: App, keys: Sequence[str], add: Callable[[DriveReport, str, str], None]) -> None:
    """The drives `plan --from` names by serial, WWN or model: their stored samples (the database only read)."""
    from datetime import timedelta

    from ssdwear.assess.plan import report_from_history
    from ssdwear.host.paths import DEVICE_FORMS
    from ssdwear.host.store.queries import Store

    cfg = app.config()
    path = app.db_path(cfg, replaying=bool(app.replay))
    if path is None:
        raise UsageError(f"'{keys[0]}' is neither a file nor a device ({DEVICE_FORMS}), and a drive in the "
                         "history needs the history database (--db FILE or SSDWEAR_DB)")
    try:
        opened_store = Store.open(path, create=False, write=False)
    except StoreError as exc:
        raise StoreError(f"'{keys[0]}' is not a file or a device ({DEVICE_FORMS}), so it was looked up in the "
                         f"history: {exc}") from None
    now = app.clock()
    with opened_store as store:
        matched = []
        for key in keys:
            try:
                match = store.the_drive(key)
            except SsdwearError as exc:
                raise SsdwearError(f"'{key}' is not a file, not a device ({DEVICE_FORMS}), and {exc}") from None
            samples = store.samples(match.key, since=now - timedelta(minutes=cfg.history_window_minutes))
            matched.append(match.key)
            add(report_from_history(match.drive, samples, cfg.ratings, cfg.interval_level, now), f"history:{path}",
                f"history:{path}")
        ignored = store.ignored(matched, now)
    for warning in ignored:
        say(f"warning: {warning}")


def _check_patterns(patterns: Sequence[str]) -> None:
    """--candidate's regular expressions, each compiled once here: a bad one is a usage error."""
    import re

    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise UsageError(f"--candidate '{pattern}' is not a regular expression: {exc}") from None


def _stagger(app: App, name: str, fmt: str, workload_given: bool) -> int:
    """`plan --stagger GROUP`: the drives read now, their groups found, the one named staggered (assess/stagger.py)."""
    from ssdwear.assess.stagger import stagger
    from ssdwear.run.groups import find_groups

    if workload_given:
        raise UsageError("plan --stagger GROUP plans replacements in a group: give it without --from, "
                         "--host-writes, --candidate or --spare")

    with reading(app) as (session, targets):
        if not targets:
            raise SsdwearError(f"plan --stagger {name}: no drives found to read")
        assessed = session.assess(session.read(targets))
        groups = find_groups(session, assessed)
        for message in session.warnings:
            say(f"warning: {message}")
    wanted = {name, name.removeprefix("/dev/"), name.removeprefix("/dev/md/")}  # md0, /dev/md0, /dev/md/NAME
    group = next((g for g in groups if g.name in wanted), None)
    if group is None:
        known = ", ".join(g.name for g in groups) or "none (no zpool, mdadm, lvm or btrfs group found)"
        raise UsageError(f"--stagger {name}: no such redundancy group here; the groups: {known}")
    result = stagger(group, assessed.at)
    if fmt == "table":
        from ssdwear.render.layout import width
        from ssdwear.render.plan import stagger_view

        console_print(stagger_view(result, width()))
    else:
        from ssdwear.render.documents import stagger_doc

        emit_doc(envelope(app, session.origin, **stagger_doc(result)), fmt)
    return EXIT_OK if result.fits else EXIT_ERROR


@command()
@click.option("--from", "sources", multiple=True, metavar="DEVICE|SERIAL|FILE",
              help="Measure the workload here (repeat for several): a drive read now, a drive's stored history "
                   "(serial, WWN or model), or saved smartctl outputs. Each drive is also a candidate as measured.")
@click.option("--host-writes", metavar="RATE",
              help="Or give the workload: host writes as 145GB/day, 1TB/week, 3TB/month or 1DWPD@1.92TB, a day "
                   "being a power-on day (1 byte to 1 EB a day; DWPD 0.01 to 100, of a capacity with its unit).")
@click.option("--candidate", "patterns", multiple=True, metavar="PATTERN",
              help="Only candidates matching this regular expression (name, family, model; repeatable).")
@click.option("--years", type=Limited("N", unit_limits("YEARS")), default=5, show_default=True, metavar="N",
              help="What lasting means: at least N years (judged on the pessimistic bound; power-on years, as "
                   "every year plan prints; 0.1 to 100).")
@click.option("--spare", type=Limited("PERCENT", unit_limits("SPARE_PERCENT")), metavar="PERCENT",
              help="Leave PERCENT of each drive's user capacity unused (spare area, 0.1 to 99.9 % of the user "
                   "capacity): a published rating where one applies, else a write-amplification model.")
@click.option("--stagger", metavar="GROUP",
              help="Or: which members of a redundancy group (a pool or POOL/VDEV, md0, VG/LV, a btrfs label; "
                   "report --groups lists them) to replace by when, so that no two members' pessimistic wear-out "
                   "dates fall in one quarter.")
@device_type_option
@represents_option
@format_option()
def plan(app: App, sources: tuple[str, ...], host_writes: str | None, patterns: tuple[str, ...], years: float,
         spare: float | None, stagger: str | None, device_type: str | None, represents: float | None,
         fmt: str) -> None:
    """Which drive lasts how long under this workload.

    Every candidate's projected power-on years, sorted by fit; years that do not compare with the
    workload (another or no stated rating workload) are marked. Exit status: 0 when at least one
    candidate meets --years on years that compare, 1 when none does, 2 on usage errors. With
    --stagger GROUP: 0 with a schedule of replacements, 1 when none fits.

    \b
    Examples:
      ssdwear plan --from /dev/sda --represents 1d     a timed window's workload
      ssdwear plan --from BTTV12345678200GGN --years 7 a drive's stored history
      ssdwear plan --host-writes 145GB/day --candidate 710 --spare 20
      ssdwear plan --stagger tank                      stagger a mirror's drives
    """
    from ssdwear.assess import plan as plan_mod
    from ssdwear.drives.ratings import catalogue
    from ssdwear.model.units import parse_write_rate

    if stagger is not None:
        sys.exit(_stagger(app, stagger, fmt, bool(sources or host_writes or patterns or spare is not None)))
    if bool(sources) == bool(host_writes):
        raise UsageError("plan needs the workload: --from DEVICE|SERIAL|FILE (measured) or --host-writes RATE "
                         "(given), one of the two")
    _check_patterns(patterns)
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
        from ssdwear.render.layout import width
        from ssdwear.render.plan import plan_view

        console_print(plan_view(result, width()))
    else:
        from ssdwear.render.documents import plan_doc

        emit_doc(envelope(app, origin, **plan_doc(result)), fmt)
    sys.exit(EXIT_OK if result.met else EXIT_ERROR)


COMMANDS = (plan,)
