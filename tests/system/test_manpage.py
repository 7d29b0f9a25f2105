"""The manual page ssdwear(1), man/ssdwear.1: generated from the command line's own help by tools/make_manpage.py
(so it cannot drift: a fresh generation must equal the committed page), and rendered by groff and man-db without
a warning."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import click
from support.paths import ROOT
from support.tools import require

from ssdwear.cli.main import cli

PAGE = ROOT / "man" / "ssdwear.1"
GENERATOR = ROOT / "tools" / "make_manpage.py"


def fresh() -> str:
    proc = subprocess.run([sys.executable, str(GENERATOR), "--stdout"], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_committed_man_page_is_what_the_generator_makes_from_the_help() -> None:
    assert PAGE.read_text(encoding="ascii") == fresh(), "run: python3 tools/make_manpage.py"


def test_every_command_and_option_of_the_help_is_in_the_page() -> None:
    text = PAGE.read_text(encoding="ascii").replace("\\-", "-")
    top = cli.make_context("ssdwear", [], resilient_parsing=True)  # -h and --help, as the command has them
    for name in cli.list_commands(top):
        command = cli.get_command(top, name)
        assert command is not None and f'.SS "{name}"' in text
        ctx = command.make_context(name, [], parent=top, resilient_parsing=True)  # its context_settings too
        for param in command.get_params(ctx):
            if isinstance(param, click.Option) and not param.hidden:
                assert all(f"\\fB{opt}\\fR" in text for opt in param.opts), (name, param.opts)


def _render(*command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "MANWIDTH": "80"}
    return subprocess.run([*command], capture_output=True, text=True, timeout=60, env=env)


def test_groff_renders_the_page_without_a_warning() -> None:
    proc = _render(require("groff"), "-ww", "-man", "-Tutf8", "-z", str(PAGE))
    assert (proc.returncode, proc.stderr) == (0, "")


def test_man_renders_the_page_with_warnings_on_and_says_none() -> None:
    proc = _render(require("man"), "--warnings", "-l", str(PAGE))
    assert proc.returncode == 0 and proc.stderr == ""
    text = re.sub(r".\x08", "", proc.stdout)
    assert "ssdwear - SMART wear monitor" in text
    assert "ssdwear [GLOBAL OPTIONS] report [OPTIONS] [DEVICE]..." in text
    assert "\u2212" not in text and "\u2010" not in text  # option dashes stay ASCII for copy and paste


def test_the_page_has_a_whatis_line_for_apropos() -> None:
    proc = _render(require("lexgrog"), str(PAGE))
    assert proc.returncode == 0
    assert proc.stdout.strip() == (f'{PAGE}: "ssdwear - SMART wear monitor: percent used and projected years left for '
                                   'every SSD"')


def test_man_at_80_columns_keeps_every_line_within_them() -> None:
    """Issue 25.12: `MANWIDTH=80 man ssdwear` had 7 lines of 81-84 columns (the help's example blocks, kept as
    written, plus man's indentation)."""
    proc = _render(require("man"), "-l", str(PAGE))
    assert proc.returncode == 0
    wide = [line for line in re.sub(r".\x08", "", proc.stdout).splitlines() if len(line) > 80]
    assert wide == []
