#!/usr/bin/env python3
"""How long reading smartd's attribute log takes, and how much memory, for a year and for ten years of lines.

Usage: python3 bench/smartd.py [--years 1,10]

For each span it writes an ATA attribute log the way smartd.cpp writes one (a line every 30 minutes, smartd's
default interval; 18 attributes a line, as a SATA SSD reports them: ~330 bytes a line) for the workstation drive
of fixtures/smartd, then reads it in a fresh Python process the two ways ssdwear does:

- `window`: what report/check/retire-check/plan --from/the Prometheus export read (the lines of the last 30 days,
  thinned to at most 2 x WINDOW_LINES readings), with the whole file streamed to find them;
- `import`: what `ssdwear import smartd` reads (the first line of every hour of the whole file).

Printed per span and way: the lines, the file's size, the wall time, the process's peak resident memory over its
resident memory before the read (VmHWM - VmRSS), and the peak of Python's allocations during a second, traced read
(tracemalloc). The drive is given 90,000 power-on hours (fixtures/smartd's reading, attribute 9 changed), always on.
Bounded means the window's figures do not grow with the file; the import's grow with the readings it returns.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)
NAME = "attrlog.Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777A.ata.csv"
LIVE = ROOT / "fixtures" / "smartd" / "smartctl --json=c -x -n standby -d sat _dev_sda.out"
POH_NOW = 90_000  # ten years always on, and more
# (id, normalised, raw) of the attributes besides 9, 177 and 241 that a SATA SSD's line carries
OTHERS = [(1, 100, 0), (5, 100, 0), (12, 99, 41), (170, 100, 0), (171, 100, 0), (172, 100, 0), (173, 95, 120),
          (174, 99, 30), (179, 100, 0), (181, 100, 0), (182, 100, 0), (183, 100, 0), (187, 100, 0), (190, 70, 30),
          (195, 200, 0)]

CHILD = r"""
import json, os, sys, time, tracemalloc
from datetime import datetime, timedelta, timezone
from ssdwear.run.smartd import drive_log
from ssdwear.smartctl.parse import parse_output

def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])

from dataclasses import replace
live = parse_output(open(sys.argv[1], "rb").read(), "/dev/sda")
poh = int(sys.argv[5])  # the drive as old as the log: power-on hours now, in attribute 9 too
live = replace(live, power_on_hours=float(poh),
               attributes={**live.attributes, 9: replace(live.attributes[9], raw=poh, raw_string=str(poh))})
now = datetime.fromisoformat(sys.argv[3])
since = None if sys.argv[4] == "import" else now - timedelta(days=30)
before = status("VmRSS")
began = time.perf_counter()
log, notes = drive_log([sys.argv[2]], live, since, now)
seconds = time.perf_counter() - began
hwm = status("VmHWM")
tracemalloc.start()  # again, to see Python's own allocations (tracing slows it: not timed)
drive_log([sys.argv[2]], live, since, now)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"seconds": seconds, "traced_peak": peak, "rss_over": (hwm - before) * 1024,
                  "lines": log.lines if log else 0, "readings": len(log.samples) if log else 0, "notes": notes}))
"""


def write_log(path: Path, years: int) -> int:
    start = NOW - timedelta(days=365 * years)
    count = 365 * years * 48
    with path.open("w") as out:
        for k in range(count):
            at = start + timedelta(minutes=30 * k)
            poh = POH_NOW - (count - k) * 0.5
            used = 12 - (count - k) * 2 // count  # 10 -> 12 % over the span
            fields = [(9, 98, int(poh)), *OTHERS[:2], (177, 100 - used, used * 6), *OTHERS[2:],
                      (241, 99, int(1e11 + poh * 1.2e6))]
            out.write(f"{at:%Y-%m-%d %H:%M:%S};" + "".join(f"\t{i};{n};{r};" for i, n, r in fields) + "\n")
    return count


def measure(prefix: Path, way: str) -> dict:
    # python -c puts its working directory first on sys.path: the checkout's ssdwear, whatever is installed
    proc = subprocess.run([sys.executable, "-c", CHILD, str(LIVE), str(prefix), NOW.isoformat(), way, str(POH_NOW)],
                          capture_output=True, text=True, check=True, cwd=ROOT,
                          env={"TZ": "UTC", "PATH": "/usr/bin:/bin"})
    result: dict = json.loads(proc.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--years", default="1,10", help="spans to measure, comma-separated (default 1,10)")
    spans = [int(y) for y in parser.parse_args().years.split(",")]
    print(f"{'span':>5} {'way':>7} {'lines':>9} {'file':>9} {'readings':>9} {'time':>8} {'py peak':>9} "
          f"{'RSS peak over start':>20}")
    with tempfile.TemporaryDirectory() as tmp:
        for years in spans:
            path = Path(tmp) / NAME
            write_log(path, years)
            size = path.stat().st_size
            for way in ("window", "import"):
                r = measure(Path(tmp) / "attrlog.", way)
                print(f"{years:>4}y {way:>7} {r['lines']:>9,} {size / 1e6:>7.1f}MB {r['readings']:>9,} "
                      f"{r['seconds']:>7.3f}s {r['traced_peak'] / 1e6:>7.2f}MB {r['rss_over'] / 1e6:>18.1f}MB",
                      flush=True)
                if r["notes"]:
                    print("   notes:", "; ".join(r["notes"]))


if __name__ == "__main__":
    main()
