"""Reports -> Prometheus text exposition format, and the node_exporter textfile (written atomically).

Base units throughout (seconds, bytes, ratios); `_total` for counters. Labels: device (with the -d type where
drives share a path: '/dev/bus/0 sat+megaraid,1'), model, serial (and `source` / `method` where a figure depends
on how it was reached). `ssdwear_drive_info` names the drive in smartctl_exporter's label names, for joins across
exporters on `serial_number`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from ssdwear.model.groups import Group
from ssdwear.model.records import MINUTES_PER_YEAR, DriveReport

SECONDS_PER_YEAR = MINUTES_PER_YEAR * 60  # 365 days, as the projections count a year
TEXTFILE_NAME = "ssdwear.prom"
DURATIONS = ("ssdwear_read_duration_seconds", "ssdwear_run_duration_seconds")  # to the millisecond, not the second

# name -> (type, help)
METRICS: dict[str, tuple[str, str]] = {
    "ssdwear_read_ok": ("gauge", "1 if the drive was read, 0 if it was not; `reason` says why not (timeout, deadline, "
                                 "standby, permission, missing, resetting, read)."),
    "ssdwear_read_duration_seconds": ("gauge", "How long reading the drive took, all its smartctl and nvme-cli calls "
                                               "(a call killed at its timeout included)."),
    "ssdwear_used_ratio": ("gauge", "Lifetime wear used, as a fraction of rated endurance (1 = 100 %, may exceed 1)."),
    "ssdwear_used_fine_ratio": ("gauge", "Lifetime wear read finer than the indicator (used_fine_percent / 100), "
                                         "where a finer counter gives it; `source` names the counter."),
    "ssdwear_used_saturated": ("gauge", "1 if the wear indicator saturated (the true wear is ssdwear_used_ratio "
                                        "or more)."),
    "ssdwear_life_remaining_seconds": ("gauge", "Projected life remaining at the central wear rate, in POWER-ON "
                                                "seconds (absent when that rate is 0)."),
    "ssdwear_life_remaining_lower_seconds": ("gauge", "Pessimistic bound of the projected life remaining, in power-on "
                                                      "seconds: the low end of its prediction interval (timed "
                                                      "windows: of the counter's resolution)."),
    "ssdwear_life_remaining_upper_seconds": ("gauge", "Optimistic bound of the projected life remaining, in power-on "
                                                      "seconds (absent when unbounded)."),
    "ssdwear_wears_out_timestamp_seconds": ("gauge", "When the rated endurance ends on the calendar at the central "
                                                     "rate and the drive's duty cycle (Unix time)."),
    "ssdwear_wears_out_lower_timestamp_seconds": ("gauge", "The pessimistic (earliest) wear-out time on the calendar "
                                                           "(Unix time): alert on this minus time()."),
    "ssdwear_duty_cycle_ratio": ("gauge", "Power-on hours per wall-clock hour the calendar dates use (1: always on, "
                                          "also where no dated readings measure it)."),
    "ssdwear_wear_rate_ratio_per_year": ("gauge", "Central wear rate: fraction of rated endurance per 365 days."),
    "ssdwear_wear_rate_upper_ratio_per_year": ("gauge", "Pessimistic (high) end of the wear rate's interval."),
    "ssdwear_projection_interval_ratio": ("gauge", "Level of the projection's prediction interval (0.8 = 80 %); "
                                                   "absent when the range is the counter's resolution only."),
    "ssdwear_wear_trend": ("gauge", "1 when wear is speeding up (the recent rate's interval lies above the lifetime "
                                    "average's), -1 when slowing down, 0 otherwise."),
    "ssdwear_timed_window_valid": ("gauge", "Intel timed workload: 1 if the E2h/E4h window is valid."),
    "ssdwear_timed_window_seconds": ("gauge", "Intel timed workload: power-on time in the window (E4h)."),
    "ssdwear_power_on_seconds_total": ("counter", "Power-on time of the drive."),
    "ssdwear_host_written_bytes_total": ("counter", "Bytes written by the host."),
    "ssdwear_host_read_bytes_total": ("counter", "Bytes read by the host."),
    "ssdwear_nand_written_bytes_total": ("counter", "Bytes written to flash (NAND), where the drive reports it."),
    "ssdwear_rated_written_bytes": ("gauge", "Rated write endurance (TBW) in bytes, where known."),
    "ssdwear_available_spare_ratio": ("gauge", "NVMe available spare (1 = 100 %)."),
    "ssdwear_available_spare_threshold_ratio": ("gauge", "NVMe available spare threshold (1 = 100 %)."),
    "ssdwear_critical_warning": ("gauge", "NVMe critical warning bit field (0 = none)."),
    "ssdwear_media_errors_total": ("counter", "NVMe media and data integrity errors / SCSI uncorrected errors."),
    "ssdwear_smart_passed": ("gauge", "1 if the SMART overall-health self-assessment passed, 0 if it failed."),
    "ssdwear_drive_info": ("gauge", "1 for each drive read: its identity in smartctl_exporter's label names "
                                    "(model_name, serial_number, firmware_version, interface: the -d type) and its "
                                    "wwn; join on serial_number."),
    "ssdwear_group_redundancy_lost_timestamp_seconds": ("gauge", "When a redundancy group has more members worn out "
                                                                  "than it tolerates, at their central wear-out dates "
                                                                  "(Unix time; report --groups)."),
    "ssdwear_group_redundancy_lost_lower_timestamp_seconds": ("gauge", "The same at the members' pessimistic "
                                                                        "wear-out dates: alert on this minus time()."),
    "ssdwear_group_tolerates": ("gauge", "Member failures the group survives now (as built, less those missing)."),
    "ssdwear_group_lockstep": ("gauge", "1 when the group's drives share model, firmware and power-on hours (within "
                                        "10 %) and their wear-out intervals overlap: they may wear out together."),
    "ssdwear_member_info": ("gauge", "1 for each member of a group: the drive (serial, model, device) under it."),
    "ssdwear_last_run_timestamp_seconds": ("gauge", "When ssdwear last read the drives (Unix time)."),
    "ssdwear_run_duration_seconds": ("gauge", "How long the run that wrote this took, from its start (after the run "
                                              "lock) to this exposition."),
    "ssdwear_drives": ("gauge", "Number of drives ssdwear looked at in its last run."),
}


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(pairs: Iterable[tuple[str, str | None]]) -> str:
    inner = ",".join(f'{key}="{_escape(value or "")}"' for key, value in pairs)
    return "{" + inner + "}" if inner else ""


def _fmt(value: float) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if float(value).is_integer() and abs(value) < 2**63:
        return str(int(value))
    return repr(float(value))


Labels = tuple[tuple[str, str | None], ...]  # (name, value) pairs, in order; a value None or "" is written empty


def metric_lines(r: DriveReport) -> list[tuple[str, Labels, float]]:
    """(metric name, label string, value) of every exposition line for one drive ("sample" in ssdwear means a
    stored reading and the command that stores it)."""
    # a drive not read is known by its place alone (its model and serial are not known: no empty labels)
    base = [("device", r.device and r.where)] + ([] if r.error else [("model", r.model), ("serial", r.serial)])
    out: list[tuple[str, Labels, float]] = []

    def put(name: str, value: float | None, extra: Sequence[tuple[str, str | None]] = ()) -> None:
        if value is not None:
            if name in DURATIONS:
                value = round(value, 3)
            elif name.endswith("_seconds") or name.endswith("_seconds_total"):
                value = round(value)
            out.append((name, (*base, *extra), value))

    put("ssdwear_read_ok", 0 if r.error else 1, [("reason", r.error_reason or "read")] if r.error else [])
    put("ssdwear_read_duration_seconds", r.read_seconds)
    if r.error:
        return out
    if r.used_percent is not None:
        put("ssdwear_used_ratio", r.used_percent / 100, [("source", r.used_source)])
    if r.fine is not None and r.fine.percent is not None:
        put("ssdwear_used_fine_ratio", r.fine.percent / 100, [("source", r.fine.source)])
        put("ssdwear_used_saturated", 1 if r.used_at_least else 0)
    p = r.projection
    if p is not None:
        method = [("method", p.method)]
        for name, years in (("ssdwear_life_remaining_seconds", p.years_remaining),
                            ("ssdwear_life_remaining_lower_seconds", p.years_remaining_low),
                            ("ssdwear_life_remaining_upper_seconds", p.years_remaining_high)):
            put(name, None if years is None else years * SECONDS_PER_YEAR, method)
        for name, rate in (("ssdwear_wear_rate_ratio_per_year", p.percent_per_year),
                           ("ssdwear_wear_rate_upper_ratio_per_year", p.percent_per_year_high)):
            put(name, None if rate is None else rate / 100, method)
        for name, at in (("ssdwear_wears_out_timestamp_seconds", p.wears_out_at),
                         ("ssdwear_wears_out_lower_timestamp_seconds", p.wears_out_low_at)):
            put(name, None if at is None else at.timestamp(), method)
        put("ssdwear_duty_cycle_ratio", p.duty_cycle, method)
        put("ssdwear_projection_interval_ratio", p.interval_level, method)
        put("ssdwear_wear_trend", 0 if p.trend is None else 1 if p.trend.direction == "speeding up" else -1, method)
    w = r.window
    if w is not None and w.kind == "timed-workload":
        put("ssdwear_timed_window_valid", 1 if w.valid else 0)
        put("ssdwear_timed_window_seconds", None if w.minutes is None else w.minutes * 60)
    put("ssdwear_power_on_seconds_total", None if r.power_on_hours is None else r.power_on_hours * 3600)
    put("ssdwear_host_written_bytes_total", r.writes.host_bytes_written)
    put("ssdwear_host_read_bytes_total", r.writes.host_bytes_read)
    put("ssdwear_nand_written_bytes_total", r.writes.nand_bytes_written)
    put("ssdwear_rated_written_bytes", r.writes.rated_bytes)
    h = r.health
    put("ssdwear_available_spare_ratio", None if h.available_spare_percent is None
        else h.available_spare_percent / 100)
    put("ssdwear_available_spare_threshold_ratio", None if h.available_spare_threshold_percent is None
        else h.available_spare_threshold_percent / 100)
    put("ssdwear_critical_warning", h.critical_warning)
    put("ssdwear_media_errors_total", h.media_errors)
    put("ssdwear_smart_passed", None if h.smart_passed is None else (1 if h.smart_passed else 0))
    return out


def info_labels(r: DriveReport) -> Labels | None:
    """The labels of a drive's ssdwear_drive_info; None for a drive that was not read (it has no identity yet).

    smartctl_exporter's names, as its `smartctl_device` labels them (metrics.go): model_name, serial_number,
    firmware_version, and interface, the -d type (smartctl's `device.type`: sat, nvme, scsi, sat+megaraid,0; absent
    for a saved text output, which does not say it). `device` is ssdwear's, as on every other series of the drive
    (smartctl_exporter's `device` is a name of its own, `sda`, `bus_0_megaraid_0`), and so is `wwn`."""
    if r.error:
        return None
    return (("device", r.device and r.where), ("model_name", r.model), ("serial_number", r.serial),
            ("firmware_version", r.firmware), ("interface", r.device_type), ("wwn", r.wwn))


def group_lines(g: Group) -> list[tuple[str, str, float]]:
    """(metric name, label string, value) of a redundancy group's lines, and one ssdwear_member_info per member."""
    base = [("group", g.name), ("kind", g.kind), ("level", g.level)]
    out: list[tuple[str, str, float]] = []
    for name, at in (("ssdwear_group_redundancy_lost_timestamp_seconds", g.redundancy_lost_at),
                     ("ssdwear_group_redundancy_lost_lower_timestamp_seconds", g.redundancy_lost_low_at)):
        if at is not None:
            out.append((name, _labels(base), round(at.timestamp())))
    if g.tolerates is not None:
        out.append(("ssdwear_group_tolerates", _labels(base), g.tolerates))
    out.append(("ssdwear_group_lockstep", _labels(base), 1 if g.lockstep else 0))
    for m in g.members:
        r = m.report
        drive = [("device", r.device and r.where), ("model", r.model), ("serial", r.serial)] if r is not None else [
            ("device", None), ("model", None), ("serial", None)]
        out.append(("ssdwear_member_info", _labels([("group", g.name), ("kind", g.kind), ("member", m.member),
                                                     *drive]), 1))
    return out


def exposition(reports: Sequence[DriveReport], now_unix: float, groups: Sequence[Group] = (),
               run_seconds: float | None = None) -> str:
    """The whole text exposition: HELP/TYPE once per metric family, families in a fixed order (`run_seconds`: how
    long the run took, for a run that read drives)."""
    by_name: dict[str, list[str]] = {name: [] for name in METRICS}
    for r in reports:
        for name, pairs, value in metric_lines(r):
            by_name[name].append(f"{name}{_labels(pairs)} {_fmt(value)}")
        if (info := info_labels(r)) is not None:
            by_name["ssdwear_drive_info"].append(f"ssdwear_drive_info{_labels(info)} 1")
    for g in groups:
        for name, labels, value in group_lines(g):
            by_name[name].append(f"{name}{labels} {_fmt(value)}")
    by_name["ssdwear_last_run_timestamp_seconds"].append(f"ssdwear_last_run_timestamp_seconds {_fmt(now_unix)}")
    if run_seconds is not None:
        by_name["ssdwear_run_duration_seconds"].append(f"ssdwear_run_duration_seconds {_fmt(round(run_seconds, 3))}")
    by_name["ssdwear_drives"].append(f"ssdwear_drives {len(reports)}")
    lines: list[str] = []
    for name, (kind, text) in METRICS.items():
        if by_name[name]:
            lines += [f"# HELP {name} {text}", f"# TYPE {name} {kind}", *by_name[name]]
    return "\n".join(lines) + "\n"


def write_textfile(directory: Path, text: str) -> Path:
    """Write DIR/ssdwear.prom atomically: a temporary file in DIR, fsync, rename over the old one.

    node_exporter's textfile collector never sees a half-written file.
    """
    directory = Path(directory)
    target = directory / TEXTFILE_NAME
    fd, tmp = tempfile.mkstemp(prefix=".ssdwear.prom.", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target
