"""Reports -> OTLP/JSON metrics (`--format otlp`): an ExportMetricsServiceRequest in the protobuf JSON mapping
(opentelemetry-proto, metrics/v1/metrics.proto: lowerCamelCase keys, 64-bit integers as decimal strings, enums as
numbers), for an OpenTelemetry collector's OTLP/HTTP receiver (POST it to /v1/metrics) or its file receiver.

One resource per drive: `host.name` and the drive's identity (`hw.id`, `hw.type`, `hw.name`, `hw.model`,
`hw.serial_number`, `hw.firmware_version`, `hw.physical_disk.type`, `ssdwear.wwn`). Names and units from the
OpenTelemetry hardware semantic conventions where they exist (semantic-conventions, model/hardware/
physical-disk-metrics.yaml and common-metrics.yaml: `hw.physical_disk.endurance_utilization`,
`hw.physical_disk.size`, `hw.errors`, `hw.status`, each data point with the attributes they require); ssdwear's
own figures otherwise, as `ssdwear.*`, in the base units of the Prometheus exposition they come from (render/
prometheus.metric_lines: one derivation of every figure). A last resource (`host.name` only) carries the run."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from ssdwear.model.records import DriveReport

from .influx import nanoseconds
from .prometheus import METRICS, Labels, metric_lines

Kind = Literal["gauge", "sum", "updown"]  # a gauge; a monotonic cumulative sum (a counter); a non-monotonic sum
CUMULATIVE = 2  # AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE
# Prometheus name -> (OpenTelemetry name, UCUM unit, kind, value type). ssdwear_smart_passed and
# ssdwear_media_errors_total become hw.status and hw.errors (hardware_metrics); ssdwear_drive_info is the resource.
NAMES: dict[str, tuple[str, str, Kind, str]] = {
    "ssdwear_read_ok": ("ssdwear.read_ok", "1", "gauge", "int"),
    "ssdwear_read_duration_seconds": ("ssdwear.read_duration", "s", "gauge", "double"),
    "ssdwear_used_ratio": ("ssdwear.used", "1", "gauge", "double"),
    "ssdwear_used_fine_ratio": ("ssdwear.used_fine", "1", "gauge", "double"),
    "ssdwear_used_saturated": ("ssdwear.used_saturated", "1", "gauge", "int"),
    "ssdwear_life_remaining_seconds": ("ssdwear.life_remaining", "s", "gauge", "int"),
    "ssdwear_life_remaining_lower_seconds": ("ssdwear.life_remaining_lower", "s", "gauge", "int"),
    "ssdwear_life_remaining_upper_seconds": ("ssdwear.life_remaining_upper", "s", "gauge", "int"),
    "ssdwear_wears_out_timestamp_seconds": ("ssdwear.wears_out_timestamp", "s", "gauge", "int"),
    "ssdwear_wears_out_lower_timestamp_seconds": ("ssdwear.wears_out_lower_timestamp", "s", "gauge", "int"),
    "ssdwear_duty_cycle_ratio": ("ssdwear.duty_cycle", "1", "gauge", "double"),
    "ssdwear_wear_rate_ratio_per_year": ("ssdwear.wear_rate", "1/a", "gauge", "double"),
    "ssdwear_wear_rate_upper_ratio_per_year": ("ssdwear.wear_rate_upper", "1/a", "gauge", "double"),
    "ssdwear_projection_interval_ratio": ("ssdwear.projection_interval", "1", "gauge", "double"),
    "ssdwear_wear_trend": ("ssdwear.wear_trend", "1", "gauge", "int"),
    "ssdwear_timed_window_valid": ("ssdwear.timed_window_valid", "1", "gauge", "int"),
    "ssdwear_timed_window_seconds": ("ssdwear.timed_window", "s", "gauge", "int"),
    "ssdwear_power_on_seconds_total": ("ssdwear.power_on", "s", "sum", "int"),
    "ssdwear_host_written_bytes_total": ("ssdwear.host_written", "By", "sum", "int"),
    "ssdwear_host_read_bytes_total": ("ssdwear.host_read", "By", "sum", "int"),
    "ssdwear_nand_written_bytes_total": ("ssdwear.nand_written", "By", "sum", "int"),
    "ssdwear_rated_written_bytes": ("ssdwear.rated_written", "By", "gauge", "int"),
    "ssdwear_available_spare_ratio": ("ssdwear.available_spare", "1", "gauge", "double"),
    "ssdwear_available_spare_threshold_ratio": ("ssdwear.available_spare_threshold", "1", "gauge", "double"),
    "ssdwear_critical_warning": ("ssdwear.critical_warning", "1", "gauge", "int"),
}
HARDWARE = {"ssdwear_smart_passed", "ssdwear_media_errors_total"}  # become hw.status and hw.errors
HELP = {name: text for name, (_, text) in METRICS.items()}


def _any(value: str | int | float) -> dict[str, Any]:
    if isinstance(value, int):  # bool too
        return {"intValue": str(int(value))}
    if isinstance(value, float):
        return {"doubleValue": value}
    return {"stringValue": value}


def attributes(pairs: Sequence[tuple[str, str | int | float | None]]) -> list[dict[str, Any]]:
    """OTLP KeyValues; a value None or "" is left out."""
    return [{"key": k, "value": _any(v)} for k, v in pairs if v is not None and v != ""]


def _point(value: float, value_type: str, ns: str, attrs: Sequence[tuple[str, str | None]] = ()) -> dict[str, Any]:
    number: dict[str, Any] = {"asInt": str(round(value))} if value_type == "int" else {"asDouble": float(value)}
    return {"attributes": attributes(attrs), "timeUnixNano": ns, **number}


def _metric(name: str, unit: str, kind: Kind, description: str, points: list[dict[str, Any]]) -> dict[str, Any]:
    body: dict[str, Any] = {"dataPoints": points}
    if kind != "gauge":
        body.update(aggregationTemporality=CUMULATIVE, isMonotonic=kind == "sum")
    return {"name": name, "description": description, "unit": unit, "gauge" if kind == "gauge" else "sum": body}


def hw_id(r: DriveReport) -> str:
    """The drive's `hw.id`, unique on the host: its serial, else its WWN, else where it was read."""
    return r.serial or (f"wwn:{r.wwn}" if r.wwn else r.where)


