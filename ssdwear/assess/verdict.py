"""Judge a drive: keep, watch or retire, with the reasons. Also the Nagios-style check levels. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

from ssdwear.model.records import DriveReport
from ssdwear.model.units import human_years, percent_text

from .report import NO_SMART_SUPPORT, too_hot
from .thresholds import DEFAULT_THRESHOLDS, Threshold

Level = Literal["keep", "watch", "retire", "unknown"]
KEEP: Final = "keep"
WATCH: Final = "watch"
RETIRE: Final = "retire"
UNKNOWN: Final = "unknown"  # nothing could be judged: the device gives no SMART data (or is a RAID volume)
_RANK: dict[Level, int] = {KEEP: 0, WATCH: 1, RETIRE: 2}
USED_REASON = "wear used"  # how the finding on the wear figure begins ('wear used 85 % of rated endurance (...)')


@dataclass(frozen=True)
class Verdict:
    level: Level
    reasons: tuple[str, ...]  # why (every finding, worst first)
    facts: tuple[str, ...] = ()  # what was looked at and was fine


def _higher_is_worse(value: float, t: Threshold) -> Level:
    if t.critical is not None and value >= t.critical:
        return RETIRE
    if t.warning is not None and value >= t.warning:
        return WATCH
    return KEEP


def _lower_is_worse(value: float, t: Threshold) -> Level:
    if t.critical is not None and value <= t.critical:
        return RETIRE
    if t.warning is not None and value <= t.warning:
        return WATCH
    return KEEP


def judge(r: DriveReport, thresholds: Mapping[str, Threshold] | None = None) -> Verdict:
    """Every finding with its level; the verdict is the worst of them. A device that gives no SMART data at all
    cannot be judged (UNKNOWN), never KEEP."""
    if r.smart_available is False:
        return Verdict(level=UNKNOWN, reasons=(f"cannot judge: {NO_SMART_SUPPORT}",))  # the report's note on it
    return _findings(r, thresholds)


def _findings(r: DriveReport, thresholds: Mapping[str, Threshold] | None) -> Verdict:
    t = {**DEFAULT_THRESHOLDS, **(thresholds or {})}
    findings: list[tuple[Level, str]] = []
    facts: list[str] = []

    def add(level: Level, text: str) -> None:
        if level == KEEP:
            facts.append(text)
        else:
            findings.append((level, text))

    h = r.health
    if h.smart_passed is False:
        add(RETIRE, "SMART overall-health self-assessment: FAILED")
    elif h.smart_passed:
        facts.append("SMART overall health: passed")
    if h.failing_attributes:
        add(RETIRE, f"attributes failing now: {', '.join(h.failing_attributes)}")
    if h.temperatures_at_threshold:  # a condition to fix, not a reason to replace the drive
        add(WATCH, too_hot(h))
    if h.critical_warning:
        serious = h.critical_warning & ~0x02  # bit 1 (temperature) is about cooling, not the flash
        add(RETIRE if serious else WATCH, f"NVMe critical warning 0x{h.critical_warning:02x}")
    if h.available_spare_percent is not None and h.available_spare_threshold_percent:
        spare, floor = h.available_spare_percent, h.available_spare_threshold_percent
        if spare < floor:
            add(RETIRE, f"available spare {spare} % is below the drive's threshold {floor} %")
        else:
            add(_lower_is_worse(spare, t["spare_percent"]), f"available spare {spare} % (drive threshold {floor} %)")
    for value, what in ((h.media_errors, "media/data integrity or uncorrected errors"),
                        (h.reallocated_sectors, "reallocated sectors / grown defects"),
                        (h.pending_sectors, "pending sectors"),
                        (h.uncorrectable_errors, "uncorrectable errors")):
        if value:
            add(WATCH, f"{value:,} {what}")
    if r.used_percent is not None:
        add(_higher_is_worse(r.used_percent, t["used_percent"]),
            f"{USED_REASON} {percent_text(r.used_percent, r.used_at_least)} of rated endurance ({r.used_source})")
    if r.writes.rated_used_percent is not None:
        add(_higher_is_worse(r.writes.rated_used_percent, t["rated_used_percent"]),
            f"{r.writes.rated_used_percent:g} % of rated writes (TBW) used ({r.writes.rating_source})")
    p = r.projection
    if p is not None and p.years_remaining_low is not None:
        # Judged on the pessimistic bound of the stated interval (calibrated: a drive whose indicator has not
        # moved gets no alarming bound), or of the counter's resolution for a timed window.
        years = "no end in sight" if p.years_remaining is None else f"{human_years(p.years_remaining)} years"
        pessimistic = p.years_remaining_low
        what = "at the fast end of the counter's resolution" if p.interval_level is None else \
            f"at the pessimistic end of its {p.interval_level * 100:g} % interval"
        speeding = f"; {p.trend.text}" if p.trend is not None else ""
        if p.years_remaining == 0:
            add(_lower_is_worse(0.0, t["years_remaining"]), "no rated life left")
        else:
            add(_lower_is_worse(pessimistic, t["years_remaining"]),
                f"{years} left, {human_years(pessimistic)} {what} ({p.method}{speeding})")
    if not findings and r.used_percent is None and r.kind == "ssd":
        facts.append("no wear indicator: judged on health only")
    findings.sort(key=lambda f: -_RANK[f[0]])
    level = findings[0][0] if findings else KEEP
    return Verdict(level=level, reasons=tuple(text for _, text in findings), facts=tuple(facts))
