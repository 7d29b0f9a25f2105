"""The counters of the drive families issue 27 added (items 6-8), each a row of the drive table with its drivedb.h
entry cited, read from a real output of fixtures/corpus where one exists, else from an edited one
(fixtures/edited/families, made by tools/make_edited.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.edited import EDITED, analyze, edited_machine
from support.paths import CORPUS

from ssdwear.cli.app import App
from ssdwear.smartctl.replay import ReplayRunner

FAMILIES = EDITED / "families"


def _one(path: Path) -> dict[str, Any]:
    (drive,) = analyze(path)
    return drive


def _writes(path: Path, what: str, count: int, source: str) -> dict[str, Any]:
    """The drive's writes, whose `what` (host_bytes_written, nand_bytes_written) is `count` bytes read from `source`."""
    writes: dict[str, Any] = _one(path)["writes"]
    assert (writes[what], writes["sources"][what]) == (count, source)
    return writes


# ------------------------------------------------------------------------------------------------
# Samsung data-centre SATA: 251 NAND_Writes in 512-byte sectors; 245-247 as Intel's E2h-E4h, never reset

SAMSUNG_DC = [
    ("linuxhw-EnterpriseDrive__samsung-mz7lm240hmhq-00005__1.txt", 1.94),  # PM863a, smartctl 6.6: names unknown
    ("linuxhw-EnterpriseDrive__samsung-mz7lh960hajr-00005__1.txt", 1.82),  # PM883
    ("linuxhw-EnterpriseDrive__samsung-mz7km480hmhq-00005__1.txt", 2.22),  # SM863
    ("smartctl_exporter__samsung-mz7l3240hchq-00a07__1.json", 1.52),  # PM893
]


@pytest.mark.parametrize("name,wa", SAMSUNG_DC, ids=[n for n, _ in SAMSUNG_DC])
def test_samsung_data_centre_nand_writes_give_the_write_amplification(name: str, wa: float) -> None:
    drive = _one(CORPUS / name)
    assert drive["writes"]["write_amplification"] == wa
    assert drive["writes"]["sources"]["nand_bytes_written"] == "attribute 251 NAND_Writes x 512 B"
    window = drive["window"]  # every output in the corpus holds 245-247 at 65535
    assert window["kind"] == "timed-workload" and not window["valid"]
    assert "attributes 245-247 read 65535" in window["reason"] and "no reset is documented" in window["reason"]


def test_a_samsung_client_drive_has_no_nand_counter_or_timed_workload() -> None:
    drive = _one(CORPUS / "linuxhw-EnterpriseDrive__samsung-ssd-860-evo-1tb__1.txt")
    assert drive["writes"]["nand_bytes_written"] is None and drive["window"] is None


def test_samsung_245_of_a_timer_never_reset_sharpens_the_lifetime_wear() -> None:
    drive = _one(FAMILIES / "samsung-pm883-245-never-reset.txt")
    assert drive["used_source"] == "samsung_245_since_manufacture"
    assert drive["used_percent"] == round(1300 / 1024, 2)  # (JSON rounds to 0.01 %)
    assert any(n.startswith("lifetime wear sharpened by attribute 245: 1.270 %") for n in drive["notes"])


def test_samsung_245_247_after_a_reset_measure_a_timed_window() -> None:
    drive = _one(FAMILIES / "samsung-pm883-245-window.txt")
    window = drive["window"]
    assert window["valid"] and window["minutes"] == 4000 and window["wear_steps"] == 12
    assert window["host_reads_percent"] == 40
    assert drive["projection"]["method"] == "timed-workload"
    assert "attribute 245 = 12 (1/1024 %) in attribute 247 = 4,000 power-on minutes" in drive["projection"]["basis"]


# ------------------------------------------------------------------------------------------------
# SanDisk CloudSpeed: 178 life left in 0.01 % steps; 204 average erase count

