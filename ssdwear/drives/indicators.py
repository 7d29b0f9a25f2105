"""Lifetime wear indicators: what each of a drive's indicators says about its wear, read by the table in
vendors.py (which attribute means what on which family), with notes on the ones ignored and warnings where an
indicator contradicts the drive's own counters."""

from __future__ import annotations

from typing import NamedTuple

from ssdwear.model.records import DEVSTAT_PERCENT_USED, Attribute, Snapshot

from .vendors import (
    PERCENTAGE_USED_MAX,
    RATED_ERASE_RANGE,
    TRUST_STANDARD,
    TRUST_VENDOR,
    RawRemaining,
    UsedReading,
    WearAttribute,
    disagreement,
    profile,
    raw_remaining,
    sandforce_based,
    used_at,
)


def _wear_reading(wear: WearAttribute, attr: Attribute) -> UsedReading | None:
    if wear.wraps_past_100 and attr.value is not None and attr.value > 100:
        if attr.raw is not None and 100 <= attr.raw <= 1000:
            return UsedReading(wear.source, float(attr.raw), False, f"attribute {attr.id} normalized {attr.value} "
                               f"(wrapped), raw {attr.raw} = percent used", TRUST_VENDOR)
        return None
    if attr.value is None or not 0 <= attr.value <= 100:
        return None
    return UsedReading(source=wear.source, percent=used_at(wear, attr.value), at_least=attr.value <= wear.floor,
                       detail=f"attribute {attr.id} {wear.label} normalized {attr.value:03d}", trust=TRUST_VENDOR,
                       step=1 / wear.divisor)


class Readings(NamedTuple):
    """What a drive's lifetime wear indicators say: the readings (most trustworthy first), notes on the ones
    ignored, and warnings where an indicator contradicts the drive's own counters."""

    readings: list[UsedReading]
    notes: list[str]
    warnings: list[str]


# Erase counts that rate wear where a raw "% remaining" (vendors.RAW_REMAINING) says otherwise: Silicon Motion's
# 167 Average_Erase_Count of 168 Max_Erase_Count_of_Spec, the drive's rated P/E cycles (drivedb.h "Silicon Motion
# based SSDs"; the names come only from that entry, or from a family's names: vendors.VendorProfile.names).
SMI_ERASE_NAMES = {167: "Average_Erase_Count", 168: "Max_Erase_Count_of_Spec"}


def _raw_remaining(attr: Attribute, entry: RawRemaining) -> UsedReading | None:
    if attr.raw is None or not 0 <= attr.raw <= 100:
        return None
    return UsedReading(entry.source, float(100 - attr.raw), attr.raw == 0,
                       f"attribute {attr.id} {attr.name} raw {attr.raw}", TRUST_VENDOR)


def _smi_erase_counts(snap: Snapshot) -> UsedReading | None:
    """Wear from the erase counters: average erase count over the rated count, as a percentage."""
    average, rated = (snap.attr(i) for i in SMI_ERASE_NAMES)
    if (average is None or rated is None or average.name != SMI_ERASE_NAMES[167]
            or rated.name != SMI_ERASE_NAMES[168] or average.raw is None or rated.raw is None
            or not RATED_ERASE_RANGE[0] <= rated.raw <= RATED_ERASE_RANGE[1]):
        return None
    return UsedReading("smi_167_average_erase_count", round(average.raw / rated.raw * 100, 2), False,
                       f"attribute 167 Average_Erase_Count {average.raw:,} of 168 Max_Erase_Count_of_Spec "
                       f"{rated.raw:,} rated erase cycles", TRUST_VENDOR, step=100 / rated.raw)


def _unrated_contradiction(snap: Snapshot, attr: Attribute) -> str | None:
    """What contradicts a raw 0 ('worn out') on a drive that prints no rated erase count (no 168): its own
    normalised value at 100 beside an average erase count (167) below the fewest cycles any NAND is rated for (the
    ADATA SU650 at 169 raw 0, normalised 100, 167 = 55, 165 Max_Erase_Count = 60). None when nothing does: a worn
    drive's blocks have averaged at least its rating, and a normalised value that follows the raw one agrees."""
    average, most = snap.attr(167), snap.attr(165)
    if attr.raw != 0 or attr.value != 100 or average is None or average.name != SMI_ERASE_NAMES[167] \
            or average.raw is None or average.raw >= RATED_ERASE_RANGE[0]:
        return None
    peak = f" and the most-erased block {most.raw:,} (165 Max_Erase_Count)" \
        if most is not None and most.name == "Max_Erase_Count" and most.raw is not None else ""
    return (f"its own normalised value is 100, and its blocks average {average.raw:,} erase cycles (167 "
            f"Average_Erase_Count){peak}, fewer than any NAND is rated for ({RATED_ERASE_RANGE[0]})")


