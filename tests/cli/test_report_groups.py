"""`report --groups` and `plan --stagger` over the recorded layouts (fixtures/pools: md, LVM, LUKS and btrfs
recorded in the QEMU VM; ZFS hand-written), through the real code path (--replay), and the storage tools run as
programs: found as smartctl is, timed out, refused as root when others could change them (issue 28, 7-10)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FAKE_SMARTCTL, FIXTURES

from ssdwear.cli.app import App
from ssdwear.run.groups import Tools
from ssdwear.smartctl.pools import lvm, zpool
from ssdwear.smartctl.replay import ReplayRunner, fixture_name

POOLS = FIXTURES / "pools"


def groups(machine: str | Path, *extra: str, app: App | None = None) -> list[dict]:
    folder = machine if isinstance(machine, Path) else POOLS / machine
    result = ssdwear_cli(["--replay", str(folder), "--no-history", "report", "--groups", "--format", "json",
                          *extra], app)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert set(doc) >= {"drives", "raid_volumes", "groups"}
    return doc["groups"]


def members(group: dict) -> list[tuple[str, str | None, str | None]]:
    return [(m["member"], m["serial"], m["matched_by"]) for m in group["members"]]


@pytest.mark.parametrize(("machine", "name", "level", "expected"), [
    ("md-raid1", "md0", "raid1", [("/dev/nvme0n1", "NVMEA001", "serial"), ("/dev/nvme1n1", "NVMEA002", "serial")]),
    ("md-raid5", "md5", "raid5", [(f"/dev/sd{x}", f"S5RAID00{i}", "device") for i, x in enumerate("abc", 1)]),
    ("md-raid10", "md10", "raid10", [(f"/dev/nvme{i}n1", f"NVMEB00{i + 1}", "serial") for i in range(4)]),
    ("lvm-raid1", "vg0/data", "raid1", [("/dev/sda2", "S5LVM0001", "device"), ("/dev/sdb2", "S5LVM0002", "device")]),
    ("luks-md-raid1", "md1", "raid1", [("/dev/dm-0", "S5LUKS001", "device"), ("/dev/dm-1", "S5LUKS002", "device")]),
    ("btrfs-raid1", "pool", "raid1", [(f"/dev/sd{x}", f"S5BTRFS0{i}", "device") for i, x in enumerate("abc", 1)]),
])
def test_every_recorded_layout_reaches_its_drives(machine: str, name: str, level: str, expected: list) -> None:
    """The VM's SATA disks have no serial in lsblk (no udev there): they are matched by device node, the NVMe
    namespaces by the serial sysfs gives; LUKS and partitions are followed down to the disk."""
    (group,) = groups(machine)
    assert (group["name"], group["level"], group["tolerates"], group["missing"]) == (name, level, 1, 0)
    assert members(group) == expected
    assert all(m["device"] and m["working"] for m in group["members"])


def test_the_hand_written_zfs_machines() -> None:
    (tank,) = groups("zfs-mirror")
    assert (tank["name"], tank["kind"], tank["level"], tank["tolerates"], tank["lockstep"]) == (
        "tank", "zfs", "mirror", 1, True)
    assert [m["matched_by"] for m in tank["members"]] == ["wwn", "wwn"]
    assert tank["redundancy_lost_date"] and tank["redundancy_lost_date_low"]
    lows = sorted(m["wears_out_date_low"] for m in tank["members"])
    assert tank["redundancy_lost_date_low"] == lows[1]  # tolerates 1: the second member's pessimistic date
    raidz1, raidz2 = groups("zfs-raidz")
    assert (raidz1["name"], raidz1["tolerates"], raidz1["missing"]) == ("backup/raidz1-0", 0, 1)
    assert raidz1["redundancy_lost_date_low"] == min(m["wears_out_date_low"] for m in raidz1["members"][:2])
    assert raidz2["members"][3]["serial"] == "S3Z9NB0K400001D"  # the hot spare that stands in
    draid, special, log = groups("zfs-draid")
    assert [g["role"] for g in (draid, special, log)] == ["data", "special", "log"]
    assert draid["level"] == "draid2" and draid["tolerates"] == 2 and len(draid["members"]) == 7


def test_zfs_before_23_refuses_json_and_the_text_is_read() -> None:
    runner = ReplayRunner(POOLS / "zfs-raidz", program="zpool")
    app = App(clock=lambda: T0, tools=Tools({"zpool": runner}))
    assert [g["name"] for g in groups("zfs-raidz", app=app)] == ["backup/raidz1-0", "backup/raidz2-1"]
    assert runner.calls == [zpool.JSON_ARGS, zpool.TEXT_ARGS]


def test_lvm_without_json_output_is_read_as_text(tmp_path: Path) -> None:
    """An LVM older than 2.02.158 refuses --reportformat: the recorded text form of the same machine is read."""
    folder = tmp_path / "old-lvm"
    shutil.copytree(POOLS / "lvm-raid1", folder)
    stem = folder / fixture_name(lvm.JSON_ARGS, "lvm")
    stem.with_name(stem.name + ".out").write_text("")
    stem.with_name(stem.name + ".rc").write_text("3\n")
    stem.with_name(stem.name + ".err").write_text('  Unrecognised option "--reportformat"\n')
    assert groups(folder) == groups("lvm-raid1")


def test_no_groups_key_without_the_option_and_the_config_turns_it_on(tmp_path: Path) -> None:
    result = ssdwear_cli(["--replay", str(POOLS / "md-raid1"), "--no-history", "report", "--format", "json"])
    assert "groups" not in json.loads(result.stdout)
    config = tmp_path / "c.yaml"
    config.write_text("groups: true\n")
    result = ssdwear_cli(["--config", str(config), "--replay", str(POOLS / "md-raid1"), "--no-history", "report",
                          "--format", "json"])
    assert [g["name"] for g in json.loads(result.stdout)["groups"]] == ["md0"]


def test_the_table_has_a_row_per_group_under_the_drives() -> None:
    result = ssdwear_cli(["--replay", str(POOLS / "zfs-draid"), "--no-history", "report", "--groups"],
                         env={"COLUMNS": "140"})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(i for i, line in enumerate(lines) if "Redundancy lost" in line and "Lockstep" in line)
    assert header > next(i for i, line in enumerate(lines) if "Years left" in line)  # under the drives' table
    rows = [line for line in lines[header:] if line.startswith("│ data/")]
    assert [row.split("│")[1].strip() for row in rows] == [
        "data/draid2:4d:7c:1s-0 (zfs)", "data/mirror-1 (zfs, special)", "data/mirror-2 (zfs, log)"]
    assert any(line.startswith("data/mirror-2: lockstep: same model") for line in lines)


def test_a_machine_without_groups_says_so() -> None:
    result = ssdwear_cli(["--replay", str(FIXTURES / "fleet"), "--no-history", "report", "--groups"])
    assert result.exit_code == 0 and "Redundancy groups: none found" in result.stdout
    doc = json.loads(ssdwear_cli(["--replay", str(FIXTURES / "fleet"), "--no-history", "report", "--groups",
                                  "--format", "json"]).stdout)
    assert doc["groups"] == []


def test_prometheus_has_the_groups_dates_and_members() -> None:
    result = ssdwear_cli(["--replay", str(POOLS / "zfs-mirror"), "--no-history", "report", "--groups", "--format",
                          "prometheus"])
    text = result.stdout
    doc = groups("zfs-mirror")[0]
    lost = [line for line in text.splitlines()
            if line.startswith('ssdwear_group_redundancy_lost_lower_timestamp_seconds{group="tank"')]
    assert len(lost) == 1
    from datetime import datetime, timezone

    at = datetime.fromtimestamp(int(lost[0].split()[-1]), timezone.utc)
    assert at.date().isoformat() == doc["redundancy_lost_date_low"]
    assert 'ssdwear_group_lockstep{group="tank",kind="zfs",level="mirror"} 1' in text
    assert ('ssdwear_member_info{group="tank",kind="zfs",member="/dev/sda1",device="/dev/sda",'
            'model="Samsung SSD 860 EVO 1TB",serial="S3Z9NB0K100001A"} 1') in text


def test_sample_writes_the_groups_into_its_textfile_when_configured(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("groups: true\n")
    out = tmp_path / "textfile"
    out.mkdir()
    result = ssdwear_cli(["--config", str(config), "--replay", str(POOLS / "zfs-mirror"), "--db",
                          str(tmp_path / "h.db"), "sample", "--textfile", str(out)])
    assert result.exit_code == 0 and result.output == "", result.output
    assert 'ssdwear_group_lockstep{group="tank"' in (out / "ssdwear.prom").read_text()


# -- plan --stagger --------------------------------------------------------------------------------------------


def stagger(machine: str, group: str, fmt: str = "json") -> tuple[int, str, str]:
    result = ssdwear_cli(["--replay", str(POOLS / machine), "--no-history", "plan", "--stagger", group, "--format",
                          fmt])
    return result.exit_code, result.stdout, result.stderr


def test_stagger_a_lockstep_mirror_exit_0() -> None:
    code, stdout, _ = stagger("zfs-mirror", "tank")
    doc = json.loads(stdout)
    assert code == 0 and doc["fits"] and doc["group"] == {"name": "tank", "kind": "zfs", "level": "mirror",
                                                          "tolerates": 1}
    replace = [s for s in doc["schedule"] if s["action"] == "replace"]
    keep = [s for s in doc["schedule"] if s["action"] == "keep"]
    assert len(replace) == len(keep) == 1
    (r,), (k,) = replace, keep
    assert r["quarter"] == k["quarter"] and r["new_quarter"] != k["quarter"]
    assert r["replace_by"] == r["wears_out_date_low"] and r["replace_from"] == T0.date().isoformat()
    assert r["wears_out_date_low"] < k["wears_out_date_low"]  # the earlier one is replaced
    assert 0 < r["rebuild_percent"] < 1 and r["rebuild_basis"] == "its capacity against its rated endurance"


def test_stagger_without_a_fitting_schedule_exit_1() -> None:
    code, stdout, _ = stagger("zfs-raidz", "backup/raidz2-1")
    doc = json.loads(stdout)
    assert code == 1 and doc["fits"] is False
    assert any(s["action"] == "replace" and s["replace_by"] is None for s in doc["schedule"])
    code, stdout, _ = stagger("zfs-raidz", "backup/raidz2-1", "table")
    assert code == 1 and "no schedule fits" in " ".join(stdout.split())


def test_stagger_usage_and_unknown_dates() -> None:
    code, _, stderr = stagger("zfs-raidz", "tank")
    assert code == 2 and stderr.strip() == ("ssdwear: --stagger tank: no such redundancy group here; the groups: "
                                            "backup/raidz1-0, backup/raidz2-1")
    code, _, stderr = stagger("md-raid1", "/dev/md0")  # the md array by its device; QEMU's drives project nothing
    assert code == 1 and "md0: no pessimistic wear-out date for /dev/nvme0n1, /dev/nvme1n1" in stderr
    result = ssdwear_cli(["--replay", str(POOLS / "zfs-mirror"), "plan", "--stagger", "tank", "--host-writes",
                          "1TB/day"])
    assert result.exit_code == 2 and "give it without --from" in result.stderr


# -- the tools as programs -------------------------------------------------------------------------------------


@pytest.fixture
def fake_tools(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Stand-in programs (smartctl and the storage tools named) that answer from a folder's recordings, in one
    bin/ that is all of PATH and of the places looked in after it; the md arrays sysfs lists are none."""
    from dataclasses import replace

    from ssdwear.host.platforms import LINUX

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setattr("ssdwear.host.runner.facts", lambda platform=None: replace(LINUX,
                                                                                    program_dirs=(str(bin_dir),)))
    monkeypatch.setattr("ssdwear.host.paths.md_arrays", lambda: [])

    def use(folder: Path, *programs: str) -> Path:
        for program in ("smartctl", *programs):
            wrapper = bin_dir / program
            wrapper.write_text(f"#!/bin/sh\nFAKE_PROGRAM={program} exec {sys.executable} {FAKE_SMARTCTL} \"$@\"\n")
            wrapper.chmod(0o755)
        monkeypatch.setenv("FAKE_SMARTCTL_DIR", str(folder))
        return bin_dir

    return use


