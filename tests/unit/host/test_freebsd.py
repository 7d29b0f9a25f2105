"""FreeBSD and TrueNAS CORE: the paths (smartctl in /usr/local/sbin, /usr/local/etc/ssdwear, /var/db/ssdwear), the
device names (ada0, da0, nvme0, nda0, nvd0), smartctl's FreeBSD scan forms, real FreeBSD outputs, and the
periodic(8) script. The FreeBSD paths run on Linux through the platform argument the code itself takes
(ssdwear.host.platforms.facts), never by pretending sys.platform."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.paths import FIXTURES, ROOT

from ssdwear.cli.app import App
from ssdwear.cli.main import cli
from ssdwear.host import paths, runner
from ssdwear.host.platforms import facts
from ssdwear.model.errors import SmartctlNotFound
from ssdwear.smartctl.parse import parse_output, parse_scan_entries

FREEBSD = FIXTURES / "freebsd"
CORPUS = FIXTURES / "corpus-freebsd"
PERIODIC = ROOT / "contrib" / "freebsd" / "periodic" / "daily" / "410.status-ssdwear"


@pytest.mark.parametrize("platform", ["freebsd13", "freebsd14"])
@pytest.mark.parametrize("text,name", [
    ("ada0", "/dev/ada0"), ("ada12", "/dev/ada12"), ("da0", "/dev/da0"), ("da31", "/dev/da31"),
    ("nvme0", "/dev/nvme0"), ("nvme0ns1", "/dev/nvme0ns1"), ("nda0", "/dev/nda0"), ("nvd0", "/dev/nvd0"),
    ("pass2", "/dev/pass2"), ("ad4", "/dev/ad4"),
])
def test_freebsd_device_names_without_dev_are_devices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      platform: str, text: str, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert paths.classify(text, platform) == ("device", name)


@pytest.mark.parametrize("text", ["ada0", "nda0", "nvd0", "da0", "nvme0ns1"])
def test_on_linux_a_freebsd_name_is_not_a_device(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Linux has no ada0: there it is a name to look up (a serial, a model), as before."""
    monkeypatch.chdir(tmp_path)
    assert paths.classify(text, "linux") == ("name", text)


@pytest.mark.parametrize("text", ["sda", "nvme0n1", "vdb", "adaX", "da", "ada0p1", "nvme0n1ns1"])
def test_freebsd_does_not_take_linux_or_partition_names_for_drives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   text: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert paths.classify(text, "freebsd14")[0] == "name"


