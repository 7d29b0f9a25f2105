"""notify's rules and transitions (issue 28 items 2-4, and the notify half of 9), pure: facts and a clock in, events
and the new state out."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from support.clock import T0

from ssdwear.assess.alerts import (
    DriveFacts,
    GroupFacts,
    Rules,
    Seen,
    days_text,
    used_percent,
    wears_out_within,
)
from ssdwear.assess.transitions import EMPTY, Observed, State, acknowledge, evaluate, find, firing

DAY = timedelta(days=1)


def drive(serial: str = "S1", device: str = "/dev/sda", *, low_in_days: float | None = None, used: float = 10,
          verdict: str = "keep", model: str = "ACME SSD") -> DriveFacts:
    low = None if low_in_days is None else T0 + low_in_days * DAY
    return DriveFacts(f"{model}|{serial}", model, serial, None, device, "db1", used_percent=used,
                      used_source="nvme_percentage_used", projected=True, method="history:nvme_percentage_used",
                      wears_out_at=None if low is None else low + 200 * DAY, wears_out_low_at=low, verdict=verdict,
                      verdict_reason="why")


def run(state: State, *subjects: DriveFacts | GroupFacts, at: datetime = T0, rules: Rules | None = None,
        failed: tuple[tuple[str, str], ...] = (), complete: bool = True) -> tuple[list[tuple[str, str]], State]:
    outcome = evaluate(Observed(list(subjects), failed, complete), state, rules or Rules(), at)
    return [(t.event, t.rule) for t in outcome.transitions], outcome.state


def test_each_threshold_is_told_once_and_a_figure_wandering_back_says_nothing() -> None:
    events, state = run(EMPTY, drive(low_in_days=300))
    assert events == [("firing", "wears_out_within")]
    assert run(state, drive(low_in_days=290), at=T0 + DAY)[0] == []
    events, state = run(state, drive(low_in_days=170), at=T0 + 2 * DAY)
    assert events == [("worse", "wears_out_within")]
    events, state = run(state, drive(low_in_days=200), at=T0 + 3 * DAY)  # back above 180 days: still within 365
    assert events == []
    events, state = run(state, drive(low_in_days=170), at=T0 + 4 * DAY)  # and below again: told already
    assert events == []
    alert = state.alerts[("ACME SSD|S1", "wears_out_within")]
    assert (alert.level, alert.threshold, alert.times_sent, alert.first_fired) == (2, "180d", 2, T0)


def test_a_projection_rule_resolves_only_after_staying_clear_for_resolve_after() -> None:
    _, state = run(EMPTY, drive(low_in_days=300))
    events, state = run(state, drive(low_in_days=500), at=T0 + DAY)
    assert events == [] and state.alerts[("ACME SSD|S1", "wears_out_within")].firing
    events, state = run(state, drive(low_in_days=300), at=T0 + 10 * DAY)  # within again: the clear spell ends
    assert events == [] and state.alerts[("ACME SSD|S1", "wears_out_within")].clear_since is None
    _, state = run(state, drive(low_in_days=500), at=T0 + 11 * DAY)
    assert run(state, drive(low_in_days=500), at=T0 + 40 * DAY)[0] == []  # clear for 29 days
    events, state = run(state, drive(low_in_days=500), at=T0 + 41 * DAY)
    assert events == [("resolved", "wears_out_within")]
    events, _ = run(state, drive(low_in_days=300), at=T0 + 42 * DAY)  # a new episode
    assert events == [("firing", "wears_out_within")]


def test_a_run_that_cannot_judge_an_alert_starts_its_clear_spell_again() -> None:
    """Clear for resolve_after in a row means seen clear: weeks without the subject (a group not found, a drive not
    read) or without its figure are no part of the spell, so a subject back after a gap does not resolve at once."""
    _, state = run(EMPTY, drive(low_in_days=300))
    _, state = run(state, drive(low_in_days=500), at=T0 + DAY)  # clear from day 1
    _, state = run(state, at=T0 + 10 * DAY, complete=False)  # not in the run: held
    assert state.alerts[("ACME SSD|S1", "wears_out_within")].clear_since is None
    events, state = run(state, drive(low_in_days=500), at=T0 + 40 * DAY)
    assert events == []  # clear on day 1 and day 40, unseen between: a new spell from day 40
    _, state = run(state, replace(drive(), projected=False), at=T0 + 50 * DAY)  # nothing known: held
    events, state = run(state, drive(low_in_days=500), at=T0 + 71 * DAY)
    assert events == []  # a new spell from day 71: 30 days of it on day 101
    assert run(state, drive(low_in_days=500), at=T0 + 101 * DAY)[0] == [("resolved", "wears_out_within")]


def test_no_projection_holds_and_a_date_beyond_any_calendar_is_clear() -> None:
    rules = Rules(resolve_after_minutes=1)
    _, state = run(EMPTY, drive(low_in_days=300), rules=rules)
    unknown = replace(drive(), projected=False)
    events, state = run(state, unknown, at=T0 + 10 * DAY, rules=rules)
    assert events == [] and state.alerts[("ACME SSD|S1", "wears_out_within")].clear_since is None
    events, state = run(state, drive(), at=T0 + 11 * DAY, rules=rules)  # clear from now: resolves at the next run
    assert events == []
    assert run(state, drive(), at=T0 + 12 * DAY, rules=rules)[0] == [("resolved", "wears_out_within")]


def test_used_percent_counts_thresholds_and_says_past_rated_endurance_is_not_failed() -> None:
    events, state = run(EMPTY, drive(used=85))
    assert events == [("firing", "used_percent")]
    assert run(state, drive(used=101), at=T0 + DAY)[0] == [("worse", "used_percent")]  # 90 and 100 at once: one event
    c = used_percent(drive(used=101), Seen(), Rules(), T0)
    assert (c.level, c.threshold) == (3, "100 %")
    assert "past rated endurance is not failed" in c.message and "failed" not in c.message.replace("not failed", "")
    assert used_percent(drive(used=79), Seen(), Rules(), T0).level == 0


def test_the_verdict_rule_is_retire_checks_verdict_keep_watch_retire_and_back() -> None:
    rules = Rules(resolve_after_minutes=1)
    events, state = run(EMPTY, drive(verdict="watch"), rules=rules)
    assert events == [("firing", "verdict")]
    events, state = run(state, drive(verdict="retire"), at=T0 + DAY, rules=rules)
    assert events == [("worse", "verdict")]
    events, state = run(state, drive(verdict="watch"), at=T0 + 2 * DAY, rules=rules)
    assert events == []  # better, but still not keep
    events, state = run(state, drive(verdict="keep"), at=T0 + 3 * DAY, rules=rules)
    assert events == []  # clear: it settles first
    assert run(state, drive(verdict="keep"), at=T0 + 4 * DAY, rules=rules)[0] == [("resolved", "verdict")]


def test_reminders_only_with_remind_and_never_while_acknowledged() -> None:
    never = Rules()
    _, state = run(EMPTY, drive(used=85), rules=never)
    assert run(state, drive(used=85), at=T0 + 400 * DAY, rules=never)[0] == []
    weekly = Rules(remind_minutes=7 * 1440)
    assert run(state, drive(used=85), at=T0 + 6 * DAY, rules=weekly)[0] == []
    events, after = run(state, drive(used=85), at=T0 + 7 * DAY, rules=weekly)
    assert events == [("reminder", "used_percent")]
    assert after.alerts[("ACME SSD|S1", "used_percent")].times_sent == 2
    acked = acknowledge(state, ["ACME SSD|S1"], T0 + 30 * DAY, T0 + DAY)
    assert [(t.event, t.rule) for t in acked.transitions] == [("acknowledged", "used_percent")]
    assert "until 2026-12-30 12:00 UTC, or until it gets worse" in acked.transitions[0].message
    assert run(acked.state, drive(used=85), at=T0 + 14 * DAY, rules=weekly)[0] == []
    events, _ = run(acked.state, drive(used=85), at=T0 + 31 * DAY, rules=never)  # the acknowledgement ended
    assert events == [("reminder", "used_percent")]


def test_a_worse_event_breaks_an_acknowledgement() -> None:
    _, state = run(EMPTY, drive(used=85))
    acked = acknowledge(state, ["ACME SSD|S1"], None, T0)
    assert acked.state.alerts[("ACME SSD|S1", "used_percent")].acked_until is not None
    events, after = run(acked.state, drive(used=95), at=T0 + DAY)
    assert events == [("worse", "used_percent")]
    assert after.alerts[("ACME SSD|S1", "used_percent")].acked_until is None


def test_a_drive_replaced_at_its_place_resolves_its_alerts_and_is_no_longer_looked_for() -> None:
    _, state = run(EMPTY, drive("OLD", used=95, verdict="watch"))
    outcome = evaluate(Observed([drive("NEW", used=1)]), state, Rules(), T0 + DAY)
    resolved = [(t.event, t.rule, t.key) for t in outcome.transitions]
    assert resolved == [("resolved", "used_percent", "ACME SSD|OLD/used_percent"),
                        ("resolved", "verdict", "ACME SSD|OLD/verdict")]
    assert all("replaced by ACME SSD [NEW] at /dev/sda" in t.message for t in outcome.transitions)
    assert outcome.state.known["ACME SSD|OLD"].retired == T0 + DAY
    # the old drive is not counted as unread afterwards, however many runs go by
    state = outcome.state
    for day in range(2, 8):
        events, state = run(state, drive("NEW", used=1), at=T0 + day * DAY)
        assert events == []


def test_drives_that_swap_names_are_not_replaced() -> None:
    _, state = run(EMPTY, drive("A", "/dev/nvme0", used=85), drive("B", "/dev/nvme1", used=85))
    events, state = run(state, drive("A", "/dev/nvme1", used=85), drive("B", "/dev/nvme0", used=85), at=T0 + DAY)
    assert events == [] and all(k.retired is None for k in state.known.values())


def test_a_drive_not_read_in_three_runs_in_a_row_fires_and_resolves_when_read_again() -> None:
    _, state = run(EMPTY, drive())
    failed = (("/dev/sda", "smartctl did not answer within 60 s and was killed"),)
    for day in (1, 2):
        events, state = run(state, at=T0 + day * DAY, failed=failed)
        assert events == []
    outcome = evaluate(Observed([], failed), state, Rules(), T0 + 3 * DAY)
    assert [(t.event, t.rule, t.key) for t in outcome.transitions] == [
        ("firing", "unreadable", "ACME SSD|S1/unreadable")]
    assert "could not be read in 3 runs in a row: smartctl did not answer" in outcome.transitions[0].message
    events, _ = run(outcome.state, drive(), at=T0 + 4 * DAY)
    assert events == [("resolved", "unreadable")]


def test_a_read_between_failures_starts_the_count_again() -> None:
    _, state = run(EMPTY, drive())
    failed = (("/dev/sda", "gone"),)
    for day, read in ((1, False), (2, False), (3, True), (4, False), (5, False)):
        events, state = run(state, *([drive()] if read else []), at=T0 + day * DAY, failed=() if read else failed)
        assert events == []


def test_a_drive_missing_from_a_complete_run_was_not_read_but_one_named_run_counts_nothing() -> None:
    _, state = run(EMPTY, drive("A", "/dev/sda"), drive("B", "/dev/sdb"))
    for day in (1, 2, 3):
        events, _ = run(state, drive("A", "/dev/sda"), at=T0 + day * DAY, complete=False)
        assert events == []
    for day in (1, 2):
        events, state = run(state, drive("A", "/dev/sda"), at=T0 + day * DAY)
        assert events == []
    outcome = evaluate(Observed([drive("A", "/dev/sda")]), state, Rules(), T0 + 3 * DAY)
    assert [(t.event, t.key) for t in outcome.transitions] == [("firing", "ACME SSD|B/unreadable")]
    assert "not found in 3 runs in a row" in outcome.transitions[0].message
    assert "ssdwear notify --ack B" in outcome.transitions[0].message


def test_a_place_never_read_is_known_by_its_place_until_a_drive_is_read_there() -> None:
    failed = (("/dev/bus/0 sat+megaraid,1", "permission denied"),)
    state = EMPTY
    for day in range(3):
        events, state = run(state, at=T0 + day * DAY, failed=failed)
    assert events == [("firing", "unreadable")]
    assert firing(state)[0].key == "device:/dev/bus/0 sat+megaraid,1/unreadable"
    outcome = evaluate(Observed([drive("C", "/dev/bus/0 sat+megaraid,1")]), state, Rules(), T0 + 4 * DAY)
    assert [(t.event, t.key) for t in outcome.transitions] == [
        ("resolved", "device:/dev/bus/0 sat+megaraid,1/unreadable")]
    assert "read again: ACME SSD [C]" in outcome.transitions[0].message


def test_rules_can_be_turned_off() -> None:
    events, _ = run(EMPTY, drive(used=95, verdict="watch", low_in_days=10), rules=Rules(enabled=("used_percent",)))
    assert events == [("firing", "used_percent")]


def test_a_group_rule_is_one_more_rule_over_a_record_of_the_group() -> None:
    """The notify half of issue 28.9: a redundancy group (found elsewhere) is a subject of its own, keyed by its
    kind and uuid (here none: its name), with its own two rules; its drives' rules do not apply to it."""
    identity = "group:md:md0"
    group = GroupFacts(identity, "md0", "md", "raid1", "db1", ("S1", "S2"), redundancy_lost_at=T0 + 300 * DAY,
                       redundancy_lost_low_at=T0 + 150 * DAY, projected=True, lockstep=True,
                       lockstep_reasons=("same model and firmware", "power-on hours within 10 %"))
    outcome = evaluate(Observed([group]), EMPTY, Rules(), T0)
    assert [(t.event, t.rule, t.key, t.threshold) for t in outcome.transitions] == [
        ("firing", "group_redundancy_lost_within", "group:md:md0/group_redundancy_lost_within", "180d"),
        ("firing", "group_lockstep", "group:md:md0/group_lockstep", "lockstep")]
    assert "same model and firmware; power-on hours within 10 %" in outcome.transitions[1].message
    worse = evaluate(Observed([replace(group, redundancy_lost_low_at=T0 + 60 * DAY)]), outcome.state, Rules(),
                     T0 + DAY)
    assert [(t.event, t.threshold) for t in worse.transitions] == [("worse", "90d")]
    assert find(outcome.state, "md0") == [identity]


