"""The seam between ssdwear and the programs it runs: a Runner answers one call (the arguments after the program
name) with a CallResult. host/runner.py runs the real smartctl and nvme-cli; replay.py answers from recordings.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ssdwear.model.errors import SsdwearError

# How calls go through a Runner unless the config or the options say otherwise (host/config.py's defaults): each
# call may take this long before it is killed (10 s behind a USB bridge: bounds.py)...
DEFAULT_TIMEOUT_S = 20.0
# ... and this many drives are read at once. smartctl mostly waits on the drive, so a 60-drive JBOD is read in about
# the time of its slowest drive; lower it (config `workers`, --workers) for controllers that dislike concurrent
# commands.
DEFAULT_WORKERS = 64


@dataclass(frozen=True)
class CallResult:
    args: tuple[str, ...]  # arguments after the program name
    stdout: bytes
    status: int  # smartctl's exit status (bitmask)
    stderr: bytes = b""
    seconds: float = 0.0


class Runner(Protocol):
    def run(self, args: Sequence[str]) -> CallResult: ...


@runtime_checkable
class TimedRunner(Protocol):
    """A runner that can be told how long one call may take: it kills the call then and raises the DriveError of
    kind 'timeout' that says so (host/runner.py's runners; bounds.Bounded gives each call its time)."""

    def run(self, args: Sequence[str]) -> CallResult: ...

    def run_within(self, args: Sequence[str], seconds: float) -> CallResult: ...


class LazyRunner:
    """A runner made on its first call (nvme-cli is looked for only when a drive needs it), once, whichever thread
    calls first; when it cannot be made (not installed, refused as root), every call raises that error again."""

    def __init__(self, make: Callable[[], Runner]) -> None:
        self._make = make
        self._runner: Runner | None = None
        self._error: SsdwearError | None = None
        self._lock = threading.Lock()

    def run(self, args: Sequence[str]) -> CallResult:
        return self._made().run(args)

    def run_within(self, args: Sequence[str], seconds: float) -> CallResult:
        runner = self._made()
        return runner.run_within(args, seconds) if isinstance(runner, TimedRunner) else runner.run(args)

    def _made(self) -> Runner:
        with self._lock:
            if self._runner is None and self._error is None:
                try:
                    self._runner = self._make()
                except SsdwearError as exc:
                    self._error = exc
        if self._runner is None:
            raise SsdwearError(str(self._error))
        return self._runner
