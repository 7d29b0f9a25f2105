"""Each place's last read in the history database (migration m004_read_times): how long it took and whether it
finished, for the order of the next run's reads (run/order.py). `sample` and `notify` write it; the readers read it.
Every row is untrusted input: one that is not what ssdwear wrote is left out."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from .queries import MAX_MS, Store


@dataclass(frozen=True)
class LastRead:
    """A place's last read: its seconds (None: it never started, the deadline came first) and whether it finished."""

    seconds: float | None
    unfinished: bool = False  # killed at its timeout, or cut or left unread by the run's deadline


def _seconds(value: object) -> tuple[bool, float | None]:
    if value is None:
        return True, None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        return False, None
    return True, float(value)


def load(store: Store) -> dict[str, LastRead]:
    """Every place's last read, by place; a StoreError when the database cannot be read."""
    out: dict[str, LastRead] = {}
    for place, seconds, unfinished in store.read("SELECT place, seconds, unfinished FROM read_times", ()):
        ok, value = _seconds(seconds)
        if ok and isinstance(place, str) and type(unfinished) is int and unfinished in (0, 1):
            out[place] = LastRead(value, bool(unfinished))
    return out


def record(store: Store, reads: Mapping[str, LastRead], at: datetime) -> None:
    """This run's reads, each replacing its place's last, in one transaction."""
    ms = min(int(at.timestamp() * 1000), MAX_MS)

    def write(db: sqlite3.Connection) -> None:
        db.executemany("INSERT OR REPLACE INTO read_times VALUES (?, ?, ?, ?)",
                       [(place, r.seconds, int(r.unfinished), ms) for place, r in reads.items()])

    store.write(write)
