"""`ssdwear notify` and `sample`'s notification through the CLI (issue 28 items 1-6): told once per change, on every
channel, kept in the history database; a failing channel retried; two years of a drive wearing out, replayed."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from support.cli import ssdwear_cli
from support.clock import T0, SteppedClock
from support.http import serve
from support.wearing import MODEL, config, logged, machine, put_drive, recorder

from ssdwear.cli.app import App
from ssdwear.run.groups import Tools


def replayed(folder: Path, db: Path, *args: str, clock: SteppedClock | None = None, cfg: Path | None = None) -> Any:
    options = ["--replay", str(folder), "--db", str(db), *(["--config", str(cfg)] if cfg else [])]
    return ssdwear_cli([*options, *args], App(clock=clock or (lambda: T0)))


def test_notify_says_each_change_once_and_exits_0_whatever_fired(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)
    db, clock = tmp_path / "h.db", SteppedClock(T0)
    first = replayed(folder, db, "notify", clock=clock)
    assert first.exit_code == 0, first.stderr
    assert first.stdout.splitlines() == [
        f"FIRING verdict: {MODEL} [N0001] /dev/nvme0: retire-check says WATCH: wear used 85 % of rated endurance "
        "(nvme_percentage_used); keep an eye on it and have a replacement ready",
        f"FIRING used_percent: {MODEL} [N0001] /dev/nvme0: 85 % of its rated endurance used (threshold 80 %): plan "
        "its replacement before it reaches 100 %"]
    assert first.stderr == ""
    clock.advance(hours=1)
    again = replayed(folder, db, "notify", clock=clock)
    assert (again.exit_code, again.stdout, again.stderr) == (0, "", "")  # nothing changed: nothing said
    put_drive(folder, "/dev/nvme0", "N0001", used=92)
    clock.advance(hours=1)
    worse = replayed(folder, db, "notify", "--format", "json", clock=clock)
    (doc,) = [d for line in worse.stdout.splitlines() if (d := json.loads(line))["rule"] == "used_percent"]
    assert (doc["event"], doc["rule"], doc["threshold"], doc["key"]) == (
        "worse", "used_percent", "90 %", f"{MODEL}|N0001/used_percent")
    assert doc["since"] == T0.isoformat(timespec="seconds") and doc["verdict"] == "watch"


def test_a_drive_that_cannot_be_read_is_exit_3_and_fires_after_three_runs(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001", "/dev/nvme1": "N0002"})
    db, clock = tmp_path / "h.db", SteppedClock(T0)
    assert replayed(folder, db, "notify", clock=clock).exit_code == 0
    put_drive(folder, "/dev/nvme1", None)
    for run in (1, 2, 3):
        clock.advance(hours=1)
        result = replayed(folder, db, "notify", clock=clock)
        assert result.exit_code == 3 and result.stderr == ""  # told by the rule, once, not every hour
        assert result.stdout == ("" if run < 3 else f"FIRING unreadable: {MODEL} [N0002] /dev/nvme1: could not be "
                                 "read in 3 runs in a row: no recording of 'smartctl --json=c -x -n standby -d nvme "
                                 f"_dev_nvme1' in {folder}; check that it is there and answering\n")
    put_drive(folder, "/dev/nvme1", "N0002")
    clock.advance(hours=1)
    back = replayed(folder, db, "notify", clock=clock)
    assert back.exit_code == 0 and back.stdout == f"RESOLVED unreadable: {MODEL} [N0002] /dev/nvme1: read again\n"


def test_dry_run_prints_what_would_be_sent_and_changes_nothing(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)
    db = tmp_path / "h.db"
    assert replayed(folder, db, "sample", "--no-notify").exit_code == 0  # the database exists, notify has no state
    before = db.read_bytes()
    dry = replayed(folder, db, "notify", "--dry-run", "--format", "json")
    assert dry.exit_code == 0 and [json.loads(x)["rule"] for x in dry.stdout.splitlines()] == ["verdict",
                                                                                             "used_percent"]
    assert db.read_bytes() == before
    real = replayed(folder, db, "notify", "--format", "json")
    assert [json.loads(x)["id"] for x in real.stdout.splitlines()] == [json.loads(x)["id"]
                                                                       for x in dry.stdout.splitlines()]
    assert replayed(folder, db, "notify", "--dry-run").stdout == ""


def test_notify_needs_the_history_database_except_for_a_dry_run(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)
    refused = ssdwear_cli(["--no-history", "--replay", str(folder), "notify"])
    assert refused.exit_code == 1 and refused.stderr == (
        "ssdwear: notify keeps its alerts' state in the history database, but --no-history was given: drop it "
        "(notify --dry-run needs none)\n")
    monkeypatch.delenv("SSDWEAR_DB")
    replay = ssdwear_cli(["--replay", str(folder), "notify"])
    assert replay.exit_code == 1 and "but a replayed run (--replay) uses one only when it is named" in replay.stderr
    dry = ssdwear_cli(["--no-history", "--replay", str(folder), "notify", "--dry-run"])
    assert dry.exit_code == 0 and dry.stdout.count("FIRING") == 2


def test_sample_notifies_by_itself_with_a_notify_section_and_not_without(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)
    quiet = replayed(folder, tmp_path / "a.db", "sample")
    assert (quiet.exit_code, quiet.stdout) == (0, "")  # no notify: section, as the shipped config
    cfg = config(tmp_path, "notify:\n")
    told = replayed(folder, tmp_path / "b.db", "sample", cfg=cfg)
    assert told.exit_code == 0 and told.stdout.count("FIRING") == 2
    off = replayed(folder, tmp_path / "c.db", "sample", "--no-notify", cfg=cfg)
    assert (off.exit_code, off.stdout) == (0, "")
    asked = replayed(folder, tmp_path / "d.db", "sample", "--notify")
    assert asked.exit_code == 0 and asked.stdout.count("FIRING") == 2
    (tmp_path / "prom").mkdir()
    textfile_only = ssdwear_cli(["--no-history", "--replay", str(folder), "--config", str(cfg), "sample",
                                 "--textfile", str(tmp_path / "prom")])
    assert (textfile_only.exit_code, textfile_only.stdout) == (0, "")
    assert textfile_only.stderr == ("ssdwear: warning: notify skipped: it keeps its state in the history database, "
                                    "and this run has none\n")


def test_ack_silences_a_drive_until_the_date_and_is_itself_an_event(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)
    db, clock = tmp_path / "h.db", SteppedClock(T0)
    cfg = config(tmp_path, "notify:\n  remind: 1d\n")
    replayed(folder, db, "notify", clock=clock, cfg=cfg)
    ack = replayed(folder, db, "notify", "--ack", "nvme0", "--until", "2026-12-10", clock=clock, cfg=cfg)
    assert ack.exit_code == 0 and ack.stdout.splitlines()[1].startswith(
        f"ACKNOWLEDGED verdict: {MODEL} [N0001] /dev/nvme0: acknowledged until 2026-12-10 00:00 UTC, or until it "
        "gets worse: retire-check says WATCH")
    assert ack.stdout.count("ACKNOWLEDGED") == 2
    clock.advance(days=5)
    assert replayed(folder, db, "notify", clock=clock, cfg=cfg).stdout == ""  # a reminder was due: silenced
    clock.advance(days=6)
    ended = replayed(folder, db, "notify", clock=clock, cfg=cfg)
    assert ended.stdout.count("REMINDER") == 2 and "its acknowledgement has ended" in ended.stdout
    for args, code, said in ((["--until", "30d"], 2, "--until goes with --ack DRIVE"),
                             (["--ack", "N0001", "--until", "2020-01-01"], 2, "is not in the future"),
                             (["--ack", "N0001", "--until", "soon"], 2, "give a date (YYYY-MM-DD, UTC) or a duration"),
                             (["--ack", "NOSUCH"], 1, "no drive matching 'NOSUCH' in notify's state")):
        bad = replayed(folder, db, "notify", *args, clock=clock, cfg=cfg)
        assert bad.exit_code == code and said in bad.stderr and "\n" not in bad.stderr.strip()


def test_a_failing_channel_keeps_its_events_says_so_once_and_never_blocks_the_others(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)
    db, clock = tmp_path / "h.db", SteppedClock(T0)
    program, log = recorder(tmp_path)
    with serve() as hook:
        hook.status = 500
        cfg = config(tmp_path, f"notify:\n  channels:\n    - webhook: {hook.url}/hook\n    - command: {program}\n")
        first = replayed(folder, db, "notify", clock=clock, cfg=cfg)
        assert first.exit_code == 3 and [e["rule"] for e in logged(log)] == ["verdict", "used_percent"]
        assert first.stderr == (f"ssdwear: notify: webhook {hook.url}/...: HTTP 500 Internal Server Error; 2 event(s) "
                                "stay pending and are sent at the next run\n")
        clock.advance(hours=1)
        second = replayed(folder, db, "notify", clock=clock, cfg=cfg)
        assert (second.exit_code, second.stderr) == (3, "")  # still failing: said already
        assert len(hook.requests) == 2  # one try a run: the first event failed, the second waited its turn
        assert len(logged(log)) == 2
        hook.status = 200
        clock.advance(hours=1)
        third = replayed(folder, db, "notify", clock=clock, cfg=cfg)
    assert third.exit_code == 0
    assert third.stderr == (f"ssdwear: notify: webhook {hook.url}/... delivers again (failing since 2026-11-30 "
                            "12:00 UTC)\n")
    delivered = [json.loads(r.body) for r in hook.requests[2:]]
    assert [(d["rule"], d["id"]) for d in delivered] == [(e["rule"], e["id"]) for e in logged(log)]
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM alert_outbox").fetchone() == (0,)
        assert conn.execute("SELECT sum(times_sent) FROM alerts").fetchone() == (2,)


def test_the_ping_follows_every_run_and_says_fail_after_a_non_zero_exit(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001", "/dev/nvme1": "N0002"})
    db = tmp_path / "h.db"
    with serve() as check:
        cfg = config(tmp_path, f"notify:\n  ping: {check.url}/ping/abc\n")
        assert replayed(folder, db, "notify", cfg=cfg).exit_code == 0
        assert replayed(folder, db, "sample", cfg=cfg).exit_code == 0
        put_drive(folder, "/dev/nvme1", None)
        assert replayed(folder, db, "sample", cfg=cfg).exit_code == 3
    assert [r.path for r in check.requests] == ["/ping/abc", "/ping/abc", "/ping/abc/fail"]


def test_the_notify_section_is_checked_like_every_key(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"})
    for text, said in (
            ("notify:\n  wears_out_within: [1 year]\n  colour: red\n", ":3: notify.colour: unknown key; known keys: "),
            ("notify:\n  channels:\n    - webhook: ftp://example.org/x\n",
             ":3: notify.channels[0].webhook: expected an http:// or https:// URL with a host, got 'ftp://"),
            ("notify:\n  channels:\n    - mail: '-oQ/tmp/x@example.org'\n",
             ":3: notify.channels[0].mail: expected a mail address"),
            ("notify:\n  channels:\n    - command: notify-me\n", ":3: notify.channels[0].command: must be an absolute"),
            ("notify:\n  channels:\n    - webhook: http://h/x\n      format: slack\n",
             ":4: notify.channels[0].format: must be one of json, alertmanager, got 'slack'"),
            ("notify:\n  channels:\n    - ntfy: https://ntfy.sh/t\n      sendmail: /x\n",
             ":4: notify.channels[0].sendmail: unknown key for a ntfy channel; its options: token"),
            ("notify:\n  rules: [wear]\n", ":2: notify.rules[0]: unknown rule 'wear'; the rules: wears_out_within"),
            ("notify:\n  used_percent: []\n", ":2: notify.used_percent: give at least one threshold"),
            ("notify:\n  unreadable_runs: 0\n", ":2: notify.unreadable_runs: '0' is out of range")):
        cfg = config(tmp_path, text)
        result = replayed(folder, tmp_path / "h.db", "notify", cfg=cfg)
        assert result.exit_code == 1 and said in result.stderr and result.stderr.count("\n") == 1, (text, result.stderr)


def test_the_documented_notify_configs_are_valid_configs(tmp_path: Path) -> None:
    """The README's and monitoring's notify: blocks as given, and the example config's, uncommented."""
    import re

    from support.paths import ROOT

    from ssdwear.host import config as config_mod

    blocks = [b for page in ("README.md", "docs/monitoring.md")
              for b in re.findall(r"```yaml\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.S)
              if "notify:" in b]
    example = (ROOT / "contrib" / "config.yaml.example").read_text(encoding="utf-8")
    blocks.append(re.sub(r"^#", "", example[example.index("#notify:"):], flags=re.M))
    assert len(blocks) == 3
    for text in blocks:
        loaded = config_mod.load([config(tmp_path, text)]).notify
        assert loaded is not None and loaded.channels, text
    assert [c.kind for c in loaded.channels] == ["stdout", "mail", "command", "webhook", "journald", "ntfy"]


@pytest.mark.skipif(os.geteuid() != 0, reason="the trust rules apply to root (CI runs as root)")
def test_as_root_a_config_holding_a_secret_must_be_roots_to_read_alone(tmp_path: Path) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"})
    cfg = config(tmp_path, "notify:\n  channels:\n    - ntfy: https://ntfy.sh/disks\n      token: tk_s3cret\n")
    cfg.chmod(0o644)
    refused = replayed(folder, tmp_path / "h.db", "notify", "--dry-run", cfg=cfg)
    assert refused.exit_code == 1 and refused.stderr == (
        f"ssdwear: {cfg}:4: notify.channels[0].token: holds a secret, but {cfg} is readable by others than root "
        f"(mode 0644): chmod 600 {cfg}\n")
    assert "tk_s3cret" not in refused.stderr
    cfg.chmod(0o600)
    assert replayed(folder, tmp_path / "h.db", "notify", "--dry-run", cfg=cfg).exit_code == 0
    cfg.write_text("notify:\n  channels:\n    - ntfy: https://ntfy.sh/disks\n")  # no secret: 0644 is fine
    cfg.chmod(0o644)
    assert replayed(folder, tmp_path / "h.db", "notify", "--dry-run", cfg=cfg).exit_code == 0


# ------------------------------------------------------------------------------------------------------------
# Replayed: two years of weekly runs of a drive wearing steadily


WEEKS = 104
START_WEEKS = 200 / 3  # power-on weeks before the first run: 40 % at 0.6 % a week, the lifetime rate the same
UNREAD = {20, 21, 40, 41, 42}  # weeks the drive does not answer: twice (no event), then three times (one)


def week_of(doc: dict[str, Any]) -> int:
    from datetime import datetime

    return round((datetime.fromisoformat(doc["generated_at"]) - T0) / timedelta(days=7))


@pytest.mark.slow
def test_two_years_of_a_drive_wearing_out_tell_each_threshold_once(tmp_path: Path, fake_smartctl: Any) -> None:
    """Issue 28.6: a drive wearing 0.6 % a week from 40 %, sampled weekly for two years by the real CLI with a
    real smartctl process (a fake that answers from files) and the clock moved on: one firing per rule, one worse
    per tighter threshold, nothing on every other run, and resolved when another serial takes its place."""
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001", "/dev/nvme1": "QUIET1"})  # nvme1 wears little
    smartctl, _ = fake_smartctl(folder)
    program, log = recorder(tmp_path)
    cfg = config(tmp_path, f"notify:\n  channels:\n    - command: {program}\n")
    clock = SteppedClock(T0)
    app = App(clock=clock, smartctl=str(smartctl), config_file=str(cfg), tools=Tools({}, live=False))  # no group here
    for week in range(WEEKS + 2):
        weeks_on = START_WEEKS + week
        serial = None if week in UNREAD else "N0001" if week < WEEKS else "N0002"
        put_drive(folder, "/dev/nvme0", serial, used=40 + 0.6 * week if serial == "N0001" else 0,
                  poh=round(weeks_on * 168) if serial == "N0001" else 10,
                  written=round(weeks_on * 2_000_000) if serial == "N0001" else 1_000)
        put_drive(folder, "/dev/nvme1", "QUIET1", used=1, poh=100_000 + 168 * week, written=1_000_000 + week)
        result = ssdwear_cli(["sample"], App(**{**app.__dict__, "_config": None}))
        assert result.exit_code == (3 if week in UNREAD else 0), (week, result.stderr)
        clock.advance(days=7)
    events = logged(log)
    told = [(week_of(e), e["event"], e["rule"], e["threshold"]) for e in events]
    by_rule: dict[str, list[tuple[str, str | None]]] = {}
    for _, event, rule, threshold in told:
        by_rule.setdefault(rule, []).append((event, threshold))
    assert by_rule == {
        "wears_out_within": [("firing", "365d"), ("worse", "180d"), ("worse", "90d"), ("resolved", "90d")],
        "verdict": [("firing", "watch"), ("worse", "retire"), ("resolved", "retire")],
        "used_percent": [("firing", "80 %"), ("worse", "90 %"), ("worse", "100 %"), ("resolved", "100 %")],
        "unreadable": [("firing", "3 runs"), ("resolved", "3 runs")]}, told
    weeks = {w for w, *_ in told}
    assert {w for w, event, rule, _ in told if rule == "unreadable"} == {42, 43}  # the third run, the next read
    assert {w for w, event, *_ in told if event == "resolved" and w != 43} == {WEEKS}  # the new serial's week
    assert len(weeks) < 12  # every other one of the 106 runs said nothing
    replaced = [e for e in events if e["event"] == "resolved" and week_of(e) == WEEKS]
    assert all(e["drive"]["serial"] == "N0001" and "replaced by" in e["message"] and "[N0002]" in e["message"]
               for e in replaced)
    keys = {e["key"] for e in events}
    assert keys == {f"{MODEL}|N0001/{rule}" for rule in by_rule}  # one key per alert, stable across two years
    assert all(e["drive"]["host"] for e in events) and len({e["id"] for e in events}) == len(events)
