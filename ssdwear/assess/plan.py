"""Which drive lasts how long under this workload: the workload a drive measured (or one given by hand) against
every candidate's rated endurance, with the spare-area model where asked. Pure: no I/O, no clock.

The workload is bytes per day in one of two currencies, and carries which:
- `rated-writes`: the wear rate a drive measured times that drive's own rating (the seed's method: 0.0145 % of a
  200 GB Intel SSD 710's 1.0 PB a day = 145 GB a day of the 710's rated 4 KB random writes). These are the bytes
  of the rating's own workload that would wear the drive as fast, not the bytes the host wrote;
- `host-writes`: bytes the host wrote a day, from the drive's counters (fitted over the stored history, else its
  lifetime average) or given by hand (--host-writes).
Either is set against each candidate's rating in bytes: years = rated bytes / (bytes a day x 365).

Every measured drive is also a candidate "as measured": its own projected life as a new drive (`report`'s
`years_new_drive`), which needs no rating at all (the SSD 320 of the seed: 4.6 years).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ssdwear.drives import indicators
from ssdwear.drives.ratings import Rating, attaches, capacity_fits, find_rating, model_matches
from ssdwear.model.records import DriveId, DriveReport, Projection, Sample, Snapshot, Writes
from ssdwear.model.units import bytes_span, bytes_text, hours_text, rate_text
from ssdwear.wear import spare as spare_mod

from .comparable import from_family, judged
from .spare_area import SpareResult, spare_result

DAYS_PER_YEAR = 365
FITS = ("meets", "uncertain", "fails", "unknown")  # the order candidates are listed in


@dataclass(frozen=True)
class Measured:
    """A drive the workload was measured on: its report (from a device, saved outputs or the history) and the
    catalogue entry that describes its model, when one does."""

    report: DriveReport
    where: str  # the device, the file(s), or 'history:DB'
    entry: Rating | None = None  # the (verified) catalogue or config entry of its model
    origin: str = "files"  # as the JSON envelope's origin: 'live', 'files', 'replay:DIR', 'history:DB'

    @property
    def label(self) -> str:
        return DriveId.of(self.report).label or self.where


@dataclass(frozen=True)
class Workload:
    """Bytes a day, in the currency `kind` says, with its interval (None: exact, as given by hand)."""

    kind: str  # 'rated-writes' or 'host-writes'
    bytes_per_day: float
    low: float | None
    high: float | None
    interval: str  # 'exact' (given by hand), 'resolution' (a timed window), 'calibrated', 'none'
    interval_level: float | None
    basis: str  # one line: what the figure rests on
    given: bool = False
    source: Measured | None = None
    rating_bytes: int | None = None  # rated-writes: the rating of the drive that measured it
    rating_workload: str | None = None  # rated-writes: what that rating assumes (e.g. 4 KB random writes)
    write_amplification: float | None = None  # NAND / host bytes of the measuring drive, where it counts both
    rating_kind: str | None = None  # rated-writes: that rating's workload as ratings.WORKLOAD_KINDS names it
    # bytes_per_day counts power-on days. The measuring drive's power-on hours per wall-clock hour, where its dated
    # readings measured it (None: not measured), and the host's writes a wall-clock day (report's Written).
    duty_cycle: float | None = None
    host_bytes_per_wall_day: float | None = None


@dataclass(frozen=True)
class Candidate:
    name: str
    kind: str  # 'catalogue', 'config' or 'measured'
    rating: Rating | None = None
    measured: Measured | None = None
    variant: str | None = None  # a published spare-area rating listed as its own candidate
    rated_bytes: float | None = None  # what the years rest on (after the spare area)
    rated_range: tuple[float, float] | None = None  # the same for a range rating (its low and high ends)
    rating_text: str = ""
    years: float | None = None
    years_low: float | None = None
    years_high: float | None = None
    fit: str = "unknown"
    spare: SpareResult | None = None
    notes: tuple[str, ...] = ()
    comparable: bool = True  # the years compare with the workload as computed (comparable.py); else why not
    comparable_reason: str = ""
    from_measured: Measured | None = None  # a drive of its family measured at this workload gave the years
    rating_years: tuple[float | None, float | None, float | None] | None = None  # what its rating gives, then

    def search_fields(self) -> tuple[str, ...]:
        """What --candidate patterns are matched against, each on its own: the name, vendor, family and model
        pattern; for a measured drive also its model, serial and device."""
        parts = [self.name]
        if self.rating is not None:
            parts += [self.rating.vendor or "", self.rating.family or "", self.rating.model or ""]
        if self.measured is not None:
            r = self.measured.report
            parts += [r.model or "", r.serial or "", r.device or "", self.measured.where]
        return tuple(p for p in parts if p)

    def matches(self, pattern: re.Pattern[str]) -> bool:
        return any(pattern.search(text) for text in self.search_fields())


@dataclass(frozen=True)
class PlanResult:
    workload: Workload
    target_years: float
    spare_percent: float | None
    candidates: tuple[Candidate, ...]
    notes: tuple[str, ...] = ()

    @property
    def met(self) -> bool:
        """At least one candidate meets the target on years that compare with the workload as computed."""
        return any(c.fit == "meets" and c.comparable for c in self.candidates)


def entry_for(report: DriveReport, catalogue: Sequence[Rating], configured: Sequence[Rating] = ()
              ) -> Rating | None:
    """The entry describing a measured drive's model: a config entry whose pattern matches it, else a verified
    catalogue entry (rated or not) that would attach to it."""
    model = report.model or ""
    for r in configured:
        if r.model and not r.serial and model_matches(r, model) and capacity_fits(r, report.capacity_bytes):
            return r
    snap = Snapshot(source=report.source or "", model=report.model, capacity_bytes=report.capacity_bytes)
    return next((r for r in catalogue if attaches(r, snap)), None)


def report_from_history(drive: DriveId, samples: Sequence[Sample], configured: Sequence[Rating], level: float,
                        now: datetime) -> DriveReport:
    """A drive known only from its stored samples (`plan --from SERIAL`): its latest sample's report (the lifetime
    average), with the windowed projection over the samples that `report` gives (history.py) and its host writes
    a day. Samples dated after `now` are ignored (history.py's clock rule)."""
    from ssdwear.drives.fine import stored_counter

    from .history import history_windowed, up_to
    from .report import lifetime_projection
    from .windowed import with_windowed

    model, serial, interface = drive.model, drive.serial, drive.interface or "unknown"
    dated = up_to(samples, now)
    if not dated:
        return DriveReport(device=None, model=model, serial=serial, interface=interface, error="no stored samples")
    latest = dated[-1]
    source = latest.used_source
    step = indicators.indicator_step(source)
    saturated = indicators.indicator_saturated(source, latest.used_percent)
    rating = find_rating(Snapshot(source="history", model=model, serial=serial), configured)
    projection = None
    if source is not None and latest.used_percent is not None:
        used = indicators.UsedReading(source, latest.used_percent, saturated, source, indicators.TRUST_STANDARD,
                                       step)
        projection = lifetime_projection(used, Snapshot(source="history", interface=interface,
                                                        power_on_hours=latest.power_on_hours),
                                         latest.host_bytes_written, level)
    host, nand = latest.host_bytes_written, latest.nand_bytes_written
    writes = Writes(host_bytes_written=host, nand_bytes_written=nand,
                    write_amplification=round(nand / host, 2) if nand is not None and host else None,
                    rated_bytes=rating.bytes if rating else None, rating_source=rating.source if rating else None)
    report = DriveReport(device=None, model=model, serial=serial, wwn=drive.wwn, interface=interface,
                         power_on_hours=latest.power_on_hours, used_percent=latest.used_percent, used_source=source,
                         used_at_least=saturated, used_step=step, projection=projection, writes=writes,
                         source="history", counters=tuple(c for c in (stored_counter(
                             latest.counter_source, latest.counter, latest.counter_rated),) if c is not None))
    return with_windowed(report, history_windowed(dated, report, level, now))


# ------------------------------------------------------------------------------------------------
# The workload


def given_workload(bytes_per_day: float, words: str) -> Workload:
    return Workload("host-writes", bytes_per_day, None, None, "exact", None,
                    f"given: {words} of host writes, read per power-on day (exact: no interval)", given=True)


def _duty(r: DriveReport) -> float | None:
    """The drive's power-on hours per wall-clock hour, where its dated readings measured it."""
    p = r.projection
    return p.duty_cycle if p is not None and p.duty_measured and p.duty_cycle else None


def _relative_interval(p: Projection | None) -> tuple[float | None, float | None]:
    """The projection's interval as factors on its central rate (None when it has none or no central rate)."""
    if p is None or not p.percent_per_year or p.percent_per_year_low is None or p.percent_per_year_high is None:
        return None, None
    return p.percent_per_year_low / p.percent_per_year, p.percent_per_year_high / p.percent_per_year


def rated_workload(m: Measured) -> Workload | None:
    """Wear rate x the drive's rating: bytes of the rating's workload a day that wear the drive as fast."""
    r, p = m.report, m.report.projection
    rated = r.writes.rated_bytes
    if not rated or p is None or p.percent_per_year is None:
        return None
    per_day = rated * p.percent_per_year / 100 / DAYS_PER_YEAR

    def scaled(rate: float | None) -> float | None:
        return None if rate is None else rated * rate / 100 / DAYS_PER_YEAR

    interval = "resolution" if p.interval_level is None else "calibrated"
    workload = m.entry.workload if m.entry is not None else None
    basis = (f"{m.where} {m.label} wore {rate_text(p.percent_per_year)} % of its rating a power-on year ({p.method}: "
             f"{p.basis}) x its rating {bytes_text(rated)}" + (f" (rating workload: {workload})" if workload else "")
             + f" = {_bytes(per_day)} a power-on day of rated writes")
    return Workload("rated-writes", per_day, scaled(p.percent_per_year_low), scaled(p.percent_per_year_high),
                    interval, p.interval_level, basis, source=m, rating_bytes=rated, rating_workload=workload,
                    write_amplification=r.writes.write_amplification,
                    rating_kind=m.entry.workload_kind if m.entry is not None else None, duty_cycle=_duty(r),
                    host_bytes_per_wall_day=r.writes.host_bytes_per_day)


def host_workload(m: Measured) -> Workload | None:
    """Host bytes a day: fitted over the stored history, else the lifetime average over power-on time."""
    r, duty, wall = m.report, _duty(m.report), m.report.writes.host_bytes_per_day
    if wall is not None and wall > 0:
        per_day = wall / (duty or 1.0)
        how = (f"fitted over the stored history: {_bytes(wall)} a wall-clock day, " +
               (f"at its {duty * 100:.0f} % power-on" if duty else "always on assumed (no duty cycle measured)"))
    elif r.writes.host_bytes_written and r.power_on_hours and r.power_on_hours > 0:
        per_day = r.writes.host_bytes_written / (r.power_on_hours / 24)
        how = (f"lifetime average: {_bytes(r.writes.host_bytes_written)} in {hours_text(r.power_on_hours)} "
               "(per power-on day)")
    else:
        return None
    low, high = _relative_interval(r.projection)
    if low is not None and high is not None and r.projection is not None and r.projection.interval_level:
        interval, level = "calibrated", r.projection.interval_level
        range_words = (f"; range: the relative interval of its wear rate ({r.projection.method}, "
                       f"{level * 100:g} %)")
        low, high = per_day * low, per_day * high
    else:
        interval, level, low, high = "none", None, None, None
        range_words = "; no interval (the drive has no calibrated wear projection)"
    wa = r.writes.write_amplification
    basis = (f"{m.where} {m.label} host writes {_bytes(per_day)} a power-on day, {how}" + range_words
             + (f"; write amplification {wa:g} (NAND / host bytes written)" if wa else ""))
    return Workload("host-writes", per_day, low, high, interval, level, basis, source=m,
                    write_amplification=wa, duty_cycle=duty, host_bytes_per_wall_day=wall)


def measured_workload(drives: Sequence[Measured]) -> Workload | None:
    """The workload of the measured drives: the first that has a rating and a wear rate gives rated writes (the
    currency ratings are written in); else the first with host write counters gives host writes."""
    for m in drives:
        w = rated_workload(m)
        if w is not None:
            return w
    fitted = [m for m in drives if m.report.writes.host_bytes_per_day]
    for m in [*fitted, *(m for m in drives if m not in fitted)]:
        w = host_workload(m)
        if w is not None:
            return w
    return None


# ------------------------------------------------------------------------------------------------
# Candidates


def _years(rated: float | None, w: Workload) -> tuple[float | None, float | None, float | None]:
    if rated is None:
        return None, None, None

    def at(per_day: float | None) -> float | None:
        return None if per_day is None or per_day <= 0 else rated / per_day / DAYS_PER_YEAR

    central = at(w.bytes_per_day)
    low = at(w.high) if w.high is not None else central
    high = at(w.low) if w.low is not None else central
    return central, low, high


def fit_of(years: float | None, low: float | None, high: float | None, target: float) -> str:
    """'meets' when even the pessimistic bound reaches the target, 'fails' when even the optimistic one does not,
    'uncertain' between, 'unknown' without a figure."""
    if years is None and low is None:
        return "unknown"
    if low is not None and low >= target:
        return "meets"
    if high is not None and high < target:
        return "fails"
    return "uncertain"


def _rated_candidate(entry: Rating, kind: str, w: Workload, target: float, spare: float | None,
                     family: Sequence[Rating], variant: bool = False) -> Candidate:
    """A catalogue or config entry at this workload. A range rating (the SSD 320's 5-60 TB) gives years over the
    whole range: its low end at the workload's high end to its high end at the workload's low end, no central."""
    name = entry.name
    full, span = entry.bytes_for(None), entry.bytes_range
    notes: list[str] = []
    result, gain = None, 1.0
    if variant:
        assert entry.spare_area_bytes is not None
        name = f"{name}, {entry.spare_area_wording or f'{entry.spare_area_percent:g} % spare area'}"
        rated: float | None = float(entry.spare_area_bytes)
        text = f"{bytes_text(entry.spare_area_bytes)} (published)"
    elif spare is not None and (full is not None or span is not None):
        result = spare_result(entry, family, spare)
        gain = result.gain or 1.0
        rated = None if full is None else full * gain
        text = (_rating(rated) if span is None else bytes_span(span[0] * gain, span[1] * gain)) + {
            "published": " (published)", "model": " (model)", "published+model": " (published + model)",
            "not modelled": ""}[result.method]
        notes.append(result.note)
        if result.assumption:
            notes.append(result.assumption)
    else:
        rated = None if full is None else float(full)
        text = entry.figure() if entry.bytes is not None or full is None else \
            f"{bytes_text(full)} ({entry.figure()})"
    if entry.missing:
        notes.append(entry.missing)
    elif full is None and span is None:
        notes.append("rating unknown: a DWPD rating needs the capacity (capacity: in the config)")
    rated_range = None if span is None or variant else (span[0] * gain, span[1] * gain)
    if rated_range is not None and span is not None:
        years, low, high = None, _years(rated_range[0], w)[1], _years(rated_range[1], w)[2]
        whose = f"range of {entry.range_scope}" if entry.range_scope else "range of the config"
        if result is not None and result.method in ("model", "published+model"):
            whose = f"modelled from the published {bytes_span(*span)}, the {whose}"
        else:
            whose = f"the published {whose}"
        notes.append(f"rated {bytes_span(*rated_range)}, {whose}: the years span it (the low rating at the "
                     "workload's high end to the high rating at its low end)")
    else:
        years, low, high = _years(rated, w)
    return Candidate(name, kind, rating=entry, variant="spare-area" if variant else None, rated_bytes=rated,
                     rated_range=rated_range, rating_text=text, years=years, years_low=low, years_high=high,
                     fit=fit_of(years, low, high, target), spare=result, notes=tuple(n for n in notes if n))


def _measured_candidate(m: Measured, target: float, spare: float | None, family: Sequence[Rating]) -> Candidate:
    p = m.report.projection
    notes: list[str] = []
    if p is None or (p.years_new_drive is None and p.years_new_drive_low is None):
        reason = m.report.error or "no wear projection for this drive"
        return Candidate(f"{m.label} as measured", "measured", measured=m, rating_text="as measured",
                         notes=(reason,))
    factor, result = 1.0, None
    if spare is not None:
        result = spare_result(m.entry, family, spare)
        factor = result.gain or 1.0
        notes.append(result.note)
        if result.assumption:
            notes.append(result.assumption)

    def scaled(y: float | None) -> float | None:
        return None if y is None else y * factor

    years, low, high = scaled(p.years_new_drive), scaled(p.years_new_drive_low), scaled(p.years_new_drive_high)
    where = f"{m.where}: {p.method}, {p.basis}"
    notes.insert(0, f"life of a new drive at the wear it measured ({where})")
    return Candidate(f"{m.label} as measured", "measured", rating=m.entry, measured=m,
                     rating_text="as measured" + (" (model)" if result and result.method == "model" else ""),
                     years=years, years_low=low, years_high=high, fit=fit_of(years, low, high, target),
                     spare=result, notes=tuple(n for n in notes if n))


def plan(workload: Workload, measured: Sequence[Measured], catalogue: Sequence[Rating],
         configured: Sequence[Rating] = (), patterns: Sequence[str] = (), target_years: float = 5.0,
         spare_percent: float | None = None) -> PlanResult:
    """Every candidate at this workload, sorted by fit. `patterns` (regular expressions, case-insensitive) narrow
    the candidates; a pattern that matches none is a ValueError."""
    family = [*configured, *catalogue]
    out: list[Candidate] = [_measured_candidate(m, target_years, spare_percent, family) for m in measured]
    for entry in configured:
        if entry.model and not entry.serial:
            out.append(_rated_candidate(entry, "config", workload, target_years, spare_percent, family))
    for entry in catalogue:
        out.append(_rated_candidate(entry, "catalogue", workload, target_years, spare_percent, family))
        if spare_percent is None and entry.spare_area_bytes:
            out.append(_rated_candidate(entry, "catalogue", workload, target_years, None, family, variant=True))
    if patterns:
        compiled = [re.compile(p, re.I) for p in patterns]
        unmatched = [p.pattern for p in compiled if not any(c.matches(p) for c in out)]
        if unmatched:
            raise ValueError(f"--candidate '{unmatched[0]}' matches no candidate (drives measured, the config's "
                             "ratings, the catalogue)")
        out = [c for c in out if any(c.matches(p) for p in compiled)]
    out = [_compared(c, workload, measured, target_years, spare_percent, family) for c in out]
    out.sort(key=_order)
    notes = []
    if spare_percent is not None:
        notes.append(f"spare area: {spare_percent:g} % of each drive's user capacity left unused (unpartitioned, or "
                     "trimmed once and never written). A published spare-area rating is used where one applies; "
                     f"otherwise the figure is an estimate from the {spare_mod.MODEL}. That write amplification is "
                     "too high for sequential writes and for skewed writes on drives that separate hot from cold "
                     "data, so for them extra spare buys less than estimated.")
    return PlanResult(workload, target_years, spare_percent, tuple(out), tuple(notes))


def _compared(c: Candidate, w: Workload, measured: Sequence[Measured], target: float, spare: float | None,
              family: Sequence[Rating]) -> Candidate:
    """The candidate with whether its years compare with the workload as computed (comparable.py); where they do
    not and a drive of its family was measured, with that measurement's years instead (the rating's kept)."""
    ok, why = judged(c, w)
    found = None if ok else from_family(c, why, measured, spare, family)
    if found is None:
        return replace(c, comparable=ok, comparable_reason=why)
    years, low, high = found.years
    modelled = found.spare is not None and found.spare.method == "model"
    notes = c.notes if found.spare is None or c.spare is not None else \
        (*c.notes, *(n for n in (found.spare.note, found.spare.assumption) if n))
    return replace(c, years=years, years_low=low, years_high=high, fit=fit_of(years, low, high, target),
                   rating_text="from measured" + (" (model)" if modelled else ""), spare=found.spare,
                   comparable=True, comparable_reason=found.reason, from_measured=found.measured,
                   rating_years=(c.years, c.years_low, c.years_high), notes=(*(n for n in found.notes if n), *notes))


def _order(c: Candidate) -> tuple[Any, ...]:
    """By fit, then the pessimistic years (longest first), then vendor, family and capacity."""
    low = c.years_low if c.years_low is not None else c.years
    r = c.rating
    return (FITS.index(c.fit), -(low if low is not None else -1.0), -(c.years or 0.0), c.kind != "measured",
            (r.vendor or "", r.family or "", r.nominal_capacity_bytes or 0) if r else ("", "", 0), c.name)


def margin(c: Candidate, target: float) -> tuple[float | None, float | None]:
    """(central, pessimistic) years beyond the target; negative when short of it."""
    return (None if c.years is None else c.years - target, None if c.years_low is None else c.years_low - target)


def _bytes(count: float) -> str:
    from ssdwear.model.units import human_bytes

    return human_bytes(count)


def _rating(count: float | None) -> str:
    return "-" if count is None else bytes_text(count)


__all__ = ["Candidate", "Measured", "PlanResult", "SpareResult", "Workload", "given_workload", "margin",
           "measured_workload", "plan"]
