"""Read smartctl's JSON output (``smartctl --json -x``, any ``json_format_version`` 1.x) into a Builder.

The document is refused before it is decoded when it holds more arrays and objects than smartctl ever prints,
and every string in it (keys too) has its control characters made visible once decoded. It is then read by
the parts in :data:`PARTS`, in order: smartctl's own header, the device and its interface, identity, health,
ATA attributes, ATA Device Statistics, the NVMe SMART/Health log, the SCSI logs, and power-on time. Each part
takes what has the expected type and ignores the rest; adding a part is one entry.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

from ssdwear.model.errors import ParseError
from ssdwear.model.records import Attribute, DevStat

from . import nvmelog
from .builder import Builder
from .values import (
    HINT_JSON,
    attr9_hours,
    clean_id,
    clean_str,
    gigabytes_to_bytes,
    jbool,
    jdict,
    jint,
    jlist,
    jpos,
    lu_id,
    naive_asctime,
    nvme_version,
    pci_vendor,
    raw_int,
    source_name,
    visible_json,
)

# Real smartctl JSON has a few thousand arrays and objects; a file with more is refused before it is decoded.
_MAX_JSON_CONTAINERS = 100_000
# Redaction placeholders seen in published captures (prometheus-community/smartctl_exporter's redact script).
_PLACEHOLDER_TIME_T = 1234567890
_PLACEHOLDER_WWN_ID = 1234567890

# nvme_smart_health_information_log key -> NvmeHealth field.
NVME_KEYS = {
    "critical_warning": "critical_warning",
    "temperature": "temperature_celsius",
    "available_spare": "available_spare",
    "available_spare_threshold": "available_spare_threshold",
    "percentage_used": "percentage_used",
    "data_units_read": "data_units_read",
    "data_units_written": "data_units_written",
    "host_reads": "host_read_commands",
    "host_writes": "host_write_commands",
    "power_cycles": "power_cycles",
    "power_on_hours": "power_on_hours",
    "unsafe_shutdowns": "unsafe_shutdowns",
    "media_errors": "media_errors",
    "num_err_log_entries": "error_log_entries",
}
# Top-level SCSI counts -> ScsiHealth field.
SCSI_KEYS = {
    "scsi_percentage_used_endurance_indicator": "percentage_used",
    "scsi_grown_defect_list": "grown_defects",
}
# scsi_error_counter_log rows -> ScsiHealth field of their gigabytes_processed.
SCSI_ERRLOG_BYTES = {"read": "bytes_read", "write": "bytes_written"}
_SCSI_ERRLOG_ROWS = ("read", "write", "verify")
# smartctl 7.0 and 7.1 wrote the grown defect list's length in bytes as scsi_grown_defect_list (4 or 8 bytes an
# element, by the list's format): smartmontools commit ab07de4d2, "Fix JSON value 'scsi_grown_defect_list'", 7.2
_DEFECT_BYTES_VERSIONS = frozenset({"7.0", "7.1"})
_JSON_FAIL = {"": "", "now": "FAILING_NOW", "past": "In_the_past"}


# --------------------------------------------------------------------------------------------------
# Values


def _json_wwn(v: object) -> str | None:
    d = jdict(v)
    naa, oui, ident = jint(d.get("naa")), jint(d.get("oui")), jint(d.get("id"))
    if naa is None or oui is None or ident is None:
        return None
    if ident == _PLACEHOLDER_WWN_ID or not (0 <= naa < 16 and 0 <= oui < 1 << 24 and 0 <= ident < 1 << 36):
        return None
    return f"{naa:x}{oui:06x}{ident:09x}"


def _json_local_time(v: object, notes: list[str]) -> datetime | None:
    d = jdict(v)
    t = jint(d.get("time_t"))
    if t is None or t == _PLACEHOLDER_TIME_T or not 0 < t < 253402300800:
        return None
    dt = datetime.fromtimestamp(t, timezone.utc)
    asctime = d.get("asctime")
    if isinstance(asctime, str):
        parsed = naive_asctime(asctime)
        if parsed is not None and abs(parsed[0] - dt.replace(tzinfo=None)) > timedelta(hours=27):
            notes.append(f"local_time.time_t {t} disagrees with asctime {asctime!r} (placeholder?); time not used")
            return None
    return dt


def _json_gigabytes(v: object) -> int | None:
    if isinstance(v, str):
        return gigabytes_to_bytes(v)
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)) and math.isfinite(v) and 0 <= v < 1e18:
        return round(v * 1000) * 1_000_000
    return None


# --------------------------------------------------------------------------------------------------
# Parts


def _smartctl(b: Builder, d: dict[str, Any]) -> None:
    """smartctl's version, exit status and messages."""
    sc = jdict(d.get("smartctl"))
    version = [x for x in (jint(p) for p in jlist(sc.get("version"))) if x is not None]
    if version:
        b.smartctl_version = ("pre-" if sc.get("pre_release") is True else "") + ".".join(map(str, version))
    b.exit_status = jint(sc.get("exit_status"))
    for msg_v in jlist(sc.get("messages")):
        msg = jdict(msg_v).get("string")
        if isinstance(msg, str):
            b.add_message(msg)


