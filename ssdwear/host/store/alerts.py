"""`ssdwear notify`'s state in the history database (migration m003_alerts): the subjects met, the alerts, and the
outbox of events not yet delivered.

A run decides and stores in one transaction: the state is read, the caller's decision (assess/transitions.py) made
on it, the new state and one outbox row per event and channel written, and only then is anything delivered. A
delivery cut off (a kill, a crash) leaves its row, which the next run sends again with the same key: at-least-once,
and the state counts the event once. Every row is untrusted input: one that does not read back as what notify wrote
is left out (and counted), never guessed at.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime, timezone
from typing import Any

from ssdwear.assess.alerts import AlertState, DriveFacts, GroupFacts, Subject
from ssdwear.assess.transitions import Known, State
from ssdwear.model.errors import StoreError

from .files import store_error
from .queries import MAX_MS, Store


def _ms(when: datetime) -> int:
    return min(int(when.timestamp() * 1000), MAX_MS)


def _maybe_ms(when: datetime | None) -> int | None:
    return None if when is None else _ms(when)


def _dt(ms: object) -> datetime | None:
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= MAX_MS:
        return None
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


# -- the subjects' facts as JSON ---------------------------------------------------------------------------------


def facts_json(s: Subject) -> str:
    """The facts as stored: every field, the times as ISO text, and which kind of subject it is."""
    out: dict[str, Any] = {"subject": "group" if isinstance(s, GroupFacts) else "drive"}
    for f in fields(s):
        value = getattr(s, f.name)
        out[f.name] = value.isoformat() if isinstance(value, datetime) else list(value) if isinstance(
            value, tuple) else value
    return json.dumps(out, sort_keys=True)


_TYPES: dict[str, tuple[type, ...]] = {"str": (str,), "float": (int, float), "bool": (bool,), "int": (int,)}


def _typed(annotation: str, value: object) -> tuple[bool, object]:
    """Whether `value` fits a field annotated `annotation` (as written in alerts.py), and the value as the field
    holds it (ISO text -> datetime, a list -> a tuple)."""
    optional = annotation.endswith(" | None")
    base = annotation.removesuffix(" | None")
    if value is None:
        return optional, None
    if base == "datetime":
        if not isinstance(value, str):
            return False, None
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            return False, None
        return when.tzinfo is not None, when
    if base == "tuple[str, ...]":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return ok, tuple(value) if ok and isinstance(value, list) else ()
    kinds = _TYPES.get(base)
    if kinds is None or (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        return False, None
    return True, float(value) if base == "float" and isinstance(value, int) else value


def facts_from_json(text: str) -> Subject | None:
    """The facts a row holds, or None when it is not what notify wrote (a damaged or edited database)."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(raw, dict):
        return None
    cls = GroupFacts if raw.get("subject") == "group" else DriveFacts if raw.get("subject") == "drive" else None
    if cls is None:
        return None
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in raw:
            continue
        ok, value = _typed(str(f.type), raw[f.name])
        if not ok:
            return None
        values[f.name] = value
    if not isinstance(values.get("identity"), str) or (cls is GroupFacts and not {"name", "kind"} <= set(values)):
        return None
    return cls(**values)


# -- reading and writing the state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loaded:
    state: State
    skipped: int = 0  # rows that did not read back (left out)


def _read_state(db: sqlite3.Connection) -> Loaded:
    skipped = 0
    known: dict[str, Known] = {}
    for identity, facts, seen, unread, retired in db.execute(
            "SELECT identity, facts, seen, unread, retired FROM alert_subjects"):
        subject = facts_from_json(facts) if isinstance(facts, str) else None
        when = _dt(seen)
        if subject is None or when is None or subject.identity != identity or not isinstance(unread, int) \
                or unread < 0:
            skipped += 1
            continue
        known[identity] = Known(subject, when, unread, _dt(retired))
    alerts: dict[tuple[str, str], AlertState] = {}
    for row in db.execute("SELECT identity, rule, state, level, threshold, first_fired, last_sent, times_sent, "
                          "acked_until, resolved, message, clear_since FROM alerts"):
        alert = _alert(row)
        if alert is None:
            skipped += 1
            continue
        alerts[(alert.identity, alert.rule)] = alert
    return Loaded(State(known, alerts), skipped)


def _alert(row: Sequence[Any]) -> AlertState | None:
    identity, rule, state, level, threshold, first, last, times, acked, resolved, message, clear = row
    first_at, last_at = _dt(first), _dt(last)
    if not (isinstance(identity, str) and isinstance(rule, str) and state in ("firing", "resolved")
            and isinstance(level, int) and not isinstance(level, bool) and isinstance(times, int)
            and first_at is not None and last_at is not None and isinstance(message, str)
            and (threshold is None or isinstance(threshold, str))):
        return None
    return AlertState(identity, rule, state == "firing", level, threshold, first_at, last_at, times, message,
                      _dt(acked), _dt(resolved), _dt(clear))


