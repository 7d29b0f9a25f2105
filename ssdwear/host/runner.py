"""The one place ssdwear starts a program: smartctl and nvme-cli, through one runner, and the only importer of pySMART;
also notify's programs (a `command:` channel, sendmail), handed an event on stdin (run_with_input).

Every call runs `[program, *options, *args]` with a timeout (the call is killed when it runs out), stdin from
/dev/null, the C locale for that call alone (smartctl's and nvme-cli's messages in the English ssdwear reads),
stdout and stderr kept as the bytes printed, and the exit status returned as it is: smartctl/calls.py reads it (a
bitmask for smartctl; for nvme-cli 0 or not). smartctl/replay.py answers the same calls from recordings.

Why pySMART stays, and what of it is used. pySMART 1.4's public way to run smartctl, Smartctl.generic_call, runs
the command without a timeout (a hung controller would hang ssdwear), throws stderr away, decodes stdout with a
guessed encoding (bytes that are not UTF-8 are dropped before ssdwear's parser sees them) and relies on the LANG=C
that pySMART writes into the whole process's environment when it is imported; the execution itself is a private
method (Smartctl._exec). No public option changes any of that, so ssdwear runs the process itself and uses pySMART
only through its public API, for what it gives:
  - where smartctl is: pySMART.utils.SMARTCTL_PATH (smartctl on PATH when pySMART was imported), before the sbin
    directories that cron's and systemd's PATH lack;
  - the command line: the one Smartctl(smartctl_path=PATH, options=OPTIONS).generic_call(ARGS, pass_options=True)
    runs, `[PATH, *OPTIONS, *ARGS]`, is the one this runner runs, so the recorded fixtures (named after ARGS) and a
    pySMART-based caller see the same calls.
tests/unit/host/test_pysmart_contract.py pins both against the installed pySMART (a fake smartctl that prints its
argv, run through generic_call; SMARTCTL_PATH in a process whose PATH holds a fake smartctl), and that importing
pySMART here leaves LANG and the logging class as they were. pySMART is imported only to locate smartctl, lazily.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import shutil
import subprocess
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ssdwear.model.errors import DriveError, SmartctlNotFound, UsageError
from ssdwear.smartctl.argv import call_subject
from ssdwear.smartctl.runner import DEFAULT_TIMEOUT_S, CallResult

from .platforms import facts
from .trust import UntrustedFile, check_program, drive_database_refusal, smartctl_option_problem

C_LOCALE = {"LC_ALL": "C", "LANG": "C"}


def import_pysmart() -> Any:
    """pySMART's package, imported without letting it change process-wide state (LANG, the logging class)."""
    saved_lang = os.environ.get("LANG")
    saved_logger_class = logging.getLoggerClass()
    try:
        import pySMART
        import pySMART.utils
    finally:
        if saved_lang is None:
            os.environ.pop("LANG", None)
        else:
            os.environ["LANG"] = saved_lang
        logging.setLoggerClass(saved_logger_class)
    return pySMART


def pysmart_path() -> str | None:
    """smartctl on PATH as pySMART found it when it was imported (pySMART.utils.SMARTCTL_PATH), or None."""
    found = import_pysmart().utils.SMARTCTL_PATH
    return None if found is None else str(found)


def locate_smartctl(explicit: str | None = None, platform: str | None = None) -> str:
    """The smartctl binary: the one asked for, else pySMART's (PATH), else the platform's sbin directories.

    cron and systemd often run with a PATH that lacks /usr/sbin, where Debian and RHEL install smartctl (FreeBSD's
    package: /usr/local/sbin). As root, the binary must be a file called smartctl that only root can change
    (trust.check_program).
    """
    path = _find_smartctl(explicit, platform)
    _check_program(path, "smartctl", "smartctl binary", "use the one smartmontools installed, e.g. /usr/sbin/smartctl")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise SmartctlNotFound(f"smartctl not found or not executable at '{explicit or path}': "
                               "install smartmontools or fix --smartctl / SSDWEAR_SMARTCTL")
    return path


