"""The order a run reads its drives in (run/order.py, issue 29.3): the slowest at their last read first, a read that
did not finish before them all, places never read before the known ones; the history's rows read back as written,
and rows that are not what ssdwear wrote left out."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from support.clock import T0

from ssdwear.host.store import read_times
from ssdwear.host.store.queries import Store
from ssdwear.host.store.read_times import LastRead
from ssdwear.model.records import DriveReport
from ssdwear.run.order import reads_of, slowest_first

SCAN = [("/dev/sda", "sat"), ("/dev/sdb", "sat"), ("/dev/sdc", "sat"), ("/dev/bus/0", "sat+megaraid,1"),
        ("/dev/sdd", "sat")]


def test_without_history_the_order_is_the_scans() -> None:
    assert slowest_first(SCAN, {}) == SCAN


def test_unfinished_reads_first_then_places_never_read_then_the_slowest_first() -> None:
    last = {"/dev/sda": LastRead(0.2), "/dev/sdb": LastRead(1.65), "/dev/sdc": LastRead(20.0, unfinished=True),
            "/dev/bus/0 sat+megaraid,1": LastRead(None, unfinished=True)}  # the deadline left it unread
    assert slowest_first(SCAN, last) == [("/dev/sdc", "sat"), ("/dev/bus/0", "sat+megaraid,1"),
                                         ("/dev/sdd", "sat"), ("/dev/sdb", "sat"), ("/dev/sda", "sat")]
    ties = {"/dev/sda": LastRead(1.0), "/dev/sdb": LastRead(1.0), "/dev/sdc": LastRead(1.0)}
    assert slowest_first(SCAN[:3], ties) == SCAN[:3]  # equal: as the scan lists them


def test_a_runs_reads_as_the_history_keeps_them() -> None:
    reports = [DriveReport(device="/dev/sda", device_type="sat", read_seconds=1.7),
               DriveReport(device="/dev/sdb", device_type="sat", error="killed", error_reason="timeout",
                           read_seconds=20.0),
               DriveReport(device="/dev/sdc", device_type="sat", error="not read", error_reason="deadline"),
               DriveReport(device="/dev/sdd", device_type="sat", error="not read", error_reason="deadline"),
               DriveReport(device="/dev/sde", device_type="sat", error="busy", error_reason="resetting"),
               DriveReport(device="/dev/bus/0", device_type="sat+megaraid,1", error="no such device",
                           error_reason="missing", read_seconds=0.01)]
    assert reads_of(reports, {"/dev/sdc": LastRead(1.6), "/dev/sde": LastRead(1.6)}) == {
        "/dev/sda": LastRead(1.7), "/dev/sdb": LastRead(20.0, unfinished=True),
        "/dev/sdc": LastRead(1.6, unfinished=True),  # never started this time: its last time, first next time
        "/dev/sdd": LastRead(None, unfinished=True),
        "/dev/bus/0 sat+megaraid,1": LastRead(0.01)}  # /dev/sde (another run's reset) keeps what it had


def test_the_read_times_read_back_and_rows_not_written_by_ssdwear_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with Store.open(path) as store:
        read_times.record(store, {"/dev/sda": LastRead(1.5), "/dev/sdb": LastRead(None, unfinished=True)}, T0)
        read_times.record(store, {"/dev/sda": LastRead(2.5)}, T0)  # the last read replaces the one before
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO read_times VALUES (?, ?, ?, 0)", [
            ("/dev/sdx", "fast", 0), ("/dev/sdy", -1.0, 0), ("/dev/sdz", 1.0, 7), (None, 1.0, 0)])
    with Store.open(path, create=False, write=False) as store:
        assert read_times.load(store) == {"/dev/sda": LastRead(2.5), "/dev/sdb": LastRead(None, unfinished=True)}
