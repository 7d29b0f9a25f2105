"""The report for people: a table where it fits, else one block per drive (narrow terminals, cron mail), never a
truncated identity or figure; and retire-check's verdict."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ssdwear.model.records import DriveId, DriveReport, Projection, RaidVolume, Window, WindowState
from ssdwear.model.units import (
    MAX_PRINTED_YEARS,
    MIN_PRINTED_YEARS,
    fmt_years,
    human_bytes,
    human_minutes,
    percent_text,
    rate_text,
    wears_out_text,
)

from .layout import drive_name, grid, labelled, line_text, paragraph, wrap_text

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.table import Table
    from rich.text import Text

    from ssdwear.assess.verdict import Verdict
    from ssdwear.model.groups import Group


def intervalwords(p: Projection) -> str:
    """What the bracketed range means, in words."""
    if p.interval_level is None:
        return "range: the counter's resolution"
    return f"range: {p.interval_level * 100:g} % prediction interval"


def legend(reports: Sequence[DriveReport], table: bool = False) -> str | None:
    """One line under printed projections: what their ranges are, that years are power-on years, and in a `table`
    what the month under them is."""
    shown = [r.projection for r in reports if r.projection is not None]
    if not shown:
        return None
    ranges = [f"{level * 100:g} % prediction interval"
              for level in sorted({p.interval_level for p in shown if p.interval_level is not None})]
    if any(p.interval_level is None for p in shown):
        ranges.append("for timed windows the counter's resolution" if ranges else "the counter's resolution")
    printed = " ".join(years_left(p) + " " + years_new(p) for p in shown)
    marks = (["≥ x: no upper end"] if "≥" in printed else []) + \
        ([f"> {MAX_PRINTED_YEARS:g}, < {MIN_PRINTED_YEARS:g}: bounds"] if ">" in printed or "<" in printed else [])
    dated = [p for p in shown if years_left_cell(p) != years_left(p)]
    if table and dated:
        assumed = "; always on assumed without dated readings" if any(not p.duty_measured for p in dated) else ""
        marks.append(f"under them the month they end on the calendar (pessimistic in brackets{assumed})")
    return "; ".join([f"Power-on years; brackets: {', '.join(ranges)}", *marks]) + "."


def years_left(p: Projection | None) -> str:
    if p is None or (p.years_remaining is None and p.years_remaining_low is None):
        return "-"
    return fmt_years(p.years_remaining, p.years_remaining_low, p.years_remaining_high)


def years_left_cell(p: Projection | None) -> str:
    """The table's cell: the years, and under them the month they end on the calendar (pessimistic in brackets)."""
    dates = wears_out_text(p, short=True) if p is not None else None
    return years_left(p) + (f"\n{dates}" if dates else "")


def years_new(p: Projection | None) -> str:
    if p is None:
        return "-"
    return fmt_years(p.years_new_drive, p.years_new_drive_low, p.years_new_drive_high)


def fmt_used(r: DriveReport, sep: str = "\n") -> str:
    """The indicator, and beside it the fine figure where a finer counter gives one (Intel's never-reset E2h is
    the indicator itself)."""
    used = "-" if r.used_percent is None else percent_text(r.used_percent, r.used_at_least)
    fine = fine_text(r)
    if fine is None or r.fine is None or r.fine.percent is None:
        return used
    return f"{used}{sep}fine {fine}" if sep != "\n" else f"{used}{sep}fine {r.fine.percent:.3f} %"


def fine_text(r: DriveReport) -> str | None:
    """used_fine_percent with its range ('4.400 % (4.400-4.433)'), where it is finer than the indicator."""
    f = r.fine
    if f is None or f.percent is None or f.low is None or f.high is None or f.calibration == "e2h":
        return None
    return f"{f.percent:.3f} % ({f.low:.3f}-{f.high:.3f})"


def fmt_window(w: Window | None) -> str:
    if w is None:
        return "-"
    if not w.valid:
        if w.kind != "timed-workload":
            return WindowState.REFUSED.value  # several readings, or a baseline, that give no rate: the reason says why
        return w.state.value
    parts = [human_minutes(w.minutes)]
    if w.wear_percent is not None:
        parts.append(f"{w.wear_percent:.4g} %")
    if w.host_reads_percent is not None:
        parts.append(f"{w.host_reads_percent:g} % reads")
    return ", ".join(parts)


def fmt_rate(p: Projection | None) -> str:
    if p is None or p.percent_per_year is None:
        return "-"
    return rate_text(p.percent_per_year)


def fmt_written(r: DriveReport) -> str:
    per_day = r.writes.host_bytes_per_day
    return human_bytes(r.writes.host_bytes_written) + (f", +{human_bytes(per_day)}/day" if per_day is not None else "")


def _identity(r: DriveReport) -> str:
    """The drive's label (model [serial], the WWN standing in for a serial), the model kept whole (layout.whole)."""
    return drive_name(DriveId.of(r)) or "?"


def _kind(r: DriveReport) -> str:
    return f"{r.interface}{', ' + r.kind if r.kind != 'unknown' else ''}"


def _window_entry(w: Window) -> str:
    """The window said once, as a block's one `window` line: its figure and why ('2.0 d, 1 %: 3 readings over
    ...'), or the reason alone where it says its state first (a timed window that is not valid: 'not valid:
    E2h-E4h read 65535, ...', 'timer not trustworthy: ...')."""
    shown = fmt_window(w)
    if not w.reason:
        return shown
    return w.reason if w.kind == "timed-workload" and not w.valid else f"{shown}: {w.reason}"