def test_freebsd_keeps_config_in_usr_local_etc_and_the_history_in_var_db(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SSDWEAR_SYSTEM_CONFIG")  # conftest points it at a temporary file
    monkeypatch.setattr("ssdwear.model.process.is_root", lambda: True)
    assert paths.config_paths(platform="freebsd14")[0] == Path("/usr/local/etc/ssdwear/config.yaml")
    assert paths.default_db_path("freebsd14") == Path("/var/db/ssdwear/history.db")
    assert paths.config_paths(platform="linux")[0] == Path("/etc/ssdwear/config.yaml")
    assert paths.default_db_path("linux") == Path("/var/lib/ssdwear/history.db")


def _only_these_programs(monkeypatch: pytest.MonkeyPatch, present: set[str]) -> None:
    """A machine whose only smartctl binaries are `present` (absolute paths), none of them on PATH."""
    isfile, access = os.path.isfile, os.access
    monkeypatch.setattr(os.path, "isfile", lambda p: p in present or (isfile(p) and "smartctl" not in str(p)))
    monkeypatch.setattr(os, "access", lambda p, mode: p in present or (access(p, mode) and "smartctl" not in str(p)))

    monkeypatch.setattr(runner, "pysmart_path", lambda: None)


def test_freebsd_finds_the_packaged_smartctl_in_usr_local_sbin_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """FreeBSD's smartmontools package installs /usr/local/sbin/smartctl; cron's PATH lacks /usr/local/sbin."""
    _only_these_programs(monkeypatch, {"/usr/local/sbin/smartctl", "/usr/sbin/smartctl"})
    assert runner.locate_smartctl(platform="freebsd14") == "/usr/local/sbin/smartctl"
    assert runner.locate_smartctl(platform="linux") == "/usr/sbin/smartctl"


def test_freebsd_says_where_it_looked_and_how_to_install_smartmontools(monkeypatch: pytest.MonkeyPatch) -> None:
    _only_these_programs(monkeypatch, set())
    with pytest.raises(SmartctlNotFound) as raised:
        runner.locate_smartctl(platform="freebsd13")
    assert str(raised.value) == ("smartctl not found (looked in PATH and /usr/local/sbin, /usr/sbin, /sbin): install "
                                 "smartmontools (pkg install smartmontools) or pass --smartctl PATH")
    with pytest.raises(SmartctlNotFound) as raised:
        runner.locate_smartctl(platform="linux")
    assert "(looked in PATH and /usr/sbin, /sbin, /usr/local/sbin)" in str(raised.value)
    assert "apt-get install smartmontools" in str(raised.value)


def test_the_help_names_this_machines_paths() -> None:
    """On Linux the help says /etc and /var/lib; the same text reads from the table FreeBSD would use."""
    text = CliRunner().invoke(cli, ["--help"], obj=App()).output
    here = facts()
    assert str(here.system_config) in text and str(here.system_db) in text
    assert facts("freebsd14").system_config != here.system_config  # these tests run on Linux


# smartctl's FreeBSD scan, in its documented forms (fixtures/freebsd/README.md: os_freebsd.cpp, scan_devices)
FREEBSD_SCAN = [("/dev/ada0", "atacam"), ("/dev/da0", "sat"), ("/dev/nvme0", "nvme")]


@pytest.mark.parametrize("call", ["smartctl --scan-open", "smartctl --scan-open --json=c"])
def test_the_freebsd_scan_forms_are_read(call: str) -> None:
    entries = parse_scan_entries((FREEBSD / f"{call}.out").read_bytes())
    assert [(e.name, e.type, e.open_error) for e in entries] == [(n, t, None) for n, t in FREEBSD_SCAN]


def test_a_freebsd_open_failure_in_the_scan_is_kept_with_its_reason() -> None:
    """smartctl --scan-open's failure line (scan_devices: '# NAME -d TYPE # INFO, PROTO device open failed: MSG'),
    with the message os_freebsd.cpp gives for an nvd disk."""
    text = ("/dev/ada0 -d atacam # /dev/ada0, ATA device\n"
            "# /dev/nvd0 -d scsi # /dev/nvd0, SCSI device open failed: To monitor NVMe disks use /dev/nvme* "
            "device names\n")
    entries = parse_scan_entries(text)
    assert [(e.name, e.type) for e in entries] == [("/dev/ada0", "atacam"), ("/dev/nvd0", "scsi")]
    assert entries[1].open_error == "To monitor NVMe disks use /dev/nvme* device names"


def _report(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["--no-history", "--replay", str(FREEBSD), "report", "--format", "json", *args],
                                obj=App())
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_a_freebsd_machine_is_reported_through_its_own_names_and_types() -> None:
    """scan -> `smartctl -x -d atacam /dev/ada0` ... -> report: the replay answers only the calls FreeBSD's names
    and -d types make, so a Linux name or type anywhere on the way would fail the read."""
    doc = _report("--represents", "1d")
    drives = {d["device"]: d for d in doc["drives"]}
    assert [(d["device"], d["device_type"]) for d in doc["drives"]] == FREEBSD_SCAN
    assert all(d["error"] is None for d in doc["drives"])
    assert drives["/dev/ada0"]["projection"]["years_remaining"] == 18.7  # the Intel 710's window, as on Linux
    assert drives["/dev/da0"]["projection"]["years_remaining"] == 4.6
    assert drives["/dev/nvme0"]["used_percent"] == 10


def test_a_freebsd_drive_named_without_dev_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ssdwear.host.paths.facts", lambda platform=None: facts("freebsd14"))
    doc = _report("-d", "atacam", "ada0")
    assert [(d["device"], d["serial"]) for d in doc["drives"]] == [("/dev/ada0", "CVPR0000SEED710")]


def test_the_freebsd_fixture_is_what_its_script_makes(tmp_path: Path) -> None:
    made = tmp_path / "freebsd"
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "make_freebsd.py"), str(made)], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    expected = {p.name: p.read_bytes() for p in FREEBSD.iterdir()}
    assert {p.name: p.read_bytes() for p in made.iterdir()} == expected


# Real FreeBSD outputs (fixtures/corpus-freebsd/SOURCES.md: bsdhw/SMART, CC BY 4.0), values read by hand there.
HAND_READ: dict[str, dict[str, Any]] = {
    "intel-ssdsc2ba200g4": dict(platform="FreeBSD 13.2-RELEASE-p2 amd64", model="INTEL SSDSC2BA200G4", poh=34298,
                                attrs={226: 1515, 227: 21, 228: 2057412}, devstat=1),
    "intel-ssdsc2ba200g3t": dict(platform="FreeBSD 12.1-RELEASE-p13-HBSD amd64", model="INTEL SSDSC2BA200G3T",
                                 poh=52891, attrs={226: 65535, 227: 65535, 228: 65535}, devstat=3),
    "samsung-mzqlb1t9hajr-00007": dict(platform="FreeBSD 14.1-STABLE amd64", model="SAMSUNG MZQLB1T9HAJR-00007",
                                       poh=38946, used=33, written=3746054423),
    "adata-sx8200pnp": dict(platform="FreeBSD 13.1-RELEASE-p7 amd64", model="ADATA SX8200PNP", poh=19323, used=12,
                            written=60737165),
}


