"""Drives that answer as slowly as drives in the field do, read through ssdwear's real session (bench/bounded.py and
tests/unit/run/test_bounded_reads.py).

FieldRunner stands in for smartctl at its seam (smartctl/runner.py): every read is answered with one recorded
output (fixtures/intel's /dev/sda, an Intel 710 over SATA) after the latency its device is given, sleeping in the
calling thread as a real call waits on its drive. It can be told a call's time, as host/runner.py's runners can
(smartctl/runner.TimedRunner): a call whose latency is longer waits that time and then fails as a killed call does
(a DriveError of kind 'timeout'), so the timeouts and the deadline are decided by ssdwear's own code
(smartctl/bounds.py, run/session.py), never here.

The latencies seen in the field (issue 29): a NetApp LUN answers in 15 ms, a SAS drive behind a MegaRAID controller
in 0.6 s, an idle hard disk in 1.65 s, and a straggler (a failing disk, a stalled bridge) holds its call for 64 s.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ssdwear.host.config import Config
from ssdwear.model.errors import DriveError
from ssdwear.model.records import DriveReport
from ssdwear.run.session import Session
from ssdwear.smartctl.argv import call_subject
from ssdwear.smartctl.bounds import Bounds
from ssdwear.smartctl.runner import CallResult

ANSWER = Path(__file__).resolve().parents[1] / "fixtures" / "intel" / "smartctl --json=c -x -n standby -d sat " \
    "_dev_sda.out"
NETAPP_LUN_S = 0.015
MEGARAID_SAS_S = 0.6
IDLE_HDD_S = 1.65
STRAGGLER_S = 64.0


class FieldRunner:
    """smartctl, answering each device's calls after its latency (`latencies`: device -> seconds)."""

    def __init__(self, latencies: Mapping[str, float], sleep: Callable[[float], None] = time.sleep) -> None:
        self.latencies, self.sleep = dict(latencies), sleep
        self.answer = ANSWER.read_bytes()

    def run(self, args: Sequence[str]) -> CallResult:
        return self.run_within(args, math.inf)

    def run_within(self, args: Sequence[str], seconds: float) -> CallResult:
        device = call_subject(args)
        latency = self.latencies.get(device, 0.0)
        self.sleep(min(latency, seconds))
        if latency > seconds:
            raise DriveError(device, f"smartctl did not answer within {seconds:g} s and was killed (hung device or "
                             "controller?)", kind="timeout")
        return CallResult(tuple(args), self.answer, 0, b"", latency)


def devices(count: int) -> list[str]:
    """/dev/sda ... /dev/sdz, /dev/sdaa ...: `count` names as the kernel gives them."""
    letters = "abcdefghijklmnopqrstuvwxyz"

    def name(n: int) -> str:
        return letters[n] if n < 26 else name(n // 26 - 1) + letters[n % 26]

    return [f"/dev/sd{name(n)}" for n in range(count)]


@dataclass(frozen=True)
class Replayed:
    seconds: float  # wall time of the session's reading and assessment
    reports: tuple[DriveReport, ...]


def replay(latencies: Mapping[str, float], workers: int, timeout_s: float | None = None,
           deadline_s: float | None = None) -> Replayed:
    """The drives of `latencies` (in its order) read and assessed through a real Session with `workers` threads, each
    call bounded as ssdwear bounds it (`timeout_s` None: the default per-call timeout), without history."""
    config = Config(workers=workers, smartctl_timeout=timeout_s)
    runner = FieldRunner(latencies)
    session = Session(config=config, runner_factory=lambda: runner, bounds=Bounds(timeout_s, deadline_s=deadline_s))
    started = time.monotonic()
    try:
        assessed = session.assess(session.read([(d, "sat") for d in latencies]))
    finally:
        session.close()
    return Replayed(time.monotonic() - started, tuple(assessed.reports))
