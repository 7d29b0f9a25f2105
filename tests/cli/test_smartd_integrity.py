"""smartd's attribute logs that lie (issue 26.2, 26.3, 26.6, 26.7), read through the commands over the fixture
machine of fixtures/smartd with a log the test writes (support/smartd_logs.py): power-on hours that jump and come back
are skipped, not trusted, so the projection, its dates and what `import smartd` stores are the clean log's; one absurd
value is a skipped line, not an internal error; lines dated while the clock was ahead keep distinct times; import
counts what it did as what it is."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from support import smartd_logs as log
from support.cli import ssdwear_cli
from support.clock import in_time_zone
from support.paths import FIXTURES

from ssdwear.cli.app import App

MACHINE = FIXTURES / "smartd"
SDA = "S3Z9NB0K000777A"
OUT_OF_ORDER = "power-on hours out of order with the lines around them (went down or up and came back)"
ABSURD = "power-on hours no drive can have"


@pytest.fixture(autouse=True)
def berlin() -> Iterator[None]:
    with in_time_zone("Europe/Berlin"):  # the logs' stamps are Berlin's local time, as fixtures/smartd's
        yield


def run(config: Path, *args: str, db: Path | None = None) -> tuple[int, str, str]:
    result = ssdwear_cli(["--config", str(config), "--replay", str(MACHINE), *(["--db", str(db)] if db else []),
                          *args], App(clock=lambda: log.NOW))
    return result.exit_code, result.stdout, result.stderr


def sda(config: Path) -> dict:
    code, out, _ = run(config, "report", "--format", "json")
    assert code == 0
    return {d["serial"]: d for d in json.loads(out)["drives"]}[SDA]


def stored(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT s.t, s.poh, s.used, s.host_w, s.fine FROM samples s JOIN drives d ON "
                           "d.id = s.drive_id WHERE d.serial = ? ORDER BY s.t", (SDA,)).fetchall()


def imported(tmp_path: Path, config: Path, name: str) -> tuple[str, list[tuple]]:
    db = tmp_path / f"db-{name}" / "history.db"
    db.parent.mkdir(mode=0o700)
    code, out, _ = run(config, "import", "smartd", db=db)
    assert code == 0  # a skipped line is no failure
    [said] = [line for line in out.splitlines() if f"[{SDA}]" in line]
    return said, stored(db)


YEAR_12H = log.on_daily(365)  # a workstation on 12 hours every day: 50 % power-on
GLITCH = range(len(YEAR_12H) - 120, len(YEAR_12H) - 115)  # five lines about five days back, at 12,000+ h


def glitched(tmp_path: Path, hours: int) -> tuple[Path, Path]:
    """The year's log with five lines reading `hours`, and the clean log: the same without those five lines."""
    assert all(YEAR_12H[k].hours > 12_000 for k in GLITCH)
    bad = log.write_log(tmp_path / "glitched", YEAR_12H, lambda k, p: log.line(p, hours=hours if k in GLITCH else None))
    clean = log.write_log(tmp_path / "clean", YEAR_12H, lambda k, p: None if k in GLITCH else log.line(p))
    return bad, clean


@pytest.mark.parametrize("hours, why", [(0, OUT_OF_ORDER), (9_000_000, ABSURD)])
def test_a_power_on_hours_glitch_changes_nothing_of_the_projection(tmp_path: Path, hours: int, why: str) -> None:
    """Issue 26.2 (a): five lines reading 0 h among lines of 12,000+ h made the series start there, the drive
    always on (duty 0.51 -> 1.0) and its wear-out date years earlier. (b): five lines reading 9,000,000 h ten days
    back pushed every earlier line 1,000 years into the past (0 % power-on, no pessimistic date)."""
    bad, clean = glitched(tmp_path, hours)
    got, want = sda(bad), sda(clean)
    assert want["projection"]["duty_cycle"] == pytest.approx(0.5, abs=0.02)  # the clean log's 12 hours a day
    for key in ("method", "duty_cycle", "wears_out_date", "wears_out_date_low", "years_remaining"):
        assert got["projection"][key] == want["projection"][key], key
    assert any(f"5 line(s) of {tmp_path / 'glitched' / log.SDA_LOG} skipped (5 {why})" in n for n in got["notes"])
    assert not any("the clock was ahead" in n for n in got["notes"])


