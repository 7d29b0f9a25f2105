"""Turn one Snapshot (plus what ssdwear knows of the drive: Context, its past in a live run) into a DriveReport, once
per drive per run (assess). Pure: no I/O, clock passed in.

Decisions made here:
- which lifetime-wear indicator to believe (the most trustworthy one), and when the others disagree;
- whether Intel's timed-workload window stands (the rule is timed_window.py's);
- which projection to give: the timed workload when valid, else the lifetime average; then a counter window since
  `start`'s baseline (counter_window.py) and the history's windowed projection (history.py) where they stand.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ssdwear.drives import counters, families, indicators, vendor_logs
from ssdwear.drives.fine import finer_counters
from ssdwear.drives.indicators import UsedReading, disagreement
from ssdwear.drives.named import temperature_attribute
from ssdwear.drives.naming import family_named
from ssdwear.drives.ratings import Rating, find_rating
from ssdwear.drives.timed import LIFETIME_SOURCES, trio
from ssdwear.model.records import (
    NVME_DATA_UNIT_BYTES,
    Attribute,
    CounterReading,
    DriveKind,
    DriveReport,
    FineWear,
    Health,
    Projection,
    Snapshot,
    UsedSource,
    Window,
    Writes,
    location,
)
from ssdwear.model.units import hours_text
from ssdwear.smartctl.smartd import as_logged
from ssdwear.wear import forecast
from ssdwear.wear import rates as wear
from ssdwear.wear.forecast import Reading

from .context import NO_CONTEXT, Context
from .counter_window import with_counter_window
from .fine_wear import reading_wear
from .history import with_past
from .timed_window import TimedResult, percent_of, timed_window


def drive_kind(snap: Snapshot) -> DriveKind:
    solid = snap.is_solid_state
    if solid is True:
        return "ssd"
    if solid is False:
        return "hdd"
    if snap.interface == "ata" and indicators.used_readings(snap)[0]:
        return "ssd"
    return "unknown"


def choose_used(readings: Sequence[UsedReading]) -> tuple[UsedReading | None, list[str]]:
    """The most trustworthy reading, and a warning for each other reading that disagrees with it."""
    if not readings:
        return None, []
    ordered = sorted(readings, key=lambda r: r.trust)
    chosen = ordered[0]
    warnings = []
    for other in ordered[1:]:
        if disagreement(chosen, other):
            warnings.append(
                f"wear indicators disagree: {other.detail} means {percent_of(other)} used, but "
                f"{chosen.detail} means {percent_of(chosen)}; reporting the latter (more trustworthy)")
    return chosen, warnings


def _raw(snap: Snapshot, attr_id: int) -> int | None:
    attr = snap.attr(attr_id)
    return None if attr is None else attr.raw


# ------------------------------------------------------------------------------------------------
# Writes and health


def writes(snap: Snapshot, ratings: Sequence[Rating] = (), problems: list[str] | None = None) -> Writes:
    """Host/NAND bytes and the rating; a counter that cannot be true is dropped and named in `problems`."""
    sources: dict[str, str] = {}
    counts: dict[str, counters.ByteCount | None] = {}
    if snap.interface == "nvme" and snap.nvme is not None:
        for name, units, label in (("host_bytes_written", snap.nvme.data_units_written, "Data Units Written"),
                                   ("host_bytes_read", snap.nvme.data_units_read, "Data Units Read")):
            if units is not None:
                counts[name] = counters.ByteCount(units * NVME_DATA_UNIT_BYTES, f"NVMe '{label}' x 512,000 B")
    elif snap.interface == "scsi" and snap.scsi is not None:
        for name, total, kind in (("host_bytes_written", snap.scsi.bytes_written, "write"),
                                  ("host_bytes_read", snap.scsi.bytes_read, "read")):
            if total is not None:
                counts[name] = counters.ByteCount(total, f"SCSI error counter log, {kind}: gigabytes processed")
    elif snap.interface == "ata":
        counts = {"host_bytes_written": counters.ata_host_written(snap, problems),
                  "host_bytes_read": counters.ata_host_read(snap, problems),
                  "nand_bytes_written": counters.ata_nand_written(snap, problems)}
    found: dict[str, int] = {}
    for name, count in counts.items():
        count = counters.sane_bytes(snap, count, problems)  # NVMe/SCSI counters get the ATA ones' check here
        if count is not None:
            found[name] = count.bytes
            sources[name] = count.source
    host_w, nand_w = found.get("host_bytes_written"), found.get("nand_bytes_written")
    wa = round(nand_w / host_w, 2) if nand_w is not None and host_w else None
    rating = find_rating(snap, ratings)
    return Writes(
        host_bytes_written=host_w, host_bytes_read=found.get("host_bytes_read"), nand_bytes_written=nand_w,
        write_amplification=wa, sources=sources,
        rated_bytes=rating.bytes if rating else None,
        rated_used_percent=round(host_w / rating.bytes * 100, 2) if rating and host_w is not None else None,
        rating_source=rating.source if rating else None,
    )


def health(snap: Snapshot) -> Health:
    nvme = snap.nvme
    failing_now = [a for a in snap.attributes.values() if a.when_failed == "FAILING_NOW"]
    media = None
    if nvme is not None:
        media = nvme.media_errors
    elif snap.scsi is not None:
        media = snap.scsi.uncorrected_errors
    uncorrectable = _raw(snap, 187)
    if uncorrectable is None:
        uncorrectable = _raw(snap, 198)
    return Health(
        smart_passed=snap.smart_passed,
        available_spare_percent=nvme.available_spare if nvme else None,
        available_spare_threshold_percent=nvme.available_spare_threshold if nvme else None,
        critical_warning=nvme.critical_warning if nvme else None,
        media_errors=media,
        reallocated_sectors=_raw(snap, 5) if snap.interface == "ata" else
        (snap.scsi.grown_defects if snap.scsi else None),
        pending_sectors=_raw(snap, 197) if snap.interface == "ata" else None,
        uncorrectable_errors=uncorrectable if snap.interface == "ata" else None,
        failing_attributes=tuple(f"{a.id} {a.name}" for a in failing_now if not temperature_attribute(a)),
        temperatures_at_threshold=tuple(_hot(a) for a in failing_now if temperature_attribute(a)),
    )


def _hot(a: Attribute) -> str:
    """A temperature attribute at its threshold, with its values: '190 Airflow_Temperature_Cel 045 at threshold 045,
    55 °C' (the first number of the raw value is the current temperature in degrees Celsius, as smartctl prints
    it: tempminmax)."""
    values = f" {a.value:03d} at threshold {a.thresh:03d}" if a.value is not None and a.thresh is not None else ""
    current = re.match(r"\s*(\d{1,3})(?!\d)", a.raw_string)
    celsius = f", {current.group(1)} °C" if current and "cel" in a.name.lower() else ""
    return f"{a.id} {a.name}{values}{celsius}"


NVME_CRITICAL_WARNING_BITS = (
    (0x01, "available spare below threshold"),
    (0x02, "temperature out of range"),
    (0x04, "NVM subsystem reliability degraded"),
    (0x08, "media placed in read-only mode"),
    (0x10, "volatile memory backup device failed"),
    (0x20, "persistent memory region read-only"),
)


def health_warnings(h: Health) -> list[str]:
    out = []
    if h.smart_passed is False:
        out.append("SMART overall-health self-assessment FAILED")
    if h.critical_warning:
        bits = [text for bit, text in NVME_CRITICAL_WARNING_BITS if h.critical_warning & bit]
        out.append(f"NVMe critical warning 0x{h.critical_warning:02x}: {', '.join(bits) or 'unknown bits'}")
    if (h.available_spare_percent is not None and h.available_spare_threshold_percent is not None
            and h.available_spare_percent < h.available_spare_threshold_percent):
        out.append(f"available spare {h.available_spare_percent} % is below its threshold "
                   f"{h.available_spare_threshold_percent} %")
    if h.failing_attributes:
        out.append(f"attributes failing now: {', '.join(h.failing_attributes)}")
    if h.temperatures_at_threshold:
        out.append(too_hot(h))
    return out


def too_hot(h: Health) -> str:
    """What a temperature attribute at its threshold says: a condition to fix, not a reason to replace the drive."""
    return (f"temperature at its threshold now: {'; '.join(h.temperatures_at_threshold)}: cool the drive (airflow, "
            "fans, placement); not wear, not a defect")


# ------------------------------------------------------------------------------------------------
# The report


# Where each kind of drive reports its power-on time (smartctl's text and JSON; the parsers read every one).
POWER_ON_SOURCES = {
    "ata": "attribute 9 or Device Statistics 'Power-on Hours'",
    "nvme": "the NVMe SMART/Health log's 'Power On Hours'",
    "scsi": "the background scan results' 'Accumulated power on time' or the Seagate/Hitachi factory page's "
            "'number of hours powered up'",
}


def no_lifetime_projection(used: UsedReading, snap: Snapshot) -> str | None:
    """Why one reading of a wear indicator gives no lifetime projection (None when it gives one)."""
    hours = snap.power_on_hours
    if used.at_least:
        return (f"no projection: the indicator is saturated ({percent_of(used)} used), which bounds the wear rate from "
                "below only")
    if hours is None:
        return (f"no projection: the drive reports no power-on hours ({POWER_ON_SOURCES.get(snap.interface, 'none')}), "
                "and wear is projected against power-on time")
    if not snap.power_on_hours_trusted:
        return "no projection: the drive's power-on hours are not plausible (see the warnings)"
    if hours <= 0:
        return "no projection: the drive reports 0 power-on hours"
    return forecast.too_early([Reading(hours, used.percent)])


def lifetime_projection(used: UsedReading, snap: Snapshot, host_bytes_written: int | None, level: float
                        ) -> Projection | None:
    """From one reading: the lifetime average with its calibrated interval (forecast.py)."""
    hours = snap.power_on_hours
    if hours is None or no_lifetime_projection(used, snap) is not None:
        return None
    return wear.forecast_projection([Reading(hours, used.percent, host_bytes_written)], used.step, snap.interface,
                                    "lifetime-average",
                                    f"{used.percent:g} % used in {hours_text(hours)} ({used.source})", level)


def timed_projection(timed: TimedResult, used: UsedReading | None, snap: Snapshot, ctx: Context) -> Projection:
    """The Intel timed window: its counter-resolution range (and, for a long window, the calibrated range of how
    far a drive's future rate strays from its past one), and the trend against the lifetime average."""
    window = timed.window
    assert window.minutes and window.wear_steps is not None
    e2n, _, e4n = trio(snap).labels
    rate = wear.timed_workload_rate(window.wear_steps, window.minutes, window.represents_minutes)
    stands = ""
    if window.represents_minutes:
        stands = f", standing for {window.represents_minutes:,.0f} minutes of real time"
        if not timed.ours:
            stands += " (a window ssdwear did not reset, no longer than that)"
    level, wear_class = None, None
    if window.minutes >= wear.LONG_WINDOW_MINUTES:
        class_used = used.percent if used is not None and not used.at_least else window.wear_percent or 0.0
        rate, wear_class = wear.calibrated_window_rate(rate, class_used, window.wear_steps, snap.interface,
                                                       ctx.interval_level)
        level = ctx.interval_level
    rates = {"timed": rate.per_year}
    found = None
    lifetime = lifetime_projection(used, snap, None, ctx.interval_level) if used is not None else None
    if lifetime is not None and lifetime.percent_per_year is not None and used is not None:
        rates["lifetime"] = lifetime.percent_per_year
        found = wear.trend(rate, wear.Rate(lifetime.percent_per_year, lifetime.percent_per_year_low or 0.0,
                                           lifetime.percent_per_year_high or 0.0), used.percent)
    return wear.rate_projection(rate, used.percent if used else None, "timed-workload",
                        f"{e2n} = {window.wear_steps} (1/1024 %) in {e4n} = {window.minutes:,.0f} power-on minutes"
                        f"{stands}",
                        level, rates, found, wear_class)


def sharpen(chosen: UsedReading | None, readings: Sequence[UsedReading]) -> tuple[UsedReading | None, list[str]]:
    """A finer reading of the same wear (UsedReading.finer: E2h of a timer never reset, in 1/1024 % steps; SanDisk's
    178 life left in 0.01 % steps) that agrees with the chosen whole-percent indicator (within that indicator's step)
    is the sharper reading of it: the finest such one."""
    if chosen is None or chosen.at_least:
        return chosen, []
    finer = sorted((r for r in readings if r.finer and r.step < chosen.step and not r.at_least
                    and wear.same_wear(r.percent, chosen.percent, chosen.step)), key=lambda r: r.step)
    if not finer:
        return chosen, []
    sharp = finer[0]
    return sharp, [f"lifetime wear sharpened by {sharp.finer}: {sharp.percent:.3f} % ({chosen.detail} says "
                   f"{chosen.percent:g} %)"]


@dataclass
class _Look:
    """What one reading says about its drive with what ssdwear knows of it (Context), before any projection: its
    wear indicators and the one chosen (sharpened by E2h never reset), the timed window as judged, its writes, health
    and finer counters, and the warnings and notes so far, in the order they are said."""

    snap: Snapshot  # as a smartctl that knew the drive would have printed it (family_named)
    kind: DriveKind
    readings: list[UsedReading]
    chosen: UsedReading | None
    timed: TimedResult | None
    writes: Writes
    health: Health
    counters: list[CounterReading]
    fine: FineWear | None
    warnings: list[str]
    notes: list[str]


def _look(snap: Snapshot, ctx: Context) -> _Look:
    snap = family_named(families.known(snap))  # as a smartctl that knew the drive would have printed it
    readings, notes, contradicted = indicators.used_readings(snap)
    warnings: list[str] = [*snap.problems, *contradicted]
    kind = drive_kind(snap)
    chosen, disagree = choose_used(readings) if kind != "hdd" else (None, [])
    drive_writes = writes(snap, ctx.ratings, warnings)

    timed = timed_window(snap, chosen, ctx)
    if timed is not None:
        warnings.extend(timed.warnings)
        notes.extend(timed.notes)
        if timed.lifetime is not None:
            readings.append(timed.lifetime)
            chosen, disagree = choose_used(readings)
    chosen, sharpened = sharpen(chosen, readings)
    notes.extend(sharpened)
    warnings.extend(disagree)
    warnings.extend(_reading_warnings(snap, ctx))
    notes.extend(_coverage_notes(snap, kind, chosen, readings))
    if chosen is not None and chosen.percent >= 100:
        warnings.append(f"rated endurance used up: {percent_of(chosen)} used ({chosen.source})")

    h = health(snap)
    warnings.extend(health_warnings(h))
    counters, fine_wear = _finer(snap, kind, chosen, notes, warnings)
    drive_writes = with_drive_amplification(snap, with_media_writes(snap, drive_writes, counters), notes, warnings)
    return _Look(snap, kind, readings, chosen, timed, drive_writes, h, counters, fine_wear, warnings, notes)


def with_media_writes(snap: Snapshot, drive_writes: Writes, found: Sequence[CounterReading]) -> Writes:
    """An NVMe drive's NAND (media) bytes written, and its write amplification, from the first finer counter that
    counts media writes in bytes (a vendor's log 0xCA F4h, the Endurance Group or OCP log): the health log has none."""
    media = next((c for c in found if c.kind == "media" and c.unit_bytes), None)
    if snap.interface != "nvme" or drive_writes.nand_bytes_written is not None or media is None:
        return drive_writes
    nand = media.value * (media.unit_bytes or 1)
    host = drive_writes.host_bytes_written
    return replace(drive_writes, nand_bytes_written=nand, write_amplification=round(nand / host, 2) if host else None,
                   sources={**drive_writes.sources, "nand_bytes_written": media.detail})


def with_drive_amplification(snap: Snapshot, drive_writes: Writes, notes: list[str], warnings: list[str]) -> Writes:
    """The drive's own lifetime and trailing-hour write amplification (WDC log D0h), checked against ssdwear's NAND
    over host bytes: a disagreement beyond vendor_logs.WAF_AGREE is a warning (one of the two counts wrong)."""
    figures = vendor_logs.drive_amplification(snap, notes)
    if figures is None:
        return drive_writes
    lifetime, hour = figures
    own = drive_writes.write_amplification
    if own is not None and abs(lifetime / own - 1) > vendor_logs.WAF_AGREE:
        warnings.append(f"the drive's own lifetime write amplification (log D0h) is {lifetime:.2f}, its NAND over "
                        f"host bytes {own:.2f}: they disagree by more than {vendor_logs.WAF_AGREE:.0%}")
    return replace(drive_writes, drive_write_amplification=round(lifetime, 3),
                   drive_write_amplification_hour=round(hour, 3),
                   sources={**drive_writes.sources, "drive_write_amplification": "log D0h lifetime and trailing-hour "
                            "write amplification factors (raw / their scale, settled on the page's NAND and user "
                            "writes)"})


def _power_on_hours(snap: Snapshot) -> float | None:
    """The power-on hours: the drive's own minutes where it gives them (log E1h), else smartctl's hours (whole
    hours on NVMe) where they are plausible."""
    minutes = vendor_logs.power_on_minutes(snap)
    if minutes is not None:
        return minutes / 60
    return snap.power_on_hours if snap.power_on_hours_trusted else None


def _report(look: _Look, projection: Projection | None) -> DriveReport:
    snap, chosen = look.snap, look.chosen
    return DriveReport(
        device=snap.device or snap.source,
        device_type=snap.device_type,
        model=snap.model,
        serial=snap.serial,
        wwn=snap.wwn,
        firmware=snap.firmware,
        interface=snap.interface,
        kind=look.kind,
        capacity_bytes=snap.capacity_bytes,
        power_on_hours=_power_on_hours(snap),
        power_on_minutes=vendor_logs.power_on_minutes(snap),
        used_percent=chosen.percent if chosen else None,
        used_at_least=chosen.at_least if chosen else False,
        used_source=chosen.source if chosen else None,
        used_step=chosen.step if chosen else None,
        used_sources=tuple(UsedSource(r.source, r.percent, r.at_least, r.detail) for r in look.readings),
        window=look.timed.window if look.timed is not None else None,
        projection=projection,
        writes=look.writes,
        health=look.health,
        smart_available=snap.smart_available,
        warnings=tuple(dict.fromkeys(look.warnings)),
        notes=tuple(dict.fromkeys(look.notes + list(snap.parse_notes))),
        source=snap.source,
        counters=tuple(look.counters),
        fine=look.fine,
    )


def figures(snap: Snapshot, ctx: Context = NO_CONTEXT) -> DriveReport:
    """What one reading says about its drive by itself, no projection made (and no window measured from a baseline,
    no history): the wear indicator chosen, writes, health, finer counters. Not an assessment: what a sample of the
    reading stores (history.sample_of), for the readings that only feed a drive's history (smartd's lines of it, and
    the drive now as smartd logs it)."""
    return _report(_look(snap, ctx), None)


def assess(snap: Snapshot, ctx: Context = NO_CONTEXT) -> DriveReport:
    """Everything ssdwear concludes about one drive from one reading (and, in a live run, its past: Context.past),
    once per drive per run."""
    look = _look(snap, ctx)
    chosen, snap, notes, warnings = look.chosen, look.snap, look.notes, look.warnings
    projection = _projection(look.timed, chosen, snap, ctx, look.writes.host_bytes_written)
    if projection is not None and projection.trend is not None:
        warnings.append(projection.trend.text)
    if projection is None and chosen is not None:
        notes.append(no_lifetime_projection(chosen, snap) or "no projection")
    report = with_counter_window(_report(look, projection), ctx)
    if ctx.past is None or ctx.now is None:
        return report
    logged = as_logged(snap) if ctx.past.stored or ctx.past.logged is not None else None
    seen = (logged, figures(logged, ctx)) if logged is not None else None
    return with_past(snap, report, ctx.past, ctx.interval_level, ctx.now, seen)


def _finer(snap: Snapshot, kind: DriveKind, chosen: UsedReading | None, notes: list[str], warnings: list[str]
           ) -> tuple[list[CounterReading], FineWear | None]:
    """The finer counters of an SSD, the one that counts wear best first, and the fine indicator they give."""
    if kind == "hdd":
        return [], None
    found = finer_counters(snap, notes, warnings)
    wear, contradicted = reading_wear(found, chosen)
    warnings.extend(contradicted)
    if wear is not None and wear.source not in LIFETIME_SOURCES:
        found.sort(key=lambda c: c.source != wear.source)  # the counter the fine indicator rests on first
    return found, wear


def _reading_warnings(snap: Snapshot, ctx: Context) -> list[str]:
    """What makes this reading itself suspect: another drive in the slot, a cut-off output, a bad clock."""
    warnings = []
    if ctx.previous_serial and snap.serial and ctx.previous_serial != snap.serial:
        where = location(snap.device, snap.device_type) if snap.device else snap.source
        warnings.append(f"drive swapped: {where} held serial {ctx.previous_serial} at the "
                        f"last look and now holds {snap.serial}")
    if snap.truncated:
        warnings.append("the smartctl output was cut off (see the notes): figures from its last table may be "
                        "missing, and no timed-workload window is read from it")
    if not snap.power_on_hours_trusted:
        warnings.append(f"power-on hours ({snap.power_on_hours:,.0f} h) are not plausible on this firmware; "
                        "not used as a clock")
    return warnings


NO_SMART_SECTION = ("no wear figure: the output holds no SMART data, only the drive's identity (smartctl -i); "
                    "save smartctl -x (or -a) for its wear indicators")
NO_SMART_SUPPORT = ("no SMART data: SMART support is unavailable (RAID virtual disk or USB bridge? try the "
                    "controller's pass-through type with -d)")
NO_IDENTITY = ("no wear figure: the output has no identity section (model, serial: smartctl -i, -a or -x print it), "
               "so the drive family, and with it what its vendor attributes mean, is unknown; save smartctl -x")


def _coverage_notes(snap: Snapshot, kind: DriveKind, chosen: UsedReading | None,
                    readings: Sequence[UsedReading]) -> list[str]:
    """Why a drive has no wear figure, when it has none."""
    if snap.smart_available is False:
        return [NO_SMART_SUPPORT]
    if kind == "hdd":
        rpm = f" ({snap.rotation_rate:,} rpm)" if snap.rotation_rate else ""
        shown = "; ".join(r.detail for r in readings)
        if shown:  # ATA Device Statistics' endurance indicator exists on some hard disks and hybrid (SSHD) drives
            return [f"HDD{rpm}: {shown} is shown for information only: on a drive with a rotation rate it does "
                    "not measure flash wear, so no wear figure, verdict or projection comes from it"]
        return [f"HDD{rpm}: no flash wear indicator; wear figures do not apply"]
    if chosen is not None:
        return []
    if snap.model is None:  # a -A capture; an output with neither identity nor SMART data is no drive's at all
        return [NO_IDENTITY] if snap.has_smart_data else []
    if not snap.has_smart_data:
        if families.volume(snap):
            return []
        said = "; ".join(snap.messages)
        return [f"no wear figure: smartctl printed no SMART data ({said})" if said else NO_SMART_SECTION]
    return ["no lifetime wear indicator ssdwear can trust on this drive"] if kind != "unknown" else []


def _projection(timed: TimedResult | None, chosen: UsedReading | None, snap: Snapshot, ctx: Context,
                host_bytes_written: int | None) -> Projection | None:
    """The timed window's projection when it measured one since a reset, else the lifetime average's."""
    window = timed.window if timed is not None else None
    since_reset = timed is not None and timed.lifetime is None  # a never-reset timer is the lifetime, not a window
    if timed is not None and window is not None and window.valid and since_reset and window.minutes \
            and window.wear_steps is not None:
        return timed_projection(timed, chosen, snap, ctx)
    if chosen is not None:
        return lifetime_projection(chosen, snap, host_bytes_written, ctx.interval_level)
    return None


def failed(device: str, message: str, device_type: str | None = None, reason: str = "read") -> DriveReport:
    """The report of a drive that could not be read (with the -d type it was tried with, and why in one word: the
    DriveError's kind)."""
    return DriveReport(device=device, device_type=device_type, error=message, error_reason=reason)


def judged_window(snap: Snapshot, ctx: Context) -> Window | None:
    """The timed-workload window exactly as `report` judges it (None for drives without the timed workload):
    `status` and `measure` read validity from here (the drive's one assessment of the poll), so the three never
    disagree."""
    return assess(snap, ctx).window
