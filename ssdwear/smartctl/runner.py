"""The seam between ssdwear and the programs it runs: a Runner answers one call (the arguments after the program
name) with a CallResult. host/runner.py runs the real smartctl and nvme-cli; replay.py answers from recordings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class CallResult:
    args: tuple[str, ...]  # arguments after the program name
    stdout: bytes
    status: int  # smartctl's exit status (bitmask)
    stderr: bytes = b""
    seconds: float = 0.0


class Runner(Protocol):
    def run(self, args: Sequence[str]) -> CallResult: ...