def test_find_names_a_drive_as_history_does() -> None:
    _, state = run(EMPTY, drive("S436NA0M000001", "/dev/nvme0", model="SAMSUNG MZQLB1T9HAJR-00007"))
    for needle in ("S436NA0M000001", "s436na0m000001", "nvme0", "/dev/nvme0", "SAMSUNG MZQLB1T9HAJR-00007"):
        assert find(state, needle) == ["SAMSUNG MZQLB1T9HAJR-00007|S436NA0M000001"], needle
    assert find(state, "nvme1") == []


def test_an_event_has_a_stable_key_and_an_id_of_its_own() -> None:
    first = evaluate(Observed([drive(used=85)]), EMPTY, Rules(), T0).transitions[0]
    again = evaluate(Observed([drive(used=85)]), EMPTY, Rules(), T0).transitions[0]
    later = evaluate(Observed([drive(used=85)]), EMPTY, Rules(), T0 + DAY).transitions[0]
    assert first.key == later.key == "ACME SSD|S1/used_percent"
    assert first.id == again.id != later.id and len(first.id) == 32


def test_wearing_out_already_says_used_up_not_a_date_ahead() -> None:
    c = wears_out_within(drive(low_in_days=-3), Seen(), Rules(), T0)
    assert c.level == 3 and "used up at the pessimistic rate" in c.message and "not failed" in c.message
    assert days_text(365 * 1440) == "365d" and days_text(36 * 60) == "36h" and days_text(90) == "90m"
