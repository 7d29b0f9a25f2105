"""The only module that runs smartctl and the only importer of pySMART.

Every call goes through a Runner: `run(args) -> CallResult` (stdout bytes, exit status). The live
runner is pySMART's `Smartctl.generic_call` with its process execution replaced by one that has a
timeout and keeps stderr; each call gets its own pySMART runner, so no options or state are shared
between threads. The replay runner (replay.py) answers from recorded outputs instead.

smartctl's exit status is a bitmask (smartctl(8) RETURN VALUES):
  bit 0  the command line did not parse            -> the call failed
  bit 1  the device could not be opened (or, with -n, it is in a low-power mode) -> the call failed
  bit 2  a SMART or other ATA/NVMe command failed, or a checksum error -> failed only if no data came back
  bit 3  SMART status: disk failing          bit 4  prefail attribute at or below threshold
  bit 5  attribute at or below threshold in the past
  bit 6  the device error log has errors     bit 7  the self-test log has errors
Bits 3-7 describe the drive, not the call.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Optional, Protocol, Union

from ssdwear.drives import vendors
from ssdwear.model.errors import DriveError, ParseError, SmartctlNotFound, UsageError
from ssdwear.model.records import ScanEntry, Snapshot, passed_given_status

from .parse import parse_output, parse_scan_entries
from .platforms import facts

DEFAULT_TIMEOUT_S = 60.0
# Drives read at once. smartctl mostly waits on the drive, so a 60-drive JBOD is read in about the time of its
# slowest drive; lower it (config `workers`, --workers) for controllers that dislike concurrent commands.
DEFAULT_WORKERS = 64

BIT_CMDLINE, BIT_OPEN, BIT_COMMAND = 0x01, 0x02, 0x04
DRIVE_BITS = (
    (0x08, "SMART status: disk failing"),
    (0x10, "a prefail attribute is at or below its threshold"),
    (0x20, "an attribute was at or below its threshold in the past"),
    (0x40, "the device error log contains errors"),
    (0x80, "the self-test log contains errors"),
)


def describe_status(status: int) -> list[str]:
    """Every condition the exit status reports, in words."""
    out = []
    if status & BIT_CMDLINE:
        out.append("the command line did not parse")
    if status & BIT_OPEN:
        out.append("the device could not be opened or is in a low-power mode")
    if status & BIT_COMMAND:
        out.append("a SMART or other device command failed")
    out.extend(text for bit, text in DRIVE_BITS if status & bit)
    return out


@dataclass(frozen=True)
class CallResult:
    args: tuple[str, ...]  # arguments after the program name
    stdout: bytes
    status: int  # smartctl's exit status (bitmask)
    stderr: bytes = b""
    seconds: float = 0.0


class Runner(Protocol):
    def run(self, args: Sequence[str]) -> CallResult: ...


def _import_pysmart() -> Any:
    """Import pySMART without letting it change process-wide state (LANG, the logging class)."""
    saved_lang = os.environ.get("LANG")
    saved_logger_class = logging.getLoggerClass()
    try:
        import pySMART.smartctl as pysmart_smartctl
    finally:
        if saved_lang is None:
            os.environ.pop("LANG", None)
        else:
            os.environ["LANG"] = saved_lang
        logging.setLoggerClass(saved_logger_class)
    return pysmart_smartctl


def locate_smartctl(explicit: Optional[str] = None, platform: Optional[str] = None) -> str:
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
    from .trust import check_program

    try:
        check_program(path, name, what, fix)
    except (FileNotFoundError, NotADirectoryError):
        pass  # not there: the caller says so
    except OSError as exc:
        raise SmartctlNotFound(f"cannot look at {what} {path}: {exc.strerror}") from None


def _find_smartctl(explicit: Optional[str], platform: Optional[str]) -> str:
    if explicit:
        path = explicit if os.sep in explicit else shutil.which(explicit)
        if path and os.path.lexists(path):  # judged before it is looked at any further (locate_smartctl)
            return os.path.abspath(path)
        raise SmartctlNotFound(f"smartctl not found or not executable at '{explicit}': "
                               "install smartmontools or fix --smartctl / SSDWEAR_SMARTCTL")
    found = _import_pysmart().SMARTCTL_PATH
    if found and os.access(found, os.X_OK):
        return os.path.abspath(str(found))
    where = facts(platform)
    for directory in where.program_dirs:
        candidate = os.path.join(directory, "smartctl")
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise SmartctlNotFound("smartctl not found (looked in PATH and " + ", ".join(where.program_dirs[:3]) +
                           f"): install smartmontools ({where.install_hint}) or pass --smartctl PATH")


class SmartctlRunner:
    """Runs the real smartctl through pySMART, one fresh pySMART runner per call, with a timeout."""

    def __init__(self, path: str, timeout_s: float = DEFAULT_TIMEOUT_S, sudo: bool = False,
                 options: Sequence[str] = ()) -> None:
        from .trust import UntrustedFile, drive_database_refusal, smartctl_option_problem

        problem = smartctl_option_problem(options)
        if problem is not None:  # config.py refuses these too; this guards every other way in
            raise UsageError(f"smartctl options {' '.join(options)!r} refused: {problem}")
        refused = drive_database_refusal(options)  # again: the file may have changed since the config was read
        if refused is not None:
            raise UntrustedFile(refused)
        if not math.isfinite(timeout_s) or timeout_s <= 0:
            raise UsageError(f"timeout {timeout_s!r} must be a finite number of seconds above 0")
        self.path = path
        self.timeout_s = timeout_s
        self.sudo = sudo
        self.options = list(options)  # extra arguments before every call (config smartctl_options)
        self._smartctl_class = _timed_smartctl_class()

    def run(self, args: Sequence[str]) -> CallResult:
        runner = self._smartctl_class(smartctl_path=self.path, options=self.options, sudo=self.sudo)
        runner.timeout_s = self.timeout_s
        started = time.monotonic()
        try:
            runner.generic_call(list(args), pass_options=bool(self.options))
        except subprocess.TimeoutExpired:
            raise DriveError(_subject(args),
                             f"smartctl did not answer within {self.timeout_s:g} s and was killed "
                             "(hung device or controller?); raise --timeout if the drive is just slow",
                             kind="timeout") from None
        except PermissionError as exc:
            raise SmartctlNotFound(f"cannot run smartctl at {self.path}: {exc.strerror}") from None
        except FileNotFoundError:
            raise SmartctlNotFound(f"smartctl not found at {self.path}: install smartmontools or pass "
                                   "--smartctl PATH") from None
        return CallResult(tuple(args), runner.last_stdout, runner.last_status, runner.last_stderr,
                          time.monotonic() - started)


def _subject(args: Sequence[str]) -> str:
    """What a call is about, for messages: the device, or the scan."""
    if list(args[:1]) == ["--scan-open"]:
        return "smartctl --scan-open"
    return args[-1] if args and not args[-1].startswith("-") else "smartctl " + " ".join(args)


_TIMED_CLASS: Optional[type] = None


def _timed_smartctl_class() -> Any:
    """pySMART's Smartctl with `_exec` replaced: a timeout, C locale, stderr and raw bytes kept."""
    global _TIMED_CLASS
    if _TIMED_CLASS is None:
        base = _import_pysmart().Smartctl

        class TimedSmartctl(base):  # type: ignore[misc,valid-type]
            timeout_s: float = DEFAULT_TIMEOUT_S
            last_stdout: bytes = b""
            last_stderr: bytes = b""
            last_status: int = 0

            def _exec(self, cmd: list[str]) -> tuple[list[str], int]:
                env = dict(os.environ, LC_ALL="C", LANG="C")
                proc = subprocess.run(cmd, capture_output=True, timeout=self.timeout_s, env=env, check=False)
                self.last_stdout, self.last_stderr, self.last_status = proc.stdout, proc.stderr, proc.returncode
                return proc.stdout.decode("utf-8", "replace").splitlines(), proc.returncode

        _TIMED_CLASS = TimedSmartctl
    return _TIMED_CLASS