def live(bin_dir: Path, *args: str):
    return ssdwear_cli(["--smartctl", str(bin_dir / "smartctl"), *args, "--no-history", "report", "--groups",
                        "--format", "json"], App(clock=lambda: T0))


def test_the_tools_are_found_and_run_as_programs(fake_tools) -> None:
    result = live(fake_tools(POOLS / "luks-md-raid1", "lsblk", "mdadm"))
    assert result.exit_code == 0 and result.stderr == "", result.stderr
    (group,) = json.loads(result.stdout)["groups"]
    assert [m["serial"] for m in group["members"]] == ["S5LUKS001", "S5LUKS002"]


def test_a_hung_tool_is_killed_and_said_once(fake_tools, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = fake_tools(POOLS / "md-raid1", "lsblk", "mdadm")
    monkeypatch.setenv("FAKE_SMARTCTL_HANG_CALLS", "--export")
    result = live(bin_dir, "--timeout", "1")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["groups"] == []
    assert result.stderr.count("mdadm --detail --export /dev/md0: mdadm: did not answer within 1 s and was killed") \
        == 1


def test_md_arrays_in_sysfs(tmp_path: Path) -> None:
    from ssdwear.host.paths import md_arrays

    sys_root = tmp_path / "sys"
    for name in ("md0", "md9"):
        (sys_root / "block" / name / "md").mkdir(parents=True)
    (sys_root / "block" / "sda").mkdir()
    assert md_arrays(sys_root) == ["md0", "md9"] and md_arrays(tmp_path / "none") == []


def test_md_arrays_sysfs_lists_are_checked_against_mdadms(fake_tools, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setattr("ssdwear.host.paths.md_arrays", lambda: ["md0", "md9"])
    result = live(fake_tools(POOLS / "md-raid1", "lsblk", "mdadm"))
    assert "warning: md arrays md9 exist (/sys/block) but mdadm --detail --scan did not list them" in result.stderr
    bin_dir = tmp_path / "bin"
    (bin_dir / "mdadm").unlink()
    result = live(bin_dir)
    assert "warning: md arrays md0, md9 exist (/sys/block) but mdadm was not found: install mdadm" in result.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="the trust rules apply to root (CI runs as root)")
def test_root_refuses_a_tool_others_could_replace(fake_tools) -> None:
    """An interpreter posing as mdadm is never run; the drives are still reported."""
    bin_dir = fake_tools(POOLS / "md-raid1", "lsblk")
    (bin_dir / "mdadm").symlink_to(os.path.realpath(sys.executable))
    result = live(bin_dir)
    assert result.exit_code == 0, result.stderr
    assert f"warning: mdadm not used: refusing mdadm binary {bin_dir / 'mdadm'}: it is " in result.stderr
