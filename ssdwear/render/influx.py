"""Reports -> InfluxDB line protocol (`--format influx`), for Telegraf's exec input and InfluxDB's write API.

One point per drive in the measurement `ssdwear`: tags `device`, `host`, `model`, `serial` (a tag with no value is
left out, as the protocol requires); fields named as the drive's JSON entry names them (docs/json.md, DRIVE), each
always of one type (InfluxDB refuses a field whose type changes); the run's time in nanoseconds. Escaping as the
protocol's grammar says (influxdata/line-protocol, line-protocol.ebnf and its decoder): `,` `=` and space after a
backslash in tag keys, tag values and field keys, `,` and space in the measurement, `"` and `\\` in string fields.
Drive strings are untrusted: control characters, which the protocol cannot carry in a tag, are written as the
visible escapes every output of ssdwear uses (\\x1b), and a backslash in a tag as \\x5c, so no backslash of theirs
can escape the character after it (the protocol's documentation and its decoder read `\\\\` differently)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from typing import Any, Literal

from ssdwear.model.escape import visible
from ssdwear.model.records import DriveReport
from ssdwear.model.schema import drive_dict

MEASUREMENT = "ssdwear"
Kind = Literal["float", "int", "bool", "string"]

# field -> (type, its place in the drive's JSON entry), in the order of the line
FIELDS: tuple[tuple[str, Kind, tuple[str, ...]], ...] = (
    ("used_percent", "float", ("used_percent",)),
    ("used_at_least", "bool", ("used_at_least",)),
    ("used_source", "string", ("used_source",)),
    ("used_fine_percent", "float", ("used_fine_percent",)),
    ("years_remaining", "float", ("projection", "years_remaining")),
    ("years_remaining_low", "float", ("projection", "years_remaining_low")),
    ("years_remaining_high", "float", ("projection", "years_remaining_high")),
    ("percent_per_year", "float", ("projection", "percent_per_year")),
    ("percent_per_year_low", "float", ("projection", "percent_per_year_low")),
    ("percent_per_year_high", "float", ("projection", "percent_per_year_high")),
    ("interval_level", "float", ("projection", "interval_level")),
    ("duty_cycle", "float", ("projection", "duty_cycle")),
    ("method", "string", ("projection", "method")),
    ("window_valid", "bool", ("window", "valid")),
    ("window_minutes", "float", ("window", "minutes")),
    ("power_on_hours", "float", ("power_on_hours",)),
    ("capacity_bytes", "int", ("capacity_bytes",)),
    ("host_bytes_written", "int", ("writes", "host_bytes_written")),
    ("host_bytes_read", "int", ("writes", "host_bytes_read")),
    ("nand_bytes_written", "int", ("writes", "nand_bytes_written")),
    ("rated_bytes", "int", ("writes", "rated_bytes")),
    ("available_spare_percent", "int", ("health", "available_spare_percent")),
    ("available_spare_threshold_percent", "int", ("health", "available_spare_threshold_percent")),
    ("critical_warning", "int", ("health", "critical_warning")),
    ("media_errors", "int", ("health", "media_errors")),
    ("smart_passed", "bool", ("health", "smart_passed")),
    ("firmware", "string", ("firmware",)),
    ("wwn", "string", ("wwn",)),
    ("error", "string", ("error",)),
)
# Fields that are not in the JSON entry as such: the calendar wear-out times (the JSON has their dates), whether the
# drive was read.
COMPUTED: tuple[tuple[str, Kind], ...] = (("read_ok", "int"), ("wears_out_timestamp", "int"),
                                          ("wears_out_timestamp_low", "int"))
FIELD_TYPES: dict[str, Kind] = {**{name: kind for name, kind, _ in FIELDS}, **dict(COMPUTED)}
TAGS = ("device", "host", "model", "serial")


def _escaper(specials: str) -> Callable[[str], str]:
    def escape(text: str) -> str:
        for char in specials:
            text = text.replace(char, "\\" + char)
        return text

    return escape


escape_measurement = _escaper(", ")
escape_key = _escaper(",= ")  # tag keys, tag values and field keys


def tag_value(untrusted: str) -> str:
    """A drive string as a tag value: its backslashes and control characters made visible, then escaped."""
    return escape_key(visible(untrusted.replace("\\", "\\x5c")))


def string_field(untrusted: str) -> str:
    """A string field, quoted: control characters made visible, then `\\` and `"` escaped."""
    return '"' + visible(untrusted).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _value(kind: Kind, value: Any) -> str:
    if kind == "bool":
        return "true" if value else "false"
    if kind == "int":
        return f"{int(value)}i"
    if kind == "string":
        return string_field(str(value))
    return repr(float(value))


def _find(doc: Mapping[str, Any], path: Sequence[str]) -> Any:
    value: Any = doc
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


def _unix(at: datetime | None) -> int | None:
    return None if at is None else round(at.timestamp())  # as the exposition rounds them


def fields(r: DriveReport) -> dict[str, Any]:
    """The drive's fields (name -> value; those without a value left out), in the order of the line; of a drive
    that could not be read, why."""
    if r.error:
        return {"read_ok": 0, "error": r.error}
    doc = drive_dict(r)
    p = r.projection
    found: dict[str, Any] = {"read_ok": 0 if r.error else 1}
    found.update((name, _find(doc, path)) for name, _, path in FIELDS)
    found["wears_out_timestamp"] = _unix(p.wears_out_at) if p else None
    found["wears_out_timestamp_low"] = _unix(p.wears_out_low_at) if p else None
    return {name: value for name, value in found.items() if value is not None and value != ""}


def point(r: DriveReport, host: str | None, ns: int) -> str:
    """One drive's line."""
    tags = {"device": r.device and r.where, "host": host, "model": r.model, "serial": r.serial}
    tag_text = "".join(f",{escape_key(k)}={tag_value(v)}" for k, v in sorted(tags.items()) if v)
    field_text = ",".join(f"{escape_key(k)}={_value(FIELD_TYPES[k], v)}" for k, v in fields(r).items())
    return f"{escape_measurement(MEASUREMENT)}{tag_text} {field_text} {ns}"


def nanoseconds(at: datetime) -> int:
    """`at` as Unix nanoseconds, exactly (a float of ~1.8e18 ns would round to 256 ns)."""
    delta = at.astimezone(timezone.utc) - datetime(1970, 1, 1, tzinfo=timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


def line_protocol(reports: Sequence[DriveReport], now: datetime, host: str | None) -> str:
    """Every drive's point, one a line, all at the run's time `now`; `host` (this machine's name, None for saved
    outputs from elsewhere) tags each."""
    ns = nanoseconds(now)
    return "".join(point(r, host, ns) + "\n" for r in reports)
