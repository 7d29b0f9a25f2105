"""From one run's facts and the state kept since the last run to events: firing, worse, reminder, resolved,
acknowledged (issue 28). Pure: the state and the clock come in; the events and the new state go out, and the caller
stores the one and delivers the other (run/notify.py).

Each alert (a subject and a rule) fires once when its rule's level first rises above 0, is `worse` once per tighter
threshold (its level within an episode only rises, so a figure wandering across a threshold says nothing new),
says a `reminder` only with `remind` (or when an acknowledgement ends while it still fires), and resolves when its
condition is clear (for the rules that rest on a projection: clear for `resolve_after` in a row, 30 days by
default; a run that cannot judge it, its subject not read or not found, its figure unknown, starts that spell
again). A drive that sat where another drive is now read was replaced: its firing alerts resolve and it is no
longer looked for. A drive that cannot be read is known by the drive last read at its place ('device:PLACE' when
none was); one the run did not find at all, when the run read every drive, was not read either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from ssdwear.model.units import date_text, time_text

from .alerts import (
    ACKNOWLEDGED,
    FIRING,
    REMINDER,
    RESOLVED,
    SETTLING_RULES,
    UNTIL_RESOLVED,
    WORSE,
    AlertState,
    Condition,
    DriveFacts,
    Rules,
    Seen,
    Subject,
    Transition,
    condition,
    rules_for,
)


@dataclass(frozen=True)
class Known:
    """A subject notify has met: its facts as last read, when that was, the runs in a row since that did not read it,
    and when it was found replaced (then it is no longer looked for)."""

    facts: Subject
    seen: datetime
    unread: int = 0
    retired: datetime | None = None


@dataclass(frozen=True)
class State:
    known: Mapping[str, Known]
    alerts: Mapping[tuple[str, str], AlertState]


EMPTY = State({}, {})


@dataclass(frozen=True)
class Observed:
    """One run: the subjects read, the places whose drive could not be read (place, why), and whether the run read
    every drive there is (no DEVICE named): then a known drive missing from it was not read either."""

    present: Sequence[Subject]
    failed: Sequence[tuple[str, str]] = ()
    complete: bool = True


@dataclass(frozen=True)
class Outcome:
    transitions: tuple[Transition, ...]
    state: State


def _event(event: str, alert: AlertState, subject: Subject, message: str, at: datetime, source: str | None = None
           ) -> Transition:
    return Transition(event, alert.rule, subject, message, at, alert.threshold, source, alert.first_fired,
                      alert.times_sent, alert.acked_until)


def step(prev: AlertState | None, cond: Condition, subject: Subject, rule: str, rules: Rules, now: datetime
         ) -> tuple[AlertState | None, Transition | None]:
    """One alert from its stored state and its condition now: the new state, and the event if there is one."""
    if cond.level > 0:
        if prev is not None and prev.clear_since is not None:
            prev = replace(prev, clear_since=None)
        if prev is None or not prev.firing:
            new = AlertState(subject.identity, rule, True, cond.level, cond.threshold, now, now, 1, cond.message)
            return new, _event(FIRING, new, subject, cond.message, now, cond.source)
        if cond.level > prev.level:
            new = replace(prev, level=cond.level, threshold=cond.threshold, last_sent=now,
                          times_sent=prev.times_sent + 1, message=cond.message, acked_until=None)
            return new, _event(WORSE, new, subject, cond.message, now, cond.source)
        since = f"still firing since {date_text(prev.first_fired)}"
        if prev.acked_until is not None:
            if now < prev.acked_until:
                return prev, None
            new = replace(prev, acked_until=None, last_sent=now, times_sent=prev.times_sent + 1, message=cond.message)
            return new, _event(REMINDER, new, subject, f"{since}, and its acknowledgement has ended: {cond.message}",
                               now, cond.source)
        remind = rules.remind_minutes
        if remind is not None and now - prev.last_sent >= timedelta(minutes=remind):
            new = replace(prev, last_sent=now, times_sent=prev.times_sent + 1, message=cond.message)
            return new, _event(REMINDER, new, subject, f"{since}: {cond.message}", now, cond.source)
        return prev, None
    if prev is not None and prev.firing and cond.clear:
        clear = prev.clear_since or now
        if rule in SETTLING_RULES and now - clear < timedelta(minutes=rules.resolve_after_minutes):
            return replace(prev, clear_since=clear), None  # clear, not yet for long enough
        new = replace(prev, firing=False, resolved_at=now, acked_until=None, message=cond.message, clear_since=None)
        return new, _event(RESOLVED, new, subject, cond.message, now, cond.source)
    if prev is not None and prev.clear_since is not None and not cond.clear:
        return replace(prev, clear_since=None), None  # nothing known now: the clear spell must be seen whole
    return prev, None


def _resolve_all(alerts: dict[tuple[str, str], AlertState], subject: Subject, message: str, now: datetime
                 ) -> list[Transition]:
    """Every firing alert of `subject` resolved, with `message` (the subject was replaced, or is read again)."""
    out = []
    for key, alert in sorted(alerts.items()):
        if key[0] == subject.identity and alert.firing:
            alerts[key] = new = replace(alert, firing=False, resolved_at=now, acked_until=None, message=message,
                                        clear_since=None)
            out.append(_event(RESOLVED, new, subject, message, now))
    return out


def _at(known: Mapping[str, Known], place: str, besides: Iterable[str]) -> list[Known]:
    """The drives last read at `place` that are still looked for, the latest first (not those in `besides`)."""
    skip = set(besides)
    return sorted((k for k in known.values() if isinstance(k.facts, DriveFacts) and k.retired is None
                   and k.facts.device == place and k.facts.identity not in skip), key=lambda k: k.seen, reverse=True)


def _placed(present: Sequence[Subject], known: dict[str, Known], alerts: dict[tuple[str, str], AlertState],
            now: datetime) -> list[Transition]:
    """Each drive read now at a place where another drive was last read: that drive was replaced (its alerts
    resolve), or the place's stand-in ('device:PLACE', a drive never read there) is read at last."""
    out: list[Transition] = []
    here = [s.identity for s in present]
    for s in present:
        if not isinstance(s, DriveFacts) or s.device is None:
            continue
        for old in _at(known, s.device, here):
            if old.facts.identity.startswith("device:"):
                message = f"read again: {s.label} at {s.device}"
            else:
                message = f"replaced by {s.label} at {s.device}: its alerts are closed"
            assert isinstance(old.facts, DriveFacts)
            out += _resolve_all(alerts, replace(old.facts, device=s.device), message, now)
            known[old.facts.identity] = replace(old, retired=now)
    return out


