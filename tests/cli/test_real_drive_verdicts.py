"""Verdicts and figures on real drives never seen here (issue 26, items 9-16): each case an edited copy of a corpus
output (fixtures/edited/, made by tools/make_edited.py; every folder's README names the source, its licence and
the edit), run through the commands."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from support.builders import ata, attr
from support.cli import ssdwear_cli
from support.edited import EDITED, analyze, retire_check
from support.paths import CORPUS

from ssdwear.assess.nagios import WARNING, evaluate
from ssdwear.assess.report import assess
from ssdwear.assess.thresholds import DEFAULT_THRESHOLDS
from ssdwear.drives import counters, families, indicators, named
from ssdwear.smartctl.parse import parse_output

# ------------------------------------------------------------------------------------------------
# 26.13: a whole last row is whole


def test_a_whole_last_row_without_a_line_end_is_read_and_not_called_cut_off() -> None:
    for name in ("intel-ssdsc2kb480g8-ends-after-243.txt", "intel-ssdsc2kb480g8-ends-after-243-newline.txt"):
        path = EDITED / "last-row" / name
        snap = parse_output(path.read_bytes(), name)
        assert not snap.truncated and snap.parse_notes == (), snap.parse_notes
        a243 = snap.attr(243)
        assert a243 is not None and a243.raw == 57989
        drive = analyze(path)[0]
        assert not any("cut off" in w for w in drive["warnings"]), drive["warnings"]
        # 243 NAND_Writes_32MiB: 57,989 x 32 MiB, the NAND writes beside 241's 7,154 x 32 MiB of host writes
        assert drive["writes"]["nand_bytes_written"] == 57989 * 32 * 2**20
        assert drive["writes"]["write_amplification"] == round(57989 / 7154, 2)
        assert drive["window"]["valid"], drive["window"]  # whole rows: the timed window stands


def test_a_brief_table_without_its_legend_keeps_its_whole_last_row_but_is_cut_off() -> None:
    drive = analyze(EDITED / "last-row" / "mx500-ends-after-248.txt")[0]
    assert not any("no line end" in n for n in drive["notes"]), drive["notes"]
    assert any("output ends inside the SMART attribute table" in n for n in drive["notes"])
    pages = next(c for c in drive["counters"] if c["source"] == "nand_pages_written")
    assert pages["value"] == 14668320527 + 27569058731  # 247 + 248 FTL_Program_Page_Count, kept


def test_a_last_row_cut_inside_its_columns_or_its_brackets_is_still_dropped() -> None:
    source = (EDITED / "last-row" / "mx500-ends-after-248.txt").read_text(encoding="utf-8")
    head = source[:source.index("194 Temperature_Celsius")]
    for cut in ("194 Temperature_Celsius     -O---K   062   034   000    -    38 (Min/Max 0/6",
                "194 Temperature_Celsius     -O---K   062   0"):
        snap = parse_output(head + cut, "cut.txt")
        assert snap.truncated and snap.attr(194) is None
        assert any("cut mid-row; the row was dropped" in n for n in snap.parse_notes)


# ------------------------------------------------------------------------------------------------
# 26.14: messages that say what is so

MESSAGES = EDITED / "messages"


def test_files_without_an_identity_are_not_said_to_show_the_same_model() -> None:
    drives = analyze(MESSAGES / "intel-ssdsc2kb480g8-no-identity.txt", MESSAGES / "samsung-850-evo-no-identity.txt")
    assert len(drives) == 2
    for drive in drives:
        notes = " ".join(drive["notes"])
        assert "other files show the same model" not in notes
        assert "no identity section (model, serial): reported alone, as nothing says which drive it is" in notes
        # `used -` says why: the family, and so what its vendor attributes mean, is unknown
        assert drive["used_percent"] is None
        assert "no wear figure: the output has no identity section" in notes and "what its vendor attributes mean" \
            in notes
    alone = analyze(MESSAGES / "samsung-850-evo-no-identity.txt")[0]  # one file: nothing to be joined with
    assert not any("reported alone" in n for n in alone["notes"])


def test_an_identity_only_capture_says_no_smart_data_was_saved() -> None:
    drive = analyze(MESSAGES / "samsung-850-evo-identity-only.txt")[0]
    assert drive["model"] == "Samsung SSD 850 EVO 1TB" and drive["used_percent"] is None
    assert "no lifetime wear indicator ssdwear can trust on this drive" not in drive["notes"]
    assert any(n.startswith("no wear figure: the output holds no SMART data, only the drive's identity (smartctl -i)")
               for n in drive["notes"]), drive["notes"]


def test_a_double_spaced_paste_is_read_as_the_output_it_copies() -> None:
    pasted = analyze(MESSAGES / "intel-ssdsc2kb480g8-double-spaced.txt")[0]
    plain = analyze(MESSAGES / "intel-ssdsc2kb480g8-no-identity.txt")[0]
    assert any(n.startswith("a double-spaced copy") for n in pasted["notes"])
    assert pasted["writes"] == plain["writes"] and pasted["power_on_hours"] == plain["power_on_hours"] == 4742
    assert not any("cut off" in w for w in pasted["warnings"]), pasted["warnings"]


def test_a_file_with_no_drive_data_blames_smartctl_only_when_smartctl_failed(tmp_path: Path) -> None:
    mangled = tmp_path / "mangled.txt"  # the data section of a paste whose table was lost: smartctl is not to blame
    mangled.write_text("smartctl 7.3 2022-02-28 r5338\n\n=== START OF READ SMART DATA SECTION ===\n"
                       "SMART Status not supported: ATA return descriptor not supported by controller firmware\n"
                       "ID# ATTRIBUTE_NAME  FLAG  VALUE WORST THRESH TYPE  UPDATED  WHEN_FAILED RAW_VALUE\n")
    said = ssdwear_cli(["analyze", str(mangled)]).stderr
    assert "smartctl could not read the drive" not in said
    assert "no drive data could be read from the file" in said and "SMART attribute table header without rows" in said
    failed = ssdwear_cli(["analyze", str(CORPUS / "scrutiny__windows-open-failed__1.json")]).stderr
    assert "smartctl could not read the drive (exit status 2): Smartctl open device: /dev/sda failed" in failed


# ------------------------------------------------------------------------------------------------
# 26.11: SAS power-on hours from the Seagate/Hitachi factory page


def test_sas_power_on_hours_are_read_from_the_factory_page() -> None:
    for name in ("hgst-husmm1680-factory-7127h.txt", "hgst-husmm1680-factory-7127h-comma.txt"):
        drive = analyze(EDITED / "sas-power-on-hours" / name)[0]
        assert drive["interface"] == "scsi" and drive["power_on_hours"] == 7127.12
        assert drive["used_percent"] == 0 and drive["projection"] is not None
        assert "7,127 power-on hours" in drive["projection"]["basis"]
        assert not any("no power-on hours" in n for n in drive["notes"])


def test_the_note_on_a_sas_drive_without_power_on_hours_names_the_scsi_sources() -> None:
    drive = analyze(CORPUS / "pySMART__anonymised-samsung-sas-ssd-800gb__1.txt")[0]  # neither page printed
    assert drive["power_on_hours"] is None and drive["projection"] is None
    note = next(n for n in drive["notes"] if n.startswith("no projection: the drive reports no power-on hours"))
    assert "'Accumulated power on time'" in note and "'number of hours powered up'" in note
    assert "attribute 9" not in note


def test_smartctl_json_gives_sas_power_on_time_as_the_text_does() -> None:
    # smartctl 7.0+ puts the factory page's (or the background scan's) minutes into power_on_time for SCSI
    for name, hours in (("smartctl_exporter__hitachi-h109060sesun600g__1.json", 22364 + 52 / 60),
                        ("scrutiny__seagate-st1200mm0088__1.json", 5675 + 39 / 60)):
        drive = analyze(CORPUS / name)[0]
        assert drive["interface"] == "scsi" and abs(drive["power_on_hours"] - hours) < 0.01, name  # JSON: 2 decimals


# ------------------------------------------------------------------------------------------------
# 26.9: a temperature at its threshold is a condition to fix, not a reason to replace the drive

WARM = EDITED / "temperature-at-threshold"


@pytest.mark.parametrize("name,hot", [
    ("seagate-st10000nm0016-190-at-threshold.txt", "190 Airflow_Temperature_Cel 045 at threshold 045, 55 °C"),
    ("toshiba-mg09aca18te-194-at-threshold.json", "194 Temperature_Celsius 045 at threshold 045, 55 °C"),
])
def test_a_hard_disk_at_its_temperature_threshold_is_watched_not_retired(name: str, hot: str) -> None:
    path = WARM / name
    code, doc = retire_check(path)
    assert (code, doc["verdict"]) == (10, "watch"), doc["reasons"]
    assert doc["reasons"] == [f"temperature at its threshold now: {hot}: cool the drive (airflow, fans, placement); "
                              "not wear, not a defect"]
    drive = analyze(path)[0]
    assert drive["kind"] == "hdd" and drive["health"]["failing_attributes"] == []
    assert drive["health"]["temperatures_at_threshold"] == [hot]
    state, out = evaluate([assess(parse_output(path.read_bytes(), name))], DEFAULT_THRESHOLDS)  # check's plugin
    assert state == WARNING and out.startswith("SSDWEAR WARNING - ")
    assert out.count("temperature at its threshold now") == 2  # line 1's summary, the drive's line once


def test_an_attribute_failing_that_is_not_a_temperature_still_retires() -> None:
    # Crucial MX300: 202 Percent_Lifetime_Remain FAILING_NOW (and SMART FAILED)
    code, doc = retire_check(CORPUS / "linuxhw-EnterpriseDrive__crucial-ct750mx300ssd1__1.txt")
    assert (code, doc["verdict"]) == (11, "retire")
    assert any(r.startswith("attributes failing now: 202 Percent_Lifetime_Remain") for r in doc["reasons"])


@pytest.mark.parametrize("attr_id,name,temperature", [
    (190, "Airflow_Temperature_Cel", True), (194, "Temperature_Celsius", True), (190, "Temperature_Case", True),
    (231, "Controller_Temperature", True), (244, "Temp_Throttle_Status", True), (234, "Thermal_Throttle_Status", True),
    (190, "SATA_Error_Ct", False), (205, "Thermal_Asperity_Rate", False), (213, "Simple_Rd_Rtry_Attempts", False),
    (231, "SSD_Life_Left", False), (5, "Reallocated_Sector_Ct", False),
])
def test_temperature_attributes_are_told_by_name(attr_id: int, name: str, temperature: bool) -> None:
    assert named.temperature_attribute(attr(attr_id, 0, name=name)) is temperature


# ------------------------------------------------------------------------------------------------
# 26.15: 169 raw 0 without a rated count, against its own normalised value and the erase counts


def test_smi_169_raw_0_is_not_believed_against_its_normalised_value_and_tiny_erase_counts() -> None:
    path = EDITED / "smi-remaining-lifetime" / "ts32gmts400-169-0-erase-55-no-rating.json"
    drive = analyze(path)[0]
    assert drive["used_percent"] is None and not drive["used_at_least"]
    assert any(w.startswith("wear indicator not used: attribute 169 Remaining_Lifetime_Perc raw 0 means ≥ 100 % used")
               and "average 55 erase cycles (167 Average_Erase_Count) and the most-erased block 60" in w
               for w in drive["warnings"]), drive["warnings"]
    code, doc = retire_check(path)
    assert (code, doc["verdict"]) == (0, "keep"), doc["reasons"]


@pytest.mark.parametrize("normalised,average,believed", [
    (100, 55, False),   # the SU650: both contradict it
    (100, None, True),  # nothing to contradict it: a worn-out drive is believed
    (100, 150, True),   # its blocks have averaged more than the fewest cycles any NAND is rated for
    (0, 55, True),      # its own normalised value agrees with the raw one
])
def test_what_contradicts_169_raw_0_without_a_rating(normalised: int, average: int | None, believed: bool) -> None:
    attrs = [attr(169, 0, value=normalised, name="Remaining_Lifetime_Perc"), attr(165, 60, name="Max_Erase_Count")]
    attrs += [attr(167, average, name="Average_Erase_Count")] if average is not None else []
    readings = indicators.ata_used_readings(ata("ADATA SU650", attrs, poh=17000)).readings
    assert [(r.source, r.percent, r.at_least) for r in readings] == \
        ([("smi_169_remaining_lifetime", 100.0, True)] if believed else [])


# ------------------------------------------------------------------------------------------------
# 26.16: a 0 % indicator under 1,000 power-on hours is too early to project, as one that shows wear is


def test_a_young_drive_at_0_percent_is_too_early_to_project() -> None:
    path = EDITED / "power-on-time" / "wdc-pc-sn730-0pct-66h.txt"  # was 144 years, 12.5 pessimistic
    drive = analyze(path)[0]
    assert drive["used_percent"] == 0 and drive["power_on_hours"] == 66 and drive["projection"] is None
    assert any(n.startswith("too early to project: 0 % used in only 66 power-on hours") for n in drive["notes"])
    code, doc = retire_check(path)
    assert (code, doc["verdict"]) == (0, "keep") and not any("years" in r for r in (*doc["reasons"], *doc["facts"]))
    # The same drive at 1,562 h and 1 % (the corpus file it is edited from) is projected.
    assert analyze(CORPUS / "pySMART__wdc-pc-sn730__1.txt")[0]["projection"] is not None


# ------------------------------------------------------------------------------------------------
# 26.12: industrial and unlisted SSDs, read by their family's drive-database names or a vendor rule

INDUSTRIAL = EDITED / "industrial"


@pytest.mark.parametrize("name,used,source", [
    ("innodisk-3me4-smartctl-6.6.txt", 6.0, "smi_169_remaining_lifetime"),
    ("atp-superior-line-248.txt", 8.0, "atp_248_percent_lifetime_remain"),
    ("atp-amlc-m2-248.txt", 5.0, "atp_248_percent_lifetime_remain"),
    ("swissbit-x-75-248.txt", 3.0, "swissbit_248_remaining_life"),
    ("virtium-storfly-248.txt", 12.0, "storfly_248_lifetime_remaining"),
    ("toshiba-ksg60zmv256g-177.txt", 7.0, "toshiba_177_wear_leveling_count"),
])
def test_industrial_and_unlisted_ssds_get_their_wear_figure(name: str, used: float, source: str) -> None:
    drive = analyze(INDUSTRIAL / name)[0]
    assert (drive["used_percent"], drive["used_source"]) == (used, source)
    assert drive["projection"] is not None  # 2,376 power-on hours: projected
    assert not any("no lifetime wear indicator" in n for n in drive["notes"])


def test_the_names_of_the_family_entry_are_said_and_give_the_units() -> None:
    drive = analyze(INDUSTRIAL / "innodisk-3me4-smartctl-6.6.txt")[0]
    said = ("attributes read by the names of drivedb.h 'Innodisk 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs' (165 Max_Erase_Count, "
            "167 Average_Erase_Count, 168 SATA_PHY_Error_Count, 169 Remaining_Lifetime_Perc, 241 Host_Writes_32MiB, "
            "242 Host_Reads_32MiB)")
    assert any(n.startswith(said) for n in drive["notes"]), drive["notes"]
    assert drive["writes"]["host_bytes_written"] == 176271 * 32 * 2**20  # 241 in 32 MiB, no longer 512-byte sectors
    storfly = analyze(INDUSTRIAL / "virtium-storfly-248.txt")[0]
    erase = next(c for c in storfly["counters"] if c["source"] == "average_erase_count")
    assert (erase["value"], erase["rated"]) == (2444, 20000)  # 167 of 168's rating: 12.2 %, beside 248's 12 %
    assert not any("disagree" in w for w in storfly["warnings"])
    atp = analyze(INDUSTRIAL / "atp-superior-line-248.txt")[0]  # 241 counts NAND sectors there, not host writes
    assert atp["writes"]["host_bytes_written"] is None and atp["writes"]["nand_bytes_written"] == 176271 * 512
    amlc = analyze(INDUSTRIAL / "atp-amlc-m2-248.txt")[0]  # 235 Device_Sectors_Written: its host writes
    assert amlc["writes"]["host_bytes_written"] == 52_800_000 * 512


@pytest.mark.parametrize("model,firmware,family", [
    ('2.5" SATA SSD 3ME4', "L17606", "Innodisk 3ME3/3ME4/3IE3/3IE4"),
    ("SATADOM-SH Type C 3ME4", "L16B01", "Innodisk 3ME3/3ME4/3IE3/3IE4"),
    ("SATA Slim 3MG2-P", "M141114", "generic"),  # another Innodisk entry (Remaining_Lifetime_Perc named there)
    ("ATP SATA III M.2 2280 SSD", "T0205B", "ATP SATA III Superior Line"),
    ("ATP SATA III mSATA SSD", "SBFMT1.3", "generic"),  # the Value Line: same model string, Phison firmware
    ("ATP I-Temp M.2 2242", "R0822A", "ATP aMLC M.2 Embedded"),
    ("SFSA160GM2AK1TA-I-8C-11P-STD", "SBR15103", "Swissbit X-7x"),
    ("SFSA080GM1AO1TO-C-8C-11P-STD", "AOR20008", "generic"),  # Swissbit X-8x: 248 Remaining_Life, not read here
    ("StorFly VSF302XC016G-MLX1", "0202-001", "Virtium StorFly"),
    ("VSFDM8XC240G-V11-T", "0913-000", "generic"),  # a newer Virtium: 248 reads 1 at 221 h, not % remaining
    ("TOSHIBA KSG60ZMV512G M.2 2280 512GB", "ABDA4102", "Toshiba SG6"),
    ("TOSHIBA THNSNK256GVN8", "K8XA4103", "SK hynix / Toshiba"),
])
def test_industrial_families_match_their_model_strings_and_not_a_neighbours(model: str, firmware: str,
                                                                            family: str) -> None:
    snap = replace(ata(model, []), firmware=firmware)
    assert families.family_of(snap).name == family


# ------------------------------------------------------------------------------------------------
# 26.10: host writes in the family's unit, and counts too small to be true


def _check(path: Path) -> str:
    return evaluate([assess(parse_output(path.read_bytes(), path.name))], DEFAULT_THRESHOLDS)[1]


def test_a_wd_sata_ssd_unknown_to_smartctl_counts_241_in_gib() -> None:
    path = EDITED / "vendor-units" / "wd-red-sa500-4tb-smartctl-7.3.txt"
    writes = analyze(path)[0]["writes"]  # the figures `report` gives (one assess for both)
    assert writes["host_bytes_written"] == 173833 * 2**30  # 187 TB in 8,244 h, not 89 MB of 512-byte sectors
    assert writes["sources"]["host_bytes_written"] == "attribute 241 Host_Writes_GiB x 1 GiB"
    assert writes["rated_bytes"] == 2_500_000_000_000_000 and writes["rated_used_percent"] == 7.47  # the TBW share
    perfdata = _check(path)
    assert "=7.47%;80;100;0;" in perfdata and f"={173833 * 2**30}B;;;0;" in perfdata


def test_dell_certified_intel_counts_host_writes_in_32_mib() -> None:
    writes = analyze(CORPUS / "smartctl_exporter__intel-ssdsckjb240g7r__1.json")[0]["writes"]
    assert writes["host_bytes_written"] == 129493 * 32 * 2**20  # 225 Host_Writes_32MiB's raw, as 241 prints it


@pytest.mark.parametrize("name,written,why", [
    ("pySMART__liteonit-lct-512l9s__1.txt", 90_250_752, "100 kB per power-on hour over 2,376 hours"),
    ("pySMART__apacer-as340-240gb__1.txt", 1_971_712, "100 kB per power-on hour over 3,519 hours"),
    ("pySMART__hs-ssd-c100-120g__1.txt", 365_568, "100 kB per power-on hour over 133 hours"),
])
def test_host_writes_too_few_for_the_hours_are_a_warning_not_a_figure(name: str, written: int, why: str) -> None:
    # Real drives not in smartctl's database: 241 printed Total_LBAs_Written, read as 512-byte sectors
    drive = analyze(CORPUS / name)[0]
    assert drive["writes"]["host_bytes_written"] is None and drive["writes"]["rated_used_percent"] is None
    assert any(w.startswith(f"attribute 241 Total_LBAs_Written x 512 B gives {written:,} B, fewer than this drive "
                            "can have written") and why in w and w.endswith("not used") for w in drive["warnings"])
    assert "'written_" not in _check(CORPUS / name)


def test_host_writes_too_few_for_the_wear_reported_are_a_warning_not_a_figure() -> None:
    drive = analyze(EDITED / "industrial" / "swissbit-x-75-248.txt")[0]  # 3 % used, 90 MB by 241 as sectors
    assert drive["used_percent"] == 3 and drive["writes"]["host_bytes_written"] is None
    assert any("3 % of the capacity at the 3 % of its endurance the drive reports used" in w
               for w in drive["warnings"]), drive["warnings"]
    assert counters.host_written_floor(ata("X", [], poh=50)) is None  # too young, no wear: nothing bounds it
