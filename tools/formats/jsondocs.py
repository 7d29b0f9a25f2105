"""smartctl's ``--json=c -x`` documents (7.0 on), as each release builds them: the keys ssdwear reads (and the
envelope around them), per kind of drive. What changed: ``local_time`` moved out of ``-i`` into every output
(7.3), ``smart_support`` arrived for all drives (7.3), ``nvme_version`` (7.2), ``smartctl.pre_release`` (7.4),
the SCSI identity's keys became ``scsi_vendor``/``scsi_product``/``scsi_model_name``/``scsi_revision`` and
``model_name`` went away (7.3) and came back (7.5), ``scsi_grown_defect_list`` held the list's length in bytes
before 7.2, the NVMe log gained ``nsid`` (7.5), and the current source adds ``host_reads``/``host_writes`` and
a ``string`` to Device Statistics entries."""

from __future__ import annotations

import json
from typing import Any

from .drives import ATA, DEVSTAT_NAMES, NVME, SCSI, AtaAttr, capacity
from .releases import CURRENT_COMMIT, LOCAL_TIME, LOCAL_TIME_T, Cite, Release

_PRE_REVISIONS = 549  # src/getversion.sh: commits since 7.5's base revision 943adaeda55c


def envelope(r: Release, argv: list[str], exit_status: int = 0) -> dict[str, Any]:
    """json_format_version and the `smartctl` object (smartctl.cpp js_initialize)."""
    major, minor = (8, 0) if r.name == "current" else (int(r.version.split(".")[0]), int(r.version.split(".")[1]))
    sc: dict[str, Any] = {"version": [major, minor]}
    if r.name == "current":
        sc["version_info"] = r.version
        sc["pre_release"] = True
        sc["pre_release_git_revisions"] = _PRE_REVISIONS
        sc["git_revision"] = {"commit": CURRENT_COMMIT[:12], "date": r.date, "time": "15:29:23"}
    else:
        if r.at_least("7.4"):
            sc["pre_release"] = False
        sc["svn_revision"] = str(r.svn)
    sc.update(platform_info=r.platform, build_info="(local build)", argv=["smartctl", *argv], exit_status=exit_status)
    return {"json_format_version": [1, 0], "smartctl": sc}


def _local_time() -> dict[str, Any]:
    return {"time_t": LOCAL_TIME_T, "asctime": f"{LOCAL_TIME} UTC"}


def _with_time(r: Release, doc: dict[str, Any], identity: dict[str, Any]) -> dict[str, Any]:
    """7.3 on: local_time right after the envelope, whatever was asked; before: at the end of the identity."""
    if r.at_least("7.3"):
        return {**doc, "local_time": _local_time(), **identity}
    return {**doc, **identity, "local_time": _local_time()}


def dumps(doc: dict[str, Any]) -> str:
    """`--json=c`: compact, no blank, no line end after the closing brace (fixtures/qemu)."""
    return json.dumps(doc, separators=(",", ":"))


# --- ATA ----------------------------------------------------------------------------------------------------


def _attribute(a: AtaAttr) -> dict[str, Any]:
    return {"id": a.id, "name": a.name, "value": a.value, "worst": a.worst, "thresh": a.thresh,
            "when_failed": {"now": "now", "past": "past"}.get(a.state, ""),
            "flags": {"value": a.flags, "string": a.letters + " ", "prefailure": a.prefailure,
                      "updated_online": a.online, "performance": bool(a.flags & 4), "error_rate": bool(a.flags & 8),
                      "event_count": bool(a.flags & 16), "auto_keep": bool(a.flags & 32)},
            "raw": {"value": a.raw, "string": str(a.raw)}}


