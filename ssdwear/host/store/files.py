"""The database file: looked at without following a link, created with O_EXCL|O_NOFOLLOW in directories made one at a
time, checked as root (the file, the way to it, its directory, the -journal/-wal/-shm beside it) and by its header
before SQLite opens it; and the one-line errors a database gives."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from ssdwear.model.errors import StoreError
from ssdwear.model.process import is_root

from ..trust import UntrustedFile, check_trusted, open_directory, owner_name, ownership_problem

DB_MODE = 0o640
_SIDE_FILES = ("-wal", "-shm", "-journal")


def store_error(path: Path, exc: BaseException, doing: str) -> StoreError:
    """One line saying what went wrong with the database and what to do about it."""
    text = str(exc)
    lower = text.lower()
    if "malformed" in lower or "not a database" in lower or "corrupt" in lower or isinstance(
            exc, sqlite3.IntegrityError):
        return StoreError(f"history database {path} is damaged ({text}, while {doing}); it was left untouched: "
                          f"recover it with 'sqlite3 {path} .recover | sqlite3 {path}.recovered' and move the "
                          "recovered file into place, or move the damaged file aside (ssdwear then starts a new one)")
    if "full" in lower:
        return StoreError(f"cannot write to {path} ({text}) while {doing}: free some space on its file system "
                          "or use a file elsewhere")
    if "readonly" in lower or "read-only" in lower:
        return StoreError(f"cannot write to {path} ({text}): the file or its directory is read-only; use a "
                          "writable file")
    return StoreError(f"history database {path}: {text} while {doing}")

def lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise StoreError(f"cannot look at history database {path}: {exc.strerror}") from None
    except ValueError:  # a NUL byte in the name (a config's `db:`)
        raise StoreError(f"history database {str(path)!r}: the name contains a NUL byte") from None


def check_trusted_path(path: Path) -> None:
    """As root: the database, the way to it, and a directory only root can write (host/trust.py)."""
    try:
        check_trusted(path, "history database", "chown root and chmod go-w it and its directory, or use another file",
                      private_dir=True)
    except UntrustedFile as exc:
        raise StoreError(str(exc)) from None


def check_side_files(path: Path, db: os.stat_result) -> None:
    """SQLite plays a -journal (or -wal) found beside the database back into it, even for a reader: each that is
    there must be a regular file of the database's owner (as root: root's alone), never a link."""
    for suffix in _SIDE_FILES:
        side = Path(f"{path}{suffix}")
        st = lstat(side)
        if st is None:
            continue
        if stat.S_ISLNK(st.st_mode):
            raise StoreError(f"{side} is a symbolic link; ssdwear does not follow links beside its database: remove "
                             "it, or use another file")
        problem = None
        if not stat.S_ISREG(st.st_mode):
            problem = "is not a regular file"
        elif st.st_uid != db.st_uid:
            problem = f"is owned by {owner_name(st.st_uid)}, not by the database's owner ({owner_name(db.st_uid)})"
        elif is_root() and ownership_problem(st, False):
            problem = f"is {ownership_problem(st, False)}"
        if problem is not None:
            raise StoreError(f"{side} {problem}: SQLite would play it back into {path}, so both were left alone; "
                             "remove it after a look, or keep the database in a directory only root can write")


def create_file(path: Path) -> os.stat_result:
    """A new, empty database file that is certainly ours, in directories made without following a link
    (trust.open_directory); the file is made with O_CREAT|O_EXCL|O_NOFOLLOW, which fails on anything already
    there (a link)."""
    try:
        fd = open_directory(path.parent)
    except UntrustedFile as exc:
        raise StoreError(f"{exc} (made by someone else meanwhile, on the way to {path})") from None
    except OSError as exc:
        raise StoreError(f"cannot create {exc.filename or path.parent} for {path}: {exc.strerror}") from None
    try:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            new = os.open(path.name, flags, DB_MODE, dir_fd=fd)
        except FileExistsError:  # another process created it meanwhile: use theirs, with the same checks
            st = lstat(path)
            if st is None:
                raise StoreError(f"history database {path} appeared and vanished while ssdwear created it") from None
            check_existing(path, st)
            return st
        except OSError as exc:
            raise StoreError(f"cannot create history database {path}: {exc.strerror}") from None
        try:
            return os.fstat(new)
        finally:
            os.close(new)
    finally:
        os.close(fd)


def check_existing(path: Path, st: os.stat_result) -> None:
    if stat.S_ISLNK(st.st_mode):
        raise StoreError(f"history database {path} is a symbolic link; ssdwear does not follow links for its "
                         "database (a planted link could make it overwrite another file): name the real file")
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(f"history database {path} is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(f"history database {path} is not a regular file")
    check_header(path)


def check_header(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            header = handle.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read history database {path}: {exc.strerror}") from None
    if not header:
        return  # an empty file (touch) is a fresh database
    if not header.startswith(b"SQLite format 3\x00"):
        raise StoreError(f"{path} is not an SQLite database (corrupt, or another kind of file); it was left "
                         "untouched: move it away or use another file")
