"""What ssdwear trusts when it runs as root, and the checks that enforce it.

ssdwear runs as root on servers and reads files other people can write. As root it follows the rule
OpenSSH (StrictModes) and sudo apply to their own files: a file whose contents decide what root runs or
where root writes must be owned by root and writable by nobody else, and so must every directory above it
(a directory others can write lets them swap the file, unless its sticky bit stops them) and every symbolic
link on the way (its owner can replace it). The files this covers: configuration files (they name the
smartctl binary and the history database), the smartctl and nvme-cli binaries (and the storage tools asked about
redundancy groups), the drive databases passed to smartctl, and the history database.

The name is judged entry by entry as the kernel follows it, and then the descriptor that was opened: it must be
a regular file that still has a name, the very file the name led to. A name that leads through /proc
(/dev/stdin, /dev/fd/N, /proc/PID/fd/N: a pipe, a socket, a deleted file, another process's file) is refused:
there is nothing there whose owner and directories could be checked. Programs and the history database must
also sit in a directory that root alone can write, sticky or not (others could put files beside them: a hard
link to another program, a journal SQLite would play back). Directories ssdwear makes for its database are
made one at a time and opened without following a link (open_directory).

Also here: the smartctl options a configuration may pass through (only ones that change how smartctl reads,
never ones that send commands to the drive), and the check of a device name before it reaches smartctl's
command line.
"""

from __future__ import annotations

import errno
import os
import pwd
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ssdwear.model.errors import SsdwearError
from ssdwear.model.escape import display_path, has_control, visible
from ssdwear.model.process import is_root


class UntrustedFile(SsdwearError):
    "As root, ssdwear refuses a file (or a directory above it) that someone other than root can change."


def owner_name(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def ownership_problem(st: os.stat_result, is_dir: bool) -> str | None:
    """Why someone other than root could change this file or directory entry; None when nobody can."""
    mode = stat.S_IMODE(st.st_mode)
    if st.st_uid != 0:
        return f"owned by {owner_name(st.st_uid)}, mode {mode:04o}"
    if mode & 0o022 and not (is_dir and mode & stat.S_ISVTX):
        return f"writable by {_who(mode)}, mode {mode:04o}"
    return None


def _who(mode: int) -> str:
    return "group and others" if mode & 0o022 == 0o022 else "its group" if mode & 0o020 else "others"


_MAX_LINKS = 40  # the kernel's limit (ELOOP)
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISLNK, "a symbolic link"))


def _kind(st: os.stat_result) -> str:
    return next((name for test, name in _KINDS if test(st.st_mode)), "a regular file")


@dataclass(frozen=True)
class Resolved:
    """Where a name leads: the physical path of the deepest entry that exists, the names below it that do not,
    and why root should not trust the way there (None: root alone can change every entry on it)."""

    existing: str
    missing: tuple[str, ...] = ()
    problem: str | None = None

    @property
    def real(self) -> str:
        return os.path.join(self.existing, *self.missing)


def resolve(path: Path) -> Resolved:
    """Follow `path` as the kernel would (links, `..` after them), judging every directory and link it passes
    (the file it leads to is the caller's to judge). Reaching /proc is a problem of its own: see _through_proc."""
    name = os.fspath(path)
    if "\0" in name:
        return Resolved(name, problem="its name contains a NUL byte")
    parts = list(reversed((name if name.startswith("/") else os.path.join(os.getcwd(), name)).split("/")))
    current, links = "/", 0
    problem = _entry_problem("/", os.lstat("/"))
    while parts and problem is None:
        part = parts.pop()
        if part in ("", "."):
            continue
        if part == "..":
            current = os.path.dirname(current)
            continue
        place = os.path.join(current, part)
        if place == "/proc" or place.startswith("/proc/"):
            return Resolved(place, problem=_through_proc(name))
        try:
            st = os.lstat(place)
        except (FileNotFoundError, NotADirectoryError):
            missing = tuple(p for p in [part, *reversed(parts)] if p not in ("", "."))
            return Resolved(current, missing, f"'..' below {place}, which does not exist" if ".." in missing else None)
        except OSError as exc:
            return Resolved(place, problem=f"cannot look at {place}: {exc.strerror}")
        if stat.S_ISLNK(st.st_mode):
            links += 1
            if links > _MAX_LINKS:
                return Resolved(place, problem=f"more than {_MAX_LINKS} symbolic links on the way")
            problem = _entry_problem(place, st)
            target = os.readlink(place)
            parts.extend(reversed(target.split("/")))
            current = "/" if target.startswith("/") else current
        else:
            current = place
            if any(p not in ("", ".") for p in parts):  # a directory on the way
                problem = _entry_problem(place, st)
    return Resolved(current, problem=problem)