def _devstat_pages(r: Release) -> list[dict[str, Any]]:
    pages = []
    for page in (1, 7):
        table = []
        for p, offset, size, value, flags in ATA.devstats:
            if p != page:
                continue
            entry: dict[str, Any] = {"offset": offset, "name": DEVSTAT_NAMES[(p, offset)], "size": size,
                                     "value": value}
            if r.name == "current" and (p, offset) in ((1, 0x018), (1, 0x028)):
                entry["string"] = capacity(value * ATA.logical_sector)
            letters = ("V" if flags & 0x40 else "-") + ("N" if flags & 0x20 else "-") + "-- "
            entry["flags"] = {"value": flags, "string": letters, "valid": bool(flags & 0x40),
                              "normalized": bool(flags & 0x20), "supports_dsn": False,
                              "monitored_condition_met": False}
            table.append(entry)
        pages.append({"number": page, "name": DEVSTAT_NAMES[page], "revision": 1, "table": table})
    return pages


def ata(r: Release, argv: list[str]) -> dict[str, Any]:
    a = ATA
    identity: dict[str, Any] = {
        "device": {"name": "/dev/sda", "info_name": "/dev/sda [SAT]", "type": "sat", "protocol": "ATA"},
        "model_family": a.family, "model_name": a.model, "serial_number": a.serial}
    if a.wwn is not None:
        identity["wwn"] = dict(zip(("naa", "oui", "id"), a.wwn, strict=True))
    identity.update({"firmware_version": a.firmware,
        "user_capacity": {"blocks": a.capacity // a.logical_sector, "bytes": a.capacity},
        "logical_block_size": a.logical_sector, "physical_block_size": a.physical_sector, "rotation_rate": 0})
    doc = _with_time(r, envelope(r, argv), identity)
    if r.at_least("7.3"):
        doc["smart_support"] = {"available": True, "enabled": True}
    doc["smart_status"] = {"passed": True}
    doc["ata_smart_attributes"] = {"revision": 1, "table": [_attribute(x) for x in a.attributes]}
    doc["power_on_time"] = {"hours": a.power_on_hours}
    doc["power_cycle_count"] = a.power_cycles
    if r.at_least("7.5"):
        doc["endurance_used"] = {"current_percent": 7}
    doc["ata_device_statistics"] = {"pages": _devstat_pages(r)}
    if r.name == "current":
        doc["host_writes"] = {"bytes_per_unit": a.logical_sector, "units": a.devstats[2][3]}
    return doc


ATA_CITES = {
    "7.0": [Cite("7.0", "smartmontools/ataprint.cpp", 633, 'jglb["model_name"] = model;'),
            Cite("7.0", "smartmontools/ataprint.cpp", 1244,
                 'json::ref jref = jglb["ata_smart_attributes"]["table"][ji++];'),
            Cite("7.0", "smartmontools/ataprint.cpp", 1253,
                 'jref["when_failed"] = (state == ATTRSTATE_FAILED_NOW  ? "now" :'),
            Cite("7.0", "smartmontools/ataprint.cpp", 1884, 'json::ref jref = jglb["ata_device_statistics"];'),
            Cite("7.0", "smartmontools/ataprint.cpp", 774, 'jglb["local_time"]["time_t"] = now;'),
            Cite("7.0", "smartmontools/smartctl.cpp", 93, 'jref["svn_revision"] = SMARTMONTOOLS_SVN_REV;')],
    "7.3": [Cite("7.3", "smartmontools/ataprint.cpp", 3580,
                 'jglb["smart_support"]["available"] = (smart_supported > 0);'),
            Cite("7.3", "smartmontools/smartctl.cpp", 1586,
                 'jglb["local_time"] += { {"time_t", now}, {"asctime", startup_datetime_buf} };')],
    "7.4": [Cite("7.4", "smartmontools/smartctl.cpp", 93, 'jref["pre_release"] = false;')],
    "7.5": [Cite("7.5", "smartmontools/ataprint.cpp", 1825,
                 'case 0x008: jglb["endurance_used"]["current_percent"] = val; break;')],
    "current": [Cite("current", "src/ataprint.cpp", 1962, 'jrefi["string"] = infostr;'),
                Cite("current", "src/smartctl.cpp", 90, 'jref["version_info"] = SMARTMONTOOLS_GIT_VER_DESC;'),
                Cite("current", "src/smartctl.cpp", 98,
                     'jref["pre_release_git_revisions"] = SMARTMONTOOLS_GIT_PRE_REVS;')],
}

# --- NVMe ---------------------------------------------------------------------------------------------------


def nvme_health_log(r: Release) -> dict[str, Any]:
    n = NVME
    log: dict[str, Any] = {"nsid": -1} if r.at_least("7.5") else {}
    log.update(critical_warning=n.critical_warning, temperature=n.temperature, available_spare=n.available_spare,
               available_spare_threshold=n.available_spare_threshold, percentage_used=n.percentage_used,
               data_units_read=n.data_units_read, data_units_written=n.data_units_written,
               host_reads=n.host_reads, host_writes=n.host_writes, controller_busy_time=n.busy_time,
               power_cycles=n.power_cycles, power_on_hours=n.power_on_hours, unsafe_shutdowns=n.unsafe_shutdowns,
               media_errors=n.media_errors, num_err_log_entries=n.error_log_entries)
    return log


def nvme(r: Release, argv: list[str], output: list[str] | None = None) -> dict[str, Any]:
    """The NVMe document; `output` is --json=co's copy of the text lines (smartctl.output)."""
    n = NVME
    identity: dict[str, Any] = {
        "device": {"name": "/dev/nvme0", "info_name": "/dev/nvme0", "type": "nvme", "protocol": "NVMe"},
        "model_name": n.model, "serial_number": n.serial, "firmware_version": n.firmware,
        "nvme_pci_vendor": {"id": 0x8086, "subsystem_id": 0x8086}, "nvme_ieee_oui_identifier": 0x5CD2E4,
        "nvme_total_capacity": n.capacity, "nvme_unallocated_capacity": 0, "nvme_controller_id": 0}
    if r.at_least("7.2"):
        identity["nvme_version"] = {"string": n.version, "value": 0x10200}
    identity.update(nvme_number_of_namespaces=1,
                    user_capacity={"blocks": n.capacity // n.lba_size, "bytes": n.capacity},
                    logical_block_size=n.lba_size)
    doc = _with_time(r, envelope(r, argv), identity)
    if output is not None:
        doc["smartctl"]["output"] = output
    if r.at_least("7.3"):
        doc["smart_support"] = {"available": True, "enabled": True}
    doc["smart_status"] = {"passed": True, "nvme": {"value": 0}}
    doc["nvme_smart_health_information_log"] = nvme_health_log(r)
    if r.at_least("7.5"):
        doc["spare_available"] = {"current_percent": n.available_spare, "threshold_percent": 10}
        doc["endurance_used"] = {"current_percent": n.percentage_used}
    if r.name == "current":
        doc["host_reads"] = {"units": n.data_units_read, "bytes_per_unit": 512_000,
                             "commands": n.host_reads}
        doc["host_writes"] = {"units": n.data_units_written, "bytes_per_unit": 512_000,
                              "commands": n.host_writes}
    doc.update(temperature={"current": n.temperature}, power_cycle_count=n.power_cycles,
               power_on_time={"hours": n.power_on_hours})
    return doc


NVME_CITES = {
    "7.0": [Cite("7.0", "smartmontools/nvmeprint.cpp", 336,
                 'json::ref jref = jglb["nvme_smart_health_information_log"];'),
            Cite("7.0", "smartmontools/nvmeprint.cpp", 358,
                 'jref["data_units_written"].set_unsafe_le128(smart_log.data_units_written);')],
    "7.2": [Cite("7.2", "smartmontools/nvmeprint.cpp", 156, 'jglb["nvme_version"]')],
    "7.3": [Cite("7.3", "smartmontools/nvmeprint.cpp", 205,
                 'jglb["smart_support"] += { {"available", true}, {"enabled", true} };')],
    "7.5": [Cite("7.5", "smartmontools/nvmeprint.cpp", 490,
                 'jref["nsid"] = (nsid != nvme_broadcast_nsid ? (int64_t)nsid : -1);')],
    "current": [Cite("current", "src/nvmeprint.cpp", 504,
                     'jglb["host_writes"]["units"].set_unsafe_uile128(smart_log.data_units_written);'),
                Cite("current", "src/nvmeprint.cpp", 503,
                     'jref["data_units_written"].set_unsafe_uile128(smart_log.data_units_written);')],
}

# --- SCSI ---------------------------------------------------------------------------------------------------


def _errlog() -> dict[str, Any]:
    out = {}
    for name, (fast, delayed, rewrites, corrected, invocations, processed, uncorrected) in SCSI.errlog.items():
        out[name] = {"errors_corrected_by_eccfast": fast, "errors_corrected_by_eccdelayed": delayed,
                     "errors_corrected_by_rereads_rewrites": rewrites, "total_errors_corrected": corrected,
                     "correction_algorithm_invocations": invocations,
                     "gigabytes_processed": f"{processed / 1e9:.3f}", "total_uncorrected_errors": uncorrected}
    return out


def scsi(r: Release, argv: list[str]) -> dict[str, Any]:
    s = SCSI
    model = f"{s.vendor} {s.product}"
    identity: dict[str, Any] = {
        "device": {"name": "/dev/sdb", "info_name": "/dev/sdb", "type": "scsi", "protocol": "SCSI"}}
    if r.at_least("7.3"):
        identity.update(scsi_vendor=s.vendor, scsi_product=s.product)
        if r.at_least("7.5"):
            identity["model_name"] = model
        identity.update(scsi_model_name=model, scsi_revision=s.revision)
    else:
        identity.update(vendor=s.vendor, product=s.product, model_name=model, revision=s.revision)
    identity.update(user_capacity={"blocks": s.capacity // s.logical_block, "bytes": s.capacity},
                    logical_block_size=s.logical_block, rotation_rate=0)
    if r.at_least("7.3"):
        identity["logical_unit_id"] = s.lu_id
    identity.update(serial_number=s.serial, device_type={"scsi_value": 0, "name": "disk"})
    doc = _with_time(r, envelope(r, argv), identity)
    if r.at_least("7.3"):
        doc["smart_support"] = {"available": True, "enabled": True}
    doc["smart_status"] = {"passed": True}
    doc["scsi_percentage_used_endurance_indicator"] = s.percentage_used
    doc["temperature"] = {"current": 30, "drive_trip": 65}
    m = s.power_on_minutes
    doc["power_on_time"] = {"hours": m // 60, "minutes": m % 60}
    # 7.0 and 7.1 stored the defect list's length in bytes (8 per element in this list's format); 7.2 the count
    doc["scsi_grown_defect_list"] = s.grown_defects if r.at_least("7.2") else s.grown_defects * 8
    doc["scsi_error_counter_log"] = _errlog()
    return doc


SCSI_CITES = {
    "7.0": [Cite("7.0", "smartmontools/scsiprint.cpp", 1859, 'jglb["vendor"] = scsi_vendor;'),
            Cite("7.0", "smartmontools/scsiprint.cpp", 624, 'jglb["scsi_grown_defect_list"] = dl_len;'),
            Cite("7.0", "smartmontools/scsiprint.cpp", 863,
                 'jref[jpageNames[k]]["gigabytes_processed"] = strprintf("%.3f", processed_gb);'),
            Cite("7.0", "smartmontools/scsiprint.cpp", 1301,
                 'jglb["scsi_percentage_used_endurance_indicator"] = ucp[7];')],
    "7.2": [Cite("7.2", "smartmontools/scsiprint.cpp", 646, 'jglb["scsi_grown_defect_list"] = dl_len / div;')],
    "7.3": [Cite("7.3", "smartmontools/scsiprint.cpp", 2530, 'jglb["scsi_vendor"] = scsi_vendor;'),
            Cite("7.3", "smartmontools/scsiprint.cpp", 2533, 'jglb["scsi_model_name"] = strprintf("%s%s%s",'),
            Cite("7.3", "smartmontools/scsiprint.cpp", 1453, 'jglb[std::string("scsi_") + q] = ucp[7];')],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 2893,
                 'jglb["model_name"] = model_name; // Also provided for ATA and NVMe devices')],
    "current": [Cite("current", "src/scsiprint.cpp", 2902,
                     'jglb["model_name"] = model_name; // Also provided for ATA and NVMe devices'),
                Cite("current", "src/scsiprint.cpp", 756, 'jglb["scsi_grown_defect_list"] = dl_len / div;')],
}
