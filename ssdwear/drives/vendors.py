"""The other vendors' drive families (rows of the table in families.py, in its order after Intel's: a vendor's narrow
rows before its broad one).

Sources: smartmontools drivedb.h at f1d0da9ce (github.com/smartmontools/smartmontools, drivedb/drivedb.h; the lines
cited are that revision's: its entries' model regular expressions and attribute names), datasheets where cited, and
the real outputs in fixtures/corpus (values read by hand in its MANIFEST.md).
"""

from __future__ import annotations

from dataclasses import replace

from ssdwear.model.family import Counter, Family, FineCounter, RawRemaining, TimedWorkload, WearAttribute

from .named import AVERAGE_ERASE_173

MiB = 1 << 20
GiB = 1 << 30
DRIVEDB = "drivedb.h at f1d0da9ce"

WD_SATA = "WD Blue / Red / Green SATA"
_PAGES = FineCounter("nand_pages_written", "media", (247, 248),
                     r"^(Host_Program_Page_Count|FTL_Program_Page_Count|Bckgnd_Program_Page_Cnt)$", "NAND page")

# Samsung 177 Wear_Leveling_Count: normalized = life remaining; raw = average erase cycles (drivedb.h "Samsung based
# SSDs", line 2256, keeps smartctl's default name), on every Samsung SSD but the PM851 OEM drives (their row below).
# A raw equal to the normalised value is the PM851 OEM firmwares' copy of the indicator, not a count: on a drive of
# another row too it is a warning, not a figure (raw_may_copy_normalised).
SAMSUNG_177 = WearAttribute(177, "samsung_177_wear_leveling_count", "Wear_Leveling_Count")
SAMSUNG_ERASES = FineCounter("average_erase_count", "erase", (177,), r"^Wear_Leveling_Count$", "erase cycle",
                             any_name=True, raw_may_copy_normalised=True)
# Samsung's data-centre SATA drives of that entry (its model expressions, line by line: PM863, PM863a, SM863(a),
# PM883, PM893/897 and HPE's PM893): the attributes its comments tag "PM863, PM893". 251 NAND_Writes counts
# 512-byte sectors written to the flash (beside 241 Total_LBAs_Written: the corpus PM863a, PM883, SM863 and PM893
# then write 1.94, 1.82, 2.22 and 1.52 NAND bytes per host byte); 245-247 Timed_Workld_Media_Wear /
# Timed_Workld_RdWr_Ratio / Timed_Workld_Timer carry Intel's E2h-E4h names and are read as Intel's are (1/1024 %,
# percent, minutes), never reset: no Samsung document gives the reset, so ssdwear sends none (every output in the
# corpus holds them at 65535). The 883 DCT and SM883 (same entry) are left out: no output of theirs was at hand.
SAMSUNG_DC_MODEL = (r"SAMSUNG MZ7LM(120|240|480|960|1T9|3T8)HC(JM|HP|GR|FD)-.*|"
                    r"(SAMSUNG )?MZ7LM(240|480|960|1T9|3T8)HM(JP|HQ|LP)(-.*|0D3)|"
                    r"(SAMSUNG )?MZ7KM(120|240|480|960|1T9)H[AM](FD|GR|H[PQ]|J[MP])(-.*|0D3)|"
                    r"SAMSUNG MZ7LH(240|480|960|1T9|3T8|7T6)H[AM](HQ|JR|LT|LA)-.*|"
                    r"SAMSUNG MZ7L3(240|480|960|1T9|3T8|7T6)H(B[LN][AT]|CHQ|CJR)-.*|"
                    r"MK000(240|480|960)G(WCEV|ZXR[AB])")
SAMSUNG_TIMED = TimedWorkload(ids=(245, 246, 247), labels=("attribute 245", "attribute 246", "attribute 247"),
                              span="attributes 245-247", lifetime_source="samsung_245_since_manufacture")

SANDISK_245 = WearAttribute(245, "sandisk_245_drive_life_remaining", "Drive_Life_Remaining%", floor=0)

# 231 SSD_Life_Left: normalised = life remaining, on SandForce's and Phison's drives alike (drivedb.h's entries name
# it so); one used_source for both (the A400s read it under this name before they had a row of their own).
SSD_LIFE_LEFT_231 = WearAttribute(231, "sandforce_231_ssd_life_left", "SSD_Life_Left", floor=0)

