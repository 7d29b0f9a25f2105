"""The CLI end to end: recorded smartctl calls replayed through the real reading, parsing and rendering."""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.cli.main import cli
from ssdwear.smartctl.replay import ReplayRunner

INTEL = FIXTURES / "intel"


class FakeTime:
    """The wall clock and the monotonic clock, both moved only by sleep."""

    def __init__(self) -> None:
        self.now = T0
        self.ticks = 0.0

    def clock(self) -> datetime:
        return self.now

    def monotonic(self) -> float:
        return self.ticks

    def sleep(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.ticks += seconds

    def app(self, **kwargs) -> App:
        return App(clock=self.clock, sleep=self.sleep, monotonic=self.monotonic, **kwargs)


def drives(result) -> dict[str, dict]:
    return {d["device"]: d for d in json.loads(result.stdout)["drives"]}


def test_report_reproduces_the_seed_figures() -> None:
    result = ssdwear_cli(["--replay", str(INTEL), "report", "--represents", "1d", "--format", "json"])
    assert result.exit_code == 0, result.output
    by_dev = drives(result)
    d710 = by_dev["/dev/sda"]
    assert d710["model"] == "INTEL SSDSA2BZ200G3" and d710["serial"] == "CVPR0000SEED710"
    assert d710["window"]["valid"] and d710["window"]["minutes"] == 60 and d710["window"]["wear_steps"] == 15
    p = d710["projection"]
    assert p["method"] == "timed-workload"
    assert p["percent_per_year"] == pytest.approx(5.35, abs=0.01)
    assert p["years_new_drive"] == pytest.approx(18.7, abs=0.05)
    assert p["years_new_drive_low"] < 18.9 < p["years_new_drive_high"]
    assert by_dev["/dev/sdb"]["projection"]["years_new_drive"] == pytest.approx(4.6, abs=0.05)
    s3700 = by_dev["/dev/sdc"]
    assert s3700["window"]["valid"] is False and s3700["window"]["reason"].startswith("not valid: E2h-E4h read 65535")
    assert s3700["window"]["wear_percent"] is None
    assert by_dev["/dev/sdd"]["window"] is None


def test_json_document_shape_is_the_documented_interface() -> None:
    result = ssdwear_cli(["--replay", str(INTEL), "report", "--format", "json"])
    doc = json.loads(result.stdout)
    assert set(doc) == {"schema", "ssdwear", "generated_at", "origin", "drives", "raid_volumes"}
    assert doc["schema"] == 3 and doc["origin"] == f"replay:{INTEL}"  # 3: the finer wear counters (issue 19)
    drive = doc["drives"][0]
    for key in ("device", "model", "serial", "interface", "used_percent", "used_source", "window", "projection",
                "warnings", "used_fine_percent", "used_fine", "counters"):
        assert key in drive
    assert set(drive["window"]) >= {"minutes", "wear_percent", "host_reads_percent", "valid", "reason",
                                    "wear_percent_low", "wear_percent_high", "counter_delta", "started_at"}
    assert set(drive["projection"]) == {
        "method", "basis", "percent_per_year", "percent_per_year_low", "percent_per_year_high", "years_remaining",
        "years_remaining_low", "years_remaining_high", "years_new_drive", "years_new_drive_low",
        "years_new_drive_high", "interval_level", "interval", "wear_class", "rates", "trend", "duty_cycle",
        "duty_cycle_measured", "duty_cycle_basis", "wears_out_date", "wears_out_date_low"}
    assert drive["interface"] == "ata" and isinstance(drive["warnings"], list)


def test_yaml_and_table_outputs() -> None:
    result = ssdwear_cli(["--replay", str(INTEL), "report", "--represents", "1d", "--format", "yaml"])
    import yaml

    doc = yaml.safe_load(result.stdout)
    assert doc["drives"][0]["projection"]["years_new_drive"] == pytest.approx(18.7, abs=0.05)
    table = ssdwear_cli(["--replay", str(INTEL), "report", "--represents", "1d"])
    assert "INTEL SSDSA2BZ200G3" in table.stdout and "18.7" in table.stdout and "not valid" in table.stdout


def test_analyze_saved_output_gives_the_same_figures() -> None:
    saved = INTEL / "smartctl --json=c -x -n standby -d sat _dev_sda.out"
    result = ssdwear_cli(["analyze", str(saved), "--represents", "1d", "--format", "json"])
    assert result.exit_code == 0, result.output
    p = json.loads(result.stdout)["drives"][0]["projection"]
    assert p["years_new_drive"] == pytest.approx(18.7, abs=0.05)
    assert p["years_new_drive_low"] < 18.9 < p["years_new_drive_high"]  # the article's figure is inside


def test_start_sends_the_vendor_command_to_intel_drives_only() -> None:
    runner = ReplayRunner(INTEL)
    result = ssdwear_cli(["start", "--all", "--format", "json"], App(runner=runner, clock=lambda: T0))
    statuses = {r["device"]: r["status"] for r in json.loads(result.stdout)["results"]}
    # the Samsung has a finer counter (177's average erase count): a counter window's baseline, nothing sent
    assert statuses == {"/dev/sda": "reset", "/dev/sdb": "reset", "/dev/sdc": "reset", "/dev/sdd": "baseline"}
    resets = [c for c in runner.calls if "vendor,0x40" in c]
    assert sorted(c[-1] for c in resets) == ["/dev/sda", "/dev/sdb", "/dev/sdc"]
    assert all(c[:2] == ("-t", "vendor,0x40") for c in resets)
    assert result.exit_code == 0


def test_start_on_a_non_intel_drive_stores_a_baseline_and_sends_it_nothing(tmp_path: Path) -> None:
    """Issue 19.3: `start` on a Samsung (177 counts its average erase cycles) stores a counter window's baseline;
    the argv log holds only the reads of the drive (identity and -x), never a command."""
    runner = ReplayRunner(INTEL)
    result = ssdwear_cli(["--db", str(tmp_path / "h.db"), "start", "/dev/sdd", "-d", "sat"],
                         App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0, result.output
    to_drive = [c for c in runner.calls if c[-1] == "/dev/sdd"]
    assert to_drive and all(c[:2] in (("--json=c", "-x"), ("--json=c", "-i")) for c in to_drive), to_drive
    assert "BASELINE" in result.stdout and "nothing was sent to the drive" in result.stdout
    assert "average_erase_count" in result.stdout and "vendor subcommands are undefined on other drives" in \
        result.stdout


def test_measure_waits_for_a_valid_window_then_reports() -> None:
    fake = FakeTime()
    runner = ReplayRunner(INTEL)
    app = fake.app(runner=runner)
    result = ssdwear_cli(["measure", "/dev/sda", "-d", "sat", "--for", "60m", "--poll", "20m", "--represents", "1d",
                  "--format", "json"], app)
    assert result.exit_code == 0, result.output
    assert fake.now - T0 == timedelta(minutes=60)
    reads = [c for c in runner.calls if c[:2] == ("--json=c", "-x")]
    assert len(reads) == 4  # baseline, then 65535, 30 min, 60 min
    # the drive's identity is read again right before the vendor command
    assert runner.calls[1:3] == [("--json=c", "-i", "-d", "sat", "/dev/sda"), ("-t", "vendor,0x40", "-d", "sat",
                                                                              "/dev/sda")]
    d = drives(result)["/dev/sda"]
    assert d["projection"]["years_new_drive"] == pytest.approx(18.7, abs=0.05)
    assert not any("someone else" in w for w in d["warnings"])


def test_status_shows_the_window_since_our_reset() -> None:
    fake = FakeTime()
    runner = ReplayRunner(INTEL)
    app = fake.app(runner=runner)
    assert ssdwear_cli(["start", "/dev/sda", "-d", "sat"], app).exit_code == 0
    fake.sleep(25 * 60)
    result = ssdwear_cli(["status", "/dev/sda", "-d", "sat", "--format", "json"], app)
    row = json.loads(result.stdout)["drives"][0]
    assert row["serial"] == "CVPR0000SEED710"
    assert row["since_reset_minutes"] == 25.0 and row["valid"] is False
    assert row["e4h_minutes"] is None and row["counting"] is False and "65535" in row["reason"]


# -- faults: one line per drive, the others still reported, documented exit codes ------------------


def copy_fixtures(tmp_path: Path) -> Path:
    folder = tmp_path / "machine"
    shutil.copytree(INTEL, folder)
    return folder


def replace_read(folder: Path, device: str, text: str, rc: int) -> None:
    stem = folder / f"smartctl --json=c -x -n standby -d sat {device.replace('/', '_')}"
    stem.with_name(stem.name + ".out").write_text(text)
    stem.with_name(stem.name + ".rc").write_text(f"{rc}\n")


@pytest.mark.parametrize("text,expect", [
    ("Smartctl open device: /dev/sdc failed: Permission denied\n", "permission denied"),
    ("Device is in STANDBY mode, exit(2)\n", "standby"),
    ("Smartctl open device: /dev/sdc failed: No such device\n", "no such device"),
])
def test_one_failing_drive_does_not_stop_the_others(tmp_path: Path, text: str, expect: str) -> None:
    folder = copy_fixtures(tmp_path)
    replace_read(folder, "/dev/sdc", "smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n" + text, 2)
    result = ssdwear_cli(["--replay", str(folder), "report", "--format", "json"])
    assert result.exit_code == 3
    by_dev = drives(result)
    assert by_dev["/dev/sdc"]["error"] and expect in by_dev["/dev/sdc"]["error"].lower()
    assert by_dev["/dev/sda"]["error"] is None and by_dev["/dev/sda"]["model"]
    errors = [line for line in result.stderr.splitlines() if "/dev/sdc" in line]
    assert len(errors) == 1 and expect in errors[0].lower()


@pytest.mark.slow
def test_real_subprocess_timeout_kills_a_hung_call(fake_smartctl, monkeypatch) -> None:
    smartctl, _ = fake_smartctl(INTEL)
    monkeypatch.setenv("FAKE_SMARTCTL_HANG", "/dev/sdb")
    result = ssdwear_cli(["--smartctl", str(smartctl), "--timeout", "2", "report", "--format", "json"])
    assert result.exit_code == 3
    by_dev = drives(result)
    assert "did not answer within 2 s" in by_dev["/dev/sdb"]["error"]
    assert by_dev["/dev/sda"]["projection"] is not None


def test_missing_smartctl_is_one_line_exit_1(tmp_path: Path) -> None:
    result = ssdwear_cli(["--smartctl", str(tmp_path / "nope"), "report"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "install smartmontools" in result.stderr


def test_fallback_replay_when_the_machine_has_no_drives(fake_smartctl, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "smartctl --scan-open --json=c.out").write_text('{"devices": []}\n')
    smartctl, _ = fake_smartctl(empty)
    result = ssdwear_cli(["--smartctl", str(smartctl), "--fallback-replay", str(INTEL), "report", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert "no SMART drive on this machine" in result.stderr and str(INTEL) in result.stderr
    assert len(json.loads(result.stdout)["drives"]) == 4


def test_analyze_bad_files_are_one_line_each(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    good = INTEL / "smartctl --json=c -x -n standby -d sat _dev_sdb.out"
    result = ssdwear_cli(["analyze", str(junk), str(tmp_path / "missing.txt"), str(good), "--format", "json"])
    assert result.exit_code == 3
    assert len(result.stderr.strip().splitlines()) == 2
    only_bad = ssdwear_cli(["analyze", str(junk)])
    assert only_bad.exit_code == 1


def test_usage_errors_exit_2() -> None:
    assert ssdwear_cli(["report", "--represents", "soon"]).exit_code == 2
    assert ssdwear_cli(["report", "--format", "xml"]).exit_code == 2
    assert ssdwear_cli(["nonsense"]).exit_code == 2


def test_every_command_has_help_with_an_example() -> None:
    for name, command in cli.commands.items():
        assert command.help, name
        assert "Example" in command.help, name


def help_text(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], prog_name="ssdwear", terminal_width=80, obj=App())
    assert result.exit_code == 0, result.output
    return result.stdout


def test_help_at_80_columns_cuts_no_command_summary() -> None:
    """Issue 17.18: at 80 columns `ssdwear --help` cut 11 of 12 command summaries ('...')."""
    text = help_text()
    listed = dict(line.split(None, 1) for line in text.split("Commands:\n", 1)[1].splitlines() if line.strip())
    assert set(listed) == set(cli.commands)
    for name, command in cli.commands.items():
        first = command.help.split("\n\n", 1)[0].strip()
        assert listed[name] == first, (name, listed[name])  # the summary is the whole first sentence
    assert "..." not in text.split("Commands:", 1)[1]


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_help_fits_80_columns_and_shows_the_global_options_once(name: str) -> None:
    """Issue 17.18: each command's help repeated the 9 global options; they are listed once, in `ssdwear --help`,
    and each command's help points there (the options are still accepted after the command)."""
    main, text = help_text(), help_text(name)
    for shown in (main, text):
        assert all(len(line) <= 80 for line in shown.splitlines()), [x for x in shown.splitlines() if len(x) > 80]
    assert main.count("--db FILE") == 1 and "--fallback-replay DIR" in main
    assert "--db FILE" not in text and "--smartctl PATH" not in text
    if name != "completion":
        assert "Global options:\n  --smartctl, --config, --db, --no-history, --timeout, --workers," in text
        assert "--wake/--no-wake" in text and "see `ssdwear --help`" in text


def test_help_words_match_the_usage_and_defaults_read_plainly() -> None:
    retire = help_text("retire-check")
    assert "Usage: ssdwear retire-check [OPTIONS] DEVICE|FILE" in retire
    assert "DEVICE|FILE is a device" in retire and "TARGET" not in retire
    plan = " ".join(help_text("plan").split())
    assert "[default: 5]" in plan and "(5)" not in plan


def test_forced_reset_rejected_by_the_drive_is_a_clear_error() -> None:
    # Recorded in QEMU: an emulated SATA disk with an Intel model string aborts the vendor command.
    runner = ReplayRunner(FIXTURES / "qemu")
    refused = ssdwear_cli(["start", "/dev/sdb", "-d", "sat"], App(runner=runner, clock=lambda: T0))
    assert refused.exit_code == 4 and "does not report the timed-workload attributes" in refused.stdout
    assert not any("vendor,0x40" in c for c in runner.calls)
    result = ssdwear_cli(["start", "/dev/sdb", "-d", "sat", "--force", "--format", "json"],
                 App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 5
    entry = json.loads(result.stdout)["results"][0]
    assert entry["status"] == "rejected" and entry["serial"] == "AHCI0002"
    assert "rejected the timer reset" in entry["message"] and "aborted command" in entry["message"]
    line = [x for x in result.stderr.splitlines() if "/dev/sdb" in x]
    assert len(line) == 1 and "rejected the timer reset" in line[0]


def test_smartctl_is_found_in_sbin_when_path_lacks_it() -> None:
    """As under cron or systemd: a fresh process whose PATH has no sbin directory."""
    import shutil
    import subprocess
    import sys

    if not shutil.which("smartctl", path="/usr/sbin:/sbin"):
        pytest.skip("smartctl is not installed in /usr/sbin or /sbin")
    code = "from ssdwear.host.runner import locate_smartctl; print(locate_smartctl(None))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                            env={"PATH": "/nonexistent", "PYTHONPATH": str(FIXTURES.parent)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() in ("/usr/sbin/smartctl", "/sbin/smartctl")


def test_replayed_drives_stay_out_of_the_default_history(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SSDWEAR_DB")
    monkeypatch.setattr("ssdwear.host.paths.default_db_path", lambda: tmp_path / "default.db")
    assert ssdwear_cli(["--replay", str(INTEL), "report"]).exit_code == 0
    assert ssdwear_cli(["--replay", str(INTEL), "sample"]).exit_code == 1  # sample needs a history: none is named
    assert not (tmp_path / "default.db").exists()
    named = tmp_path / "named.db"
    assert ssdwear_cli(["--replay", str(INTEL), "--db", str(named), "sample"]).exit_code == 0
    assert named.exists()


# smartctl 7.3's JSON answers on this machine, which has no /dev/sdc or /dev/nonexistent (recorded 2026-11-30).
NO_SUCH_DEVICE_JSON = (
    '{"json_format_version":[1,0],"smartctl":{"version":[7,3],"svn_revision":"5338","argv":["smartctl","--json=c",'
    '"-x","-n","standby","-d","sat","/dev/sdc"],"messages":[{"string":"Smartctl open device: /dev/sdc [SAT] '
    'failed: No such device","severity":"error"}],"exit_status":2}}')
UNKNOWN_TYPE_JSON = (
    '{"json_format_version":[1,0],"smartctl":{"version":[7,3],"svn_revision":"5338","argv":["smartctl","--json=c",'
    '"-x","-n","standby","-d","sat","/dev/sdc"],"messages":[{"string":"/dev/sdc: Unable to detect device type",'
    '"severity":"error"}],"exit_status":1}}')


@pytest.mark.parametrize("text,rc,expect", [
    (NO_SUCH_DEVICE_JSON, 2, "no such device"),  # the argv says "standby": that is not what happened
    (UNKNOWN_TYPE_JSON, 1, "cannot tell what kind of device this is (/dev/sdc: unable to detect device type)"),
])
def test_json_failures_are_read_from_smartctls_messages(tmp_path: Path, text: str, rc: int, expect: str) -> None:
    folder = copy_fixtures(tmp_path)
    replace_read(folder, "/dev/sdc", text, rc)
    result = ssdwear_cli(["--replay", str(folder), "report", "--format", "json"])
    assert result.exit_code == 3
    assert expect in drives(result)["/dev/sdc"]["error"].lower()


def test_smartctl_older_than_7_is_read_as_text(tmp_path: Path) -> None:
    """smartctl 6.x rejects --json (exit bit 0); the same drive is then read once more, as -x text."""
    folder = tmp_path / "old"
    shutil.copytree(FIXTURES / "qemu", folder)
    json_read = folder / "smartctl --json=c -x -n standby -d nvme _dev_nvme0.out"
    json_read.write_text("smartctl 6.6 2016-05-31 r4324 [x86_64-linux] (local build)\n"
                         "Copyright (C) 2002-16, Bruce Allen, Christian Franke, www.smartmontools.org\n\n"
                         "=======> UNRECOGNIZED OPTION: json=c\n\nUse smartctl -h to get a usage summary\n\n")
    json_read.with_suffix(".rc").write_text("1\n")
    runner = ReplayRunner(folder)
    result = ssdwear_cli(["report", "/dev/nvme0", "-d", "nvme", "--format", "json"], App(runner=runner,
                                                                                         clock=lambda: T0))
    assert result.exit_code == 0, result.output
    drive = drives(result)["/dev/nvme0"]
    assert drive["serial"] == "NVME0001" and drive["interface"] == "nvme"
    assert [c[0] for c in runner.calls] == ["--json=c", "-x"]


def test_the_version_has_one_source_and_says_its_schema() -> None:
    """Issue 17.18: pyproject said 0.1.0 while the JSON is schema 2; now pyproject reads ssdwear.__version__, the
    CHANGELOG's latest release is that version with the schema it writes (3 since the finer wear counters, issue
    19), and the envelope carries it."""
    import re

    from support.paths import ROOT

    import ssdwear

    project = (ROOT / "pyproject.toml").read_text()
    section = project.split("[project]", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", section, re.M) and 'dynamic = ["version"]' in section
    assert 'version = {attr = "ssdwear.model.version.__version__"}' in project
    assert tuple(int(x) for x in ssdwear.__version__.split(".")[:2]) >= (0, 2)  # 0.1.0 wrote schema 1
    heading = next(line for line in (ROOT / "CHANGELOG.md").read_text().splitlines() if line.startswith("## "))
    assert heading.startswith(f"## {ssdwear.__version__} ") and "schema 3" in heading
    doc = json.loads(ssdwear_cli(["--replay", str(INTEL), "report", "--format", "json"]).stdout)
    assert doc["ssdwear"] == ssdwear.__version__ and doc["schema"] == 3