def _check_program(path: str, name: str, what: str, fix: str) -> None:
    try:
        check_program(path, name, what, fix)
    except (FileNotFoundError, NotADirectoryError):
        pass  # not there: the caller says so
    except OSError as exc:
        raise SmartctlNotFound(f"cannot look at {what} {path}: {exc.strerror}") from None


def _find_smartctl(explicit: str | None, platform: str | None) -> str:
    if explicit:
        path = explicit if os.sep in explicit else shutil.which(explicit)
        if path and os.path.lexists(path):  # judged before it is looked at any further (locate_smartctl)
            return os.path.abspath(path)
        raise SmartctlNotFound(f"smartctl not found or not executable at '{explicit}': "
                               "install smartmontools or fix --smartctl / SSDWEAR_SMARTCTL")
    found = pysmart_path()
    if found and os.access(found, os.X_OK):
        return os.path.abspath(str(found))
    where = facts(platform)
    for directory in where.program_dirs:
        candidate = os.path.join(directory, "smartctl")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SmartctlNotFound("smartctl not found (looked in PATH and " + ", ".join(where.program_dirs[:3]) +
                           f"): install smartmontools ({where.install_hint}) or pass --smartctl PATH")


def find_program(name: str, what: str, fix: str, platform: str | None = None) -> str | None:
    """A program on PATH or in the platform's sbin directories (cron's and systemd's PATH lack them), None when
    there is none; as root it must be a file called `name` that only root can change (trust.check_program: an
    UntrustedFile when it is not)."""
    for candidate in [shutil.which(name), *(os.path.join(d, name) for d in facts(platform).program_dirs)]:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            path = os.path.abspath(candidate)
            _check_program(path, name, what, fix)
            return path
    return None


def locate_nvme(platform: str | None = None) -> str:
    """nvme-cli's `nvme` (find_program)."""
    path = find_program("nvme", "nvme-cli binary", "use the one the nvme-cli package installed", platform)
    if path is None:
        raise SmartctlNotFound("nvme-cli not found (the NVMe timer reset needs it): apt-get install nvme-cli / "
                               "dnf install nvme-cli")
    return path


class ProgramRunner:
    """Runs `[*command, *args]` with a timeout (see the module's docstring); subclasses word the failures."""

    def __init__(self, command: Sequence[str], timeout_s: float, env: Mapping[str, str] | None = None) -> None:
        if not math.isfinite(timeout_s) or timeout_s <= 0:
            raise UsageError(f"timeout {timeout_s!r} must be a finite number of seconds above 0")
        self.command = list(command)
        self.timeout_s = timeout_s
        self.env = dict(env or {})  # set for these calls alone, beside the C locale

    def run(self, args: Sequence[str]) -> CallResult:
        return self.run_within(args, self.timeout_s)

    def run_within(self, args: Sequence[str], seconds: float) -> CallResult:
        """One call that may take `seconds` (smartctl/bounds.py decides each call's): killed then, and timed_out
        says so."""
        started = time.monotonic()
        try:
            proc = subprocess.run([*self.command, *args], capture_output=True, timeout=max(seconds, 0.001),
                                  stdin=subprocess.DEVNULL, env={**os.environ, **self.env, **C_LOCALE}, check=False)
        except subprocess.TimeoutExpired:
            raise self.timed_out(args, seconds) from None
        except OSError as exc:
            raise self.cannot_run(exc) from None
        return CallResult(tuple(args), proc.stdout, proc.returncode, proc.stderr, time.monotonic() - started)

    def timed_out(self, args: Sequence[str], seconds: float) -> DriveError:
        raise NotImplementedError

    def cannot_run(self, exc: OSError) -> SmartctlNotFound:
        raise NotImplementedError


