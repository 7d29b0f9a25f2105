"""The rules of `ssdwear notify` (issue 28), stated as dates and verdicts: what each rule sees in one subject (a drive,
or a redundancy group) at one moment, as a level. Pure: the facts and the clock come in, a Condition goes out.

A rule's level counts the thresholds it has reached (0: none; 1: the loosest; `wears_out_within`'s 365/180/90 days
are levels 1, 2 and 3); a Condition that is not met says whether it is clear enough to resolve a firing alert, or only
holds (a figure unknown in this run, or a date still inside the hysteresis margin). transitions.py turns conditions
and the stored state into events.

A group rule is one more rule over a record of the group (GroupFacts, identity 'group:' and the group's key: its
kind and uuid, else its name): notify finds the redundancy groups when a group rule is enabled and hands their records
to the same evaluation (run/notify.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Final

from ssdwear.model.records import DriveId
from ssdwear.model.units import date_text, percent_text

FIRING: Final = "firing"
WORSE: Final = "worse"
REMINDER: Final = "reminder"
RESOLVED: Final = "resolved"
ACKNOWLEDGED: Final = "acknowledged"
EVENTS = (FIRING, WORSE, REMINDER, RESOLVED, ACKNOWLEDGED)

DRIVE_RULES = ("wears_out_within", "verdict", "used_percent", "unreadable")
GROUP_RULES = ("group_redundancy_lost_within", "group_lockstep")
RULES = DRIVE_RULES + GROUP_RULES
# The rules that rest on a projection: their alerts resolve only once the condition has been clear for `resolve_after`
# (a pessimistic bound that wanders across 365 days as whole-percent steps enter and leave the window would fire and
# resolve every few runs). A wear indicator below a threshold again, or a drive read again, resolves at once.
SETTLING_RULES = ("wears_out_within", "verdict", "group_redundancy_lost_within", "group_lockstep")


@dataclass(frozen=True)
class Rules:
    """The rules' settings: the config's `notify:` section (host/notify_config.py), else these defaults."""

    wears_out_within_minutes: tuple[float, ...] = (365 * 1440, 180 * 1440, 90 * 1440)  # loosest first
    used_percent: tuple[float, ...] = (80.0, 90.0, 100.0)  # loosest first
    unreadable_runs: int = 3  # runs in a row a drive was not read
    remind_minutes: float | None = None  # a firing alert is said again this long after it was last said; None: never
    resolve_after_minutes: float = 30 * 1440  # how long a SETTLING_RULES condition must stay clear to resolve
    enabled: tuple[str, ...] = RULES

    @property
    def judge_groups(self) -> bool:
        """Whether a group rule is enabled: then a run finds the redundancy groups for them."""
        return any(r in self.enabled for r in GROUP_RULES)


@dataclass(frozen=True)
class DriveFacts:
    """What a rule sees of one drive in one run; the last run that read it when this one could not (`error`)."""

    identity: str  # the history's key: 'model|serial', else 'wwn:WWN'; 'device:LOCATION' for a drive never read there
    model: str | None = None
    serial: str | None = None
    wwn: str | None = None
    device: str | None = None  # where it sits (model.records.location: the -d type where drives share a path)
    host: str | None = None
    error: str | None = None  # why this run could not read it (None: read, or absent from the run)
    used_percent: float | None = None
    used_at_least: bool = False
    used_source: str | None = None
    rated_used_percent: float | None = None  # host writes against a rated TBW, where known
    projected: bool = False  # a projection with a pessimistic bound exists (its dates may still be None: > 5,000 years)
    method: str | None = None  # the projection's method
    wears_out_at: datetime | None = None  # central
    wears_out_low_at: datetime | None = None  # pessimistic
    verdict: str | None = None  # retire-check's: keep, watch, retire (None: not judged, or unknown)
    verdict_reason: str | None = None  # its first reason

    @property
    def label(self) -> str:
        return DriveId(self.model, self.serial, self.wwn).label or self.device or self.identity


@dataclass(frozen=True)
class GroupFacts:
    """What a group rule sees of one redundancy group (a mirror, a raidz, an md array) in one run."""

    identity: str  # 'group:KIND:UUID' (model/groups.Group.key: its name where the tool gives no uuid)
    name: str
    kind: str  # zfs, md, lvm, btrfs
    level: str | None = None  # mirror, raidz2, raid1, ...
    host: str | None = None
    members: tuple[str, ...] = ()  # the members' serials
    redundancy_lost_at: datetime | None = None  # when the (k+1)-th member wears out: central
    redundancy_lost_low_at: datetime | None = None  # ... pessimistic
    projected: bool = False
    lockstep: bool = False
    lockstep_reasons: tuple[str, ...] = ()
    error: str | None = None  # why its dates and lockstep cannot be judged in this run (a member not read): it holds

    @property
    def label(self) -> str:
        return f"{self.name} ({' '.join(x for x in (self.kind, self.level) if x)})"

    @property
    def device(self) -> str | None:
        return None


Subject = DriveFacts | GroupFacts


@dataclass(frozen=True)
class Condition:
    """One rule over one subject now: the level reached (0: none), the threshold it is in words, one line saying what
    it means and what to do, the counter it rests on, and whether a level of 0 may resolve a firing alert."""

    level: int
    threshold: str | None = None
    message: str = ""
    source: str | None = None
    clear: bool = True  # with level 0: resolves; False: holds (nothing known now, or inside the hysteresis)


HOLD = Condition(0, clear=False)


@dataclass(frozen=True)
class Seen:
    """What the state knows of a subject beyond its facts: runs in a row it was not read."""

    unread: int = 0


def days_text(minutes: float) -> str:
    """A threshold duration as the config's example writes it: '365d', '12h', '90m'."""
    for unit, size in (("d", 1440), ("h", 60)):
        if minutes >= size and minutes % size == 0:
            return f"{minutes / size:g}{unit}"
    return f"{minutes:g}m"


