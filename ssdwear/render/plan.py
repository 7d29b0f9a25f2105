"""`plan` for people: the workload and what it rests on, the candidates (a table where it fits, else one block
each), the notes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ssdwear.assess.plan import Candidate, PlanResult, margin
from ssdwear.model.records import DriveId
from ssdwear.model.units import date_text, human_bytes, month_text, span_text

from .layout import GLUE, drive_name, grid, labelled, paragraph, tables_wanted, whole

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ssdwear.assess.stagger import Stagger


def fmt_range(central: float | None, low: float | None, high: float | None) -> str:
    """Plan's years: '18.7 (17.5-20.0)'; '≥ 11.7' when no wear was seen (no upper bound); '0.1-1.2' over a range
    rating (no central figure); '-' when unknown."""
    if central is None:
        return "-" if low is None else f"≥ {_short(low)}" if high is None else f"{_short(low)}-{_short(high)}"
    if low is None or high is None:
        return f"{_short(central)} (≥ {_short(low)})" if low is not None else _short(central)
    if _short(low) == _short(high):
        return _short(central)
    return f"{_short(central)} ({_short(low)}-{_short(high)})"


def _short(years: float | None) -> str:
    if years is None:
        return "-"
    if years >= 1000:
        return f"{years:,.0f}"
    if years >= 100:
        return f"{years:.0f}"
    return f"{years:.1f}"


_FIT_WORDS = {"meets": "yes", "uncertain": "maybe", "fails": "no", "unknown": "?"}
MARK = "*"  # after the years of a candidate whose years do not compare with the workload as computed
NOT_COMPARABLE = "years not comparable as computed"


def _years_shown(c: Candidate) -> bool:
    return c.years is not None or c.years_low is not None


def _years_cell(c: Candidate) -> str:
    shown = fmt_range(c.years, c.years_low, c.years_high)
    return f"{shown} {MARK}" if not c.comparable and _years_shown(c) else shown


def _legend(candidates: Sequence[Candidate], target: float) -> str:
    """What the table's figures mean: only what it printed (brackets, a range without a central figure, an open
    end, the mark of years that do not compare, the margin)."""
    cells = [fmt_range(c.years, c.years_low, c.years_high) for c in candidates]
    said = ["Power-on years (a drive that is off neither writes nor wears)"]
    if any("(" in cell for cell in cells):
        said.append("brackets: the range of the measured wear")
    if any(c.years is None and c.years_low is not None and c.years_high is not None for c in candidates):
        said.append("a range alone: over a rating's range, which has no central figure")
    if any("≥" in cell for cell in cells):
        said.append("≥: no upper end (no wear seen yet)")
    if any(not c.comparable and _years_shown(c) for c in candidates):
        said.append(f"{MARK}: {NOT_COMPARABLE}: the rating is stated on another workload than the one these bytes "
                    "are of, or on none (the notes say which); a drive of its family measured at this workload "
                    "(--from) gives years that are")
    if any(margin(c, target)[1] is not None for c in candidates):
        said.append(f"Margin: the pessimistic bound minus {target:g} years")
    return "; ".join(said) + "."


def _calendar(result: PlanResult) -> str:
    """Power-on days on the wall clock, where the measuring drive's dated readings measured its duty cycle: the
    workload a wall-clock day, the host's writes a wall-clock day (report's Written) and, for rated writes, what a
    host byte costs against the rating's own workload."""
    w = result.workload
    src, duty, host = w.source, w.duty_cycle, w.host_bytes_per_wall_day
    if src is None or duty is None:
        return ""
    currency = "of rated writes" if w.kind == "rated-writes" else "of host writes"
    said = (f"Power-on days: {src.where} was on {duty * 100:.0f} % of the time (measured), so that is "
            f"{human_bytes(w.bytes_per_day * duty)} a wall-clock day {currency}")
    if w.kind == "rated-writes" and host:
        said += (f"; the host wrote {human_bytes(host)} a wall-clock day (report's Written): each host byte wore "
                 f"it as {w.bytes_per_day * duty / host:.2f} bytes of its rating's workload")
    return (f"{said}. At that duty, {result.target_years:g} power-on years last "
            f"{result.target_years / duty:,.1f} calendar years.")


def _name(c: Candidate) -> str:
    """The candidate's name with its model never split across lines (layout.whole, as the report keeps a model): a
    measured drive's model, a catalogue entry's vendor and its family with the capacity ('Western Digital' and 'WD
    Blue 3D NAND SATA 2 TB' may go on two lines, never 'WD Blue 3D'); what follows (a spare-area variant's words, the
    serial) wraps as words do."""
    kept = []
    if c.measured is not None and c.measured.report.model:
        kept.append(c.measured.report.model)
    elif c.rating is not None and c.rating.origin != "config":
        vendor = c.rating.vendor or ""
        model = c.rating.name.removeprefix(f"{vendor} ") if vendor else c.rating.name
        kept += [vendor, model] if model != c.rating.name else [model]
    name = c.name
    for part in filter(None, kept):
        name = name.replace(part, whole(part), 1)
    return name


def _margin(c: Candidate, target: float) -> str:
    """The pessimistic margin (plan.margin), as the table shows it."""
    pessimistic = margin(c, target)[1]
    return "-" if pessimistic is None else f"{pessimistic:+.1f}"


def _span(low: float, high: float) -> str:
    """'137-156 GB', '900 GB-1.2 TB'."""
    return span_text(human_bytes(low), human_bytes(high))


