"""Shared test set-up: every test runs with its own history, config and XDG dirs, and no colour. The helpers are in
tests/support/ (pyproject's pytest `pythonpath` puts tests/ on the path): tests import them, never this file."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import cli
from support.clock import SteppedClock
from support.paths import FAKE_SMARTCTL, ROOT


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SSDWEAR_DB", str(tmp_path / "history.db"))
    monkeypatch.setenv("SSDWEAR_SYSTEM_CONFIG", str(tmp_path / "etc-config.yaml"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("NO_COLOR", "1")
    for name in ("SSDWEAR_SMARTCTL", "SSDWEAR_CONFIG", "SSDWEAR_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@pytest.fixture
def fake_smartctl(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A smartctl executable that replays a fixture folder; returns a function to point it at one."""
    wrapper = tmp_path / "bin" / "smartctl"
    wrapper.parent.mkdir()
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE_SMARTCTL} \"$@\"\n")
    wrapper.chmod(0o755)
    log = tmp_path / "smartctl.log"
    monkeypatch.setenv("FAKE_SMARTCTL_LOG", str(log))

    def use(folder: Path) -> tuple[Path, Path]:
        monkeypatch.setenv("FAKE_SMARTCTL_DIR", str(folder))
        return wrapper, log

    return use


# What a clean copy of the checkout holds: not the git data, virtual environments, builds or caches of this one.
CLEAN_COPY = ("*.egg-info", ".git", ".venv", "build", "dist", "__pycache__", ".*_cache", ".hypothesis", ".benchmarks",
              "out")


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel `python -m build` makes from a clean copy of this checkout (the sdist first, then the
    wheel from the sdist), once per test run: the folder holding both."""
    import shutil
    import subprocess

    base = tmp_path_factory.mktemp("dist")
    shutil.copytree(ROOT, base / "src", ignore=shutil.ignore_patterns(*CLEAN_COPY))
    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(base / "src")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return base / "dist"

@pytest.fixture
def ssdwear_cli() -> Callable[..., object]:
    """support.cli.ssdwear_cli: `ssdwear ARGS` in-process, checked for tracebacks and internal errors."""
    return cli.ssdwear_cli


@pytest.fixture
def clock() -> SteppedClock:
    """A clock at support.clock.T0 that the test moves on."""
    return SteppedClock()
