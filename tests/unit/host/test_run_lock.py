"""The run lock where no history exists yet: a run that stores nothing leaves nothing behind, and a run that waited
on the lock file it took away locks the new one (never two runs at once)."""

from __future__ import annotations

import fcntl
import os
import threading
import time
from contextlib import AbstractContextManager
from datetime import datetime, timezone
from pathlib import Path

from ssdwear.host.store.lock import lock_path, run_lock

NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)


def _lock(db: Path, wait_s: float = 5.0) -> AbstractContextManager[None]:
    return run_lock(db, "sample", wait_s, time.sleep, time.monotonic, NOW)


def test_a_run_that_stores_nothing_takes_away_the_directories_its_lock_made(tmp_path: Path) -> None:
    db = tmp_path / "var" / "lib" / "ssdwear" / "history.db"
    with _lock(db):
        assert lock_path(db).is_file()
    assert not (tmp_path / "var").exists()


def test_a_run_that_stored_keeps_its_lock_and_directory(tmp_path: Path) -> None:
    db = tmp_path / "state" / "history.db"
    with _lock(db):
        db.write_bytes(b"")  # what a store does
    assert lock_path(db).is_file() and db.is_file()


def test_a_directory_that_was_there_is_never_taken_away(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    with _lock(db):
        pass
    assert tmp_path.is_dir() and lock_path(db).is_file()  # only what a run made is taken away


def test_a_run_waiting_on_a_lock_file_taken_away_locks_the_new_one(tmp_path: Path) -> None:
    db = tmp_path / "new" / "history.db"
    first_in, let_go, second_in = threading.Event(), threading.Event(), threading.Event()
    held: list[bool] = []

    def first() -> None:
        with _lock(db):
            first_in.set()
            let_go.wait(5)

    def second() -> None:
        first_in.wait(5)
        with _lock(db):
            second_in.set()
            # the lock it holds is the one the path names now: a third run could not take it
            fd = os.open(lock_path(db), os.O_RDONLY)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                held.append(False)
            except BlockingIOError:
                held.append(True)
            finally:
                os.close(fd)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    assert first_in.wait(5)
    time.sleep(0.3)  # the second run is waiting on the first one's file
    assert not second_in.is_set()
    let_go.set()
    for t in threads:
        t.join(10)
    assert held == [True]