def _not_read(seen: Observed, known: dict[str, Known], now: datetime) -> list[Subject]:
    """The drives this run did not read: those that failed (named after the drive last read at their place) and,
    in a complete run, every known drive it did not find. Their counts of runs in a row go up."""
    here = {s.identity for s in seen.present}
    out: list[Subject] = []
    for place, error in seen.failed:
        found = _at(known, place, here)
        if found:
            old = found[0]
        else:
            identity = f"device:{place}"
            old = known.get(identity) or Known(DriveFacts(identity, device=place), now)
            old = replace(old, retired=None)
        known[old.facts.identity] = replace(old, unread=old.unread + 1)
        here.add(old.facts.identity)
        out.append(replace(old.facts, device=place, error=error) if isinstance(old.facts, DriveFacts) else old.facts)
    if seen.complete:
        for identity, old in sorted(known.items()):
            if identity not in here and old.retired is None and isinstance(old.facts, DriveFacts):
                known[identity] = replace(old, unread=old.unread + 1)
                out.append(old.facts)
    return out


def evaluate(seen: Observed, state: State, rules: Rules, now: datetime) -> Outcome:
    """The events of one run, and the state after it."""
    known, alerts = dict(state.known), dict(state.alerts)
    events = _placed(seen.present, known, alerts, now)
    missing = _not_read(seen, known, now)
    for s in seen.present:
        known[s.identity] = Known(s, now)
    judged = set()
    for s in [*seen.present, *missing]:
        unread = known[s.identity].unread
        for rule in rules_for(s, rules):
            if unread and rule != "unreadable":
                continue  # nothing is known of it now: its other alerts hold
            judged.add((s.identity, rule))
            cond = condition(rule, s, Seen(unread), rules, now)
            new, event = step(alerts.get((s.identity, rule)), cond, s, rule, rules, now)
            if new is not None:
                alerts[(s.identity, rule)] = new
            if event is not None:
                events.append(event)
    for key, alert in alerts.items():  # held (not read, a group not found): a clear spell must be seen whole
        if alert.clear_since is not None and key not in judged:
            alerts[key] = replace(alert, clear_since=None)
    return Outcome(tuple(events), State(known, alerts))


def acknowledge(state: State, identities: Sequence[str], until: datetime | None, now: datetime) -> Outcome:
    """Silence the firing alerts of these subjects until `until` (None: until each resolves) or until one gets
    worse: an `acknowledged` event each."""
    alerts = dict(state.alerts)
    end = until or UNTIL_RESOLVED
    said = "it resolves or gets worse" if until is None else f"{time_text(end)}, or until it gets worse"
    events = []
    for key, alert in sorted(alerts.items()):
        if key[0] in identities and alert.firing:
            alerts[key] = new = replace(alert, acked_until=end)
            known = state.known.get(key[0])
            subject = known.facts if known else DriveFacts(key[0])
            events.append(_event(ACKNOWLEDGED, new, subject, f"acknowledged until {said}: {alert.message}", now))
    return Outcome(tuple(events), State(state.known, alerts))


def find(state: State, needle: str) -> list[str]:
    """The identities of the known subjects `needle` names: a serial, WWN, model, the place last read at (`sda` for
    /dev/sda), a group's name or the identity itself; case-insensitive."""
    wanted = {needle.casefold(), needle.casefold().replace(" ", "").removeprefix("0x")} - {""}
    if wanted and not needle.startswith("/"):
        wanted.add(f"/dev/{needle}".casefold())
    out = []
    for identity, known in sorted(state.known.items()):
        f = known.facts
        names = (f.serial, f.wwn, f.model, f.device) if isinstance(f, DriveFacts) else (f.name,)
        if any((n or "").casefold() in wanted for n in (*names, identity)):
            out.append(identity)
    return out


def firing(state: State) -> list[AlertState]:
    return [a for _, a in sorted(state.alerts.items()) if a.firing]