def _entry_problem(place: str, st: os.stat_result, final: bool = False) -> str | None:
    if stat.S_ISLNK(st.st_mode):
        return None if st.st_uid == 0 else (f"{place} is a symbolic link owned by {owner_name(st.st_uid)}, who can "
                                            "point it elsewhere at any time")
    problem = ownership_problem(st, stat.S_ISDIR(st.st_mode))
    if problem is None or final:
        return problem
    return f"its directory {place} is {problem}"


def _through_proc(name: str) -> str:
    """What a name that leads through /proc is, for the refusal: a pipe, a deleted file, ..."""
    try:
        st = os.stat(name)
    except OSError:
        kind = "an open descriptor"
    else:
        kind = "a pipe" if stat.S_ISFIFO(st.st_mode) else "a deleted file" if (
            stat.S_ISREG(st.st_mode) and st.st_nlink == 0) else "an open file" if stat.S_ISREG(st.st_mode) \
            else _kind(st)
    return (f"it is {kind}, reached through /proc (a descriptor, not a file whose owner and directories can be "
            "checked): save it to a file and name that")


def _private_dir_problem(found: Resolved) -> str | None:
    """Why the directory holding the file lets others put files beside it (sticky or not); None when it does
    not, or when ssdwear is about to create that directory itself."""
    if len(found.missing) > 1:
        return None
    directory = found.existing if found.missing else os.path.dirname(found.existing)
    mode = stat.S_IMODE(os.lstat(directory).st_mode)
    if not mode & 0o022:
        return None
    return (f"its directory {directory} is writable by {_who(mode)}, mode {mode:04o}, sticky or not: others can "
            "put files beside it")


def untrusted_reason(path: Path, private_dir: bool = False) -> str | None:
    """Why root should not trust `path`: the entries on the way to it, the file itself and, with `private_dir`,
    a directory others can write. A file that does not exist yet is judged by the way to it."""
    found = resolve(path)
    if found.problem is None and not found.missing:
        found = Resolved(found.existing, problem=_entry_problem(found.real, os.lstat(found.real), final=True))
    return found.problem or (_private_dir_problem(found) if private_dir else None)


def refusal(path: object, what: str, reason: str, fix: str) -> UntrustedFile:
    return UntrustedFile(f"refusing {what} {display_path(path)}: {visible(reason)}; as root ssdwear trusts only "
                         f"files that root alone can change ({fix})")


def check_trusted(path: Path, what: str, fix: str, private_dir: bool = False) -> None:
    """As root, refuse `path` unless root alone can change it. `what` names the file's role in the message."""
    if not is_root():
        return
    reason = untrusted_reason(path, private_dir)
    if reason is not None:
        raise refusal(path, what, reason, fix)


_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