def test_the_lower_date_metric_survives_a_glitch_of_9_000_000_hours(tmp_path: Path) -> None:
    bad, clean = glitched(tmp_path, 9_000_000)
    metric = 'ssdwear_wears_out_lower_timestamp_seconds{device="/dev/sda"'
    exposition = {c: run(c, "report", "--format", "prometheus")[1] for c in (bad, clean)}
    [got], [want] = ([x for x in exposition[c].splitlines() if x.startswith(metric)] for c in (bad, clean))
    assert got == want


@pytest.mark.parametrize("hours", [0, 9_000_000])
def test_import_stores_the_clean_logs_readings_of_a_glitched_log(tmp_path: Path, hours: int) -> None:
    """(b) stored samples dated 1001-07-29 in root's history and said '122 of 373 hourly readings imported (251
    already there)' in an empty database."""
    bad, clean = glitched(tmp_path, hours)
    said, rows = imported(tmp_path, bad, "bad")
    _, want = imported(tmp_path, clean, "clean")
    assert rows == want and len(rows) > 4000
    assert datetime.fromtimestamp(rows[0][0] / 1000, timezone.utc) >= YEAR_12H[0].at - timedelta(seconds=1)
    assert f"{len(rows):,} of {len(rows):,} hourly readings imported (0 already there) from " in said
    assert said.endswith(", 5 skipped")  # the summary counts them as skipped, the exit status stays 0


@pytest.mark.parametrize("kind, raw", [("ata", "\t9;98;281474976710655;"), ("nvme", "\tpower-on-hours;18000000;")])
def test_one_absurd_power_on_hours_value_is_a_skipped_line(tmp_path: Path, kind: str, raw: str) -> None:
    """Issue 26.3: attribute 9 raw 0xFFFFFFFFFFFF (or NVMe power-on hours of 1.8e7) overflowed the clock repair's
    timedelta: check UNKNOWN 'internal error (OverflowError)', report and retire-check failed, import stopped."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for source in (MACHINE / "attrlog").iterdir():
        text = source.read_text().splitlines(keepends=True)
        if source.name.endswith(f".{kind}.csv"):
            field = "\t9;98;" if kind == "ata" else "\tpower-on-hours;"
            head, rest = text[-30].split(field, 1)
            text[-30] = head + raw + rest.split(";", 1)[1]
        (folder / source.name).write_text("".join(text))
    config = tmp_path / "config.yaml"
    config.write_text(f"smartd_attrlog: {folder}/\n")
    code, out, _ = run(config, "check")
    assert code == 0 and "internal error" not in out
    code, out, _ = run(config, "report", "--format", "json")
    drives = json.loads(out)["drives"]
    assert code == 0 and all(d["error"] is None and d["projection"]["method"].startswith("smartd:attrlog")
                             for d in drives)
    assert any(f"1 line(s) of {folder}" in n and f"(1 {ABSURD})" in n for d in drives for n in d["notes"])
    code, out, _ = run(config, "retire-check", "/dev/sda", "-d", "sat")
    assert code == 0 and out.startswith("KEEP")
    db = tmp_path / "private" / "history.db"
    db.parent.mkdir(mode=0o700)
    code, out, _ = run(config, "import", "smartd", db=db)
    assert code == 0 and out.count("hourly readings imported") == 2


def test_lines_dated_while_the_clock_was_ahead_keep_distinct_times(tmp_path: Path) -> None:
    """Issue 26.6: the clock 48 h ahead for a week, then fixed: the moved lines were all put at the next line's time,
    import kept 672 of 720 readings and called 48 'already there' in an empty database. Each line keeps its own
    time: on an always-on drive, exactly when it was written."""
    month = log.always_on(30, every_minutes=30)
    week = [k for k, p in enumerate(month) if timedelta(days=17) >= log.NOW - p.at > timedelta(days=10)]
    config = log.write_log(tmp_path / "ahead", month, lambda k, p: log.line(
        p, stamp=p.at + timedelta(hours=48) if k in week else None))
    said, rows = imported(tmp_path, config, "db")
    hourly = [p for p in month if p.at.minute == 0] + month[-1:]  # the first line of every hour, and the newest
    assert len(hourly) == 721 and "721 of 721 hourly readings imported (0 already there)" in said
    assert [t for t, *_ in rows] == [int(p.at.timestamp() * 1000) for p in hourly]
    notes = sda(config)["notes"]
    assert any("line(s) dated later than their power-on hours allow (the clock was ahead)" in n for n in notes)


def test_readings_the_history_cannot_hold_are_counted_as_such(tmp_path: Path) -> None:
    """Issue 26.7: a reading the store refused (a count beyond 64 bits) was called 'already there'. An NVMe line
    whose Media Errors smartd wrote as 2^64 - 1 (le128_to_uint64 of an all-ones field) is one."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for source in (MACHINE / "attrlog").iterdir():
        text = source.read_text()
        if source.name.endswith(".nvme.csv"):
            lines = text.splitlines(keepends=True)
            lines[-3] = lines[-3].replace("\tmedia-errors;0;", "\tmedia-errors;18446744073709551615;")
            text = "".join(lines)
        (folder / source.name).write_text(text)
    config = tmp_path / "config.yaml"
    config.write_text(f"smartd_attrlog: {folder}/\n")
    db = tmp_path / "private" / "history.db"
    db.parent.mkdir(mode=0o700)
    code, out, _ = run(config, "import", "smartd", db=db)
    assert code == 0
    [nvme] = [line for line in out.splitlines() if "[S436NA0M000777]" in line]
    assert "1,461 of 1,462 hourly readings imported (0 already there; 1 not stored: 1 a counter does not fit in " \
           "a 64-bit integer)" in nvme
    code, again, _ = run(config, "import", "smartd", "--format", "json", db=db)
    entry = next(d for d in json.loads(again)["drives"] if d["serial"] == "S436NA0M000777")
    assert (entry["added"], entry["present"], entry["rejected"]) == (0, 1_461, 1)


