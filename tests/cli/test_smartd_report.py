"""Issue 20's done-when: on a machine whose smartd has logged its drives for a year (fixtures/smartd, written by
tools/make_smartd.py in smartd's format), the first `ssdwear report` gives a history projection with the attribute
log named as its source, through the replay runner, with the log directory given in the config; reading commands
never write; calendar dates in the table, JSON, check, retire-check and Prometheus; `import smartd` copies the log
once."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import in_time_zone
from support.paths import FIXTURES, ROOT

from ssdwear.cli.app import App

MACHINE = FIXTURES / "smartd"
LOGS = MACHINE / "attrlog"
NOW = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)  # tools/make_smartd.py's NOW: minutes after the last lines
ATA_LOG = LOGS / "attrlog.Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777A.ata.csv"


@pytest.fixture(autouse=True)
def berlin() -> Iterator[None]:
    """smartd wrote the logs' timestamps in Berlin's local time (time_to_tm_local): read them there."""
    with in_time_zone("Europe/Berlin"):
        yield


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(f"smartd_attrlog: {LOGS}/\n")
    return path


def run(config: Path, *args: str, db: Path | None = None) -> tuple[int, str]:
    result = ssdwear_cli(["--config", str(config), "--replay", str(MACHINE), *(["--db", str(db)] if db else []),
                          *args], App(clock=lambda: NOW))
    return result.exit_code, result.stdout


def drives(config: Path, *args: str) -> dict[str, dict]:
    code, out = run(config, "report", "--format", "json", *args)
    assert code == 0
    return {d["serial"]: d for d in json.loads(out)["drives"]}


def test_the_first_report_projects_from_a_year_of_smartds_log(config: Path, tmp_path: Path) -> None:
    ata = drives(config)["S3Z9NB0K000777A"]
    p, w = ata["projection"], ata["window"]
    # the log's 177 raw is the Samsung's average erase count: its rate rests on it (issue 19.4)
    assert p["method"] == "smartd:attrlog:used_fine_percent" and p["interval"] == "calibrated"
    assert w["kind"] == "history" and w["valid"]
    assert w["reason"].startswith(f"smartd:attrlog {ATA_LOG}: 6,266 lines over 365.0 days (2025-12-01 to "
                                  "2026-12-01); ")
    assert ata["writes"]["host_bytes_per_day"] == pytest.approx(40e9 * 5 / 7, rel=0.03)  # 40 GB a working day
    nvme = drives(config)["S436NA0M000777"]
    assert nvme["projection"]["method"] == "smartd:attrlog:nvme_percentage_used"  # smartmontools 7.5's NVMe log
    assert not (tmp_path / "history.db").exists()  # reading commands never write (SSDWEAR_DB points there)


def test_the_logs_path_is_printed_whole_though_longer_than_the_width(config: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A word longer than the width (the log's path) overflows its line whole: rich cut it at 80 columns and went on
    in column 0, so the path could not be copied and the block lost its indentation."""
    monkeypatch.delenv("COLUMNS", raising=False)
    code, out = run(config, "report")
    assert code == 0
    assert any(line.strip() == f"{ATA_LOG}:" for line in out.splitlines())
    assert all(line.startswith(("/dev/", "  ", "Power-on years")) for line in out.splitlines() if line)


def test_without_the_log_the_first_report_has_only_the_lifetime_average(tmp_path: Path) -> None:
    empty = tmp_path / "none.yaml"
    empty.write_text(f"smartd_attrlog: {tmp_path}/\n")
    assert drives(empty)["S3Z9NB0K000777A"]["projection"]["method"] == "lifetime-average"
    off = tmp_path / "off.yaml"
    off.write_text("smartd_attrlog: false\n")
    assert drives(off)["S3Z9NB0K000777A"]["projection"]["method"] == "lifetime-average"


