"""Domain errors. Each is raised deep in the core and turned into a one-line message in cli/app.py.

The message (str(exc)) says what was wrong and what to do about it.
"""

from __future__ import annotations

from typing import Literal

# Why a drive could not be read or commanded; the CLI and session branch on these, and a drive not read carries its
# kind as its `error_reason` (JSON) and as the `reason` label of `ssdwear_read_ok 0` (docs/monitoring.md). 'deadline':
# the run's deadline came before the drive was read; 'resetting': another ssdwear run is resetting its timer.
DriveErrorKind = Literal["read", "timeout", "permission", "standby", "missing", "rejected", "raid-volume", "deadline",
                         "resetting"]


class SsdwearError(Exception):
    "Base class of every error ssdwear reports as a one-line message."


class ParseError(SsdwearError):
    "The input is not smartctl output ssdwear can read."


class SmartctlNotFound(SsdwearError):
    "No smartctl binary could be found or run."


class DriveError(SsdwearError):
    "One drive could not be read or commanded; the other drives are still handled."

    def __init__(self, device: str, message: str, kind: DriveErrorKind = "read") -> None:
        super().__init__(f"{device}: {message}")
        self.device = device
        self.message = message
        self.kind: DriveErrorKind = kind
        self.device_type: str | None = None  # the -d type the drive was read with (set by smart.read_many)


class StoreError(SsdwearError):
    "The history database cannot be used."


class HistoryOff(StoreError):
    "A command that stores samples was run without a history database; the message says why there is none."


class Busy(SsdwearError):
    "Another ssdwear run held the run lock for longer than this run would wait (run_lock_wait)."


class ConfigError(SsdwearError):
    "The configuration file is invalid."


class UsageError(SsdwearError):
    "The command line asks for something that cannot be done."
