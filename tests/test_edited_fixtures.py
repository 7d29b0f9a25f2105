"""Verdicts on real outputs edited the way each wrong-verdict class needs (fixtures/edited/, made by
fixtures/make_edited.py; every folder's README names the source file, its licence and the edit), and the checks
the issue asks over every complete output in tests/corpus and fixtures."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import CORPUS, FIXTURES

from ssdwear.assess import assess
from ssdwear.cli import cli
from ssdwear.errors import ParseError
from ssdwear.parse import parse_output

EDITED = FIXTURES / "edited"
# The two outputs of fixtures/edited/cut-off that really are cut off (its README says so).
REALLY_CUT = ("cut-off/samsung-cut-mid-row.txt", "cut-off/samsung-cut-in-device-statistics.txt")


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("make_edited", FIXTURES / "make_edited.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_edited_fixtures_are_what_their_script_makes() -> None:
    made = _script().build()
    on_disk = {str(p.relative_to(EDITED)): p.read_bytes() for p in EDITED.rglob("*") if p.is_file()}
    assert sorted(on_disk) == sorted(made), "run: python3 fixtures/make_edited.py"
    for name, data in made.items():
        assert on_disk[name] == data, f"{name} differs from what fixtures/make_edited.py makes"
    for name in REALLY_CUT:
        assert "REALLY CUT OFF" in (EDITED / name).parent.joinpath("README.md").read_text(encoding="utf-8")


def analyze(*paths: Path, args: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    result = CliRunner().invoke(cli, ["analyze", "--format", "json", *args, *(str(p) for p in paths)])
    assert "Traceback" not in result.output + result.stderr
    return list(json.loads(result.stdout)["drives"])


def complete_outputs() -> list[Path]:
    """Every smartctl output of a drive in tests/corpus and fixtures that is not cut off."""
    cut = {EDITED / name for name in REALLY_CUT}
    out = sorted(p for p in CORPUS.iterdir() if p.suffix in (".txt", ".json"))
    for p in sorted(FIXTURES.rglob("*")):
        if p.is_file() and p.suffix in (".out", ".txt", ".json") and p not in cut:
            try:
                parse_output(p.read_bytes(), p.name)
            except ParseError:
                continue  # not a drive's output (a scan, a reset's reply)
            out.append(p)
    return out


COMPLETE = complete_outputs()


# ------------------------------------------------------------------------------------------------
# 17.8: "cut off" only on a real truncation


def test_no_complete_output_is_called_cut_off() -> None:
    assert len(COMPLETE) > 290
    called = []
    for path in COMPLETE:
        snap = parse_output(path.read_bytes(), path.name)
        said = [w for w in assess(snap).warnings if "cut off" in w]
        if snap.truncated or said:
            called.append(f"{path.relative_to(FIXTURES.parent)}: {snap.parse_notes} {said}")
    assert called == []


@pytest.mark.parametrize("name", ["intel-x25m-g2-devstat-not-supported.txt", "samsung-devstat-pages-empty.txt",
                                  "samsung-devstat-read-failed.txt"])
def test_devstat_not_supported_empty_or_failed_is_not_a_cut(name: str) -> None:
    drive = analyze(EDITED / "cut-off" / name)[0]
    assert not any("cut off" in w for w in drive["warnings"]), drive["warnings"]
    assert not any("truncated" in n for n in drive["notes"]), drive["notes"]
    assert drive["used_percent"] is not None


def test_real_truncations_are_still_called_cut_off() -> None:
    mid_row, in_devstats = analyze(*(EDITED / name for name in REALLY_CUT), args=("--each",))
    assert any("cut mid-row" in n for n in mid_row["notes"])
    assert any("inside the Device Statistics table" in n for n in in_devstats["notes"])
    for drive in (mid_row, in_devstats):
        assert any("was cut off" in w for w in drive["warnings"])


def test_the_x25m_g2_says_the_real_reason_its_window_is_refused() -> None:
    drive = analyze(EDITED / "cut-off" / "intel-x25m-g2-devstat-not-supported.txt")[0]
    reason = drive["window"]["reason"]
    assert reason.startswith("timer not trustworthy") and "E4h = 883,884,071 minutes exceeds" in reason
    assert "cut off" not in reason
