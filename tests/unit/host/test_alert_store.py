"""notify's state in the history database (migration m003_alerts): an older database is upgraded with its samples
kept, the state reads back as it was written, rows that are not what notify wrote are left out, and the outbox
holds one row per event and channel until each is delivered."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

from support.clock import T0

from ssdwear.assess.alerts import DriveFacts, GroupFacts, Rules
from ssdwear.assess.transitions import Observed, evaluate
from ssdwear.host.store import alerts as alert_store
from ssdwear.host.store.migrations import MIGRATIONS, m001_initial, m002_fine_counters
from ssdwear.host.store.queries import APPLICATION_ID, Store

FACTS = DriveFacts("ACME|S1", "ACME", "S1", "5002538e00000001", "/dev/sda", "db1", used_percent=85.0,
                   used_source="nvme_percentage_used", projected=True, method="lifetime-average",
                   wears_out_at=T0 + timedelta(days=400), wears_out_low_at=T0 + timedelta(days=100), verdict="watch",
                   verdict_reason="wear used 85 %")


def test_the_alerts_migration_upgrades_an_older_database_and_keeps_its_samples(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path, isolation_level=None)  # as 0.2.0's first schema left it: m001 and m002
    m001_initial(db)
    m002_fine_counters(db)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("CREATE TABLE ssdwear_migrations (name TEXT PRIMARY KEY, applied INTEGER)")
    db.executemany("INSERT INTO ssdwear_migrations VALUES (?, 0)", [("m001_initial",), ("m002_fine_counters",)])
    db.execute("INSERT INTO drives (key, model, serial, first_seen, last_seen) VALUES ('M|S', 'M', 'S', 0, 0)")
    db.execute("INSERT INTO samples (drive_id, t, poh, used) VALUES (1, ?, 100, 5)", (int(T0.timestamp() * 1000),))
    db.close()
    assert "m003_alerts" in [name for name, _ in MIGRATIONS]
    with Store.open(path) as store:
        assert [s.used_percent for s in store.samples("M|S")] == [5]
        assert alert_store.load(store).state.known == {}
        names = {r[0] for r in store.db.execute("SELECT name FROM ssdwear_migrations")}
        assert "m003_alerts" in names


def test_the_state_reads_back_as_it_was_decided_and_the_outbox_holds_an_event_per_channel(tmp_path: Path) -> None:
    group = GroupFacts("group:zfs:tank", "tank", "zfs", "mirror", "db1", ("S1", "S2"), lockstep=True)
    with Store.open(tmp_path / "h.db") as store:
        def decide(loaded: alert_store.Loaded) -> alert_store.Decided:
            outcome = evaluate(Observed([FACTS, group]), loaded.state, Rules(), T0)
            return alert_store.Decided(outcome.state, [(t.subject.identity, t.rule, json.dumps({"key": t.key}))
                                                       for t in outcome.transitions])

        decided = alert_store.decide(store, decide, ["stdout", "webhook:abc"], T0)
        back = alert_store.load(store)
        assert back.skipped == 0 and back.state == decided.state
        assert back.state.known["ACME|S1"].facts == FACTS and back.state.known["group:zfs:tank"].facts == group
        rows, bad = alert_store.pending(store)
        keys = sorted(e[0] + "/" + e[1] for e in decided.events)
        assert bad == 0 and sorted(r.key for r in rows) == sorted(keys * 2)
        assert {r.channel for r in rows} == {"stdout", "webhook:abc"}
        alert_store.delivered(store, [r.id for r in rows if r.channel == "stdout"])
        assert {r.channel for r in alert_store.pending(store)[0]} == {"webhook:abc"}
        assert sorted(d["key"] for d in alert_store.firing_events(store)) == keys


def test_rows_that_are_not_what_notify_wrote_are_left_out_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    with Store.open(path) as store:
        alert_store.decide(store, lambda loaded: alert_store.Decided(
            evaluate(Observed([FACTS]), loaded.state, Rules(), T0).state), [], T0)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO alert_subjects VALUES ('x', '{\"subject\": \"drive\", \"identity\": \"x\", "
                   "\"used_percent\": \"lots\"}', 0, 0, NULL)")
        db.execute("INSERT INTO alert_subjects VALUES ('y', 'not json', 0, 0, NULL)")
        db.execute("INSERT INTO alerts (identity, rule, state, level, first_fired, last_sent, times_sent, message) "
                   "VALUES ('x', 'verdict', 'maybe', 1, 0, 0, 1, 'm')")
        db.execute("INSERT INTO alert_outbox (channel, key, event, created) VALUES ('stdout', 'k', '[1]', 0)")
    with Store.open(path, create=False, write=False) as store:
        loaded = alert_store.load(store)
        assert loaded.skipped == 3 and set(loaded.state.known) == {"ACME|S1"}
        assert alert_store.pending(store) == ([], 1)
