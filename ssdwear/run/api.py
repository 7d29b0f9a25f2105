"""The Python API: what the CLI does, as functions that return reports instead of printing them.

    import ssdwear
    for drive in ssdwear.read_drives():                      # every drive smartctl finds (root)
        print(drive.device, drive.serial, drive.used_percent, drive.projection and drive.projection.years_remaining)
    ssdwear.analyze_files(["sda.json"])[0].to_dict()       # exactly the CLI's JSON entry for that drive

These never print, never read the config files and never touch the history database: a program that wants
the configured behaviour of `ssdwear report` runs the CLI. Unreadable drives and files come back as reports
whose `error` says why (nothing is dropped); a missing smartctl, or bad arguments, raise SsdwearError with the
same one-line message the CLI prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from os import PathLike
from pathlib import Path

from ssdwear.host.config import Config
from ssdwear.model.clock import utc_now
from ssdwear.model.errors import UsageError
from ssdwear.model.records import DriveReport, Snapshot

Duration = str | float | None  # '1d', '90m' ... or minutes


def _minutes(represents: Duration) -> float | None:
    """Minutes (a number, or a duration such as '1d'), within units.DURATION; UsageError otherwise."""
    from ssdwear.model.units import DURATION, parse_duration_minutes

    if represents is None:
        return None
    try:
        if isinstance(represents, (int, float)) and not isinstance(represents, bool):
            return DURATION.check(float(represents), represents)
        return parse_duration_minutes(represents)
    except ValueError as exc:
        raise UsageError(f"represents: {exc}") from None


def read_drives(devices: Sequence[str] | None = None, *, device_type: str | None = None,
                smartctl: str | None = None, represents: Duration = None,
                replay: str | PathLike[str] | None = None) -> list[DriveReport]:
    """Read drives with smartctl and assess them, as `ssdwear report` does (without the history).

    `devices`: device paths (None: every drive `smartctl --scan-open` finds). `device_type`: smartctl's -d for
    all of them. `smartctl`: its path (default: found on PATH, /usr/sbin, /sbin). `represents`: how much real
    time a timed-workload window stands for. `replay`: a folder of recorded smartctl outputs to read instead
    of the drives (fixtures/intel in the repository).
    """
    from ssdwear.host.platforms import on_usb
    from ssdwear.smartctl.bounds import Bounds

    from .session import Session, runner_for

    config = Config(smartctl=smartctl)
    folder = Path(replay) if replay is not None else None
    session = Session(config=config, runner_factory=lambda: runner_for(config, folder),
                      represents_minutes=_minutes(represents),
                      origin="replay" if replay is not None else "live",
                      bounds=Bounds() if replay is not None else Bounds(usb=on_usb))  # 20 s a call, 10 behind USB
    try:
        targets = session.devices(list(devices or ()), device_type)
        return session.assess(session.read(targets)).reports
    finally:
        session.close()


def analyze_files(paths: Iterable[str | PathLike[str]], *, represents: Duration = None,
                  each: bool = False, same_drive: bool = False) -> list[DriveReport]:
    """Reports from saved smartctl outputs (text or JSON, smartctl 6.x-7.5), as `ssdwear analyze` makes them.

    Several outputs of one drive (the same serial or WWN; every file one drive with `same_drive=True`) become
    one report with a rate between them (`each=True`: one report per file). A file that cannot be read is a
    report with `error` set, named by the file, after the others.
    """
    from .saved import analyze_files as analyze

    if isinstance(paths, (str, bytes)):
        raise UsageError("analyze_files takes a list of paths, not one string")
    reports, errors = analyze([Path(p) for p in paths], Config().context(utc_now(), _minutes(represents)), each=each,
                             same_drive=same_drive)
    return reports + errors


def parse_output(data: bytes | str, source: str = "<data>") -> Snapshot:
    """One smartctl output (text or JSON) as a Snapshot: every field ssdwear reads, nothing assessed.
    Raises ParseError (one line) for data that is not smartctl output."""
    from ssdwear.smartctl.parse import parse_output as parse

    return parse(data, source=source)
