"""The finer wear counters in the drive table (issue 19.1): which attribute or log field counts flash writes or erase
cycles on which family, read from real corpus outputs, from attributes without names (an attribute log), and from
NVMe log pages laid out as libnvme, nvme-cli's OCP plugin and Intel's log 0xCA define them."""

from __future__ import annotations

from dataclasses import replace

from support.builders import ata, attr, nvme
from support.corpus import snapshot

from ssdwear.drives import fine
from ssdwear.drives.fine import attribute_reading, by_source, finer_counters
from ssdwear.model.records import NVME_DATA_UNIT_BYTES, CounterReading, NvmeHealth

MIB = 1 << 20


def test_crucial_counts_nand_pages_and_its_average_erase_count() -> None:
    snap = snapshot("linuxhw-EnterpriseDrive__crucial-ct1000mx500ssd1__1.txt")
    pages = by_source(finer_counters(snap), "nand_pages_written")
    assert pages is not None and pages.value == 14668320527 + 27569058731 and pages.kind == "media"
    assert pages.unit_bytes is None  # pages: no byte unit is claimed
    erase = by_source(finer_counters(snap), "average_erase_count")
    assert erase is not None and erase.value == 911 and erase.rated is None


def test_samsung_177_raw_is_its_average_erase_count() -> None:
    erase = by_source(finer_counters(snapshot("linuxhw-EnterpriseDrive__samsung-ssd-860-evo-1tb__1.txt")),
                      "average_erase_count")
    assert erase is not None and erase.value == 592 and "177 Wear_Leveling_Count" in erase.detail


def test_silicon_motion_reports_its_rated_erase_count_and_counts_first() -> None:
    counters = finer_counters(snapshot("smartctl_exporter__transcend-ts32gmts400__1.json"))
    assert counters[0].source == "average_erase_count" and counters[0].rated == 3000
    assert "168 Max_Erase_Count_of_Spec" in counters[0].rated_detail


def test_wd_and_nytro_count_nand_bytes_and_erase_cycles() -> None:
    wd = finer_counters(snapshot("linuxhw-EnterpriseDrive__wdc-wds100t2b0a-00sm50__1.txt"))
    assert [c.source for c in wd] == ["nand_bytes_written", "average_erase_count", "host_bytes_written"]
    assert wd[0].value == 136394 * 10**9 and wd[1].value == 138
    nytro = finer_counters(snapshot("linuxhw-EnterpriseDrive__seagate-xa960le10063__1.txt"))
    erase = by_source(nytro, "average_erase_count")
    assert erase is not None and erase.value == 311 and "173 Avg_Program/Erase_Ct" in erase.detail


def test_an_attribute_log_without_names_reads_only_the_counters_its_family_fixes() -> None:
    # Samsung's 177 is the same on every Samsung SSD; Crucial's 247/248 and Kingston's 244 need their names
    samsung = attribute_reading("Samsung SSD 860 EVO 1TB", {177: (60, 592), 241: (99, 430456014288)})
    assert by_source(finer_counters(samsung), "average_erase_count").value == 592
    crucial = attribute_reading("CT1000MX500SSD1", {173: (40, 911), 247: (100, 1), 248: (100, 2)})
    assert by_source(finer_counters(crucial), "nand_pages_written") is None
    named = attribute_reading("CT1000MX500SSD1", {173: (40, 911), 247: (100, 1), 248: (100, 2)},
                              names={173: "Ave_Block-Erase_Count", 247: "Host_Program_Page_Count",
                                     248: "FTL_Program_Page_Count"})
    assert by_source(finer_counters(named), "nand_pages_written").value == 3


def test_an_id_named_otherwise_is_not_read() -> None:
    # Maxio's 173 is Erase_Count (drivedb 'Maxio based SSDs'), not an average erase count; an unknown drive's
    # 167 without the Silicon Motion names is not one either
    maxio = ata("ADATA_IM2S3164-128GDA", [attr(173, 50, name="Erase_Count")])
    assert by_source(finer_counters(maxio), "average_erase_count") is None
    other = ata("Some SSD", [attr(167, 50, name="SSD_Protect_Mode"), attr(168, 3000, name="SATA_PHY_Error_Count")])
    assert by_source(finer_counters(other), "average_erase_count") is None


def _u128(page: bytearray, at: int, value: int) -> None:
    page[at:at + 16] = value.to_bytes(16, "little")