def test_the_freebsd_corpus_is_the_hand_read_set() -> None:
    assert sorted(p.name for p in CORPUS.glob("*.txt")) == sorted(f"bsdhw-SMART__{k}__1.txt" for k in HAND_READ)
    sources = (CORPUS / "SOURCES.md").read_text(encoding="utf-8")
    assert "CC BY 4.0" in sources and "bsdhw/SMART" in sources
    assert all(f"bsdhw-SMART__{k}__1.txt" in sources for k in HAND_READ)


@pytest.mark.parametrize("name", sorted(HAND_READ))
def test_a_real_freebsd_output_parses_to_its_hand_read_values(name: str) -> None:
    want = HAND_READ[name]
    data = (CORPUS / f"bsdhw-SMART__{name}__1.txt").read_bytes()
    assert f"[{want['platform']}]".encode() in data.splitlines()[0]  # recorded on FreeBSD
    snap = parse_output(data, name)
    assert (snap.model, snap.power_on_hours, snap.serial) == (want["model"], want["poh"], None)  # serial: '--'
    for attr_id, raw in want.get("attrs", {}).items():
        assert snap.attr(attr_id).raw == raw
    if "devstat" in want:
        assert snap.devstats[(7, 8)].value == want["devstat"]
    if "used" in want:
        assert (snap.interface, snap.nvme.percentage_used, snap.nvme.data_units_written) == (
            "nvme", want["used"], want["written"])


def test_the_real_freebsd_outputs_are_reported_by_analyze() -> None:
    result = CliRunner().invoke(cli, ["analyze", "--format", "json", *map(str, sorted(CORPUS.glob("*.txt")))],
                                obj=App())
    assert result.exit_code == 0, result.output
    drives = {Path(d["source"]).name.split("__")[1]: d for d in json.loads(result.output)["drives"]}
    assert sorted(drives) == sorted(HAND_READ)
    assert all(d["error"] is None and d["projection"] is not None for d in drives.values())
    assert drives["samsung-mzqlb1t9hajr-00007"]["used_percent"] == 33
    # the S3710's E2h since manufacture (1515/1024 %) sharpens its whole-percent Device Statistics figure
    assert drives["intel-ssdsc2ba200g4"]["used_percent"] == pytest.approx(1.479, abs=0.001)


def _periodic(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    ssdwear = Path(sys.executable).with_name("ssdwear")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "daily_status_ssdwear_program": str(ssdwear),
           "daily_status_ssdwear_flags": f"--replay {FREEBSD} --db {tmp_path / 'db' / 'history.db'}", **settings}
    return subprocess.run(["sh", str(PERIODIC)], env=env, capture_output=True, text=True, timeout=120)


def test_the_periodic_script_is_silent_until_enabled(tmp_path: Path) -> None:
    proc = _periodic(tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")
    assert not (tmp_path / "db").exists()


def test_the_periodic_script_samples_and_mails_the_check_lines(tmp_path: Path) -> None:
    (tmp_path / "db").mkdir(mode=0o700)
    proc = _periodic(tmp_path, daily_status_ssdwear_enable="YES")
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["", "SSD wear (ssdwear):"]
    assert lines[2].startswith("SSDWEAR CRITICAL - 2 of 3 drives: ")  # the Intel 320's window, read as its own
    assert [line.split(":")[0] for line in lines[3:]] == [
        "/dev/da0 INTEL SSDSA2CW120G3 [CVPR0000SEED320]", "/dev/ada0 INTEL SSDSA2BZ200G3 [CVPR0000SEED710]",
        "/dev/nvme0 SAMSUNG MZQLB1T9HAJR-00007 [S436NA0M000001]"]
    assert "|" not in proc.stdout and "'drives'=" not in proc.stdout  # the performance data is left out
    assert proc.returncode == 3  # CRITICAL: output periodic(8) never masks
    assert (tmp_path / "db" / "history.db").is_file()  # the sample was stored


def test_the_periodic_script_reports_ok_as_nothing_notable(tmp_path: Path) -> None:
    """Every drive OK: exit 0 (periodic shows it only with daily_show_success); the full report on request."""
    config = tmp_path / "config.yaml"
    config.write_text("devices:\n  - {device: /dev/nvme0, type: nvme}\n")
    proc = _periodic(tmp_path, daily_status_ssdwear_enable="yes", daily_status_ssdwear_report="YES",
                     daily_status_ssdwear_sample="NO",
                     daily_status_ssdwear_flags=f"--replay {FREEBSD} --no-history --config {config}")
    assert proc.returncode == 0, proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[2].startswith("SSDWEAR OK") and lines[3].startswith("/dev/nvme0 SAMSUNG MZQLB1T9HAJR-00007")
    assert "years left  11.2" in proc.stdout  # the report follows the check lines


def test_the_periodic_script_names_a_missing_program_as_bad_configuration(tmp_path: Path) -> None:
    proc = _periodic(tmp_path, daily_status_ssdwear_enable="YES",
                     daily_status_ssdwear_program=str(tmp_path / "nowhere" / "ssdwear"))
    assert proc.returncode == 2
    assert f"{tmp_path}/nowhere/ssdwear not found: install ssdwear or set daily_status_ssdwear_program" in proc.stdout