# Phison's SATA drives (drivedb.h "Phison Driven SSDs", line 1077, and "Phison Driven OEM SSDs", line 1176, the same
# attributes): 231 SSD_Life_Left the wear indicator, 233 Flash_Writes_GiB the NAND writes, 241/242
# Lifetime_Writes_GiB/Lifetime_Reads_GiB the host's, in GiB: on the corpus KINGSTON SA400S37240G, 241's 5,152 GiB are
# Device Statistics' Logical Sectors Written (2,214,655,550) plus two wraps of 2^32 sectors, to 0.001 %, so that
# statistic wraps there as the MX500's does (host_counters_wrap_at). 244 Average_Erase_Count is read by its name
# (named.NAMED_FINE); 245 Max_Erase_Count and 173 MaxAvgErase_Ct are not read: without a minimum there is no
# between-check for an average (the corpus SA400S37240G prints 173 raw 0 beside 245's 172 at 12 % used).
PHISON_DRIVEDB = f"{DRIVEDB} 'Phison Driven SSDs', line 1077"
PHISON_OEM_DRIVEDB = f"{DRIVEDB} 'Phison Driven OEM SSDs', line 1176"
PHISON_MODEL = (
    r"BP4 mSATA SSD|Corsair Force LE(200)? SSD|CUBEX CS500 (128|256|480|960|1024)GB|DGSR2(128|256|512)GP13T|"
    r"FOXLINE FLSSD(120|128|240|256|480|512|960|1024)X5SE|GIGABYTE GP-GSTFS31((120|240|256|480)G|100T)NTD|"
    r"GOODRAM IRIDIUM PRO|Hoodisk SSD|IRP?-SSDPR-S25[AC]-(120|240|256|480|512|960|0[12]T)|"
    r"KINGSTON O(C|M[48S])P0S3(64|128|256|512)B-[0A]0|KINGSTON RBUSNS(4|8)180S3(32|64|128|256|512)GJ|"
    r"KINGSTON SEDC400S37(400|480|800|960|1600|1800)G|KINGSTON SEDC(450R|500[MR]|600ME?)(480|960|1920|3840|7680)G|"
    r"KINGSTON SM2280S3(G2)?(120|240|480)G|KINGSTON SUV300S37A(120|240|480)G|KINGSTON SKC310S3B?7A960G|"
    r"KINGSTON SKC400S37(128G|256G|512G|1T)|KINGSTON SV310S3(7A|D7|N7A|B7A)960G|"
    r"KINGSTON SHSS3B?7A(120|240|480|960)G|KINGSTON SS200S330G|KINGSTON  ?SA400(M8|S37)(120|240|480|960)G|"
    r"KIOXIA-EXCERIA SATA SSD|MSI S270 (120|240|480|960)GB|Patriot (Blast|Blaze|Flare|Ignite)|"
    r"Patriot Burst( (120|240|480|960)GB)?|PNY CS(900|1311|2211) ((12|2[45]|48|50|96)0G|[12]T)B SSD|PNY ELITE PSSD|"
    r"S11-(128|256|512)G-PHISON-SSD-B27|SSD Smartbuy (60|64|120|128|240|256|480|512|960|1024|2000)GB|"
    r"SSD PHISON (128|256)GB PS3110-S10C|SSDPR-CX400-(128|256|512|1024)|TEAM L3 EVO SSD (120|240|480|960)GB|"
    r"SSM28(128|256|512)GPTCB3B-S11[24]61[123]|SVM2S46(128|256|512)GNPI51UF")
PHISON_OEM_MODEL = (r"Gigastone SSD|GOODRAM|INTENSO|INTENSO SATA III SSD|Kingmax SATA SSD (120|240|480|960)GB|"
                    r"SATA SSD|SPCC Solid State Disk|SSDPR-CX400-(128|256|512|1024|2028)-G2")
PHISON_OEM_FIRMWARE = r"S[89ABH]F[DM][0-9JLTY][0-9A]\.[0-9]"


def _phison(name: str, source: str, model: str, family: str, host_written: Counter, firmware: str | None = None,
            family_alone: str | None = None) -> Family:
    """A row of Phison's attributes (both entries name them alike)."""
    return Family(name, source, model=model, firmware=firmware, family=family, family_alone=family_alone,
                  wear=(SSD_LIFE_LEFT_231,), host_written=(host_written,), host_read=(Counter(242, GiB, "1 GiB"),),
                  nand_written=(Counter(233, GiB, "1 GiB"),), host_counters_wrap_at=2**32 * 512,
                  names={173: "MaxAvgErase_Ct", 231: "SSD_Life_Left", 233: "Flash_Writes_GiB",
                         241: "Lifetime_Writes_GiB", 242: "Lifetime_Reads_GiB", 244: "Average_Erase_Count",
                         245: "Max_Erase_Count", 246: "Total_Erase_Count"},
                  names_from="drivedb.h 'Phison Driven SSDs'")


