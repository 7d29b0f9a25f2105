"""The one way the tests run the CLI in-process: click's runner on the assembled command (ssdwear.cli.main), with an
App whose clock is T0 unless the test brings its own App, and the checks every run must pass: no traceback, no
exception other than the exit, no internal error (unless the test provokes one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from click.testing import CliRunner, Result

from ssdwear.cli.app import App
from ssdwear.cli.main import cli

from .clock import T0


def ssdwear_cli(args: Sequence[str], app: App | None = None, *, runner: Any = None,
                env: Mapping[str, str | None] | None = None, input: str | None = None,
                internal_error_ok: bool = False) -> Result:
    """`ssdwear ARGS` with `app` (default: App(clock=T0), with `runner` answering the smartctl calls)."""
    result = CliRunner().invoke(cli, list(args), obj=app or App(clock=lambda: T0, runner=runner), env=env,
                                input=input)
    said = result.output + (result.stderr or "")
    assert "Traceback" not in said, said
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert internal_error_ok or "internal error" not in said, said
    return result
