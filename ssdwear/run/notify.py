"""One run of `ssdwear notify` (and of `sample`'s notification after its samples): the drives a session assessed as
facts, the rules evaluated against the state in the history (assess/transitions.py), the decision stored with its
events in one transaction (host/store/alerts.py), then every pending event delivered to every channel (host/
channels.py; stdout through the caller's printer), and the `ping:`.

The caller (cli/) gives the two things this layer may not make: each event's document (render/documents.py, in the
envelope) and the printer of the stdout channel. Nothing here prints; the messages for stderr come back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ssdwear.assess.alerts import DriveFacts, GroupFacts, Subject, Transition
from ssdwear.assess.thresholds import Threshold
from ssdwear.assess.transitions import EMPTY, Observed, acknowledge, evaluate, find, firing
from ssdwear.assess.verdict import UNKNOWN, judge
from ssdwear.host.channels import Channel, DeliveryFailed, deliver, ping, post_alerts
from ssdwear.host.notify_config import NotifySettings
from ssdwear.host.store import alerts as alert_store
from ssdwear.model.counts import count_text
from ssdwear.model.errors import HistoryOff, SsdwearError
from ssdwear.model.groups import Group
from ssdwear.model.records import DriveId, DriveReport
from ssdwear.model.units import time_text

from .groups import find_groups
from .session import Assessed, Session

if TYPE_CHECKING:
    from ssdwear.host.store.queries import Store

Document = Callable[[Transition], dict[str, Any]]
Printer = Callable[[Mapping[str, Any]], None]
PING_CHANNEL = "ping"


@dataclass
class Notified:
    """What a run of notify did: the events it made (their documents), the lines for stderr, and whether a channel
    (or the ping) could not deliver."""

    events: list[dict[str, Any]] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    failed: bool = False


def drive_facts(r: DriveReport, thresholds: Mapping[str, Threshold], host: str | None) -> DriveFacts:
    """What the rules see of a drive that was read: its figures, and retire-check's verdict (the one judge)."""
    identity = DriveId.of(r).key or f"device:{r.where}"
    verdict = judge(r, thresholds)
    p = r.projection
    return DriveFacts(identity, r.model, r.serial, r.wwn, r.where, host, used_percent=r.used_percent,
                      used_at_least=r.used_at_least, used_source=r.used_source,
                      rated_used_percent=r.writes.rated_used_percent,
                      projected=p is not None and p.years_remaining_low is not None,
                      method=p.method if p else None, wears_out_at=p.wears_out_at if p else None,
                      wears_out_low_at=p.wears_out_low_at if p else None,
                      verdict=None if verdict.level == UNKNOWN else verdict.level,
                      verdict_reason=verdict.reasons[0] if verdict.reasons and verdict.level != UNKNOWN else None)


def group_facts(g: Group, host: str | None) -> GroupFacts:
    """What the group rules see of a redundancy group: its dates and lockstep, or why they cannot be judged in this
    run (a working member whose drive was not read, more members gone than it survives): then its alerts hold."""
    working = [m for m in g.members if m.working]
    unread = next((m.note or f"{m.member}: its drive was not read" for m in working if m.report is None), None)
    error = f"{count_text(g.missing, 'member')} missing or failed: more than it survives" if g.failed else unread
    members = tuple(m.member if m.report is None else m.report.serial or m.report.wwn or m.member for m in g.members)
    projected = g.tolerates is not None and bool(working) and all(m.projected for m in working)
    return GroupFacts(f"group:{g.key}", g.name, g.kind, g.level, host, members, g.redundancy_lost_at,
                      g.redundancy_lost_low_at, projected, g.lockstep, g.lockstep_reasons, error)


def observed(reports: Sequence[DriveReport], thresholds: Mapping[str, Threshold], host: str | None, complete: bool,
             groups: Sequence[GroupFacts] = ()) -> Observed:
    """One run as the rules see it: the drives read (and the redundancy groups found, each a subject of its own),
    the places whose drive could not be read, and whether every drive was asked for."""
    present: list[Subject] = [drive_facts(r, thresholds, host) for r in reports if not r.error]
    failed = [(r.where, r.error) for r in reports if r.error]
    return Observed([*present, *groups], failed, complete)


