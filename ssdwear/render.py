"""Reports -> text. One function per output format; the JSON document is the interface (see README)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, Optional

from .model import DriveReport, Projection, Window
from .units import human_bytes, human_minutes

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
        "warnings": list(r.warnings),
        "notes": list(r.notes),
        "error": r.error,
        "source": r.source,
        "readings": r.readings,
    }


def document(reports: Sequence[DriveReport], origin: str, generated_at: str, version: str) -> dict[str, Any]:
    return {
        "schema": SCHEMA_VERSION,
        "ssdwear": version,
        "generated_at": generated_at,
        "origin": origin,
        "drives": [drive_dict(r) for r in reports],
    }


def to_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def to_yaml(doc: dict[str, Any]) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000))


# ------------------------------------------------------------------------------------------------
# Text for people


def fmt_range(central: Optional[float], low: Optional[float], high: Optional[float]) -> str:
    """'18.7 (17.5-20.0)'; '≥ 11.7' when no wear was seen (no upper bound); '-' when unknown."""
    if central is None:
        return f"≥ {_short(low)}" if low is not None else "-"
    if low is None or high is None:
        return f"{_short(central)} (≥ {_short(low)})" if low is not None else _short(central)
    if _short(low) == _short(high):
        return _short(central)
    return f"{_short(central)} ({_short(low)}-{_short(high)})"


def interval_words(p: Projection) -> str:
    """What the bracketed range means, in words."""
    if p.interval_level is None:
        return "range: the counter's resolution"
    return f"range: {p.interval_level * 100:g} % prediction interval"


def years_left(p: Optional[Projection]) -> str:
    if p is None or (p.years_remaining is None and p.years_remaining_low is None):
        return "-"
    return fmt_range(p.years_remaining, p.years_remaining_low, p.years_remaining_high)


def years_new(p: Optional[Projection]) -> str:
    if p is None:
        return "-"
    return fmt_range(p.years_new_drive, p.years_new_drive_low, p.years_new_drive_high)


def _short(years: Optional[float]) -> str:
    if years is None:
        return "-"
    if years >= 1000:
        return f"{years:,.0f}"
    if years >= 100:
        return f"{years:.0f}"
    return f"{years:.1f}"


def fmt_used(r: DriveReport) -> str:
    if r.used_percent is None:
        return "-"
    return f"{'≥' if r.used_at_least else ''}{r.used_percent:g} %"


def fmt_window(w: Optional[Window]) -> str:
    if w is None:
        return "-"
    if not w.valid:
        if w.reason and w.reason.startswith("timer not trustworthy"):
            return "not trustworthy"
        return "not valid yet" if w.kind == "timed-workload" else "no window"
    parts = [human_minutes(w.minutes)]
    if w.wear_percent is not None:
        parts.append(f"{w.wear_percent:.4g} %")
    if w.host_reads_percent is not None:
        parts.append(f"{w.host_reads_percent:g} % reads")
    return ", ".join(parts)


def table(reports: Sequence[DriveReport], title: Optional[str] = None, width: Optional[int] = None) -> Any:
    """A rich renderable: one row per drive, then each drive's warnings."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    t = Table(title=title, show_lines=False, expand=False)
    for name, justify in (("Drive", "left"), ("Used", "right"), ("Window", "left"), ("%/year", "right"),
                          ("Years left", "right"), ("New drive", "right"), ("Written", "right")):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    lines: list[Any] = []
    for r in reports:
        who = " ".join(x for x in (r.model, r.serial and f"[{r.serial}]") if x) or "?"
        device = r.device or ""
        if r.error:
            t.add_row(Text(f"{device}"), Text("ERROR: " + r.error, style="red"), "", "", "", "", "")
            continue
        p = r.projection
        rate = "-" if p is None or p.percent_per_year is None else f"{p.percent_per_year:.3g}"
        t.add_row(Text(f"{who}\n{device} ({r.interface}{', ' + r.kind if r.kind != 'unknown' else ''})"),
                  fmt_used(r), fmt_window(r.window), rate, years_left(p), years_new(p),
                  human_bytes(r.writes.host_bytes_written) + (
                      f"\n+{human_bytes(r.writes.host_bytes_per_day)}/day"
                      if r.writes.host_bytes_per_day is not None else ""))
        label = f"{device} {r.serial or ''}".strip()
        if p is not None:
            lines.append(Text(f"{label}: projection by {p.method} ({interval_words(p)}): {p.basis}", style="dim"))
        if r.window is not None and r.window.reason:
            lines.append(Text(f"{label}: window: {r.window.reason}"))
        for note in r.notes:
            if r.window is None or note != r.window.reason:
                lines.append(Text(f"{label}: {note}", style="dim"))
        for warning in r.warnings:
            lines.append(Text(f"{label}: warning: {warning}", style="yellow"))
    return Group(t, *lines)


