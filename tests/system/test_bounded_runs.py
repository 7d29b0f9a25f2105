"""Bounded runs at the surface they live at (issue 29, 1-3): smartctl processes that hang or are slow (the fake
smartctl, a real process each call, killed as a real one is), the textfile node_exporter reads, real `sample`,
`start` and `report` processes that overlap, and the lock files beside the history database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES, ROOT

from ssdwear.cli.app import App
from ssdwear.host import platforms
from ssdwear.host.store.lock import lock_path, resetting, run_lock
from ssdwear.host.store.queries import Store
from ssdwear.smartctl.replay import ReplayRunner
from ssdwear.smartctl.runner import CallResult

INTEL = FIXTURES / "intel"  # four SATA drives, /dev/sda-/dev/sdd -d sat; a scan lists them


def series(textfile: Path) -> dict[str, float]:
    """The exposition's samples: 'name{labels}' -> value."""
    lines = (textfile / "ssdwear.prom").read_text().splitlines()
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in lines if not line.startswith("#")}


def of(found: dict[str, float], name: str, device: str) -> list[tuple[str, float]]:
    return [(key, value) for key, value in found.items()
            if key.startswith(name + "{") and f'device="{device}"' in key]


def samples(db: Path) -> int:
    with Store.open(db, create=False, write=False) as store:
        return int(store.db.execute("SELECT count(*) FROM samples").fetchone()[0])


# -- item 1: the per-call timeout and the run deadline ---------------------------------------------------------


@pytest.mark.slow
def test_a_hung_drive_is_killed_at_its_timeout_and_is_read_ok_0_with_its_reason(fake_smartctl, monkeypatch,
                                                                                 tmp_path: Path) -> None:
    smartctl, _ = fake_smartctl(INTEL)
    monkeypatch.setenv("FAKE_SMARTCTL_HANG", "/dev/sdb")
    textfile = tmp_path / "textfile"
    textfile.mkdir()
    began = time.monotonic()
    result = ssdwear_cli(["--smartctl", str(smartctl), "--timeout", "2", "sample", "--textfile", str(textfile)])
    took = time.monotonic() - began
    assert result.exit_code == 3 and took < 10, (result.stderr, took)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ssdwear: /dev/sdb: smartctl did not answer within 2 s")
    found = series(textfile)
    assert of(found, "ssdwear_read_ok", "/dev/sdb") == [('ssdwear_read_ok{device="/dev/sdb",reason="timeout"}', 0)]
    assert of(found, "ssdwear_read_ok", "/dev/sda") == [
        ('ssdwear_read_ok{device="/dev/sda",model="INTEL SSDSA2BZ200G3",serial="CVPR0000SEED710"}', 1)]
    [(_, hung)] = of(found, "ssdwear_read_duration_seconds", "/dev/sdb")
    [(_, quick)] = of(found, "ssdwear_read_duration_seconds", "/dev/sda")
    assert 2 <= hung < 3 and 0 < quick < 2
    assert 2 <= found["ssdwear_run_duration_seconds"] < took and found["ssdwear_drives"] == 4
    assert samples(tmp_path / "history.db") == 3  # the three drives read


@pytest.mark.slow
def test_a_drive_behind_a_usb_bridge_gets_10_seconds_by_default(fake_smartctl, monkeypatch, tmp_path: Path) -> None:
    """Both ways a USB bridge is known: its own -d type (sntjmicron), and -d sat on a device sysfs places below a USB
    device (platforms.on_usb, here answering for /dev/sdc); /dev/sda answers and is read."""
    smartctl, _ = fake_smartctl(INTEL)
    monkeypatch.setenv("FAKE_SMARTCTL_HANG", "/dev/sdb,/dev/sdc")
    monkeypatch.setattr(platforms, "on_usb", lambda device: device == "/dev/sdc")
    config = tmp_path / "c.yaml"
    config.write_text("devices:\n  - {device: /dev/sda, type: sat}\n  - {device: /dev/sdb, type: sntjmicron}\n"
                      "  - {device: /dev/sdc, type: sat}\n")
    began = time.monotonic()
    result = ssdwear_cli(["--smartctl", str(smartctl), "--config", str(config), "--no-history", "report", "--format",
                          "json"])
    took = time.monotonic() - began
    drives = {d["device"]: d for d in json.loads(result.stdout)["drives"]}
    assert result.exit_code == 3 and 10 <= took < 16, took
    for hung in ("/dev/sdb", "/dev/sdc"):
        assert drives[hung]["error_reason"] == "timeout" and "did not answer within 10 s" in drives[hung]["error"]
    assert drives["/dev/sda"]["error"] is None and drives["/dev/sda"]["error_reason"] is None


