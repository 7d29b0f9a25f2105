"""The CLI without juggling (issue 18.3): one decorator (app.command) gives every command the global options, the App
and the error mapping, in the one order; live or recorded is decided once, before the session (App.source), for
every reading command alike, plan included."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES

from ssdwear.cli.app import GLOBAL_OPTION_NAMES, App, command
from ssdwear.cli.main import cli
from ssdwear.model.errors import SsdwearError
from ssdwear.run.session import Session
from ssdwear.smartctl.replay import ReplayRunner

INTEL = FIXTURES / "intel"


def test_every_command_but_completion_takes_the_global_options_after_its_name() -> None:
    for name, cmd in cli.commands.items():
        options = {opt for p in cmd.params if isinstance(p, click.Option) and p.hidden for opt in p.opts}
        expected = set() if name == "completion" else {o.split("/")[0] for o in GLOBAL_OPTION_NAMES}
        assert expected <= options and (name != "completion" or not options), name
        shown = [p.name for p in cmd.params if not (isinstance(p, click.Option) and p.hidden)]
        hidden = [p.name for p in cmd.params if isinstance(p, click.Option) and p.hidden]
        assert cmd.params[:len(shown)] == [p for p in cmd.params if p.name in shown], name  # its own options first
        assert len(hidden) in (0, len(GLOBAL_OPTION_NAMES)), name


def test_a_new_command_made_with_the_decorator_gets_the_app_the_options_and_the_errors() -> None:
    seen = []

    @command("frame-test")
    @click.option("--fail", is_flag=True)
    def frame_test(app: App, fail: bool) -> None:
        seen.append((app.no_history, app.replay))
        if fail:
            raise SsdwearError("it failed: do this instead")

    cli.add_command(frame_test)
    try:
        ok = ssdwear_cli(["frame-test", "--no-history", "--replay", str(INTEL)])
        failed = ssdwear_cli(["--no-history", "frame-test", "--fail"])
    finally:
        cli.commands.pop("frame-test")
    assert ok.exit_code == 0 and seen[0] == (True, str(INTEL))
    assert failed.exit_code == 1 and failed.stderr == "ssdwear: it failed: do this instead\n"


@pytest.fixture
def closes(monkeypatch: pytest.MonkeyPatch) -> list[Session]:
    """The sessions closed, in order (each command makes and closes one)."""
    closed: list[Session] = []
    real = Session.close

    def close(self: Session) -> None:
        closed.append(self)
        real(self)

    monkeypatch.setattr(Session, "close", close)
    return closed


@pytest.mark.parametrize("command_line", [["report"], ["status"], ["scan"], ["retire-check", "/dev/sda"],
                                          ["plan", "--from", "/dev/sda"]])
def test_a_machine_with_drives_is_read_once_under_fallback_replay(command_line: list[str],
                                                                  closes: list[Session]) -> None:
    """The scan that decides against the recordings is the one the session uses, and one session is made and
    closed (report, check, retire-check and scan made two and could close one twice)."""
    runner = ReplayRunner(INTEL)
    result = ssdwear_cli(["--no-history", "--fallback-replay", str(FIXTURES / "fleet"), *command_line, "-d", "sat"]
                         if command_line[0] in ("retire-check", "plan") else
                         ["--no-history", "--fallback-replay", str(FIXTURES / "fleet"), *command_line],
                         App(runner=runner, clock=lambda: T0))
    assert "recorded smartctl outputs" not in result.stderr, result.stderr
    assert sum(1 for c in runner.calls if "--scan-open" in c) <= 1
    assert len(closes) == 1 and closes[0].origin == "live"


@pytest.mark.parametrize("command_line", [["retire-check", "/dev/sda", "-d", "sat", "-f", "json"],
                                          ["plan", "--from", "/dev/sda", "-d", "sat", "-f", "json"],
                                          ["report", "/dev/sda", "-d", "sat", "-f", "json"]])
def test_without_smartctl_named_drives_are_read_from_the_fallback_recordings_too(
        command_line: list[str], tmp_path: Path, closes: list[Session]) -> None:
    """--fallback-replay's help promised retire-check the recordings when this machine has no smartctl, but a named
    drive never fell back (retire-check always names one, so did plan, which ignored the option): one rule now."""
    result = ssdwear_cli(["--smartctl", str(tmp_path / "none"), "--fallback-replay", str(INTEL), *command_line])
    assert "no SMART drive on this machine (smartctl not found" in result.stderr, result.stderr
    doc = json.loads(result.stdout)
    assert doc["origin"] == f"replay:{INTEL}" and "CVPR0000SEED710" in result.stdout
    assert len(closes) == 1


@pytest.mark.parametrize("command_line", [["sample"], ["start", "/dev/sda"], ["measure", "/dev/sda"]])
def test_commands_that_act_on_this_machine_refuse_fallback_replay_before_any_session(
        command_line: list[str], closes: list[Session]) -> None:
    result = ssdwear_cli(["--fallback-replay", str(INTEL), *command_line])
    assert result.exit_code == 2 and f"{command_line[0]} acts on this machine's drives" in result.stderr
    assert closes == []
