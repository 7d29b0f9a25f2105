"""A history the run could not use (issue 26.5): `check` never said so ("history not used: ..." went to a warning
list that check never printed), so a drive that its history shows wearing out within months was WARNING on its
lifetime average and nothing said why; and a file still in the first schema after an upgrade was not read at all,
although m002 only added columns. The rows of an older schema are read as they are (the file is not changed), and
check says when, and why, the history was not used."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.host.store.migrations import m001_initial
from ssdwear.host.store.queries import APPLICATION_ID, Store

MACHINE = FIXTURES / "smartd"  # its Samsung SSD 860 EVO: 12 % used at 12,132 power-on hours now
NOW = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)
KEY = "Samsung SSD 860 EVO 1TB|S3Z9NB0K000777A"


def first_schema(path: Path) -> Path:
    """A history as the first release left it (m001 only): the Samsung's last month, always on, its 177 indicator
    going from 2 to 11 %: fast wear (1.0 year at the pessimistic end; 4.7 by the lifetime average)."""
    db = sqlite3.connect(path, isolation_level=None)
    m001_initial(db)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("CREATE TABLE ssdwear_migrations (name TEXT PRIMARY KEY, applied INTEGER)")
    db.execute("INSERT INTO ssdwear_migrations VALUES ('m001_initial', 0)")
    db.execute("INSERT INTO drives (key, model, serial, interface, first_seen, last_seen) "
               "VALUES (?, ?, ?, 'ata', 0, 0)", (KEY, *KEY.split("|")))
    db.execute("INSERT INTO sources (name) VALUES ('samsung_177_wear_leveling_count')")
    for k in range(120):  # every 6 hours over the 30 days before now
        at = NOW - timedelta(hours=6 * (120 - k))
        db.execute("INSERT INTO samples (drive_id, t, poh, used, used_src) VALUES (1, ?, ?, ?, 1)",
                   (int(at.timestamp() * 1000), 12_132 - 6 * (120 - k), 2 + k * 9 // 119))
    db.close()
    return path


def check(db: Path | None) -> tuple[int, str]:
    """check with thresholds at which the history's pessimistic year (1.0) is CRITICAL and the lifetime average's
    (4.7) WARNING."""
    result = ssdwear_cli(["--replay", str(MACHINE), *(["--db", str(db)] if db else ["--no-history"]), "check",
                          "--warning-years", "5", "--critical-years", "2"], App(clock=lambda: NOW))
    return result.exit_code, result.stdout


def test_rows_of_the_first_schema_are_read_and_the_file_left_as_it_is(tmp_path: Path) -> None:
    old = first_schema(tmp_path / "old.db")
    before = old.read_bytes()
    upgraded = tmp_path / "upgraded.db"
    upgraded.write_bytes(before)
    Store.open(upgraded).close()  # what `sample` would do to it: migrated, its rows kept
    code, out = check(old)
    assert (code, out) == check(upgraded)
    assert code == 2 and "/dev/sda Samsung SSD 860 EVO 1TB [S3Z9NB0K000777A]: CRITICAL" in out
    assert "history:samsung_177_wear_leveling_count" in out and "history not used" not in out
    assert old.read_bytes() == before  # a reading command never writes: not migrated, no journal left
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.db", "upgraded.db"]


@pytest.mark.parametrize("make, why", [
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4096), "history database {} is damaged"),
    (lambda p: sqlite3.connect(p).execute("CREATE TABLE moz_places (id INTEGER)").connection.commit(),
     "{} is an SQLite database of another program"),
])
def test_check_says_the_history_was_not_used_and_why(tmp_path: Path, make: Callable[[Path], object],
                                                     why: str) -> None:
    db = tmp_path / "history.db"
    make(db)
    code, out = check(db)
    head, *rest = out.splitlines()
    assert code == check(None)[0] == 1  # WARNING: the drives judged by their readings alone, as without a history
    assert head.split(" | ")[0].endswith("; history not used (below)")
    [said] = [line for line in rest if line.startswith("warning: history not used: ")]
    assert why.format(db) in said
