"""Replay recorded smartctl (and nvme-cli) calls instead of running them.

A fixture folder stands for one machine. Each recorded call is a pair of files named after the call:
`smartctl <args>.out` (stdout, bytes as printed) and `smartctl <args>.rc` (exit status, decimal), and
`smartctl <args>.err` (stderr) where it said something, where <args> are the arguments after the program name
joined by single spaces, with '/' replaced by '_'. nvme-cli calls are named `nvme <args>` the same way.
The N-th call of the same arguments (N >= 2) is answered by `smartctl <args>@N.out` when it exists,
else by the highest-numbered recording before it: a drive read three times can show three states.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from ssdwear.model.errors import DriveError, UsageError

from .runner import CallResult


def fixture_name(args: Sequence[str], program: str = "smartctl") -> str:
    """The file name stem of a recorded call: the program, then its argv, joined by spaces, '/' -> '_'.
    The one naming rule for every recording (tests/support/fake_smartctl.py and tools/raid_emu/emu.py repeat it
    because they run as a stand-alone smartctl without ssdwear importable)."""
    return f"{program} " + " ".join(args).replace("/", "_")


class ReplayRunner:
    def __init__(self, folder: Path, program: str = "smartctl") -> None:
        if not folder.is_dir():
            raise UsageError(f"replay folder {folder} does not exist: give a folder of recorded smartctl calls")
        self.folder = folder
        self.program = program
        self.calls: list[tuple[str, ...]] = []  # every call made, in order (tests count them)
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def run(self, args: Sequence[str]) -> CallResult:
        name = fixture_name(args, self.program)
        with self._lock:
            self.calls.append(tuple(args))
            count = self._counts[name] = self._counts.get(name, 0) + 1
        for n in range(count, 0, -1):
            stem = name if n == 1 else f"{name}@{n}"
            out = self.folder / f"{stem}.out"
            if out.is_file():
                rc_file = self.folder / f"{stem}.rc"
                status = int(rc_file.read_text().strip() or "0") if rc_file.is_file() else 0
                err_file = self.folder / f"{stem}.err"
                return CallResult(tuple(args), out.read_bytes(), status,
                                  err_file.read_bytes() if err_file.is_file() else b"")
        device = next((a for a in args if a.startswith("/dev/")), args[-1] if args else self.program)
        raise DriveError(device, f"no recording of '{name}' in {self.folder}{self._other_types(args)}", kind="read")

    def _other_types(self, args: Sequence[str]) -> str:
        """Where the same call was recorded with another -d type (or none): which, and what to give instead."""
        wanted, given = _without_type(fixture_name(args, self.program).split(" "))
        recorded = sorted({typ or "" for file in self.folder.glob(f"{self.program} *.out")
                           for tokens, typ in [_without_type(_stem(file.name).split(" "))] if tokens == wanted}
                          - {given or ""})
        if not recorded:
            return ""
        said = " or ".join(f"-d {t}" if t else "no -d" for t in recorded)
        first = recorded[0]
        todo = f"add -d {first}" if given is None else f"give -d {first}" if first else f"drop -d {given}"
        return f": it was recorded with {said}: {todo}"


def _stem(file_name: str) -> str:
    """A recording's call, from its file name: without `.out` and the `@N` of a later call."""
    stem = file_name[: -len(".out")]
    head, at, count = stem.rpartition("@")
    return head if at and count.isdigit() else stem


def _without_type(tokens: list[str]) -> tuple[list[str], str | None]:
    """A call's tokens without its `-d TYPE`, and the TYPE (None: no -d)."""
    if "-d" in tokens[:-1]:
        i = tokens.index("-d")
        return tokens[:i] + tokens[i + 2:], tokens[i + 1]
    return tokens, None
