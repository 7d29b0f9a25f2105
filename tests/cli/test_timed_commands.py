"""start and measure as a sysadmin runs them: --all on a mixed server (issue 17.15), the wait timed by a
monotonic clock (16.5), progress off and on a terminal (17.16), and signals during the vendor command (16.6)."""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES, ROOT

from ssdwear.cli.app import App
from ssdwear.host.store.queries import Store
from ssdwear.render import timed as render
from ssdwear.run.measure import Poll
from ssdwear.run.session import Run
from ssdwear.smartctl.replay import ReplayRunner

INTEL = FIXTURES / "intel"


# -- start --all (17.15) -----------------------------------------------------------------------------------


def mixed_server(tmp_path: Path) -> Path:
    """fixtures/intel (three Intel SATA SSDs and a Samsung) with a QEMU NVMe drive and a SCSI disk from
    fixtures/qemu added to the machine (and to its scan)."""
    folder = tmp_path / "mixed"
    shutil.copytree(INTEL, folder)
    for path in (FIXTURES / "qemu").glob("smartctl --json=c -x -n standby -d *"):
        if "_dev_nvme0" in path.name or "_dev_sdc" in path.name:
            target = path.name.replace("_dev_sdc", "_dev_sde")
            shutil.copy(path, folder / target)
    scan = folder / "smartctl --scan-open --json=c.out"
    doc = json.loads(scan.read_text())
    doc["devices"] += [{"name": "/dev/sde", "info_name": "/dev/sde", "type": "scsi", "protocol": "SCSI"},
                       {"name": "/dev/nvme0", "info_name": "/dev/nvme0", "type": "nvme", "protocol": "NVMe"}]
    scan.write_text(json.dumps(doc))
    return folder


def test_start_all_on_a_mixed_server_skips_the_ineligible_drives_and_exits_0(tmp_path: Path) -> None:
    runner = ReplayRunner(mixed_server(tmp_path))
    result = ssdwear_cli(["start", "--all", "--format", "json"], App(runner=runner, clock=lambda: T0))
    statuses = {r["device"]: r["status"] for r in json.loads(result.stdout)["results"]}
    # the Samsungs (SATA 177, NVMe Data Units Written) have finer counters: counter windows, nothing sent (issue 19)
    assert statuses == {"/dev/sda": "reset", "/dev/sdb": "reset", "/dev/sdc": "reset", "/dev/sdd": "baseline",
                        "/dev/sde": "skipped", "/dev/nvme0": "baseline"}
    assert result.exit_code == 0, result.stderr
    skipped = [line for line in result.stderr.splitlines() if "not eligible" in line]
    assert [line.split(":")[1] for line in skipped] == [" /dev/sde"]
    assert sorted(c[-1] for c in runner.calls if c[:1] == ("-t",)) == ["/dev/sda", "/dev/sdb", "/dev/sdc"]


def test_start_all_on_a_machine_of_qemu_drives_resets_nothing() -> None:
    runner = ReplayRunner(FIXTURES / "qemu")  # its emulated Intel SSD carries no attributes 226-228
    result = ssdwear_cli(["start", "--all", "--format", "json"], App(runner=runner, clock=lambda: T0))
    statuses = {r["device"]: r["status"] for r in json.loads(result.stdout)["results"]}
    # the emulated NVMe drives count Data Units Written: counter windows (nothing sent); the rest is skipped
    assert statuses == {"/dev/sda": "skipped", "/dev/sdb": "skipped", "/dev/sdc": "skipped", "/dev/nvme0": "baseline",
                        "/dev/nvme1": "baseline"}
    assert result.exit_code == 0 and not any(c[:1] == ("-t",) for c in runner.calls)


def test_start_all_lists_skipped_drives_in_the_table(tmp_path: Path) -> None:
    result = ssdwear_cli(["start", "--all"], App(runner=ReplayRunner(mixed_server(tmp_path)), clock=lambda: T0))
    assert result.exit_code == 0
    assert "/dev/sdd  Samsung SSD 860 EVO 1TB [S3Z9NB0K000000X]  BASELINE" in result.stdout
    assert "SKIPPED" in result.stdout and "not eligible:" in result.stdout


