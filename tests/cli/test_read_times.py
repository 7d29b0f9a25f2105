"""Each place's last read time in the history (migration m004_read_times, issue 29.3) through the commands: `sample`
and `notify` keep it, every command that reads drives starts the slowest first, readers never write it, and a
database made before it is read as it is and upgraded by `sample`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.host.store.migrations import m001_initial, m002_fine_counters, m003_alerts
from ssdwear.host.store.queries import APPLICATION_ID
from tools.latency import FieldRunner

INTEL = FIXTURES / "intel"
PLACES = {"/dev/sda", "/dev/sdb", "/dev/sdc", "/dev/sdd"}


def rows(db: Path) -> dict[str, tuple[float | None, int]]:
    with sqlite3.connect(db) as conn:
        return {p: (s, u) for p, s, u in conn.execute("SELECT place, seconds, unfinished FROM read_times")}


def test_sample_and_notify_keep_each_places_read_and_a_reader_never_writes(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    replayed = ["--replay", str(INTEL), "--db", str(db)]
    assert ssdwear_cli([*replayed, "sample"]).exit_code == 0
    kept = rows(db)
    assert set(kept) == PLACES and all(s is not None and s >= 0 and u == 0 for s, u in kept.values())
    before = db.read_bytes()
    assert ssdwear_cli([*replayed, "report"]).exit_code == 0
    assert db.read_bytes() == before and rows(db) == kept
    notified = tmp_path / "n.db"
    assert ssdwear_cli(["--replay", str(INTEL), "--db", str(notified), "notify"]).exit_code == 0
    assert set(rows(notified)) == PLACES


def test_every_command_that_reads_drives_starts_the_slowest_at_its_last_read(tmp_path: Path) -> None:
    """One worker, so the reads start one after the other: the drives slowest at the first sample (/dev/sdc, then
    /dev/sdb) are read first by the next sample and by report, which are given the drives in the scan's order and
    list them so. (The latencies differ by 0.1 s: drives equally quick differ by the machine's noise alone.)"""
    devices = ["/dev/sda", "/dev/sdb", "/dev/sdc"]
    db = str(tmp_path / "h.db")
    latencies = {"/dev/sda": 0.0, "/dev/sdb": 0.1, "/dev/sdc": 0.2}
    first = FieldRunner(latencies)
    assert ssdwear_cli(["--workers", "1", "sample", *devices, "-d", "sat"], App(runner=first, db=db)).exit_code == 0
    assert first.started == devices
    for command in (["sample"], ["report", "--format", "json"]):
        runner = FieldRunner(latencies)
        result = ssdwear_cli(["--workers", "1", *command, *devices, "-d", "sat"], App(runner=runner, db=db))
        assert result.exit_code == 0, result.stderr
        assert runner.started == ["/dev/sdc", "/dev/sdb", "/dev/sda"], command
    assert [d["device"] for d in json.loads(result.stdout)["drives"]] == devices  # the output keeps the order


def test_a_database_made_before_the_read_times_is_read_as_it_is_and_upgraded_by_sample(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)  # as this release's m003 left it
    for fn in (m001_initial, m002_fine_counters, m003_alerts):
        fn(db)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("CREATE TABLE ssdwear_migrations (name TEXT PRIMARY KEY, applied INTEGER)")
    db.executemany("INSERT INTO ssdwear_migrations VALUES (?, 0)",
                   [("m001_initial",), ("m002_fine_counters",), ("m003_alerts",)])
    db.execute("INSERT INTO drives (key, model, serial, first_seen, last_seen) VALUES ('M|S', 'M', 'S', 0, 0)")
    db.execute("INSERT INTO samples (drive_id, t, poh, used) VALUES (1, ?, 100, 5)", (int(T0.timestamp() * 1000),))
    db.close()
    before = path.read_bytes()
    report = ssdwear_cli(["--replay", str(INTEL), "--db", str(path), "report"])
    assert (report.exit_code, report.stderr) == (0, "") and path.read_bytes() == before  # read, not upgraded
    assert ssdwear_cli(["--replay", str(INTEL), "--db", str(path), "sample"]).exit_code == 0
    assert set(rows(path)) == PLACES
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM samples WHERE drive_id = 1").fetchone() == (1,)  # kept


def test_a_sample_that_stores_nothing_makes_no_database_for_its_read_times(tmp_path: Path) -> None:
    db = tmp_path / "none" / "h.db"
    result = ssdwear_cli(["--replay", str(INTEL), "--db", str(db), "sample", "/dev/sdx", "-d", "sat"])
    assert result.exit_code == 1 and not db.exists()
