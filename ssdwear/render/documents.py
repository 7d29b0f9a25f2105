"""Every command's documents for scripts, built here and only here: JSON and YAML (the envelope, then each command's
keys: report's and analyze's drives, each drive's entry from model/schema.py; status, start, retire-check, scan,
plan, the stored samples of `history`) and CSV. Every figure is rounded by schema.rounded. No I/O, no rich."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias

from ssdwear.host.store.columns import SAMPLE_COLUMNS
from ssdwear.model.schema import SCHEMA_VERSION, drive_dict, group_dict, rounded

if TYPE_CHECKING:
    from datetime import datetime

    from ssdwear.assess.alerts import Transition
    from ssdwear.assess.plan import Candidate, Measured, PlanResult, Workload
    from ssdwear.assess.stagger import Stagger
    from ssdwear.assess.status import StatusRow
    from ssdwear.assess.verdict import Verdict
    from ssdwear.model.groups import Group
    from ssdwear.model.records import DriveReport, RaidVolume, Sample, StoredDrive
    from ssdwear.run.reset import StartResult
    from ssdwear.run.smartd import Imported

# What a document holds: JSON's types (read-only views, so that a list of strings is a list of Json).
Json: TypeAlias = bool | int | float | str | Sequence["Json"] | Mapping[str, "Json"] | None
Doc = dict[str, Json]  # a document, or its keys after the envelope


def to_json(doc: Doc, ascii_only: bool = False) -> str:
    """The document; with `ascii_only` every character beyond ASCII as a \\u escape (the same document)."""
    return json.dumps(doc, indent=2, ensure_ascii=ascii_only) + "\n"


def to_yaml(doc: Doc, ascii_only: bool = False) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=not ascii_only, width=1000))


# The fields of a stored sample, in the `history` document and its CSV: the samples table's (host/store/columns.py).
SAMPLE_FIELDS = tuple(c.field for c in SAMPLE_COLUMNS)


def sample_row(s: Sample) -> Doc:
    row = {name: getattr(s, name) for name in SAMPLE_FIELDS}
    row["at"] = s.at.isoformat(timespec="seconds")
    return row


def samples_doc(stored: StoredDrive, series: Sequence[Sample]) -> Doc:
    """A drive's stored samples, as the `history` document holds them."""
    d = stored.drive
    return {"drive": {"model": d.model, "serial": d.serial, "wwn": d.wwn, "interface": d.interface},
            "samples": [sample_row(s) for s in series]}


def envelope(origin: str, generated_at: str, version: str, payload: Mapping[str, Json]) -> Doc:
    """Every JSON/YAML document: schema, ssdwear version, time, origin, then the command's own keys."""
    return {"schema": SCHEMA_VERSION, "ssdwear": version, "generated_at": generated_at, "origin": origin, **payload}


