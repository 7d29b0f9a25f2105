"""The table of drive families (drives/families.py): which row a drive is, whole strings matched first match first,
the per-family meaning of attributes, and the reset guard the rows give."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.builders import ata, attr, intel, nvme
from support.edited import EDITED

from ssdwear.drives import counters, families, indicators, timed
from ssdwear.drives.vendors import WD_SATA
from ssdwear.model.family import Counter, Family, WearAttribute
from ssdwear.model.records import Snapshot


@pytest.mark.parametrize("model", [
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
    assert timed.reset_refusal(intel(10, 10, 100, model=model)) is None


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
    refusal = timed.reset_refusal(intel(10, 10, 100, model=model))
    assert refusal is not None and why in refusal


def test_reset_refused_without_the_attributes_and_on_nvme() -> None:
    no_attrs = ata("INTEL SSDSC2CT240A4", [attr(233, 0, value=85)])
    assert "226-228" in timed.reset_refusal(no_attrs)
    assert "not an Intel/Solidigm data-centre NVMe SSD" in timed.reset_refusal(nvme(3))


def test_x25e_intel_internal_attributes_are_not_a_timer() -> None:
    snap = ata("SSDSA2SH032G1GN INTEL", [attr(226, 0, name="Intel_Internal"), attr(227, 0, name="Intel_Internal"),
                                         attr(228, 0, name="Intel_Internal")])
    assert not timed.has_timed_workload(snap)


def test_intel_rotating_drive_is_not_an_intel_ssd() -> None:
    assert families.lookup(Snapshot(source="x", interface="ata", model="INTEL ODD", rotation_rate=5400)) is \
        families.GENERIC


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
    readings = indicators.ata_used_readings(ata(model, attrs)).readings
    assert readings[0].source == source and readings[0].percent == percent


def test_samsung_202_is_not_crucial_wear_and_lite_on_177_is_not_samsung() -> None:
    assert indicators.ata_used_readings(ata("SAMSUNG MZ7LM240HMHQ-00005", [attr(202, 32, value=1)]))[0] == []
    assert indicators.ata_used_readings(ata("LITEONIT LCT-512L9S-11", [attr(177, 21534, value=100)]))[0] == []


def test_devstat_255_is_not_valid() -> None:
    readings, notes, _ = indicators.ata_used_readings(ata("INTEL SSDSC2CT120A3", [attr(233, 0, value=38)],
                                                       devstat_used=255))
    assert [r.source for r in readings] == ["intel_233_media_wearout"]
    assert any("255" in n for n in notes)


def test_intel_write_counters_are_32mib_units_whatever_the_name() -> None:
    snap = ata("INTEL SSDSC1BG200G4", [attr(241, 1000, name="Total_LBAs_Written"), attr(243, 3000, name="Unknown")])
    assert counters.ata_host_written(snap).bytes == 1000 * 32 * 2**20
    assert counters.ata_nand_written(snap).bytes == 3000 * 32 * 2**20


# --------------------------------------------------------------------------------------------
# The drive-knowledge table


def _corpus(*more: Path) -> list[Snapshot]:
    from support.paths import CORPUS

    from ssdwear.model.errors import ParseError
    from ssdwear.smartctl.parse import parse_output

    snaps = []
    for path in [*sorted(CORPUS.iterdir()), *more]:
        if path.suffix in (".txt", ".json", ".out"):  # .out: a replay fixture's recording
            try:
                snap = parse_output(path.read_bytes(), source=path.name)
            except ParseError:
                continue
            snaps.append(snap)
    return snaps


def _nvme_fixtures() -> list[Path]:
    """The hand-made NVMe outputs (fixtures/intel-nvme, fixtures/nvme-vendors: their READMEs say how they are made):
    the corpus holds real ones of only some of those rows."""
    from support.paths import FIXTURES

    return sorted(f for d in ("intel-nvme", "nvme-vendors") for f in (FIXTURES / d).glob("smartctl --json=c -x *.out"))


def test_every_row_is_some_drive_of_the_fixtures_and_sources_are_unique() -> None:
    # The industrial families of issue 26.12, and Lenovo's OEM D3-S4510 of issue 27.6, are known here from edited
    # copies of corpus outputs only (their READMEs say what was edited; no real output of theirs is in the corpus).
    edited = [*sorted((EDITED / "industrial").iterdir()), *sorted((EDITED / "families").iterdir())]
    seen = {families.family_of(s).name for s in _corpus(*edited, *_nvme_fixtures())}
    assert seen == {p.name for p in families.FAMILIES} | {"generic"}, "a row no drive in the fixtures is"
    meaning: dict[str, WearAttribute] = {}
    for wear in (w for p in families.FAMILIES for w in p.wear):  # one source, one meaning (rows may share it)
        assert meaning.setdefault(wear.source, wear) == wear


def test_first_matching_profile_decides() -> None:
    dell = ata("SSDSC2KB480G7R", [attr(245, 0, 97, "Percent_Life_Remaining"), attr(233, 0, 50)],
               family="Dell Certified Intel S4x00/D3-S4x10 Series SSDs")
    assert families.lookup(dell).name == "Dell-certified Intel"
    readings = indicators.used_readings(dell).readings
    assert [r.source for r in readings] == ["dell_245_percent_life_remaining"]  # not Intel's 233
    assert families.lookup(ata("Samsung SSD 860 EVO 500GB", [])).name == "Samsung"
    assert families.lookup(ata("LITEONIT LCT-512L9S-11 2.5 7mm 512GB", [])) is families.GENERIC
    assert families.lookup(ata("WDC WDS500G2B0A", [])).name == WD_SATA  # issue 26.10


def test_a_new_family_is_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    snap = ata("ACME FL4SH 960", [attr(231, 0, 88, "SSD_Life_Left"), attr(241, 1000, 100, "Host_Writes_GiB")])
    assert indicators.used_readings(snap)[0] == []
    acme = Family("ACME", "a test's", model=r"ACME .*",
                  wear=(WearAttribute(231, "acme_231_life_left", "SSD_Life_Left"),),
                  host_written=(Counter(241, 10**6, "1 MB"),))
    monkeypatch.setattr(families, "FAMILIES", (acme, *families.FAMILIES))
    readings = indicators.used_readings(snap).readings
    assert [(r.source, r.percent) for r in readings] == [("acme_231_life_left", 12.0)]
    written = counters.ata_host_written(snap)
    assert written is not None and written.bytes == 1000 * 10**6 and "1 MB" in written.source


def test_intel_counts_host_writes_in_32_mib_whatever_the_name() -> None:
    timed = intel(10, 10, 100)
    snap = ata(timed.model or "", [*timed.attributes.values(), attr(241, 3, 100, "Total_LBAs_Written")])
    written = counters.ata_host_written(snap)
    assert written is not None and written.bytes == 3 * 32 * 1024 * 1024
    generic = ata("LITEONIT LCT-512L9S-11", [attr(241, 3, 100, "Total_LBAs_Written")], poh=None)
    assert counters.ata_host_written(generic).bytes == 3 * 512
    wd = ata("WDC WDS500G2B0A", [attr(241, 3, 100, "Total_LBAs_Written")])  # WD counts GiB (issue 26.10)
    assert counters.ata_host_written(wd).bytes == 3 * 2**30


def test_impossible_timed_pattern_belongs_to_intel() -> None:
    assert timed.impossible_timed(intel(102400, 0, 200_000_000), 102400, 200_000_000)
    assert not timed.impossible_timed(intel(102400, 0, 200_000_000), 102400, 99_999_999)
    assert not timed.impossible_timed(ata("Samsung SSD 860 EVO 500GB", []), 102400, 200_000_000)


@pytest.mark.parametrize("model,same_drive", [("CT1000MX500SSD1", True), ("Samsung SSD 860 EVO 1TB", False)])
def test_host_counter_wrap_is_a_crucial_quirk(model: str, same_drive: bool) -> None:
    """A Device Statistics write counter that falls below 2 TiB is the MX500's 32-bit wrap, not another drive;
    on a drive without that quirk a falling counter means the readings are of two drives."""
    from ssdwear.assess.report import assess
    from ssdwear.assess.series import SavedReading, group
    from ssdwear.model.records import DEVSTAT_LOGICAL_SECTORS_WRITTEN, DevStat

    def reading(poh: int, sectors: int) -> SavedReading:
        snap = ata(model, [], poh=poh, serial="", device=f"/saved/{poh}")
        snap = Snapshot(**{**snap.__dict__, "devstats": {
            DEVSTAT_LOGICAL_SECTORS_WRITTEN: DevStat(1, 0x18, "Logical Sectors Written", sectors)}})
        return SavedReading(snap, assess(snap))

    chains = group([reading(1000, 2**32 - 1000), reading(1100, 5000)], same_drive=True)  # masked: the user says so
    assert len(chains) == (1 if same_drive else 2)


def test_smi_169_is_read_where_the_erase_counts_agree_and_replaced_where_they_contradict() -> None:
    def smi(remaining: int, average: int, rated: int) -> indicators.Readings:
        return indicators.ata_used_readings(ata("TS32GMTS400", [
            attr(167, average, name="Average_Erase_Count"), attr(168, rated, name="Max_Erase_Count_of_Spec"),
            attr(169, remaining, name="Remaining_Lifetime_Perc")]))

    agree = smi(96, 132, 3000)  # the corpus Transcend as recorded: 4 % and 4.4 %
    assert [r.source for r in agree.readings] == ["smi_169_remaining_lifetime"] and not agree.warnings
    contradict = smi(0, 55, 1000)
    assert [(r.source, r.percent) for r in contradict.readings] == [("smi_167_average_erase_count", 5.5)]
    assert contradict.warnings and "attribute 169 is not used" in contradict.warnings[0]
    # Names smartctl prints for other families (Innodisk's 168 SATA_PHY_Error_Count) carry no rating (an average
    # below any NAND's rating would contradict 169 raw 0 by itself, issue 26.15: 550 does not).
    other = indicators.ata_used_readings(ata("X", [attr(167, 550, name="Average_Erase_Count"),
                                                attr(168, 1000, name="SATA_PHY_Error_Count"),
                                                attr(169, 0, name="Remaining_Lifetime_Perc")]))
    assert [r.source for r in other.readings] == ["smi_169_remaining_lifetime"]


SANDFORCE_NOTE = "reads 255, which SandForce-based firmwares print for 'not valid'"


@pytest.mark.parametrize("name", ["intel-ssdmceac120b3", "intel-ssdsc2ct120a3", "intel-ssdsc2ct240a4",
                                  "intel-ssdsc2cw120a3"])
def test_devstat_255_is_called_sandforce_only_on_sandforce_drives(name: str) -> None:
    """Intel 520/525/330/335: SF-2281 controllers, which print 255 in Device Statistics for 'not valid'."""
    from support.paths import CORPUS

    from ssdwear.run.saved import load

    snap = load(CORPUS / f"linuxhw-EnterpriseDrive__{name}__1.txt")
    assert indicators.sandforce_based(snap)
    notes = indicators.ata_used_readings(snap).notes
    assert any(SANDFORCE_NOTE in n for n in notes)


def test_devstat_255_on_samsung_and_smi_drives_says_nothing_of_sandforce(tmp_path) -> None:
    """Issue 17.18: the SandForce note was printed for Samsung and Silicon Motion drives that read 255."""
    from support.paths import CORPUS

    from ssdwear.run.saved import load

    real = (CORPUS / "linuxhw-EnterpriseDrive__samsung-ssd-860-evo-1tb__1.txt").read_text()
    line = "0x07  0x008  1              41  N--  Percentage Used Endurance Indicator"
    assert line in real
    edited = tmp_path / "samsung-devstat-255.txt"  # the corpus output with the indicator at 255
    edited.write_text(real.replace(line, line.replace("  41  ", " 255  ")))
    smi = ata("ADATA SU650", [attr(169, 90, name="Remaining_Lifetime_Perc")], devstat_used=255)
    for snap in (load(edited), smi):
        assert not indicators.sandforce_based(snap)
        notes = indicators.ata_used_readings(snap).notes
        (note,) = [n for n in notes if "reads 255" in n]
        assert "SandForce" not in note and "the field's largest value" in note


def _corpus_readings() -> list[indicators.UsedReading]:
    from support.corpus import FILES

    from ssdwear.model.errors import ParseError
    from ssdwear.run.saved import load

    found = []
    for path in FILES:
        try:
            found += indicators.used_readings(load(path))[0]
        except ParseError:
            continue
    return found


def test_a_stored_indicator_has_the_step_and_saturation_its_live_reading_had() -> None:
    """A stored sample keeps only its indicator's source and percent: plan --from SERIAL and the history read its
    step and saturation from the vendor table (indicator_step, indicator_saturated; plan had its own step table,
    and read no saturation at all: it projected a saturated indicator). Every reading in the corpus agrees, and the
    saturation rule of each kind of indicator is met at its edge."""
    readings = _corpus_readings()
    assert len({r.source for r in readings}) >= 8 and any(r.at_least for r in readings)
    for r in readings:
        assert indicators.indicator_saturated(r.source, r.percent) == r.at_least, r
        if r.source != "smi_167_average_erase_count":  # its step is 100 / the drive's own rated erase count
            assert indicators.indicator_step(r.source) == pytest.approx(r.step), r
    edges = [indicators.nvme_used_readings(nvme(255))[0], indicators.nvme_used_readings(nvme(254))[0],
             *indicators.ata_used_readings(intel(0, 0, 0, mwi=1)).readings,
             *indicators.ata_used_readings(ata("Samsung SSD 860 EVO 1TB", [attr(177, 0, value=0)])).readings]
    assert [r.at_least for r in edges] == [True, False, True, True]
    assert all(indicators.indicator_saturated(r.source, r.percent) == r.at_least for r in edges)


# Where a regular expression may meet a model string, a firmware revision or a drive-database family: the table's
# one matcher (drives/families.py matches_whole, which drives/timed.py's reset guard and fine.py's OCP check call
# with the rows' expressions), the ratings catalogue (its own sourced table: ratings.yaml's patterns, and the
# config's, which host/config.py compiles to check them) and smartd's file names (MODEL-SERIAL, smartctl/smartd.py).
MATCHER_HOMES = {"ssdwear/drives/families.py", "ssdwear/drives/ratings.py", "ssdwear/host/config.py",
                 "ssdwear/smartctl/smartd.py"}
_REGEX_CALL = re.compile(r"(?:\bre\.(?:match|search|fullmatch|compile)|\.(?:match|search|fullmatch))\(([^)]*)")


def test_no_model_regular_expression_outside_the_family_table() -> None:
    """No module but the table's applies a regular expression to a model, a firmware or a family, and no module but
    the table's rows (drives/families.py, intel.py, vendors.py) holds a pattern for one (issue 27.1)."""
    from support.paths import ROOT

    strays = []
    for path in sorted((ROOT / "ssdwear").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            calls = [m.group(1) for m in _REGEX_CALL.finditer(line)]
            if name not in MATCHER_HOMES and any(re.search(r"model|firmware|family", c) for c in calls):
                strays.append(f"{name}:{number}: {line.strip()}")
    assert strays == []
    rows = {"ssdwear/drives/families.py", "ssdwear/drives/intel.py", "ssdwear/drives/vendors.py"}
    holders = {str(p.relative_to(ROOT)) for p in (ROOT / "ssdwear").rglob("*.py")
               if re.search(r"\b(model|firmware|family|family_alone)=r?[\"']", p.read_text(encoding="utf-8"))}
    assert holders <= rows


PHISON_ROWS = [  # (model, firmware, family smartctl printed, the row): drivedb.h's Phison entries, issue 27.6
    ("KINGSTON SA400S37240G", None, "Phison Driven SSDs", "Phison"),
    ("KINGSTON  SA400S37480G", None, None, "Phison"),  # two spaces, as the entry's comment saw; no family printed
    ("KINGSTON SA400M8120G", None, None, "Phison"),
    ("KINGSTON SEDC400S37480G", None, None, "Phison"),  # DC400
    ("KINGSTON SEDC500M1920G", None, None, "Phison"),  # DC500M
    ("KINGSTON SEDC600ME960G", None, None, "Phison"),  # DC600ME
    ("KINGSTON SUV300S37A120G", None, None, "Phison"),  # UV300
    ("KINGSTON SKC400S37128G", None, None, "Phison"),  # KC400
    ("Patriot Burst", None, None, "Phison"),
    ("KIOXIA-EXCERIA SATA SSD", "SBFA18.1", "Phison Driven SSDs", "Phison (KIOXIA EXCERIA SATA)"),
    ("KIOXIA-EXCERIA SATA SSD", "SBFA18.1", None, "Phison (KIOXIA EXCERIA SATA)"),
    ("SATA SSD", "S9FM02.1", None, "Phison OEM"),  # the OEM entry knows its drives by firmware
    ("GOODRAM", "SAFM12.2", "Phison Driven OEM SSDs", "Phison OEM"),
    ("SSDPR-CX400-128-G2", "SN07373", None, "generic"),  # "differs, see ticket #1689": not that entry's firmware
    ("SATA SSD", "SN07373", None, "generic"),
    ("KINGSTON SV300S37A240G", None, "SandForce Driven SSDs", "SandForce (Kingston, Seagate Nytro)"),  # SF-2281
    ("KINGSTON SUV400S37240G", None, "Kingston SSDNow UV400/500", "SandForce (Kingston, Seagate Nytro)"),
    ("KIOXIA-EXCERIA SATA SSD", "SBFA18.1", "Silicon Motion based SSDs", "Silicon Motion"),  # a printed family wins
]


@pytest.mark.parametrize("model,firmware,family,row", PHISON_ROWS)
def test_phison_rows_match_the_entries_models_and_the_oem_entrys_firmware(model: str, firmware: str | None,
                                                                          family: str | None, row: str) -> None:
    assert families.lookup(ata(model, [], family=family, firmware=firmware)).name == row


def _excerial(raw_241: int) -> Snapshot:
    """A KIOXIA EXCERIA SATA (480 GB) without Device Statistics: 231 at 90 (10 % used), 241 as given."""
    return ata("KIOXIA-EXCERIA SATA SSD", [attr(231, 90, value=90, name="SSD_Life_Left"),
                                           attr(241, raw_241, name="Lifetime_Writes_GiB")],
               family="Phison Driven SSDs", firmware="SBFA18.1", capacity_bytes=480_103_981_056)


def test_a_doubted_host_counter_without_device_statistics_is_held_to_the_wear_indicator() -> None:
    problems: list[str] = []
    assert counters.ata_host_written(_excerial(20_000), problems) == counters.ByteCount(
        20_000 * 2**30, "attribute 241 Lifetime_Writes_GiB x 1 GiB") and problems == []
    # 50 million GiB: 111,826 full writes of 480 GB at 10 % used, a rated 1.0-1.1 million erase cycles
    assert counters.ata_host_written(_excerial(50_000_000), problems) is None
    (problem,) = problems
    assert problem.startswith("attribute 241 Lifetime_Writes_GiB x 1 GiB is not used: drivedb.h doubts 241's unit on "
                              "the KIOXIA EXCERIA SATA SSD") and "at 10 % used (sandforce_231_ssd_life_left)" in problem
