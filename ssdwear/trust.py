"""What ssdwear trusts when it runs as root, and the checks that enforce it.

ssdwear runs as root on servers and reads files other people can write. As root it follows the rule
OpenSSH (StrictModes) and sudo apply to their own files: a file whose contents decide what root runs or
where root writes must be owned by root and writable by nobody else, and so must every directory above it
(a directory others can write lets them swap the file, unless its sticky bit stops them). The files this
covers: configuration files (they name the smartctl binary and the history database), the smartctl binary
itself, and the history database.

Also here: the smartctl options a configuration may pass through (only ones that change how smartctl reads,
never ones that send commands to the drive), and the check of a device name before it reaches smartctl's
command line.
"""

from __future__ import annotations

import os
import pwd
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

from .errors import SsdwearError


class UntrustedFile(SsdwearError):
    "As root, ssdwear refuses a file (or a directory above it) that someone other than root can change."


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def _owner(uid: int) -> str:
    try:
        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except KeyError:
        return f"uid {uid}"


def _problem(st: os.stat_result, is_dir: bool) -> Optional[str]:
    """Why someone other than root could change this file or directory entry; None when nobody can."""
    mode = stat.S_IMODE(st.st_mode)
    if st.st_uid != 0:
        return f"owned by {_owner(st.st_uid)}, mode {mode:04o}"
    if mode & 0o022 and not (is_dir and mode & stat.S_ISVTX):
        who = "group and others" if mode & 0o022 == 0o022 else "its group" if mode & 0o020 else "others"
        return f"writable by {who}, mode {mode:04o}"
    return None


def untrusted_reason(path: Path) -> Optional[str]:
    """Why root should not trust `path`: the file, its real location and every directory above either."""
    absolute = Path(os.path.abspath(path))
    real = Path(os.path.realpath(absolute))
    checked: set[Path] = set()
    for target in (real, absolute):
        for place in (target, *target.parents):
            if place in checked:
                continue
            checked.add(place)
            try:
                st = os.lstat(place)
            except OSError:
                continue  # a missing file is reported by whoever opens it
            if stat.S_ISLNK(st.st_mode):
                continue  # a link is judged by where it points (real) and by the directory holding it
            problem = _problem(st, stat.S_ISDIR(st.st_mode))
            if problem is not None:
                return problem if place == target else f"its directory {place} is {problem}"
    return None


def check_trusted(path: Path, what: str, fix: str) -> None:
    """As root, refuse `path` unless root alone can change it. `what` names the file's role in the message."""
    if not is_root():
        return
    reason = untrusted_reason(path)
    if reason is not None:
        raise UntrustedFile(f"refusing {what} {path}: {reason}; as root ssdwear trusts only files that root alone "
                            f"can change ({fix})")


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


def smartctl_option_problem(options: Sequence[str]) -> Optional[str]:
    """Why these pass-through options are not allowed; None when every one of them is harmless.

    Accepts `-T permissive`, `-Tpermissive`, `--tolerance=permissive` and `--tolerance permissive`.
    """
    longs = set(SAFE_SMARTCTL_OPTIONS.values())
    expect_value = False
    for option in options:
        if expect_value:
            if option.startswith("-"):
                return f"'{option}' follows an option that needs a value"
            expect_value = False
            continue
        if option.startswith("--"):
            name = option.split("=", 1)[0]
            if name not in longs:
                return f"'{option}' is not allowed"
            expect_value = "=" not in option
        elif option.startswith("-") and len(option) >= 2:
            if option[:2] not in SAFE_SMARTCTL_OPTIONS:
                return f"'{option}' is not allowed"
            expect_value = len(option) == 2
        else:
            return f"'{option}' is not an option (device names go in 'devices')"
    if expect_value:
        return "the last option needs a value"
    return None


def allowed_smartctl_options() -> str:
    return ", ".join(f"{short}/{long}" for short, long in SAFE_SMARTCTL_OPTIONS.items())


# ------------------------------------------------------------------------------------------------
# Strings that reach smartctl's command line or the terminal


# C0 and C1 control characters, DEL, and the Unicode line separators and bidirectional overrides that can
# rearrange what a terminal shows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character shown as an escape (ESC -> '\\x1b'), safe to print anywhere."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible_text(text: str) -> str:
    """Like visible(), for multi-line text: tabs and line ends (LF, CR) are kept."""
    return _CONTROL_IN_TEXT.sub(_escape, text) if _CONTROL_IN_TEXT.search(text) else text


def display_path(path: object) -> str:
    """A file name as people should see it: bytes that are not UTF-8 and control characters escaped."""
    raw = os.fsencode(os.fspath(path))  # type: ignore[call-overload]
    return visible(raw.decode("utf-8", "backslashreplace"))


def device_problem(name: str) -> Optional[str]:
    """Why a device name (or -d type) must not reach smartctl: it would be read as an option, or it carries
    control characters. None when it is fine."""
    if not name:
        return "it is empty"
    if name.startswith("-"):
        return "it starts with '-' and smartctl would read it as an option"
    if has_control(name):
        return "it contains control characters"
    return None
