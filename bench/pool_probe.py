"""What parallel reads cost: a thread pool (ssdwear's read_many) vs. a process pool, same drives, same runner.

  python3 bench/pool_probe.py thread|process WORKERS SMARTCTL DEV [DEV ...]

Reads every DEV with ssdwear.smartctl.calls.read_drive through a SmartctlRunner (host/runner.py), in a
pool of WORKERS threads or processes. Prints one JSON line: wall time of the reads, the probe's own peak RSS,
and for a process pool the RSS and PSS summed over the worker processes (PSS shares copy-on-write pages
fairly, so it is the honest figure). Each pool is started inside the timed region, as read_many would.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

_RUNNER: Any = None


def _read(item: tuple[str, str, str]) -> Any:
    global _RUNNER
    from ssdwear.host.runner import SmartctlRunner
    from ssdwear.smartctl.calls import read_drive

    path, device, dtype = item
    if _RUNNER is None:
        _RUNNER = SmartctlRunner(path)
    try:
        return read_drive(_RUNNER, device, dtype)
    except Exception as exc:  # a drive error is a result too
        return exc


def _memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in KiB."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def main() -> int:
    mode, workers_text, path, *devices = sys.argv[1:]
    workers = int(workers_text)
    from ssdwear.host.runner import SmartctlRunner  # noqa: F401  imported before the pool starts, as in ssdwear
    from ssdwear.smartctl.calls import read_drive  # noqa: F401
    items = [(path, d, "sat") for d in devices]
    started = time.monotonic()
    workers_rss = workers_pss = 0
    if mode == "thread":
        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_read, items))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_read, items))
            for proc in list(pool._processes.values()):  # measured before shutdown
                rss, pss = _memory(proc.pid)
                workers_rss += rss
                workers_pss += pss
    wall = time.monotonic() - started
    self_rss, self_pss = _memory(os.getpid())
    errors = sum(isinstance(r, Exception) for r in results)
    print(json.dumps({"mode": mode, "workers": workers, "drives": len(results), "errors": errors, "wall": wall,
                      "self_peak_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "self_rss_kib": self_rss, "self_pss_kib": self_pss,
                      "workers_rss_kib": workers_rss, "workers_pss_kib": workers_pss}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
