"""Nothing judged is never OK: a device with no SMART data (issue 17.4) and a RAID controller's volume (17.5) are
Nagios UNKNOWN in `check` and "cannot judge" (exit 12) in `retire-check`, saying what `report` says."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.paths import CORPUS, FIXTURES, ROOT

from ssdwear.cli.app import EXIT_CANNOT_JUDGE

RAID = FIXTURES / "raid"
NO_SMART_FILES = [CORPUS / "pySMART__avago-mr9361-16i__1.txt", CORPUS / "pySMART__intel-rs3dc080__1.txt"]


def test_the_cannot_judge_exit_is_12_and_documented() -> None:
    assert EXIT_CANNOT_JUDGE == 12
    assert "| 12 | `retire-check`: cannot judge" in (ROOT / "docs" / "exit-codes.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", NO_SMART_FILES, ids=lambda p: p.name)
def test_retire_check_on_a_file_without_smart_data_cannot_judge(path: Path) -> None:
    result = ssdwear_cli(["retire-check", str(path)])
    assert result.exit_code == 12
    assert result.stdout.startswith("UNKNOWN: ") and "cannot judge: no SMART data" in result.stdout
    assert "KEEP" not in result.stdout and "judged on health only" not in result.stdout
    doc = json.loads(ssdwear_cli(["retire-check", str(path), "--format", "json"]).stdout)
    assert doc["verdict"] == "unknown" and doc["drive"]["smart_available"] is False


@pytest.mark.parametrize("path", NO_SMART_FILES, ids=lambda p: p.name)
def test_check_on_a_device_without_smart_data_is_unknown(tmp_path: Path, path: Path) -> None:
    folder = tmp_path / "machine"
    folder.mkdir()
    shutil.copy(path, folder / "smartctl --json=c -x -n standby -d scsi _dev_sda.out")
    result = ssdwear_cli(["--replay", str(folder), "check", "/dev/sda", "-d", "scsi"])
    assert result.exit_code == 3 and result.stdout.startswith("SSDWEAR UNKNOWN - ")
    # read live, the MegaRAID volume is recognised by its INQUIRY strings; the Intel RAID module's is not
    said = "no drive to judge: /dev/sda: RAID volume (AVAGO MR9361-16i)" if "avago" in path.name else \
        "cannot judge: no SMART data"
    assert said in result.stdout


def test_qemus_scsi_disk_without_smart_is_unknown_and_cannot_be_judged() -> None:
    check = ssdwear_cli(["--replay", str(FIXTURES / "qemu"), "check", "/dev/sdc", "-d", "scsi"])
    assert check.exit_code == 3 and check.stdout.startswith("SSDWEAR UNKNOWN - 1 of 1 drive: /dev/sdc")
    verdict = ssdwear_cli(["--replay", str(FIXTURES / "qemu"), "retire-check", "/dev/sdc", "-d", "scsi"])
    assert verdict.exit_code == 12 and "cannot judge" in verdict.stdout


@pytest.mark.parametrize("folder", ["megaraid", "megaraid-avago", "hpsa", "aacraid", "areca", "smartpqi"])
def test_retire_check_on_a_raid_volume_says_what_report_says(folder: str) -> None:
    result = ssdwear_cli(["--replay", str(RAID / folder), "retire-check", "/dev/sda"])
    assert result.exit_code == 12, result.output
    assert result.stdout.startswith("UNKNOWN: /dev/sda\n") and "RAID volume (" in result.stdout
    assert "name them in the config" in result.stdout or "read through the controller" in result.stdout
    doc = json.loads(ssdwear_cli(["--replay", str(RAID / folder), "retire-check", "/dev/sda", "--format",
                                  "json"]).stdout)
    assert doc["verdict"] == "unknown" and doc["drive"] is None and "RAID volume" in doc["reasons"][0]


def test_retire_check_on_a_megaraid_volume_names_the_drives_behind_it() -> None:
    result = ssdwear_cli(["--replay", str(RAID / "megaraid"), "retire-check", "/dev/sda"])
    assert "/dev/bus/0 sat+megaraid,0, /dev/bus/0 sat+megaraid,1" in result.stdout
    assert "ssdwear retire-check /dev/bus/0 -d sat+megaraid,0" in result.stdout


@pytest.mark.parametrize("folder", ["aacraid", "areca", "smartpqi"])
def test_check_on_a_volume_alone_says_what_it_is(folder: str) -> None:
    result = ssdwear_cli(["--replay", str(RAID / folder), "check"])
    assert result.exit_code == 3
    first = result.stdout.splitlines()[0]
    assert first.startswith("SSDWEAR UNKNOWN - no drive to judge: /dev/sda: RAID volume (")
    assert "no drives found" not in result.stdout and "\n\n" not in result.stdout
