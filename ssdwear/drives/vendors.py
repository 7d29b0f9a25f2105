"""Drive knowledge as one table: which attribute means what on which drive family.

Every reader consults `profile(snap)`, the first entry of PROFILES whose family matches: the lifetime wear
attribute (its direction and scaling), the host and NAND write counters with their units, the timed-workload
attributes and the families whose timer reset is documented, and the quirks (a wear value that wraps past
100 %, host counters that wrap at 32 bits, impossible timed-workload patterns), and the names of its newest
drive-database entry for outputs of a smartctl that did not know it (naming.py). Adding a drive family is one
entry here plus a fixture of its smartctl output.

Attributes are identified by ID *and* drive family. smartctl's attribute names are used only where they
come from a drive-database entry that knows the family (names like 'NAND_Writes_1GiB' or
'Remaining_Lifetime_Perc' are never smartctl defaults); default names such as 226 'Load-in_Time' or
233 'Media_Wearout_Indicator' are printed for drives smartctl does not know and prove nothing.

Sources: smartmontools drivedb.h (Intel, Samsung, Crucial/Micron, Kingston, SanDisk, SK hynix entries),
Intel DC S3700/S3610 datasheets (SMART attribute tables), and the real outputs in fixtures/corpus (values read by
hand in its MANIFEST.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ssdwear.model.records import E2H_STEPS_PER_PERCENT, TIMER_SENTINELS, Attribute, Snapshot

MiB = 1 << 20
GiB = 1 << 30

# --------------------------------------------------------------------------------------------
# Drive families

# Model strings are matched whole, never as substrings: 'Samsung SSD 860 EVO (INTEL SSDSA2BZ200G3)' or
# 'Micron_5200 INTEL-SSDSC2KB480G7' are not Intel drives. Intel prints 'INTEL SSDSC2BA200G3', Dell's OEM
# variants drop the prefix ('SSDSCKJB240G7R'), the X25-E puts it last ('SSDSA2SH032G1GN INTEL').
_INTEL_MODEL = re.compile(r"^(?:INTEL|SOLIDIGM)\s+SSD[A-Z0-9]+$|^SSD(?:SA|SC|MC|MA|PE|PF|PB)[A-Z0-9]+(?:\s+INTEL)?$",
                          re.I)
_INTEL_FAMILY = re.compile(r"^(Dell Certified )?Intel\b|^Solidigm\b", re.I)
# An OEM suffix after an Intel model number: 'T', 'R' (Dell), 'D', 'GC', 'GN', ...
_INTEL_MODEL_FORM = r"^(?:INTEL\s+|SOLIDIGM\s+)?(?:{})[A-Z0-9]{{0,4}}(?:\s+INTEL)?$"


# Intel families for which the timed-workload reset (`smartctl -t vendor,0x40`) is documented:
# smartmontools drivedb.h says "226,227,228 can be reset by 'smartctl -t vendor,0x40'" for these
# entries, and the Intel DC datasheets document SMART EXECUTE OFF-LINE IMMEDIATE subcommand 40h.
# Each pattern is an Intel model number; it must be the whole model string (_INTEL_MODEL_FORM: an optional
# 'INTEL ' prefix, an OEM suffix of up to four letters or digits).
TIMER_RESET_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(_INTEL_MODEL_FORM.format(pattern), re.I))
    for name, pattern in (
        ("Intel X25-M/X18-M/X25-V G2", r"SSDSA[12]M(040|080|120|160)G2"),
        ("Intel 311/313", r"SSD(SA2VP|MAEXC)(020|024)G[23]"),
        ("Intel 320", r"SSDSA[12][BCN][WT](040|080|120|160|300|600)G3"),
        ("Intel 710", r"SSDSA2BZ(100|200|300)G3"),
        ("Intel 545s", r"SSDSC[2K]K[WF](128G|256G|512G|010T)8"),
        # 730 (2BP), DC S3500/S3510/S3520 (2BB, 1NB), S3700/S3710 (2BA), S3610 (2BX, 1.8-inch 1BG)
        ("Intel 730 / DC S3500/S3510/S3520/S3610/S3700/S3710", r"SSDSC(2B[ABPX]|1BG|1NB)\d{3}[GT]\d"),
        ("Intel DC S3520 M.2", r"SSDSCKJB\d{3}[GT]7"),
        # DC S4500/S4600, D3-S4510/S4610/S4520/S4620 (2.5-inch 2KB/2KG, M.2 KKB/KKG)
        ("Intel/Solidigm DC S4x00/D3-S4x10/S4x20", r"SSDSC(2K|KK)[BG]\d{3}[GT][78Z]"),
    )
)

# Dell-certified Intel drives (model ending in 'R', e.g. SSDSC2KB480G7R, SSDSCKJB240G7R, SSDSC1BG200G4R):
# their drive-database entries redefine 233 (Total_LBAs_Written on the S3520) and add
# 245 Percent_Life_Remaining and 202 End_of_Life.
_DELL_INTEL = re.compile(r"^(?:INTEL\s+)?SSDSC[A-Z0-9]*[GT]\dR$", re.I)

_SAMSUNG = re.compile(r"samsung|^MZ[0-9A-Z]{2}|^SAMSUNG", re.I)
_CRUCIAL_MICRON = re.compile(r"^(crucial|micron)|^CT\d+(MX|BX|M5|P)|^MTFD", re.I)
_KINGSTON = re.compile(r"kingston", re.I)
_SANDFORCE_FAMILY = re.compile(r"sandforce|Seagate Nytro|Kingston", re.I)
_SEAGATE_NYTRO = re.compile(r"^XA\d{3,4}[A-Z]{2}\d", re.I)
# Intel's SandForce SF-2281 drives: 520 (SSDSC2CW), 330/335 (SSDSC2CT), 525 (SSDMCEAC), 530/535 and Pro 1500/2500
# (SSDSC2BW, SSDSC2BF, SSDMCEAW, SSDSCKGW/KHW), by drive-database family or model number.
_SANDFORCE_INTEL_FAMILY = re.compile(r"^Intel (520|525|330/335|53x and Pro 1500/2500) Series", re.I)
_SANDFORCE_INTEL_MODEL = re.compile(r"^(INTEL\s+)?SSD(SC2C[WT]|SC2B[WF]|MCEA[CW]|SCK[GH]W)\d", re.I)
_SK_HYNIX = re.compile(r"^SH[GY]S|^HFS\d|SK ?hynix", re.I)
_TOSHIBA_SATA_SSD = re.compile(r"^TOSHIBA (KHK|THNS|HK\d)|^(KHK|THNSN)", re.I)
_SANDISK = re.compile(r"^SanDisk|^SD[A-Z]{2,5}\d", re.I)
# smartmontools drivedb.h "WD Blue / Red / Green SSDs": WDS... 2.5"/M.2 SATA SSDs, WD Blue/Red SA5x0, WD Green.
_WD_SATA_SSD = re.compile(r"^WDC\s+WDS\d{3}[GT]\d[BGR]\d[AB]|^WDC WDBNCE|^WD (Green|Blue SA5[01]0|Red SA5[01]0)\b")
WD_SATA = "WD Blue / Red / Green SATA"
# Industrial SATA SSDs, by the model strings of their drivedb.h entries (whole strings, as smartctl matches them).
_INNODISK_3X3_3X4 = re.compile(r'^(?:2\.5" SATA SSD|CFast|Mini PCIeDOM|(?:InnoDisk Corp\. - )?mSATA(?: mini)?|'
                               r"M\.2 \(S42\)|SATA Slim|SATADOM-[MS][HLV](?: Type [CD])?) (?:1IE3|3[IM]E[34])(?: V2)?$")
_ATP_SUPERIOR = re.compile(r"^ATP (?:SATA ?III|I-Temp\. SATA ?III) (?:M\.2 (?:2242|2280)|mSATA|2\.5 inch) SSD$")
_ATP_SUPERIOR_FIRMWARE = re.compile(r"^(?:T0205B|U0316B)$")  # the entry's firmware: its Value Line shares models
_ATP_AMLC = re.compile(r"^ATP I-Temp M\.2 22(?:42|80)$")
_SWISSBIT_X7X = re.compile(r"^SFSA.{4}[MQSUV].AK.T[ABO].{13}$")
_STORFLY = re.compile(r"^StorFly VSF")  # Virtium's StorFly line (newer Virtium models drop the prefix, and differ)
_TOSHIBA_SG6 = re.compile(r"^TOSHIBA KSG60Z[A-Z]{2}\d{3}G\b")


# RAID controllers' logical volumes, by the INQUIRY vendor and product smartctl prints for them (real outputs,
# fixtures/raid/README.md): MegaRAID and Dell PERC, Broadcom/LSI/IBM/Supermicro MegaRAID OEMs, LSI IR volumes,
# HPE Smart Array, Adaptec, Areca, Dell BOSS.
_RAID_VOLUME = re.compile(
    r"^(DELL\s+PERC|PERC\s|MegaRAID|(AVAGO|LSI|Broadcom)\s+(MR\d|SMC\d|MegaRAID)|LSI\s+Logical Volume|"
    r"IBM\s+ServeRAID|Lenovo\s+RAID|HPE?\s+LOGICAL VOLUME|Adaptec\s+(RAID|LOGICAL VOLUME)|Areca\s+\S*-VOL#|"
    r"(ATA\s+)?DELLBOSS VD)", re.I)


def raid_volume(snap: Snapshot) -> str | None:
    """The controller's name when this 'drive' is a RAID controller's logical volume, else None."""
    if snap.interface in ("scsi", "unknown") and snap.model and _RAID_VOLUME.match(snap.model.strip()):
        return snap.model.strip()
    return None


def is_intel_ssd(snap: Snapshot) -> bool:
    """Intel (or Solidigm, Intel's successor) solid-state drive, by drive family or whole model number.

    When smartctl's drive database names the family, the family decides: an 'INTEL ...' model string in a
    'Samsung based SSDs' family is not an Intel drive.
    """
    if snap.is_solid_state is False:
        return False
    model = (snap.model or "").strip()
    if snap.model_family:
        return bool(_INTEL_FAMILY.search(snap.model_family.strip()))
    return bool(_INTEL_MODEL.match(model) or _DELL_INTEL.match(model))


def is_dell_intel(snap: Snapshot) -> bool:
    return is_intel_ssd(snap) and bool(_DELL_INTEL.match((snap.model or "").strip())
                                       or (snap.model_family or "").startswith("Dell Certified Intel"))


# Attributes that give a temperature, or the drive's answer to one (thermal throttling), by the name smartctl prints:
# its defaults 190 Airflow_Temperature_Cel and 194 Temperature_Celsius, and the drive-database names (drivedb.h) 190
# Temperature_Case, Case_Temperature, Drive_Temperature, Drive_Temp_Warning, 194 Device_Temperature,
# Temperature_Internal, 231 Controller_Temperature (ATP), 243 NAND_Temperature, 248 Cross_Temp_Duration, 234/244
# Thermal_Throttle(_Status), 244 Temp_Throttle_Status (WD). At its threshold such an attribute says the drive runs
# too hot, not that it wears or fails. By name, as 190 and 194 are other things on a few families (drivedb.h:
# SATA_Error_Ct, Proprietary_194); not 205 Thermal_Asperity_Rate (a head defect), 245 Thermal_Sensor_Health.
_TEMPERATURE_NAME = re.compile(r"(^|_)temp|temperature|thermal_?throt|therm_throt", re.I)


def temperature_attribute(attr: Attribute) -> bool:
    """Whether this attribute gives a temperature (or thermal throttling), by its name."""
    return bool(_TEMPERATURE_NAME.search(attr.name))


def _model(pattern: re.Pattern[str]) -> Callable[[Snapshot], bool]:
    return lambda s: bool(pattern.search(s.model or ""))


# --------------------------------------------------------------------------------------------
# The table


@dataclass(frozen=True)
class WearAttribute:
    """A normalized value that counts life *remaining* from 100 down: used = (100 - value) / divisor.

    `floor` is where it saturates (the true wear is that or more); `wraps_past_100` is the Crucial MX500
    quirk: the normalized value jumps to 255 once wear passes 100 % while the raw value (percent used on
    those firmwares) keeps counting.
    """

    id: int
    source: str  # stable identifier in reports and the history, e.g. 'samsung_177_wear_leveling_count'
    label: str
    floor: int = 1
    divisor: float = 1.0  # Intel 233 runs 100 -> 1 over the rated life: 0.99
    wraps_past_100: bool = False


@dataclass(frozen=True)
class Counter:
    """A byte counter in an attribute: a fixed unit whatever name smartctl prints, or the unit its
    drive-database name carries (_32MiB, _1GiB, _GB), or logical sectors when the name is one of
    `lba_names` (or whatever the name, with `sectors_as`: the label to print)."""

    id: int
    unit: int | None = None
    unit_label: str = ""
    lba_names: tuple[str, ...] = ()
    sectors_as: str | None = None
    name_must_match: str | None = None  # a regex the name must match before its unit is believed


@dataclass(frozen=True)
class TimedWorkload:
    """Intel's timed-workload trio: E2h media wear (1/1024 %), E3h host reads (%), E4h minutes.

    On SATA drives they are SMART attributes 226-228, reset with `smartctl -t vendor,0x40`; on Intel/Solidigm
    data-centre NVMe drives they are the entries with keys E2h-E4h of vendor log page 0xCA (`log_page`), reset
    with Set Features 0xD5, value 1 (nvme-cli). The keys are the same numbers as the attribute IDs.
    """

    ids: tuple[int, int, int] = (226, 227, 228)
    log_page: int | None = None  # NVMe: the vendor log page that carries them
    # Families whose reset is documented; any other drive is refused (unless forced).
    reset_families: tuple[tuple[str, re.Pattern[str]], ...] = ()
    reset_families_text: str = ""
    reset_command: str = "vendor subcommand 0x40"
    # (E2h, E4h at least): a pattern of broken firmware counters, not a measurement.
    impossible: tuple[int, int] | None = None


_NAND_NAME = r"nand|flash|flsh"  # names of NAND write counters
# What a profile does not say about host and NAND counters, these say: the unit the name carries.
_GENERIC_HOST_WRITTEN = (Counter(241, lba_names=("Total_LBAs_Written",)),
                         Counter(225, lba_names=("Total_LBAs_Written",)), Counter(246))
_GENERIC_HOST_READ = (Counter(242, lba_names=("Total_LBAs_Read",)),)
_GENERIC_NAND = tuple(Counter(i, name_must_match=_NAND_NAME) for i in (233, 243, 249))


@dataclass(frozen=True)
class VendorProfile:
    name: str
    matches: Callable[[Snapshot], bool]
    wear: tuple[WearAttribute, ...] = ()  # lifetime wear attributes, beside the standard Device Statistics
    host_written: tuple[Counter, ...] = _GENERIC_HOST_WRITTEN  # tried in order; the first that reads wins
    host_read: tuple[Counter, ...] = _GENERIC_HOST_READ
    nand_written: tuple[Counter, ...] = _GENERIC_NAND
    timed: TimedWorkload | None = None
    # Device Statistics host counters kept in 32 bits of sectors (they wrap every 2 TiB): a decrease below
    # that size is not proof of another drive.
    host_counters_wrap_at: int | None = None
    # The attribute names of the family's drive-database entry (the newest drivedb.h) or datasheet, for outputs
    # of a smartctl that did not know the drive and printed its defaults ('Unknown_Attribute', 241
    # 'Total_LBAs_Written'): every rule keyed by a name then reads them as that entry names them.
    names: Mapping[int, str] = field(default_factory=dict)
    names_from: str = ""  # where the names come from, for the note


# Intel counts host I/O in 32 MiB units whatever name smartctl prints; 249 NAND_Writes_1GiB (320/520/53x/
# 540s/545s), 243 NAND_Writes_32MiB (S3510/S3610/S3520/S4x00): the IDs mean the same on every Intel SATA SSD.
_INTEL_NAND = (Counter(249, GiB, "1 GiB"), Counter(243, 32 * MiB, "32 MiB"))
_INTEL_HOST_WRITTEN = (Counter(241, 32 * MiB, "32 MiB"), Counter(225, 32 * MiB, "32 MiB"), Counter(246))
_INTEL_HOST_READ = (Counter(242, 32 * MiB, "32 MiB"),)
INTEL_TIMED = TimedWorkload(
    reset_families=TIMER_RESET_FAMILIES,
    reset_families_text="X25-M G2, 311/313, 320, 710, 545s, 730, DC S35x0/S36x0/S37x0, S4x00/S4x10/S4x20",
    # E2h = 102400 (exactly 100 %) with E4h in the hundreds of millions of minutes is seen on real
    # S3510/S3520/S3610 and Dell OEM drives; neither value can be true.
    impossible=(102400, 100_000_000))

# Intel/Solidigm data-centre NVMe families whose vendor log 0xCA carries the timed workload and whose reset (Set
# Features, feature 0xD5, value 1) is published: SPDK's nvme_intel.h (from the Intel SSD DC P3700 specification:
# log 0xCA "SMART attributes", 12-byte entries; feature 0xD5 "reset timed workload counters"), Solidigm's own
# endurance_profiler (reads E2h-E4h from 0xCA and resets with `nvme set-feature -f 0xd5 -v 1` on Intel/Solidigm
# data-centre NVMe SSDs) and nvme-cli's intel and solidigm plugins (smart-log-add reads 0xCA). Client drives
# share the INTEL/SOLIDIGM prefix (SSDPEK*, SSDPFK*) and are not in this list; nor are Optane (SSDPE21K*).
NVME_TIMED_FAMILIES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(_INTEL_MODEL_FORM.format(pattern), re.I))
    for name, pattern in (
        ("Intel DC P3500/P3520/P3600/P3700/P3608", r"SSDPE(2M|DM)[DEX]\d{3}[GT]\d|SSDPECME\d{3}[GT]\d"),
        ("Intel/Solidigm DC P4500/P4510/P4600/P4610", r"SSDPE(2K|DK)[XE]\d{3}[GT]\d"),
        ("Intel/Solidigm D7-P5510/P5520/P5620, D5-P5316", r"SSDPF2(K[XE]|NV)\d{3}[GT]"),
    )
)
NVME_TIMED = TimedWorkload(
    log_page=0xCA, reset_families=NVME_TIMED_FAMILIES, reset_command="Set Features 0xD5",
    reset_families_text="DC P3x00, P4x00/P4x10, D7-P5x10/P5x20, D5-P5316",
    impossible=INTEL_TIMED.impossible)  # the SATA families' broken-counter pattern, by the same firmware lineage


def _nvme_timed_family(snap: Snapshot) -> bool:
    model = (snap.model or "").strip()
    return snap.interface == "nvme" and any(p.match(model) for _, p in NVME_TIMED_FAMILIES)


PROFILES: tuple[VendorProfile, ...] = (
    # Intel/Solidigm data-centre NVMe: the timed workload in vendor log 0xCA (wear: the standard health log).
    VendorProfile("Intel/Solidigm data-centre NVMe", _nvme_timed_family, timed=NVME_TIMED),
    # Dell-certified Intel: 245 Percent_Life_Remaining; host counters in Intel's 32 MiB (drivedb.h "Dell Certified
    # Intel S3520 Series SSDs" names 225 Host_Writes_32MiB; the corpus SSDSCKJB240G7R prints 241 as the default
    # Total_LBAs_Written with 225's raw, 129,493: 4.3 TB, not the 66 MB of 512-byte sectors).
    VendorProfile("Dell-certified Intel", is_dell_intel,
                  wear=(WearAttribute(245, "dell_245_percent_life_remaining", "Percent_Life_Remaining", floor=0),),
                  host_written=_INTEL_HOST_WRITTEN, host_read=_INTEL_HOST_READ, nand_written=_INTEL_NAND,
                  timed=INTEL_TIMED),
    # Intel 233 Media_Wearout_Indicator "decreases from 100 to 1 as the average erase cycle count increases from
    # 0 to the maximum rated cycles" (DC S3700 datasheet): 100 -> 1 spans the rated life, used = (100 - v) / 0.99.
    VendorProfile("Intel/Solidigm", is_intel_ssd,
                  wear=(WearAttribute(233, "intel_233_media_wearout", "Media_Wearout_Indicator", divisor=0.99),),
                  host_written=_INTEL_HOST_WRITTEN, host_read=_INTEL_HOST_READ, nand_written=_INTEL_NAND,
                  timed=INTEL_TIMED),
    # Samsung 177 Wear_Leveling_Count: normalized = life remaining.
    VendorProfile("Samsung", lambda s: bool(_SAMSUNG.search(s.model or "") or "Samsung" in (s.model_family or "")),
                  wear=(WearAttribute(177, "samsung_177_wear_leveling_count", "Wear_Leveling_Count"),)),
    # Crucial/Micron 202 Percent_Lifetime_Remain; 246 = Total_LBAs_Written (unnamed on some 5200 firmwares).
    VendorProfile("Crucial/Micron", _model(_CRUCIAL_MICRON),
                  wear=(WearAttribute(202, "crucial_202_percent_lifetime_remain", "Percent_Lifetime_Remain",
                                      floor=0, wraps_past_100=True),),
                  host_written=(*_GENERIC_HOST_WRITTEN[:2],
                                Counter(246, lba_names=("Total_LBAs_Written",),
                                        sectors_as="Micron Total_LBAs_Written")),
                  host_counters_wrap_at=2**32 * 512),
    # SandForce-derived (Kingston, Seagate Nytro) 231 SSD_Life_Left: normalized = remaining.
    VendorProfile("SandForce (Kingston, Seagate Nytro)",
                  lambda s: bool(_KINGSTON.search(s.model or "") or _SEAGATE_NYTRO.search(s.model or "")
                                 or _SANDFORCE_FAMILY.search(s.model_family or "")),
                  wear=(WearAttribute(231, "sandforce_231_ssd_life_left", "SSD_Life_Left", floor=0),)),
    # WD Blue / Red / Green SATA SSDs (drivedb.h "WD Blue / Red / Green SSDs"; the 4 TB Red SA500 WDS400T1R0A only
    # since its commit 8fdde1fcb, not in smartctl 7.3's): 241/242 Host_Writes_GiB/Host_Reads_GiB count GiB (the
    # corpus WDS200T1R0A: 121,390 GiB = Device Statistics' Logical Sectors Written x 512 within 0.01 %).
    VendorProfile(WD_SATA, lambda s: bool(_WD_SATA_SSD.match((s.model or "").strip())),
                  host_written=(Counter(241, GiB, "1 GiB"),), host_read=(Counter(242, GiB, "1 GiB"),),
                  names={165: "Block_Erase_Count", 166: "Minimum_PE_Cycles_TLC", 167: "Max_Bad_Blocks_per_Die",
                         168: "Maximum_PE_Cycles_TLC", 169: "Total_Bad_Blocks", 170: "Grown_Bad_Blocks",
                         173: "Average_PE_Cycles_TLC", 233: "NAND_GB_Written_TLC", 234: "NAND_GB_Written_SLC",
                         241: "Host_Writes_GiB", 242: "Host_Reads_GiB"},
                  names_from="drivedb.h 'WD Blue / Red / Green SSDs'"),
    # SanDisk CloudSpeed 245 Drive_Life_Remaining%.
    VendorProfile("SanDisk", _model(_SANDISK),
                  wear=(WearAttribute(245, "sandisk_245_drive_life_remaining", "Drive_Life_Remaining%", floor=0),)),
    # Innodisk 3ME3/3ME4/3IE3/3IE4 (drivedb.h "Innodisk 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs"; smartctl 6.6 has no entry
    # for the 3ME4 and prints Unknown_Attribute): 169 Remaining_Lifetime_Perc, raw = % of life remaining, as SONiC's
    # sonic-platform-common (ssd_generic.py, INNODISK_HEALTH_ID 169) reads it; 167 average of 165's maximum erase
    # counts, 168 is no rating there; 241/242 in 32 MiB.
    VendorProfile("Innodisk 3ME3/3ME4/3IE3/3IE4", _model(_INNODISK_3X3_3X4),
                  names={165: "Max_Erase_Count", 167: "Average_Erase_Count", 168: "SATA_PHY_Error_Count",
                         169: "Remaining_Lifetime_Perc", 241: "Host_Writes_32MiB", 242: "Host_Reads_32MiB"},
                  names_from="drivedb.h 'Innodisk 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs'"),
    # ATP SATA III Superior Line, firmware T0205B/U0316B (drivedb.h "ATP SATA III Superior Line SSDs"): 248
    # Percent_Lifetime_Remain, raw = % remaining (RAW_REMAINING); 235 host sectors written, 241 NAND sectors written.
    VendorProfile("ATP SATA III Superior Line",
                  lambda s: bool(_ATP_SUPERIOR.match(s.model or "") and _ATP_SUPERIOR_FIRMWARE.match(s.firmware or "")),
                  host_written=(Counter(235, lba_names=("Sectors_Written_to_SSD",)),),
                  nand_written=(Counter(241, lba_names=("Sectors_Written_to_NAND",)),),
                  names={175: "Average_Erase_Count", 235: "Sectors_Written_to_SSD", 241: "Sectors_Written_to_NAND",
                         242: "Sectors_Read_from_SSD", 248: "Percent_Lifetime_Remain"},
                  names_from="drivedb.h 'ATP SATA III Superior Line SSDs'"),
    # ATP I-Temp M.2 aMLC (drivedb.h "ATP SATA III aMLC M.2 2242/80 Embedded SSDs"): 248 PCT_Life_Remaining.
    VendorProfile("ATP aMLC M.2 Embedded", _model(_ATP_AMLC),
                  host_written=(Counter(235, lba_names=("Device_Sectors_Written",)),),
                  nand_written=(Counter(241, lba_names=("Nand_Sectors_Written",)),),
                  names={175: "Average_Erase_Count", 235: "Device_Sectors_Written", 241: "Nand_Sectors_Written",
                         248: "PCT_Life_Remaining"},
                  names_from="drivedb.h 'ATP SATA III aMLC M.2 2242/80 Embedded SSDs'"),
    # Swissbit X-7x (drivedb.h "Swissbit X-7x Family SATA SSD"): 248 SSD_Remaining_Life_Perc, raw = % remaining.
    VendorProfile("Swissbit X-7x", _model(_SWISSBIT_X7X),
                  names={165: "Maximum_Erase_Count", 167: "Average_Erase_Count", 168: "Rated_Erase_Count",
                         231: "Life_Remaining_Percent", 248: "SSD_Remaining_Life_Perc"},
                  names_from="drivedb.h 'Swissbit X-7x Family SATA SSD'"),
    # Virtium StorFly on Silicon Motion's attribute layout (drivedb.h "Silicon Motion based SSDs": 165, 167
    # Average_Erase_Count of 168 Max_Erase_Count_of_Spec, 241/242 in 32 MiB; Virtium's SmartCmd names 168
    # NAND_Endurance, as quoted in SONiC's tests/test_ssd.py) with 248 Lifetime_Remaining% (drivedb.h "StorFly CFast
    # SATA 6Gbps SSDs", firmware after 0409), raw = % remaining: a StorFly VSF302XC016G at 167 = 2,444 of 20,000
    # reads 248 = 88, and its 241 x 32 MiB = 21 TB against 39 TB of erases (x 16 GB) is a write amplification of 1.9.
    VendorProfile("Virtium StorFly", _model(_STORFLY),
                  names={165: "Max_Erase_Count", 167: "Average_Erase_Count", 168: "Max_Erase_Count_of_Spec",
                         241: "Host_Writes_32MiB", 242: "Host_Reads_32MiB", 248: "Lifetime_Remaining%"},
                  names_from="drivedb.h 'Silicon Motion based SSDs' and 'StorFly CFast SATA 6Gbps SSDs'"),
    # Toshiba SG6 (KSG60ZMV/KSG60ZSE), in no drivedb.h entry and no public datasheet: in real outputs (linuxhw/SMART,
    # SSD/Toshiba/KSG60) 177 Wear_Leveling_Count normalised 095 and 093 sit beside Device Statistics' Percentage Used
    # 6 and 10 %, and 241/242 x 32 MiB equal Logical Sectors Written/Read x 512 to within 0.01 %.
    VendorProfile("Toshiba SG6", _model(_TOSHIBA_SG6),
                  wear=(WearAttribute(177, "toshiba_177_wear_leveling_count", "Wear_Leveling_Count"),),
                  host_written=(Counter(241, 32 * MiB, "32 MiB"),), host_read=(Counter(242, 32 * MiB, "32 MiB"),)),
    # SK hynix and Toshiba SATA SSDs: 233 Media_Wearout_Indicator normalized = remaining.
    VendorProfile("SK hynix / Toshiba", lambda s: bool(_SK_HYNIX.search(s.model or "")
                                                       or _TOSHIBA_SATA_SSD.search(s.model or "")),
                  wear=(WearAttribute(233, "media_wearout_233", "Media_Wearout_Indicator"),)),
)
GENERIC = VendorProfile("generic", lambda s: True)


class RawRemaining(NamedTuple):
    """An attribute whose raw value is the percent of life remaining (0-100), by ID and drive-database name."""

    id: int
    name: str
    source: str  # stable identifier in reports and the history


# Raw values that count % of life remaining (raw48 in every entry named; the normalised value is not it).
RAW_REMAINING = (
    # drivedb.h "Silicon Motion based SSDs" (ADATA SU650/SP550, Transcend, Kingston KC600, ...), "Innodisk
    # 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs", "Innodisk 3IE2/3ME2/3MG2/3SE2/3TG6 SSDs"
    RawRemaining(169, "Remaining_Lifetime_Perc", "smi_169_remaining_lifetime"),
    RawRemaining(248, "Percent_Lifetime_Remain", "atp_248_percent_lifetime_remain"),  # "ATP SATA III Superior Line"
    RawRemaining(248, "PCT_Life_Remaining", "atp_248_percent_lifetime_remain"),  # "ATP SATA III aMLC M.2 ..."
    RawRemaining(248, "SSD_Remaining_Life_Perc", "swissbit_248_remaining_life"),  # "Swissbit X-7x Family SATA SSD"
    RawRemaining(248, "Lifetime_Remaining%", "storfly_248_lifetime_remaining"),  # "StorFly CFast SATA 6Gbps SSDs"
)


def raw_remaining(attr: Attribute) -> RawRemaining | None:
    return next((r for r in RAW_REMAINING if r.id == attr.id and r.name == attr.name), None)


def sandforce_based(snap: Snapshot) -> bool:
    """A drive on a SandForce controller: the SandForce profile (Kingston, Seagate Nytro, drive-database family
    'SandForce Driven SSDs'), or one of Intel's SandForce-based families."""
    return (profile(snap).name.startswith("SandForce") or bool(_SANDFORCE_INTEL_FAMILY.match(snap.model_family or ""))
            or bool(_SANDFORCE_INTEL_MODEL.match((snap.model or "").strip())))


def profile(snap: Snapshot) -> VendorProfile:
    """The first profile whose family matches this drive; the generic one when none does."""
    for candidate in PROFILES:
        if candidate.matches(snap):
            return candidate
    return GENERIC


# --------------------------------------------------------------------------------------------
# Timed workload


def timed_log_page(snap: Snapshot) -> int | None:
    """The vendor log page to read for this drive's timed workload (one extra smartctl call), or None: only
    Intel/Solidigm data-centre NVMe drives, where the page is documented."""
    timed = profile(snap).timed
    return timed.log_page if timed is not None and snap.interface == "nvme" else None


def log_entries(page: bytes) -> dict[int, int]:
    """Intel's SMART attribute log (NVMe log 0xCA): 12-byte entries of key (byte 0), normalized value (3) and a
    48-bit little-endian raw value (5-10). Found by key, not by position; the first entry of a key wins."""
    entries: dict[int, int] = {}
    for at in range(0, len(page) - 11, 12):
        key = page[at]
        if key and key not in entries:
            entries[key] = int.from_bytes(page[at + 5:at + 11], "little")
    return entries


def _timed_values(snap: Snapshot, timed: TimedWorkload) -> dict[int, int | None] | None:
    """E2h, E3h, E4h raw values by ID, or None when the drive does not show all three."""
    if timed.log_page is not None:
        page = snap.nvme_logs.get(timed.log_page)
        entries = log_entries(page) if page else {}
        if snap.interface != "nvme" or not all(i in entries for i in timed.ids):
            return None  # another vendor's page 0xCA, a failed read, or none
        return {i: entries[i] for i in timed.ids}
    if snap.interface != "ata":
        return None
    attrs = {i: snap.attr(i) for i in timed.ids}
    if any(a is None or a.name == "Intel_Internal" for a in attrs.values()):
        return None
    return {i: a.raw if a is not None else None for i, a in attrs.items()}


def timer_reset_family(snap: Snapshot) -> str | None:
    """The documented family name if the timed-workload reset is documented for this drive, else None."""
    timed = profile(snap).timed
    model = (snap.model or "").strip()
    for name, pattern in timed.reset_families if timed else ():
        if pattern.match(model):
            return name
    return None


def has_timed_workload(snap: Snapshot) -> bool:
    """A drive whose profile carries the timed-workload trio, showing all three (SATA: attributes the drive
    database does not call Intel_Internal; NVMe: entries of the vendor log page)."""
    timed = profile(snap).timed
    return timed is not None and _timed_values(snap, timed) is not None


def timed_raw(snap: Snapshot, attr_id: int) -> int | None:
    """Raw value of E2h/E3h/E4h (226/227/228) on a drive that carries the timed workload; None on every other."""
    timed = profile(snap).timed
    values = _timed_values(snap, timed) if timed is not None else None
    return None if values is None else values.get(attr_id)


def timed_value(snap: Snapshot, attr_id: int) -> int | None:
    """Raw value of 226/227/228 once the timer counts: None while it holds its sentinel (65535 for 60 power-on
    minutes after a reset) and on drives without the timed workload."""
    raw = timed_raw(snap, attr_id)
    return None if raw is None or raw in TIMER_SENTINELS else raw


def impossible_timed(snap: Snapshot, e2: int, e4: int) -> bool:
    """E2h/E4h form a pattern of this family's broken firmware counters, not a measurement."""
    timed = profile(snap).timed
    return bool(timed and timed.impossible and e2 == timed.impossible[0] and e4 >= timed.impossible[1])


def reset_refusal(snap: Snapshot) -> str | None:
    """Why ssdwear must not send the timer reset to this drive; None when the reset is documented for it."""
    what = snap.model or "this drive"
    if snap.interface == "nvme":
        return _nvme_reset_refusal(snap, what)
    if snap.interface != "ata":
        return f"{what} is not an ATA drive; vendor subcommand 0x40 is defined only for Intel SATA SSDs"
    timed = profile(snap).timed
    if timed is None:
        family = f" (smartctl's drive database: {snap.model_family})" if snap.model_family else ""
        return f"{what} is not an Intel/Solidigm SSD{family}; vendor subcommands are undefined on other drives"
    if not has_timed_workload(snap):
        return f"{what} does not report the timed-workload attributes 226-228"
    if timer_reset_family(snap) is None:
        return (f"{what} has attributes 226-228, but the reset is not documented for its family "
                f"(only for {timed.reset_families_text})")
    return None


def _nvme_reset_refusal(snap: Snapshot, what: str) -> str | None:
    if not _nvme_timed_family(snap):
        return (f"{what} is not an Intel/Solidigm data-centre NVMe SSD; Set Features 0xD5 is vendor-specific and "
                f"documented only for {NVME_TIMED.reset_families_text}")
    if not has_timed_workload(snap):
        return f"{what} did not show the timed-workload counters (E2h-E4h in vendor log 0xCA)"
    return None


# --------------------------------------------------------------------------------------------
# Lifetime wear indicators

# E2h of a timer never reset: the drive's whole life in 1/1024 % steps (assess/timed_window.py makes this reading).
E2H_LIFETIME_SOURCE = "intel_e2h_since_manufacture"


def never_reset_slack(poh_minutes: float) -> float:
    """How far E4h may lie from the power-on minutes of a timer never reset (they tick at different moments)."""
    return max(120.0, 0.01 * poh_minutes)


def lifetime_e2h_percent(e2h: int | None, e4h: int | None, power_on_hours: float | None) -> float | None:
    """E2h in percent where its timer cannot have been reset since manufacture: E4h as long as the power-on time
    (never reset) or beyond it (a broken E4h, as on Intel 320 and 710 drives: it proves no reset). None where the
    timer was reset (E4h shorter: a window, not the lifetime), holds its sentinel, or is absent."""
    if e2h is None or e4h is None or power_on_hours is None or e2h in TIMER_SENTINELS or e4h in TIMER_SENTINELS:
        return None
    poh_minutes = power_on_hours * 60
    return e2h / E2H_STEPS_PER_PERCENT if e4h >= poh_minutes - never_reset_slack(poh_minutes) else None


# A rated erase count outside this range is no rating (P/E counts of NAND run from a few hundred to 100,000): no
# NAND is rated for fewer than its low end, so a drive whose blocks average fewer erase cycles is not worn out.
RATED_ERASE_RANGE = (100, 1_000_000)

# NVMe's and SCSI's Percentage Used saturate here (the true wear is this or more).
PERCENTAGE_USED_MAX = 255


def indicator_saturated(source: str | None, percent: float | None) -> bool:
    """Whether a reading of the wear indicator named `source` (a stored sample's used_source) at `percent` is
    saturated, as its live reading said: Percentage Used at 255, an attribute at its floor, 169 at 0 remaining."""
    if source is None or percent is None:
        return False
    if source in ("nvme_percentage_used", "scsi_percentage_used"):
        return percent >= PERCENTAGE_USED_MAX
    if source in {r.source for r in RAW_REMAINING}:
        return percent >= 100
    wear = next((w for p in PROFILES for w in p.wear if w.source == source), None)
    if wear is None:
        return False
    floor = used_at(wear, wear.floor)  # past it, a wrapping attribute's raw value counts on (not saturated)
    return percent == floor if wear.wraps_past_100 else percent >= floor


def indicator_step(source: str | None) -> float:
    """The resolution, in percent, of the wear indicator named `source` (a stored sample's used_source): 1 %
    unless the table says otherwise."""
    if source == E2H_LIFETIME_SOURCE:
        return 1 / E2H_STEPS_PER_PERCENT
    return next((1 / w.divisor for p in PROFILES for w in p.wear if w.source == source), 1.0)


# Trust ranks: lower is more trustworthy. Standard, specified indicators first.
TRUST_STANDARD = 1
TRUST_VENDOR = 2
TRUST_DERIVED = 3


@dataclass(frozen=True)
class UsedReading:
    """One source's view of lifetime wear: percent of rated endurance used."""

    source: str  # stable identifier, e.g. 'nvme_percentage_used'
    percent: float
    at_least: bool  # the indicator saturated: the true value is this or more
    detail: str  # what was read, for the user (e.g. 'attribute 233 normalized 090')
    trust: int
    step: float = 1.0  # resolution: the indicator moves in steps of this many percent


def used_at(wear: WearAttribute, value: int) -> float:
    """Percent used at a normalized value of a life-remaining attribute."""
    return float(100 - value) if wear.divisor == 1.0 else round((100 - value) / wear.divisor, 1)


def disagreement(chosen: UsedReading, other: UsedReading) -> bool:
    """Two lifetime indicators disagree when they differ by more than 10 points and 25 %."""
    a, b = chosen.percent, other.percent
    if chosen.at_least and other.at_least:
        return False
    if chosen.at_least:  # chosen says "a or more": only an exact other far below it disagrees
        return b < a - 10 and not other.at_least
    if other.at_least:
        return a < b - 10
    return abs(a - b) > max(10.0, 0.25 * max(a, b))
