"""An NVMe controller's PCI vendor and device IDs, from this host's sysfs: /sys/class/nvme/nvmeN/device/vendor and
.../device, the files nvme-cli reads before its WDC and Micron plugins pick the drives their vendor logs are
documented for (nvme-cli e117ee68 src/nvme-pci-ids.c lines 18-48, the controller of a namespace's name;
src/nvme-pci-ids-linux.c lines 18-88; drives/nvme_vendors.py). sysfs is input like any other: the controller name is
taken from the device name only (/dev/nvmeN, /dev/nvmeNnM), the directory must resolve inside sysfs's own devices
tree (a PCI function's, not a fabric's), each file is opened without following a symlink, must be a regular file, is
read at most 16 bytes, and must be exactly '0x' and four hex digits and a newline, as the kernel writes them
(drivers/pci/pci-sysfs.c; nvme-cli's strtoul takes more). Anything else is None: no IDs, so no vendor log that needs
them is ever asked for. `sysfs` is the root to read: '/sys' here, a replay directory's `sys/` for recordings
(fixtures keep the two files under the same names).
"""

from __future__ import annotations

import os
import re
import stat

from ssdwear.model.records import PciId

_CONTROLLER = re.compile(r"/dev/(nvme[0-9]{1,4})(?:n[0-9]{1,5})?")
_ID = re.compile(rb"0x([0-9a-f]{4})\n")
_MOST = 16  # bytes read of one file: '0x1b96\n' is 7


def controller_of(device: str) -> str | None:
    """The controller a device name names ('nvme0' for /dev/nvme0 and /dev/nvme0n1), or None."""
    m = _CONTROLLER.fullmatch(device)
    return m.group(1) if m else None


def _read_id(path: str) -> int | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        data = os.read(fd, _MOST) if stat.S_ISREG(os.fstat(fd).st_mode) else b""
    except OSError:
        return None
    finally:
        os.close(fd)
    m = _ID.fullmatch(data)
    return int(m.group(1), 16) if m else None


def nvme_pci_id(device: str, sysfs: str = "/sys") -> PciId | None:
    """The PCI vendor and device IDs of the NVMe controller behind `device`, or None where sysfs does not give both
    (not an NVMe name, a controller over a fabric, a file that is not the kernel's, another operating system)."""
    name = controller_of(device)
    if name is None:
        return None
    root = os.path.realpath(os.path.join(sysfs, "devices"))
    here = os.path.realpath(os.path.join(sysfs, "class", "nvme", name, "device"))
    if not here.startswith(root + os.sep) or not os.path.isdir(here):
        return None
    vendor, dev = _read_id(os.path.join(here, "vendor")), _read_id(os.path.join(here, "device"))
    return PciId(vendor, dev) if vendor is not None and dev is not None else None
