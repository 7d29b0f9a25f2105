"""The history database's reads and writes (Store), one transaction each; drives are keyed by identity (model + serial,
else WWN), never by /dev name (see the package's docstring for what the file and its trust rules are)."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from ssdwear.model.errors import SsdwearError, StoreError
from ssdwear.model.records import DriveId, LastLook, ResetRecord, Sample, StoredDrive

from . import columns
from .columns import from_ms, ms
from .files import check_existing, check_side_files, check_trusted_path, create_file, lstat, store_error
from .migrations import MIGRATIONS, READ_WITHOUT, _run_script

T = TypeVar("T")
APPLICATION_ID = 0x53535745  # 'SSWE', in the SQLite header: marks the file as ours
BUSY_TIMEOUT_MS = 30_000
# Two samples of one drive in the same millisecond are both kept by moving the later one on a millisecond;
# a collision that persists this long is not a collision but a damaged index.
MAX_SAME_TIME_RETRIES = 1000


class MissingStore(StoreError):
    "There is no history database yet (read-only commands then go on without history)."


class SampleRejected(Exception):
    "One drive's sample could not be stored (its values do not fit); the other drives' samples are kept."




# The latest time a stored row may have to be read: 9999-12-31 (a later one cannot be a date; the file was changed).
MAX_MS = 253_402_300_799_999


def _until(when: datetime | None) -> int:
    return min(ms(when), MAX_MS) if when else MAX_MS


def _numbers(*columns: str) -> str:
    """SQL true where each column holds a finite number or NULL. SQLite keeps whatever a column is given, and the
    database is untrusted input: a row with text, a blob or an infinity where a count belongs is not read (and
    `mistyped` counts it for the warning)."""
    return " AND ".join(f"(typeof({c}) = 'null' OR (typeof({c}) IN ('integer', 'real') AND abs({c}) < 1e300))"
                        for c in columns)


_SAMPLE_VALUES = _numbers(*(f"s.{c.column}" for c in columns.NUMBERS))
_INSERT_SAMPLE = (f"INSERT INTO samples (drive_id, {columns.column_list()}) "
                  f"VALUES ({', '.join('?' * (len(columns.SAMPLE_COLUMNS) + 1))})")


class Store:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        self._source_ids: dict[str, int] = {}

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, create: bool = True, write: bool = True) -> Store:
        """Open (and with `create`, create) the database. Without `write` nothing is written to the file: no
        migration and no journal switch, so a read-only command never changes a database."""
        path = Path(path)
        before = lstat(path)
        if before is None and not create:
            raise MissingStore(f"no history database at {path} (`ssdwear sample` creates it; `ssdwear import smartd` "
                               "fills it from smartd's attribute logs)")
        check_trusted_path(path)  # before anything is created or read: a refused path leaves no trace
        if before is None:
            before = create_file(path)
        else:
            check_existing(path, before)
        check_trusted_path(path)  # again, now that the file is there
        check_side_files(path, before)
        try:
            db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
        except (sqlite3.DatabaseError, OSError) as exc:
            raise StoreError(f"cannot open history database {path}: {exc}") from None
        after = lstat(path)
        if after is None or (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
            db.close()
            raise StoreError(f"history database {path} was replaced while ssdwear opened it; not used")
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            store = cls(db, path)
            store._prepare_waiting(write)
        except StoreError:
            db.close()
            raise
        except sqlite3.DatabaseError as exc:
            db.close()
            raise store_error(path, exc, "opening it") from None
        except OSError as exc:
            db.close()
            raise StoreError(f"cannot open history database {path}: {exc}") from None
        return store

    def _prepare_waiting(self, write: bool = True) -> None:
        """_prepare, waiting out another process that is creating or migrating the same file.

        Switching the journal to WAL takes an exclusive lock and SQLite may report "database is locked"
        at once instead of calling the busy handler, so the whole preparation is retried.
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self._prepare(write)
                return
            except sqlite3.OperationalError as exc:
                text = str(exc).lower()
                if ("locked" not in text and "busy" not in text) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _prepare(self, write: bool = True) -> None:
        db = self.db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables and "ssdwear_migrations" not in tables):
            raise StoreError(f"{self.path} is an SQLite database of another program, not ssdwear history; "
                             "it was left untouched: use another file")
        db.execute("PRAGMA foreign_keys = ON")
        if not write:
            self._read_as_is()
            return
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        self._migrate()

    def _migrate(self) -> None:
        """Apply the migrations this file lacks. A file that is up to date is not written to at all."""
        db = self.db
        if self._up_to_date():
            return
        db.execute("BEGIN IMMEDIATE")  # one migrator at a time; the others wait, then see it done
        try:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute("CREATE TABLE IF NOT EXISTS ssdwear_migrations (name TEXT PRIMARY KEY, applied INTEGER)")
            done = {r[0] for r in db.execute("SELECT name FROM ssdwear_migrations")}
            unknown = done - {name for name, _ in MIGRATIONS}
            if unknown:
                raise StoreError(f"{self.path} was written by a newer ssdwear (migrations {sorted(unknown)}); "
                                 "upgrade ssdwear")
            for name, fn in MIGRATIONS:
                if name not in done:
                    fn(db)
                    db.execute("INSERT INTO ssdwear_migrations VALUES (?, strftime('%s','now'))", (name,))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _read_as_is(self) -> None:
        """For reading, a file that lacks migrations this ssdwear has is read as it is, where each one it lacks only
        added columns or tables (READ_WITHOUT: temporary stand-ins, in this connection only, that read as NULL or as
        nothing); the file itself is not written. Any other file not up to date is a StoreError."""
        if self._up_to_date():
            return
        done = {r[0] for r in self.db.execute("SELECT name FROM ssdwear_migrations")} \
            if self.db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID and self._has_table(
                "ssdwear_migrations") else set()
        missing = [name for name, _ in MIGRATIONS if name not in done]
        if not done or any(name not in READ_WITHOUT for name in missing):
            raise StoreError(f"{self.path} is not yet in this ssdwear's format; `ssdwear sample` upgrades it")
        for name in missing:
            _run_script(self.db, READ_WITHOUT[name])

    def _has_table(self, name: str) -> bool:
        return self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() \
            is not None

    def _up_to_date(self) -> bool:
        db = self.db
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            return False
        try:
            done = {r[0] for r in db.execute("SELECT name FROM ssdwear_migrations")}
        except sqlite3.OperationalError:  # no such table yet
            return False
        unknown = done - {name for name, _ in MIGRATIONS}
        if unknown:
            raise StoreError(f"{self.path} was written by a newer ssdwear (migrations {sorted(unknown)}); "
                             "upgrade ssdwear")
        return done == {name for name, _ in MIGRATIONS}

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------

    def _transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = fn(db)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        except sqlite3.DatabaseError as exc:
            raise store_error(self.path, exc, "writing") from None
        return result

    def write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """`fn` in one write transaction, for the store's other modules (alerts.py)."""
        return self._transaction(fn)

    def read(self, sql: str, args: Sequence[Any]) -> list[Any]:
        """The rows of one query; a damaged database is a StoreError."""
        return self._read(sql, args)

    def _drive_id(self, db: sqlite3.Connection, drive: DriveId, t: int) -> int:
        key = _key(drive)
        row = db.execute("SELECT id FROM drives WHERE key = ?", (key,)).fetchone()
        if row:
            db.execute("UPDATE drives SET last_seen = max(last_seen, ?) WHERE id = ?", (t, row[0]))
            return int(row[0])
        cur = db.execute("INSERT INTO drives (key, model, serial, wwn, interface, first_seen, last_seen) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (key, drive.model, drive.serial, drive.wwn, drive.interface, t, t))
        return int(cur.lastrowid or 0)

    def _source_id(self, db: sqlite3.Connection, name: str | None) -> int | None:
        if name is None:
            return None
        if name not in self._source_ids:
            db.execute("INSERT OR IGNORE INTO sources (name) VALUES (?)", (name,))
            self._source_ids[name] = int(db.execute("SELECT id FROM sources WHERE name = ?", (name,)).fetchone()[0])
        return self._source_ids[name]

    def add_sample(self, drive: DriveId, sample: Sample, device: str | None = None) -> None:
        """Store one sample in one transaction (and note which drive sits behind `device`)."""
        rejected = self.add_samples([(drive, sample, device)])
        if rejected:
            raise StoreError(f"sample of {_key(drive)} not stored in {self.path}: {rejected[_key(drive)]}")

    def add_samples(self, rows: Sequence[tuple[DriveId, Sample, str | None]]) -> dict[str, str]:
        """Store several samples (drive, sample, the device it was read at) in one transaction. A drive whose sample
        cannot be stored (values that do not fit) is left out and returned as {key: why}; a damaged or unwritable
        database is a StoreError."""
        def write(db: sqlite3.Connection) -> dict[str, str]:
            rejected: dict[str, str] = {}
            for drive, sample, device in rows:
                db.execute("SAVEPOINT drive")
                try:
                    self._insert(db, drive, sample, device)
                except SampleRejected as exc:
                    db.execute("ROLLBACK TO drive")
                    rejected[_key(drive)] = str(exc)
                db.execute("RELEASE drive")
            return rejected
        result: dict[str, str] = self._transaction(write)
        return result

    def import_samples(self, drive: DriveId, samples: Sequence[Sample]) -> tuple[int, dict[str, int]]:
        """Store readings taken elsewhere (smartd's attribute log) in one transaction, each unless the drive has a
        sample at that very millisecond already: importing the same readings twice adds nothing. Returns how many
        were added, and the samples not stored because their values do not fit, by why (the others are stored)."""
        def write(db: sqlite3.Connection) -> tuple[int, dict[str, int]]:
            added, rejected = 0, dict[str, int]()
            for sample in samples:
                try:
                    added += self._insert(db, drive, sample, None, once=True)
                except SampleRejected as exc:
                    rejected[str(exc)] = rejected.get(str(exc), 0) + 1
            return added, rejected
        result: tuple[int, dict[str, int]] = self._transaction(write)
        return result

    def _insert(self, db: sqlite3.Connection, drive: DriveId, s: Sample, device: str | None,
                once: bool = False) -> bool:
        """Insert one sample; with `once`, not when the drive has one at that millisecond (then False)."""
        t = ms(s.at)
        numbers = [getattr(s, c.field) for c in columns.NUMBERS]
        if any(isinstance(v, int) and not -(1 << 63) <= v < 1 << 63 for v in numbers):
            raise SampleRejected("a counter does not fit in a 64-bit integer")
        drive_id = self._drive_id(db, drive, t)
        values = {c.field: getattr(s, c.field) for c in columns.SAMPLE_COLUMNS}
        values.update((c.field, self._source_id(db, values[c.field])) for c in columns.SAMPLE_COLUMNS
                      if c.kind == "source")
        for _ in range(MAX_SAME_TIME_RETRIES):
            values["at"] = t
            try:
                db.execute(_INSERT_SAMPLE, (drive_id, *(values[c.field] for c in columns.SAMPLE_COLUMNS)))
                break
            except sqlite3.IntegrityError as exc:
                if "samples.drive_id, samples.t" not in str(exc):
                    raise
                if once:
                    return False
                t += 1  # another sample of this drive in the same millisecond: keep both
        else:
            raise sqlite3.IntegrityError(f"{MAX_SAME_TIME_RETRIES} samples of one drive collide at one time "
                                         "(damaged index?)")
        if device:  # the latest write wins: it read the drive last, whatever the clock said then or says now
            db.execute("INSERT INTO devices (device, drive_id, seen) VALUES (?, ?, ?) "
                       "ON CONFLICT(device) DO UPDATE SET drive_id = excluded.drive_id, seen = excluded.seen",
                       (device, drive_id, t))
        return True

    def record_reset(self, drive: DriveId, at: datetime, device: str | None, power_on_hours: float | None,
                     baseline: dict[str, Any]) -> None:
        def write(db: sqlite3.Connection) -> None:
            drive_id = self._drive_id(db, drive, ms(at))
            db.execute("INSERT OR REPLACE INTO resets VALUES (?, ?, ?, ?, ?)",
                       (drive_id, ms(at), device, power_on_hours, json.dumps(baseline, sort_keys=True)))
        self._transaction(write)

    def record_window(self, drive: DriveId, at: datetime, device: str | None) -> None:
        """Mark the sample stored at `at` as a counter window's baseline (`start` on a drive without Intel's timer:
        nothing is sent to it)."""
        def write(db: sqlite3.Connection) -> None:
            drive_id = self._drive_id(db, drive, ms(at))
            db.execute("INSERT OR REPLACE INTO windows VALUES (?, ?, ?)", (drive_id, ms(at), device))
        self._transaction(write)

    def forget_reset(self, drive: DriveId, at: datetime) -> None:
        """Remove a reset recorded before its command was sent, when the command certainly did not reset the
        timer (the drive rejected it, or smartctl could not open the device)."""
        def write(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM resets WHERE t = ? AND drive_id = (SELECT id FROM drives WHERE key = ?)",
                       (ms(at), _key(drive)))
        self._transaction(write)

    # -- reading -------------------------------------------------------------------------------

    def _read(self, sql: str, args: Sequence[Any]) -> list[Any]:
        try:
            return self.db.execute(sql, tuple(args)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise store_error(self.path, exc, "reading it") from None

    # Reading "the last" reset or sample takes the clock rule's `until` (now): rows dated after it were stored with
    # the clock ahead and are not the last (assess/history.py; `dated_after` counts them for the warning).

    def last_reset(self, key: str, until: datetime | None = None) -> ResetRecord | None:
        rows = self._read("SELECT r.t, r.device, r.poh FROM resets r JOIN drives d ON d.id = r.drive_id "
                          f"WHERE d.key = ? AND r.t <= ? AND {_numbers('r.poh')} ORDER BY r.t DESC LIMIT 1",
                          (key, _until(until)))
        if not rows:
            return None
        t, device, poh = rows[0]
        return ResetRecord(at=from_ms(t), device=device, power_on_hours=poh)

    def window_start(self, key: str, until: datetime | None = None) -> Sample | None:
        """The baseline sample of the drive's last counter window (`start`), or None."""
        rows = self._read("SELECT w.t FROM windows w JOIN drives d ON d.id = w.drive_id WHERE d.key = ? "
                          "AND w.t <= ? ORDER BY w.t DESC LIMIT 1", (key, _until(until)))
        if not rows:
            return None
        at = from_ms(rows[0][0])
        found = self.samples(key, since=at, until=at)
        return found[0] if found else None

    def last_look(self, key: str, until: datetime | None = None) -> LastLook | None:
        rows = self._read("SELECT s.t, s.e4 FROM samples s JOIN drives d ON d.id = s.drive_id "
                          f"WHERE d.key = ? AND s.t <= ? AND {_SAMPLE_VALUES} ORDER BY s.t DESC LIMIT 1",
                          (key, _until(until)))
        if not rows:
            return None
        return LastLook(at=from_ms(rows[0][0]), e4h_minutes=rows[0][1])

    def dated_after(self, key: str, when: datetime) -> int:
        """How many of the drive's samples and resets are dated after `when` (the clock rule ignores them)."""
        t = ms(when)
        rows = self._read("SELECT (SELECT count(*) FROM samples s WHERE s.drive_id = d.id AND s.t > ?) + "
                          "(SELECT count(*) FROM resets r WHERE r.drive_id = d.id AND r.t > ?) + "
                          "(SELECT count(*) FROM windows w WHERE w.drive_id = d.id AND w.t > ?) FROM drives d "
                          "WHERE d.key = ?", (t, t, t, key))
        return int(rows[0][0]) if rows else 0

    def mistyped(self, key: str) -> int:
        """How many of the drive's samples hold something other than a number where a count belongs (not read)."""
        rows = self._read(f"SELECT count(*) FROM samples s JOIN drives d ON d.id = s.drive_id WHERE d.key = ? AND "
                          f"NOT ({_SAMPLE_VALUES})", (key,))
        return int(rows[0][0]) if rows else 0

    def ignored(self, keys: Sequence[str], now: datetime) -> list[str]:
        """The warnings about the drives' stored rows that reading them left out: rows dated after now (the clock
        rule), samples that are not numbers (mistyped); each said once."""
        from ssdwear.assess.history import clock_warning, mistyped_warning

        out = []
        if any(self.dated_after(key, now) for key in keys):
            out.append(clock_warning(now))
        if mistyped := sum(self.mistyped(key) for key in keys):
            out.append(mistyped_warning(mistyped))
        return out

    def serial_at(self, device: str) -> str | None:
        rows = self._read("SELECT d.serial FROM devices v JOIN drives d ON d.id = v.drive_id WHERE v.device = ?",
                          (device,))
        return rows[0][0] if rows else None

    def samples(self, key: str, since: datetime | None = None, until: datetime | None = None) -> list[Sample]:
        selected, joins = columns.select_list()
        rows = self._read(
            f"SELECT {selected} FROM samples s JOIN drives d ON d.id = s.drive_id {joins} "
            f"WHERE d.key = ? AND s.t >= ? AND s.t <= ? AND {_SAMPLE_VALUES} ORDER BY s.t",
            (key, ms(since) if since else 0, _until(until)))
        return [columns.sample_of_row(r) for r in rows]

    def drive_list(self, since: datetime | None = None, until: datetime | None = None) -> list[StoredDrive]:
        """Every drive held, with its samples between `since` and `until` counted (first and last sample time) and
        the device path it was last seen at."""
        rows = self._read(
            "SELECT d.key, d.model, d.serial, d.wwn, d.interface, count(s.t), min(s.t), max(s.t), "
            "(SELECT v.device FROM devices v WHERE v.drive_id = d.id ORDER BY v.seen DESC LIMIT 1) FROM drives d "
            f"LEFT JOIN samples s ON s.drive_id = d.id AND s.t >= ? AND s.t <= ? AND {_SAMPLE_VALUES} "
            "GROUP BY d.id ORDER BY d.model, "
            "d.serial", (ms(since) if since else 0, _until(until)))
        return [StoredDrive(DriveId(r[1], r[2], r[3], r[4]), r[0], r[5], None if r[6] is None else from_ms(r[6]),
                            None if r[7] is None else from_ms(r[7]), r[8]) for r in rows]

    def find_drives(self, needle: str) -> list[StoredDrive]:
        """Drives whose serial, WWN, model or a device path they were seen at match `needle`, case-insensitively; a
        name without a path is also looked for under /dev ('nvme0', 'sda'), a WWN also as smartctl prints it
        ('5 002538 ...')."""
        wanted = {needle.casefold(), needle.casefold().replace(" ", "").removeprefix("0x")} - {""}
        if wanted and not needle.startswith("/"):
            wanted.add(f"/dev/{needle}".casefold())
        keys = {key for device, key in self._read("SELECT v.device, d.key FROM devices v JOIN drives d ON "
                                                  "d.id = v.drive_id", ()) if device.casefold() in wanted}
        return [d for d in self.drive_list() if d.key in keys
                or any((name or "").casefold() in wanted for name in (d.drive.serial, d.drive.wwn, d.drive.model,
                                                                       d.key))]

    def the_drive(self, needle: str) -> StoredDrive:
        """The one drive `needle` names (serial, WWN, model or device path); a one-line error for none or many."""
        matches = self.find_drives(needle)
        if not matches:
            raise SsdwearError(f"no drive matching '{needle}' in {self.path}: give a serial, WWN, model or device "
                               "path (`ssdwear history` lists the drives it holds; ssdwear sample records drives)")
        if len(matches) > 1:
            names = ", ".join(m.drive.label for m in matches)
            raise SsdwearError(f"'{needle}' matches {len(matches)} drives in {self.path} ({names}): give the serial")
        return matches[0]


def _key(drive: DriveId) -> str:
    """The key a drive is stored under; a drive without a serial or WWN cannot be stored (callers skip it)."""
    key = drive.key
    if key is None:
        raise StoreError(f"{drive.label or 'a drive'} has no serial number or WWN: it cannot be stored")
    return key