def resource(r: DriveReport, host: str | None) -> list[dict[str, Any]]:
    disk_type = {"ssd": "SSD", "hdd": "HDD"}.get(r.kind)
    return attributes([("host.name", host), ("hw.id", hw_id(r)), ("hw.type", "physical_disk"),
                       ("hw.name", r.device and r.where), ("hw.model", r.model), ("hw.serial_number", r.serial),
                       ("hw.firmware_version", r.firmware), ("hw.physical_disk.type", disk_type),
                       ("ssdwear.wwn", r.wwn)])


def hardware_metrics(r: DriveReport, ns: str) -> list[dict[str, Any]]:
    """The hardware semantic conventions' metrics of a drive that was read, each data point with the attributes
    they require (hw.id; hw.physical_disk.state, hw.type, hw.state; error.type only once an error occurred)."""
    if r.error:
        return []
    ident: list[tuple[str, str | None]] = [("hw.id", hw_id(r))]
    disk = [*ident, ("hw.type", "physical_disk")]
    out = []
    if r.used_percent is not None:  # the endurance remaining, 0 to 1: used up past 100 % is none left
        remaining = min(1.0, max(0.0, 1 - r.used_percent / 100))
        out.append(_metric("hw.physical_disk.endurance_utilization", "1", "gauge", "Endurance remaining for this "
                           "SSD: 1 - ssdwear.used, within 0 and 1.",
                           [_point(remaining, "double", ns, [*ident, ("hw.physical_disk.state", "remaining")])]))
    if r.capacity_bytes is not None:
        out.append(_metric("hw.physical_disk.size", "By", "updown", "Size of the disk.",
                           [_point(r.capacity_bytes, "int", ns, ident)]))
    h = r.health
    if h.media_errors is not None:
        kind = [("error.type", "uncorrected")] if h.media_errors > 0 else []
        out.append(_metric("hw.errors", "{error}", "sum", HELP["ssdwear_media_errors_total"],
                           [_point(h.media_errors, "int", ns, [*disk, *kind])]))
    if h.smart_passed is not None:
        states = (("ok", h.smart_passed), ("predicted_failure", not h.smart_passed))
        out.append(_metric("hw.status", "1", "updown", "1 for the state the SMART overall-health self-assessment "
                           "says (ok, or predicted_failure when it failed), 0 for the other.",
                           [_point(1 if on else 0, "int", ns, [*disk, ("hw.state", state)]) for state, on in states]))
    return out


def _extra(pairs: Labels) -> list[tuple[str, str | None]]:
    """A series' labels beyond the drive's own (source, method), as ssdwear.* attributes."""
    return [(f"ssdwear.{k}", v) for k, v in pairs if k not in ("device", "model", "serial")]


def drive_metrics(r: DriveReport, ns: str) -> list[dict[str, Any]]:
    out = []
    for name, pairs, value in metric_lines(r):
        if name in HARDWARE:
            continue
        otel, unit, kind, value_type = NAMES[name]
        out.append(_metric(otel, unit, kind, HELP[name], [_point(value, value_type, ns, _extra(pairs))]))
    return out + hardware_metrics(r, ns)


def _scope(version: str, metrics: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"scope": {"name": "ssdwear", "version": version}, "metrics": metrics}]


def otlp_request(reports: Sequence[DriveReport], now: datetime, host: str | None, version: str) -> dict[str, Any]:
    """The ExportMetricsServiceRequest of a run: a resource per drive, then the run's."""
    ns = str(nanoseconds(now))
    drives = [{"resource": {"attributes": resource(r, host)}, "scopeMetrics": _scope(version, drive_metrics(r, ns))}
              for r in reports]
    run = [_metric("ssdwear.last_run_timestamp", "s", "gauge", HELP["ssdwear_last_run_timestamp_seconds"],
                   [_point(now.timestamp(), "int", ns)]),
           _metric("ssdwear.drives", "{drive}", "gauge", HELP["ssdwear_drives"], [_point(len(reports), "int", ns)])]
    return {"resourceMetrics": [*drives, {"resource": {"attributes": attributes([("host.name", host)])},
                                          "scopeMetrics": _scope(version, run)}]}


def otlp_json(reports: Sequence[DriveReport], now: datetime, host: str | None, version: str) -> str:
    """The request as one line of JSON (the file receiver reads one request a line)."""
    import json

    return json.dumps(otlp_request(reports, now, host, version), separators=(",", ":")) + "\n"