def _date(at: datetime | None) -> str:
    return "beyond 5,000 years" if at is None else date_text(at)


def _date_threshold(low: datetime | None, projected: bool, rules: Rules, now: datetime
                    ) -> tuple[int, bool, str, str]:
    """Where a pessimistic date stands among `wears_out_within` (loosest first): the level (how many thresholds it
    falls within), whether a level of 0 is clear (no projection: nothing to conclude, it holds), and the loosest
    threshold and the one reached, in words."""
    within = rules.wears_out_within_minutes
    loosest = days_text(within[0]) if within else "-"
    if not projected or not within:
        return 0, False, loosest, loosest
    if low is None:  # projected beyond any date (more than 5,000 years): clear
        return 0, True, loosest, loosest
    left = (low - now).total_seconds() / 60
    level = sum(1 for t in within if left <= t)
    return level, True, loosest, days_text(within[level - 1]) if level else loosest


def wears_out_within(s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    if not isinstance(s, DriveFacts) or s.error:
        return HOLD
    level, clear, loosest, within = _date_threshold(s.wears_out_low_at, s.projected, rules, now)
    if level == 0:
        return Condition(0, message=f"no longer expected to wear out within {loosest} (pessimistic "
                                    f"{_date(s.wears_out_low_at)})", source=s.method, clear=clear)
    assert s.wears_out_low_at is not None
    if s.wears_out_low_at <= now:
        text = (f"its rated endurance is used up at the pessimistic rate (since {_date(s.wears_out_low_at)}): past "
                "rated endurance is not failed; replace it when convenient, and keep its backups current")
    else:
        text = (f"may wear out by {_date(s.wears_out_low_at)} at the pessimistic rate (central "
                f"{_date(s.wears_out_at)}), within {within}: plan its replacement before then")
    return Condition(level, within, text, s.method)


def used_percent(s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    if not isinstance(s, DriveFacts) or s.error or not rules.used_percent:
        return HOLD
    value, source, what = s.used_percent, s.used_source, "of its rated endurance used"
    if value is None and s.rated_used_percent is not None:
        value, source, what = s.rated_used_percent, "host_bytes_written", "of its rated writes (TBW) written"
    if value is None:
        return HOLD
    level = sum(1 for t in rules.used_percent if value >= t)
    shown = percent_text(value, s.used_at_least)
    if level == 0:
        return Condition(0, message=f"{shown} {what}, below {rules.used_percent[0]:g} % again", source=source)
    threshold = rules.used_percent[level - 1]
    if value >= 100:
        advice = ("past rated endurance is not failed, but the vendor no longer promises it: plan its replacement "
                  "and keep its backups current")
    else:
        advice = "plan its replacement before it reaches 100 %"
    return Condition(level, f"{threshold:g} %", f"{shown} {what} (threshold {threshold:g} %): {advice}", source)


_VERDICT_LEVEL = {"keep": 0, "watch": 1, "retire": 2}
_VERDICT_ADVICE = {"watch": "keep an eye on it and have a replacement ready", "retire": "replace it"}


def verdict(s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    if not isinstance(s, DriveFacts) or s.error or s.verdict not in _VERDICT_LEVEL:
        return HOLD
    assert s.verdict is not None
    level = _VERDICT_LEVEL[s.verdict]
    if level == 0:
        return Condition(0, message="retire-check says KEEP again", source=s.used_source)
    why = f": {s.verdict_reason}" if s.verdict_reason else ""
    return Condition(level, s.verdict, f"retire-check says {s.verdict.upper()}{why}; {_VERDICT_ADVICE[s.verdict]}",
                     s.used_source)


def unreadable(s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    if not isinstance(s, DriveFacts):
        return HOLD
    if seen.unread == 0:
        return Condition(0, message="read again")
    if seen.unread < rules.unreadable_runs:
        return HOLD
    runs = f"{rules.unreadable_runs} run{'s' if rules.unreadable_runs != 1 else ''}"
    if s.error:
        text = f"could not be read in {seen.unread} runs in a row: {s.error}; check that it is there and answering"
    else:
        text = (f"not found in {seen.unread} runs in a row: removed, or no longer answering; if it was removed on "
                f"purpose, `ssdwear notify --ack {s.serial or s.wwn or s.identity}` silences it")
    return Condition(1, runs, text)


def group_redundancy_lost_within(s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    if not isinstance(s, GroupFacts) or s.error:
        return HOLD
    level, clear, loosest, within = _date_threshold(s.redundancy_lost_low_at, s.projected, rules, now)
    if level == 0:
        return Condition(0, message=f"no longer expected to lose its redundancy within {loosest}", clear=clear)
    return Condition(level, within, f"may lose its redundancy by {_date(s.redundancy_lost_low_at)} at the pessimistic "
                                    f"rate (central {_date(s.redundancy_lost_at)}), within {within}, when more of its "
                                    "members have worn out than it survives: replace members at different times")


def group_lockstep(s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    if not isinstance(s, GroupFacts) or s.error:
        return HOLD
    if not s.lockstep:
        return Condition(0, message="its members no longer wear in lockstep")
    why = f" ({'; '.join(s.lockstep_reasons)})" if s.lockstep_reasons else ""
    return Condition(1, "lockstep", f"its members wear in lockstep{why}: they may wear out together; replace one "
                                    "early so that their ends fall apart")


RuleFn = Callable[[Subject, Seen, Rules, datetime], Condition]
RULE_FUNCTIONS: Mapping[str, RuleFn] = {
    "wears_out_within": wears_out_within, "verdict": verdict, "used_percent": used_percent,
    "unreadable": unreadable, "group_redundancy_lost_within": group_redundancy_lost_within,
    "group_lockstep": group_lockstep,
}


def rules_for(s: Subject, rules: Rules) -> tuple[str, ...]:
    """The enabled rules that look at this kind of subject."""
    own = DRIVE_RULES if isinstance(s, DriveFacts) else GROUP_RULES
    return tuple(r for r in own if r in rules.enabled)


def condition(rule: str, s: Subject, seen: Seen, rules: Rules, now: datetime) -> Condition:
    return RULE_FUNCTIONS[rule](s, seen, rules, now)


@dataclass(frozen=True)
class AlertState:
    """One alert (a subject and a rule) as the history keeps it between runs."""

    identity: str
    rule: str
    firing: bool
    level: int
    threshold: str | None
    first_fired: datetime  # when this episode fired
    last_sent: datetime  # the last firing, worse or reminder event
    times_sent: int  # the firing, worse and reminder events of this episode, each counted once
    message: str
    acked_until: datetime | None = None
    resolved_at: datetime | None = None
    clear_since: datetime | None = None  # firing, but its condition clear since (SETTLING_RULES wait resolve_after)

    @property
    def key(self) -> str:
        return alert_key(self.identity, self.rule)


def alert_key(identity: str, rule: str) -> str:
    """The event's stable key: the subject's identity and the rule (webhooks and ntfy update in place by it, mail
    threads on it)."""
    return f"{identity}/{rule}"


# An acknowledgement without --until lasts until the alert resolves or gets worse.
UNTIL_RESOLVED = datetime(9999, 12, 31, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Transition:
    """One event: what changed for one alert in this run, and the subject's facts it rests on."""

    event: str
    rule: str
    subject: Subject
    message: str
    at: datetime
    threshold: str | None = None
    source: str | None = None
    first_fired: datetime | None = None
    times_sent: int = 0
    acked_until: datetime | None = None

    @property
    def key(self) -> str:
        return alert_key(self.subject.identity, self.rule)

    @property
    def id(self) -> str:
        """Unique per event and the same whenever the event is delivered again (a receiver drops repeats by it)."""
        text = f"{self.key}\0{self.event}\0{self.at.isoformat()}"
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
