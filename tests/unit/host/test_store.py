"""The history store: migrations, identity keys, refusal to touch foreign or corrupt files."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from support.clock import T0
from support.store import count_samples, reset_baseline

from ssdwear.host.store.migrations import MIGRATIONS, m001_initial
from ssdwear.host.store.queries import APPLICATION_ID, Store
from ssdwear.model.errors import StoreError
from ssdwear.model.records import DriveId, Sample


def sample(hours: float, used: float = 1.0, e4: int | None = None) -> Sample:
    return Sample(at=T0 + timedelta(hours=hours), power_on_hours=1000 + hours, used_percent=used,
                  used_source="nvme_percentage_used", host_bytes_written=int(hours * 1e9), e4h=e4)


def test_drive_key_uses_serial_then_wwn_never_the_device() -> None:
    assert DriveId("M", "S1", "5000").key == "M|S1"
    assert DriveId("M", None, "5000").key == "wwn:5000"
    assert DriveId("M", None, None).key is None


def test_samples_round_trip_in_order(tmp_path: Path) -> None:
    with Store.open(tmp_path / "h.db") as store:
        for h in (2, 0, 1):
            store.add_sample(DriveId("M", "S1", None, "nvme"), sample(h, used=h), "/dev/nvme0")
        got = store.samples("M|S1")
        assert [s.used_percent for s in got] == [0, 1, 2]
        assert got[0].used_source == "nvme_percentage_used" and got[2].at == T0 + timedelta(hours=2)
        assert store.samples("M|S1", since=T0 + timedelta(minutes=30))[0].used_percent == 1
        assert store.serial_at("/dev/nvme0") == "S1"
        assert store.last_look("M|S1").at == T0 + timedelta(hours=2)


def test_same_millisecond_samples_are_both_kept(tmp_path: Path) -> None:
    with Store.open(tmp_path / "h.db") as store:
        store.add_sample(DriveId("M", "S1", None, "ata"), sample(0))
        store.add_sample(DriveId("M", "S1", None, "ata"), sample(0))
        assert count_samples(store) == 2


def test_migrations_are_recorded_and_not_rerun(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    Store.open(path).close()
    with Store.open(path) as store:
        names = [r[0] for r in store.db.execute("SELECT name FROM ssdwear_migrations")]
        assert names == [name for name, _ in MIGRATIONS]
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_newer_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with Store.open(path) as store:
        store.db.execute("INSERT INTO ssdwear_migrations VALUES ('m999_future', 0)")
    with pytest.raises(StoreError, match="newer ssdwear"):
        Store.open(path)


@pytest.mark.parametrize("content", [b"this is not a database\n" * 10, b"SQLite format 3\x00" + b"\xff" * 4000])
def test_corrupt_file_is_reported_and_left_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "h.db"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="left untouched"):
        Store.open(path)
    assert path.read_bytes() == content


def test_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE customers (id INTEGER)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="another program"):
        Store.open(path)
    assert path.read_bytes() == before


def test_resets_are_recorded_with_their_baseline(tmp_path: Path) -> None:
    with Store.open(tmp_path / "h.db") as store:
        store.record_reset(DriveId("M", "S1", None, "ata"), T0, "/dev/sda", 120.0, {"used_percent": 3})
        assert store.last_reset("M|S1").at == T0
        assert reset_baseline(store, "M|S1") == {"used_percent": 3}
        assert store.last_reset("M|S2") is None


def test_unwritable_location_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create"):
        Store.open(blocker / "sub" / "h.db")


def test_the_fine_counters_migration_keeps_old_samples_and_stores_the_counter(tmp_path: Path) -> None:
    """Issue 19: m002 appends the finer counter to samples and the counter windows' table; a database of the first
    schema keeps its samples (no counter) and takes new ones with it, and a window's baseline comes back whole."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)  # the database as the first release left it: m001 only
    m001_initial(db)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("CREATE TABLE ssdwear_migrations (name TEXT PRIMARY KEY, applied INTEGER)")
    db.execute("INSERT INTO ssdwear_migrations VALUES ('m001_initial', 0)")
    db.execute("INSERT INTO drives (key, model, serial, first_seen, last_seen) VALUES ('M|S', 'M', 'S', 0, 0)")
    db.execute("INSERT INTO samples (drive_id, t, poh, used) VALUES (1, ?, 100, 5)", (int(T0.timestamp() * 1000),))
    db.close()
    with Store.open(path) as store:  # upgraded
        (old,) = store.samples("M|S")
        assert old.used_percent == 5 and old.counter_source is None and old.counter is None
        drive = DriveId("M", "S")
        later = T0 + timedelta(hours=1)
        store.add_sample(drive, Sample(at=later, power_on_hours=101, used_percent=5,
                                       counter_source="average_erase_count", counter=132, counter_rated=3000))
        store.record_window(drive, later, "/dev/sda")
        base = store.window_start("M|S")
        assert base is not None and (base.at, base.counter_source, base.counter, base.counter_rated) == (
            later, "average_erase_count", 132, 3000)
        assert store.window_start("M|S", until=T0) is None  # the clock rule: none dated after `until`


