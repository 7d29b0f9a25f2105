"""The timed workload as a family's row gives it: where its E2h/E3h/E4h are (SATA attributes 226-228, or the entries
of an NVMe vendor log page), their values, the broken-counter pattern, and the reset guard: the drives whose reset
is documented (the row's resets, each with its documentation's model and firmware expressions) and why any other
drive is refused."""

from __future__ import annotations

from ssdwear.model.family import Reset, TimedWorkload
from ssdwear.model.records import E2H_STEPS_PER_PERCENT, TIMER_SENTINELS, Snapshot

from .families import FAMILIES, family_of, matches_whole


def timed_log_page(snap: Snapshot) -> int | None:
    """The vendor log page to read for this drive's timed workload (one extra smartctl call), or None: only the
    families whose page is documented (Intel/Solidigm data-centre NVMe)."""
    timed = family_of(snap).timed
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


# E2h, E3h, E4h by their Intel numbers (226-228, keys E2h-E4h of log 0xCA), whatever IDs a family keeps them under.
ROLES = (226, 227, 228)


def _timed_values(snap: Snapshot, timed: TimedWorkload) -> dict[int, int | None] | None:
    """E2h, E3h, E4h raw values by role (ROLES), or None when the drive does not show all three."""
    if timed.log_page is not None:
        page = snap.nvme_logs.get(timed.log_page)
        entries = log_entries(page) if page else {}
        if snap.interface != "nvme" or not all(i in entries for i in timed.ids):
            return None  # another vendor's page 0xCA, a failed read, or none
        return {role: entries[i] for role, i in zip(ROLES, timed.ids, strict=True)}
    if snap.interface != "ata":
        return None
    attrs = {role: snap.attr(i) for role, i in zip(ROLES, timed.ids, strict=True)}
    if any(a is None or a.name == "Intel_Internal" for a in attrs.values()):
        return None
    return {role: a.raw if a is not None else None for role, a in attrs.items()}


def trio(snap: Snapshot) -> TimedWorkload:
    """The timed workload of this drive's row (its IDs and names); Intel's where the row has none."""
    return family_of(snap).timed or TimedWorkload()


def documented_reset(snap: Snapshot) -> Reset | None:
    """The documentation of this drive's timed-workload reset (its model, and firmware where the documentation
    names one, match), or None: the reset is not documented for it."""
    timed = family_of(snap).timed
    return next((r for r in (timed.resets if timed else ()) if matches_whole(r.model, snap.model)
                 and (r.firmware is None or matches_whole(r.firmware, snap.firmware))), None)


def has_timed_workload(snap: Snapshot) -> bool:
    """A drive whose row carries the timed-workload trio, showing all three (SATA: attributes the drive database
    does not call Intel_Internal; NVMe: entries of the vendor log page)."""
    timed = family_of(snap).timed
    return timed is not None and _timed_values(snap, timed) is not None


def timed_raw(snap: Snapshot, attr_id: int) -> int | None:
    """Raw value of E2h/E3h/E4h (by Intel's numbers, 226/227/228: ROLES) on a drive that carries the timed workload;
    None on every other."""
    timed = family_of(snap).timed
    values = _timed_values(snap, timed) if timed is not None else None
    return None if values is None else values.get(attr_id)


def timed_value(snap: Snapshot, attr_id: int) -> int | None:
    """Raw value of 226/227/228 once the timer counts: None while it holds its sentinel (65535 for 60 power-on
    minutes after a reset) and on drives without the timed workload."""
    raw = timed_raw(snap, attr_id)
    return None if raw is None or raw in TIMER_SENTINELS else raw


def impossible_timed(snap: Snapshot, e2: int, e4: int) -> bool:
    """E2h/E4h form a pattern of this family's broken firmware counters, not a measurement."""
    timed = family_of(snap).timed
    return bool(timed and timed.impossible and e2 == timed.impossible[0] and e4 >= timed.impossible[1])


def documented(interface: str) -> str:
    """The families the reset is documented for, on drives of this interface (for the refusal)."""
    timed = [r.timed for r in FAMILIES if interface in r.interfaces and r.timed is not None]
    return ", ".join(dict.fromkeys(reset.name for t in timed for reset in t.resets))


def reset_forbidden(snap: Snapshot) -> str | None:
    """Why the timer reset is never sent to this drive, even with --force (its family's row says), else None."""
    return family_of(snap).no_timer_reset


def reset_refusal(snap: Snapshot) -> str | None:
    """Why ssdwear must not send the timer reset to this drive; None when the reset is documented for it."""
    what = snap.model or "this drive"
    forbidden = reset_forbidden(snap)
    if forbidden is not None:
        return f"{what} is a {family_of(snap).name} drive, never sent a timer reset: {forbidden}"
    if snap.interface == "nvme":
        return _nvme_reset_refusal(snap, what)
    if snap.interface != "ata":
        return f"{what} is not an ATA drive; vendor subcommand 0x40 is defined only for Intel SATA SSDs"
    row = family_of(snap)
    if row.timed is None:
        family = f" (smartctl's drive database: {snap.model_family})" if snap.model_family else ""
        return f"{what} is not an Intel/Solidigm SSD{family}; vendor subcommands are undefined on other drives"
    ids = f"{row.timed.ids[0]}-{row.timed.ids[2]}"
    if not has_timed_workload(snap):
        return f"{what} does not report the timed-workload attributes {ids}"
    if documented_reset(snap) is None:
        firmware = f" on firmware {snap.firmware}" if snap.firmware else ""
        return (f"{what}{firmware} has attributes {ids}, but the reset is not documented for it (only for "
                f"{documented('ata')})")
    return None


def _nvme_reset_refusal(snap: Snapshot, what: str) -> str | None:
    if documented_reset(snap) is None:
        return (f"{what} is not an Intel/Solidigm data-centre NVMe SSD; Set Features 0xD5 is vendor-specific and "
                f"documented only for {documented('nvme')}")
    if not has_timed_workload(snap):
        return f"{what} did not show the timed-workload counters (E2h-E4h in vendor log 0xCA)"
    return None


# E2h of a timer never reset: the drive's whole life in 1/1024 % steps (assess/timed_window.py makes this reading);
# every family's, by the used_source its row gives it.
E2H_LIFETIME_SOURCE = "intel_e2h_since_manufacture"
LIFETIME_SOURCES = frozenset({E2H_LIFETIME_SOURCE, *(r.timed.lifetime_source for r in FAMILIES if r.timed)})


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
