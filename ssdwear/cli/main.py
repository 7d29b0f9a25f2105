"""The `ssdwear` command: the group of app.py with every command of commands/ on it (each module registers its
commands when imported). The console script, `python -m ssdwear` and the tests run this `cli`."""

from __future__ import annotations

from .app import cli
from .commands import fleet, planning, reading, timed  # noqa: F401  (they register themselves on cli)


def main() -> None:
    cli(prog_name="ssdwear")


__all__ = ["cli", "main"]
