"""Whether a disk sits behind a USB bridge, decided from sysfs as smartctl decides it (host/platforms.on_usb): a USB
device's idVendor above the disk's SCSI device. The trees are laid out as Linux 6.1 lays out /sys for a disk on a
USB-to-SATA bridge and for one on an AHCI port (block/, class/scsi_generic/ and devices/ with their links)."""

from __future__ import annotations

import os
from pathlib import Path

from ssdwear.host.platforms import on_usb

USB_DISK = "devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0"
SATA_DISK = "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0"


def sysfs(root: Path) -> Path:
    for disk, name, sg in ((USB_DISK, "sdb", "sg1"), (SATA_DISK, "sda", "sg0")):
        (root / disk / "block" / name).mkdir(parents=True)
        (root / disk / "scsi_generic" / sg).mkdir(parents=True)
        (root / disk / "block" / name / "device").symlink_to("../..")
        for link, target in ((root / "block" / name, f"../{disk}/block/{name}"),
                             (root / "class" / "scsi_generic" / sg, f"../../{disk}/scsi_generic/{sg}")):
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(target)
    (root / "devices/pci0000:00/0000:00:14.0/usb2/2-1/idVendor").write_text("152d\n")  # JMicron
    (root / "devices/pci0000:00/0000:00:14.0/vendor").write_text("0x8086\n")  # a PCI device's: not USB
    return root


def test_a_disk_below_a_usb_device_is_on_usb_and_one_on_a_sata_port_is_not(tmp_path: Path) -> None:
    root = str(sysfs(tmp_path / "sys"))
    assert on_usb("/dev/sdb", root) and on_usb("/dev/sg1", root)
    assert not on_usb("/dev/sda", root) and not on_usb("/dev/sg0", root)
    assert not on_usb("/dev/sdz", root)  # no such disk: sysfs says nothing
    assert not on_usb("/dev/nvme0", root) and not on_usb("/dev/bus/0", root) and not on_usb("sdb", root)


def test_the_search_stops_at_sys_devices_and_after_nine_levels(tmp_path: Path) -> None:
    root = sysfs(tmp_path / "sys")
    (root / "idVendor").write_text("1d6b\n")  # above /sys/devices: never looked at
    (root / "devices" / "idVendor").write_text("1d6b\n")
    assert not on_usb("/dev/sda", str(root))
    for name, levels in (("sdc", 9), ("sdd", 10)):  # the USB device this many directories above the disk's
        deep = root / f"devices/usb-{name}/1-1" / "/".join(f"d{n}" for n in range(levels))
        (deep / "block" / name).mkdir(parents=True)
        (deep / "block" / name / "device").symlink_to("../..")
        (root / "block" / name).symlink_to(os.path.relpath(deep / "block" / name, root / "block"))
        (root / f"devices/usb-{name}/1-1/idVendor").write_text("0bda\n")
    assert on_usb("/dev/sdc", str(root)) and not on_usb("/dev/sdd", str(root))  # smartctl gives up at ten