@pytest.mark.parametrize("machine, args", [("smartd", ["start", "/dev/sdx"]), ("empty", ["import", "smartd"]),
                                           ("empty", ["sample"]), ("smartd", ["sample", "/dev/sdx"])])
def test_a_command_that_stores_nothing_creates_no_database(tmp_path: Path, machine: str, args: list[str]) -> None:
    """Issue 25.11: `start /dev/sda` ('no such device') and `import smartd` ('no drives found') created the history
    database. Nothing to store: nothing created, nor the folders on the way."""
    db = tmp_path / "var" / "lib" / "ssdwear" / "history.db"
    folder = MACHINE
    if machine == "empty":  # a machine without SMART devices: smartctl --scan-open lists none
        folder = tmp_path / "empty"
        folder.mkdir()
        (folder / "smartctl --scan-open --json=c.out").write_text('{"devices": []}\n')
        (folder / "smartctl --scan-open --json=c.rc").write_text("0\n")
    result = ssdwear_cli(["--replay", str(folder), "--db", str(db), *args], App(clock=lambda: log.NOW))
    assert result.exit_code == 1, result.stderr
    assert not (tmp_path / "var").exists()
    result = ssdwear_cli(["--replay", str(MACHINE), "--db", str(db), "sample"], App(clock=lambda: log.NOW))
    assert result.exit_code == 0 and db.exists()  # something to store: the database is made


def test_import_from_a_link_to_the_log_directory(tmp_path: Path) -> None:
    """Issue 26.7: `import smartd DIR`, DIR a symbolic link to a directory and no trailing '/', was a file-name
    prefix: 'no smartd attribute log for it'."""
    (tmp_path / "logs").symlink_to(MACHINE / "attrlog")
    config = tmp_path / "config.yaml"
    config.write_text("record: false\n")
    db = tmp_path / "private" / "history.db"
    db.parent.mkdir(mode=0o700)
    code, out, _ = run(config, "import", "smartd", str(tmp_path / "logs"), db=db)
    assert code == 0 and out.count("hourly readings imported (0 already there)") == 2, out