def _rows(transitions: Sequence[Transition], docs: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, str]]:
    """The events as the outbox keeps them: (identity, rule, the document as JSON)."""
    return [(t.subject.identity, t.rule, json.dumps(doc, ensure_ascii=False))
            for t, doc in zip(transitions, docs, strict=True)]


def notify_run(session: Session, assessed: Assessed, settings: NotifySettings, *, document: Document,
               printer: Printer, host: str | None, complete: bool, dry_run: bool = False,
               groups: Sequence[Group] | None = None) -> Notified:
    """Evaluate the rules over what the session assessed (and the redundancy groups: those given, else found here
    when a group rule is enabled), store the decision, deliver every pending event. With `dry_run`, print the
    events this run would make, change nothing and send nothing. A group not found in this run holds its alerts."""
    if groups is None:
        groups = find_groups(session, assessed) if settings.rules.judge_groups else ()
    facts = [group_facts(g, host) for g in groups] if settings.rules.judge_groups else []
    seen = observed(assessed.reports, session.config.thresholds, host, complete, facts)
    if dry_run:
        return _dry_run(session, settings, seen, assessed.at, document, printer)
    store = session.store(write=True)
    assert store is not None
    made: list[dict[str, Any]] = []

    def decide(loaded: alert_store.Loaded) -> alert_store.Decided:
        outcome = evaluate(seen, loaded.state, settings.rules, assessed.at)
        made.clear()
        made.extend(document(t) for t in outcome.transitions)
        return alert_store.Decided(outcome.state, _rows(outcome.transitions, made))

    alert_store.decide(store, decide, [c.id for c in settings.channels], assessed.at)
    result = deliver_pending(session, settings, printer, assessed.at)
    result.events = made
    return result


def _dry_run(session: Session, settings: NotifySettings, seen: Observed, now: datetime, document: Document,
             printer: Printer) -> Notified:
    """The events a run would make now, printed; and what waits in the outbox, said."""
    store = session.store()
    loaded = alert_store.load(store) if store is not None else alert_store.Loaded(EMPTY)
    result = Notified()
    for t in evaluate(seen, loaded.state, settings.rules, now).transitions:
        doc = document(t)
        printer(doc)
        result.events.append(doc)
    if store is not None:
        result.messages += _outbox_summary(store, settings)
    if loaded.skipped:
        result.messages.append(f"notify: {loaded.skipped} stored alert rows could not be read and were left out")
    return result


def _outbox_summary(store: Store, settings: NotifySettings) -> list[str]:
    rows, _ = alert_store.pending(store)
    failing = alert_store.channel_failures(store)
    out = []
    for channel in settings.channels:
        count = sum(1 for r in rows if r.channel == channel.id)
        if count or channel.id in failing:
            since = failing.get(channel.id)
            why = f" (failing since {time_text(since[0])}: {since[1]})" if since else ""
            out.append(f"notify: {count} event(s) wait for {channel.name}{why}")
    return out


def _send(channel: Channel, doc: Mapping[str, Any], settings: NotifySettings, printer: Printer, now: datetime) -> None:
    if channel.kind == "stdout":
        printer(doc)
    else:
        deliver(channel, doc, settings.timeout_s, now)


def deliver_pending(session: Session, settings: NotifySettings, printer: Printer, now: datetime) -> Notified:
    """Every event waiting in the outbox, to its channel, oldest first; each row is gone once it was delivered. A
    channel that fails keeps the rest of its events for the next run (said once, when it starts failing) and never
    holds up the others. Alertmanager is told every firing alert again after its events."""
    store = session.store(write=True)
    assert store is not None
    rows, bad = alert_store.pending(store)
    result = Notified()
    configured = {c.id for c in settings.channels}
    dropped = [r.id for r in rows if r.channel not in configured]
    if dropped or bad:
        alert_store.delivered(store, dropped)
        result.messages.append(f"notify: {len(dropped) + bad} pending event(s) for channels no longer in the config "
                               "(or unreadable) were dropped")
    failing = alert_store.channel_failures(store)
    for channel in settings.channels:
        mine = [r for r in rows if r.channel == channel.id]
        error, sent = None, 0
        for row in mine:
            try:
                _send(channel, row.event, settings, printer, now)
            except DeliveryFailed as exc:
                error = str(exc)
                break
            alert_store.delivered(store, [row.id])
            sent += 1
        left = len(mine) - sent
        if error is None and channel.kind == "webhook" and channel.format == "alertmanager":
            error = _refresh(store, channel, settings, now)
        _said(store, channel.id, channel.name, error, left, failing, now, result)
    return result


