"""Drives that share one device path (a RAID controller's pass-through, a port multiplier's or USB bridge's
ports): each keeps its -d type wherever it is named, read or not, and in the device -> serial memory."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES
from support.tools import scrape_textfile

from ssdwear.cli.app import App
from ssdwear.model.records import location
from ssdwear.smartctl.replay import ReplayRunner

MEGARAID = FIXTURES / "raid" / "megaraid"


@pytest.mark.parametrize("dtype,shared", [
    ("megaraid,1", True), ("sat+megaraid,0", True), ("cciss,2", True), ("aacraid,0,0,3", True), ("areca,1/2", True),
    ("jmb39x,0", True), ("jmb39x-q,1", True), ("jmb39x-q2,3,s1,force+sat", True), ("jms56x,2", True),
    ("usbjmicron,0", True), ("usbjmicron,p,1", True), ("intelliprop,1+sat", True),
    ("sat", False), ("sat,12", False), ("nvme", False), ("usbjmicron", False), ("scsi", False), (None, False)])
def test_location_keeps_every_type_that_names_a_port_behind_a_shared_path(dtype: str | None, shared: bool) -> None:
    assert location("/dev/sdb", dtype) == (f"/dev/sdb {dtype}" if shared else "/dev/sdb")


@pytest.fixture
def two_failed(tmp_path: Path) -> Path:
    """The MegaRAID machine with both drives behind /dev/bus/0 failing to open, with the same message."""
    folder = tmp_path / "megaraid"
    shutil.copytree(MEGARAID, folder)
    for n in (0, 1):
        stem = folder / f"smartctl --json=c -x -n standby -d sat+megaraid,{n} _dev_bus_0"
        Path(f"{stem}.out").write_text("smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n"
                                       f"Smartctl open device: /dev/bus/0 [megaraid_disk_0{n}] [SAT] failed: "
                                       "No such device\n")
        Path(f"{stem}.rc").write_text("2\n")
    return folder


def test_two_failed_pass_through_drives_stay_two_in_stderr_and_json(two_failed: Path) -> None:
    result = ssdwear_cli(["--no-history", "--replay", str(two_failed), "report", "--format", "json"],
                         App(clock=lambda: T0))
    assert result.exit_code == 1
    drives = json.loads(result.stdout)["drives"]
    assert [(d["device"], d["device_type"]) for d in drives] == [("/dev/bus/0", "sat+megaraid,0"),
                                                                 ("/dev/bus/0", "sat+megaraid,1")]
    lines = result.stderr.splitlines()
    assert [line.split(": ")[1] for line in lines] == ["/dev/bus/0 sat+megaraid,0", "/dev/bus/0 sat+megaraid,1"]
    table = ssdwear_cli(["--no-history", "--replay", str(two_failed), "report"], App(clock=lambda: T0)).stdout
    assert "/dev/bus/0 sat+megaraid,0: no such device" in table and "/dev/bus/0 sat+megaraid,1: no such" in table
    status = ssdwear_cli(["--no-history", "--replay", str(two_failed), "status", "--format", "json"],
                         App(clock=lambda: T0))
    rows = json.loads(status.stdout)["drives"]
    assert [(r["device"], r["device_type"]) for r in rows] == [("/dev/bus/0", "sat+megaraid,0"),
                                                               ("/dev/bus/0", "sat+megaraid,1")]
    check = ssdwear_cli(["--no-history", "--replay", str(two_failed), "check"], App(clock=lambda: T0)).stdout
    assert "/dev/bus/0 sat+megaraid,0: cannot read" in check and "/dev/bus/0 sat+megaraid,1: cannot read" in check


def test_two_failed_pass_through_drives_are_two_prometheus_series_node_exporter_serves(two_failed: Path,
                                                                                        tmp_path: Path) -> None:
    textfile = tmp_path / "textfile"
    textfile.mkdir()
    result = ssdwear_cli(["--db", str(tmp_path / "h.db"), "sample", "--textfile", str(textfile)],
                 App(runner=ReplayRunner(two_failed), clock=lambda: T0))
    assert result.exit_code == 1
    read_ok = [line for line in (textfile / "ssdwear.prom").read_text().splitlines()
               if line.startswith("ssdwear_read_ok")]
    assert read_ok == ['ssdwear_read_ok{device="/dev/bus/0 sat+megaraid,0",reason="missing"} 0',
                       'ssdwear_read_ok{device="/dev/bus/0 sat+megaraid,1",reason="missing"} 0']
    _, body = scrape_textfile(textfile)  # fails on a textfile scrape error (a duplicate series is one)
    assert body.count("ssdwear_read_ok{") == 2


def test_a_read_pass_through_drive_is_labelled_with_its_type() -> None:
    result = ssdwear_cli(["--no-history", "--replay", str(MEGARAID), "report", "--format", "prometheus"],
                         App(clock=lambda: T0))
    assert 'ssdwear_read_ok{device="/dev/bus/0 sat+megaraid,1",model="Samsung SSD 860 EVO 500GB",' \
           'serial="S3YZNB0KB00864E"} 1' in result.stdout


def _jmicron_machine(folder: Path) -> Path:
    """Two SATA drives on the ports of one JMicron JMB39x behind /dev/sdb (the fleet's 860 EVO, a second serial)."""
    folder.mkdir()
    doc = json.loads((FIXTURES / "fleet" / "smartctl --json=c -x -n standby -d sat _dev_sda.out").read_text())
    for port, serial in ((0, "S3Z9NB0K000001X"), (1, "S3Z9NB0K000002Y")):
        doc["serial_number"] = serial
        doc["device"] = {"name": "/dev/sdb", "info_name": "/dev/sdb [jmb39x_disk_0{port}]", "type": f"jmb39x,{port}",
                         "protocol": "ATA"}
        stem = folder / f"smartctl --json=c -x -n standby -d jmb39x,{port} _dev_sdb"
        Path(f"{stem}.out").write_text(json.dumps(doc))
        Path(f"{stem}.rc").write_text("0\n")
    return folder


def test_two_drives_on_one_jmb39x_path_are_never_a_swapped_drive(tmp_path: Path) -> None:
    machine = _jmicron_machine(tmp_path / "jmb")
    config = tmp_path / "c.yaml"
    config.write_text('devices: [{device: /dev/sdb, type: "jmb39x,0"}, {device: /dev/sdb, type: "jmb39x,1"}]\n')
    now = [T0]
    app = App(runner=ReplayRunner(machine), clock=lambda: now[0], config_file=str(config), db=str(tmp_path / "h.db"))
    for _ in range(3):
        assert ssdwear_cli(["sample"], app).exit_code == 0
        now[0] += timedelta(hours=1)
    doc = json.loads(ssdwear_cli(["report", "--format", "json"], app).stdout)
    assert [d["serial"] for d in doc["drives"]] == ["S3Z9NB0K000001X", "S3Z9NB0K000002Y"]
    assert not any("swapped" in w for d in doc["drives"] for w in d["warnings"]), doc["drives"][0]["warnings"]
