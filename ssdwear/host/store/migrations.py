"""The schema, as append-only named migrations: a database records the ones it has had (ssdwear_migrations), a new
one is appended here and never edited once released."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

Migration = Callable[[sqlite3.Connection], None]
MIGRATIONS: list[tuple[str, Migration]] = []
# How a reading command reads a file that lacks a migration which only added columns or tables: TEMP objects (in its
# connection only; the file is never written by a reader) that stand in for what the migration added, reading as
# NULL or as nothing. A migration that is not here must be applied (by `sample`) before its file can be read.
READ_WITHOUT: dict[str, str] = {}


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


@migration
def m002_fine_counters(db: sqlite3.Connection) -> None:
    """The finer wear counters (issue 19): each sample keeps the drive's best finer counter, and `start` on a drive
    without Intel's timer records a counter window's baseline (the sample at its time) instead of a reset."""
    _run_script(
        db,
        """
        ALTER TABLE samples ADD COLUMN fine_src INTEGER REFERENCES sources(id);  -- the counter ('nand_bytes_written')
        ALTER TABLE samples ADD COLUMN fine INTEGER;          -- its count, in its own unit
        ALTER TABLE samples ADD COLUMN fine_rated INTEGER;    -- the drive's own rating of it (100 % worn), if any
        CREATE TABLE windows (                 -- `start`'s counter-window baselines: nothing was sent to the drive
            drive_id INTEGER NOT NULL REFERENCES drives(id),
            t INTEGER NOT NULL,                -- the baseline sample's time
            device TEXT,
            PRIMARY KEY (drive_id, t)
        );
        """
    )


READ_WITHOUT["m002_fine_counters"] = """
    CREATE TEMP VIEW samples AS SELECT *, NULL AS fine_src, NULL AS fine, NULL AS fine_rated FROM main.samples;
    CREATE TEMP TABLE windows (drive_id INTEGER NOT NULL, t INTEGER NOT NULL, device TEXT, PRIMARY KEY (drive_id, t));
"""


@migration
def m003_alerts(db: sqlite3.Connection) -> None:
    """`ssdwear notify`'s state: the subjects it has met, each alert (a subject and a rule) with its
    episode, and the events not yet delivered to each channel (at-least-once: a delivery cut off is sent again)."""
    _run_script(db, _ALERTS)


_ALERTS = """
        CREATE TABLE alert_subjects (          -- the drives (and redundancy groups) notify has met
            identity TEXT PRIMARY KEY,         -- a drive's key ('model|serial', 'wwn:...'); 'device:PLACE' for a
                                               -- drive that was never read at its place; 'group:KIND:NAME'
            facts TEXT NOT NULL,               -- JSON: what the last run that read it saw
            seen INTEGER NOT NULL,             -- unix milliseconds of that run
            unread INTEGER NOT NULL DEFAULT 0, -- runs in a row since then that did not read it
            retired INTEGER                    -- when another drive was found at its place (no longer looked for)
        );
        CREATE TABLE alerts (
            identity TEXT NOT NULL,
            rule TEXT NOT NULL,
            state TEXT NOT NULL,               -- 'firing' or 'resolved'
            level INTEGER NOT NULL,            -- the thresholds reached (1: the loosest)
            threshold TEXT,
            first_fired INTEGER NOT NULL,      -- this episode's firing
            last_sent INTEGER NOT NULL,        -- its last firing, worse or reminder event
            times_sent INTEGER NOT NULL,       -- those events, each counted once however often it was delivered
            acked_until INTEGER,
            resolved INTEGER,
            clear_since INTEGER,               -- firing, its condition clear since (resolves after resolve_after)
            message TEXT NOT NULL,
            last_event TEXT,                   -- JSON: the last event document (Alertmanager's refresh)
            PRIMARY KEY (identity, rule)
        );
        CREATE TABLE alert_outbox (            -- events not yet delivered, one row per channel
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            channel TEXT NOT NULL,             -- the channel's id (its kind and a hash of its address)
            key TEXT NOT NULL,
            event TEXT NOT NULL,               -- JSON: the event document, sent as it was made
            created INTEGER NOT NULL
        );
        CREATE TABLE alert_channels (          -- a channel failing since, said once on stderr
            channel TEXT PRIMARY KEY,
            failing_since INTEGER,
            error TEXT
        );
"""
# Readers never touch the alerts; `notify --dry-run` on a file not yet upgraded reads them as empty.
READ_WITHOUT["m003_alerts"] = _ALERTS.replace("CREATE TABLE", "CREATE TEMP TABLE")
