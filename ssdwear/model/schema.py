"""The drive's JSON: DriveReport -> plain data (dicts of JSON types), exactly the entry of every drive in the JSON and
YAML documents (the interface, documented in docs/json.md), the baseline a reset stores and DriveReport.to_dict().
A change here changes the interface: SCHEMA_VERSION says which one a document follows."""

from __future__ import annotations

import math
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from .records import DriveReport, Projection, Window

SCHEMA_VERSION = 2  # 2: projections carry calibrated intervals (percent_per_year_low/_high, years_*_low/_high)


def _num(value: Optional[float], digits: int) -> Optional[float]:
    if value is None or (isinstance(value, float) and (math.isnan(value) or math.isinf(value))):
        return None
    rounded = round(float(value), digits)
    return int(rounded) if rounded.is_integer() and abs(rounded) < 2**53 and digits == 0 else rounded


def window_dict(w: Optional[Window]) -> Optional[dict[str, Any]]:
    if w is None:
        return None
    return {
        "kind": w.kind,
        "valid": w.valid,
        "reason": w.reason,
        "minutes": _num(w.minutes, 1),
        "wear_percent": _num(w.wear_percent, 6),
        "wear_steps": w.wear_steps,
        "host_reads_percent": _num(w.host_reads_percent, 1),
        "represents_minutes": _num(w.represents_minutes, 1),
        "valid_in_minutes": _num(w.valid_in_minutes, 1),
        "counter": w.counter,
    }


def projection_dict(p: Optional[Projection]) -> Optional[dict[str, Any]]:
    if p is None:
        return None
    return {
        "method": p.method,
        "basis": p.basis,
        "percent_per_year": _num(p.percent_per_year, 4),
        "percent_per_year_low": _num(p.percent_per_year_low, 4),
        "percent_per_year_high": _num(p.percent_per_year_high, 4),
        "years_remaining": _num(p.years_remaining, 2),
        "years_remaining_low": _num(p.years_remaining_low, 2),
        "years_remaining_high": _num(p.years_remaining_high, 2),
        "years_new_drive": _num(p.years_new_drive, 2),
        "years_new_drive_low": _num(p.years_new_drive_low, 2),
        "years_new_drive_high": _num(p.years_new_drive_high, 2),
        "interval_level": p.interval_level,
        "interval": "calibrated" if p.interval_level is not None else "resolution",
        "wear_class": p.wear_class,
        "rates": {name: _num(value, 4) for name, value in p.rates.items()},
        "trend": None if p.trend is None else {
            "direction": p.trend.direction,
            "years_at_recent": _num(p.trend.years_at_recent, 2),
            "years_at_lifetime": _num(p.trend.years_at_lifetime, 2),
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
        "power_on_hours": _num(r.power_on_hours, 2),
        "used_percent": _num(r.used_percent, 3),
        "used_at_least": r.used_at_least,
        "used_source": r.used_source,
        "used_step": _num(r.used_step, 10),
        "used_sources": [dict(source=s.source, percent=_num(s.percent, 3), at_least=s.at_least, detail=s.detail)
                         for s in r.used_sources],
        "window": window_dict(r.window),
        "projection": projection_dict(r.projection),
        "writes": writes,
        "health": {**asdict(r.health), "failing_attributes": list(r.health.failing_attributes)},
        "smart_available": r.smart_available,
        "warnings": list(r.warnings),
        "notes": list(r.notes),
        "error": r.error,
        "source": r.source,
        "readings": r.readings,
    }