PHISON_HOST_241 = Counter(241, GiB, "1 GiB")
PHISON_ROWS = (
    # The KIOXIA EXCERIA SATA SSD: the entry doubts 241's unit on it ("KIOXIA-EXCERIA SATA SSD/SBFA18.1: 32MiB ?"),
    # so its 241 is used only where it agrees with Device Statistics' Logical Sectors Written (modulo that
    # statistic's wraps) or, without them, with the wear indicator (counters.doubted_host).
    _phison("Phison (KIOXIA EXCERIA SATA)", PHISON_DRIVEDB, r"KIOXIA-EXCERIA SATA SSD", r"Phison Driven SSDs",
            replace(PHISON_HOST_241, unit_doubted="drivedb.h doubts 241's unit on the KIOXIA EXCERIA SATA SSD "
                                                  "('SBFA18.1: 32MiB ?')")),
    _phison("Phison", f"{PHISON_DRIVEDB}; corpus KINGSTON SA400S37240G, SA400M8120G", PHISON_MODEL,
            r"Phison Driven SSDs", PHISON_HOST_241, family_alone=r"Phison Driven SSDs"),
    _phison("Phison OEM", PHISON_OEM_DRIVEDB, PHISON_OEM_MODEL, r"Phison Driven OEM SSDs", PHISON_HOST_241,
            firmware=PHISON_OEM_FIRMWARE, family_alone=r"Phison Driven OEM SSDs"),
)

