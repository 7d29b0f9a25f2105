"""Turn one Snapshot (plus what the history store knows) into a DriveReport. Pure: no I/O, clock passed in.

Decisions made here:
- which lifetime-wear indicator to believe (the most trustworthy one), and when the others disagree;
- whether Intel's timed-workload window is valid, not valid yet, or not trustworthy;
- which projection to give: the timed workload when valid, else the lifetime average.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Optional

from ssdwear.drives import counters, vendors
from ssdwear.drives.ratings import Rating, find_rating
from ssdwear.drives.vendors import TRUST_DERIVED, UsedReading, disagreement
from ssdwear.model.records import (
    E2H_STEPS_PER_PERCENT,
    MINUTES_PER_YEAR,
    NVME_DATA_UNIT_BYTES,
    TIMER_SENTINELS,
    DriveKind,
    DriveReport,
    Health,
    LastLook,
    Projection,
    ResetRecord,
    Snapshot,
    UsedSource,
    Window,
    Writes,
    location,
)
from ssdwear.model.units import human_minutes, percent_text
from ssdwear.wear import forecast
from ssdwear.wear import rates as wear
from ssdwear.wear.forecast import DEFAULT_LEVEL, Reading

VALID_AFTER_MINUTES = 60  # the timed-workload attributes hold 65535 until 60 power-on minutes after a reset


@dataclass(frozen=True)
class Context:
    """What the caller knows beyond the snapshot. Everything optional; `now` is the injected clock."""

    now: Optional[datetime] = None
    represents_minutes: Optional[float] = None  # --represents: real time the timed window stands for
    ratings: Sequence[Rating] = ()
    reset: Optional[ResetRecord] = None  # our own last reset of this drive's timer
    last_look: Optional[LastLook] = None  # our previous reading of this drive
    previous_serial: Optional[str] = None  # serial last seen behind the same device path
    interval_level: float = DEFAULT_LEVEL  # the level prediction intervals are stated at


def drive_kind(snap: Snapshot) -> DriveKind:
    solid = snap.is_solid_state
    if solid is True:
        return "ssd"
    if solid is False:
        return "hdd"
    if snap.interface == "ata" and vendors.used_readings(snap)[0]:
        return "ssd"
    return "unknown"


def choose_used(readings: Sequence[UsedReading]) -> tuple[Optional[UsedReading], list[str]]:
    """The most trustworthy reading, and a warning for each other reading that disagrees with it."""
    if not readings:
        return None, []
    ordered = sorted(readings, key=lambda r: r.trust)
    chosen = ordered[0]
    warnings = []
    for other in ordered[1:]:
        if disagreement(chosen, other):
            warnings.append(
                f"wear indicators disagree: {other.detail} means {_pct(other)} used, but "
                f"{chosen.detail} means {_pct(chosen)}; reporting the latter (more trustworthy)")
    return chosen, warnings


def _pct(reading: UsedReading) -> str:
    return percent_text(reading.percent, reading.at_least)


# ------------------------------------------------------------------------------------------------
# Intel timed workload


@dataclass(frozen=True)
class TimedResult:
    window: Window
    lifetime: Optional[UsedReading]  # E2h as a lifetime indicator when the timer was never reset
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    ours: bool = False  # the window began with a reset ssdwear recorded (and the drive took)


def timed_window(snap: Snapshot, used: Optional[UsedReading], ctx: Context) -> Optional[TimedResult]:
    """Read E2h/E3h/E4h on an Intel SSD that carries them (SATA attributes 226-228, or the NVMe vendor log
    0xCA entries, under the same rules); None for every other drive.

    This is the one validity rule of the timed window: `report`, `analyze`, `check` and `retire-check` read the
    window from here through assess(), `status` and `measure` through judged_window(). Attribute 226 on a drive
    that is not an Intel SSD (a Toshiba HDD's Load-in_Time) is not wear and is never looked at here.
    """
    if not vendors.has_timed_workload(snap):
        return None
    e2, e3, e4 = (vendors.timed_raw(snap, i) for i in (226, 227, 228))
    if e2 is None or e4 is None:
        return None
    warnings: list[str] = []
    notes: list[str] = []

    def pending(reason: str, valid_in: Optional[float]) -> TimedResult:
        return TimedResult(Window(kind="timed-workload", valid=False, reason=reason, valid_in_minutes=valid_in,
                                  pending=True), None, tuple(warnings), tuple(notes))

    def untrusted(reason: str, lifetime: Optional[UsedReading] = None) -> TimedResult:
        return TimedResult(Window(kind="timed-workload", valid=False, reason=f"timer not trustworthy: {reason}",
                                  minutes=float(e4), wear_steps=e2), lifetime, tuple(warnings), tuple(notes))

    if snap.truncated:
        return untrusted("the output was cut off (see the notes), so the last attribute rows cannot be trusted; "
                         "read the drive again or save its complete smartctl -x output")
    if e4 in TIMER_SENTINELS or e2 in TIMER_SENTINELS:
        return pending(_sentinel_reason(ctx), None)
    if e4 < VALID_AFTER_MINUTES:
        left = VALID_AFTER_MINUTES - e4
        return pending(f"not valid yet: {e4} of {VALID_AFTER_MINUTES} power-on minutes; "
                       f"{_when_valid(ctx, e4)}", float(left))

    poh_minutes = snap.power_on_hours * 60 if snap.power_on_hours is not None and snap.power_on_hours_trusted \
        else None
    wear_percent = e2 / E2H_STEPS_PER_PERCENT
    doubt = _implausible_window(snap, e2, e4, poh_minutes, used) or _counter_stuck(e2, e4, poh_minutes, used, warnings)
    if doubt is not None:
        return untrusted(doubt)
    someone_else = _reset_by_someone_else(ctx, e4)
    warnings.extend(someone_else)

    lifetime = _never_reset(e2, e4, poh_minutes)
    reason = "timer never reset: the window is the drive's whole life" if lifetime is not None else None
    notes.extend([reason] if reason else [])
    ignored = _reset_ignored(ctx, e4)
    if ignored is not None:
        warnings.append(ignored)
        return untrusted(f"the reset ssdwear sent at {_fmt(ctx.reset.at) if ctx.reset else '?'} did not take "
                         "effect (E4h kept counting from before it); send start again", lifetime)
    represents, said = _represents(ctx, e4, lifetime is not None)
    (notes if lifetime is not None else warnings).extend(said)
    host_reads = None if e3 is None or e3 in TIMER_SENTINELS else float(e3)
    window = Window(kind="timed-workload", valid=True, reason=reason, minutes=float(e4), wear_percent=wear_percent,
                    wear_steps=e2, host_reads_percent=host_reads, represents_minutes=represents)
    ours = ctx.reset is not None and ctx.now is not None and not someone_else
    return TimedResult(window, lifetime, tuple(warnings), tuple(notes), ours)


def _never_reset(e2: int, e4: int, poh_minutes: Optional[float]) -> Optional[UsedReading]:
    """E2h as the lifetime wear indicator when E4h is the drive's whole power-on time (a timer never reset)."""
    if poh_minutes is None or abs(e4 - poh_minutes) > vendors.never_reset_slack(poh_minutes):
        return None
    wear_percent = e2 / E2H_STEPS_PER_PERCENT
    return UsedReading(vendors.E2H_LIFETIME_SOURCE, wear_percent, False,
                       f"E2h = {e2} (timer never reset) = {wear_percent:.2f} %", TRUST_DERIVED,
                       step=1 / E2H_STEPS_PER_PERCENT)


# A window may stand for a --represents duration this much shorter than itself (whole-minute counters, the
# poll that ends a measure a little after the time asked for).
REPRESENTS_SLACK = 0.01


def _represents(ctx: Context, e4: int, whole_life: bool) -> tuple[Optional[float], list[str]]:
    """The real time the window stands for (--represents, or the config's `represents`), and what to say when it
    is not applied: never to the drive's whole life, never to a window longer than the time it would stand for
    (a window left to run on after a measure, a reset long ago, or one ssdwear did not make)."""
    given = ctx.represents_minutes
    if not given:
        return None, []
    if whole_life:
        return None, [f"--represents {human_minutes(given)} not applied: the timer was never reset, so the window "
                      "is the drive's whole life"]
    if e4 > given * (1 + REPRESENTS_SLACK):
        since = f"since ssdwear's reset at {_fmt(ctx.reset.at)}" if ctx.reset is not None else \
            "since a reset ssdwear did not record"
        return None, [f"--represents {human_minutes(given)} not applied: the window (E4h = {e4:,} power-on minutes, "
                      f"{human_minutes(e4)} {since}) is longer than the time it would stand for; projected as "
                      "itself"]
    return given, []


def judged_window(snap: Snapshot, ctx: Context) -> Optional[Window]:
    """The timed-workload window exactly as `report` judges it (None for drives without the timed workload):
    `status` and `measure` read validity from here, so the three never disagree."""
    return assess(snap, ctx).window


def _implausible_window(snap: Snapshot, e2: int, e4: int, poh_minutes: Optional[float],
                        used: Optional[UsedReading]) -> Optional[str]:
    """Why these E2h/E4h cannot be a measurement (None when they can)."""
    if vendors.impossible_timed(snap, e2, e4):
        return (f"E2h = {e2} (exactly 100 %) with E4h = {e4:,} minutes ({e4 / MINUTES_PER_YEAR:,.0f} years) "
                "is a pattern of broken firmware counters, not a measurement")
    if poh_minutes is not None and e4 > poh_minutes + 60:
        return (f"E4h = {e4:,} minutes exceeds the drive's power-on time "
                f"({poh_minutes:,.0f} minutes = {snap.power_on_hours:,.0f} h)")
    wear_percent = e2 / E2H_STEPS_PER_PERCENT
    if used is not None and not used.at_least and wear_percent > used.percent + max(2.0, 0.05 * used.percent) + 1:
        return (f"E2h says {wear_percent:,.2f} % wear in the window, but {used.detail} means only "
                f"{used.percent:g} % in the drive's whole life")
    return None


def _counter_stuck(e2: int, e4: int, poh_minutes: Optional[float], used: Optional[UsedReading],
                   warnings: list[str]) -> Optional[str]:
    """E2h still 0 over a window in which the drive's own lifetime average would have moved it a whole percent
    (1,024 steps): a worn drive whose wear counter does not move (real DC S3500s at 100-237 % whose E2h stayed 0
    for 9,000 power-on hours while their Device Statistics went on counting) is no measurement of 'no wear'. The
    reason, and a warning in `warnings`."""
    if e2 != 0 or used is None or used.percent <= 0 or not poh_minutes:
        return None
    expected = used.percent / poh_minutes * e4 * E2H_STEPS_PER_PERCENT
    if expected < E2H_STEPS_PER_PERCENT:
        return None
    warnings.append(f"wear counter suspect: E2h has not moved in {e4 / 60:,.0f} power-on hours of a drive "
                    f"{_pct(used)} worn; its timed window is not used (see the window)")
    return (f"E2h = 0 over E4h = {e4:,} power-on minutes ({e4 / 60:,.0f} h), although at its lifetime average "
            f"({_pct(used)} in {poh_minutes / 60:,.0f} power-on hours) the drive would have moved it about "
            f"{expected:,.0f} steps: the wear counter does not move")


def _reset_ignored(ctx: Context, e4: int) -> Optional[str]:
    """Why ssdwear's own last reset did not take (the drive accepted the command but E4h counts on from before
    it), or None."""
    if ctx.reset is None or ctx.now is None:
        return None
    since_reset = (ctx.now - ctx.reset.at).total_seconds() / 60
    if since_reset < 0 or e4 <= since_reset + VALID_AFTER_MINUTES:
        return None  # (a reset dated after now: the wall clock went back, and cannot tell)
    return (f"E4h = {e4:,} minutes is longer than the {since_reset:,.0f} minutes since ssdwear reset this drive's "
            f"timer at {_fmt(ctx.reset.at)}: the reset did not take effect")


def _reset_by_someone_else(ctx: Context, e4: int) -> list[str]:
    """E4h went backwards since ssdwear's last look, and not because of ssdwear's own reset."""
    last_e4 = ctx.last_look.e4h_minutes if ctx.last_look is not None else None
    if ctx.last_look is not None and last_e4 is not None and last_e4 not in TIMER_SENTINELS and e4 < last_e4:
        ours = ctx.reset is not None and ctx.reset.at > ctx.last_look.at
        if not ours:
            return [f"the timed-workload timer was reset by someone else: E4h went from "
                    f"{ctx.last_look.e4h_minutes:,} at {_fmt(ctx.last_look.at)} to {e4:,} minutes now"]
    return []


def _sentinel_reason(ctx: Context) -> str:
    """Why E2h-E4h at 65535 give no window. Only a reset ssdwear recorded is said to have happened: drives seen
    at tens of thousands of power-on hours show 65535 with no reset anyone knows of."""
    held = (f"the drive holds E2h-E4h at 65535 until its workload timer has run {VALID_AFTER_MINUTES} power-on "
            "minutes after a reset")
    if ctx.reset is not None:
        return f"not valid yet: {held}; {_when_valid(ctx, 0)}"
    return (f"not valid: E2h-E4h read 65535, so the counters hold no measurement ({held}; ssdwear has no record "
            "of resetting this drive, so when it will be valid is not known; `ssdwear start` begins a window)")


def _when_valid(ctx: Context, minutes_so_far: int) -> str:
    if ctx.reset is not None:
        at = ctx.reset.at + timedelta(minutes=VALID_AFTER_MINUTES)
        return (f"valid at about {_fmt(at)} if the drive stays powered on "
                f"(ssdwear reset it at {_fmt(ctx.reset.at)})")
    return f"valid in {VALID_AFTER_MINUTES - minutes_so_far} more power-on minutes"


def _fmt(when: datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M %Z").strip()


def _raw(snap: Snapshot, attr_id: int) -> Optional[int]:
    attr = snap.attr(attr_id)
    return None if attr is None else attr.raw


# ------------------------------------------------------------------------------------------------
# Writes and health


def writes(snap: Snapshot, ratings: Sequence[Rating] = (), problems: Optional[list[str]] = None) -> Writes:
    """Host/NAND bytes and the rating; a counter that cannot be true is dropped and named in `problems`."""
    sources: dict[str, str] = {}
    counts: dict[str, Optional[counters.ByteCount]] = {}
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
    failing = tuple(f"{a.id} {a.name}" for a in snap.attributes.values() if a.when_failed == "FAILING_NOW")
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
        failing_attributes=failing,
    )


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
    return out


# ------------------------------------------------------------------------------------------------
# The report


def no_lifetime_projection(used: UsedReading, snap: Snapshot) -> Optional[str]:
    """Why one reading of a wear indicator gives no lifetime projection (None when it gives one)."""
    hours = snap.power_on_hours
    if used.at_least:
        return (f"no projection: the indicator is saturated ({_pct(used)} used), which bounds the wear rate from "
                "below only")
    if hours is None:
        return ("no projection: the drive reports no power-on hours (attribute 9, Device Statistics or the NVMe "
                "log), and wear is projected against power-on time")
    if not snap.power_on_hours_trusted:
        return "no projection: the drive's power-on hours are not plausible (see the warnings)"
    if hours <= 0:
        return "no projection: the drive reports 0 power-on hours"
    return forecast.too_early([Reading(hours, used.percent)])


def lifetime_projection(used: UsedReading, snap: Snapshot, host_bytes_written: Optional[int], level: float
                        ) -> Optional[Projection]:
    """From one reading: the lifetime average with its calibrated interval (forecast.py)."""
    hours = snap.power_on_hours
    if hours is None or no_lifetime_projection(used, snap) is not None:
        return None
    return wear.forecast_projection([Reading(hours, used.percent, host_bytes_written)], used.step, snap.interface,
                                    "lifetime-average",
                                    f"{used.percent:g} % used in {hours:,.0f} power-on hours ({used.source})", level)


def timed_projection(timed: TimedResult, used: Optional[UsedReading], snap: Snapshot, ctx: Context) -> Projection:
    """The Intel timed window: its counter-resolution range (and, for a long window, the calibrated range of how
    far a drive's future rate strays from its past one), and the trend against the lifetime average."""
    window = timed.window
    assert window.minutes and window.wear_steps is not None
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
                        f"E2h = {window.wear_steps} (1/1024 %) in E4h = {window.minutes:,.0f} power-on minutes{stands}",
                        level, rates, found, wear_class)


