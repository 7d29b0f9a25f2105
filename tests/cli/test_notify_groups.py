"""notify's group rules fed from the redundancy groups `report --groups` finds (issue 28.9, the notify half): a mirror
of two drives bought together (fixtures/pools/zfs-mirror, its drives rewritten each week by tools/make_pools.py's
builder), sampled weekly through the real CLI with the clock moved on."""

from __future__ import annotations

import shutil
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from support.cli import ssdwear_cli
from support.clock import T0, SteppedClock
from support.paths import FIXTURES
from support.wearing import config, logged, recorder

from ssdwear.cli.app import App
from ssdwear.run.groups import Tools
from ssdwear.smartctl.replay import ReplayRunner
from tools.make_pools import EVO, Drive, smartctl

MIRROR = FIXTURES / "pools" / "zfs-mirror"
RATE = 0.6  # % a week, each drive; 40 % after as many power-on weeks at the same rate, so the lifetime rate agrees
START_WEEKS = 40 / RATE
QUIET_WEEKS = 8  # sampled without notify first: the server had a history before its notify: section
WEEKS = 104
NO_POOL = set(range(40, 49))  # zpool not answering (longer than resolve_after's 30 days): the group is not found
NO_SDB = {55, 56}  # one member's drive gone from the scan: the group is found, but cannot be judged


def put_mirror(folder: Path, week: int) -> None:
    """The mirror's two drives this week: worn 0.6 % a week, power-on hours 1 % apart (lockstep)."""
    used = 40 + RATE * week
    hours = (START_WEEKS + week) * 168
    smartctl(folder, [Drive("sda", "S3Z9NB0K100001A", EVO, 0x0000861001, round(hours), int(used), written_tb=used * 6),
                      Drive("sdb", "S3Z9NB0K100002A", EVO, 0x0000861002, round(hours * 0.99), int(used),
                            written_tb=used * 6, read=week not in NO_SDB)])


def week_of(doc: dict[str, Any]) -> int:
    return round((datetime.fromisoformat(doc["generated_at"]) - T0) / timedelta(days=7))


@pytest.mark.slow
def test_a_mirror_wearing_out_tells_each_group_threshold_once_and_lockstep_once(tmp_path: Path) -> None:
    folder = tmp_path / "zfs-mirror"
    shutil.copytree(MIRROR, folder)
    aside = tmp_path / "aside"
    aside.mkdir()
    program, log = recorder(tmp_path)
    cfg = config(tmp_path, f"notify:\n  channels:\n    - command: {program}\n")
    clock = SteppedClock(T0)
    for week in range(WEEKS):
        put_mirror(folder, week)
        if week in NO_POOL:  # the recording of a machine where zpool is not installed (any more)
            for p in folder.glob("zpool *"):
                p.rename(aside / p.name)
        options = ["--replay", str(folder), "--db", str(tmp_path / "h.db"), "--config", str(cfg)]
        result = ssdwear_cli([*options, "sample", *(["--no-notify"] if week < QUIET_WEEKS else [])], App(clock=clock))
        assert (result.exit_code, result.stderr) == (0, ""), week
        for p in aside.iterdir():
            p.rename(folder / p.name)
        clock.advance(days=7)
    group = [(week_of(e), e["event"], e["rule"], e["threshold"]) for e in logged(log) if e["group"]]
    assert group == [
        (QUIET_WEEKS, "firing", "group_lockstep", "lockstep"),
        (30, "firing", "group_redundancy_lost_within", "365d"),
        (65, "worse", "group_redundancy_lost_within", "180d"),
        (85, "worse", "group_redundancy_lost_within", "90d")], group
    first = next(e for e in logged(log) if e["group"])
    assert first["key"] == "group:zfs:623692891532546406/group_lockstep"  # the vdev's guid (zpool -j): stable
    assert first["group"]["name"] == "tank" and first["group"]["members"] == ["S3Z9NB0K100001A", "S3Z9NB0K100002A"]
    # the group's date is its second member's (a mirror survives one): the same week its drives' rule tightens
    drives = {(week_of(e), e["threshold"]) for e in logged(log) if e["rule"] == "wears_out_within"}
    assert {(w, t) for w, _, rule, t in group if rule == "group_redundancy_lost_within"} <= drives


def tools(folder: Path) -> tuple[Tools, list[ReplayRunner]]:
    runners = [ReplayRunner(folder, program=p) for p in ("lsblk", "zpool")]  # those the machine has
    return Tools({r.program: r for r in runners}, live=False), runners


def test_notify_finds_the_groups_while_a_group_rule_is_enabled_and_asks_no_tool_otherwise(tmp_path: Path) -> None:
    """The default rules judge groups, so `notify` asks the storage tools as report --groups does, whatever the
    config's `groups:` (which is about report's and the textfile's output); a config that leaves both group rules
    out of notify.rules asks none of them."""
    asked, runners = tools(MIRROR)
    told = ssdwear_cli(["--no-history", "--replay", str(MIRROR), "notify", "--dry-run"], App(tools=asked))
    assert told.exit_code == 0 and told.stdout.startswith("FIRING group_lockstep: tank (zfs): its members wear in "
                                                          "lockstep (same model (Samsung SSD 860 EVO 1TB); ")
    assert [r.program for r in runners if r.calls] == ["lsblk", "zpool"]
    cfg = config(tmp_path, "notify:\n  rules: [verdict, used_percent]\n")
    quiet, runners = tools(MIRROR)
    result = ssdwear_cli(["--no-history", "--replay", str(MIRROR), "--config", str(cfg), "notify", "--dry-run"],
                         App(tools=quiet))
    assert (result.exit_code, result.stdout) == (0, "")
    assert not any(r.calls for r in runners)
