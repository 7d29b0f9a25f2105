"""SIGINT while the drives are read, sent to the installed command as a user or a scheduler sends it: Ctrl-C typed
in a real pseudo-terminal (SIGINT to the foreground process group: ssdwear and the smartctl it runs), and `kill -INT`
to ssdwear alone (its smartctl calls get none). The fake smartctl sleeps a minute on every drive read, three times
the per-call timeout, so a run that ends within seconds was ended by the signal, not by the timeouts."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from support.paths import FIXTURES, ROOT
from support.terminal import Terminal, installed_command, user_env

READS = 4  # fixtures/intel's drives
PROMPT_S = 5.0  # the answer comes within this after the signal (the calls would run 20 s to their timeout)
ANSWER = "SSDWEAR UNKNOWN - interrupted (SIGINT) before the drives were judged"


def reading(log: Path, seconds: float = 30.0) -> None:
    """Until every drive's read has started (the fake logs each call before it sleeps)."""
    deadline = time.monotonic() + seconds
    while not (log.is_file() and log.read_text().count(" -x ") == READS):
        assert time.monotonic() < deadline, log.read_text() if log.is_file() else "no call"
        time.sleep(0.05)


@pytest.fixture
def hung(fake_smartctl: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    smartctl, log = fake_smartctl(FIXTURES / "intel")
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP", "60")
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP_ON", "-x")  # the scan answers; each drive's read hangs
    return smartctl, log


@pytest.mark.slow
def test_ctrl_c_at_a_terminal_during_check_is_unknown_in_one_line(hung: tuple[Path, Path]) -> None:
    smartctl, log = hung
    with Terminal(["--smartctl", str(smartctl), "check"]) as term:
        reading(log)
        term.interrupt()
        started = time.monotonic()
        code = term.finish(PROMPT_S)
        took = time.monotonic() - started
        screen = term.screen()
    assert (code, screen.replace("^C", "").strip()) == (3, ANSWER), screen  # the terminal echoes ^C
    assert took < PROMPT_S


@pytest.mark.slow
@pytest.mark.parametrize(("command", "code", "stdout", "stderr"), [
    ("check", 3, ANSWER + "\n", ""),  # a Nagios plugin answers in plugin terms, on stdout
    ("report", 130, "", "ssdwear: interrupted\n"),
])
def test_sigint_to_ssdwear_alone_stops_its_calls_and_answers_at_once(
        hung: tuple[Path, Path], command: str, code: int, stdout: str, stderr: str) -> None:
    smartctl, log = hung
    proc = subprocess.Popen([installed_command(), "--smartctl", str(smartctl), command], cwd=ROOT, env=user_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        reading(log)
        os.kill(proc.pid, signal.SIGINT)  # to ssdwear only: its four smartctl calls sleep on
        started = time.monotonic()
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (proc.returncode, out, err) == (code, stdout, stderr)
    assert took < PROMPT_S, f"{took:.1f} s: it waited for its calls"