def test_sandisk_cloudspeed_178_sharpens_the_wear_to_a_hundredth_of_a_percent() -> None:
    drive = _one(CORPUS / "linuxhw-EnterpriseDrive__sandisk-sdlf1dar-480g-1ha1__1.txt")
    assert (drive["used_percent"], drive["used_source"]) == (7.76, "sandisk_178_life_left")
    sources = {s["source"]: s["percent"] for s in drive["used_sources"]}
    assert sources == {"ata_devstat_percentage_used": 7, "sandisk_245_drive_life_remaining": 7,
                       "sandisk_178_life_left": 7.76}
    assert any(n.startswith("lifetime wear sharpened by attribute 178: 7.760 %") for n in drive["notes"])


def test_sandisk_cloudspeed_204_is_its_average_erase_count() -> None:
    drive = _one(FAMILIES / "sandisk-cloudspeed-204.txt")
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert erase["value"] == 1164 and "204 Average_Block-Erase_Ct" in erase["detail"]
    assert drive["used_fine"]["source"] == "average_erase_count"


def _samsung_pm883(doc: dict[str, Any]) -> None:
    """fixtures/intel's 710 as a PM883 whose 245-247 hold 65535 (Intel's 226-228 gone)."""
    doc.update(model_name="SAMSUNG MZ7LH960HAJR-00005", model_family="Samsung based SSDs", firmware_version="HXT7404Q")
    if "ata_smart_attributes" not in doc:
        return
    table = [a for a in doc["ata_smart_attributes"]["table"] if a["id"] not in (226, 227, 228, 233)]
    template = table[-1]
    for attr_id, name, value, raw in ((177, "Wear_Leveling_Count", 98, 136),
                                      (245, "Timed_Workld_Media_Wear", 100, 65535),
                                      (246, "Timed_Workld_RdWr_Ratio", 100, 65535),
                                      (247, "Timed_Workld_Timer", 100, 65535), (251, "NAND_Writes", 100, 293220463296)):
        table.append({**template, "id": attr_id, "name": name, "value": value, "worst": value,
                      "raw": {"value": raw, "string": str(raw)}})
    doc["ata_smart_attributes"]["table"] = sorted(table, key=lambda a: a["id"])


def test_start_never_sends_the_intel_reset_to_a_samsung_data_centre_drive(tmp_path: Path) -> None:
    folder = edited_machine(tmp_path, edits={"/dev/sda": _samsung_pm883})
    runner = ReplayRunner(folder)
    result = ssdwear_cli(["--db", str(tmp_path / "h.db"), "start", "/dev/sda", "-d", "sat", "--format", "json"],
                         App(runner=runner, clock=lambda: T0))
    (entry,) = json.loads(result.stdout)["results"]
    assert entry["status"] == "baseline" and "nothing was sent to the drive" in entry["message"], entry
    assert "has attributes 245-247, but the reset is not documented for it" in entry["message"]
    assert not any("vendor,0x40" in c for c in runner.calls)


def test_status_names_a_samsung_timer_by_its_attribute(tmp_path: Path) -> None:
    folder = edited_machine(tmp_path, edits={"/dev/sda": _samsung_pm883})
    result = ssdwear_cli(["--no-history", "status", "/dev/sda", "-d", "sat"],
                         App(runner=ReplayRunner(folder), clock=lambda: T0))
    assert "247 window  65535, not valid" in result.stdout, result.stdout
    assert "E4h" not in result.stdout


# ------------------------------------------------------------------------------------------------
# Samsung PM851 OEM (item 8): 177's raw is its normalised value copied, not an average erase count

PM851 = ["linuxhw-EnterpriseDrive__samsung-mz7te256hmhp-00000__1.txt",  # 098/98 at 57,026 h
         "linuxhw-EnterpriseDrive__samsung-mz7te256hmhp-00000__2.txt"]  # 095/95 at 69,842 h


@pytest.mark.parametrize("name,used", [(PM851[0], 2), (PM851[1], 5)], ids=PM851)
def test_samsung_pm851_oem_177_raw_is_no_erase_count(name: str, used: int) -> None:
    drive = _one(CORPUS / name)
    assert (drive["used_percent"], drive["used_source"]) == (used, "samsung_177_wear_leveling_count")
    assert [c["source"] for c in drive["counters"]] == ["host_bytes_written"]
    assert drive["used_fine"] is None and drive["warnings"] == []


