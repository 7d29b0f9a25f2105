#!/usr/bin/env python3
"""Bounded runs: the latencies seen in the field, replayed over 24, 90 and 500 devices through ssdwear's real session.

Usage: python3 bench/bounded.py [--quick] [--workers 16]

Every drive's read sleeps its field latency (tools/latency.py: 15 ms a NetApp LUN, 0.6 s a SAS drive behind a
MegaRAID controller, 1.65 s an idle hard disk, 64 s a straggler) in a fake smartctl runner that the session bounds
as it bounds the real one (smartctl/bounds.py: the default 20 s per call, the deadline). Each row is one reading and
assessment of every drive (`Session.read` then `assess`, no history) with `--workers` threads (16, as the target
says; ssdwear's default is 64), against the ideal: ceil(drives / workers) rounds of the latency. Targets (issue 29):
the 90-drive JBOD of idle disks within 1.5 x its ideal (6 rounds x 1.65 s), and with one 64 s straggler among them
within the straggler's 20 s timeout plus one round. The straggler is read in the first round there; read in the
last round it holds the run for the rounds before it plus its timeout (a context row: no scheduler knows a drive is
slow before it reads it), and the deadline cuts that (a row with a 15 s deadline). `--quick` leaves out the 500-drive
rows (about 75 s of sleeping). Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's ssdwear and tools/, whatever is installed

from ssdwear.smartctl.runner import DEFAULT_TIMEOUT_S  # noqa: E402
from tools.latency import IDLE_HDD_S, MEGARAID_SAS_S, NETAPP_LUN_S, STRAGGLER_S, devices, replay  # noqa: E402


@dataclass(frozen=True)
class Row:
    what: str
    seconds: float
    ideal: float
    target: float | None  # the most it may take (None: a figure for context)
    unread: int

    @property
    def ok(self) -> bool:
        return self.target is None or self.seconds <= self.target


def rounds(count: int, workers: int) -> int:
    return math.ceil(count / workers)


def uniform(what: str, count: int, latency: float, workers: int, factor: float | None = None) -> Row:
    ran = replay({d: latency for d in devices(count)}, workers)
    ideal = rounds(count, workers) * latency
    return Row(f"{count} x {what} ({latency:g} s)", ran.seconds, ideal, None if factor is None else factor * ideal,
               sum(1 for r in ran.reports if r.error))


def straggler(where: str, workers: int, deadline_s: float | None = None) -> Row:
    names = devices(90)
    slow = names[0] if where == "first" else names[-1]
    latencies = {d: STRAGGLER_S if d == slow else IDLE_HDD_S for d in names}
    ran = replay(latencies, workers, deadline_s=deadline_s)
    before = 0 if where == "first" else rounds(89, workers) - 1  # the rounds of the others ahead of it
    ideal = before * IDLE_HDD_S + DEFAULT_TIMEOUT_S
    target = ideal + IDLE_HDD_S if where == "first" else deadline_s + 0.5 if deadline_s else None
    said = f", deadline {deadline_s:g} s" if deadline_s else ""
    return Row(f"90 x idle HDD + one {STRAGGLER_S:g} s straggler read {where}{said}", ran.seconds,
               deadline_s if deadline_s else ideal, target, sum(1 for r in ran.reports if r.error))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the 500-drive rows")
    parser.add_argument("--workers", type=int, default=16)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    counts = (24, 90) if args.quick else (24, 90, 500)
    rows: list[Row] = []
    for what, latency in (("NetApp LUN", NETAPP_LUN_S), ("MegaRAID SAS", MEGARAID_SAS_S), ("idle HDD", IDLE_HDD_S)):
        for count in counts:
            target = 1.5 if (what, count) == ("idle HDD", 90) else None
            rows.append(uniform(what, count, latency, args.workers, target))
            print(f"  {rows[-1].what}: {rows[-1].seconds:.2f} s", file=sys.stderr)
    for where, deadline in (("first", None), ("last", None), ("last", 15.0)):
        rows.append(straggler(where, args.workers, deadline))
        print(f"  {rows[-1].what}: {rows[-1].seconds:.2f} s", file=sys.stderr)
    print(f"{'what':<62} {'measured':>9} {'ideal':>8} {'ratio':>6} {'target':>8} {'unread':>6}  result")
    for r in rows:
        target = f"{r.target:.2f}" if r.target is not None else "-"
        result = "" if r.target is None else "ok" if r.ok else "MISSED"
        print(f"{r.what:<62} {r.seconds:>8.2f}s {r.ideal:>7.2f}s {r.seconds / r.ideal:>6.2f} {target:>8} "
              f"{r.unread:>6}  {result}")
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"\n{datetime.now(timezone.utc):%Y-%m-%d}, {os.cpu_count()} cores, load average {load:.1f} before and "
          f"{os.getloadavg()[0]:.1f} after, Python {platform.python_version()}, commit {commit or '?'}, "
          f"{args.workers} workers")
    missed = [r.what for r in rows if not r.ok]
    for what in missed:
        print(f"MISSED: {what}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
