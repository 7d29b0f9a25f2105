"""An NVMe controller's PCI IDs from sysfs (host/pci.py), read from real files and links in a temporary sysfs: what
the kernel writes is read; anything else (a link in place of the file, more than the kernel writes, a directory
outside sysfs's devices tree, a name that is not an NVMe device) gives no IDs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ssdwear.host.pci import controller_of, nvme_pci_id
from ssdwear.model.records import PciId


def controller(sysfs: Path, name: str = "nvme0", vendor: bytes = b"0x1b96\n", device: bytes = b"0x2400\n") -> Path:
    function = sysfs / "devices" / "pci0000:00" / "0000:01:00.0"
    function.mkdir(parents=True)
    (function / "vendor").write_bytes(vendor)
    (function / "device").write_bytes(device)
    (sysfs / "class" / "nvme" / name).mkdir(parents=True)
    os.symlink("../../../devices/pci0000:00/0000:01:00.0", sysfs / "class" / "nvme" / name / "device")
    return function


def test_the_kernels_files_give_the_ids_for_the_controller_and_its_namespaces(tmp_path: Path) -> None:
    controller(tmp_path)
    assert nvme_pci_id("/dev/nvme0", str(tmp_path)) == PciId(0x1B96, 0x2400)
    assert nvme_pci_id("/dev/nvme0n1", str(tmp_path)) == PciId(0x1B96, 0x2400)
    assert str(PciId(0x1B96, 0x2400)) == "1b96:2400"


@pytest.mark.parametrize("vendor", [b"0x1B96\n", b"0x1b96", b"1b96\n", b"0x1b96\n\n", b"0x01b96\n", b"0x1b96 \n",
                                    b"0x" + b"1" * 100])
def test_anything_but_what_the_kernel_writes_gives_no_ids(tmp_path: Path, vendor: bytes) -> None:
    controller(tmp_path, vendor=vendor)
    assert nvme_pci_id("/dev/nvme0", str(tmp_path)) is None


def test_a_link_in_place_of_the_file_is_not_followed(tmp_path: Path) -> None:
    function = controller(tmp_path)
    (tmp_path / "elsewhere").write_bytes(b"0x1b96\n")
    (function / "vendor").unlink()
    os.symlink(tmp_path / "elsewhere", function / "vendor")
    assert nvme_pci_id("/dev/nvme0", str(tmp_path)) is None


def test_a_device_directory_outside_the_devices_tree_gives_no_ids(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "vendor").write_bytes(b"0x1b96\n")
    (outside / "device").write_bytes(b"0x2400\n")
    sysfs = tmp_path / "sys"
    (sysfs / "devices").mkdir(parents=True)
    (sysfs / "class" / "nvme" / "nvme0").mkdir(parents=True)
    os.symlink(outside, sysfs / "class" / "nvme" / "nvme0" / "device")
    assert nvme_pci_id("/dev/nvme0", str(sysfs)) is None


@pytest.mark.parametrize("name", ["/dev/sda", "/dev/nvme0/../sda", "nvme0", "/dev/nvme", "/dev/nvme0n1p1",
                                  "/dev/ng0n1", "/dev/nvme12345"])
def test_only_nvme_device_names_name_a_controller(tmp_path: Path, name: str) -> None:
    controller(tmp_path)
    assert controller_of(name) is None and nvme_pci_id(name, str(tmp_path)) is None


def test_no_entry_gives_no_ids(tmp_path: Path) -> None:
    controller(tmp_path)
    assert nvme_pci_id("/dev/nvme1", str(tmp_path)) is None
    assert nvme_pci_id("/dev/nvme0", str(tmp_path / "missing")) is None


def test_a_fifo_in_place_of_the_file_is_not_read(tmp_path: Path) -> None:
    function = controller(tmp_path)
    (function / "device").unlink()
    os.mkfifo(function / "device")
    assert nvme_pci_id("/dev/nvme0", str(tmp_path)) is None  # and returns at once: opened non-blocking, not read
