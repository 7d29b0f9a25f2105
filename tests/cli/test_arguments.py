"""What an argument naming a drive or a saved output is, decided once (paths.classify) for every command: a file
that is not there is "no such file", a saved output given to a device command points at `analyze`, `sda` is
/dev/sda; and a message never advises the option the user already gave."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.paths import FIXTURES, ROOT

from ssdwear.host.paths import classify
from ssdwear.smartctl.replay import ReplayRunner

INTEL = FIXTURES / "intel"
SAVED = INTEL / "smartctl --json=c -x -n standby -d sat _dev_sdb.out"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory holding one saved output (sdb.json) and a file named like a device (sdc)."""
    shutil.copy(SAVED, tmp_path / "sdb.json")
    (tmp_path / "sdc").write_text("not a device\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("text,kind,name", [
    ("/dev/sda", "device", "/dev/sda"), ("/dev/bus/0", "device", "/dev/bus/0"), ("/dev/null", "device", "/dev/null"),
    ("sda", "device", "/dev/sda"), ("sdab", "device", "/dev/sdab"), ("nvme0", "device", "/dev/nvme0"),
    ("nvme0n1", "device", "/dev/nvme0n1"), ("sg3", "device", "/dev/sg3"),
    ("sdb.json", "file", "sdb.json"), ("sdc", "file", "sdc"), (".", "file", "."),
    ("sdb.txt", "missing-file", "sdb.txt"), ("/nonexistent", "missing-file", "/nonexistent"),
    ("mailed/sda", "missing-file", "mailed/sda"), ("NVME0.LOG", "missing-file", "NVME0.LOG"),
    ("BTTV0000S3700", "name", "BTTV0000S3700"), ("0x5000c500a1b2c3d4", "name", "0x5000c500a1b2c3d4"),
    ("INTEL SSDSA2CW120G3", "name", "INTEL SSDSA2CW120G3"), ("sda1x", "name", "sda1x"), ("a\0b", "name", "a\0b"),
])
def test_one_classification(here: Path, text: str, kind: str, name: str) -> None:
    assert classify(text) == (kind, name)


@pytest.mark.parametrize("target", ["/nonexistent", "sdb.txt"])
def test_retire_check_of_a_missing_file_says_no_such_file(here: Path, target: str) -> None:
    """It said "smartctl cannot tell what kind of device this is" and "no such device"."""
    runner = ReplayRunner(INTEL)
    result = ssdwear_cli(["retire-check", target], runner=runner)
    assert result.exit_code == 1 and result.stderr == f"ssdwear: {target}: no such file\n"
    assert runner.calls == []


def test_retire_check_of_neither_file_nor_device(here: Path) -> None:
    runner = ReplayRunner(INTEL)
    # a typo for sdb.json or /dev/sdb: sdb is a kernel name
    result = ssdwear_cli(["retire-check", "sdb"], runner=runner)
    assert [c[-1] for c in runner.calls] == ["/dev/sdb"]
    result = ssdwear_cli(["retire-check", "sbd"], runner=runner)
    assert result.exit_code == 2
    assert result.stderr == ("ssdwear: sbd: no such file, and not a device: name one as /dev/sda, sda, nvme0 or "
                             "nvme0n1 (ssdwear scan lists them)\n")


def test_plan_from_a_missing_file_says_no_such_file(here: Path) -> None:
    """It reported a missing history database: the file name was taken for a serial."""
    result = ssdwear_cli(["plan", "--from", "nonexist.txt"])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "ssdwear: nonexist.txt: no such file"
    assert "history" not in result.stderr


def test_plan_from_a_serial_without_a_database_says_it_was_taken_for_one(here: Path) -> None:
    result = ssdwear_cli(["--db", str(here / "none.db"), "plan", "--from", "BTTV0000S3700"])
    assert result.exit_code == 1
    assert result.stderr.startswith("ssdwear: 'BTTV0000S3700' is not a file or a device (/dev/sda, sda, nvme0 or "
                                    "nvme0n1), so it was looked up in the history: no history database at ")


