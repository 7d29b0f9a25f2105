"""WDC's D0h and Micron's E1h vendor logs (issue 27.7b), asked for only from the drives whose PCI vendor and device IDs
nvme-cli's plugins list, read from the machine's sysfs (here the replay's sys/): D0h's NAND writes give the write
amplification, checked against the drive's own lifetime figure; E1h gives the total erase count. Every other drive,
of these vendors or not, is never asked for either log, and one whose IDs cannot be read says so. Replays
fixtures/wdc-micron (hand-made: tools/make_wdc_micron.py) and every other replay machine."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0, SteppedClock
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.smartctl.replay import ReplayRunner
from tools import make_wdc_micron

MACHINE = FIXTURES / "wdc-micron"
VENDOR_LOGS = ("nvmelog,0xd0,", "nvmelog,0xe1,", "nvmelog,0x00,")


def logs_asked(runner: ReplayRunner) -> list[tuple[str, str]]:
    """(device, log argument) of every -l call made."""
    return sorted((c[-1], c[1]) for c in runner.calls if c[:1] == ("-l",))


def report(machine: Path) -> tuple[dict[str, dict], ReplayRunner]:
    runner = ReplayRunner(machine)
    result = ssdwear_cli(["--replay", str(machine), "--no-history", "report", "--format", "json"],
                         App(runner=runner, clock=lambda: T0))
    assert result.exit_code in (0, 1, 2), result.output
    return {d["device"]: d for d in json.loads(result.stdout)["drives"]}, runner


def test_the_fixture_machine_is_what_its_tool_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(make_wdc_micron, "HERE", tmp_path / "wdc-micron")
    assert make_wdc_micron.main() == 0
    assert make_wdc_micron.tree(tmp_path / "wdc-micron") == make_wdc_micron.tree(MACHINE)


def test_d0h_gives_nand_writes_and_the_drives_own_write_amplification_agrees() -> None:
    drives, _ = report(MACHINE)
    wd = drives["/dev/nvme0"]
    counters = {c["source"]: c for c in wd["counters"]}
    assert "log D0h lifetime NAND writes" in counters["nand_bytes_written"]["detail"]
    assert "x 4,096 B (size settled" in counters["nand_bytes_written"]["detail"]
    writes = wd["writes"]
    assert writes["write_amplification"] == make_wdc_micron.WAF  # ssdwear's: D0h NAND bytes over Data Units Written
    assert writes["drive_write_amplification"] == make_wdc_micron.WAF  # the drive's, its raw 160 over scale 100
    assert writes["drive_write_amplification_hour"] == make_wdc_micron.WAF_HOUR
    assert "log D0h" in writes["sources"]["drive_write_amplification"]
    assert not wd["warnings"], wd["warnings"]


def test_e1h_gives_the_total_erase_count() -> None:
    drives, _ = report(MACHINE)
    micron = drives["/dev/nvme1"]
    (erase,) = [c for c in micron["counters"] if c["source"] == "total_erase_count"]
    expected = micron_health(1)["data_units_written"] * 512_000 // 10**9 * make_wdc_micron.ERASES_PER_GB
    assert erase["value"] == expected and erase["kind"] == "erase" and "log E1h" in erase["detail"]


def micron_health(n: int) -> dict:
    doc = json.loads((MACHINE / f"smartctl --json=c -x -n standby -d nvme _dev_nvme{n}.out").read_text())
    return doc["nvme_smart_health_information_log"]


def test_only_the_listed_ids_are_asked_and_the_others_say_why() -> None:
    drives, runner = report(MACHINE)
    assert logs_asked(runner) == [
        ("/dev/nvme0", "nvmelog,0x00,0x400"), ("/dev/nvme0", "nvmelog,0xd0,0x200"),  # SN640 ID, 00h lists D0h
        ("/dev/nvme1", "nvmelog,0xe1,0x100"),  # an M51CX ID
        ("/dev/nvme2", "nvmelog,0x00,0x400"),  # SN640 ID, but 00h does not list D0h: D0h never asked
    ]  # nvme3 (no sysfs entry), nvme4 (SN650: no D0h check in nvme-cli), nvme5 (M5410): nothing asked
    assert any("Supported Log Pages log (00h) does not list it" in n for n in drives["/dev/nvme2"]["notes"])
    assert any("PCI device ID was not read" in n for n in drives["/dev/nvme3"]["notes"])
    for device in ("/dev/nvme2", "/dev/nvme3", "/dev/nvme4", "/dev/nvme5"):
        assert [c["source"] for c in drives[device]["counters"]] == ["host_bytes_written"], device
        assert drives[device]["writes"]["drive_write_amplification"] is None


def test_without_the_replays_sysfs_no_drive_is_asked_for_d0h_or_e1h() -> None:
    """The same recordings read through an injected runner (no sysfs is theirs): nothing but the notes."""
    runner = ReplayRunner(MACHINE)
    result = ssdwear_cli(["--no-history", "report", "--format", "json"], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0, result.output
    assert logs_asked(runner) == []
    drives = {d["device"]: d for d in json.loads(result.stdout)["drives"]}
    assert all(any("PCI device ID was not read" in n for n in d["notes"]) for d in drives.values())


@pytest.mark.parametrize("machine", sorted(p.name for p in FIXTURES.iterdir()
                                           if (p / "smartctl --scan-open --json=c.out").exists()
                                           and p.name != "wdc-micron"))
def test_no_other_machines_drive_is_asked_for_a_vendor_log_picked_by_pci_ids(machine: str) -> None:
    _, runner = report(FIXTURES / machine)
    assert not [c for c in runner.calls if any(log in " ".join(c) for log in VENDOR_LOGS)], machine


def test_sample_stores_the_d0h_and_e1h_counters(tmp_path: Path) -> None:
    runner, db = ReplayRunner(MACHINE), tmp_path / "h.db"
    result = ssdwear_cli(["--replay", str(MACHINE), "--db", str(db), "sample", "/dev/nvme0", "/dev/nvme1", "-d",
                          "nvme"], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT s.name FROM samples JOIN sources s ON s.id = fine_src ORDER BY t").fetchall()
    assert sorted(r[0] for r in rows) == ["nand_bytes_written", "total_erase_count"]


def measure_an_hour(device: str, tmp_path: Path) -> tuple[dict, ReplayRunner]:
    """`measure DEVICE --for 60m --poll 30m` on a stepped clock, the replay's sysfs given: its drive and the calls."""
    clock = SteppedClock()

    def sleep(seconds: float) -> None:
        clock.advance(seconds=seconds)

    runner = ReplayRunner(MACHINE)
    app = App(runner=runner, db=str(tmp_path / "h.db"), clock=clock, sleep=sleep, sysfs=str(MACHINE / "sys"),
              monotonic=lambda: (clock.now - T0).total_seconds())
    result = ssdwear_cli(["measure", device, "-d", "nvme", "--for", "60m", "--poll", "30m", "--format", "json"], app)
    assert result.exit_code == 0, result.output
    (drive,) = json.loads(result.stdout)["drives"]
    return drive, runner


