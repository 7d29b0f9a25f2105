"""The drive's JSON: DriveReport -> plain data (dicts of JSON types), exactly the entry of every drive in the JSON and
YAML documents (the interface, documented in docs/json.md), the baseline a reset stores and DriveReport.to_dict().
A change here changes the interface: SCHEMA_VERSION says which one a document follows."""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datetime import datetime

    from .groups import Group, GroupMember
    from .records import CounterReading, DriveReport, FineWear, Projection, Window

# 2: projections carry calibrated intervals (percent_per_year_low/_high, years_*_low/_high); 3: finer wear counters
# (used_fine_percent, used_fine, counters), the counter window (window kind 'counter', projection 'window:COUNTER')
SCHEMA_VERSION = 3


def rounded(value: float | None, digits: int) -> float | None:
    """A figure as every document holds it: rounded to `digits`, a whole number (digits 0) as an integer; None for
    an unknown or unbounded value (None, nan, infinity). The one rounding of ssdwear's documents."""
    if value is None or not math.isfinite(value):
        return None
    return round(value) if digits == 0 else round(float(value), digits)


def window_dict(w: Window | None) -> dict[str, Any] | None:
    if w is None:
        return None
    return {
        "kind": w.kind,
        "valid": w.valid,
        "reason": w.reason,
        "minutes": rounded(w.minutes, 1),
        "wear_percent": rounded(w.wear_percent, 6),
        "wear_steps": w.wear_steps,
        "host_reads_percent": rounded(w.host_reads_percent, 1),
        "represents_minutes": rounded(w.represents_minutes, 1),
        "valid_in_minutes": rounded(w.valid_in_minutes, 1),
        "counter": w.counter,
        "wear_percent_low": rounded(w.wear_percent_low, 6),
        "wear_percent_high": rounded(w.wear_percent_high, 6),
        "counter_delta": w.counter_delta,
        "started_at": w.started_at.isoformat(timespec="seconds") if w.started_at else None,
        "write_amplification": rounded(w.write_amplification, 3),
    }


def fine_dict(f: FineWear | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {
        "source": f.source,
        "percent": rounded(f.percent, 4),
        "percent_low": rounded(f.low, 4),
        "percent_high": rounded(f.high, 4),
        "uncertainty": None if f.low is None or f.high is None else rounded((f.high - f.low) / 2, 4),
        "calibration": f.calibration,
        "per_unit": f.per_unit,
        "per_unit_low": f.per_unit_low,
        "per_unit_high": f.per_unit_high,
        "detail": f.detail,
    }


def counter_dict(c: CounterReading) -> dict[str, Any]:
    return {"source": c.source, "kind": c.kind, "value": c.value, "unit": c.unit, "unit_bytes": c.unit_bytes,
            "rated": c.rated, "detail": c.detail, "rated_detail": c.rated_detail or None}


def projection_dict(p: Projection | None) -> dict[str, Any] | None:
    if p is None:
        return None
    return {
        "method": p.method,
        "basis": p.basis,
        "percent_per_year": rounded(p.percent_per_year, 4),
        "percent_per_year_low": rounded(p.percent_per_year_low, 4),
        "percent_per_year_high": rounded(p.percent_per_year_high, 4),
        "years_remaining": rounded(p.years_remaining, 2),
        "years_remaining_low": rounded(p.years_remaining_low, 2),
        "years_remaining_high": rounded(p.years_remaining_high, 2),
        "years_new_drive": rounded(p.years_new_drive, 2),
        "years_new_drive_low": rounded(p.years_new_drive_low, 2),
        "years_new_drive_high": rounded(p.years_new_drive_high, 2),
        "interval_level": p.interval_level,
        "interval": "calibrated" if p.interval_level is not None else "resolution",
        "wear_class": p.wear_class,
        "rates": {name: rounded(value, 4) for name, value in p.rates.items()},
        "duty_cycle": rounded(p.duty_cycle, 4),
        "duty_cycle_measured": p.duty_measured,
        "duty_cycle_basis": p.duty_basis,
        "wears_out_date": None if p.wears_out_at is None else p.wears_out_at.date().isoformat(),
        "wears_out_date_low": None if p.wears_out_low_at is None else p.wears_out_low_at.date().isoformat(),
        "trend": None if p.trend is None else {
            "direction": p.trend.direction,
            "years_at_recent": rounded(p.trend.years_at_recent, 2),
            "years_at_lifetime": rounded(p.trend.years_at_lifetime, 2),
            "text": p.trend.text,
        },
    }


def drive_dict(r: DriveReport) -> dict[str, Any]:
    writes = asdict(r.writes)
    writes["sources"] = dict(r.writes.sources)
    return {
        "device": r.device,
        "device_type": r.device_type,
        "model": r.model,
        "serial": r.serial,
        "wwn": r.wwn,
        "firmware": r.firmware,
        "interface": r.interface,
        "kind": r.kind,
        "capacity_bytes": r.capacity_bytes,
        "power_on_hours": rounded(r.power_on_hours, 2),
        "power_on_minutes": r.power_on_minutes,
        "used_percent": rounded(r.used_percent, 3),
        "used_at_least": r.used_at_least,
        "used_source": r.used_source,
        "used_step": rounded(r.used_step, 10),
        "used_sources": [dict(source=s.source, percent=rounded(s.percent, 3), at_least=s.at_least, detail=s.detail)
                         for s in r.used_sources],
        "used_fine_percent": rounded(r.fine.percent, 4) if r.fine is not None else None,
        "used_fine": fine_dict(r.fine),
        "counters": [counter_dict(c) for c in r.counters],
        "window": window_dict(r.window),
        "projection": projection_dict(r.projection),
        "writes": writes,
        "health": {**asdict(r.health), "failing_attributes": list(r.health.failing_attributes),
                   "temperatures_at_threshold": list(r.health.temperatures_at_threshold)},
        "smart_available": r.smart_available,
        "warnings": list(r.warnings),
        "notes": list(r.notes),
        "error": r.error,
        "error_reason": r.error_reason,
        "source": r.source,
        "readings": r.readings,
    }


def _day(at: datetime | None) -> str | None:
    return None if at is None else at.date().isoformat()


def member_dict(m: GroupMember) -> dict[str, Any]:
    r, p = m.report, m.projection
    return {
        "member": m.member,
        "state": m.state,
        "working": m.working,
        "device": None if r is None else r.where,
        "serial": None if r is None else r.serial,
        "model": None if r is None else r.model,
        "wwn": None if r is None else r.wwn,
        "matched_by": m.matched_by,
        "years_remaining": None if p is None else rounded(p.years_remaining, 2),
        "years_remaining_low": None if p is None else rounded(p.years_remaining_low, 2),
        "wears_out_date": None if p is None else _day(p.wears_out_at),
        "wears_out_date_low": None if p is None else _day(p.wears_out_low_at),
        "note": m.note,
    }


def group_dict(g: Group) -> dict[str, Any]:
    """A redundancy group's entry in `report --groups` (docs/json.md, GROUP)."""
    return {
        "name": g.name,
        "kind": g.kind,
        "level": g.level,
        "role": g.role,
        "tolerates": g.tolerates,
        "missing": g.missing,
        "state": g.state,
        "uuid": g.uuid,
        "members": [member_dict(m) for m in g.members],
        "redundancy_lost_date": _day(g.redundancy_lost_at),
        "redundancy_lost_date_low": _day(g.redundancy_lost_low_at),
        "lockstep": g.lockstep,
        "lockstep_reasons": list(g.lockstep_reasons),
        "notes": list(g.notes),
    }