def _drive_lines(r: DriveReport, window: bool = True) -> list[tuple[str, str, str]]:
    """(label, style, text) lines about a drive beyond its figures: how the projection was made, its window's
    reason (unless not `window`: the blocks say it on the window's own line), the notes and the warnings."""
    out: list[tuple[str, str, str]] = []
    p = r.projection
    if p is not None:
        out.append(("projection", "dim", f"{p.method}, {intervalwords(p)}: {p.basis}"))
        if p.duty_measured and p.duty_basis:
            out.append(("calendar", "dim", f"wears out {wears_out_text(p, duty=False)} at {p.duty_basis}"))
    if window and r.window is not None and r.window.reason:
        out.append(("window", "", r.window.reason))
    if (fine := fine_text(r)) is not None and r.fine is not None:
        out.append(("fine wear", "dim", f"{fine} ({r.fine.source}): {r.fine.detail}"))
    out += [("note", "dim", note) for note in r.notes if r.window is None or note != r.window.reason]
    out += [("warning", "yellow", warning) for warning in r.warnings]
    return out


_COLUMNS = (("Drive", "left"), ("Used", "right"), ("Window", "left"), ("%/year", "right"), ("Years left", "right"),
            ("New drive", "right"), ("Written", "right"))


def _cells(r: DriveReport) -> tuple[str, ...]:
    return (f"{_identity(r)}\n{r.where} ({_kind(r)})", fmt_used(r), fmt_window(r.window), fmt_rate(r.projection),
            years_left_cell(r.projection), years_new(r.projection), fmt_written(r).replace(", ", "\n"))


def _table(reports: Sequence[DriveReport], columns: int) -> Table | None:
    """The report's table, or None when it does not fit in `columns` (see _grid)."""
    return grid(_COLUMNS, [_cells(r) for r in reports], columns)


def _blocks(reports: Sequence[DriveReport], columns: int) -> list[Text]:
    """One block per drive, one figure a line, plain text that wraps (never cuts) at any width: for narrow
    terminals and for cron mail."""
    from rich.text import Text

    out: list[Text] = []
    for r in reports:
        p = r.projection
        head = wrap_text(f"{r.where}  {_identity(r)}  ({_kind(r)})", columns, later="  ")
        out += [line_text(line, "bold") for line in head]
        figures = [("used", fmt_used(r, ", ")), ("written", fmt_written(r))]
        if r.window is not None:
            figures.append(("window", _window_entry(r.window)))
        if p is not None:
            figures += [("rate", f"{fmt_rate(p)} %/year"), ("years left", years_left(p)),
                        ("new drive", years_new(p))]
            if (dates := wears_out_text(p)) is not None:
                figures.append(("wears out", dates))
        for label, value in figures:
            out += labelled(label, value, columns)
        for label, style, text in _drive_lines(r, window=False):
            out += labelled(label, text, columns, style)
        out.append(Text(""))
    return out


def report_view(reports: Sequence[DriveReport], columns: int, volumes: Sequence[RaidVolume] = (),
                tables: bool = True, groups: Sequence[Group] | None = None) -> RenderableType:
    """The report for people: the table when it fits in `columns`, else one block per drive; the lines about
    each drive; with `groups` (report --groups) the redundancy groups under them; RAID volumes and the drives that
    could not be read, each in a section of their own."""
    from rich.console import Group
    from rich.text import Text

    readable = [r for r in reports if not r.error]
    failed = [r for r in reports if r.error]
    parts: list[RenderableType] = []
    if readable:
        table = _table(readable, columns) if tables else None
        if table is not None:
            parts.append(table)
            for r in readable:
                who = " ".join(x for x in (r.where, drive_name(DriveId.of(r))) if x)
                for label, style, text in _drive_lines(r):
                    said = f"{who}: {text}" if label == "note" else f"{who}: {label}: {text}"
                    parts += [line_text(line, style) for line in wrap_text(said, columns, later="  ")]
        else:
            parts += _blocks(readable, columns)
        parts += paragraph(key, columns, "dim") if (key := legend(readable, table is not None)) else []
    if groups is not None:
        from .groups import groups_view

        parts += groups_view(groups, columns, tables)
    if volumes:
        parts.append(Text(f"RAID volumes ({len(volumes)}):", style="bold"))
        for v in volumes:
            parts += labelled("", f"{v.device}: {v.note}", columns)
    if failed:
        parts.append(Text(f"Could not be read ({len(failed)}):", style="bold red"))
        parts += [Text(f"  {r.where}: {r.error}", style="red") for r in failed]
    return Group(*parts)


def verdict_text(verdict: Verdict, drive: DriveReport) -> str:
    who = " ".join(x for x in (DriveId.of(drive).label, drive.device) if x)
    lines = [f"{verdict.level.upper()}: {who}"]
    lines += [f"  - {reason}" for reason in verdict.reasons]
    lines += [f"  ok: {fact}" for fact in verdict.facts]
    if drive.projection is not None and (dates := wears_out_text(drive.projection)) is not None:
        lines.append(f"  wears out: {dates}")
    return "\n".join(lines + ([f"  ({key})"] if (key := legend([drive])) else []))