def sharpen(chosen: Optional[UsedReading], e2h: Optional[UsedReading]) -> tuple[Optional[UsedReading], list[str]]:
    """E2h of a timer never reset counts lifetime wear in 1/1024 % steps: where it agrees with the chosen
    whole-percent indicator (within that indicator's step), it is the sharper reading of the same wear."""
    if chosen is None or e2h is None or chosen.at_least:
        return chosen, []
    if wear.same_wear(e2h.percent, chosen.percent, chosen.step):
        return e2h, [f"lifetime wear sharpened by E2h: {e2h.percent:.3f} % ({chosen.detail} says "
                     f"{chosen.percent:g} %)"]
    return chosen, []


def assess(snap: Snapshot, ctx: Context = Context()) -> DriveReport:
    """Everything ssdwear concludes about one drive from one reading."""
    readings, notes, contradicted = vendors.used_readings(snap)
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
            chosen, sharpened = sharpen(chosen, timed.lifetime)
            notes.extend(sharpened)
    warnings.extend(disagree)
    warnings.extend(_reading_warnings(snap, ctx))
    notes.extend(_coverage_notes(snap, kind, chosen, readings))
    if chosen is not None and chosen.percent >= 100:
        warnings.append(f"rated endurance used up: {_pct(chosen)} used ({chosen.source})")

    h = health(snap)
    warnings.extend(health_warnings(h))

    window = timed.window if timed is not None else None
    projection = _projection(timed, chosen, snap, ctx, drive_writes.host_bytes_written)
    if projection is not None and projection.trend is not None:
        warnings.append(projection.trend.text)
    if projection is None and chosen is not None:
        notes.append(no_lifetime_projection(chosen, snap) or "no projection")

    return DriveReport(
        device=snap.device or snap.source,
        device_type=snap.device_type,
        model=snap.model,
        serial=snap.serial,
        wwn=snap.wwn,
        firmware=snap.firmware,
        interface=snap.interface,
        kind=kind,
        capacity_bytes=snap.capacity_bytes,
        power_on_hours=snap.power_on_hours if snap.power_on_hours_trusted else None,
        used_percent=chosen.percent if chosen else None,
        used_at_least=chosen.at_least if chosen else False,
        used_source=chosen.source if chosen else None,
        used_step=chosen.step if chosen else None,
        used_sources=tuple(UsedSource(r.source, r.percent, r.at_least, r.detail) for r in readings),
        window=window,
        projection=projection,
        writes=drive_writes,
        health=h,
        smart_available=snap.smart_available,
        warnings=tuple(dict.fromkeys(warnings)),
        notes=tuple(dict.fromkeys(notes + list(snap.parse_notes))),
        source=snap.source,
    )


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


