"""What attributes mean by their drive-database names, on every family: the generic row (a drive no family matches,
and the counters a family's row leaves unsaid) and the raw "% remaining" attributes and finer counters that
smartctl's drive database names alike wherever it names them (the names come only from the entries cited)."""

from __future__ import annotations

import re

from ssdwear.model.family import Counter, Family, FineCounter, RawRemaining
from ssdwear.model.records import Attribute

# What every family's attributes say by their drive-database names, where its row says nothing else: 241/225
# Total_LBAs_Written in logical sectors, a unit in the name (_32MiB, _1GiB, _GB), 233/243/249 NAND or flash writes.
NAND_NAME = r"nand|flash|flsh"  # names of NAND write counters
GENERIC = Family(
    "generic", "smartctl's default attribute names (drivedb.h 'DEFAULT') and the units drive-database names carry",
    interfaces=("ata", "nvme", "scsi", "unknown"), solid_state=False,
    host_written=(Counter(241, lba_names=("Total_LBAs_Written",)), Counter(225, lba_names=("Total_LBAs_Written",)),
                  Counter(246)),
    host_read=(Counter(242, lba_names=("Total_LBAs_Read",)),),
    nand_written=tuple(Counter(i, name_must_match=NAND_NAME) for i in (233, 243, 249)))

# Raw values that count % of life remaining, by drive-database name on every family (raw48 in every entry named; the
# normalised value is not it).
NAMED_REMAINING = (
    # drivedb.h "Silicon Motion based SSDs" (ADATA SU650/SP550, Transcend, Kingston KC600, ...), "Innodisk
    # 1IE3/3IE3/3ME3/3IE4/3ME4 SSDs", "Innodisk 3IE2/3ME2/3MG2/3SE2/3TG6 SSDs"
    RawRemaining(169, "Remaining_Lifetime_Perc", "smi_169_remaining_lifetime"),
    RawRemaining(248, "Percent_Lifetime_Remain", "atp_248_percent_lifetime_remain"),  # "ATP SATA III Superior Line"
    RawRemaining(248, "PCT_Life_Remaining", "atp_248_percent_lifetime_remain"),  # "ATP SATA III aMLC M.2 ..."
    RawRemaining(248, "SSD_Remaining_Life_Perc", "swissbit_248_remaining_life"),  # "Swissbit X-7x Family SATA SSD"
    RawRemaining(248, "Lifetime_Remaining%", "storfly_248_lifetime_remaining"),  # "StorFly CFast SATA 6Gbps SSDs"
)

# Finer counters recognised by their drive-database name alone, on every family (the names come only from the
# entries cited): "Silicon Motion based SSDs" 167 Average_Erase_Count of 168 Max_Erase_Count_of_Spec (the rated
# count), "Indilinx Barefoot 3 based SSDs" 208 Average_Erase_Count of 205 Max_Rated_PE_Count and "Indilinx
# Barefoot_2/Everest/Martini based SSDs" 205 Max_PE_Count_Spec, 173 as the entries below name it, "Phison Driven SSDs"
# 244 Average_Erase_Count.
AVERAGE_ERASE_173 = r"^(Ave_Block-Erase_Count|Avg_Block-Erase_Count|Average_PE_Cycles_TLC|Avg_Write/Erase_Count|" \
                    r"Avg_Program/Erase_Ct|Average_PE_Cycles)$"
NAMED_FINE = (
    FineCounter("average_erase_count", "erase", (167,), r"^Average_Erase_Count$", "erase cycle", rated_id=168,
                rated_names=r"^Max_Erase_Count_of_Spec$"),
    FineCounter("average_erase_count", "erase", (208,), r"^Average_Erase_Count$", "erase cycle", rated_id=205,
                rated_names=r"^(Max_Rated_PE_Count|Max_PE_Count_Spec)$"),
    FineCounter("average_erase_count", "erase", (173,), AVERAGE_ERASE_173, "erase cycle"),
    FineCounter("average_erase_count", "erase", (244,), r"^Average_Erase_Count$", "erase cycle"),
)




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
