"""The history store: SQLite, one file, append-only named migrations.

- Drives are keyed by identity (model + serial, else WWN), never by /dev name.
- WAL journal and a busy timeout: concurrent samplers wait for each other and lose nothing; every
  write is one transaction, so a crash (kill -9) loses at most the sample being written.
- A file that is not an ssdwear database (not SQLite, corrupt, or another program's SQLite file) is
  reported and never written to, truncated or replaced.
- Samples are compact rows in a WITHOUT ROWID table clustered on (drive, time): years of hourly
  samples for a 60-drive server stay well under 500 MB and a drive's last month is one range scan.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Optional

from .errors import StoreError
from .model import LastLook, ResetRecord, Sample

APPLICATION_ID = 0x53535745  # 'SSWE', in the SQLite header: marks the file as ours
BUSY_TIMEOUT_MS = 30_000

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[str, Migration]] = []


def migration(fn: Migration) -> Migration:
    MIGRATIONS.append((fn.__name__, fn))
    return fn


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """Execute statements one by one (executescript would COMMIT the migration's transaction)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            db.execute(statement)
            statement = ""
    if statement.strip():
        db.execute(statement)


@migration
def m001_initial(db: sqlite3.Connection) -> None:
    _run_script(
        db,
        """
        CREATE TABLE drives (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,          -- 'model|serial', or 'wwn:<hex>' when the serial is unknown
            model TEXT, serial TEXT, wwn TEXT, interface TEXT,
            first_seen INTEGER NOT NULL,       -- unix milliseconds
            last_seen INTEGER NOT NULL
        );
        CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE samples (
            drive_id INTEGER NOT NULL REFERENCES drives(id),
            t INTEGER NOT NULL,                -- unix milliseconds (UTC)
            poh REAL,                          -- power-on hours
            used REAL,                         -- lifetime wear used, percent
            used_src INTEGER REFERENCES sources(id),
            host_w INTEGER, host_r INTEGER, nand_w INTEGER,   -- bytes
            e2 INTEGER, e3 INTEGER, e4 INTEGER,               -- Intel timed workload raw values
            spare INTEGER, media_err INTEGER,
            PRIMARY KEY (drive_id, t)
        ) WITHOUT ROWID;
        CREATE TABLE devices (                 -- which drive was last seen behind a device path
            device TEXT PRIMARY KEY,
            drive_id INTEGER NOT NULL REFERENCES drives(id),
            seen INTEGER NOT NULL
        );
        CREATE TABLE resets (                  -- ssdwear's own resets of the timed-workload timer
            drive_id INTEGER NOT NULL REFERENCES drives(id),
            t INTEGER NOT NULL,
            device TEXT,
            poh REAL,
            baseline TEXT NOT NULL,            -- JSON: the drive's report just before the reset
            PRIMARY KEY (drive_id, t)
        );
        """
    )


def _ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def _dt(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


class Store:
    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        self._source_ids: dict[str, int] = {}

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, create: bool = True) -> Store:
        path = Path(path)
        exists = path.exists()
        if exists and path.is_dir():
            raise StoreError(f"history database {path} is a directory: pass --db FILE")
        if exists:
            _check_header(path)
        elif not create:
            raise StoreError(f"no history database at {path}: run 'ssdwear sample' first, or pass --db")
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create {path.parent}: {exc.strerror}; pass --db or set SSDWEAR_DB") \
                    from None
        try:
            db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                                 check_same_thread=False)
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            store = cls(db, path)
            store._prepare_waiting()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"history database {path} is unusable ({exc}); it was left untouched: "
                             "move it away or pass --db") from None
        except OSError as exc:
            raise StoreError(f"cannot open history database {path}: {exc}") from None
        return store

    def _prepare_waiting(self) -> None:
        """_prepare, waiting out another process that is creating or migrating the same file.

        Switching the journal to WAL takes an exclusive lock and SQLite may report "database is locked"
        at once instead of calling the busy handler, so the whole preparation is retried.
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self._prepare()
                return
            except sqlite3.OperationalError as exc:
                text = str(exc).lower()
                if ("locked" not in text and "busy" not in text) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _prepare(self) -> None:
        db = self.db
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables and "ssdwear_migrations" not in tables):
            raise StoreError(f"{self.path} is an SQLite database of another program, not ssdwear history; "
                             "it was left untouched: pass --db with another file")
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        self._migrate()

    def _migrate(self) -> None:
        db = self.db
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

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing -------------------------------------------------------------------------------

    def _transaction(self, fn: Callable[[sqlite3.Connection], Any]) -> Any:
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
        except sqlite3.OperationalError as exc:
            raise StoreError(f"cannot write to {self.path}: {exc}") from None
        return result

    def _drive_id(self, db: sqlite3.Connection, key: str, model: Optional[str], serial: Optional[str],
                  wwn: Optional[str], interface: Optional[str], t: int) -> int:
        row = db.execute("SELECT id FROM drives WHERE key = ?", (key,)).fetchone()
        if row:
            db.execute("UPDATE drives SET last_seen = max(last_seen, ?) WHERE id = ?", (t, row[0]))
            return int(row[0])
        cur = db.execute("INSERT INTO drives (key, model, serial, wwn, interface, first_seen, last_seen) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)", (key, model, serial, wwn, interface, t, t))
        return int(cur.lastrowid or 0)

    def _source_id(self, db: sqlite3.Connection, name: Optional[str]) -> Optional[int]:
        if name is None:
            return None
        if name not in self._source_ids:
            db.execute("INSERT OR IGNORE INTO sources (name) VALUES (?)", (name,))
            self._source_ids[name] = int(db.execute("SELECT id FROM sources WHERE name = ?", (name,)).fetchone()[0])
        return self._source_ids[name]

    def add_sample(self, key: str, model: Optional[str], serial: Optional[str], wwn: Optional[str],
                   interface: Optional[str], sample: Sample, device: Optional[str] = None) -> None:
        """Store one sample in one transaction (and note which drive sits behind `device`)."""
        self.add_samples([(key, model, serial, wwn, interface, sample, device)])

    def add_samples(self, rows: Sequence[tuple[str, Optional[str], Optional[str], Optional[str], Optional[str],
                                               Sample, Optional[str]]]) -> None:
        """Store several samples in one transaction."""
        def write(db: sqlite3.Connection) -> None:
            for key, model, serial, wwn, interface, s, device in rows:
                t = _ms(s.at)
                drive_id = self._drive_id(db, key, model, serial, wwn, interface, t)
                values = (s.power_on_hours, s.used_percent, self._source_id(db, s.used_source),
                          s.host_bytes_written, s.host_bytes_read, s.nand_bytes_written, s.e2h, s.e3h, s.e4h,
                          s.available_spare, s.media_errors)
                while True:  # two samples of one drive in the same millisecond: keep both
                    try:
                        db.execute("INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   (drive_id, t, *values))
                        break
                    except sqlite3.IntegrityError:
                        t += 1
                if device:
                    db.execute("INSERT INTO devices (device, drive_id, seen) VALUES (?, ?, ?) "
                               "ON CONFLICT(device) DO UPDATE SET drive_id = excluded.drive_id, seen = excluded.seen "
                               "WHERE excluded.seen >= devices.seen", (device, drive_id, t))
        self._transaction(write)

    def bulk_insert_samples(self, key: str, model: str, serial: str, rows: Iterable[tuple[Any, ...]]) -> None:
        """Fast path for generated history (benchmarks): rows are raw sample-table tuples without drive_id."""
        def write(db: sqlite3.Connection) -> None:
            drive_id = self._drive_id(db, key, model, serial, None, None, 0)
            db.executemany("INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           ((drive_id, *row) for row in rows))
        self._transaction(write)

    def record_reset(self, key: str, model: Optional[str], serial: Optional[str], wwn: Optional[str],
                     interface: Optional[str], at: datetime, device: Optional[str],
                     power_on_hours: Optional[float], baseline: dict[str, Any]) -> None:
        def write(db: sqlite3.Connection) -> None:
            drive_id = self._drive_id(db, key, model, serial, wwn, interface, _ms(at))
            db.execute("INSERT OR REPLACE INTO resets VALUES (?, ?, ?, ?, ?)",
                       (drive_id, _ms(at), device, power_on_hours, json.dumps(baseline, sort_keys=True)))
        self._transaction(write)

    # -- reading -------------------------------------------------------------------------------

    def _read(self, sql: str, args: Sequence[Any]) -> list[Any]:
        try:
            return self.db.execute(sql, tuple(args)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read {self.path}: {exc}") from None

    def last_reset(self, key: str) -> Optional[ResetRecord]:
        rows = self._read("SELECT r.t, r.device, r.poh FROM resets r JOIN drives d ON d.id = r.drive_id "
                          "WHERE d.key = ? ORDER BY r.t DESC LIMIT 1", (key,))
        if not rows:
            return None
        t, device, poh = rows[0]
        return ResetRecord(at=_dt(t), device=device, power_on_hours=poh)

    def reset_baseline(self, key: str) -> Optional[dict[str, Any]]:
        rows = self._read("SELECT r.baseline FROM resets r JOIN drives d ON d.id = r.drive_id "
                          "WHERE d.key = ? ORDER BY r.t DESC LIMIT 1", (key,))
        return json.loads(rows[0][0]) if rows else None

    def last_look(self, key: str) -> Optional[LastLook]:
        rows = self._read("SELECT s.t, s.e4 FROM samples s JOIN drives d ON d.id = s.drive_id "
                          "WHERE d.key = ? ORDER BY s.t DESC LIMIT 1", (key,))
        if not rows:
            return None
        return LastLook(at=_dt(rows[0][0]), e4h_minutes=rows[0][1])

    def serial_at(self, device: str) -> Optional[str]:
        rows = self._read("SELECT d.serial FROM devices v JOIN drives d ON d.id = v.drive_id WHERE v.device = ?",
                          (device,))
        return rows[0][0] if rows else None

    def samples(self, key: str, since: Optional[datetime] = None, until: Optional[datetime] = None) -> list[Sample]:
        rows = self._read(
            "SELECT s.t, s.poh, s.used, src.name, s.host_w, s.host_r, s.nand_w, s.e2, s.e3, s.e4, s.spare, "
            "s.media_err FROM samples s JOIN drives d ON d.id = s.drive_id LEFT JOIN sources src "
            "ON src.id = s.used_src WHERE d.key = ? AND s.t >= ? AND s.t <= ? ORDER BY s.t",
            (key, _ms(since) if since else 0, _ms(until) if until else 2**62))
        return [Sample(_dt(r[0]), *r[1:]) for r in rows]

    def count_samples(self) -> int:
        return int(self._read("SELECT count(*) FROM samples", ())[0][0])

    def drives(self) -> list[dict[str, Any]]:
        rows = self._read("SELECT key, model, serial, wwn, interface, first_seen, last_seen FROM drives "
                          "ORDER BY model, serial", ())
        return [dict(key=r[0], model=r[1], serial=r[2], wwn=r[3], interface=r[4], first_seen=_dt(r[5]),
                     last_seen=_dt(r[6])) for r in rows]

    def find_drives(self, needle: str) -> list[dict[str, Any]]:
        """Drives whose serial, WWN, model or last device path match `needle`."""
        by_device = self._read("SELECT d.key FROM devices v JOIN drives d ON d.id = v.drive_id "
                               "WHERE v.device = ?", (needle,))
        keys = {r[0] for r in by_device}
        return [d for d in self.drives() if d["key"] in keys or needle in (d["serial"], d["wwn"], d["model"])
                or d["key"] == needle]


def _check_header(path: Path) -> None:
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read history database {path}: {exc.strerror}") from None
    if not header:
        return  # an empty file (touch) is a fresh database
    if not header.startswith(b"SQLite format 3\x00"):
        raise StoreError(f"{path} is not an SQLite database (corrupt, or another kind of file); it was left "
                         "untouched: move it away or pass --db with another file")