def _coverage_notes(snap: Snapshot, kind: DriveKind, chosen: Optional[UsedReading],
                    readings: Sequence[UsedReading]) -> list[str]:
    """Why a drive has no wear figure, when it has none."""
    if snap.smart_available is False:
        return ["no SMART data: SMART support is unavailable (RAID virtual disk or USB bridge? try the "
                "controller's pass-through type with -d)"]
    if kind == "hdd":
        rpm = f" ({snap.rotation_rate:,} rpm)" if snap.rotation_rate else ""
        shown = "; ".join(r.detail for r in readings)
        if shown:  # ATA Device Statistics' endurance indicator exists on some hard disks and hybrid (SSHD) drives
            return [f"HDD{rpm}: {shown} is shown for information only: on a drive with a rotation rate it does "
                    "not measure flash wear, so no wear figure, verdict or projection comes from it"]
        return [f"HDD{rpm}: no flash wear indicator; wear figures do not apply"]
    if chosen is None and kind != "unknown":
        return ["no lifetime wear indicator ssdwear can trust on this drive"]
    return []


def _projection(timed: Optional[TimedResult], chosen: Optional[UsedReading], snap: Snapshot, ctx: Context,
                host_bytes_written: Optional[int]) -> Optional[Projection]:
    """The timed window's projection when it measured one since a reset, else the lifetime average's."""
    window = timed.window if timed is not None else None
    since_reset = timed is not None and timed.lifetime is None  # a never-reset timer is the lifetime, not a window
    if timed is not None and window is not None and window.valid and since_reset and window.minutes \
            and window.wear_steps is not None:
        return timed_projection(timed, chosen, snap, ctx)
    if chosen is not None:
        return lifetime_projection(chosen, snap, host_bytes_written, ctx.interval_level)
    return None


def failed(device: str, message: str, device_type: Optional[str] = None) -> DriveReport:
    """The report of a drive that could not be read (with the -d type it was tried with)."""
    return DriveReport(device=device, device_type=device_type, error=message)


def with_projection(report: DriveReport, window: Window, projection: Optional[Projection],
                    readings: int, notes: Sequence[str] = (), warnings: Sequence[str] = ()) -> DriveReport:
    """A report whose window/projection come from several readings (saved outputs or history)."""
    return replace(report, window=window, projection=projection or report.projection, readings=readings,
                   notes=report.notes + tuple(notes), warnings=report.warnings + tuple(warnings))