def open_trusted(path: Path, what: str, fix: str, private_dir: bool = False) -> tuple[int, str]:
    """`path` opened for reading: (the descriptor, which the caller closes, and the real path). As root the way
    there is judged (resolve) and then the descriptor: a regular file, root's alone, still linked, the very
    file the name led to. FileNotFoundError when there is no such file; UntrustedFile when root must not
    trust it."""
    if not is_root():
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC), os.fspath(path)
    found = resolve(path)
    if found.missing or not os.path.exists(path):  # nothing there (a file that is not there is not refused)
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), os.fspath(path))
    before = os.lstat(found.real)
    reason = found.problem or (f"it is {_kind(before)}, not a regular file" if not stat.S_ISREG(before.st_mode)
                               else _entry_problem(found.real, before, final=True))  # a device is never opened
    if reason is None and private_dir:
        reason = _private_dir_problem(found)
    if reason is not None:
        raise refusal(path, what, reason, fix)
    fd = os.open(found.real, _OPEN_FLAGS)
    opened = os.fstat(fd)
    reason = f"it is {_kind(opened)}, not a regular file" if not stat.S_ISREG(opened.st_mode) else (
        "it was deleted while ssdwear opened it" if opened.st_nlink == 0 else
        "it was replaced while ssdwear opened it" if (opened.st_dev, opened.st_ino) != (before.st_dev, before.st_ino)
        else ownership_problem(opened, False))
    if reason is not None:
        os.close(fd)
        raise refusal(path, what, reason, fix)
    return fd, found.real


def trusted_program(path: str, what: str, fix: str) -> str:
    """As root, the program at `path` must pass open_trusted in a directory only root can write; the real path it
    leads to (as given when not root). Never runs the file."""
    if not is_root():
        return path
    fd, real = open_trusted(Path(path), what, fix, private_dir=True)
    os.close(fd)
    return real


def check_program(path: str, name: str, what: str, fix: str) -> None:
    """As root, the program at `path` must pass trusted_program and be named `name`: the file it leads to is called
    smartctl (or nvme). A general interpreter (python3, sh, perl) is not smartctl, and handed smartctl's arguments it
    would run whatever script they name. Never runs the file."""
    if not is_root():
        return
    real = trusted_program(path, what, fix)
    called = os.path.basename(real)
    if called != name:
        shown = "" if real == os.path.abspath(path) else f"{display_path(real)}, "
        raise refusal(path, what, f"it is {shown}named {display_path(called)}, not {name} (as root ssdwear runs "
                                  f"only a program called {name}, never an interpreter that would run a script "
                                  "named in the arguments)", fix)


# Programs that run what they read on stdin: handed an event's JSON, they would run text a drive's strings help write.
INTERPRETERS = re.compile(r"(?:[a-z]*sh|python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(?:js)?|php[0-9.]*|lua[0-9.]*|"
                          r"tclsh[0-9.]*|awk|gawk|mawk|env|busybox|sed)")


def check_event_program(path: str, what: str, fix: str) -> None:
    """As root, a program that is handed events on stdin (notify's `command:` channel) must pass trusted_program, and
    be no interpreter that would run its stdin as a script (sh, python3, perl, env ...); a script of one is fine:
    the file it leads to is the script."""
    if not is_root():
        return
    real = trusted_program(path, what, fix)
    called = os.path.basename(real)
    if INTERPRETERS.fullmatch(called):
        raise refusal(path, what, f"it is {display_path(real)}, an interpreter that would run the event it is "
                                  "handed on stdin as a script", fix)


def open_directory(directory: Path) -> int:
    """`directory` opened (a descriptor the caller closes), the ones missing on the way made one at a time (mode
    0755) and each opened without following a link: one planted meanwhile is refused, never followed. As root,
    a directory found there meanwhile must be root's alone, like the ones checked before. OSError (its filename
    says which directory) or UntrustedFile."""
    missing: list[str] = []
    while True:
        try:
            fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            break
        except FileNotFoundError:
            if directory.parent == directory:
                raise
            missing.insert(0, directory.name)
            directory = directory.parent
    try:
        for name in missing:
            directory = directory / name
            child = _make_directory(fd, name, directory)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _make_directory(parent: int, name: str, where: Path) -> int:
    try:
        os.mkdir(name, 0o755, dir_fd=parent)
    except FileExistsError:
        pass  # made meanwhile: judged below like one of ours
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, os.fspath(where)) from None
    try:
        child = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent)
    except OSError as exc:
        raise OSError(exc.errno, f"{exc.strerror} (a link put there is not followed)", os.fspath(where)) from None
    problem = ownership_problem(os.fstat(child), True) if is_root() else None
    if problem is not None:
        os.close(child)
        raise refusal(where, "directory", problem, "remove it, or use another path")
    return child


