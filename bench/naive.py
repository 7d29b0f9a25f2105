"""The naive way to read a machine's drives with pySMART, for comparison (run as a subprocess by bench/run.py).

  python3 bench/naive.py SMARTCTL devicelist            pySMART.DeviceList(): one scan, then one Device per drive
  python3 bench/naive.py SMARTCTL device DEV [DEV ...]  one pySMART.Device(name) per drive, sequentially

pySMART is pointed at SMARTCTL (the fake) through its own `Smartctl(smartctl_path=...)` wrapper. Prints one JSON
line: how many drives were read, their serials, and the time spent inside Python (start-up excluded).
"""

from __future__ import annotations

import json
import sys
import time


def main() -> int:
    smartctl_path, mode, *names = sys.argv[1:]
    started = time.monotonic()
    from pySMART import Device, DeviceList
    from pySMART.smartctl import Smartctl

    imported = time.monotonic()
    smartctl = Smartctl(smartctl_path=smartctl_path)
    if mode == "devicelist":
        devices = list(DeviceList(smartctl=smartctl).devices)
    elif mode == "device":
        devices = [Device(name, smartctl=smartctl) for name in names]
    else:
        raise SystemExit(f"unknown mode {mode}")
    done = time.monotonic()
    print(json.dumps({"mode": mode, "drives": len(devices), "serials": [d.serial for d in devices],
                      "models": sorted({str(d.model) for d in devices}),
                      "import_seconds": imported - started, "read_seconds": done - imported}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