# ------------------------------------------------------------------------------------------------
# History series


SAMPLE_FIELDS = ("at", "power_on_hours", "used_percent", "used_source", "host_bytes_written", "host_bytes_read",
                 "nand_bytes_written", "e2h", "e3h", "e4h", "available_spare", "media_errors")


def _sample_row(s: Any) -> dict[str, Any]:
    row = {name: getattr(s, name) for name in SAMPLE_FIELDS}
    row["at"] = s.at.isoformat(timespec="seconds")
    return row


def samples_doc(drive: dict[str, Any], series: Sequence[Any]) -> dict[str, Any]:
    return {"drive": {k: drive[k] for k in ("model", "serial", "wwn", "interface")},
            "samples": [_sample_row(s) for s in series]}


def samples_csv(series: Sequence[Any]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(SAMPLE_FIELDS), lineterminator="\n")
    writer.writeheader()
    for s in series:
        writer.writerow({k: "" if v is None else v for k, v in _sample_row(s).items()})
    return out.getvalue()


def sparkline_chart(title: str, points: Sequence[tuple[float, float]], width: int = 60, height: int = 8,
                    fmt: str = "{:.4g}") -> list[str]:
    """A plain-text chart: time on x (oldest left), value on y, one column per time bucket."""
    if not points:
        return [f"{title}: no data"]
    t0, t1 = points[0][0], points[-1][0]
    columns: list[Optional[float]] = [None] * width
    for t, v in points:
        i = 0 if t1 == t0 else min(width - 1, int((t - t0) / (t1 - t0) * (width - 1)))
        columns[i] = v
    values = [v for v in columns if v is not None]
    lo, hi = min(values), max(values)
    if hi == lo:
        hi = lo + 1
    rows = []
    for level in range(height, 0, -1):
        threshold = lo + (hi - lo) * (level - 0.5) / height
        cells = "".join(" " if v is None else ("█" if v >= threshold else " ") for v in columns)
        label = fmt.format(hi) if level == height else fmt.format(lo) if level == 1 else ""
        rows.append(f"{label:>10} │{cells}")
    rows.append(f"{'':>10} └{'─' * width}")
    return [title, *rows]


def history_chart(drive: dict[str, Any], series: Sequence[Any]) -> str:
    if not series:
        return f"{drive['model']} [{drive['serial']}]: no samples in this period"
    first, last = series[0].at, series[-1].at
    stamp = [(s.at.timestamp(), s) for s in series]
    lines = [f"{drive['model']} [{drive['serial'] or drive['wwn']}]: {len(series)} samples from "
             f"{first:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M} UTC", ""]
    used = [(t, float(s.used_percent)) for t, s in stamp if s.used_percent is not None]
    lines += sparkline_chart("Wear used (% of rated endurance)", used, fmt="{:.3g} %")
    lines.append("")
    written = [(t, s.host_bytes_written / 1e12) for t, s in stamp if s.host_bytes_written is not None]
    lines += sparkline_chart("Host writes (TB)", written, fmt="{:.4g} TB")
    return "\n".join(lines)
