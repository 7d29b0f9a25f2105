"""One ssdwear run at a time: the run lock beside the history database, and the reset lock the readers consult.

FILE.lock (`/var/lib/ssdwear/history.db.lock`): `sample`, `notify`, `start`, `measure` and `import smartd` hold it
(flock, exclusive) from before they read the drives until they end, so two overlapping cron runs read each drive
once each, one after the other. A second run waits for it up to `run_lock_wait` (default 10 minutes), then gives up
(Busy: one line, exit 6). It holds its holder's command, pid and start, for that line.

FILE.resetting: `start` and `measure` hold it (flock, exclusive) while they send timer resets; it lists the drives
they may send one to (their places, one a line), written before the lock is taken. A reading command (`report`,
`check`, `status`, ...) never takes the run lock and never waits: it holds this one shared while it reads
(reading_guard), so that no reset starts meanwhile (start waits for the readers, within its own bound), and where a
reset is under way (the shared lock is refused) it leaves the drives listed unread and says why. Why a lock and not a
record in the store: the kernel lets go of a lock when its process ends, however it ends (kill -9, a crash, a
reboot), so a list is believed only while its writer holds the lock and is never stale; and a reader needs no
database to learn it (`report --no-history` too). Both files are made by the first run that takes the run lock
(readers create nothing), so a reader sees a reset from then on.

As root a lock file passes the database's rules (trust.py, files.py): the way to it and its directory root's alone
(the database's directory), and the file a regular file, never followed through a link (O_NOFOLLOW), root's and
writable by root alone; anything else is a StoreError naming the file, and it is left alone.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ssdwear.model.errors import Busy, DriveError, StoreError
from ssdwear.model.escape import visible
from ssdwear.model.process import is_root
from ssdwear.model.records import location
from ssdwear.model.units import time_text

from ..trust import UntrustedFile, check_trusted, open_directory, ownership_problem
from .files import check_trusted_path

DEFAULT_LOCK_WAIT_S = 600.0
RUN_SUFFIX, RESET_SUFFIX = ".lock", ".resetting"
LOCK_MODE = 0o644  # readers that are not root may learn which drives are being reset
POLL_S = 0.1  # how often a waiting run tries the lock again
_MAX_LIST = 1 << 20  # the most of a reset list read

Target = tuple[str, "str | None"]


def lock_path(db: Path, suffix: str = RUN_SUFFIX) -> Path:
    return Path(f"{db}{suffix}")


def _open(path: Path, create: bool) -> int | None:
    """The lock file's descriptor (the caller closes it), made (with the directories on the way, as the database's
    are) when `create`; None when it is not there and is not to be made. StoreError when root must not use it."""
    fix = "chown root and chmod go-w it and its directory, or use another database"
    try:
        check_trusted(path, "lock file", fix, private_dir=True)
        if create:
            directory = open_directory(path.parent)
            try:
                fd = os.open(path.name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC,
                             LOCK_MODE, dir_fd=directory)
            finally:
                os.close(directory)
        else:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        if create:
            raise StoreError(f"cannot create lock file {path}: its directory vanished") from None
        return None
    except UntrustedFile as exc:
        raise StoreError(str(exc)) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreError(f"{path} is a symbolic link; ssdwear does not follow links beside its database: remove "
                             "it, or use another database") from None
        raise StoreError(f"cannot open lock file {path}: {exc.strerror}") from None
    st = os.fstat(fd)
    problem = "is not a regular file" if not stat.S_ISREG(st.st_mode) else (
        ownership_problem(st, False) if is_root() else None)
    if problem is not None:
        os.close(fd)
        raise StoreError(f"lock file {path} {problem}: ssdwear leaves it alone; remove it after a look, or keep the "
                         "database in a directory only root can write")
    return fd


def _acquire(fd: int, how: int, wait_s: float, sleep: Callable[[float], None], monotonic: Callable[[], float]) -> bool:
    """The lock `how` (LOCK_EX, LOCK_SH) on `fd`, trying again every POLL_S for up to `wait_s`; False when it stayed
    taken."""
    until = monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, how | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            pass
        if monotonic() >= until:
            return False
        sleep(POLL_S)


def _write(fd: int, text: str) -> None:
    os.ftruncate(fd, 0)
    os.pwrite(fd, text.encode("utf-8", "replace"), 0)


def _said(fd: int) -> str:
    return os.pread(fd, _MAX_LIST, 0).decode("utf-8", "replace")


def _waited(seconds: float) -> str:
    return f"{seconds / 60:g} min" if seconds >= 60 else f"{seconds:g} s"


def _first_missing(directory: Path) -> Path | None:
    """The outermost of `directory` and its parents that does not exist yet (what making it will make), or None."""
    missing = None
    while not os.path.lexists(directory):
        missing, directory = directory, directory.parent
        if directory == missing:
            break
    return missing


def _still_named(fd: int, path: Path) -> bool:
    """Whether `path` still names the file `fd` is open on (a run that made it may have removed it)."""
    try:
        st, named = os.fstat(fd), os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (st.st_dev, st.st_ino) == (named.st_dev, named.st_ino)


def _unmake(db: Path, made: Path) -> None:
    """What a run that stored nothing made for its lock, removed while it still holds it: the two lock files and the
    directories it created, where no database appeared beside them (a command that stores nothing creates
    nothing). A directory holding anything else stays."""
    directory = db.parent
    ours = {lock_path(db).name, lock_path(db, RESET_SUFFIX).name}
    try:
        if os.path.lexists(db) or not set(os.listdir(directory)) <= ours:
            return
        for name in ours:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(directory / name)
        while True:
            os.rmdir(directory)
            if directory == made:
                return
            directory = directory.parent
    except OSError:
        return  # something else is there now: it stays


@contextmanager
def run_lock(db: Path, command: str, wait_s: float, sleep: Callable[[float], None], monotonic: Callable[[], float],
             now: datetime) -> Iterator[None]:
    """The run lock beside `db`, held until the block ends; Busy when another run kept it for `wait_s`. Where the
    run had to make the lock's directory and ends without a database there, it takes what it made away again."""
    path = lock_path(db)
    check_trusted_path(db)  # the database's own rule first, in its words: a refused path gets no lock file either
    made = _first_missing(path.parent)
    until = monotonic() + wait_s
    while True:
        fd = _open(path, create=True)
        assert fd is not None
        if not _acquire(fd, fcntl.LOCK_EX, max(0.0, until - monotonic()), sleep, monotonic):
            holder = visible(_said(fd).strip()[:200]) or "it did not say which"
            os.close(fd)
            raise Busy(f"another ssdwear run ({holder}) held {path} for longer than {_waited(wait_s)} "
                       f"(run_lock_wait): this {command} did not run (two at once would read every drive twice); the "
                       "next one will")
        if _still_named(fd, path):
            break
        os.close(fd)  # the run before this one made the file, stored nothing and took it away: lock the new one
    try:
        resets = _open(lock_path(db, RESET_SUFFIX), create=True)  # made here, so that readers can hold it
        if resets is not None:
            os.close(resets)
        _write(fd, f"{command}, pid {os.getpid()}, since {time_text(now, seconds=True)}\n")
        yield
    finally:
        if made is not None:
            _unmake(db, made)
        os.close(fd)  # the lock goes with it


