"""Lifetime wear indicators: what each of a drive's indicators says about its wear, read by its family's row
(drives/families.py: which attribute means what), with notes on the ones ignored and warnings where an indicator
contradicts the drive's own counters; and the step and saturation of an indicator known by its stored source."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ssdwear.model.family import Family, RawRemaining, WearAttribute
from ssdwear.model.records import DEVSTAT_PERCENT_USED, E2H_STEPS_PER_PERCENT, Attribute, Snapshot

from .families import FAMILIES, family_of
from .named import NAMED_REMAINING
from .timed import LIFETIME_SOURCES

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
    if source in {r.source for r in _remaining_everywhere()}:
        return percent >= 100
    wear = next((w for p in FAMILIES for w in p.wear if w.source == source), None)
    if wear is None:
        return False
    floor = used_at(wear, wear.floor)  # past it, a wrapping attribute's raw value counts on (not saturated)
    return percent == floor if wear.wraps_past_100 else percent >= floor


def indicator_step(source: str | None) -> float:
    """The resolution, in percent, of the wear indicator named `source` (a stored sample's used_source): 1 %
    unless the table says otherwise."""
    if source in LIFETIME_SOURCES:
        return 1 / E2H_STEPS_PER_PERCENT
    remaining = next((r.step for r in _remaining_everywhere() if r.source == source), None)
    return remaining or next((1 / w.divisor for p in FAMILIES for w in p.wear if w.source == source), 1.0)


def _remaining_everywhere() -> tuple[RawRemaining, ...]:
    return (*NAMED_REMAINING, *(r for row in FAMILIES for r in row.remaining))


def raw_remaining(row: Family, attr: Attribute) -> RawRemaining | None:
    """The raw "% remaining" this attribute is on the row's family (its own, then by drive-database name)."""
    return next((r for r in (*row.remaining, *NAMED_REMAINING)
                 if r.id == attr.id and (r.name is None or r.name == attr.name)), None)


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
    # A finer reading of the same wear as the whole-percent indicators (E2h of a timer never reset, SanDisk's 178 in
    # 0.01 % steps), named: where it agrees with the chosen one, it sharpens it (assess/report.py sharpen).
    finer: str | None = None


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


# Erase counts that rate wear where a raw "% remaining" (named.NAMED_REMAINING) says otherwise: Silicon Motion's
# 167 Average_Erase_Count of 168 Max_Erase_Count_of_Spec, the drive's rated P/E cycles (drivedb.h "Silicon Motion
# based SSDs"; the names come only from that entry, or from a family's names: Family.names).
SMI_ERASE_NAMES = {167: "Average_Erase_Count", 168: "Max_Erase_Count_of_Spec"}


def _raw_remaining(attr: Attribute, entry: RawRemaining) -> UsedReading | None:
    if attr.raw is None or not 0 <= attr.raw * entry.step <= 100:
        return None
    used = 100 - attr.raw * entry.step
    return UsedReading(entry.source, float(used) if entry.step == 1 else round(used, 6), attr.raw == 0,
                       f"attribute {attr.id} {attr.name} raw {attr.raw}", TRUST_VENDOR, step=entry.step,
                       finer=f"attribute {attr.id}" if entry.step < 1 else None)


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


def sandforce_based(snap: Snapshot) -> bool:
    """A drive on a SandForce controller (its row says so: Kingston, Seagate Nytro, Intel's SF-2281 families)."""
    return family_of(snap).controller == "SandForce"


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
    row = family_of(snap)
    for wear in row.wear:
        attr = snap.attr(wear.id)
        reading = _wear_reading(wear, attr) if attr is not None else None
        if reading is not None:
            readings.append(reading)
    for attr in snap.attributes.values():
        remaining = raw_remaining(row, attr)
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
