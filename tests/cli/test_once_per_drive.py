"""A run looks each drive's family up once (issue 27.1: drives/vendors.py's profile() was called 88 times for the 4
drives of `report --format json` on fixtures/intel, every layer asking again by name): the row is matched when the
drive is read or its output loaded, and travels with the reading (Snapshot.family)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from support.cli import ssdwear_cli
from support.paths import CORPUS, FIXTURES

from ssdwear.drives import families
from ssdwear.model.family import Family
from ssdwear.model.records import Snapshot


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
