"""What root trusts, judged on what is actually opened (issue 16, items 1-3 and the --db part of 12).

Each test reproduces an attack with real objects: a pipe, a deleted file, an interpreter posing as smartctl, a
drive database others can change, a journal planted by another (real, when the suite can create one) user
beside root's history, and a --db path through someone else's directory or link.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES, ROOT

from ssdwear.cli.app import App
from ssdwear.host.runner import SmartctlRunner, locate_nvme
from ssdwear.host.store.queries import Store
from ssdwear.host.trust import UntrustedFile
from ssdwear.model.errors import StoreError
from ssdwear.smartctl.replay import ReplayRunner

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the trust rules apply to root (CI runs as root)")
OTHER_UID = 1000  # any uid that is not root's
INTERPRETER = os.path.realpath(sys.executable)  # e.g. /usr/bin/python3.11: root-owned, in a root-owned directory


def ssdwear(*args: str, **kwargs) -> subprocess.CompletedProcess[str]:
    """ssdwear in a process of its own (descriptors, stdin and /proc/self are that process's)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "ssdwear", *args], capture_output=True, text=True, timeout=60,
                          env=env, **kwargs)


def one_line(stderr: str) -> str:
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def sticky(folder: Path) -> Path:
    """A directory like /tmp: everyone may write, the sticky bit keeps each one's entries their own."""
    folder.mkdir()
    folder.chmod(0o1777)
    return folder


def sample(db: Path):
    return ssdwear_cli(["--db", str(db), "sample"], App(runner=ReplayRunner(FIXTURES / "fleet"), clock=lambda: T0))


def attack_config(tmp_path: Path, smartctl: str) -> tuple[str, Path]:
    """The issue's attack: a config naming an interpreter as smartctl, with its script passed as `-B FILE`.
    The script is root's own and harmless here: it only leaves a marker, which shows that root ran it."""
    marker = tmp_path / "root-ran-the-script"
    script = tmp_path / "evil.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    script.chmod(0o644)
    return f"smartctl: {smartctl}\nsmartctl_options: [\"-B\", \"{script}\"]\n", marker


# ------------------------------------------------------------------------------------------------
# 16.1: a config read through a pipe, a descriptor or a deleted file


@pytest.mark.parametrize("name", ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"])
def test_root_refuses_a_config_read_through_a_pipe(tmp_path: Path, name: str) -> None:
    config, marker = attack_config(tmp_path, INTERPRETER)
    proc = ssdwear("--config", name, "--no-history", "scan", input=config)
    assert not marker.exists()  # root ran nothing
    line = one_line(proc.stderr)
    assert proc.returncode == 1 and proc.stdout == ""
    assert line.startswith(f"ssdwear: refusing config file {name}: it is a pipe, reached through /proc")


@pytest.mark.parametrize("name", ["/dev/stdin", "/proc/self/fd/{fd}"])
def test_root_refuses_a_deleted_config(tmp_path: Path, name: str) -> None:
    """A root-owned file in a root-owned directory, but unlinked: what it says is nobody's file any more."""
    path = tmp_path / "config.yaml"
    path.write_text("workers: 2\n")
    path.chmod(0o644)
    with open(path, "rb") as handle:
        path.unlink()
        fd = handle.fileno()
        proc = ssdwear("--config", name.format(fd=fd), "--no-history", "--replay", str(FIXTURES / "intel"),
                       "report", stdin=handle, pass_fds=(fd,))
    line = one_line(proc.stderr)
    assert proc.returncode == 1 and proc.stdout == ""
    assert f"refusing config file {name.format(fd=fd)}: it is a deleted file, reached through /proc" in line


@pytest.mark.parametrize("kind", ["FIFO", "socket", "character device"])
def test_root_refuses_a_config_that_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "config.yaml"
    server = None
    if kind == "FIFO":
        os.mkfifo(path, 0o644)  # nobody writes to it: reading it would wait for ever
    elif kind == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(path))
    else:
        path = Path("/dev/null")
    try:
        proc = ssdwear("--config", str(path), "--no-history", "--replay", str(FIXTURES / "intel"), "report",
                       stdin=subprocess.DEVNULL)
    finally:
        if server is not None:
            server.close()
    line = one_line(proc.stderr)
    assert proc.returncode == 1 and f"refusing config file {path}: it is a {kind}, not a regular file" in line