def _remaining_reading(snap: Snapshot, attr: Attribute, entry: RawRemaining, warnings: list[str]
                       ) -> UsedReading | None:
    """A raw '% remaining' when the drive's own erase counters agree with it (or it has none); where they
    contradict it (raw 0, 'worn out', beside an average erase count of 55 of a rated 1,000), the erase counts."""
    remaining = _raw_remaining(attr, entry)
    erase = _smi_erase_counts(snap)
    if remaining is not None and erase is None and (unrated := _unrated_contradiction(snap, attr)):
        warnings.append(f"wear indicator not used: {remaining.detail} means ≥ 100 % used, but {unrated}: "
                        f"attribute {attr.id} is not used")
        return None
    if remaining is None or erase is None or not disagreement(remaining, erase):
        return remaining
    shown = f"{'≥ ' if remaining.at_least else ''}{remaining.percent:g} %"
    warnings.append(f"wear indicators disagree: {remaining.detail} means {shown} used, but the drive's erase "
                    f"counters ({erase.detail}) mean {erase.percent:g} %; attribute {attr.id} is not used")
    return erase


def ata_used_readings(snap: Snapshot) -> Readings:
    """Every lifetime wear reading an ATA drive offers, most trustworthy first, notes on ignored ones and
    warnings on contradicted ones."""
    readings: list[UsedReading] = []
    notes: list[str] = []
    warnings: list[str] = []
    entry = snap.devstats.get(DEVSTAT_PERCENT_USED)
    if entry is not None:
        if not entry.valid or entry.value is None:
            notes.append("Device Statistics 'Percentage Used Endurance Indicator' is marked not valid")
        elif entry.value == 255:
            notes.append("Device Statistics 'Percentage Used Endurance Indicator' reads 255, which SandForce-based "
                         "firmwares print for 'not valid'; ignored" if sandforce_based(snap) else
                         "Device Statistics 'Percentage Used Endurance Indicator' reads 255, the field's largest "
                         "value, which does not say how much is used; ignored")
        else:
            readings.append(UsedReading("ata_devstat_percentage_used", float(entry.value), False,
                                        f"Device Statistics page 0x07 'Percentage Used Endurance Indicator' "
                                        f"= {entry.value}", TRUST_STANDARD))
    for wear in profile(snap).wear:
        attr = snap.attr(wear.id)
        reading = _wear_reading(wear, attr) if attr is not None else None
        if reading is not None:
            readings.append(reading)
    for attr in snap.attributes.values():
        remaining = raw_remaining(attr)
        reading = _remaining_reading(snap, attr, remaining, warnings) if remaining is not None else None
        if reading is not None:
            readings.append(reading)
    readings.sort(key=lambda r: r.trust)
    return Readings(readings, notes, warnings)


def nvme_used_readings(snap: Snapshot) -> list[UsedReading]:
    if snap.nvme is None or snap.nvme.percentage_used is None:
        return []
    pu = snap.nvme.percentage_used
    return [UsedReading("nvme_percentage_used", float(pu), pu >= PERCENTAGE_USED_MAX,
                        f"NVMe SMART/Health log 'Percentage Used' = {pu}%", TRUST_STANDARD)]


def scsi_used_readings(snap: Snapshot) -> list[UsedReading]:
    if snap.scsi is None or snap.scsi.percentage_used is None:
        return []
    pu = snap.scsi.percentage_used
    return [UsedReading("scsi_percentage_used", float(pu), pu >= PERCENTAGE_USED_MAX,
                        f"SCSI 'Percentage used endurance indicator' = {pu}%", TRUST_STANDARD)]


def used_readings(snap: Snapshot) -> Readings:
    if snap.interface == "nvme":
        return Readings(nvme_used_readings(snap), [], [])
    if snap.interface == "scsi":
        return Readings(scsi_used_readings(snap), [], [])
    if snap.interface == "ata":
        return ata_used_readings(snap)
    return Readings([], [], [])