def plan_view(result: PlanResult, columns: int) -> RenderableType:
    """The plan for people: the workload and what it rests on, the candidates (a table where it fits, else one
    block each), then the notes, each said once with the candidates it concerns."""
    from rich.console import Group
    from rich.text import Text

    w, target = result.workload, result.target_years
    currency = "rated writes" if w.kind == "rated-writes" else "host writes"
    spread = "" if w.low is None or w.high is None else f" ({_span(w.low, w.high)})"
    what = {"exact": "exact, as given", "resolution": "range: the counter's resolution",
            "calibrated": f"range: {(w.interval_level or 0) * 100:g} % prediction interval", "none": "no interval"}
    parts: list[RenderableType] = []
    parts += paragraph(f"Workload: {human_bytes(w.bytes_per_day)} a power-on day of {currency}{spread}; "
                          f"{what[w.interval]}", columns, "bold")
    parts += paragraph(w.basis, columns)
    calendar = _calendar(result)
    if calendar:
        parts += paragraph(calendar, columns)
    if w.kind == "rated-writes":
        parts += paragraph("Rated writes are bytes of the rating's own workload that wear a drive as fast: they "
                              "compare directly with ratings on that workload, only roughly with ratings on others "
                              "(client or JEDEC enterprise workloads).", columns, "dim")
    else:
        parts += paragraph("Host writes are compared with each rating's bytes written; how hard a workload "
                              "wears a drive per byte (its write amplification) differs from the rating's own "
                              "workload.", columns, "dim")
    parts += paragraph(f"Target: {target:g} power-on years; years are judged on the pessimistic bound.", columns)
    header = (("Candidate", "left"), ("Rated", "right"), ("Power-on years", "right"),
              (f"Meets {target:g} y", "left"), ("Margin", "right"), ("Warranty", "right"))
    rows = [(_name(c), c.rating_text, _years_cell(c), _FIT_WORDS[c.fit], _margin(c, target),
             f"{c.rating.warranty_years:g} y" if c.rating and c.rating.warranty_years else "-")
            for c in result.candidates]
    table = grid(header, rows, columns) if tables_wanted() else None
    if table is not None:
        parts.append(table)
    else:
        for row in rows:
            parts.append(Text(row[0].replace(GLUE, " "), style="bold"))
            for (label, _), value in zip(header[1:], row[1:], strict=True):
                parts += labelled(label.lower(), value, columns)
    parts += paragraph(_legend(result.candidates, target), columns, "dim")
    by_note: dict[str, list[str]] = {}
    for c in result.candidates:
        for note in c.notes:
            by_note.setdefault(note, []).append(_name(c))
    for note in result.notes:
        parts += paragraph(note, columns)
    for c in result.candidates:
        if not c.comparable and _years_shown(c):
            by_note.setdefault(f"{NOT_COMPARABLE}: {c.comparable_reason}", []).append(_name(c))
    for note, names in by_note.items():
        who = ", ".join(names) if len(names) <= 3 else f"{len(names)} candidates ({', '.join(names[:2])}, ...)"
        parts += paragraph(f"{who}: {note}", columns, "dim")
    return Group(*parts)


def stagger_view(plan: Stagger, columns: int) -> RenderableType:
    """`plan --stagger`: the group, then one row per member: its pessimistic wear-out date and quarter, and keep or
    replace (the window, and the new drive's date and quarter)."""
    from ssdwear.assess.stagger import quarter, quarter_text

    g = plan.group
    head = (f"{g.name} ({g.kind} {g.level}, tolerates {'?' if g.tolerates is None else g.tolerates}): replacements so "
            "that no two members' pessimistic wear-out dates fall in one quarter; a new drive wears as its member "
            "did, after a rebuild that writes its whole capacity.")
    rows = []
    for s in plan.steps:
        r = s.member.report
        when = "-" if s.wears_out_low_at is None else date_text(s.wears_out_low_at)
        q = "-" if s.wears_out_low_at is None else quarter_text(quarter(s.wears_out_low_at))
        if not s.replace:
            action = "keep"
        elif s.replace_by is None:
            action = "replace: no free quarter within reach"
        else:
            new = ("no end in sight" if s.new_wears_out_low_at is None else
                   f"{month_text(s.new_wears_out_low_at)} ({quarter_text(quarter(s.new_wears_out_low_at))})")
            since = date_text(s.replace_from) if s.replace_from is not None else "now"
            action = f"replace between {since} and {date_text(s.replace_by)}: its new drive wears out by {new}"
        who = f"{drive_name(DriveId.of(r)) or '?'} {r.where}" if r is not None else s.member.member
        rows.append((who, when, q, action))
    parts: list[RenderableType] = [*paragraph(head, columns)]
    table = grid((("Member", "left"), ("Wears out (pessimistic)", "right"), ("Quarter", "left"), ("Plan", "left")),
                 rows, columns) if tables_wanted() else None
    if table is not None:
        parts.append(table)
    else:
        for who, when, q, action in rows:
            parts += labelled("member", f"{who}: wears out {when} ({q}); {action}", columns)
    rebuilds = sorted({f"{s.rebuild_percent:.2g} % of its rated wear ({s.rebuild_basis})" if s.rebuild_percent
                       is not None else s.rebuild_basis for s in plan.steps if s.replace})
    notes = [*(f"rebuild: {said}" for said in rebuilds), *plan.notes]
    if not plan.fits:
        notes.append("no schedule fits: the members' remaining life cannot spread their new drives over free "
                     "quarters; replace several now, or with drives of more endurance")
    for note in notes:
        parts += paragraph(note, columns, "dim")
    from rich.console import Group

    return Group(*parts)