def test_samsung_pm851_oem_readings_are_projected_from_177_normalised() -> None:
    drives = analyze(*[CORPUS / n for n in PM851], args=("--same-drive",))
    (drive,) = drives
    assert drive["used_fine"] is None and drive["window"]["counter"] == "samsung_177_wear_leveling_count"
    assert drive["window"]["wear_percent"] == 3


def test_a_samsung_177_raw_equal_to_its_normalised_value_is_a_warning_not_a_figure() -> None:
    drive = _one(FAMILIES / "samsung-850-evo-177-raw-copies-normalised.txt")  # the broad Samsung row
    assert drive["used_percent"] == 27 and drive["used_fine"] is None
    assert "average_erase_count" not in [c["source"] for c in drive["counters"]]
    (warning,) = drive["warnings"]
    assert warning.startswith("attribute 177 Wear_Leveling_Count raw 73 equals its normalised value: a copy of the "
                              "wear indicator, not an average erase count")


# ------------------------------------------------------------------------------------------------
# Silicon Motion: 245 TLC + 246 SLC writes in 32 MiB, a unit drivedb.h doubts, checked against the indicator

TRANSCEND = CORPUS / "smartctl_exporter__transcend-ts32gmts400__1.json"


def test_silicon_motion_245_tlc_writes_give_the_write_amplification() -> None:
    writes = _writes(TRANSCEND, "nand_bytes_written", 136_733 * 32 * 2**20, "attribute 245 TLC_Writes_32MiB x 32 MiB")
    assert writes["write_amplification"] == 4.52


def test_silicon_motion_246_slc_writes_are_added() -> None:
    _writes(FAMILIES / "smi-246-slc-writes.txt", "nand_bytes_written", (136_733 + 10_000) * 32 * 2**20,
            "attribute 245 TLC_Writes_32MiB x 32 MiB + attribute 246 SLC_Writes_32MiB x 32 MiB")


def test_silicon_motion_245_that_disagrees_with_the_indicator_is_not_used() -> None:
    drive = _one(FAMILIES / "smi-245-in-sectors.txt")
    assert drive["writes"]["nand_bytes_written"] is None and drive["used_percent"] == 4
    (warning,) = drive["warnings"]
    assert warning.startswith("attribute 245 TLC_Writes_32MiB x 32 MiB is not used: drivedb.h doubts 245's unit")
    writes = 136_733 * 65_536 * 32 * 2**20 / 32_017_047_552  # x 32 MiB over the drive's capacity
    assert f"{writes:,.0f} full writes of the capacity at 4 % used (smi_169_remaining_lifetime)" in warning, warning


# ------------------------------------------------------------------------------------------------
# Phison: 231 SSD_Life_Left; 233/241/242 in GiB; the KIOXIA EXCERIA's 241, whose unit drivedb.h doubts, only where it
# agrees with Device Statistics

SA400_DEVSTAT = 2_214_655_550 * 512  # the corpus SA400's Logical Sectors Written, wrapped twice
SA400_WRAPPED = ("attribute 241 Lifetime_Writes_GiB x 1 GiB (Device Statistics say only 1,133,903,641,600 B: a "
                 "counter that wrapped)")


def test_phison_kioxia_241_in_32_mib_that_disagrees_with_device_statistics_is_not_used() -> None:
    drive = _one(FAMILIES / "phison-kioxia-241-in-32mib.txt")
    writes = _writes(FAMILIES / "phison-kioxia-241-in-32mib.txt", "host_bytes_written", SA400_DEVSTAT,
                     "Device Statistics 'Logical Sectors Written' x 512 B")
    assert writes["host_bytes_written"] == SA400_DEVSTAT and drive["used_percent"] == 14
    (warning,) = drive["warnings"]
    assert warning.startswith("attribute 241 Lifetime_Writes_GiB x 1 GiB is not used: drivedb.h doubts 241's unit on "
                              "the KIOXIA EXCERIA SATA SSD ('SBFA18.1: 32MiB ?')"), warning
    assert f"gives {5152 * 32 * 2**30:,} B where Device Statistics 'Logical Sectors Written' x 512 B gives " \
           f"{SA400_DEVSTAT:,} B (or that plus whole wraps of {2**41:,} B)" in warning, warning


