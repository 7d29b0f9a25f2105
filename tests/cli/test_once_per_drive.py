"""A run looks each drive's family up once and assesses each drive once (issue 27.1 and 27.3: drives/vendors.py's
profile() was called 88 times and assess() 8 times for the 4 drives of `report --format json --no-history` on
fixtures/intel: every layer asked for the family again by name, and every drive was assessed again as smartd would
log it). The row is matched when the drive is read or its output loaded, and travels with the reading
(Snapshot.family); the history's view of the drive, and smartd's lines of it, are read for their figures
(report.figures), which is no assessment."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import in_time_zone
from support.paths import CORPUS, FIXTURES

from ssdwear.assess import report
from ssdwear.assess.context import NO_CONTEXT, Context
from ssdwear.cli.app import App
from ssdwear.drives import families
from ssdwear.model.family import Family
from ssdwear.model.records import DriveReport, Snapshot


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The serial (or source) of every drive whose family is looked up."""
    seen: list[str] = []
    real = families.lookup

    def counted(snap: Snapshot) -> Family:
        seen.append(snap.serial or snap.source)
        return real(snap)

    monkeypatch.setattr(families, "lookup", counted)
    yield seen


@pytest.mark.parametrize("machine", ["intel", "intel-nvme", "fleet", "qemu"])
def test_a_run_looks_each_drive_up_once(machine: str, lookups: list[str]) -> None:
    result = ssdwear_cli(["--replay", str(FIXTURES / machine), "--no-history", "report", "--format", "json"])
    drives = [d for d in json.loads(result.stdout)["drives"] if d["error"] is None]
    assert drives and sorted(lookups) == sorted(d["serial"] for d in drives)


def test_a_saved_output_is_looked_up_once(lookups: list[str]) -> None:
    files = sorted(CORPUS.glob("linuxhw-EnterpriseDrive__intel-ssdsc2kb960g8__*.txt"))
    result = ssdwear_cli(["analyze", "--format", "json", *map(str, files)])
    assert result.exit_code == 0 and len(lookups) == len(files) == 3


@pytest.fixture
def assessed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The serial of every drive assessed."""
    seen: list[str] = []
    real = report.assess

    def counted(snap: Snapshot, ctx: Context = NO_CONTEXT) -> DriveReport:
        seen.append(snap.serial or snap.source)
        return real(snap, ctx)

    monkeypatch.setattr(report, "assess", counted)
    yield seen


@pytest.mark.parametrize("history", [False, True])
@pytest.mark.parametrize("machine", ["intel", "intel-nvme", "fleet"])
def test_a_run_assesses_each_drive_once(machine: str, history: bool, assessed: list[str], tmp_path: Path) -> None:
    replay = ["--replay", str(FIXTURES / machine)]
    if history:  # three stored samples of every drive first, then the report that reads them
        for _ in range(3):
            assert ssdwear_cli([*replay, "--db", str(tmp_path / "h.db"), "sample"]).exit_code in (0, 3)
        assessed.clear()
    result = ssdwear_cli([*replay, *(["--db", str(tmp_path / "h.db")] if history else ["--no-history"]), "report",
                          "--format", "json"])
    drives = [d for d in json.loads(result.stdout)["drives"] if d["error"] is None]
    assert drives and sorted(assessed) == sorted(d["serial"] for d in drives)


def test_a_drive_with_a_year_of_smartd_lines_is_assessed_once(assessed: list[str], tmp_path: Path) -> None:
    """fixtures/smartd: its two drives' attribute logs hold thousands of lines; each line is read for its figures."""
    config = tmp_path / "config.yaml"
    config.write_text(f"smartd_attrlog: {FIXTURES / 'smartd' / 'attrlog'}/\n")
    with in_time_zone("Europe/Berlin"):
        result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "smartd"), "report", "--format",
                              "json"], App(clock=lambda: datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)))
    drives = json.loads(result.stdout)["drives"]
    assert [d["projection"]["method"].split(":")[0] for d in drives] == ["smartd", "smartd"]  # the logs were read
    assert sorted(assessed) == sorted(d["serial"] for d in drives)
