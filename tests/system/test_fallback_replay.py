"""--fallback-replay at the real surface: the installed command, run as a subprocess on a machine whose smartctl finds
no SMART drive, for drives named on the command line as for a whole-machine run (issue 25.4).

Two smartctls: this machine's real one (smartmontools 7.3 on the CI runner and the VMs, which have no SMART drive: the
test is skipped where its scan finds one), and, for determinism anywhere, the fake one on PATH answering from a
folder whose only recording is smartctl 7.3's own answer to `--scan-open --json=c` on a machine without drives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import FIXTURES, ROOT
from support.tools import require

INTEL = FIXTURES / "intel"
FALLING_BACK = ("no SMART drive on this machine (smartctl found no drive); reporting the recorded smartctl outputs "
                f"in {INTEL} instead")
# What smartctl 7.3 prints for `smartctl --scan-open --json=c` where it finds no device (recorded on this machine).
NO_DRIVE_SCAN = ('{"json_format_version":[1,0],"smartctl":{"version":[7,3],"svn_revision":"5338","platform_info":'
                 '"x86_64-linux-6.18.44-fc-v669","build_info":"(local build)","argv":["smartctl","--scan-open",'
                 '"--json=c"],"exit_status":0}}')


def _ssdwear(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "ssdwear", "--no-history", "--fallback-replay", str(INTEL), *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(params=["real", "fake"])
def no_drive_env(request: pytest.FixtureRequest, tmp_path: Path, fake_smartctl) -> dict[str, str]:
    """The environment of a machine whose smartctl finds no drive: the real smartctl (skipped where it finds one) or
    the fake one first on PATH."""
    env = dict(os.environ)
    if request.param == "real":
        smartctl = require("smartctl")
        scan = subprocess.run([smartctl, "--scan-open", "--json=c"], capture_output=True, text=True, timeout=60)
        if json.loads(scan.stdout).get("devices"):
            pytest.skip("this machine's smartctl finds drives: the fallback is not for it")
        env["PATH"] = f"{Path(smartctl).parent}{os.pathsep}{env.get('PATH', '')}"
        return env
    folder = tmp_path / "no-drive"
    folder.mkdir()
    (folder / "smartctl --scan-open --json=c.out").write_text(NO_DRIVE_SCAN)
    wrapper, _ = fake_smartctl(folder)
    env.update(FAKE_SMARTCTL_DIR=str(folder), FAKE_SMARTCTL_LOG=os.environ["FAKE_SMARTCTL_LOG"],
               PATH=f"{wrapper.parent}{os.pathsep}{env.get('PATH', '')}")
    return env


@pytest.mark.parametrize("args,seen", [
    (["retire-check", "/dev/sdb", "-d", "sat"], "CVPR0000SEED320"),
    (["report", "/dev/sdb", "-d", "sat", "--format", "json"], '"serial": "CVPR0000SEED320"'),
    (["plan", "--from", "/dev/sda", "-d", "sat", "--represents", "1d", "--candidate", "710"],
     "INTEL SSDSA2BZ200G3 [CVPR0000SEED710] as measured"),
    (["status", "/dev/sda", "-d", "sat"], "/dev/sda"),
    (["report", "--represents", "1d"], "CVPR0000SEED710"),
], ids=["retire-check", "report", "plan", "status", "report-all"])
def test_a_named_drive_falls_back_to_the_recordings_and_says_so(no_drive_env: dict[str, str], args: list[str],
                                                                 seen: str) -> None:
    proc = _ssdwear(args, no_drive_env)
    assert FALLING_BACK in proc.stderr, proc.stderr
    assert "no such device" not in proc.stderr + proc.stdout
    assert seen in proc.stdout, proc.stdout + proc.stderr


def test_a_recording_made_with_another_device_type_says_which_to_give(no_drive_env: dict[str, str]) -> None:
    proc = _ssdwear(["retire-check", "/dev/sdc"], no_drive_env)
    assert FALLING_BACK in proc.stderr
    assert (f"/dev/sdc: no recording of 'smartctl --json=c -x -n standby _dev_sdc' in {INTEL}: it was recorded with "
            "-d sat: add -d sat") in proc.stderr, proc.stderr
    assert proc.returncode != 0
    given = _ssdwear(["report", "/dev/sdc", "-d", "nvme", "--format", "json"], no_drive_env)
    assert "recorded with -d sat: give -d sat" in json.loads(given.stdout)["drives"][0]["error"]


def test_a_machine_with_drives_reads_the_named_one_live(fake_smartctl) -> None:
    """The recordings stand in for a machine without drives, never for one drive of a machine that has some: a name
    the scan does not list is this machine's error."""
    wrapper, log = fake_smartctl(INTEL)  # a machine with the four recorded drives
    env = dict(os.environ, PATH=f"{wrapper.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    proc = _ssdwear(["retire-check", "/dev/sdx", "-d", "sat"], env)
    assert "no SMART drive on this machine" not in proc.stderr
    assert "/dev/sdx: no such device" in proc.stderr and proc.returncode != 0
    assert "--json=c -x -n standby -d sat /dev/sdx" in log.read_text()


def test_a_prometheus_exposition_of_recordings_is_refused(no_drive_env: dict[str, str]) -> None:
    """An exposition is what monitoring reads as this machine's drives (sample --textfile writes the same one): the
    recordings never stand in there, as check refuses them (issue 25.12). Nothing reaches stdout, exit 2."""
    proc = _ssdwear(["report", "--format", "prometheus"], no_drive_env)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "--fallback-replay is refused with --format prometheus" in proc.stderr
    assert "reporting the recorded smartctl outputs" not in proc.stderr  # refused before anything was read