@pytest.mark.slow
def test_the_deadline_leaves_the_drives_not_read_and_the_run_completes(fake_smartctl, monkeypatch,
                                                                       tmp_path: Path) -> None:
    """Every call takes 1 s, one drive at a time: the scan and /dev/sda and /dev/sdb are done by 3 s, /dev/sdc is
    being read when the 4 s deadline comes (killed), /dev/sdd's turn never comes. The samples of the two read are
    stored, the textfile names all four, the exit status says some were not read."""
    smartctl, log = fake_smartctl(INTEL)
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP", "1")
    textfile = tmp_path / "textfile"
    textfile.mkdir()
    began = time.monotonic()
    result = ssdwear_cli(["--smartctl", str(smartctl), "--workers", "1", "sample", "--deadline", "4s", "--textfile",
                          str(textfile)])
    took = time.monotonic() - began
    assert result.exit_code == 3 and 4 <= took < 6, (result.stderr, took)
    said = dict(line.removeprefix("ssdwear: ").split(": ", 1) for line in result.stderr.strip().splitlines())
    assert sorted(said) == ["/dev/sdc", "/dev/sdd"]
    assert said["/dev/sdc"].startswith("not read: smartctl was still reading it when the run's deadline (4 s")
    assert said["/dev/sdd"].startswith("not read: the run's deadline (4 s: --deadline, run_deadline) passed before")
    found = series(textfile)
    assert [value for device in ("/dev/sda", "/dev/sdb") for _, value in of(found, "ssdwear_read_ok", device)] == [1, 1]
    for device in ("/dev/sdc", "/dev/sdd"):
        assert of(found, "ssdwear_read_ok", device) == [(f'ssdwear_read_ok{{device="{device}",reason="deadline"}}', 0)]
    assert of(found, "ssdwear_read_duration_seconds", "/dev/sdd") == []  # never started
    assert samples(tmp_path / "history.db") == 2
    assert "/dev/sdd" not in log.read_text()  # no call after the deadline


class Slow(ReplayRunner):
    """The recordings, each call taking `each` seconds of a fake monotonic clock (nothing sleeps)."""

    def __init__(self, folder: Path, each: float) -> None:
        super().__init__(folder)
        self.ticks, self.each = 0.0, each

    def monotonic(self) -> float:
        return self.ticks

    def run(self, args: Sequence[str]) -> CallResult:
        self.ticks += self.each
        return super().run(args)


@pytest.mark.parametrize("args,unread", [
    (["sample"], ["/dev/sdc", "/dev/sdd"]),  # 120 s: the scan (50 s), sda (100 s) and sdb (150 s) started in time
    (["notify"], ["/dev/sdc", "/dev/sdd"]),
    (["check"], ["/dev/sdc", "/dev/sdd"]),
    (["report", "--format", "json"], []),  # no deadline of its own
    (["status", "--format", "json"], []),
    (["sample", "--deadline", "none"], []),
    (["--deadline", "60s", "report", "--format", "json"], ["/dev/sdb", "/dev/sdc", "/dev/sdd"]),
    (["--config", "{config}", "report", "--format", "json"], ["/dev/sdd"]),  # run_deadline: 3m
    (["--config", "{config}", "sample", "--deadline", "2m"], ["/dev/sdc", "/dev/sdd"]),  # the option wins
    (["--config", "{none}", "check"], []),  # run_deadline: none
])
def test_each_command_has_its_own_deadline_unless_one_is_given(tmp_path: Path, args: list[str],
                                                               unread: list[str]) -> None:
    config, none = tmp_path / "c.yaml", tmp_path / "none.yaml"
    config.write_text("run_deadline: 3m\n")
    none.write_text("run_deadline: none\n")
    slow = Slow(INTEL, each=50)
    app = App(runner=slow, clock=lambda: T0, monotonic=slow.monotonic, workers=1)
    result = ssdwear_cli(["--db", str(tmp_path / "h.db"), *[a.format(config=config, none=none) for a in args]], app)
    command = next(a for a in args if a in ("sample", "notify", "check", "report", "status"))
    asked = {call[-1] for call in slow.calls}
    assert sorted({"/dev/sda", "/dev/sdb", "/dev/sdc", "/dev/sdd"} - asked) == unread  # no call after the deadline
    said = {line.split(": ")[1] for line in result.stderr.splitlines() if "deadline" in line}
    if command == "check":  # the plugin's lines, one per drive
        said = {line.split(": ")[0] for line in result.stdout.splitlines() if "deadline" in line}
    if command == "notify":  # an unreadable drive is told by its rule, after unreadable_runs runs: exit 3 says it now
        said = set(unread) if result.exit_code == 3 else set()
    assert sorted(said) == unread, result.output + result.stderr
    if command != "check":  # (check's state is its drives': /dev/sdb is to be retired)
        assert result.exit_code == (3 if unread else 0), result.output