# ------------------------------------------------------------------------------------------------
# The calls ssdwear makes. These argument lists are also the names of the recorded fixtures.


def read_args(device: str, device_type: Optional[str], json: bool = True, wake: bool = False) -> list[str]:
    args = ["--json=c", "-x"] if json else ["-x"]
    if not wake:
        args += ["-n", "standby"]
    if device_type:
        args += ["-d", device_type]
    return [*args, device]


def identity_args(device: str, device_type: Optional[str], json: bool = True) -> list[str]:
    return [*(["--json=c"] if json else []), "-i", *(["-d", device_type] if device_type else []), device]


def reset_args(device: str, device_type: Optional[str]) -> list[str]:
    return ["-t", "vendor,0x40", *(["-d", device_type] if device_type else []), device]


def log_page_args(device: str, device_type: Optional[str], page: int, size: int = 0x200) -> list[str]:
    """An NVMe log page as smartctl's hex dump. Both numbers must be hex with 0x: smartctl rejects `,512`."""
    return ["-l", f"nvmelog,0x{page:02x},0x{size:x}", *(["-d", device_type] if device_type else []), device]


def nvme_reset_args(device: str) -> list[str]:
    """nvme-cli: Set Features, feature 0xD5 (Intel/Solidigm: reset the timed-workload counters), value 1."""
    return ["set-feature", device, "-f", "0xd5", "-v", "1"]


