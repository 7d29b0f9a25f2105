"""WDC's D0h and Micron's E1h vendor logs (issue 27.7b), asked for only from the drives whose PCI vendor and device IDs
nvme-cli's plugins list, read from the machine's sysfs (here the replay's sys/): D0h's NAND writes give the write
amplification, checked against the drive's own lifetime figure; E1h gives the total erase count. Every other drive,
of these vendors or not, is never asked for either log, and one whose IDs cannot be read says so. Replays
fixtures/wdc-micron (hand-made: tools/make_wdc_micron.py) and every other replay machine."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
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
