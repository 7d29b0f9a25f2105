"""Which drives the PCI-picked vendor logs are asked of, and what their pages give (drives/vendor_logs.py): the IDs
must be in the plugin's table and agree with smartctl's vendor; D0h's sizes and scale are settled on the drive, or
not used."""

from __future__ import annotations

from ssdwear.drives import vendor_logs
from ssdwear.drives.families import known
from ssdwear.drives.nvme_vendors import MICRON_E1, WDC_D0
from ssdwear.model.records import NvmeHealth, PciId, Snapshot


def nvme(pci_id: PciId | None, vendor: int | None = 0x1B96, logs: dict[int, bytes] | None = None,
         units: int = 5_000_000) -> Snapshot:
    return known(Snapshot(source="t", interface="nvme", device="/dev/nvme0", model="WUS4BB019D7P3E3",
                          pci_vendor=vendor, pci_id=pci_id, nvme=NvmeHealth(data_units_written=units),
                          nvme_logs=logs or {}))


def d0(user: int, nand: int, waf_raw: int) -> bytes:
    page = bytearray(0x200)
    page[0x10:0x14] = waf_raw.to_bytes(4, "little")
    page[0x44:0x4C] = nand.to_bytes(8, "little")
    page[0x50:0x58] = user.to_bytes(8, "little")
    return bytes(page)


def test_the_tables_ids_pick_the_log_and_nothing_else_does() -> None:
    assert vendor_logs.pci_logs(nvme(PciId(0x1B96, 0x2400))) == (WDC_D0,)
    assert vendor_logs.pci_logs(nvme(PciId(0x1344, 0x51C0), vendor=0x1344)) == (MICRON_E1,)
    assert vendor_logs.pci_logs(nvme(PciId(0x1B96, 0x2700))) == ()  # SN650: nvme-cli checks no D0h for it
    assert vendor_logs.pci_logs(nvme(PciId(0x1C58, 0x2400), vendor=0x1C58)) == ()  # another WDC vendor ID
    assert vendor_logs.pci_logs(nvme(PciId(0x8086, 0x0A54), vendor=0x8086)) == ()


def test_ids_that_contradict_smartctls_vendor_are_not_trusted() -> None:
    notes: list[str] = []
    assert vendor_logs.pci_logs(nvme(PciId(0x1B96, 0x2400), vendor=0x8086), notes) == ()
    assert notes and "is not sysfs's 1b96:2400" in notes[0]


def test_a_d0h_page_whose_sizes_or_scale_do_not_settle_is_not_used() -> None:
    ids = PciId(0x1B96, 0x2400)
    user = 5_000_000 * 512_000 // 4096
    notes: list[str] = []
    ok = nvme(ids, logs={0xD0: d0(user, user * 2, 200)})
    assert [c.source for c in vendor_logs.vendor_log_counters(ok, notes)] == ["nand_bytes_written"]
    assert vendor_logs.drive_amplification(ok, notes) == (2.0, 0.0) and not notes
    odd = nvme(ids, logs={0xD0: d0(user * 3, user * 2, 37)})  # 3 x 4 KiB fits no size; 37 fits no scale of 0.67
    assert vendor_logs.vendor_log_counters(odd, notes) == [] and vendor_logs.drive_amplification(odd, notes) is None
    assert any("could not be settled" in n for n in notes) and any("at no single scale" in n for n in notes)
    assert vendor_logs.vendor_log_counters(nvme(None, logs={0xD0: d0(user, user * 2, 200)}), []) == []  # no IDs


def test_the_supported_log_pages_listing_reads_bit_0_of_the_logs_dword() -> None:
    page = bytearray(0x400)
    page[4 * 0xD0] = 1
    assert vendor_logs.lists(bytes(page), 0xD0) and not vendor_logs.lists(bytes(page), 0xC0)
    page[4 * 0xD0] = 2
    assert not vendor_logs.lists(bytes(page), 0xD0)
