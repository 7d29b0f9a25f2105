"""The reset guard and the per-vendor meaning of attributes."""

from __future__ import annotations

import pytest
from builders import ata, attr, intel, nvme

from ssdwear import vendors
from ssdwear.records import Snapshot


@pytest.mark.parametrize("model", [
    "INTEL SSDSA2M080G2GC",     # X25-M G2
    "INTEL SSDSA2CW120G3",      # 320
    "INTEL SSDSA2BW600G3D",     # 320 OEM
    "INTEL SSDSA2BZ200G3",      # 710
    "INTEL SSDSC2BP240G4",      # 730
    "INTEL SSDSC2BB480G4",      # DC S3500
    "INTEL SSDSC2BB480G6",      # DC S3510
    "INTEL SSDSC2BB480G7",      # DC S3520
    "INTEL SSDSC2BX480G4",      # DC S3610
    "INTEL SSDSC1BG200G4R",     # DC S3610 1.8" Dell
    "INTEL SSDSC2BA200G3",      # DC S3700
    "INTEL SSDSC2BA400G4",      # DC S3710
    "INTEL SSDSC2KB960G7",      # DC S4500
    "INTEL SSDSC2KG480G7",      # DC S4600
    "INTEL SSDSC2KB960G8",      # D3-S4510
    "INTEL SSDSCKKB240G8",      # D3-S4510 M.2
    "INTEL SSDSC2KG480G8",      # D3-S4610
    "INTEL SSDSC2KB038TZ",      # D3-S4520
    "SOLIDIGM SSDSC2KG960GZ",   # D3-S4620 (Solidigm)
    "SSDSCKJB240G7R",           # Dell S3520 M.2
    "INTEL SSDSC2KW256G8",      # 545s
])
def test_reset_allowed_for_documented_intel_families(model: str) -> None:
    assert vendors.reset_refusal(intel(10, 10, 100, model=model)) is None


@pytest.mark.parametrize("model,why", [
    ("SSDSA2SH032G1GN INTEL", "not documented"),    # X25-E
    ("INTEL SSDSC2CW120A3", "not documented"),      # 520 (SandForce)
    ("INTEL SSDSC2BW120A4", "not documented"),      # 530
    ("INTEL SSDMCEAC120B3", "not documented"),      # 525
    ("INTEL SSDSC2BW240H6", "not documented"),      # 540s
    ("Samsung SSD 860 EVO 1TB", "not an Intel"),
    ("TOSHIBA MG04ACA600E", "not an Intel"),
])
def test_reset_refused_elsewhere(model: str, why: str) -> None:
    refusal = vendors.reset_refusal(intel(10, 10, 100, model=model))
    assert refusal is not None and why in refusal


def test_reset_refused_without_the_attributes_and_on_nvme() -> None:
    no_attrs = ata("INTEL SSDSC2CT240A4", [attr(233, 0, value=85)])
    assert "226-228" in vendors.reset_refusal(no_attrs)
    assert "not an ATA drive" in vendors.reset_refusal(nvme(3))


def test_x25e_intel_internal_attributes_are_not_a_timer() -> None:
    snap = ata("SSDSA2SH032G1GN INTEL", [attr(226, 0, name="Intel_Internal"), attr(227, 0, name="Intel_Internal"),
                                         attr(228, 0, name="Intel_Internal")])
    assert not vendors.has_timed_workload(snap)


def test_intel_rotating_drive_is_not_an_intel_ssd() -> None:
    assert not vendors.is_intel_ssd(Snapshot(source="x", interface="ata", model="INTEL ODD", rotation_rate=5400))


@pytest.mark.parametrize("model,attrs,source,percent", [
    ("INTEL SSDSA2BZ200G3", [attr(233, 0, value=90)], "intel_233_media_wearout", 10.1),  # 100 -> 1 over the life
    ("SSDSCKJB240G7R", [attr(233, 129493, value=100, name="Total_LBAs_Written"), attr(245, 100, value=97)],
     "dell_245_percent_life_remaining", 3),
    ("Samsung SSD 850 EVO 1TB", [attr(177, 530, value=73)], "samsung_177_wear_leveling_count", 27),
    ("CT1000MX500SSD1", [attr(202, 60, value=40)], "crucial_202_percent_lifetime_remain", 60),
    ("CT1000MX500SSD1", [attr(202, 101, value=255)], "crucial_202_percent_lifetime_remain", 101),
    ("KINGSTON SA400S37240G", [attr(231, 88, value=88)], "sandforce_231_ssd_life_left", 12),
    ("SDLF1DAR-480G-1HA1", [attr(245, 93, value=93)], "sandisk_245_drive_life_remaining", 7),
    ("TS32GMTS400", [attr(169, 96, value=100, name="Remaining_Lifetime_Perc")], "smi_169_remaining_lifetime", 4),
])
def test_vendor_indicators_count_in_the_right_direction(model, attrs, source, percent) -> None:
    readings, _ = vendors.ata_used_readings(ata(model, attrs))
    assert readings[0].source == source and readings[0].percent == percent


def test_samsung_202_is_not_crucial_wear_and_lite_on_177_is_not_samsung() -> None:
    assert vendors.ata_used_readings(ata("SAMSUNG MZ7LM240HMHQ-00005", [attr(202, 32, value=1)]))[0] == []
    assert vendors.ata_used_readings(ata("LITEONIT LCT-512L9S-11", [attr(177, 21534, value=100)]))[0] == []


def test_devstat_255_is_not_valid() -> None:
    readings, notes = vendors.ata_used_readings(ata("INTEL SSDSC2CT120A3", [attr(233, 0, value=38)], devstat_used=255))
    assert [r.source for r in readings] == ["intel_233_media_wearout"]
    assert any("255" in n for n in notes)


def test_intel_write_counters_are_32mib_units_whatever_the_name() -> None:
    snap = ata("INTEL SSDSC1BG200G4", [attr(241, 1000, name="Total_LBAs_Written"), attr(243, 3000, name="Unknown")])
    assert vendors.ata_host_written(snap).bytes == 1000 * 32 * 2**20
    assert vendors.ata_nand_written(snap).bytes == 3000 * 32 * 2**20