# -- item 2: one run at a time ---------------------------------------------------------------------------------


def ssdwear_process(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "ssdwear", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, **env, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow
def test_two_sample_runs_started_together_read_each_drive_once_each_one_after_the_other(fake_smartctl, monkeypatch,
                                                                                        tmp_path: Path) -> None:
    smartctl, _ = fake_smartctl(INTEL)
    stamps = tmp_path / "stamps"
    env = {"FAKE_SMARTCTL_SLEEP": "0.3", "FAKE_SMARTCTL_STAMPS": str(stamps)}
    db = tmp_path / "h.db"
    runs = [ssdwear_process("--smartctl", str(smartctl), "--db", str(db), "sample", env=env) for _ in range(2)]
    for run in runs:
        _, err = run.communicate(timeout=60)
        assert run.returncode == 0, err
    calls = [line.split(" ", 3) for line in stamps.read_text().splitlines()]
    by_run: dict[str, list[tuple[float, float, str]]] = {}
    for pid, start, end, argv in calls:
        by_run.setdefault(pid, []).append((float(start), float(end), argv))
    assert sorted(by_run) == sorted(str(run.pid) for run in runs)
    for made in by_run.values():  # each run: one scan and one read of each drive
        reads = Counter(argv.rsplit(" ", 1)[1] for _, _, argv in made if "-x" in argv.split())
        assert reads == {"/dev/sda": 1, "/dev/sdb": 1, "/dev/sdc": 1, "/dev/sdd": 1}
        assert sum(1 for _, _, argv in made if argv.startswith("--scan-open")) == 1 and len(made) == 5
    first, second = sorted(by_run.values(), key=lambda made: min(start for start, _, _ in made))
    assert max(end for _, end, _ in first) <= min(start for start, _, _ in second)  # never interleaved
    assert samples(db) == 8


def test_a_second_run_waits_up_to_run_lock_wait_then_exits_6_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    config = tmp_path / "c.yaml"
    config.write_text("run_lock_wait: 90s\n")
    waited: list[float] = []
    ticks = [0.0]

    def sleep(seconds: float) -> None:
        waited.append(seconds)
        ticks[0] += seconds

    runner = ReplayRunner(INTEL)
    app = App(runner=runner, clock=lambda: T0, sleep=sleep, monotonic=lambda: ticks[0])
    with run_lock(db, "sample", 1, time.sleep, time.monotonic, T0):  # another run holds it
        for command in (["sample"], ["notify"], ["start", "/dev/sda"], ["measure", "/dev/sda", "--for", "1m"]):
            result = ssdwear_cli(["--db", str(db), "--config", str(config), *command], app)
            lines = result.stderr.strip().splitlines()
            assert result.exit_code == 6 and len(lines) == 1, result.stderr
            assert lines[0] == (f"ssdwear: another ssdwear run (sample, pid {os.getpid()}, since 2026-11-30 12:00:00 "
                                f"UTC) held {db}.lock for longer than 1.5 min (run_lock_wait): this {command[0]} did "
                                "not run (two at once would read every drive twice); the next one will")
            assert 89.9 <= sum(waited) < 90.5 and runner.calls == []  # it waited, then read nothing
            waited.clear()
        report = ssdwear_cli(["--db", str(db), "report", "--format", "json"], app)  # a reader never waits
        assert report.exit_code == 0 and waited == [] and len(runner.calls) == 5
    assert ssdwear_cli(["--db", str(db), "sample"], app).exit_code == 0


def test_a_reader_leaves_the_drive_another_run_is_resetting_and_reads_the_others(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    runner = ReplayRunner(INTEL)
    app = App(runner=runner, clock=lambda: T0)
    assert ssdwear_cli(["--db", str(db), "sample"], app).exit_code == 0  # the lock files exist from here on
    with run_lock(db, "start", 1, time.sleep, time.monotonic, T0), \
            resetting(db, [("/dev/sda", "sat")], 1, time.sleep, time.monotonic):
        before = len(runner.calls)
        result = ssdwear_cli(["--db", str(db), "report", "--format", "json"], app)
        drives = {d["device"]: d for d in json.loads(result.stdout)["drives"]}
        assert result.exit_code == 3 and drives["/dev/sda"]["error_reason"] == "resetting"
        assert drives["/dev/sda"]["error"] == (f"not read: another ssdwear run (pid {os.getpid()}) is resetting its "
                                               "timer now; read it again in a minute")
        assert all(drives[d]["error"] is None for d in ("/dev/sdb", "/dev/sdc", "/dev/sdd"))
        assert not any(call[-1] == "/dev/sda" for call in runner.calls[before:])  # never asked
        check = ssdwear_cli(["--db", str(db), "check"], app)
        assert "/dev/sda: cannot read" in check.stdout and "resetting its timer" in check.stdout
        nothing = ssdwear_cli(["--no-history", "report", "/dev/sda", "-d", "sat"], app)  # no database: it still knows
        assert "resetting its timer" in nothing.stdout + nothing.stderr
    after = ssdwear_cli(["--db", str(db), "report", "--format", "json"], app)
    assert after.exit_code == 0


@pytest.mark.slow
def test_report_during_a_real_start_skips_the_drive_being_reset_and_does_not_wait(fake_smartctl, monkeypatch,
                                                                                 tmp_path: Path) -> None:
    smartctl, log = fake_smartctl(INTEL)
    start = ssdwear_process("--smartctl", str(smartctl), "start", "/dev/sda", "-d", "sat",
                            env={"FAKE_SMARTCTL_SLEEP": "4", "FAKE_SMARTCTL_SLEEP_ON": "vendor,0x40"})
    try:
        for _ in range(300):  # until the reset has been sent (the fake logs a call as it starts)
            if log.exists() and "-t vendor,0x40 -d sat /dev/sda" in log.read_text():
                break
            time.sleep(0.05)
        else:
            pytest.fail("start never sent the reset")
        began = time.monotonic()
        result = ssdwear_cli(["--smartctl", str(smartctl), "report", "--format", "json"])
        took = time.monotonic() - began
        drives = {d["device"]: d for d in json.loads(result.stdout)["drives"]}
        assert drives["/dev/sda"]["error_reason"] == "resetting" and f"(pid {start.pid})" in drives["/dev/sda"]["error"]
        assert all(drives[d]["error"] is None for d in ("/dev/sdb", "/dev/sdc", "/dev/sdd")) and took < 3.5, took
    finally:
        _, err = start.communicate(timeout=60)
    assert start.returncode == 0, err
    assert ssdwear_cli(["--smartctl", str(smartctl), "report", "--format", "json"]).exit_code == 0


def test_as_root_a_lock_file_others_could_change_is_refused(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the trust rules apply to root (CI runs as root)")
    db = tmp_path / "private" / "h.db"
    db.parent.mkdir()
    app = App(runner=ReplayRunner(INTEL), clock=lambda: T0)
    lock = lock_path(db)
    lock.write_text("")
    os.chown(lock, 1000, 1000)
    result = ssdwear_cli(["--db", str(db), "sample"], app)
    assert result.exit_code == 1 and f"refusing lock file {lock}: owned by " in result.stderr
    assert "uid 1000" in result.stderr
    lock.unlink()
    lock.symlink_to(tmp_path / "elsewhere")
    result = ssdwear_cli(["--db", str(db), "sample"], app)
    assert result.exit_code == 1 and f"{lock} is a symbolic link" in result.stderr
    assert not (tmp_path / "elsewhere").exists()
    lock.unlink()
    assert ssdwear_cli(["--db", str(db), "sample"], app).exit_code == 0