SCAN_ARGS = ["--scan-open", "--json=c"]
SCAN_ARGS_TEXT = ["--scan-open"]


def _said(result: CallResult) -> str:
    """What smartctl said about the failure: its JSON messages, else its text lines (never the argv)."""
    try:
        messages = list(parse_output(result.stdout, source="smartctl").messages)
    except ParseError:
        messages = []
    if not messages:
        text = (result.stdout + b"\n" + result.stderr).decode("utf-8", "replace")
        messages = [line.strip() for line in text.splitlines()
                    if line.strip() and not line.startswith(("smartctl ", "Copyright", "{", "Use smartctl -h"))]
    from ssdwear.model.escape import visible

    return visible("; ".join(dict.fromkeys(messages))[:300])


# What smartctl says when a name is a RAID controller's volume (os_linux.cpp; fixtures/raid/README.md).
RAID_HINTS = ("megaraid controller", "requires option '-d cciss", "please try adding '-d megaraid")


def _raid_hint(device: str, said: str) -> Optional[DriveError]:
    if any(hint in said.lower() for hint in RAID_HINTS):
        return DriveError(device, f"smartctl: {said}", kind="raid-volume")  # RaidVolume.note says the rest
    return None


def _open_failure(device: str, result: CallResult) -> DriveError:
    said = _said(result)
    lower = said.lower()
    volume = _raid_hint(device, said)
    if volume is not None:
        return volume
    if "standby" in lower or "sleep mode" in lower or "idle mode" in lower or "low-power" in lower:
        return DriveError(device, "drive is in standby and was not woken (smartctl -n standby); "
                                  "use --wake to spin it up and read it anyway", kind="standby")
    if "permission denied" in lower or "operation not permitted" in lower:
        from ssdwear.model.process import is_root

        if is_root():
            return DriveError(device, "permission denied although ssdwear runs as root: the device refused to be "
                                      "opened (a disk of a VM, a container without device access, or a USB "
                                      "bridge that needs -d sat?)", kind="permission")
        return DriveError(device, "permission denied opening the device: it takes root (or a user allowed to "
                                  "open it)", kind="permission")
    if "no such device" in lower or "no such file" in lower or "does not exist" in lower:
        return DriveError(device, "no such device (it vanished, or the name is wrong; see ssdwear scan)",
                          kind="missing")
    return DriveError(device, f"smartctl could not open the device: {said or 'no reason given'}", kind="read")


def _command_line_failure(device: str, result: CallResult) -> DriveError:
    said = _said(result)
    volume = _raid_hint(device, said)
    if volume is not None:
        return volume
    if "unable to detect device type" in said.lower():
        return DriveError(device, f"smartctl cannot tell what kind of device this is ({said}): check the name "
                                  "(ssdwear scan lists the drives) or give its type with -d", kind="missing")
    return DriveError(device, f"smartctl rejected the command line: {said or 'no reason given'}", kind="read")