def _refresh(store: Store, channel: Channel, settings: NotifySettings, now: datetime) -> str | None:
    docs = alert_store.firing_events(store)
    if not docs:
        return None
    try:
        post_alerts(channel, docs, settings.timeout_s, now)
    except DeliveryFailed as exc:
        return str(exc)
    return None


def _said(store: Store, channel_id: str, name: str, error: str | None, left: int,
          failing: Mapping[str, tuple[datetime, str]], now: datetime, result: Notified) -> None:
    """A channel's failure said once, when it starts; its recovery said once too."""
    before = failing.get(channel_id)
    if error is not None:
        result.failed = True
        if before is None:
            waiting = f"; {left} event(s) stay pending and are sent at the next run" if left else ""
            result.messages.append(f"notify: {name}: {error}{waiting}")
            alert_store.set_failing(store, channel_id, now, error)
    elif before is not None:
        result.messages.append(f"notify: {name} delivers again (failing since {time_text(before[0])})")
        alert_store.set_failing(store, channel_id, None)


def ping_run(session: Session, settings: NotifySettings, code: int, now: datetime) -> Notified:
    """The `ping:` after a run (URL/fail after a non-zero exit); its failure said once, as a channel's."""
    result = Notified()
    if settings.ping is None:
        return result
    error = None
    try:
        ping(settings.ping, code != 0, settings.timeout_s)
    except DeliveryFailed as exc:
        error = str(exc)
    store = session.store(write=True) if session.db_path is not None else None
    if store is None:
        if error is not None:
            result.failed = True
            result.messages.append(f"notify: ping: {error}")
        return result
    from ssdwear.host.channels import public_url

    _said(store, PING_CHANNEL, f"ping {public_url(settings.ping)}", error, 0, alert_store.channel_failures(store),
          now, result)
    return result


def acknowledge_run(session: Session, settings: NotifySettings, needle: str, until: datetime | None, now: datetime,
                    *, document: Document, printer: Printer, dry_run: bool = False) -> Notified:
    """`notify --ack DRIVE`: the drive's firing alerts silenced until `until` (None: until each resolves) or a worse
    event, an `acknowledged` event each, delivered like any other."""
    def ack(state: Any) -> tuple[Any, list[Transition]]:
        identities = find(state, needle)
        if not identities:
            raise SsdwearError(f"no drive matching '{needle}' in notify's state: give a serial, WWN, model or device "
                               "path of a drive notify has read")
        if not any(a.identity in identities for a in firing(state)):
            raise SsdwearError(f"'{needle}' has no firing alert to acknowledge")
        outcome = acknowledge(state, identities, until, now)
        return outcome.state, list(outcome.transitions)

    if dry_run:
        store = session.store()
        state = alert_store.load(store).state if store is not None else EMPTY
        result = Notified()
        for t in ack(state)[1]:
            printer(doc := document(t))
            result.events.append(doc)
        return result
    store = session.store(write=True)
    assert store is not None
    made: list[dict[str, Any]] = []

    def decide(loaded: alert_store.Loaded) -> alert_store.Decided:
        state, transitions = ack(loaded.state)
        made[:] = [document(t) for t in transitions]
        return alert_store.Decided(state, _rows(transitions, made))

    alert_store.decide(store, decide, [c.id for c in settings.channels], now)
    result = deliver_pending(session, settings, printer, now)
    result.events = made
    return result


def needs_history(session: Session) -> None:
    """notify keeps its state in the history database: none (--no-history, a replay without --db) is an error."""
    if session.db_path is None:
        why = ("--no-history was given: drop it (notify --dry-run needs none)" if "--no-history" in session.history_off
               else session.history_off)
        raise HistoryOff(f"notify keeps its alerts' state in the history database, but {why}")


__all__ = ["Notified", "acknowledge_run", "deliver_pending", "notify_run", "observed", "ping_run"]