def _device(b: Builder, d: dict[str, Any]) -> None:
    """Device name and -d type, and the interface: device.protocol, else the logs the document holds."""
    dev = jdict(d.get("device"))
    b.device = clean_str(dev.get("name"))
    b.device_type = clean_str(dev.get("type"))
    protocol = dev.get("protocol")
    proto = protocol.lower() if isinstance(protocol, str) else ""
    if proto in ("ata", "nvme", "scsi"):
        b.interface = proto
    elif "nvme_smart_health_information_log" in d:
        b.interface = "nvme"
    elif "ata_smart_attributes" in d or "ata_device_statistics" in d:
        b.interface = "ata"
    elif any(k.startswith("scsi_") for k in d):
        b.interface = "scsi"


def _identity(b: Builder, d: dict[str, Any]) -> None:
    """Model (SCSI: vendor and product), family, firmware, serial, WWN, capacity, sector size, rotation, time."""
    model = clean_str(d.get("model_name")) or clean_str(d.get("scsi_model_name"))
    if model is None:
        vendor = clean_str(d.get("scsi_vendor")) or clean_str(d.get("vendor"))
        product = clean_str(d.get("scsi_product")) or clean_str(d.get("product"))
        model = " ".join(p for p in (vendor, product) if p) or None
    b.model = model
    b.model_family = clean_str(d.get("model_family"))
    fw = d.get("firmware_version")
    if not isinstance(fw, str):
        fw = d.get("scsi_revision", d.get("revision"))
    b.firmware = clean_id(fw) if isinstance(fw, str) else None
    serial = d.get("serial_number")
    b.serial = clean_id(serial) if isinstance(serial, str) else None
    b.wwn = _json_wwn(d.get("wwn"))
    b.nvme_version = nvme_version(jdict(d.get("nvme_version")).get("string"))
    b.pci_vendor = pci_vendor(jdict(d.get("nvme_pci_vendor")).get("id"))
    if b.wwn is None and isinstance(d.get("logical_unit_id"), str):
        b.wwn = lu_id(d["logical_unit_id"])
    b.capacity_bytes = jpos(jdict(d.get("user_capacity")).get("bytes")) or jpos(d.get("nvme_total_capacity"))
    b.logical_sector_size = jpos(d.get("logical_block_size"))
    rotation = jint(d.get("rotation_rate"))
    b.rotation_rate = rotation if rotation is not None and rotation >= 0 else None
    b.local_time = _json_local_time(d.get("local_time"), b.notes)


def _health(b: Builder, d: dict[str, Any]) -> None:
    support = jdict(d.get("smart_support"))
    b.smart_available = jbool(support.get("available"))
    b.smart_enabled = jbool(support.get("enabled"))
    b.smart_passed = jbool(jdict(d.get("smart_status")).get("passed"))


def _ata_attributes(b: Builder, d: dict[str, Any]) -> None:
    for row_v in jlist(jdict(d.get("ata_smart_attributes")).get("table")):
        row = jdict(row_v)
        attr_id = jint(row.get("id"))
        if attr_id is None or not 0 < attr_id < 256 or attr_id in b.attributes:
            continue
        raw = jdict(row.get("raw"))
        raw_value = jint(raw.get("value"))
        raw_string = raw.get("string")
        if not isinstance(raw_string, str):
            raw_string = "" if raw_value is None else str(raw_value)
        when = row.get("when_failed")
        when_failed = _JSON_FAIL.get(when, when) if isinstance(when, str) else ""
        name = row.get("name")
        b.attributes[attr_id] = Attribute(
            id=attr_id,
            name=name if isinstance(name, str) else "",
            value=jint(row.get("value")),
            worst=jint(row.get("worst")),
            thresh=jint(row.get("thresh")),
            raw=raw_value if raw_value is not None else raw_int(raw_string),
            raw_string=raw_string.strip(),
            when_failed=when_failed,
            prefailure=jbool(jdict(row.get("flags")).get("prefailure")) is True,
        )


def _ata_devstats(b: Builder, d: dict[str, Any]) -> None:
    for page_v in jlist(jdict(d.get("ata_device_statistics")).get("pages")):
        page_d = jdict(page_v)
        page = jint(page_d.get("number"))
        if page is None:
            continue
        for entry_v in jlist(page_d.get("table")):
            entry = jdict(entry_v)
            offset = jint(entry.get("offset"))
            if offset is None or (page, offset) in b.devstats:
                continue
            flags = jdict(entry.get("flags"))
            value = jint(entry.get("value"))
            valid = jbool(flags.get("valid")) is not False and value is not None
            name = entry.get("name")
            b.devstats[(page, offset)] = DevStat(
                page=page,
                offset=offset,
                name=name if isinstance(name, str) else "",
                value=value if valid else None,
                valid=valid,
                normalized=jbool(flags.get("normalized")) is True,
            )