def read_drive(runner: Runner, device: str, device_type: Optional[str] = None, wake: bool = False) -> Snapshot:
    """One smartctl process per drive: `--json=c -x`; text `-x` only for smartctl older than 7.0. On the drives
    whose timed workload lives in a vendor log page (Intel/Solidigm data-centre NVMe), one more: that page."""
    snap = _read(runner, device, device_type, lambda json: read_args(device, device_type, json=json, wake=wake))
    page = vendors.timed_log_page(snap)
    return snap if page is None else _with_log_page(runner, snap, device, device_type, page)


def _with_log_page(runner: Runner, snap: Snapshot, device: str, device_type: Optional[str], page: int
                   ) -> Snapshot:
    """The snapshot with the log page added; when it cannot be read, with a note saying why: the drive's other
    figures stand, whether the call failed or hung until it was killed at the timeout."""
    try:
        result = runner.run(log_page_args(device, device_type, page))
    except DriveError as exc:
        return _without_page(snap, page, exc.message)
    dump: Optional[bytes] = None
    if not result.status & (BIT_CMDLINE | BIT_OPEN):
        try:
            dump = parse_output(result.stdout, source=device, device=device).nvme_logs.get(page)
        except ParseError:
            dump = None
    if dump is None:
        return _without_page(snap, page, _said(result) or f"smartctl exit status {result.status}")
    return replace(snap, nvme_logs={**snap.nvme_logs, page: dump})


def _without_page(snap: Snapshot, page: int, why: str) -> Snapshot:
    return replace(snap, parse_notes=(*snap.parse_notes, f"vendor log page 0x{page:02x} could not be read ({why}): "
                                      "no timed-workload window"))


def identify(runner: Runner, device: str, device_type: Optional[str] = None) -> Snapshot:
    """The drive's identity only (`smartctl -i`): read again just before a vendor command, to be sure the
    drive behind the name is still the one the guard looked at."""
    return _read(runner, device, device_type, lambda json: identity_args(device, device_type, json=json))


def _read(runner: Runner, device: str, device_type: Optional[str], make_args: Callable[[bool], list[str]]
          ) -> Snapshot:
    result = runner.run(make_args(True))
    if result.status & BIT_CMDLINE and b"UNRECOGNIZED OPTION" in result.stdout + result.stderr:
        result = runner.run(make_args(False))  # smartctl < 7.0 has no --json
    if result.status & BIT_CMDLINE:
        raise _command_line_failure(device, result)
    if result.status & BIT_OPEN:
        raise _open_failure(device, result)
    try:
        snap = parse_output(result.stdout, source=device, device=device, device_type=device_type)
    except ParseError as exc:
        raise DriveError(device, f"unreadable smartctl output ({exc})", kind="read") from None
    notes = [f"smartctl exit status {result.status} (0x{result.status:02x}): "
             f"{'; '.join(describe_status(result.status))}"] if result.status else []
    if not snap.has_data:
        what = "a SMART command failed and no data came back" if result.status & BIT_COMMAND \
            else "smartctl printed no drive data"
        raise DriveError(device, f"{what}: {_said(result) or 'see smartctl -x ' + device}", kind="read")
    return replace(snap, exit_status=result.status, smart_passed=passed_given_status(snap.smart_passed, result.status),
                   parse_notes=snap.parse_notes + tuple(notes))


def scan(runner: Runner) -> list[ScanEntry]:
    """Every device `smartctl --scan-open` lists, with the open error of those it could not open."""
    result = runner.run(SCAN_ARGS)
    if result.status & BIT_CMDLINE:
        result = runner.run(SCAN_ARGS_TEXT)  # smartctl < 7.0 has no --json
    try:
        return parse_scan_entries(result.stdout)
    except ParseError:
        return []


