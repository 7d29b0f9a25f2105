#!/usr/bin/env python3
"""A stand-in smartctl executable for tests and benchmarks: answers from recorded fixtures by argv.

Environment:
  FAKE_SMARTCTL_DIR    fixture folder (files named as in ssdwear.smartctl.replay: 'smartctl <args>.out' / '.rc')
  FAKE_SMARTCTL_LOG    append one line per call: the argv after the program name, joined by spaces
  FAKE_SMARTCTL_STAMPS append one line per call once it has waited (its sleep): the calling process's pid, the
                       call's start and end (Unix time), then its argv: which run made it, and whether two overlapped
  FAKE_SMARTCTL_SLEEP  seconds to sleep before answering (a slow or hung device)
  FAKE_SMARTCTL_SLEEP_ON  sleep only on calls whose argv holds this word (e.g. vendor,0x40: a slow reset)
  FAKE_SMARTCTL_HANG   comma-separated device names whose calls hang (sleep an hour): a hung device
  FAKE_SMARTCTL_HANG_CALLS  comma-separated strings: a call whose argv (joined by spaces) contains one hangs
                       (one command that hangs on a device that answers the others, e.g. 'nvmelog')
  FAKE_PROGRAM         the program it stands for (default smartctl): its recordings are 'PROGRAM <args>.out'
Calls without a recording print smartctl's open-failure message and exit 2.
"""

import os
import sys
import time


def main() -> int:
    args = sys.argv[1:]
    log = os.environ.get("FAKE_SMARTCTL_LOG")
    if log:
        with open(log, "a") as handle:
            handle.write(" ".join(args) + "\n")
    started = time.time()
    delay = float(os.environ.get("FAKE_SMARTCTL_SLEEP") or 0)
    only = os.environ.get("FAKE_SMARTCTL_SLEEP_ON")
    if delay and (not only or only in args):
        time.sleep(delay)
    stamps = os.environ.get("FAKE_SMARTCTL_STAMPS")
    if stamps:
        with open(stamps, "a") as handle:
            handle.write(f"{os.getppid()} {started:.6f} {time.time():.6f} {' '.join(args)}\n")
    hang = [d for d in os.environ.get("FAKE_SMARTCTL_HANG", "").split(",") if d]
    hang_calls = [c for c in os.environ.get("FAKE_SMARTCTL_HANG_CALLS", "").split(",") if c]
    if (args and args[-1] in hang) or any(c in " ".join(args) for c in hang_calls):
        time.sleep(3600)
    folder = os.environ.get("FAKE_SMARTCTL_DIR", "")
    program = os.environ.get("FAKE_PROGRAM") or "smartctl"
    stem = os.path.join(folder, f"{program} " + " ".join(args).replace("/", "_"))
    if not os.path.isfile(stem + ".out"):
        device = args[-1] if args else "?"
        sys.stdout.write("smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n"
                         f"Smartctl open device: {device} failed: No such device\n")
        return 2
    with open(stem + ".out", "rb") as handle:
        sys.stdout.buffer.write(handle.read())
    if os.path.isfile(stem + ".err"):
        with open(stem + ".err", "rb") as handle:
            sys.stderr.buffer.write(handle.read())
    rc_path = stem + ".rc"
    return int(open(rc_path).read().strip() or 0) if os.path.isfile(rc_path) else 0


if __name__ == "__main__":
    sys.exit(main())