def test_start_all_without_intel_drives_starts_counter_windows_and_sends_nothing() -> None:
    runner = ReplayRunner(FIXTURES / "fleet")  # a Samsung NVMe and a Samsung SATA drive
    result = ssdwear_cli(["start", "--all", "--format", "json"], App(runner=runner, clock=lambda: T0))
    assert {r["status"] for r in json.loads(result.stdout)["results"]} == {"baseline"}
    assert result.exit_code == 0 and all(c[:2] in (("--json=c", "-x"), ("--json=c", "-i"), ("--scan-open", "--json=c"))
                                         for c in runner.calls), runner.calls


def test_naming_an_ineligible_drive_stays_a_refusal(tmp_path: Path) -> None:
    # /dev/sde: a SCSI drive without Intel's timer or a finer counter
    result = ssdwear_cli(["start", "/dev/sde", "-d", "scsi", "--format", "json"],
                         App(runner=ReplayRunner(mixed_server(tmp_path)), clock=lambda: T0))
    statuses = {r["device"]: r["status"] for r in json.loads(result.stdout)["results"]}
    assert statuses == {"/dev/sde": "refused"} and result.exit_code == 4
    (sde,) = [r for r in json.loads(result.stdout)["results"] if r["device"] == "/dev/sde"]
    assert "no counter finer than its wear indicator" in sde["message"] and "ssdwear sample" in sde["message"]


# -- measure waits by a monotonic clock (16.5) -------------------------------------------------------------


class SteppedClocks:
    """A monotonic clock moved only by sleep, and a wall clock that also jumps by `step` at the first sleep
    (NTP correcting a clock, or someone setting it by hand)."""

    def __init__(self, step: timedelta) -> None:
        self.now, self.ticks, self.step = T0, 0.0, step

    def sleep(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds) + self.step
        self.step = timedelta(0)
        self.ticks += seconds

    def app(self, tmp_path: Path) -> App:
        return App(runner=ReplayRunner(INTEL), db=str(tmp_path / "h.db"), clock=lambda: self.now,
                   sleep=self.sleep, monotonic=lambda: self.ticks)


@pytest.mark.parametrize("step", [timedelta(days=-1), timedelta(days=1)], ids=["back", "forward"])
def test_a_wall_clock_step_neither_stretches_nor_cuts_the_wait(tmp_path: Path, step: timedelta) -> None:
    clocks = SteppedClocks(step)
    result = ssdwear_cli(["measure", "/dev/sda", "-d", "sat", "--for", "60m", "--poll", "20m", "--represents", "1d",
                  "--format", "json"], clocks.app(tmp_path))
    assert result.exit_code == 0, result.output
    assert clocks.ticks == 60 * 60  # three polls of 20 minutes: a day back does not add a day, a day ahead
    drive = json.loads(result.stdout)["drives"][0]  # does not end the wait at the first poll
    assert drive["window"]["valid"] and drive["window"]["minutes"] == 60  # power-on minutes measure the window
    assert drive["projection"]["years_new_drive"] == pytest.approx(18.7, abs=0.05)


def test_measure_refuses_a_wait_longer_than_the_time_it_stands_for(tmp_path: Path) -> None:
    runner = ReplayRunner(INTEL)
    result = ssdwear_cli(["measure", "/dev/sda", "-d", "sat", "--for", "2d", "--represents", "1d"],
                 App(runner=runner, db=str(tmp_path / "h.db"), clock=lambda: T0))
    assert result.exit_code == 2 and "longer than --represents" in result.stderr
    assert not any(c[:1] == ("-t",) for c in runner.calls)


# -- progress (17.16) --------------------------------------------------------------------------------------