def test_no_history_and_a_replay_without_a_named_place_read_no_log(config: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    assert drives(config, "--no-history")["S3Z9NB0K000777A"]["projection"]["method"] == "lifetime-average"
    from ssdwear.host import platforms

    # the host's default place holds the recorded drives' logs: a replayed run still does not read them
    monkeypatch.setattr(platforms, "LINUX", replace(platforms.LINUX, smartd_attrlog=f"{LOGS}/attrlog."))
    plain = tmp_path / "plain.yaml"
    plain.write_text("record: false\n")
    assert drives(plain)["S3Z9NB0K000777A"]["projection"]["method"] == "lifetime-average"  # recorded drives


def test_calendar_dates_at_the_measured_duty_cycle(config: Path) -> None:
    """The workstation runs 12 hours on weekdays: 36 % power-on; its power-on years end far later on the
    calendar. The server is always on."""
    ata, nvme = (drives(config)[s]["projection"] for s in ("S3Z9NB0K000777A", "S436NA0M000777"))
    assert ata["duty_cycle_measured"] and ata["duty_cycle"] == pytest.approx(12 * 5 / 7 / 24, abs=0.02)
    assert "smartd:attrlog" in ata["duty_cycle_basis"]
    for p in (ata, nvme):
        out = datetime.fromisoformat(p["wears_out_date"])
        expected = NOW.timestamp() + p["years_remaining"] / p["duty_cycle"] * 365 * 86400
        assert abs(out.timestamp() - expected) < 10 * 86400  # the JSON's years and duty cycle are rounded
        assert p["wears_out_date_low"] < p["wears_out_date"]
    assert nvme["duty_cycle"] == pytest.approx(1.0, abs=0.01)


def test_dates_in_the_table_check_retire_check_and_prometheus(config: Path) -> None:
    report = drives(config)["S3Z9NB0K000777A"]["projection"]
    month, low = report["wears_out_date"][:7], report["wears_out_date_low"][:7]
    code, table = run(config, "report")
    assert code == 0 and f"{month} ({low})" in table and "36 % power-on" in table
    code, check = run(config, "check")
    assert code == 0 and f"wears out {month} (pessimistic {low}, at 36 % power-on)" in check
    code, verdict = run(config, "retire-check", "/dev/sda", "-d", "sat")
    assert code == 0 and f"  wears out: {month} (pessimistic {low}, at 36 % power-on)" in verdict
    code, exposition = run(config, "report", "--format", "prometheus")
    name = 'ssdwear_wears_out_lower_timestamp_seconds{device="/dev/sda"'
    [line] = [x for x in exposition.splitlines() if x.startswith(name)]
    assert datetime.fromtimestamp(float(line.rsplit(" ", 1)[1]), timezone.utc).strftime("%Y-%m") == low


def test_a_single_reading_says_always_on_is_assumed(tmp_path: Path) -> None:
    result = ssdwear_cli(["--no-history", "--replay", str(FIXTURES / "intel"), "report", "--format", "json"],
                         App(clock=lambda: NOW))
    p = json.loads(result.stdout)["drives"][3]["projection"]
    assert p["duty_cycle"] == 1 and not p["duty_cycle_measured"] and p["duty_cycle_basis"].startswith("assumed")
    check = ssdwear_cli(["--no-history", "--replay", str(FIXTURES / "intel"), "check"], App(clock=lambda: NOW))
    assert "always on assumed)" in check.stdout


def test_import_copies_each_drives_log_once(config: Path, tmp_path: Path) -> None:
    db = tmp_path / "private" / "history.db"
    db.parent.mkdir(mode=0o700)
    code, first = run(config, "import", "smartd", db=db)
    assert code == 0
    assert "/dev/sda Samsung SSD 860 EVO 1TB [S3Z9NB0K000777A]: 3,134 of 3,134 hourly readings imported (0 " \
           "already there) from smartd:attrlog" in first
    code, second = run(config, "import", "smartd", db=db)
    assert code == 0 and "0 of 3,134 hourly readings imported (3,134 already there)" in second
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM samples").fetchone()[0] == 3_134 + 1_462
    # the history alone now projects as the log did (read by the indicator smartd logs)
    other = tmp_path / "nolog.yaml"
    other.write_text("smartd_attrlog: false\n")
    code, out = run(other, "report", "--format", "json", db=db)
    ata = {d["serial"]: d for d in json.loads(out)["drives"]}["S3Z9NB0K000777A"]
    assert ata["projection"]["method"] == "history:used_fine_percent"  # 177's erase count (issue 19.4)


def test_the_config_key_is_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("smartd_attrlog: var/lib/smartmontools/attrlog.\n")
    result = ssdwear_cli(["--config", str(bad), "--replay", str(MACHINE), "report"], App(clock=lambda: NOW))
    assert result.exit_code != 0 and "smartd_attrlog: must be an absolute path" in result.output + result.stderr


@pytest.mark.slow  # rewrites the fixture folder (~2 s)
def test_the_fixture_is_what_its_generator_writes(tmp_path: Path) -> None:
    out = tmp_path / "smartd"
    subprocess.run([sys.executable, "-m", "tools.make_smartd", str(out)], cwd=ROOT, check=True,
                   capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    made = {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    kept = {str(p.relative_to(MACHINE)): p.read_bytes() for p in MACHINE.rglob("*") if p.is_file()}
    assert made == kept


def test_plan_from_the_drive_plans_with_the_logs_projection(config: Path) -> None:
    code, out = run(config, "plan", "--from", "/dev/sda", "-d", "sat", "--format", "json")
    assert code == 0
    workload = json.loads(out)["workload"]
    assert workload["source"]["projection_method"] == "smartd:attrlog:used_fine_percent"  # 177's erase count
    assert "smartd:attrlog:used_fine_percent: " in workload["basis"]
