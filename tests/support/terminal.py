"""The installed `ssdwear` command in a real pseudo-terminal, read as a user sees it.

`Terminal` starts a command on the slave side of a new pty (its stdin, stdout and stderr, and its controlling
terminal, in a session of its own), with the window size set by TIOCSWINSZ before it starts, as a terminal
emulator sets it; reads the master side into a VT100 screen (pyte), so `screen()` is what the user would see
(rich's live display redraws the bar in place with cursor movements; the screen applies them); `interrupt()`
types Ctrl-C, which the terminal's line discipline turns into SIGINT to the foreground process group (ssdwear and
the smartctl it runs), exactly as at a keyboard. Every wait has a deadline: a command that hangs fails the test
with the screen so far, and is killed, never hanging the suite.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

import pyte
import pytest

from .paths import ROOT

# What a user's terminal environment says; the tests' own (TERM=dumb, NO_COLOR, COLUMNS: conftest.py) is removed.
TERMINAL_ENV = {"TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
NOT_A_USERS = ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "CLICOLOR_FORCE",
               "PYTHONIOENCODING", "PYTHONUTF8")


def installed_command() -> str:
    """The `ssdwear` console script installed beside this Python (the venv's, `pip install -e '.[test]'`)."""
    command = shutil.which("ssdwear", path=str(Path(sys.executable).parent))
    if command is None:
        message = f"no ssdwear console script beside {sys.executable}: pip install -e '.[test]' installs it"
        if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
            pytest.fail(message)
        pytest.skip(message)
    return str(command)


def user_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a user at a terminal: this test's (its history, config, smartctl settings) without the
    variables that make rich or the tests' output deterministic, plus TERMINAL_ENV and `extra`."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_A_USERS}
    return {**env, **TERMINAL_ENV, **(extra or {})}


def _controlling_terminal() -> None:  # in the child, after setsid: the pty on fd 0 becomes its terminal
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`argv` (default: the installed ssdwear with `args`) running in a pty `columns` x `lines`. With `sized`
    False the pty reports no size (0 x 0, as a serial console does) though the screen has that size."""

    def __init__(self, args: Sequence[str], columns: int = 120, lines: int = 50, *,
                 env: Mapping[str, str] | None = None, argv: Sequence[str] | None = None,
                 cwd: Path = ROOT, sized: bool = True) -> None:
        self.columns, self.lines = columns, lines
        self.screen_ = pyte.Screen(columns, lines)
        self.feed = pyte.ByteStream(self.screen_)
        self.raw = bytearray()  # every byte the command wrote, escapes and all
        master, slave = os.openpty()
        size = (lines, columns) if sized else (0, 0)
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", *size, 0, 0))
        self.master = master
        try:
            self.proc = subprocess.Popen(list(argv) if argv is not None else [installed_command(), *args],
                                         stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                                         env=dict(env) if env is not None else user_env(),
                                         start_new_session=True, preexec_fn=_controlling_terminal)
        finally:
            os.close(slave)
        self.closed = False

    # -- reading -------------------------------------------------------------------------------------------

    def _pump(self, seconds: float) -> None:
        """Read what the command wrote within `seconds` (less once something came) into the screen."""
        if self.closed:
            time.sleep(min(seconds, 0.05))
            return
        ready, _, _ = select.select([self.master], [], [], seconds)
        if not ready:
            return
        try:
            data = os.read(self.master, 65536)
        except OSError as exc:  # EIO: the slave side is closed (the command and its children are gone)
            if exc.errno != errno.EIO:
                raise
            data = b""
        if not data:
            self.closed = True
            return
        self.raw += data
        self.feed.feed(data)

    def screen(self) -> str:
        """What the terminal shows: its lines, trailing blanks removed."""
        return "\n".join(line.rstrip() for line in self.screen_.display).rstrip("\n")

    def wait_for(self, text: str, seconds: float = 20.0) -> str:
        """The screen once it shows `text`; fails (with the screen) when it has not within `seconds`."""
        deadline = time.monotonic() + seconds
        while text not in self.screen():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} not on the screen after {seconds:g} s; it shows:\n{self.screen()}")
            if self.closed and self.proc.poll() is not None:
                raise AssertionError(f"the command exited ({self.proc.returncode}) without showing {text!r}:\n"
                                     f"{self.screen()}")
            self._pump(min(left, 0.2))
        return self.screen()

    def finish(self, seconds: float = 30.0) -> int:
        """The exit status once the command has ended and everything it wrote is on the screen; fails when it
        has not ended within `seconds`."""
        deadline = time.monotonic() + seconds
        while not (self.closed and self.proc.poll() is not None):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"the command has not ended after {seconds:g} s; the screen shows:\n"
                                     f"{self.screen()}")
            self._pump(min(left, 0.2))
        return self.proc.returncode

    # -- typing ------------------------------------------------------------------------------------------

    def interrupt(self) -> None:
        """Ctrl-C at the keyboard: the terminal sends SIGINT to its foreground process group."""
        os.write(self.master, termios.tcgetattr(self.master)[6][termios.VINTR])

    # -- the end -----------------------------------------------------------------------------------------

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        with contextlib.suppress(ProcessLookupError):  # what is left running (a failed test), and its children
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        os.close(self.master)


def run_in_terminal(args: Sequence[str], columns: int = 120, lines: int = 50, seconds: float = 30.0,
                    env: Mapping[str, str] | None = None, sized: bool = True) -> tuple[int, str]:
    """`ssdwear ARGS` run to its end in a pty of that size: (exit status, the screen)."""
    with Terminal(args, columns, lines, env=env, sized=sized) as term:
        code = term.finish(seconds)
        return code, term.screen()