def test_off_a_terminal_measure_prints_a_progress_line_every_few_minutes(tmp_path: Path) -> None:
    clocks = SteppedClocks(timedelta(0))
    result = ssdwear_cli(["measure", "/dev/sda", "-d", "sat", "--for", "60m", "--poll", "1m", "--format", "json"],
                 clocks.app(tmp_path))
    assert result.exit_code == 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("ssdwear: measure: ")]
    # the first poll, then one line every 5 minutes of the wait, and the last one
    assert len(lines) == 13, lines
    assert lines[0].startswith("ssdwear: measure: 1 min of 60 min, 59 min left; /dev/sda: E4h 65535 (counting)")
    assert lines[6].startswith("ssdwear: measure: 31 min of 60 min, 29 min left; /dev/sda: E4h 60 min")
    assert lines[-1].startswith("ssdwear: measure: 60 min of 60 min, done; /dev/sda: E4h 60 min")
    json.loads(result.stdout)  # stdout keeps the data only


def test_on_a_terminal_the_bar_shows_the_total_and_the_time_left(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    out = io.StringIO()
    monkeypatch.setattr(render, "console", lambda stderr=False: Console(file=out, force_terminal=True, width=120,
                                                                        color_system=None))
    with render.progress(enabled=True) as bar:
        bar.show(Poll(20.0, (("/dev/sda", "E4h 20 min"),), Run(()), False), 60.0)
    assert "20 min of 60 min, 40 min left" in out.getvalue() and "E4h 20 min" in out.getvalue()


# -- signals during the vendor command (16.6) --------------------------------------------------------------


def _wait_for(path: Path, text: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not (path.is_file() and text in path.read_text()):
        assert time.monotonic() < deadline, f"{text!r} never appeared in {path}"
        time.sleep(0.05)


@pytest.mark.slow  # 2.5 s each: the fake reset takes 2 s
@pytest.mark.parametrize("signum,group", [(signal.SIGTERM, False), (signal.SIGINT, True)],
                         ids=["SIGTERM-to-ssdwear", "SIGINT-to-the-process-group"])
def test_a_signal_while_the_reset_runs_is_recorded_reported_and_stops_the_run(
        fake_smartctl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int, group: bool) -> None:
    smartctl, log = fake_smartctl(INTEL)
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP", "2")
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP_ON", "vendor,0x40")  # the reset takes 2 s
    db = tmp_path / "h.db"
    proc = subprocess.Popen([sys.executable, "-m", "ssdwear", "--smartctl", str(smartctl), "--db", str(db), "start",
                             "/dev/sda", "/dev/sdb", "-d", "sat", "--format", "json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _wait_for(log, "-t vendor,0x40 -d sat /dev/sda")  # the command is under way (a real ^C reaches both)
        os.killpg(proc.pid, signum) if group else os.kill(proc.pid, signum)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 3, (proc.returncode, stderr)
    results = {r["device"]: r for r in json.loads(stdout)["results"]}
    assert results["/dev/sda"]["status"] == "reset"  # the command was let finish
    assert results["/dev/sdb"]["status"] == "interrupted" and "nothing was sent" in results["/dev/sdb"]["message"]
    name = signal.Signals(signum).name
    assert f"interrupted by {name} while /dev/sda's reset was under way" in stderr
    assert "-t vendor,0x40 -d sat /dev/sdb" not in log.read_text()
    with Store.open(db, create=False, write=False) as store:
        assert store.last_reset("INTEL SSDSA2BZ200G3|CVPR0000SEED710") is not None
        assert store.last_reset("INTEL SSDSA2CW120G3|CVPR0000SEED320") is None


def test_a_reset_the_drive_rejects_leaves_no_record(tmp_path: Path) -> None:
    folder = tmp_path / "machine"
    shutil.copytree(INTEL, folder)
    (folder / "smartctl -t vendor,0x40 -d sat _dev_sda.rc").write_text("4\n")
    (folder / "smartctl -t vendor,0x40 -d sat _dev_sda.out").write_text("smartctl 7.3\nSMART Extended Self-test "
                                                                        "failed: scsi error aborted command\n")
    result = ssdwear_cli(["start", "/dev/sda", "-d", "sat", "--format", "json"],
                 App(runner=ReplayRunner(folder), db=str(tmp_path / "h.db"), clock=lambda: T0))
    assert result.exit_code == 5 and json.loads(result.stdout)["results"][0]["status"] == "rejected"
    with Store.open(tmp_path / "h.db", create=False, write=False) as store:
        assert store.last_reset("INTEL SSDSA2BZ200G3|CVPR0000SEED710") is None