def load(store: Store) -> Loaded:
    """The state as stored (read-only: `notify --dry-run`)."""
    try:
        return _read_state(store.db)
    except sqlite3.DatabaseError as exc:
        raise store_error(store.path, exc, "reading notify's state") from None


@dataclass(frozen=True)
class Decided:
    """What a run decided: the state after it, and its events as (identity, rule, the event document as JSON)."""

    state: State
    events: Sequence[tuple[str, str, str]] = ()


def _write_state(db: sqlite3.Connection, before: State, after: State) -> None:
    for identity, k in after.known.items():
        if before.known.get(identity) != k:
            db.execute("INSERT OR REPLACE INTO alert_subjects VALUES (?, ?, ?, ?, ?)",
                       (identity, facts_json(k.facts), _ms(k.seen), k.unread, _maybe_ms(k.retired)))
    for key, a in after.alerts.items():
        if before.alerts.get(key) != a:
            db.execute("INSERT INTO alerts (identity, rule, state, level, threshold, first_fired, last_sent, "
                       "times_sent, acked_until, resolved, clear_since, message) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(identity, rule) DO UPDATE SET "
                       "state = excluded.state, level = excluded.level, threshold = excluded.threshold, "
                       "first_fired = excluded.first_fired, last_sent = excluded.last_sent, "
                       "times_sent = excluded.times_sent, acked_until = excluded.acked_until, "
                       "resolved = excluded.resolved, clear_since = excluded.clear_since, message = excluded.message",
                       (a.identity, a.rule, "firing" if a.firing else "resolved", a.level, a.threshold,
                        _ms(a.first_fired), _ms(a.last_sent), a.times_sent, _maybe_ms(a.acked_until),
                        _maybe_ms(a.resolved_at), _maybe_ms(a.clear_since), a.message))


def decide(store: Store, fn: Callable[[Loaded], Decided], channels: Sequence[str], now: datetime) -> Decided:
    """Read the state, let `fn` decide on it and store the decision, all in one transaction (two runs at once
    cannot both fire an alert): the new state, each event's document as its alert's last event, and one outbox
    row per event and channel."""
    def write(db: sqlite3.Connection) -> Decided:
        loaded = _read_state(db)
        decided = fn(loaded)
        _write_state(db, loaded.state, decided.state)
        for identity, rule, doc in decided.events:
            db.execute("UPDATE alerts SET last_event = ? WHERE identity = ? AND rule = ?", (doc, identity, rule))
            key = f"{identity}/{rule}"
            for channel in channels:
                db.execute("INSERT INTO alert_outbox (channel, key, event, created) VALUES (?, ?, ?, ?)",
                           (channel, key, doc, _ms(now)))
        return decided
    result: Decided = store.write(write)
    return result


# -- the outbox and the channels ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pending:
    """An event not yet delivered to a channel."""

    id: int
    channel: str
    key: str
    event: Mapping[str, Any]


def pending(store: Store) -> tuple[list[Pending], int]:
    """The undelivered events, oldest first, and how many rows did not read back (left out)."""
    rows = store.read("SELECT id, channel, key, event FROM alert_outbox ORDER BY id", ())
    out, bad = [], 0
    for row_id, channel, key, event in rows:
        doc = _document(event)
        if not (isinstance(row_id, int) and isinstance(channel, str) and isinstance(key, str)) or doc is None:
            bad += 1
            continue
        out.append(Pending(row_id, channel, key, doc))
    return out, bad


def _document(text: object) -> dict[str, Any] | None:
    if not isinstance(text, str):
        return None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def delivered(store: Store, ids: Sequence[int]) -> None:
    """These outbox rows were delivered (or are dropped): gone, in one transaction."""
    if ids:
        store.write(lambda db: db.executemany("DELETE FROM alert_outbox WHERE id = ?", [(i,) for i in ids]))


def firing_events(store: Store) -> list[dict[str, Any]]:
    """The last event document of every firing alert (what Alertmanager is told again at every run)."""
    rows = store.read("SELECT last_event FROM alerts WHERE state = 'firing' AND last_event IS NOT NULL "
                      "ORDER BY identity, rule", ())
    return [doc for (text,) in rows if (doc := _document(text)) is not None]


def channel_failures(store: Store) -> dict[str, tuple[datetime, str]]:
    """The channels failing since the time, with the error said then."""
    out = {}
    for channel, since, error in store.read("SELECT channel, failing_since, error FROM alert_channels", ()):
        when = _dt(since)
        if isinstance(channel, str) and when is not None:
            out[channel] = (when, str(error or ""))
    return out


def set_failing(store: Store, channel: str, since: datetime | None, error: str | None = None) -> None:
    """Record that `channel` fails since `since` (None: it delivers again)."""
    def write(db: sqlite3.Connection) -> None:
        if since is None:
            db.execute("DELETE FROM alert_channels WHERE channel = ?", (channel,))
        else:
            db.execute("INSERT OR REPLACE INTO alert_channels VALUES (?, ?, ?)", (channel, _ms(since), error))
    store.write(write)


__all__ = ["Decided", "Loaded", "Pending", "StoreError", "decide", "delivered", "load", "pending"]
