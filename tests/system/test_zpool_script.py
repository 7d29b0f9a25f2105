"""contrib/zfs/ssdwear, the zpool.d script (`zpool status -c ssdwear`): per leaf vdev, the drive's wear used and its
pessimistic wear-out month, read from the textfile `sample` wrote (never from the drive: zpool runs it
unprivileged), under every /bin/sh it may meet, and as a user who can read nothing else (issue 28.10)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.paths import FIXTURES, ROOT

SCRIPT = ROOT / "contrib" / "zfs" / "ssdwear"
SHELLS = [s for s in ("dash", "bash", "busybox") if shutil.which(s)]


@pytest.fixture(scope="module")
def textfile() -> Iterator[Path]:
    """What `ssdwear sample` writes with `groups: true` for the ZFS mirror, in a directory anyone may read."""
    folder = Path(tempfile.mkdtemp(prefix="ssdwear-zpool-d-"))
    try:
        folder.chmod(0o755)
        config = folder / "c.yaml"
        config.write_text(f"groups: true\ntextfile_dir: {folder}\n")
        result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "pools" / "zfs-mirror"),
                              "--db", str(folder / "h.db"), "sample"])
        assert result.exit_code == 0, result.output
        yield folder / "ssdwear.prom"
    finally:
        shutil.rmtree(folder)


def run(shell: str, env: dict[str, str], user: bool = False) -> str:
    argv = [*([shell, "sh"] if shell == "busybox" else [shell]), str(SCRIPT)]
    if user:
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
    proc = subprocess.run(argv, env={"PATH": os.environ["PATH"], **env}, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    return proc.stdout


def expected(textfile: Path, device: str) -> str:
    report = ssdwear_cli(["--replay", str(FIXTURES / "pools" / "zfs-mirror"), "--no-history", "report",
                          "--format", "json"])
    drive = next(d for d in json.loads(report.stdout)["drives"] if d["device"] == device)
    month = drive["projection"]["wears_out_date_low"][:7]
    return f"used={drive['used_percent']:.0f}%\nwears_out_low={month}\n"


@pytest.mark.parametrize("shell", SHELLS)
def test_each_leaf_gets_its_drives_wear_and_pessimistic_month(textfile: Path, shell: str) -> None:
    env = {"SSDWEAR_TEXTFILE": str(textfile)}
    assert run(shell, {**env, "VDEV_PATH": "/dev/sda1", "VDEV_UPATH": "/dev/sda"}) == expected(textfile, "/dev/sda")
    # member_info names the drive under the member, whatever VDEV_UPATH says
    assert run(shell, {**env, "VDEV_PATH": "/dev/sdb1", "VDEV_UPATH": ""}) == expected(textfile, "/dev/sdb")
    assert run(shell, {**env, "VDEV_PATH": "/dev/sdq1", "VDEV_UPATH": "/dev/sdq"}) == "used=-\nwears_out_low=-\n"
    assert run(shell, {"SSDWEAR_TEXTFILE": "/nonexistent/ssdwear.prom"}).startswith(
        "no ssdwear textfile at /nonexistent/ssdwear.prom: set textfile_dir in /etc/ssdwear/config.yaml")
    nowhere = textfile.parent / "nowhere.yaml"
    nowhere.write_text("textfile_dir: /nonexistent  # a later config wins\n")
    said = run(shell, {"SSDWEAR_CONFIG": str(nowhere), "VDEV_PATH": "/dev/sda1"})
    assert said.count("\n") == 1 and said.startswith("no ssdwear textfile at /nonexistent/ssdwear.prom")  # one line:
    # zpool shows it without a column title
    assert "pessimistic wear-out month" in subprocess.run(
        [*([shell, "sh"] if shell == "busybox" else [shell]), str(SCRIPT), "-h"], capture_output=True,
        text=True).stdout


def test_it_finds_the_textfile_through_the_config(textfile: Path) -> None:
    env = {"SSDWEAR_CONFIG": str(textfile.parent / "c.yaml"), "VDEV_PATH": "/dev/sda1", "VDEV_UPATH": "/dev/sda"}
    assert run("sh", env) == expected(textfile, "/dev/sda")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root to become nobody")
def test_an_unprivileged_user_reads_the_textfile_alone(textfile: Path) -> None:
    assert stat.S_IMODE(textfile.stat().st_mode) == 0o644
    env = {"SSDWEAR_TEXTFILE": str(textfile), "VDEV_PATH": "/dev/sda1", "VDEV_UPATH": "/dev/sda"}
    assert run("sh", env, user=True) == expected(textfile, "/dev/sda")