@pytest.mark.parametrize("column", ["poh", "used", "host_w", "e4", "fine", "fine_rated"])
@pytest.mark.parametrize("value", ["'abc'", "X'00ff'", "9e999"])
def test_a_sample_holding_no_number_is_left_out_and_counted(tmp_path: Path, column: str, value: str) -> None:
    """SQLite keeps text or a blob in an INTEGER column: such a row reached the maths and a report said 'internal
    error' for the drive (TypeError: '<' not supported between int and str; plan --from stopped altogether)."""
    path, drive = tmp_path / "h.db", DriveId("M", "S1", None, "nvme")
    with Store.open(path) as store:
        for h in (0, 1, 2):
            store.add_sample(drive, sample(h, used=h, e4=60), "/dev/nvme0")
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE samples SET {column} = {value} WHERE t = (SELECT max(t) FROM samples)")
    with Store.open(path, create=False, write=False) as store:
        assert [s.used_percent for s in store.samples("M|S1")] == [0, 1]
        assert store.last_look("M|S1").at == T0 + timedelta(hours=1)
        assert store.drive_list()[0].samples == 2 and store.mistyped("M|S1") == 1
        assert store.ignored(["M|S1"], T0 + timedelta(days=1)) == [
            "history: 1 stored sample holds text, a blob or an infinity where a count belongs and is ignored: the "
            "database was changed outside ssdwear"]


def test_the_samples_table_is_spelled_by_one_field_table(tmp_path: Path) -> None:
    """Issue 27.4: every statement that writes or reads samples, and the history document's fields, come from
    host/store/columns.py's table (the INSERT, the SELECT, the number check and the document each spelled the 15
    fields by position). Every field of a Sample has its column, in order, and a sample with every field set comes
    back as it went in."""
    from dataclasses import fields

    from ssdwear.host.store.columns import SAMPLE_COLUMNS
    from ssdwear.render.documents import SAMPLE_FIELDS

    assert [c.field for c in SAMPLE_COLUMNS] == [f.name for f in fields(Sample)] == list(SAMPLE_FIELDS)
    store = Store.open(tmp_path / "h.db")
    table = {row[1] for row in store.db.execute("PRAGMA table_info(samples)")}
    assert {c.column for c in SAMPLE_COLUMNS} <= table
    full = Sample(at=T0, power_on_hours=1.5, used_percent=2.5, used_source="intel_233_media_wearout",
                  host_bytes_written=3, host_bytes_read=4, nand_bytes_written=5, e2h=6, e3h=7, e4h=8,
                  available_spare=9, media_errors=10, counter_source="average_erase_count", counter=11,
                  counter_rated=12)
    drive = DriveId("M", "S1")
    store.add_sample(drive, full, "/dev/sda")
    assert store.samples(drive.key or "") == [full]