def reset_timer(runner: Runner, device: str, device_type: Optional[str]) -> CallResult:
    """Send SMART EXECUTE OFF-LINE IMMEDIATE subcommand 40h (`smartctl -t vendor,0x40`). The caller guards."""
    result = runner.run(reset_args(device, device_type))
    if result.status & BIT_OPEN:
        raise _open_failure(device, result)
    if result.status & (BIT_CMDLINE | BIT_COMMAND):
        detail = _said(result) or "; ".join(describe_status(result.status))
        raise DriveError(device, f"the drive rejected the timer reset (smartctl exit status {result.status}: "
                         f"{detail})", kind="rejected")
    return result


# ------------------------------------------------------------------------------------------------
# nvme-cli: the NVMe timed-workload reset (smartctl cannot send Set Features).


def locate_nvme(platform: Optional[str] = None) -> str:
    """nvme-cli's `nvme`, on PATH or in the platform's sbin directories; as root it must be a file called nvme that
    only root can change (trust.check_program)."""
    for candidate in [shutil.which("nvme"), *(os.path.join(d, "nvme") for d in facts(platform).program_dirs)]:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            path = os.path.abspath(candidate)
            _check_program(path, "nvme", "nvme-cli binary", "use the one the nvme-cli package installed")
            return path
    raise SmartctlNotFound("nvme-cli not found (the NVMe timer reset needs it): apt-get install nvme-cli / "
                           "dnf install nvme-cli")


class NvmeCliRunner:
    """Runs nvme-cli with a timeout. Its exit status is not a bitmask: 0 is success, anything else failure
    (nvme-cli 2.x returns 1 for every error; the NVMe status is only in its stderr)."""

    def __init__(self, path: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self.path = path
        self.timeout_s = timeout_s

    def run(self, args: Sequence[str]) -> CallResult:
        started = time.monotonic()
        try:
            proc = subprocess.run([self.path, *args], capture_output=True, timeout=self.timeout_s,
                                  stdin=subprocess.DEVNULL, check=False)
        except subprocess.TimeoutExpired:
            raise DriveError(args[1] if len(args) > 1 else "nvme", f"nvme-cli did not answer within "
                             f"{self.timeout_s:g} s and was killed (hung device?)", kind="timeout") from None
        except OSError as exc:
            raise SmartctlNotFound(f"cannot run nvme-cli at {self.path}: {exc.strerror}") from None
        return CallResult(tuple(args), proc.stdout, proc.returncode, proc.stderr, time.monotonic() - started)


def reset_nvme_timer(runner: Runner, device: str) -> CallResult:
    """Send Set Features 0xD5 value 1 with nvme-cli. The caller guards (documented families only)."""
    result = runner.run(nvme_reset_args(device))
    if result.status == 0:
        return result
    from ssdwear.model.escape import visible

    lines = [line.strip() for line in result.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    said = visible(next((line for line in lines if line.startswith("NVMe status")), lines[0] if lines else
                        f"exit status {result.status}"))[:300]
    if any(word in said.lower() for word in ("no such file", "no such device", "permission denied")):
        raise DriveError(device, f"nvme-cli could not open the device: {said}", kind="missing")
    raise DriveError(device, f"the drive rejected the timer reset (nvme set-feature -f 0xd5 -v 1: {said})",
                     kind="rejected")


Outcome = Union[Snapshot, DriveError]


def read_many(runner: Runner, devices: Sequence[tuple[str, Optional[str]]], workers: int = DEFAULT_WORKERS,
              wake: bool = False, reader: Optional[Callable[..., Snapshot]] = None) -> list[Outcome]:
    """Read drives in parallel with a bounded pool; a drive that fails is returned as its DriveError."""
    read = reader or read_drive

    def one(item: tuple[str, Optional[str]]) -> Outcome:
        try:
            return read(runner, item[0], item[1], wake)
        except DriveError as exc:
            exc.device_type = exc.device_type or item[1]  # drives behind one path differ by their type alone
            return exc

    if len(devices) <= 1 or workers <= 1:
        return [one(item) for item in devices]
    with ThreadPoolExecutor(max_workers=min(workers, len(devices))) as pool:
        return list(pool.map(one, devices))
