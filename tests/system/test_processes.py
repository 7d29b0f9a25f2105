"""One smartctl process per drive per read, counted with the argv-logging fake smartctl (no timing).

A fake machine of 8 SATA drives is cloned from the hand-written recordings in fixtures/intel (each clone with
its own device name and serial); `ssdwear report` runs in-process with the real pySMART-backed runner, so every
smartctl call is a real subprocess of tests/support/fake_smartctl.py, which logs its argv. bench/run.py measures the
same at 64 drives, and the timings.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import FIXTURES

from ssdwear.cli.main import cli
from ssdwear.smartctl.replay import fixture_name

DRIVES = 8
TEMPLATES = ("/dev/sda", "/dev/sdb", "/dev/sdc", "/dev/sdd")


def read_args(device: str) -> list[str]:
    return ["--json=c", "-x", "-n", "standby", "-d", "sat", device]


recording = fixture_name


def fake_machine(folder: Path, count: int) -> list[str]:
    """`count` drives cloned from fixtures/intel (new device names and serials) and a scan listing them."""
    folder.mkdir()
    devices = []
    for index in range(count):
        template = TEMPLATES[index % len(TEMPLATES)]
        doc = json.loads((FIXTURES / "intel" / f"{recording(read_args(template))}.out").read_text())
        device = f"/dev/sd{chr(ord('a') + index)}"
        doc["device"].update(name=device, info_name=f"{device} [SAT]")
        doc["smartctl"]["argv"] = ["smartctl", *read_args(device)]
        doc["serial_number"] = f"{doc['serial_number'][:8]}T{index:05d}"
        (folder / f"{recording(read_args(device))}.out").write_text(json.dumps(doc))
        (folder / f"{recording(read_args(device))}.rc").write_text("0\n")
        devices.append(device)
    scan = {"json_format_version": [1, 0], "smartctl": {"version": [7, 3], "exit_status": 0},
            "devices": [{"name": d, "info_name": f"{d} [SAT]", "type": "sat", "protocol": "ATA"} for d in devices]}
    (folder / f"{recording(['--scan-open', '--json=c'])}.out").write_text(json.dumps(scan))
    (folder / f"{recording(['--scan-open', '--json=c'])}.rc").write_text("0\n")
    return devices


def logged(log: Path) -> list[str]:
    return log.read_text().splitlines() if log.exists() else []


@pytest.fixture
def machine(tmp_path: Path, fake_smartctl) -> tuple[Path, Path, list[str]]:
    devices = fake_machine(tmp_path / "machine", DRIVES)
    wrapper, log = fake_smartctl(tmp_path / "machine")
    return wrapper, log, devices


@pytest.mark.parametrize("workers", ["1", "8", "64"])
def test_report_runs_one_smartctl_per_drive_and_one_scan(machine, workers: str) -> None:
    wrapper, log, devices = machine
    result = CliRunner().invoke(cli, ["--smartctl", str(wrapper), "--workers", workers, "report", "--format", "json"])
    assert result.exit_code == 0, result.output
    drives = json.loads(result.stdout)["drives"]
    assert sorted(d["device"] for d in drives) == sorted(devices)
    assert len({d["serial"] for d in drives}) == DRIVES
    assert all(d["error"] is None for d in drives)

    calls = Counter(logged(log))
    assert calls == Counter({"--scan-open --json=c": 1, **{" ".join(read_args(d)): 1 for d in devices}})


def test_named_drives_need_no_scan(machine) -> None:
    wrapper, log, devices = machine
    result = CliRunner().invoke(cli, ["--smartctl", str(wrapper), "--no-history", "report", "-d", "sat",
                                      "--format", "json", *devices])
    assert result.exit_code == 0, result.output
    assert Counter(logged(log)) == Counter(" ".join(read_args(d)) for d in devices)


def test_sample_runs_one_smartctl_per_drive(machine) -> None:
    if "sample" not in cli.commands:
        pytest.skip("no sample command yet")
    wrapper, log, devices = machine
    result = CliRunner().invoke(cli, ["--smartctl", str(wrapper), "sample"])
    assert result.exit_code == 0, result.output
    assert Counter(logged(log)) == Counter({"--scan-open --json=c": 1, **{" ".join(read_args(d)): 1 for d in devices}})