FAMILIES: tuple[Family, ...] = (
    # Lenovo's OEM Intel D3-S4510 (drivedb.h "Lenovo OEM Intel D3-S4510 Series SSDs", line 2045; its model expression,
    # printed family): 173 Erase_Cycles_Avg_Max_Mn packs the average, maximum and minimum erase cycles in three 16-bit
    # words (the entry's comment), read as the one between the other two, as Seagate's 173 (the entry's order is not
    # the printed order there). The entry names no timed workload (226-228) and no reset: none is read or sent.
    Family("Lenovo OEM Intel D3-S4510", f"{DRIVEDB} 'Lenovo OEM Intel D3-S4510 Series SSDs', line 2045",
           model=r"SSDSC(?:2K|KK)[BG](?:240G|480G|960G|019T|038T|076T)8L[ ]+[^ ]+LEN",
           family=r"Lenovo OEM Intel D3-S4510 Series SSDs",
           fine=(FineCounter("average_erase_count", "erase", (173,), r"^Erase_Cycles_Avg_Max_Mn$", "erase cycle",
                             raw16_average=True),),
           names={100: "Gigabytes_Erased", 173: "Erase_Cycles_Avg_Max_Mn", 177: "Wear_Delta_Avg_Max_Min"},
           names_from="drivedb.h 'Lenovo OEM Intel D3-S4510 Series SSDs'"),
    # Samsung PM851 OEM (drivedb.h's PM851 model expression, line 2300, in the entry of line 2256): 177's raw is its
    # normalised value, not an average erase count, on both firmwares seen: the corpus MZ7TE256HMHP-00000 on EXT0100Q
    # reads 098/98 at 57,026 hours and 095/95 at 69,842 (read as a count, its erases would have fallen as the wear
    # rose), linuxhw/EnterpriseDrive SSD/Samsung/MZ7/MZ7TE256HMHP-00004/4258984E1B4D on EXT0300Q 092/92 (179
    # Used_Rsvd_Blk_Cnt_Tot is 100/100 on all three). Only the normalised 177 is read; 241 counts sectors.
    Family("Samsung PM851 OEM", f"{DRIVEDB} 'Samsung based SSDs', line 2256 (its PM851 model expression); corpus "
           "MZ7TE256HMHP-00000 (EXT0100Q), linuxhw/EnterpriseDrive MZ7TE256HMHP-00004 (EXT0300Q)",
           model=r"SAMSUNG MZ[7N]TE(128|256|512)HM(HP|JH)-.*", family=r"Samsung based SSDs", wear=(SAMSUNG_177,)),
    Family("Samsung data-centre SATA (PM863/PM863a/SM863/PM883/PM893)",
           f"{DRIVEDB} 'Samsung based SSDs', line 2256 (its PM863, PM863a, SM863(a), PM883, PM893/897 and HPE "
           "models; the attributes tagged 'PM863, PM893'); corpus MZ7LM240HMHQ, MZ7KM480HMHQ, MZ7LH960HAJR, "
           "MZ7L3240HCHQ",
           model=SAMSUNG_DC_MODEL, family=r"Samsung based SSDs", wear=(SAMSUNG_177,), fine=(SAMSUNG_ERASES,),
           nand_written=(Counter(251, 512, "512 B"),), timed=SAMSUNG_TIMED,
           names={243: "SATA_Downshift_Ct", 244: "Thermal_Throttle_St", 245: "Timed_Workld_Media_Wear",
                  246: "Timed_Workld_RdWr_Ratio", 247: "Timed_Workld_Timer", 251: "NAND_Writes"},
           names_from="drivedb.h 'Samsung based SSDs'"),
    Family("Samsung", f"{DRIVEDB} 'Samsung based SSDs', line 2256", model=r"(?i).*samsung.*|MZ[0-9A-Z]{2}.*",
           family_alone=r"(?s).*Samsung.*", wear=(SAMSUNG_177,), fine=(SAMSUNG_ERASES,)),
    # Crucial/Micron 202 Percent_Lifetime_Remain; 246 = Total_LBAs_Written (unnamed on some 5200 firmwares); 247/248
    # program pages and 173 average block erases (drivedb.h "Crucial/Micron Client SSDs", line 534, and "Micron 5100 /
    # 52x0 / 5300 / 5400 SSDs", line 812).
    Family("Crucial/Micron", f"{DRIVEDB} 'Crucial/Micron Client SSDs' (line 534), 'Micron 5100 / 52x0 / 5300 / 5400 "
           "SSDs' (line 812)", model=r"(?i)(?:crucial|micron|CT\d+(?:MX|BX|M5|P)|MTFD).*",
           wear=(WearAttribute(202, "crucial_202_percent_lifetime_remain", "Percent_Lifetime_Remain", floor=0,
                               wraps_past_100=True),),
           fine=(_PAGES, FineCounter("average_erase_count", "erase", (173,), AVERAGE_ERASE_173, "erase cycle")),
           host_written=(Counter(241, lba_names=("Total_LBAs_Written",)),
                         Counter(225, lba_names=("Total_LBAs_Written",)),
                         Counter(246, lba_names=("Total_LBAs_Written",), sectors_as="Micron Total_LBAs_Written")),
           host_counters_wrap_at=2**32 * 512),
    # Phison's own and OEM entries (drivedb.h "Phison Driven SSDs", line 1077, and "Phison Driven OEM SSDs", line
    # 1176: their model expressions, the OEM one's firmware expression), before the broad Kingston row below: Kingston's
    # A400, DC400, DC450R/DC500/DC600M, UV300, KC310/KC400, V310, HyperX Savage are Phison drives there (the SandForce
    # V300/KC100 and the UV400/500 are other entries).
    *PHISON_ROWS,
    # SandForce-derived (Kingston, Seagate Nytro) 231 SSD_Life_Left: normalized = remaining.
    Family("SandForce (Kingston, Seagate Nytro)", f"{DRIVEDB} 'SandForce Driven SSDs' (line 937; 884, 910)",
           model=r"(?i).*kingston.*|XA\d{3,4}[A-Z]{2}\d.*",
           family_alone=r"(?is).*(?:sandforce|Seagate Nytro|Kingston).*",
           wear=(SSD_LIFE_LEFT_231,), controller="SandForce"),
    # WD Blue / Red / Green SATA SSDs (drivedb.h "WD Blue / Red / Green SSDs"; the 4 TB Red SA500 WDS400T1R0A only
    # since its commit 8fdde1fcb, not in smartctl 7.3's): 241/242 Host_Writes_GiB/Host_Reads_GiB count GiB (the
    # corpus WDS200T1R0A: 121,390 GiB = Device Statistics' Logical Sectors Written x 512 within 0.01 %).
    Family(WD_SATA, f"{DRIVEDB} 'WD Blue / Red / Green SSDs', line 5616",
           model=r"(?:WDC\s+WDS\d{3}[GT]\d[BGR]\d[AB]|WDC WDBNCE|WD (?:Green|Blue SA5[01]0|Red SA5[01]0)\b).*",
           fine=(FineCounter("average_erase_count", "erase", (173,), r"^Average_PE_Cycles_TLC$", "erase cycle",
                             any_name=True),),
           host_written=(Counter(241, GiB, "1 GiB"),), host_read=(Counter(242, GiB, "1 GiB"),),
           names={165: "Block_Erase_Count", 166: "Minimum_PE_Cycles_TLC", 167: "Max_Bad_Blocks_per_Die",
                  168: "Maximum_PE_Cycles_TLC", 169: "Total_Bad_Blocks", 170: "Grown_Bad_Blocks",
                  173: "Average_PE_Cycles_TLC", 233: "NAND_GB_Written_TLC", 234: "NAND_GB_Written_SLC",
                  241: "Host_Writes_GiB", 242: "Host_Reads_GiB"},
           names_from="drivedb.h 'WD Blue / Red / Green SSDs'"),
    # SanDisk CloudSpeed Max and GEN2 (drivedb.h's model expression and names): 178 SSD_LifeLeft(0.01%), raw = life
    # remaining in 0.01 % steps (the corpus SDLF1DAR-480G-1HA1: 9224, 7.76 % used, beside Device Statistics' 7 % and
    # 245's 93), the finer reading of the same wear; 204 Average_Block-Erase_Ct its average erase count (no rated
    # count printed). The entry gives no units: 241 Total_LBAs_Written counts GB on that drive (142,208 against
    # Device Statistics' 142.24 TB, 0.02 % apart); 233 Lifetime_Nand_Writes is not read: in GB it would make a write
    # amplification of 2.06, in GiB 2.21, where the drive's own 32 Lifetime_Write_AmpFctr reads 252.
    Family("SanDisk CloudSpeed Max / GEN2 ESS", f"{DRIVEDB} 'Sandisk SATA Cloudspeed Max and GEN2 ESS SSDs', "
           "line 2472; corpus SDLF1DAR-480G-1HA1", model=r"SD[A-Z0-9]{2}[1-3][A-Z]{3}-?[0-9]{3}[GT]-?1[A-Z0-9]{3}",
           family=r"Sandisk SATA Cloudspeed Max and GEN2 ESS SSDs",
           wear=(SANDISK_245,),
           remaining=(RawRemaining(178, "SSD_LifeLeft(0.01%)", "sandisk_178_life_left", step=0.01),),
           fine=(FineCounter("average_erase_count", "erase", (204,), r"^Average_Block-Erase_Ct$", "erase cycle"),),
           host_written=(Counter(241, 1_000_000_000, "1 GB"),)),
    # SanDisk's other SATA SSDs: 245 Drive_Life_Remaining%.
    Family("SanDisk", f"{DRIVEDB} 'Sandisk SATA Cloudspeed Max and GEN2 ESS SSDs', line 2472",
           model=r"(?i)(?:SanDisk|SD[A-Z]{2,5}\d).*",
           wear=(SANDISK_245,)),
    # Innodisk 3ME3/3ME4/3IE3/3IE4 (drivedb.h "Innodisk 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs"; smartctl 6.6 has no entry
    # for the 3ME4 and prints Unknown_Attribute): 169 Remaining_Lifetime_Perc, raw = % of life remaining, as SONiC's
    # sonic-platform-common (ssd_generic.py, INNODISK_HEALTH_ID 169) reads it; 167 average of 165's maximum erase
    # counts, 168 is no rating there; 241/242 in 32 MiB.
    Family("Innodisk 3ME3/3ME4/3IE3/3IE4", f"{DRIVEDB} 'Innodisk 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs', line 1462",
           model=r'(?:2\.5" SATA SSD|CFast|Mini PCIeDOM|(?:InnoDisk Corp\. - )?mSATA(?: mini)?|'
                 r"M\.2 \(S42\)|SATA Slim|SATADOM-[MS][HLV](?: Type [CD])?) (?:1IE3|3[IM]E[34])(?: V2)?",
           names={165: "Max_Erase_Count", 167: "Average_Erase_Count", 168: "SATA_PHY_Error_Count",
                  169: "Remaining_Lifetime_Perc", 241: "Host_Writes_32MiB", 242: "Host_Reads_32MiB"},
           names_from="drivedb.h 'Innodisk 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs'"),
    # ATP SATA III Superior Line, firmware T0205B/U0316B (drivedb.h "ATP SATA III Superior Line SSDs"; the entry's
    # firmware: its Value Line shares models): 248 Percent_Lifetime_Remain, raw = % remaining (named.NAMED_REMAINING);
    # 235 host sectors written, 241 NAND sectors written.
    Family("ATP SATA III Superior Line", f"{DRIVEDB} 'ATP SATA III Superior Line SSDs', line 375",
           model=r"ATP (?:SATA ?III|I-Temp\. SATA ?III) (?:M\.2 (?:2242|2280)|mSATA|2\.5 inch) SSD",
           firmware=r"T0205B|U0316B",
           host_written=(Counter(235, lba_names=("Sectors_Written_to_SSD",)),),
           nand_written=(Counter(241, lba_names=("Sectors_Written_to_NAND",)),),
           names={175: "Average_Erase_Count", 235: "Sectors_Written_to_SSD", 241: "Sectors_Written_to_NAND",
                  242: "Sectors_Read_from_SSD", 248: "Percent_Lifetime_Remain"},
           names_from="drivedb.h 'ATP SATA III Superior Line SSDs'"),
    # ATP I-Temp M.2 aMLC (drivedb.h "ATP SATA III aMLC M.2 2242/80 Embedded SSDs"): 248 PCT_Life_Remaining.
    Family("ATP aMLC M.2 Embedded", f"{DRIVEDB} 'ATP SATA III aMLC M.2 2242/80 Embedded SSDs', line 412",
           model=r"ATP I-Temp M\.2 22(?:42|80)",
           host_written=(Counter(235, lba_names=("Device_Sectors_Written",)),),
           nand_written=(Counter(241, lba_names=("Nand_Sectors_Written",)),),
           names={175: "Average_Erase_Count", 235: "Device_Sectors_Written", 241: "Nand_Sectors_Written",
                  248: "PCT_Life_Remaining"},
           names_from="drivedb.h 'ATP SATA III aMLC M.2 2242/80 Embedded SSDs'"),
    # Swissbit X-7x (drivedb.h "Swissbit X-7x Family SATA SSD"): 248 SSD_Remaining_Life_Perc, raw = % remaining.
    Family("Swissbit X-7x", f"{DRIVEDB} 'Swissbit X-7x Family SATA SSD', line 203",
           model=r"SFSA.{4}[MQSUV].AK.T[ABO].{13}",
           names={165: "Maximum_Erase_Count", 167: "Average_Erase_Count", 168: "Rated_Erase_Count",
                  231: "Life_Remaining_Percent", 248: "SSD_Remaining_Life_Perc"},
           names_from="drivedb.h 'Swissbit X-7x Family SATA SSD'"),
    # Virtium StorFly on Silicon Motion's attribute layout (drivedb.h "Silicon Motion based SSDs": 165, 167
    # Average_Erase_Count of 168 Max_Erase_Count_of_Spec, 241/242 in 32 MiB; Virtium's SmartCmd names 168
    # NAND_Endurance, as quoted in SONiC's tests/test_ssd.py) with 248 Lifetime_Remaining% (drivedb.h "StorFly CFast
    # SATA 6Gbps SSDs", firmware after 0409), raw = % remaining: a StorFly VSF302XC016G at 167 = 2,444 of 20,000
    # reads 248 = 88, and its 241 x 32 MiB = 21 TB against 39 TB of erases (x 16 GB) is a write amplification of 1.9.
    # Virtium's newer models drop the 'StorFly ' prefix, and differ.
    Family("Virtium StorFly", f"{DRIVEDB} 'Silicon Motion based SSDs' (line 2524), 'StorFly CFast SATA 6Gbps SSDs' "
           "(line 1061)", model=r"StorFly VSF.*",
           names={165: "Max_Erase_Count", 167: "Average_Erase_Count", 168: "Max_Erase_Count_of_Spec",
                  241: "Host_Writes_32MiB", 242: "Host_Reads_32MiB", 248: "Lifetime_Remaining%"},
           names_from="drivedb.h 'Silicon Motion based SSDs' and 'StorFly CFast SATA 6Gbps SSDs'"),
    # Silicon Motion's own and OEM entries (drivedb.h "Silicon Motion based SSDs", line 2524, and "Silicon Motion
    # based OEM SSDs", line 2703), by the family smartctl prints (their model lists are long, and a smartctl without
    # them prints none of these names): 245 TLC_Writes_32MiB plus 246 SLC_Writes_32MiB are the NAND writes. The entry
    # doubts 245's unit on one member (its comment: "TS128GMSA370I: Flash Write Sector Count"), so the sum is used
    # only where it agrees with the wear indicator (counters.doubted_unit): on the corpus Transcend TS32GMTS400,
    # 136,733 x 32 MiB is 143 full writes of its 32 GB at 169's 4 % used, a rated 2,866-3,582 cycles, beside its own
    # 168 Max_Erase_Count_of_Spec of 3,000 (and 167's 132 average erases, 4.4 %); write amplification 4.52. The OEM
    # entry's comments also doubt 241/242 "not 32MiB" on some models: host writes in a vendor attribute are held to
    # the drive's hours and wear already (counters.too_small), and Device Statistics come first where printed.
    Family("Silicon Motion", f"{DRIVEDB} 'Silicon Motion based SSDs' (line 2524), 'Silicon Motion based OEM SSDs' "
           "(line 2703); corpus TS32GMTS400", family_alone=r"Silicon Motion based (?:OEM )?SSDs",
           nand_written=(Counter(245, name_must_match=r"^(?:TLC|SLC)_Writes_32MiB$", plus=(246,),
                                 unit_doubted="drivedb.h doubts 245's unit on some Silicon Motion drives "
                                              "('TS128GMSA370I: Flash Write Sector Count')"),)),
    # Seagate BarraCuda (120) and IronWolf (Pro) 125 SSDs (drivedb.h "Seagate BarraCuda series SSD", line 5441, and
    # "Seagate IronWolf (Pro) 125 SSDs", line 5555: the same attributes): 173 Max/Avg/Min_Erase_Ct packs three erase
    # counts in 16-bit words, and the average is the one between the other two (the real IronWolf ZA500NM10002 in
    # the corpus: 0x5003f004c, words 5, 63, 76 highest first, not in the name's order; 63 erase cycles at 3 % used);
    # 233 Flash_Writes_GiB the NAND writes (24,830 GiB, as its 235 Flash_Writes_Sectors x 512 within 0.01 %: write
    # amplification 1.55), 241/242 Host_Writes_GiB/Host_Reads_GiB (16,025 GiB = Device
    # Statistics' Logical Sectors Written x 512). smartctl 7.1 knew neither entry and printed its defaults (names).
    Family("Seagate BarraCuda / IronWolf 125", f"{DRIVEDB} 'Seagate BarraCuda series SSD' (line 5441), 'Seagate "
           "IronWolf (Pro) 125 SSDs' (line 5555); corpus IronWolf ZA500NM10002-2ZG101",
           model=r"Seagate (?:SSD|BarraCuda (?:120 )?SSD ZA(?:250|500|1000|2000)CM1000[23])|"
                 r"Seagate IronWolf ZA(?:250|500|1000|2000|4000)NM10002-.*|"
                 r"Seagate IronWolfPro ZA(?:240|480|960|1920|3840)NX10001-.*",
           fine=(FineCounter("average_erase_count", "erase", (173,), r"^Max/Avg/Min_Erase_C(?:ount|t)$", "erase cycle",
                             raw16_average=True),),
           host_written=(Counter(241, GiB, "1 GiB"),), host_read=(Counter(242, GiB, "1 GiB"),),
           nand_written=(Counter(233, GiB, "1 GiB"), Counter(235, lba_names=("Flash_Writes_Sectors",))),
           names={173: "Max/Avg/Min_Erase_Ct", 233: "Flash_Writes_GiB", 235: "Flash_Writes_Sectors",
                  241: "Host_Writes_GiB", 242: "Host_Reads_GiB"},
           names_from="drivedb.h 'Seagate IronWolf (Pro) 125 SSDs'"),
    # Maxio-based drives (drivedb.h "Maxio based SSDs (variant 1)" to "(variant 4)", lines 606, 647, 708, 748), by
    # the family smartctl prints (their entries match generic model strings by firmware): the average erase count is
    # 208 Avg_Erase_Count (variants 1, 2) or 167 Average_Erase_Count (variants 3, 4), without a rated count (168 is
    # SATA_PHY_Error_Count there): calibrated from the indicator, as any unrated counter.
    Family("Maxio", f"{DRIVEDB} 'Maxio based SSDs (variant 1)' (line 606), 'Maxio based SSDs (variant 2)' "
           "(line 647), 'Maxio based SSDs (variant 3)' (line 708), 'Maxio based SSDs (variant 4)' (line 748)",
           family_alone=r"Maxio based SSDs \(variant [1-4]\)",
           fine=(FineCounter("average_erase_count", "erase", (208,), r"^Avg_Erase_Count$", "erase cycle"),
                 FineCounter("average_erase_count", "erase", (167,), r"^Average_Erase_Count$", "erase cycle"))),
    # SSSTC ER2/ER3/ER4/ER5 (drivedb.h "SSSTC ERX GD/CD Series SSDs", line 2858, its model expressions): 173
    # Average_PE_Count is the average erase count; 243 the NAND writes in GiB, a unit the entry doubts (it names 243
    # Total_NAND_Written, "// GiB?"; smartctl 7.4's older copy named it NAND_Writes_GiB), so used only where it
    # agrees with the indicator (the corpus ER2-GD480: 733 GiB, 1.64 full writes at 0 % used, beside 173's 1 average
    # erase). 241 Total_LBAs_Written and 242 Total_LBAs_Read have no unit in the entry (in 512-byte sectors 241's
    # 1,134 would be 581 kB in 1,829 hours, in GiB more than the NAND writes): not read.
    Family("SSSTC ERX GD/CD", f"{DRIVEDB} 'SSSTC ERX GD/CD Series SSDs', line 2858; corpus SSSTC ER2-GD480",
           model=r"(?:SSSTC|SATA) ER[2-9]-[CG]D(?:(?:240|480|960|1920|3840|7680|15360)G?|1T92|3T84)A?|"
                 r"AF[2-9]MA31DT[ED]LT(?:240|480|960|1920|3840|7680|15360)A?",
           fine=(FineCounter("average_erase_count", "erase", (173,), r"^Average_PE_Count$", "erase cycle"),),
           host_written=(), host_read=(),
           nand_written=(Counter(243, GiB, "1 GiB",
                                 unit_doubted="drivedb.h's entry doubts 243's unit ('Total_NAND_Written // GiB?')"),)),
    # Toshiba SG6 (KSG60ZMV/KSG60ZSE), in no drivedb.h entry and no public datasheet: in real outputs (linuxhw/SMART,
    # SSD/Toshiba/KSG60) 177 Wear_Leveling_Count normalised 095 and 093 sit beside Device Statistics' Percentage Used
    # 6 and 10 %, and 241/242 x 32 MiB equal Logical Sectors Written/Read x 512 to within 0.01 %.
    Family("Toshiba SG6", "real outputs: linuxhw/SMART SSD/Toshiba/KSG60 (no drivedb.h entry)",
           model=r"TOSHIBA KSG60Z[A-Z]{2}\d{3}G\b.*",
           wear=(WearAttribute(177, "toshiba_177_wear_leveling_count", "Wear_Leveling_Count"),),
           host_written=(Counter(241, 32 * MiB, "32 MiB"),), host_read=(Counter(242, 32 * MiB, "32 MiB"),)),
    # SK hynix's client SATA drives and the Gold S31 (drivedb.h "SK hynix SATA SSDs", line 3479, its model
    # expressions): 241 Total_Writes_GB counts GB (the entry: "SC31: ~GB, not GiB (#1517)"; the corpus SHGS31-1000GS-2:
    # 114,040 = Device Statistics' Logical Sectors Written x 512 / 10^9 to the GB); the average erase count is 173
    # Wear_Leveling_Count (the entry's name) or, on the S31, which prints no 173, 177 at smartctl's default name
    # Wear_Leveling_Count (the entry leaves 177 unnamed): read only where it lies between the entry's 168
    # Min_Erase_Count and 169 Max_Erase_Count (the S31: 116 <= 149 <= 180, at 4 % used). 234 Unknown_SK_hynix_Attrib
    # is not read: the entry gives it no name or unit (161,847 on the S31 would be a write amplification of 1.42 in
    # GB, 1.52 in GiB). 233 Media_Wearout_Indicator as the broad row below.
    Family("SK hynix client SATA / Gold S31", f"{DRIVEDB} 'SK hynix SATA SSDs', line 3479; corpus SHGS31-1000GS-2",
           model=r"SK ?hynix (?:SC(?:210|300|308|311|313|401)|SH920) .*|"
                 r"HFS(?:128|256|512)G3[29A]MN[BD]-(?:2200|3[23]10)A|HFS(?:128|256|512)G3[29]MND-3(?:312|510)A|"
                 r"HFS(?:128|256|512)G39TND-N210A|HFS(?:120|250|500)G32TND-N1A2A|HFS(?:128|256|512)G32TNF-N3A0A|"
                 r"SHGS31-(?:250|500|1000)GS-2",
           family=r"SK hynix SATA SSDs", wear=(WearAttribute(233, "media_wearout_233", "Media_Wearout_Indicator"),),
           fine=tuple(FineCounter("average_erase_count", "erase", (i,), r"^Wear_Leveling_Count$", "erase cycle",
                                  between=(168, 169)) for i in (173, 177)),
           host_written=(Counter(241, 1_000_000_000, "1 GB"),), host_read=(Counter(242, 1_000_000_000, "1 GB"),),
           names={100: "Total_Erase_Count", 168: "Min_Erase_Count", 169: "Max_Erase_Count", 173: "Wear_Leveling_Count",
                  234: "Unknown_SK_hynix_Attrib", 241: "Total_Writes_GB", 242: "Total_Reads_GB"},
           names_from="drivedb.h 'SK hynix SATA SSDs'"),
    # SK hynix's data-centre SATA drives (drivedb.h "SK hynix SATA SSDs", line 3542, its model expressions): 241
    # Lifetime_NAND_Prg_GiB is the NAND writes, not the host's (the broad row read it as host writes, by its GiB
    # name), 235 Lifetime_Writes_GiB the host writes, 242 Lifetime_Reads_GiB the host reads. The entry doubts its own
    # name for 234 ("Lifetime_NAND_Prg_GiB // ?", the same name as 241): not read. 173 is Max_Erase_Count there, no
    # average: not read either.
    Family("SK hynix data-centre SATA (SE5110, HFS...FEH)", f"{DRIVEDB} 'SK hynix SATA SSDs', line 3542",
           model=r"HFS(?:480|960|1T9|3T8)G3[2E]FEH-[7B][4A]10A|HFS(?:480|960|1T9|3T8)G3H2X069N|"
                 r"SK HYNIX SE5110 (?:480|960|1920|3840)GB ZIRCON LITE 3DTLC",
           family=r"SK hynix SATA SSDs", wear=(WearAttribute(233, "media_wearout_233", "Media_Wearout_Indicator"),),
           host_written=(Counter(235, name_must_match=r"^Lifetime_Writes_GiB$"),),
           host_read=(Counter(242, name_must_match=r"^Lifetime_Reads_GiB$"),),
           nand_written=(Counter(241, name_must_match=r"^Lifetime_NAND_Prg_GiB$"),),
           names={173: "Max_Erase_Count", 177: "Endurance_Limit_Met", 231: "SSD_Life_Left",
                  234: "Lifetime_NAND_Prg_GiB", 235: "Lifetime_Writes_GiB", 241: "Lifetime_NAND_Prg_GiB",
                  242: "Lifetime_Reads_GiB", 245: "SSD_Life_Left"},
           names_from="drivedb.h 'SK hynix SATA SSDs' (line 3542)"),
    # SK hynix and Toshiba SATA SSDs: 233 Media_Wearout_Indicator normalized = remaining.
    Family("SK hynix / Toshiba", f"{DRIVEDB} 'SK hynix SATA SSDs' (line 3479; 3542); Toshiba's SATA SSDs in the "
           "corpus", model=r"(?i)(?:SH[GY]S|HFS\d).*|.*SK ?hynix.*|(?:TOSHIBA (?:KHK|THNS|HK\d)|KHK|THNSN).*",
           wear=(WearAttribute(233, "media_wearout_233", "Media_Wearout_Indicator"),)),
)
