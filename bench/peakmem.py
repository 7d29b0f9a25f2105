#!/usr/bin/env python3
"""Run `python3 -m MODULE ARGS...` in this process and write its peak resident memory (VmHWM) to OUTFILE.

Usage: peakmem.py OUTFILE -m MODULE [ARGS...]

The peak is read from /proc/self/status at exit. VmHWM belongs to the address space exec created, so unlike
wait4's ru_maxrss it does not include the memory of the (large) benchmark process that forked this one.
"""

import atexit
import runpy
import sys


def _write_peak(path: str) -> None:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                with open(path, "w") as out:
                    out.write(line.split()[1] + "\n")  # KiB


def main() -> None:
    if len(sys.argv) < 4 or sys.argv[2] != "-m":
        sys.exit(__doc__)
    path, module = sys.argv[1], sys.argv[3]
    atexit.register(_write_peak, path)
    sys.argv = [module, *sys.argv[4:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
