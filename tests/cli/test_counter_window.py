"""The timed window on any SSD, without touching the drive (issue 19.3): `start`/`measure` on a drive without Intel's
timer store a baseline of its finer counter and send it nothing (the argv logs of the replay runners hold reads
only); `status` and `report` read the window from it, with its range, and say a power-off in it."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.smartctl.replay import ReplayRunner

NVME_X = "smartctl --json=c -x -n standby -d nvme _dev_nvme0"
READS = (("--json=c", "-x"), ("--json=c", "-i"), ("--scan-open", "--json=c"))


def samsung_nvme(tmp_path: Path, timeline: list[tuple[int, int]], minutes: list[int] | None = None) -> Path:
    """fixtures/fleet's Samsung NVMe drive (Percentage Used 10, 400,000,000 Data Units Written, 12,000 hours)
    read once per (power-on hours added, data units added) of `timeline`: a drive whose counters move; with
    `minutes`, each reading is dated (smartctl's local_time) that many minutes after T0."""
    folder = tmp_path / "machine"
    folder.mkdir()
    base = json.loads((FIXTURES / "fleet" / f"{NVME_X}.out").read_text())
    for i, (hours, units) in enumerate(timeline, start=1):
        doc = json.loads(json.dumps(base))
        if minutes is not None:
            at = T0 + timedelta(minutes=minutes[i - 1])
            doc["local_time"] = {"time_t": int(at.timestamp()), "asctime": f"{at:%a %b %e %H:%M:%S %Y} UTC"}
        doc["power_on_time"]["hours"] += hours
        health = doc["nvme_smart_health_information_log"]
        health["power_on_hours"] += hours
        health["data_units_written"] += units
        name = NVME_X + ("" if i == 1 else f"@{i}")
        (folder / f"{name}.out").write_text(json.dumps(doc))
        (folder / f"{name}.rc").write_text("0\n")
    shutil.copy(FIXTURES / "fleet" / "smartctl --scan-open --json=c.out", folder)
    shutil.copy(FIXTURES / "fleet" / "smartctl --scan-open --json=c.rc", folder)
    return folder


class Clocks:
    def __init__(self) -> None:
        self.now, self.ticks = T0, 0.0

    def sleep(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.ticks += seconds


def test_measure_for_60m_on_a_samsung_nvme_gives_a_window_with_a_range_and_sends_nothing(tmp_path: Path) -> None:
    # baseline; 30 minutes on; 60 minutes on, one more power-on hour and 200,000 data units (102.4 GB) written
    folder = samsung_nvme(tmp_path, [(0, 0), (0, 100_000), (1, 200_000)])
    runner, nvme, clocks = ReplayRunner(folder), ReplayRunner(folder, program="nvme"), Clocks()
    app = App(runner=runner, nvme_runner=nvme, db=str(tmp_path / "h.db"), clock=lambda: clocks.now,
              sleep=clocks.sleep, monotonic=lambda: clocks.ticks)
    result = ssdwear_cli(["measure", "/dev/nvme0", "-d", "nvme", "--for", "60m", "--poll", "30m", "--format",
                          "json"], app)
    assert result.exit_code == 0, result.output
    assert all(c[:2] in READS for c in runner.calls), runner.calls  # reads only: no reset, no vendor command
    assert nvme.calls == []  # NVMe 1.2: no Identify Controller for the endurance logs, nothing else either
    drive = json.loads(result.stdout)["drives"][0]
    window = drive["window"]
    assert window["kind"] == "counter" and window["valid"] and window["counter"] == "host_bytes_written"
    assert window["minutes"] == 60 and window["counter_delta"] == 200_000 * 512_000
    # 102.4 GB of 400M units' 10-11 % (the indicator's step) x the calibrated drift of host writes
    assert 0 < window["wear_percent_low"] < window["wear_percent"] < window["wear_percent_high"]
    assert 0.0045 < window["wear_percent"] < 0.006
    assert drive["projection"]["method"] == "window:host_bytes_written"
    assert drive["projection"]["wear_class"] == "window|host"
    low, high = drive["projection"]["percent_per_year_low"], drive["projection"]["percent_per_year_high"]
    assert low < drive["projection"]["percent_per_year"] < high


def test_status_reads_the_counter_window_and_says_a_power_off_in_it(tmp_path: Path) -> None:
    # start, then 5 hours of wall clock in which the drive counted only 2 power-on hours
    folder = samsung_nvme(tmp_path, [(0, 0), (2, 50_000)])
    clocks = Clocks()
    app = App(runner=ReplayRunner(folder), db=str(tmp_path / "h.db"), clock=lambda: clocks.now)
    started = ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme", "--format", "json"], app)
    assert started.exit_code == 0 and json.loads(started.stdout)["results"][0]["status"] == "baseline"
    clocks.now += timedelta(hours=5)
    result = ssdwear_cli(["report", "/dev/nvme0", "-d", "nvme", "--format", "json"], app)
    drive = json.loads(result.stdout)["drives"][0]
    assert drive["window"]["kind"] == "counter" and drive["window"]["valid"]
    assert drive["window"]["minutes"] == 120  # the window's time is its power-on hours
    assert any(w.startswith("power-off in the counter window: 2 power-on hours in 5.0 h") for w in drive["warnings"]), \
        drive["warnings"]
    status = ssdwear_cli(["status", "/dev/nvme0", "-d", "nvme", "--format", "json"], app)
    (row,) = json.loads(status.stdout)["drives"]
    assert row["window_kind"] == "counter" and row["valid"] is True and row["counter"] == "host_bytes_written"
    assert row["reset_at"] == T0.isoformat(timespec="seconds")


def test_a_counter_window_is_not_valid_before_60_minutes(tmp_path: Path) -> None:
    folder = samsung_nvme(tmp_path, [(0, 0), (0, 1_000)])
    clocks = Clocks()
    app = App(runner=ReplayRunner(folder), db=str(tmp_path / "h.db"), clock=lambda: clocks.now)
    ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme"], app)
    clocks.now += timedelta(minutes=20)
    status = ssdwear_cli(["status", "/dev/nvme0", "-d", "nvme", "--format", "json"], app)
    (row,) = json.loads(status.stdout)["drives"]
    assert row["window_kind"] == "counter" and row["valid"] is False and "valid in 40 more minutes" in row["reason"]


def test_a_valid_counter_window_stands_over_the_history(tmp_path: Path) -> None:
    # two days of daily samples, then start, then an hour of work: the window measured the workload, the history
    # does not replace it (as for Intel's timer)
    folder = samsung_nvme(tmp_path, [(0, 0), (24, 1_000_000), (48, 2_000_000), (49, 2_100_000)])
    clocks = Clocks()
    app = App(runner=ReplayRunner(folder), db=str(tmp_path / "h.db"), clock=lambda: clocks.now)
    assert ssdwear_cli(["sample", "/dev/nvme0", "-d", "nvme"], app).exit_code == 0
    clocks.now += timedelta(hours=24)
    assert ssdwear_cli(["sample", "/dev/nvme0", "-d", "nvme"], app).exit_code == 0
    clocks.now += timedelta(hours=24)
    assert ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme"], app).exit_code == 0
    clocks.now += timedelta(hours=1)
    drive = json.loads(ssdwear_cli(["report", "/dev/nvme0", "-d", "nvme", "--format", "json"], app).stdout)["drives"][0]
    assert drive["window"]["kind"] == "counter" and drive["window"]["valid"]
    assert drive["projection"]["method"] == "window:host_bytes_written"


def test_represents_applies_to_a_counter_window_as_to_intels(tmp_path: Path) -> None:
    folder = samsung_nvme(tmp_path, [(0, 0), (0, 100_000), (1, 200_000)])
    clocks = Clocks()
    app = App(runner=ReplayRunner(folder), db=str(tmp_path / "h.db"), clock=lambda: clocks.now,
              sleep=clocks.sleep, monotonic=lambda: clocks.ticks)
    args = ["measure", "/dev/nvme0", "-d", "nvme", "--for", "60m", "--poll", "30m", "--format", "json"]
    plain = json.loads(ssdwear_cli(args, app).stdout)["drives"][0]
    (tmp_path / "b").mkdir()
    folder2 = samsung_nvme(tmp_path / "b", [(0, 0), (0, 100_000), (1, 200_000)])
    clocks2 = Clocks()
    app2 = App(runner=ReplayRunner(folder2), db=str(tmp_path / "h2.db"), clock=lambda: clocks2.now,
               sleep=clocks2.sleep, monotonic=lambda: clocks2.ticks)
    day = json.loads(ssdwear_cli([*args, "--represents", "1d"], app2).stdout)["drives"][0]
    assert day["window"]["represents_minutes"] == 1440 and plain["window"]["represents_minutes"] is None
    # the hour's wear stands for a day: a 24th of the rate
    per_year = plain["projection"]["percent_per_year"]
    assert day["projection"]["percent_per_year"] == pytest.approx(per_year / 24, rel=1e-3)


def test_saved_readings_61_minutes_apart_get_the_live_counter_window(tmp_path: Path) -> None:
    """One window rule for live and saved readings (issue 25.6): `start`, then `report` 61 minutes later (one power-on
    hour and 102.4 GB on), and `analyze` of the same two readings saved with smartctl's clock 61 minutes apart, give
    the same counter window and projection; the saved ones no longer say "they span only 1.0 power-on hours"."""
    folder = samsung_nvme(tmp_path, [(0, 0), (1, 200_000)], minutes=[0, 61])
    clocks = Clocks()
    app = App(runner=ReplayRunner(folder), db=str(tmp_path / "h.db"), clock=lambda: clocks.now)
    assert ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme"], app).exit_code == 0
    clocks.now += timedelta(minutes=61)
    live = json.loads(ssdwear_cli(["report", "/dev/nvme0", "-d", "nvme", "--format", "json"], app).stdout)["drives"][0]
    files = [str(folder / f"{NVME_X}.out"), str(folder / f"{NVME_X}@2.out")]
    result = ssdwear_cli(["analyze", *files, "--format", "json"])
    assert result.exit_code == 0, result.output
    (saved,) = json.loads(result.stdout)["drives"]
    assert "they span only" not in json.dumps(saved)
    for drive in (live, saved):
        assert drive["window"]["kind"] == "counter" and drive["window"]["valid"], drive["window"]
        assert drive["window"]["minutes"] == 61 and drive["projection"]["method"] == "window:host_bytes_written"
    keys = ("wear_percent", "wear_percent_low", "wear_percent_high", "counter_delta", "counter")
    assert {k: saved["window"][k] for k in keys} == {k: live["window"][k] for k in keys}
    for key in ("percent_per_year", "percent_per_year_low", "percent_per_year_high", "years_remaining", "wear_class"):
        assert saved["projection"][key] == live["projection"][key], key
    assert saved["readings"] == 2
    assert f"since the first reading ({NVME_X}.out, 2026-11-30 12:00 UTC)" in saved["window"]["reason"]


def test_saved_readings_under_60_minutes_apart_say_why_no_window_stands(tmp_path: Path) -> None:
    folder = samsung_nvme(tmp_path, [(0, 0), (0, 100_000)], minutes=[0, 40])
    result = ssdwear_cli(["analyze", str(folder / f"{NVME_X}.out"), str(folder / f"{NVME_X}@2.out"), "--format",
                          "json"])
    (saved,) = json.loads(result.stdout)["drives"]
    assert saved["window"]["kind"] == "readings" and not saved["window"]["valid"]
    assert "the lifetime average stands; as a counter window: not valid yet: 40 of 60 minutes since the first " \
           "reading" in saved["window"]["reason"], saved["window"]["reason"]
    assert saved["projection"]["method"] == "lifetime-average"