def _nvme(b: Builder, d: dict[str, Any]) -> None:
    """The NVMe SMART/Health log, kept only when the device is an NVMe one."""
    if b.interface != "nvme":
        return
    log = jdict(d.get("nvme_smart_health_information_log"))
    for jkey, field in NVME_KEYS.items():
        n = jint(log.get(jkey))
        if n is not None:
            b.nvme[field] = n


def _scsi(b: Builder, d: dict[str, Any]) -> None:
    """Endurance indicator, grown defects, and the error counter log's byte and uncorrected-error totals."""
    if b.interface != "scsi":
        return
    for jkey, field in SCSI_KEYS.items():
        n = jint(d.get(jkey))
        if n is not None:
            b.scsi[field] = n
    if b.scsi.get("grown_defects") and b.smartctl_version in _DEFECT_BYTES_VERSIONS:
        del b.scsi["grown_defects"]
        b.notes.append(f"smartctl {b.smartctl_version}'s scsi_grown_defect_list is the defect list's length in bytes, "
                       "not its number of elements (fixed in 7.2): the grown defects are not used; the text output "
                       "(Elements in grown defect list) has the count")
    ecl = jdict(d.get("scsi_error_counter_log"))
    for kind, field in SCSI_ERRLOG_BYTES.items():
        gb = _json_gigabytes(jdict(ecl.get(kind)).get("gigabytes_processed"))
        if gb is not None:
            b.scsi[field] = gb
    uncs = [jint(jdict(ecl.get(k)).get("total_uncorrected_errors")) for k in _SCSI_ERRLOG_ROWS]
    present = [u for u in uncs if u is not None]
    if present:
        b.scsi["uncorrected_errors"] = sum(present)


def _power(b: Builder, d: dict[str, Any]) -> None:
    """Power-on time and cycles: the top-level values, else the NVMe log's, else ATA attributes 9 and 12."""
    pot = jdict(d.get("power_on_time"))
    hours = jint(pot.get("hours"))
    if hours is not None:
        minutes = jint(pot.get("minutes"))
        b.power_on_hours = hours + (minutes / 60 if minutes is not None else 0.0)
    elif "power_on_hours" in b.nvme:
        b.power_on_hours = float(b.nvme["power_on_hours"])
    elif 9 in b.attributes:
        b.power_on_hours = attr9_hours(b.attributes[9])
    b.power_cycles = jint(d.get("power_cycle_count"))
    if b.power_cycles is None:
        if "power_cycles" in b.nvme:
            b.power_cycles = b.nvme["power_cycles"]
        elif 12 in b.attributes:
            b.power_cycles = b.attributes[12].raw


def _output_lines(b: Builder, d: dict[str, Any]) -> None:
    """NVMe log pages dumped with -l nvmelog: JSON has no key for them; --json=co's smartctl.output has the
    text lines."""
    lines = [line for line in jlist(jdict(d.get("smartctl")).get("output")) if isinstance(line, str)]
    if lines:
        b.nvme_logs = nvmelog.pages(nvmelog.read_lines(lines), b.notes)


PARTS: tuple[Callable[[Builder, dict[str, Any]], None], ...] = (
    _smartctl,
    _device,
    _identity,
    _health,
    _ata_attributes,
    _ata_devstats,
    _nvme,
    _scsi,
    _power,
    _output_lines,
)


def parse_json(text: str, source: str) -> Builder:
    start = len(text) - len(text.lstrip())
    containers = text.count("{") + text.count("[")
    if containers > _MAX_JSON_CONTAINERS:
        raise ParseError(f"{source_name(source)}: {containers:,} JSON objects and arrays is far more than smartctl "
                         f"prints for one drive; {HINT_JSON}")
    try:
        obj, end = json.JSONDecoder().raw_decode(text, start)
        obj = visible_json(obj)
    except (ValueError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        raise ParseError(
            f"{source_name(source)}: truncated or invalid smartctl JSON ({detail}); {HINT_JSON}"
        ) from None
    if not isinstance(obj, dict) or not (isinstance(obj.get("smartctl"), dict) or "json_format_version" in obj):
        raise ParseError(f"{source_name(source)}: JSON that is not smartctl output (no 'smartctl' object); {HINT_JSON}")
    b = Builder(source)
    for part in PARTS:
        part(b, obj)
    if text[end:].strip():
        b.notes.append("text after the JSON object ignored")
    return b
