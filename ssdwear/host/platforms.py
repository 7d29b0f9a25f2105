"""What differs between the operating systems ssdwear runs on: where smartctl and nvme-cli live, where the system
configuration and history go, how the kernel names drives. One table, keyed by `sys.platform`; every function
that consults it takes the platform as an argument (default: this machine's), so the tests run the FreeBSD paths
on Linux through the same lookup the code uses.

FreeBSD (and TrueNAS CORE, which is FreeBSD) follows hier(7): software from packages and ports lives under
/usr/local (smartmontools' smartctl in /usr/local/sbin, its configuration in /usr/local/etc), and a program's own
automatically generated data goes in /var/db. Linux follows the FHS: /usr/sbin, /etc, /var/lib. Any other
platform (macOS, the BSDs ssdwear has not been tried on) gets the Linux table: its paths are the usual defaults
of a Unix install, and --smartctl, --config and --db say otherwise.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Platform:
    name: str
    program_dirs: tuple[str, ...]  # where smartctl and nvme-cli are looked for after PATH (cron's PATH is short)
    system_config: Path
    system_db: Path
    device_name: re.Pattern[str]  # a kernel device name given without /dev/
    device_forms: str  # how a drive may be named, for messages
    install_hint: str  # how to install smartmontools there
    periodic_dir: str | None = None  # where periodic(8) scripts go (FreeBSD)
    # smartd's default attribute log prefix (-A), where its build has one (Debian's and Ubuntu's do; upstream's
    # default is none, and FreeBSD's port was not checked: none)
    smartd_attrlog: str | None = None


LINUX = Platform(
    name="linux",
    program_dirs=("/usr/sbin", "/sbin", "/usr/local/sbin", "/usr/bin", "/bin", "/usr/local/bin"),
    system_config=Path("/etc/ssdwear/config.yaml"),
    system_db=Path("/var/lib/ssdwear/history.db"),
    # sda, sdaa, hdb, vda, xvda, sg2, nvme0, nvme0n1
    device_name=re.compile(r"(?:[hs]d[a-z]{1,3}|x?vd[a-z]{1,3}|sg[0-9]{1,4}|nvme[0-9]{1,4}(?:n[0-9]{1,4})?)"),
    device_forms="/dev/sda, sda, nvme0 or nvme0n1",
    install_hint="apt-get install smartmontools / dnf install smartmontools",
    smartd_attrlog="/var/lib/smartmontools/attrlog.",
)

FREEBSD = Platform(
    name="freebsd",
    program_dirs=("/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/bin", "/bin"),
    system_config=Path("/usr/local/etc/ssdwear/config.yaml"),
    system_db=Path("/var/db/ssdwear/history.db"),
    # CAM: ada0 (ATA), da0 (SCSI, SAS, USB), pass0, nda0 (NVMe through CAM); nvd0 (NVMe disk); nvme0 and
    # nvme0ns1 (the NVMe controller and a namespace, which smartctl opens); ad0 (the old ATA driver)
    device_name=re.compile(r"(?:ada?|da|pass|nda|nvd)[0-9]{1,4}|nvme[0-9]{1,4}(?:ns[0-9]{1,4})?"),
    device_forms="/dev/ada0, ada0, da0, nvme0 or nda0",
    install_hint="pkg install smartmontools",
    periodic_dir="/usr/local/etc/periodic",
)


def facts(platform: str | None = None) -> Platform:
    """The table for `platform` (a `sys.platform` value: 'linux', 'freebsd14', ...; default: this machine's)."""
    name = sys.platform if platform is None else platform
    return FREEBSD if name.startswith("freebsd") else LINUX


def host_name() -> str:
    """This machine's name, as notify's events carry it (`drive.host`)."""
    import socket

    return socket.gethostname()


_USB_LEVELS = 9  # smartctl looks at most this many directories up


def on_usb(device: str, sysfs: str = "/sys") -> bool:
    """Whether a disk (/dev/sdX, /dev/sgN, or a link to one) sits behind a USB bridge: an `idVendor` file (a USB
    device's) in one of the directories above /sys/block/sdX/device (/sys/class/scsi_generic/sgN), below
    /sys/devices, at most 9 up. This is the test smartctl itself makes before it picks a USB bridge's -d type
    (smartmontools lib/os_linux.cpp, get_usb_id). False where sysfs says nothing (not Linux, another name)."""
    name = os.path.basename(os.path.realpath(device)) if device.startswith("/dev/") else ""
    if not re.fullmatch(r"sd[a-z]{1,4}|sg[0-9]{1,5}", name):
        return False
    start = os.path.join(sysfs, "block", name, "device") if name[1] == "d" else \
        os.path.join(sysfs, "class", "scsi_generic", name)
    if not os.path.exists(start):
        return False
    here, stop = os.path.realpath(start), os.path.realpath(os.path.join(sysfs, "devices"))
    for _ in range(_USB_LEVELS):
        here = os.path.dirname(here)
        if not here.startswith(stop + os.sep):
            return False
        if os.path.exists(os.path.join(here, "idVendor")):
            return True
    return False