def _csv(fields: Sequence[str], rows: Sequence[Doc]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def samples_csv(series: Sequence[Sample]) -> str:
    return _csv(SAMPLE_FIELDS, [sample_row(s) for s in series])


DRIVE_LIST_FIELDS = ("serial", "model", "wwn", "interface", "last_device", "samples", "first_sample", "last_sample",
                     "span_days")


def drive_list_doc(drives: Sequence[StoredDrive]) -> list[Doc]:
    """The drives a history holds (Store.drive_list), as the `history` document lists them."""
    def when(t: datetime | None) -> str | None:
        return None if t is None else t.isoformat(timespec="seconds")

    return [dict(serial=d.drive.serial, model=d.drive.model, wwn=d.drive.wwn, interface=d.drive.interface,
                 last_device=d.device, samples=d.samples, first_sample=when(d.first), last_sample=when(d.last),
                 span_days=None if d.first is None or d.last is None else
                 rounded((d.last - d.first).total_seconds() / 86400, 2)) for d in drives]


def drive_list_csv(drives: Sequence[StoredDrive]) -> str:
    return _csv(DRIVE_LIST_FIELDS, drive_list_doc(drives))


# ------------------------------------------------------------------------------------------------
# The commands' documents (the keys after the envelope)


def report_doc(reports: Sequence[DriveReport], volumes: Sequence[RaidVolume] = (),
               groups: Sequence[Group] | None = None) -> Doc:
    """`report`, `analyze` (and `measure`): the drives, then the RAID volumes met (not drives); with `report
    --groups` the redundancy groups beside them."""
    doc: Doc = {"drives": [drive_dict(r) for r in reports],
                "raid_volumes": [dict(device=v.device, controller=v.controller, drives=list(v.drives), note=v.note)
                                 for v in volumes]}
    if groups is not None:
        doc["groups"] = [group_dict(g) for g in groups]
    return doc


def status_doc(rows: Sequence[StatusRow]) -> Doc:
    return {"drives": [{
        "device": row.device, "device_type": row.device_type, "model": row.drive.model, "serial": row.drive.serial,
        "wwn": row.drive.wwn,
        "timed_workload": row.timed, "counting": row.counting, "e4h_minutes": row.e4h_minutes,
        "reset_at": row.reset_at.isoformat(timespec="seconds") if row.reset_at else None,
        "since_reset_minutes": rounded(row.since_reset_minutes, 1),
        "valid": row.valid, "reason": row.reason, "error": row.error, "window_kind": row.kind,
        "counter": row.counter} for row in rows]}


def start_doc(results: Sequence[StartResult]) -> Doc:
    return {"results": [dict(device=r.device, device_type=r.device_type, model=r.drive.model, serial=r.drive.serial,
                             wwn=r.drive.wwn, status=r.status, message=r.message) for r in results]}


def import_doc(places: Sequence[str], results: Sequence[Imported]) -> Doc:
    """`import smartd`: the places looked in, and per drive what was imported from where (or why nothing)."""
    return {"places": list(places), "drives": [dict(
        where=r.where, model=r.drive.model, serial=r.drive.serial, wwn=r.drive.wwn, added=r.added, offered=r.offered,
        present=r.present, rejected=r.rejected, rejected_why=r.rejected_why, summary=r.summary, message=r.message)
        for r in results]}


def verdict_doc(verdict: Verdict, drive: DriveReport) -> Doc:
    """`retire-check`: the verdict, its reasons and facts, and the drive's entry."""
    return {"verdict": verdict.level, "reasons": list(verdict.reasons), "facts": list(verdict.facts),
            "drive": drive_dict(drive)}


def no_verdict_doc(reasons: Sequence[str]) -> Doc:
    """`retire-check` of what is no drive (a RAID controller's volume): cannot judge, and why."""
    return {"verdict": "unknown", "reasons": list(reasons), "facts": [], "drive": None}


def scan_doc(found: Sequence[tuple[str, str | None]]) -> Doc:
    return {"devices": [dict(device=name, type=dtype) for name, dtype in found]}


# ------------------------------------------------------------------------------------------------
# plan

def _measured_dict(m: Measured | None) -> Doc | None:
    """A measured drive as the plan document names it."""
    if m is None:
        return None
    r = m.report
    return {"device": r.device, "where": m.where, "model": r.model, "serial": r.serial,
            "projection_method": r.projection.method if r.projection else None}


def workload_dict(w: Workload) -> Doc:
    return {
        "kind": w.kind,
        "given": w.given,
        "bytes_per_day": rounded(w.bytes_per_day, 0),
        "bytes_per_day_low": rounded(w.low, 0),
        "bytes_per_day_high": rounded(w.high, 0),
        "interval": w.interval,
        "interval_level": w.interval_level,
        "basis": w.basis,
        "source": _measured_dict(w.source),
        "rating_bytes": w.rating_bytes,
        "rating_workload": w.rating_workload,
        "write_amplification": w.write_amplification,
        "rating_workload_kind": w.rating_kind,
        "duty_cycle": rounded(w.duty_cycle, 4),
        "bytes_per_wall_clock_day": None if w.duty_cycle is None else rounded(w.bytes_per_day * w.duty_cycle, 0),
        "host_bytes_per_wall_clock_day": rounded(w.host_bytes_per_wall_day, 0),
    }


def candidate_dict(c: Candidate, target: float) -> Doc:
    from ssdwear.assess.plan import margin

    r = c.rating
    central, pessimistic = margin(c, target)
    s = c.spare
    return {
        "name": c.name,
        "kind": c.kind,
        "variant": c.variant,
        "vendor": r.vendor if r else None,
        "family": r.family if r else None,
        "model_pattern": r.model if r else None,
        "model_verified": r.verified if r else None,
        "capacity_bytes": c.measured.report.capacity_bytes if c.measured else r.nominal_capacity_bytes if r else None,
        "interface": r.interface if r else None,
        "class": r.drive_class if r else None,
        "rated_bytes": rounded(c.rated_bytes, 0),
        "rated_bytes_low": rounded(c.rated_range[0], 0) if c.rated_range else None,
        "rated_bytes_high": rounded(c.rated_range[1], 0) if c.rated_range else None,
        "rating": c.rating_text,
        "rating_tbw_bytes": r.bytes if r else None,
        "rating_tbw_bytes_low": r.bytes_low if r else None,
        "rating_tbw_bytes_high": r.bytes_high if r else None,
        "rating_dwpd": r.dwpd if r else None,
        "warranty_years": r.warranty_years if r else None,
        "rating_workload": r.workload if r else None,
        "years": rounded(c.years, 2),
        "years_low": rounded(c.years_low, 2),
        "years_high": rounded(c.years_high, 2),
        "fit": c.fit,
        "meets": None if c.fit == "unknown" else c.fit == "meets",
        "margin_years": rounded(central, 2),
        "margin_years_low": rounded(pessimistic, 2),
        "spare": None if s is None else {
            "percent": s.percent, "method": s.method, "gain": rounded(s.gain, 4), "alpha": rounded(s.alpha, 4),
            "alpha_spare": rounded(s.alpha_spare, 4), "published_bytes": s.published_bytes,
            "model_bytes": rounded(s.model_bytes, 0), "model_error": rounded(s.model_error, 4),
            "assumption": s.assumption},
        "measured": _measured_dict(c.measured),
        "source": None if r is None or r.source is None else {
            "title": r.source.title, "url": r.source.url, "date": r.source.date, "kind": r.source.kind},
        "rating_missing": r.missing if r else None,
        "rating_workload_kind": r.workload_kind if r else None,
        "comparable": c.comparable,
        "comparable_reason": c.comparable_reason,
        "from_measured": _measured_dict(c.from_measured),
        "rating_years": rounded(c.rating_years[0], 2) if c.rating_years else None,
        "rating_years_low": rounded(c.rating_years[1], 2) if c.rating_years else None,
        "rating_years_high": rounded(c.rating_years[2], 2) if c.rating_years else None,
        "notes": list(c.notes),
    }


def plan_doc(result: PlanResult) -> Doc:
    """The command's keys after the envelope (docs/json.md); the spare-area model's citation when --spare asks
    for it."""
    from ssdwear.wear.spare import MODEL as SPARE_MODEL

    return {
        "target_years": result.target_years,
        "spare_percent": result.spare_percent,
        "spare_model": SPARE_MODEL if result.spare_percent is not None else None,
        "workload": workload_dict(result.workload),
        "candidates": [candidate_dict(c, result.target_years) for c in result.candidates],
        "met": result.met,
        "notes": list(result.notes),
    }




# ------------------------------------------------------------------------------------------------
# notify


def _day(at: datetime | None) -> str | None:
    return None if at is None else at.date().isoformat()


def _when(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat(timespec="seconds")


def event_doc(t: Transition) -> Doc:
    """One event of `notify` (docs/json.md, EVENT), the keys after the envelope: what changed for which alert (its
    stable key: the subject's identity and the rule), who it is about (a drive, or a redundancy group), the figures
    it rests on and one line saying what it means and what to do."""
    from ssdwear.assess.alerts import DriveFacts

    s = t.subject
    if isinstance(s, DriveFacts):
        drive: Json = {"model": s.model, "serial": s.serial, "wwn": s.wwn, "device": s.device, "host": s.host}
        group: Json = None
        used, dates, verdict = rounded(s.used_percent, 4), (_day(s.wears_out_at), _day(s.wears_out_low_at)), s.verdict
    else:
        drive, used, dates, verdict = None, None, (None, None), None
        group = {"name": s.name, "kind": s.kind, "level": s.level, "host": s.host, "members": list(s.members),
                 "redundancy_lost_date": _day(s.redundancy_lost_at),
                 "redundancy_lost_date_low": _day(s.redundancy_lost_low_at), "lockstep": s.lockstep,
                 "lockstep_reasons": list(s.lockstep_reasons)}
    return {"event": t.event, "rule": t.rule, "key": t.key, "id": t.id, "threshold": t.threshold,
            "since": _when(t.first_fired), "drive": drive, "group": group, "used_percent": used,
            "wears_out_date": dates[0], "wears_out_date_low": dates[1], "verdict": verdict, "source": t.source,
            "message": t.message}


def stagger_doc(plan: Stagger) -> Doc:
    """`plan --stagger GROUP`: the group, whether a schedule fits, and each member's step (docs/json.md)."""
    from ssdwear.assess.stagger import quarter, quarter_text

    g = plan.group
    schedule: list[Doc] = []
    for s in plan.steps:
        r = s.member.report
        schedule.append({
            "member": s.member.member, "device": None if r is None else r.where,
            "serial": None if r is None else r.serial, "model": None if r is None else r.model,
            "wears_out_date_low": _day(s.wears_out_low_at),
            "quarter": None if s.wears_out_low_at is None else quarter_text(quarter(s.wears_out_low_at)),
            "action": "replace" if s.replace else "keep",
            "replace_from": _day(s.replace_from), "replace_by": _day(s.replace_by),
            "new_wears_out_date_low": _day(s.new_wears_out_low_at),
            "new_quarter": None if s.new_wears_out_low_at is None else quarter_text(quarter(s.new_wears_out_low_at)),
            "rebuild_percent": rounded(s.rebuild_percent, 4), "rebuild_basis": s.rebuild_basis or None})
    return {"group": {"name": g.name, "kind": g.kind, "level": g.level, "tolerates": g.tolerates},
            "fits": plan.fits, "schedule": schedule, "notes": list(plan.notes)}