def test_the_endurance_group_log_counts_media_bytes_against_the_drives_estimate() -> None:
    page = bytearray(512)
    page[5] = 12
    _u128(page, 32, 7000)  # Endurance Estimate, 10^9 B
    _u128(page, 64, 600)
    _u128(page, 80, 861)  # Media Units Written
    snap = replace(nvme(12), nvme_logs={fine.ENDURANCE_GROUP_LOG: bytes(page)})
    media = finer_counters(snap)[0]
    assert (media.source, media.value, media.unit_bytes, media.rated) == ("nvme_media_units_written", 861, 10**9, 7000)


def test_the_ocp_log_is_read_only_with_its_guid() -> None:
    page = bytearray(512)
    _u128(page, 0, 123_000_000_000)
    _u128(page, 176, 7_000_000_000_000)
    page[496:512] = fine.OCP_SMART_GUID
    good = replace(nvme(1), nvme_logs={fine.OCP_SMART_LOG: bytes(page)})
    assert by_source(finer_counters(good), "ocp_physical_media_units_written").rated == 7_000_000_000_000
    page[496] ^= 0xFF  # another vendor's C0h
    other = replace(nvme(1), nvme_logs={fine.OCP_SMART_LOG: bytes(page)})
    assert by_source(finer_counters(other), "ocp_physical_media_units_written") is None


def _ca_page(nand: int, host: int, wear_levelling: tuple[int, int, int] = (0, 0, 0)) -> bytes:
    page = bytearray(512)
    for i, key in enumerate((0xAB, 0xAC, 0xAD, 0xB8, 0xC7, 0xE2, 0xE3, 0xE4, 0xEA, 0xF0, 0xF3, 0xF4, 0xF5)):
        page[12 * i], page[12 * i + 3] = key, 100
    raws = {0xE2: 20, 0xE4: 1440, 0xF4: nand, 0xF5: host}
    for i, key in enumerate((0xAB, 0xAC, 0xAD, 0xB8, 0xC7, 0xE2, 0xE3, 0xE4, 0xEA, 0xF0, 0xF3, 0xF4, 0xF5)):
        raw = b"".join(v.to_bytes(2, "little") for v in wear_levelling) if key == 0xAD else \
            raws.get(key, 0).to_bytes(6, "little")
        page[12 * i + 5:12 * i + 11] = raw
    return bytes(page)


def _p4510(nand: int, host: int, units_written: int, **kw: tuple[int, int, int]) -> list[CounterReading]:
    snap = replace(nvme(73), model="INTEL SSDPE2KX010T8", nvme_logs={0xCA: _ca_page(nand, host, **kw)},
                   nvme=NvmeHealth(percentage_used=73, data_units_written=units_written))
    notes: list[str] = []
    found = finer_counters(snap, notes)
    return [*found, CounterReading("note", "host", 0, "", None, "; ".join(notes))] if notes else found


def test_intel_0xca_nand_writes_count_only_once_their_unit_is_settled_against_data_units_written() -> None:
    host = 78_000  # x 32 MiB
    exact = host * 32 * MIB // NVME_DATA_UNIT_BYTES
    settled = _p4510(90_000, host, exact, wear_levelling=(10, 30, 21))
    assert settled[0].source == "nand_bytes_written" and settled[0].value == 90_000 * 32 * MIB
    assert "32 MiB" in settled[0].detail and "settled" in settled[0].detail
    assert by_source(settled, "average_erase_count").value == 21
    as_mb = _p4510(90_000, host, host * 32_000_000 // NVME_DATA_UNIT_BYTES)
    assert as_mb[0].value == 90_000 * 32_000_000 and "32 MB" in as_mb[0].detail
    neither = _p4510(90_000, host, exact * 2)
    assert by_source(neither, "nand_bytes_written") is None
    assert "could not be settled" in by_source(neither, "note").detail
    too_small = _p4510(900, 500, 500 * 32 * MIB // NVME_DATA_UNIT_BYTES)
    assert by_source(too_small, "nand_bytes_written") is None and "too small" in by_source(too_small, "note").detail


def test_another_vendors_page_0xca_gives_no_counter() -> None:
    snap = replace(nvme(1), model="INTEL SSDPE2KX010T8", nvme_logs={0xCA: bytes(512)})
    assert [c.source for c in finer_counters(snap)] == ["host_bytes_written"]
