"""The `ssdwear` command: the group of app.py with every command of commands/ on it. The console script, `python -m
ssdwear` and the tests run this `cli`."""

from __future__ import annotations

from .app import cli
from .commands import fleet, notify, planning, reading, timed

for _command in (*reading.COMMANDS, *fleet.COMMANDS, *notify.COMMANDS, *timed.COMMANDS, *planning.COMMANDS):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="ssdwear")


__all__ = ["cli", "main"]