def test_phison_kioxia_241_in_gib_agrees_with_device_statistics_after_two_wraps() -> None:
    drive = _one(FAMILIES / "phison-kioxia-241-in-gib.txt")
    writes = _writes(FAMILIES / "phison-kioxia-241-in-gib.txt", "host_bytes_written", 5152 * 2**30, SA400_WRAPPED)
    assert writes["write_amplification"] == 1.95 and drive["warnings"] == []


@pytest.mark.parametrize("name,host", [("linuxhw-EnterpriseDrive__kingston-sa400s37240g__1.txt", 5152),
                                       ("smartctl_exporter__kingston-sa400m8120g__1.json", 398)])
def test_kingston_a400_reads_as_a_phison_drive(name: str, host: int) -> None:
    drive = _one(CORPUS / name)
    assert drive["writes"]["host_bytes_written"] == host * 2**30 and drive["warnings"] == []
    assert drive["writes"]["sources"]["nand_bytes_written"] == "attribute 233 Flash_Writes_GiB x 1 GiB"


def test_a_phison_oem_drive_known_by_its_firmware_wears_by_231() -> None:
    drive = _one(FAMILIES / "phison-oem-spcc-no-device-statistics.txt")
    assert (drive["used_percent"], drive["used_source"]) == (12, "sandforce_231_ssd_life_left")
    assert drive["writes"]["sources"] == {"host_bytes_written": "attribute 241 Lifetime_Writes_GiB x 1 GiB",
                                          "host_bytes_read": "attribute 242 Lifetime_Reads_GiB x 1 GiB",
                                          "nand_bytes_written": "attribute 233 Flash_Writes_GiB x 1 GiB"}


# ------------------------------------------------------------------------------------------------
# Seagate BarraCuda / IronWolf 125: 173 Max/Avg/Min_Erase_Ct's middle word; 233 Flash_Writes_GiB; 241 in GiB

IRONWOLF = CORPUS / "linuxhw-EnterpriseDrive__seagate-ironwolf-za500nm10002-2zg101__1.txt"


def test_seagate_125_173_count_between_the_other_two_is_its_average_erase_count() -> None:
    drive = _one(IRONWOLF)  # smartctl 7.1 printed 173 as one 48-bit number: 0x5003f004c, words 5, 63, 76
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert erase["value"] == 63
    assert erase["detail"].startswith("attribute 173 Max/Avg/Min_Erase_Ct (of its three 16-bit counts, the one "
                                      "between the other two) = 63")


def test_seagate_125_173_as_a_newer_smartctl_prints_it() -> None:
    drive = _one(FAMILIES / "seagate-ironwolf-173-raw16.txt")  # '5 63 76', as raw16 prints it
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert erase["value"] == 63


def test_seagate_125_flash_writes_give_the_write_amplification() -> None:
    writes = _writes(IRONWOLF, "nand_bytes_written", 24_830 * 2**30, "attribute 233 Flash_Writes_GiB x 1 GiB")
    assert writes["write_amplification"] == 1.55


def test_seagate_125_host_writes_in_gib_without_device_statistics() -> None:
    _writes(FAMILIES / "seagate-ironwolf-no-device-statistics.txt", "host_bytes_written", 16_025 * 2**30,
            "attribute 241 Host_Writes_GiB x 1 GiB")


# ------------------------------------------------------------------------------------------------
# SK hynix client SATA / Gold S31: 241 in GB; the average erase count between 168's minimum and 169's maximum

SHGS31 = CORPUS / "linuxhw-EnterpriseDrive__sk-hynix-shgs31-1000gs-2__1.txt"


def test_sk_hynix_s31_177_between_its_minimum_and_maximum_is_its_average_erase_count() -> None:
    drive = _one(SHGS31)
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert erase["value"] == 149
    assert erase["detail"] == ("attribute 177 Wear_Leveling_Count = 149 (erase cycles), between attribute 168's 116 "
                               "and 169's 180")