def run_with_input(command: Sequence[str], data: bytes, timeout_s: float) -> tuple[int, bytes]:
    """Run `command` with `data` on its stdin in a session of its own: (its exit status, what it said on stderr).
    When it outlives `timeout_s`, the whole process group is killed (a child it left holding the pipes too), and
    TimeoutError says so. OSError when it cannot be started."""
    import signal

    proc = subprocess.Popen(list(command), stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _, err = proc.communicate(data, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        try:
            proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:  # a child that left the group still holds stderr: stop reading it
            if proc.stderr is not None:
                proc.stderr.close()
            proc.wait()
        raise TimeoutError(f"did not finish within {timeout_s:g} s and was killed") from None
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    return proc.returncode, err


class SmartctlRunner(ProgramRunner):
    """smartctl at `path`, the config's pass-through `options` before every call's arguments."""

    def __init__(self, path: str, timeout_s: float = DEFAULT_TIMEOUT_S, options: Sequence[str] = ()) -> None:
        problem = smartctl_option_problem(options)
        if problem is not None:  # config.py refuses these too; this guards every other way in
            raise UsageError(f"smartctl options {' '.join(options)!r} refused: {problem}")
        refused = drive_database_refusal(options)  # again: the file may have changed since the config was read
        if refused is not None:
            raise UntrustedFile(refused)
        super().__init__([path, *options], timeout_s)
        self.path = path
        self.options = list(options)

    def timed_out(self, args: Sequence[str], seconds: float) -> DriveError:
        return DriveError(call_subject(args), f"smartctl did not answer within {seconds:g} s and was killed "
                          "(hung device or controller?); raise --timeout if the drive is just slow", kind="timeout")

    def cannot_run(self, exc: OSError) -> SmartctlNotFound:
        if isinstance(exc, FileNotFoundError):
            return SmartctlNotFound(f"smartctl not found at {self.path}: install smartmontools or pass "
                                    "--smartctl PATH")
        return SmartctlNotFound(f"cannot run smartctl at {self.path}: {exc.strerror}")


class NvmeCliRunner(ProgramRunner):
    """nvme-cli at `path`. Its exit status is not a bitmask: 0 is success, anything else failure (nvme-cli 2.x
    returns 1 for every error; the NVMe status is only in its stderr)."""

    def __init__(self, path: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        super().__init__([path], timeout_s)
        self.path = path

    def timed_out(self, args: Sequence[str], seconds: float) -> DriveError:
        return DriveError(args[1] if len(args) > 1 else "nvme", f"nvme-cli did not answer within "
                          f"{seconds:g} s and was killed (hung device?)", kind="timeout")

    def cannot_run(self, exc: OSError) -> SmartctlNotFound:
        return SmartctlNotFound(f"cannot run nvme-cli at {self.path}: {exc.strerror}")


# The storage tools that describe redundancy groups (smartctl/pools/): the package that has each, for messages, and
# what each call needs besides the C locale. lvm warns on stderr of every descriptor it inherits unless told not to.
STORAGE_TOOLS: dict[str, tuple[str, dict[str, str]]] = {
    "zpool": ("zfsutils-linux", {}),
    "mdadm": ("mdadm", {}),
    "lvm": ("lvm2", {"LVM_SUPPRESS_FD_WARNINGS": "1"}),
    "btrfs": ("btrfs-progs", {}),
    "lsblk": ("util-linux", {}),
}


class ToolRunner(ProgramRunner):
    """One of the storage tools (STORAGE_TOOLS) at `path`: read-only calls, each timed out like smartctl's."""

    def __init__(self, program: str, path: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        super().__init__([path], timeout_s, STORAGE_TOOLS[program][1])
        self.program, self.path = program, path

    def timed_out(self, args: Sequence[str], seconds: float) -> DriveError:
        return DriveError(self.program, f"did not answer within {seconds:g} s and was killed", kind="timeout")

    def cannot_run(self, exc: OSError) -> SmartctlNotFound:
        return SmartctlNotFound(f"cannot run {self.program} at {self.path}: {exc.strerror}")


def storage_tool(program: str, timeout_s: float, platform: str | None = None) -> ToolRunner | None:
    """The runner of a storage tool found here (find_program), None when it is not installed. UntrustedFile as
    root for one that someone other than root could change."""
    package = STORAGE_TOOLS[program][0]
    path = find_program(program, f"{program} binary", f"use the one the {package} package installed", platform)
    return None if path is None else ToolRunner(program, path, timeout_s)