@pytest.mark.parametrize("command", [["report"], ["status"], ["sample"], ["start"], ["measure"]])
@pytest.mark.parametrize("target", ["/etc/passwd", "sdb.json", "sdc"])
def test_a_file_given_as_a_device_points_at_analyze(here: Path, command: list[str], target: str) -> None:
    runner = ReplayRunner(INTEL)
    result = ssdwear_cli([*command, target], runner=runner)
    assert result.exit_code == 2 and runner.calls == []
    assert result.stderr == (f"ssdwear: {target} is a file, not a device: ssdwear analyze {target} reports saved "
                             f"smartctl outputs (ssdwear retire-check {target} judges one)\n")


def test_check_given_a_file_answers_unknown_with_the_same_words(here: Path) -> None:
    result = ssdwear_cli(["check", "/etc/passwd"], runner=ReplayRunner(INTEL))
    assert result.exit_code == 3
    assert result.stdout.startswith("SSDWEAR UNKNOWN - /etc/passwd is a file, not a device: ssdwear analyze")


def test_a_missing_file_given_as_a_device(here: Path) -> None:
    result = ssdwear_cli(["report", "sdb.txt"], runner=ReplayRunner(INTEL))
    assert result.exit_code == 2 and result.stderr == (
        "ssdwear: sdb.txt: no such file, and not a device (/dev/sda, sda, nvme0 or nvme0n1); saved smartctl outputs "
        "go to ssdwear analyze FILE\n")


def test_analyze_of_a_text_file_says_it_is_not_smartctl_output() -> None:
    """README.md has code blocks with braces and names smartctl: it was read as "truncated or invalid JSON"."""
    result = ssdwear_cli(["analyze", str(ROOT / "README.md")])
    assert result.exit_code == 1
    assert result.stderr == (f"ssdwear: {ROOT / 'README.md'}: not smartctl output (no smartctl banner or JSON); "
                             "save the output of 'smartctl -x' or 'smartctl --json -x'\n")


def test_kernel_names_are_read_as_their_dev_paths(here: Path) -> None:
    runner = ReplayRunner(INTEL)
    report = ssdwear_cli(["report", "sda", "-d", "sat", "--format", "json"], runner=runner)
    assert report.exit_code == 0 and json.loads(report.stdout)["drives"][0]["device"] == "/dev/sda"
    verdict = ssdwear_cli(["retire-check", "sdb", "-d", "sat"], runner=runner)
    assert verdict.exit_code == 11 and verdict.stdout.startswith("RETIRE: INTEL SSDSA2CW120G3")
    planned = ssdwear_cli(["plan", "--from", "sda", "-d", "sat", "--represents", "1d", "--candidate", "SEED710",
                   "--format", "json"], runner=runner)
    assert json.loads(planned.stdout)["workload"]["source"]["device"] == "/dev/sda"
    assert {c[-1] for c in runner.calls} == {"/dev/sda", "/dev/sdb"}
    nvme = ReplayRunner(FIXTURES / "intel-nvme")
    result = ssdwear_cli(["report", "nvme0", "-d", "nvme", "--format", "json"], runner=nvme)
    assert result.exit_code == 0 and json.loads(result.stdout)["drives"][0]["device"] == "/dev/nvme0"


def test_a_file_named_like_a_device_is_the_file(here: Path) -> None:
    """An existing file wins over a kernel name, in every command: retire-check reads it."""
    os.replace(here / "sdb.json", here / "sdb")
    result = ssdwear_cli(["retire-check", "sdb"], runner=ReplayRunner(INTEL))
    assert result.exit_code == 11 and result.stdout.startswith("RETIRE: INTEL SSDSA2CW120G3 [CVPR0000SEED320] sdb")


# -- 16.12: the advice never repeats the option the user gave ---------------------------------------------------


def test_sample_with_no_history_says_why_nothing_is_stored() -> None:
    """It failed advising "--no-history for none"."""
    result = ssdwear_cli(["--no-history", "sample"], runner=ReplayRunner(INTEL))
    assert result.exit_code == 1
    assert result.stderr == ("ssdwear: this command stores samples in the history database, but --no-history was "
                             "given: drop it to store them\n")


def test_a_replayed_sample_without_a_database_says_how_to_name_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSDWEAR_DB")
    result = ssdwear_cli(["--replay", str(INTEL), "sample"])
    assert result.exit_code == 1 and "--no-history" not in result.stderr
    assert result.stderr == ("ssdwear: this command stores samples in the history database, but a replayed run "
                             "(--replay) uses one only when it is named: --db FILE or SSDWEAR_DB\n")
