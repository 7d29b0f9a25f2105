"""bench/calibrate.py and bench/backtest.py read a CSV that is not in the repository (docs/accuracy.md): they take
it from --csv PATH or SSDWEAR_SERIES_CSV, and without either stop in one line that says what is missing and
where the data comes from, never reading a path beside the checkout and never writing the calibration table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

TABLE = ROOT / "ssdwear" / "wear" / "calibration.json"


def run(script: str, *args: str, env_csv: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "SSDWEAR_SERIES_CSV"}
    if env_csv is not None:
        env["SSDWEAR_SERIES_CSV"] = env_csv
    return subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("script", ["calibrate.py", "backtest.py"])
def test_without_the_data_the_scripts_say_where_it_comes_from(script: str, tmp_path: Path) -> None:
    before = TABLE.read_bytes()
    out = ["--out", str(tmp_path / "table.json")] if script == "calibrate.py" else []
    result = run(script, *out)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    for words in ("--csv PATH", "SSDWEAR_SERIES_CSV", "github.com/linuxhw/EnterpriseDrive", "docs/accuracy.md"):
        assert words in lines[0], words
    assert TABLE.read_bytes() == before and not (tmp_path / "table.json").exists()


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_named_csv_that_is_not_there_is_one_line(how: str, tmp_path: Path) -> None:
    missing = tmp_path / "readings.csv"
    result = run("backtest.py", "--csv", str(missing)) if how == "option" else run("backtest.py", env_csv=str(missing))
    assert result.returncode == 2 and result.stderr.startswith(f"{missing}: no such file (")
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_environment_names_the_csv(tmp_path: Path) -> None:
    """A CSV named by the variable is the one read (bench/series.py, as both scripts load it)."""
    rows = ["drive_id,model,interface,power_on_hours,used_percent,used_at_least,used_source,host_bytes_written,"
            "host_bytes_read,nand_bytes_written,suspect"]
    for drive in ("a1", "b2"):
        for hours, used in ((1000, 5), (2000, 6), (3000, 7)):
            rows.append(f"{drive},M,ata,{hours},{used},false,ata_devstat_percentage_used,,,,")
    csv = tmp_path / "readings.csv"
    csv.write_text("\n".join(rows) + "\n")
    env = {**os.environ, "SSDWEAR_SERIES_CSV": str(csv), "PYTHONPATH": str(ROOT)}
    code = "import series; print([(d.drive_id, len(d.readings), d.calibration_half) for d in series.load()])"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT / "bench", env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[('a1', 3, False), ('b2', 3, True)]"