# ------------------------------------------------------------------------------------------------
# smartctl options a configuration may pass through

# Options that only change how smartctl talks to the device or interprets what it reads. Everything else is
# refused: -t/-X (self-tests, including vendor subcommands), -s/-o/-S/-g/--set (change drive settings),
# -l with a write form, -q (hides the output ssdwear reads), -d and -n (ssdwear sets them itself).
SAFE_SMARTCTL_OPTIONS = {
    "-T": "--tolerance",
    "-b": "--badsum",
    "-r": "--report",
    "-F": "--firmwarebug",
    "-v": "--vendorattribute",
    "-B": "--drivedb",
    "-P": "--presets",
}


def _parse_options(options: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """The pass-through options as (long name, value) pairs, and why they are not allowed (None when every one
    of them is harmless). Accepts `-T permissive`, `-Tpermissive`, `--tolerance=permissive` and
    `--tolerance permissive`."""
    longs = set(SAFE_SMARTCTL_OPTIONS.values())
    pairs: list[tuple[str, str]] = []
    pending: str | None = None  # the option whose value comes next
    for option in options:
        if pending is not None:
            if option.startswith("-"):
                return pairs, f"'{option}' follows an option that needs a value"
            pairs.append((pending, option))
            pending = None
        elif option.startswith("--"):
            name, equals, value = option.partition("=")
            if name not in longs:
                return pairs, f"'{option}' is not allowed"
            if equals:
                pairs.append((name, value))
            else:
                pending = name
        elif option.startswith("-") and len(option) >= 2:
            if option[:2] not in SAFE_SMARTCTL_OPTIONS:
                return pairs, f"'{option}' is not allowed"
            if len(option) == 2:
                pending = SAFE_SMARTCTL_OPTIONS[option]
            else:
                pairs.append((SAFE_SMARTCTL_OPTIONS[option[:2]], option[2:]))
        else:
            return pairs, f"'{option}' is not an option (device names go in 'devices')"
    return pairs, "the last option needs a value" if pending is not None else None


def smartctl_option_problem(options: Sequence[str]) -> str | None:
    """Why these pass-through options are not allowed; None when every one of them is harmless."""
    return _parse_options(options)[1]


def drive_database_refusal(options: Sequence[str]) -> str | None:
    """Why a drive database named in the options (`-B [+]FILE`, `--drivedb=[+]FILE`) must not be passed to
    smartctl: it is not an absolute path, or, as root, it is not a file root alone can change (a drive database
    redefines how smartctl reads the drive's attributes). None when there is nothing to say."""
    for name, value in _parse_options(options)[0]:
        if name != "--drivedb":
            continue
        path = value[1:] if value.startswith("+") else value  # '+FILE': added in front of the built-in one
        if not path.startswith("/"):
            return (f"drive database {path!r} must be an absolute path (a relative one would depend on the "
                    "directory ssdwear is started from)")
        if not is_root():
            continue
        fix = "chown root and chmod go-w it, or leave -B out"
        try:
            os.close(open_trusted(Path(path), "drive database", fix)[0])
        except UntrustedFile as exc:
            return str(exc)
        except OSError as exc:
            return f"drive database {display_path(path)}: {exc.strerror}"
    return None


def allowed_smartctl_options() -> str:
    return ", ".join(f"{short}/{long}" for short, long in SAFE_SMARTCTL_OPTIONS.items())


# ------------------------------------------------------------------------------------------------
# Device names that reach smartctl's command line


def device_problem(name: str) -> str | None:
    """Why a device name (or -d type) must not reach smartctl: it would be read as an option, or it carries
    control characters. None when it is fine."""
    if not name:
        return "it is empty"
    if name.startswith("-"):
        return "it starts with '-' and smartctl would read it as an option"
    if has_control(name):
        return "it contains control characters"
    return None