def test_sk_hynix_177_outside_its_minimum_and_maximum_is_not_read() -> None:
    drive = _one(FAMILIES / "sk-hynix-s31-177-above-maximum.txt")
    assert "average_erase_count" not in [c["source"] for c in drive["counters"]]


def test_sk_hynix_s31_241_counts_gb_without_device_statistics() -> None:
    _writes(FAMILIES / "sk-hynix-s31-no-device-statistics.txt", "host_bytes_written", 114_040 * 10**9,
            "attribute 241 Total_Writes_GB x 1 GB")


# ------------------------------------------------------------------------------------------------
# Lenovo's OEM Intel D3-S4510: 173 Erase_Cycles_Avg_Max_Mn, the count between the other two

def test_lenovo_d3_s4510_173_is_its_average_erase_count() -> None:
    drive = _one(FAMILIES / "lenovo-d3-s4510-173.txt")  # '12 14 9'
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert erase["value"] == 12 and erase["detail"].startswith("attribute 173 Erase_Cycles_Avg_Max_Mn")
    assert drive["window"] is None  # the entry names no timed workload: 226-228 are not read


# ------------------------------------------------------------------------------------------------
# Maxio: an average erase count without a rated count (208 on variants 1-2, 167 on variants 3-4)

@pytest.mark.parametrize("name,detail", [("maxio-208-average-erase-count.txt", "attribute 208 Avg_Erase_Count"),
                                         ("maxio-167-average-erase-count.txt", "attribute 167 Average_Erase_Count")])
def test_maxio_average_erase_count_without_a_rating(name: str, detail: str) -> None:
    drive = _one(FAMILIES / name)
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert (erase["value"], erase["rated"]) == (149, None) and erase["detail"].startswith(detail)
    assert drive["used_fine"]["source"] == "average_erase_count" and drive["used_fine"]["calibration"] == "lifetime"


# ------------------------------------------------------------------------------------------------
# SK hynix data-centre SATA: 241 Lifetime_NAND_Prg_GiB is the NAND writes, 235 Lifetime_Writes_GiB the host's

def test_sk_hynix_data_centre_241_is_nand_writes() -> None:
    writes = _writes(FAMILIES / "sk-hynix-hfs480g32feh-nand.txt", "nand_bytes_written", 150_732 * 2**30,
                     "attribute 241 Lifetime_NAND_Prg_GiB x 1 GiB")
    assert writes["write_amplification"] == 1.42


def test_sk_hynix_data_centre_host_writes_are_235_not_241() -> None:
    _writes(FAMILIES / "sk-hynix-hfs480g32feh-no-device-statistics.txt", "host_bytes_written", 106_208 * 2**30,
            "attribute 235 Lifetime_Writes_GiB x 1 GiB")


# ------------------------------------------------------------------------------------------------
# SSSTC ERX: 173 Average_PE_Count; 243 NAND writes in a doubted GiB; no host counter of unknown unit

def test_ssstc_173_and_243_and_no_host_writes_in_an_unknown_unit() -> None:
    drive = _one(CORPUS / "linuxhw-EnterpriseDrive__ssstc-er2-gd480__1.txt")
    erase = next(c for c in drive["counters"] if c["source"] == "average_erase_count")
    assert (erase["value"], erase["detail"]) == (1, "attribute 173 Average_PE_Count = 1 (erase cycles)")
    writes = drive["writes"]
    assert writes["nand_bytes_written"] == 733 * 2**30
    assert writes["host_bytes_written"] is None and writes["write_amplification"] is None


def test_a_vendor_host_counter_beside_device_statistics_of_all_ones_is_held_to_the_floor() -> None:
    drive = _one(FAMILIES / "unknown-drive-241-beside-devstat-all-ones.txt")  # no row: the generic 241 in sectors
    assert drive["writes"]["host_bytes_written"] is None and drive["writes"]["write_amplification"] is None
    assert any(w.startswith("attribute 241 Total_LBAs_Written x 512 B gives 580,608 B, fewer than this drive can have "
                            "written") for w in drive["warnings"])