def test_root_still_reads_a_config_only_root_can_change_through_its_own_link(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("workers: 2\n")
    real.chmod(0o644)
    link = tmp_path / "config.yaml"
    link.symlink_to(real)
    result = ssdwear_cli(["--config", str(link), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 0, result.stderr


def test_root_refuses_a_link_someone_else_owns_on_the_way(tmp_path: Path) -> None:
    """In a sticky directory (/tmp) the owner of a link may replace it at any time: the check would judge one
    file and root would read another."""
    shared = sticky(tmp_path / "shared")
    real = tmp_path / "real.yaml"
    real.write_text("workers: 2\n")
    real.chmod(0o644)
    link = shared / "config.yaml"
    link.symlink_to(real)
    os.lchown(link, OTHER_UID, OTHER_UID)
    result = ssdwear_cli(["--config", str(link), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1
    assert f"refusing config file {link}: {link} is a symbolic link owned by " in result.stderr
    assert f"uid {OTHER_UID}" in result.stderr


# ------------------------------------------------------------------------------------------------
# 16.1: smartctl must be smartctl; a drive database must be root's


def test_root_refuses_an_interpreter_named_as_smartctl_in_a_config(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    text, marker = attack_config(tmp_path, INTERPRETER)
    config.write_text(text)
    config.chmod(0o644)
    result = ssdwear_cli(["--config", str(config), "--no-history", "scan"])
    assert result.exit_code == 1 and not marker.exists()
    assert f"refusing smartctl binary {INTERPRETER}: it is named {Path(INTERPRETER).name}, not smartctl" \
        in result.stderr


@pytest.mark.parametrize("how", ["--smartctl", "SSDWEAR_SMARTCTL"])
def test_root_refuses_an_interpreter_behind_a_link_named_smartctl(tmp_path: Path, monkeypatch, how: str) -> None:
    link = tmp_path / "bin" / "smartctl"
    link.parent.mkdir()
    link.symlink_to(INTERPRETER)  # root's own link, in root's own directory: only the name is a lie
    config = tmp_path / "config.yaml"
    text, marker = attack_config(tmp_path, "/usr/sbin/smartctl")
    config.write_text(text.split("\n", 1)[1])  # only the options; the binary comes from the command line
    config.chmod(0o644)
    args = ["--config", str(config), "--no-history", "scan"]
    if how == "--smartctl":
        args = ["--smartctl", str(link), *args]
    else:
        monkeypatch.setenv("SSDWEAR_SMARTCTL", str(link))
    result = ssdwear_cli(args, App())
    assert result.exit_code == 1 and not marker.exists()
    assert f"refusing smartctl binary {link}: it is {INTERPRETER}, named {Path(INTERPRETER).name}, not smartctl" \
        in result.stderr


def test_root_refuses_an_interpreter_posing_as_nvme_cli(tmp_path: Path, monkeypatch) -> None:
    link = tmp_path / "bin" / "nvme"
    link.parent.mkdir()
    link.symlink_to(INTERPRETER)
    monkeypatch.setenv("PATH", str(link.parent))
    with pytest.raises(UntrustedFile, match=f"refusing nvme-cli binary {link}: it is {INTERPRETER}, named "):
        locate_nvme()


def test_the_suites_fake_smartctl_script_still_runs(fake_smartctl) -> None:
    """A shell script named smartctl, root's, in a directory only root can write: what a site wrapper is."""
    smartctl, log = fake_smartctl(FIXTURES / "intel")
    result = ssdwear_cli(["--smartctl", str(smartctl), "--no-history", "report", "/dev/sda", "-d", "sat"], App())
    assert result.exit_code == 0, result.stderr
    assert "/dev/sda" in log.read_text()


def _drivedb(tmp_path: Path, how: str) -> Path:
    drivedb = tmp_path / "drivedb.h"
    drivedb.write_text('{ "VENDOR SSD", "MODEL", "", "", "-v 9,minutes" },\n')
    drivedb.chmod(0o644)
    if how == "world-writable":
        drivedb.chmod(0o666)
    elif how == "other owner":
        os.chown(drivedb, OTHER_UID, OTHER_UID)
    return drivedb


@pytest.mark.parametrize("how", ["world-writable", "other owner"])
@pytest.mark.parametrize("form", ["-B FILE", "-BFILE", "-B +FILE", "-B+FILE", "--drivedb=FILE", "--drivedb +FILE"])
def test_root_refuses_a_drive_database_others_can_change(tmp_path: Path, how: str, form: str) -> None:
    drivedb = _drivedb(tmp_path, how)
    options = form.replace("FILE", str(drivedb)).split(" ")
    config = tmp_path / "config.yaml"
    config.write_text("smartctl_options: [" + ", ".join(f'"{o}"' for o in options) + "]\n")
    config.chmod(0o644)
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1
    line = one_line(result.stderr)
    assert line.startswith(f"ssdwear: {config}:1: smartctl_options: refusing drive database {drivedb}: ")
    assert ("writable by group and others, mode 0666" if how == "world-writable" else f"uid {OTHER_UID}") in line


def test_a_drive_database_is_checked_again_before_smartctl_runs(tmp_path: Path, fake_smartctl) -> None:
    smartctl, _ = fake_smartctl(FIXTURES / "intel")
    drivedb = _drivedb(tmp_path, "fine")
    SmartctlRunner(str(smartctl), options=["-B", f"+{drivedb}"])  # root's own file: accepted
    drivedb.chmod(0o664)  # changed after the config was read
    with pytest.raises(UntrustedFile, match=f"refusing drive database {drivedb}: writable by its group"):
        SmartctlRunner(str(smartctl), options=["-B", f"+{drivedb}"])


def test_a_drive_database_must_be_named_by_an_absolute_path(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text('smartctl_options: ["--drivedb=drivedb.h"]\n')
    config.chmod(0o644)
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1 and "drive database 'drivedb.h' must be an absolute path" in result.stderr


# ------------------------------------------------------------------------------------------------
# 16.2: a deleted file as the smartctl binary


@pytest.mark.parametrize("name", ["/dev/stdin", "/proc/self/fd/{fd}"])
def test_root_refuses_a_deleted_smartctl(tmp_path: Path, name: str) -> None:
    shared = sticky(tmp_path / "shared")
    marker = tmp_path / "root-ran-it"
    evil = shared / "evil.sh"
    evil.write_text(f"#!/bin/sh\necho ran > {marker}\n")
    evil.chmod(0o755)
    os.chown(evil, OTHER_UID, OTHER_UID)
    with open(evil, "rb") as handle:
        evil.unlink()
        fd = handle.fileno()
        proc = ssdwear("--smartctl", name.format(fd=fd), "--no-history", "scan", stdin=handle, pass_fds=(fd,))
    assert not marker.exists()
    line = one_line(proc.stderr)
    assert proc.returncode == 1
    assert f"refusing smartctl binary {name.format(fd=fd)}: it is a deleted file, reached through /proc" in line


# ------------------------------------------------------------------------------------------------
# 16.3: the database's directory and the files beside the database


def _history(folder: Path) -> Path:
    """A real history (three samples of the fleet), checkpointed, with nothing beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "h.db"
    for _ in range(3):
        result = sample(db)
        assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["h.db", "h.db.lock", "h.db.resetting"]  # and its locks
    return db


def _hot_journal(db: Path, work: Path) -> bytes:
    """A rollback journal that SQLite plays back into `db` as a hot journal: the pages of a copy of it whose
    samples say 99 % used. Made the way a crash leaves one (a transaction's journal, never committed)."""
    copy = work / "attacker.db"
    shutil.copy(db, copy)
    con = sqlite3.connect(copy)
    con.execute("PRAGMA journal_mode = DELETE")
    con.execute("UPDATE samples SET used = 99")
    con.commit()
    con.close()
    con = sqlite3.connect(copy, isolation_level=None)
    con.execute("PRAGMA synchronous = OFF")  # the journal header is complete at once
    con.execute("BEGIN IMMEDIATE")
    con.execute("DELETE FROM samples")
    con.execute("UPDATE drives SET model = 'x'")
    journal = Path(f"{copy}-journal").read_bytes()
    con.execute("ROLLBACK")
    con.close()
    return journal


def _samples(db: Path) -> list[tuple]:
    con = sqlite3.connect(f"file:{db}?mode=ro&immutable=1", uri=True)  # reads the file only, plays nothing back
    try:
        return con.execute("SELECT drive_id, t, used FROM samples ORDER BY drive_id, t").fetchall()
    finally:
        con.close()


@pytest.fixture
def other_user() -> Iterator[str | None]:
    """A second real user account for the test (removed afterwards), or None where none can be created."""
    name = f"ssdwear-t{os.getpid()}"
    if not shutil.which("useradd") or subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
            capture_output=True, timeout=60).returncode != 0:
        yield None
        return
    try:
        yield name
    finally:
        subprocess.run(["userdel", name], capture_output=True, timeout=60)


def _plant(path: Path, data: bytes, user: str | None) -> int:
    """`data` written to `path` by another user: the real one when there is one, else a file chowned to one."""
    if user is not None and shutil.which("runuser"):
        subprocess.run(["runuser", "-u", user, "--", "sh", "-c", 'cat > "$0"', str(path)], input=data, check=True,
                       timeout=60)
    else:
        path.write_bytes(data)
        os.chown(path, OTHER_UID, OTHER_UID)
    uid = path.stat().st_uid
    assert uid != 0
    return uid


def test_a_journal_planted_by_another_user_does_not_replace_roots_history(tmp_path: Path, other_user) -> None:
    db = _history(tmp_path / "private")
    journal = _hot_journal(db, tmp_path)
    # a shared sticky directory as /tmp is, which the other user can reach (pytest's own folders are root's)
    shared = Path(tempfile.mkdtemp(prefix="ssdwear-shared-", dir="/tmp"))
    try:
        shared.chmod(0o1777)
        victim = shared / "h.db"
        os.rename(db, victim)
        samples, content = _samples(victim), victim.read_bytes()
        uid = _plant(Path(f"{victim}-journal"), journal, other_user)
        result = ssdwear_cli(["--db", str(victim), "--replay", str(FIXTURES / "fleet"), "report", "--format", "json"])
        assert _samples(victim) == samples and victim.read_bytes() == content  # nothing played back
        assert result.exit_code == 0  # report goes on without history, and says why in one line
        [line] = [x for x in result.stderr.splitlines() if "history not used" in x]
        assert f"refusing history database {victim}: its directory {shared} is writable by group and others, " \
            "mode 1777, sticky or not" in line
        # the same journal beside it in a directory only root can write: refused for its owner
        os.rename(victim, db)
        os.rename(f"{victim}-journal", f"{db}-journal")
        with pytest.raises(StoreError, match=f"{db}-journal is owned by .*uid {uid}.*not by the database's owner"):
            Store.open(db, create=False, write=False)
        assert _samples(db) == samples and db.read_bytes() == content
    finally:
        shutil.rmtree(shared)


@pytest.mark.parametrize("mode", [0o1777, 0o1770, 0o1730])
def test_root_refuses_a_database_in_a_directory_others_can_write_sticky_or_not(tmp_path: Path, mode: int) -> None:
    db = _history(tmp_path / "shared")
    db.parent.chmod(mode)
    for write in (False, True):
        with pytest.raises(StoreError, match=f"its directory {db.parent} is writable by (others|its group|group "
                                             "and others).*sticky or not"):
            Store.open(db, create=write, write=write)


@pytest.mark.parametrize("suffix", ["-journal", "-wal", "-shm"])
def test_root_refuses_a_file_beside_the_database_that_another_user_owns(tmp_path: Path, suffix: str) -> None:
    db = _history(tmp_path / "private")
    side = Path(f"{db}{suffix}")
    side.write_bytes(b"")
    os.chown(side, OTHER_UID, OTHER_UID)
    with pytest.raises(StoreError, match=f"{side} is owned by .*uid {OTHER_UID}.*, not by the database's owner"):
        Store.open(db)
    result = sample(db)
    assert result.exit_code == 1 and str(side) in one_line(result.stderr)


# ------------------------------------------------------------------------------------------------
# 16.12: a refused --db path is refused before anything is created


def test_a_db_path_through_another_users_directory_creates_nothing(tmp_path: Path) -> None:
    shared = sticky(tmp_path / "shared")
    theirs = shared / "theirs"
    theirs.mkdir()
    os.chown(theirs, OTHER_UID, OTHER_UID)
    for db in (theirs / "sub" / "h.db", shared / "h.db"):
        result = sample(db)
        assert result.exit_code == 1 and "refusing history database" in one_line(result.stderr)
    assert list(theirs.iterdir()) == [] and sorted(p.name for p in shared.iterdir()) == ["theirs"]


def test_a_db_path_through_another_users_link_creates_nothing_where_it_points(tmp_path: Path) -> None:
    shared = sticky(tmp_path / "shared")
    target = tmp_path / "roots-own"
    target.mkdir()
    link = shared / "link"
    link.symlink_to(target)
    os.lchown(link, OTHER_UID, OTHER_UID)
    result = sample(link / "new" / "h.db")
    assert result.exit_code == 1 and f"{link} is a symbolic link owned by " in result.stderr
    assert list(target.iterdir()) == []


def test_a_db_path_through_roots_own_link_is_created_in_root_only_directories(tmp_path: Path) -> None:
    target = tmp_path / "data"
    target.mkdir()
    link = tmp_path / "var"
    link.symlink_to(target)
    db = link / "lib" / "ssdwear" / "h.db"
    result = sample(db)
    assert result.exit_code == 0, result.stderr
    created = target / "lib" / "ssdwear"
    assert (created / "h.db").is_file() and not created.is_symlink()
    for folder in (target / "lib", created):
        assert folder.stat().st_uid == 0 and folder.stat().st_mode & 0o022 == 0


def test_a_link_planted_where_a_directory_is_being_made_is_not_followed(tmp_path: Path, monkeypatch) -> None:
    """The race the checks cannot close alone: between the check and the mkdir, a link appears where ssdwear is
    about to make a directory (here planted by a wrapped os.mkdir). It is refused, never followed."""
    target = tmp_path / "elsewhere"
    target.mkdir()
    real_mkdir = os.mkdir

    def planting_mkdir(path, mode=0o777, *, dir_fd=None):
        if os.fspath(path).endswith("new"):
            os.symlink(target, path, dir_fd=dir_fd)
            raise FileExistsError(17, "File exists", path)
        return real_mkdir(path, mode, dir_fd=dir_fd)

    monkeypatch.setattr(os, "mkdir", planting_mkdir)
    with pytest.raises(StoreError, match="a link put there is not followed"):
        Store.open(tmp_path / "new" / "h.db")
    assert list(target.iterdir()) == []


def test_root_skips_a_missing_config_below_a_home_it_does_not_trust(tmp_path: Path, monkeypatch) -> None:
    """Under sudo with HOME kept, ~/.config/ssdwear/config.yaml is looked for below the user's own home: when it
    is not there, there is nothing to refuse (when it is, it is refused: test_security)."""
    home = tmp_path / "home"
    home.mkdir()
    os.chown(home, OTHER_UID, OTHER_UID)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    result = ssdwear_cli(["--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 0, result.stderr
