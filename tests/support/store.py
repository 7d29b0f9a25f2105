"""Reads of the history database that only the tests need (the product never counts its samples or reads a
baseline back)."""

from __future__ import annotations

import json
from typing import Any

from ssdwear.host.store.queries import Store


def count_samples(store: Store) -> int:
    return int(store.db.execute("SELECT count(*) FROM samples").fetchone()[0])


def reset_baseline(store: Store, key: str) -> dict[str, Any] | None:
    """The report stored with the drive's latest reset (what `start` wrote just before it sent the reset)."""
    row = store.db.execute("SELECT r.baseline FROM resets r JOIN drives d ON d.id = r.drive_id WHERE d.key = ? "
                           "ORDER BY r.t DESC LIMIT 1", (key,)).fetchone()
    if row is None:
        return None
    baseline = json.loads(row[0])
    return baseline if isinstance(baseline, dict) else None