def test_measure_times_the_micron_window_by_the_drives_own_power_on_minutes(tmp_path: Path) -> None:
    """60 minutes of wall clock in which the drive counted 61 power-on minutes (E1h): the window's time is 61."""
    drive, runner = measure_an_hour("/dev/nvme1", tmp_path)
    window = drive["window"]
    assert window["kind"] == "counter" and window["counter"] == "total_erase_count", window
    assert window["minutes"] == 61, window
    assert "61 min of the drive's own power-on time (log E1h), 60 min of wall-clock time" in window["reason"], window
    assert drive["power_on_minutes"] == micron_health(1)["power_on_hours"] * 60 + 17 + 61
    assert logs_asked(runner) == [("/dev/nvme1", "nvmelog,0xe1,0x100")] * 3


def test_a_power_off_in_a_micron_window_is_found_to_the_minute(tmp_path: Path) -> None:
    """start at T0, report 5 h later while the drive counted 61 power-on minutes: the window is those 61 minutes."""
    runner, db = ReplayRunner(MACHINE), str(tmp_path / "h.db")
    app = App(runner=runner, db=db, clock=lambda: T0, sysfs=str(MACHINE / "sys"))
    assert ssdwear_cli(["start", "/dev/nvme1", "-d", "nvme"], app).exit_code == 0
    runner.run(["--json=c", "-x", "-n", "standby", "-d", "nvme", "/dev/nvme1"])  # the drive's @2 reading, unused
    runner.run(["-l", "nvmelog,0xe1,0x100", "-d", "nvme", "/dev/nvme1"])
    later = App(runner=runner, db=db, clock=lambda: T0 + timedelta(hours=5), sysfs=str(MACHINE / "sys"))
    result = ssdwear_cli(["report", "/dev/nvme1", "-d", "nvme", "--format", "json"], later)
    (drive,) = json.loads(result.stdout)["drives"]
    assert drive["window"]["minutes"] == 61, drive["window"]
    assert any(w.startswith("power-off in the counter window: 61 min of the drive's own power-on time (log E1h) in "
                            "5.0 h of wall-clock time") for w in drive["warnings"]), drive["warnings"]


def test_a_one_hour_window_on_the_wdc_drive_has_the_write_amplification_the_drive_reports(tmp_path: Path) -> None:
    drive, _ = measure_an_hour("/dev/nvme0", tmp_path)
    window = drive["window"]
    assert window["kind"] == "counter" and window["valid"] and window["counter"] == "nand_bytes_written", window
    assert window["write_amplification"] == pytest.approx(make_wdc_micron.WAF_HOUR, abs=0.001)
    assert drive["writes"]["drive_write_amplification_hour"] == make_wdc_micron.WAF_HOUR
    assert not [w for w in drive["warnings"] if "write amplification" in w], drive["warnings"]