def _key(device: str, device_type: str | None) -> str:
    """A drive's place as both sides name it: the device's own path (not a link to it), with its -d type where
    several drives share the path (records.location)."""
    return location(os.path.realpath(device) if device.startswith("/dev/") else device, device_type)


@contextmanager
def resetting(db: Path, targets: Sequence[Target], wait_s: float, sleep: Callable[[float], None],
              monotonic: Callable[[], float]) -> Iterator[None]:
    """The reset lock beside `db`, exclusive, with `targets` listed, while the block sends resets: readers leave
    those drives alone meanwhile. Waits up to `wait_s` for the readers that are reading now (Busy after that)."""
    path = lock_path(db, RESET_SUFFIX)
    fd = _open(path, create=True)
    assert fd is not None
    try:
        _write(fd, f"pid {os.getpid()}\n" + "".join(f"{_key(d, t)}\n" for d, t in targets))
        if not _acquire(fd, fcntl.LOCK_EX, wait_s, sleep, monotonic):
            raise Busy(f"drives were being read (ssdwear report, check, status ...) for longer than {_waited(wait_s)} "
                       f"(run_lock_wait) while this run waited to reset timers ({path}): nothing was reset")
        yield
        os.ftruncate(fd, 0)
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Resets:
    """The drives another run is resetting now (none: no reset is under way), and who it is."""

    places: frozenset[str] = frozenset()
    holder: str = ""

    def covers(self, device: str, device_type: str | None) -> bool:
        return _key(device, device_type) in self.places

    def left_alone(self, device: str, device_type: str | None) -> DriveError:
        """What a drive this covers is, unread."""
        error = DriveError(device, f"not read: another ssdwear run ({self.holder}) is resetting its timer now; read it "
                           "again in a minute", kind="resetting")
        error.device_type = device_type
        return error


@contextmanager
def reading_guard(db: Path) -> Iterator[Resets]:
    """While the block reads drives: the reset lock beside `db` held shared (no reset starts meanwhile), and no
    drive to leave alone; or, where a reset is under way, the drives it lists. Never waits, creates nothing."""
    fd = _open(lock_path(db, RESET_SUFFIX), create=False)
    if fd is None:
        yield Resets()
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            first, *rest = _said(fd).splitlines() or [""]
            yield Resets(frozenset(line for line in rest if line), visible(first[:100]))
            return
        yield Resets()
    finally:
        os.close(fd)
