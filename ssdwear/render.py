"""Reports -> text for people: tables, blocks for narrow terminals and cron mail, charts (JSON and YAML are
serialize.py's)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO, Any, Optional, cast

from ssdwear.model.records import DriveReport, Projection, RaidVolume, Window
from ssdwear.model.units import (
    MAX_PRINTED_YEARS,
    MIN_PRINTED_YEARS,
    fmt_years,
    human_bytes,
    human_minutes,
    percent_text,
    rate_text,
    span_text,
)

from .wrap import GLUE, fit, words, wrap_text


def to_json(doc: dict[str, Any], ascii_only: bool = False) -> str:
    """The document; with `ascii_only` every character beyond ASCII as a \\u escape (the same document)."""
    return json.dumps(doc, indent=2, ensure_ascii=ascii_only) + "\n"


def to_yaml(doc: dict[str, Any], ascii_only: bool = False) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=not ascii_only, width=1000))


# ------------------------------------------------------------------------------------------------
# Text for people


def fmt_range(central: Optional[float], low: Optional[float], high: Optional[float]) -> str:
    """Plan's years: '18.7 (17.5-20.0)'; '≥ 11.7' when no wear was seen (no upper bound); '0.1-1.2' over a range
    rating (no central figure); '-' when unknown."""
    if central is None:
        return "-" if low is None else f"≥ {_short(low)}" if high is None else f"{_short(low)}-{_short(high)}"
    if low is None or high is None:
        return f"{_short(central)} (≥ {_short(low)})" if low is not None else _short(central)
    if _short(low) == _short(high):
        return _short(central)
    return f"{_short(central)} ({_short(low)}-{_short(high)})"


def intervalwords(p: Projection) -> str:
    """What the bracketed range means, in words."""
    if p.interval_level is None:
        return "range: the counter's resolution"
    return f"range: {p.interval_level * 100:g} % prediction interval"


def legend(reports: Sequence[DriveReport]) -> Optional[str]:
    """One line under printed projections: what their ranges are, and that years are power-on years."""
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
    return "; ".join([f"Power-on years; brackets: {', '.join(ranges)}", *marks]) + "."


def years_left(p: Optional[Projection]) -> str:
    if p is None or (p.years_remaining is None and p.years_remaining_low is None):
        return "-"
    return fmt_years(p.years_remaining, p.years_remaining_low, p.years_remaining_high)


def years_new(p: Optional[Projection]) -> str:
    if p is None:
        return "-"
    return fmt_years(p.years_new_drive, p.years_new_drive_low, p.years_new_drive_high)


def _short(years: Optional[float]) -> str:
    if years is None:
        return "-"
    if years >= 1000:
        return f"{years:,.0f}"
    if years >= 100:
        return f"{years:.0f}"
    return f"{years:.1f}"


def fmt_used(r: DriveReport) -> str:
    return "-" if r.used_percent is None else percent_text(r.used_percent, r.used_at_least)


def fmt_window(w: Optional[Window]) -> str:
    if w is None:
        return "-"
    if not w.valid:
        if w.kind != "timed-workload":
            return "not usable"  # several readings that give no rate: the reason says why
        if not w.pending:
            return "not trustworthy"
        lead = (w.reason or "").split(":", 1)[0]
        return lead if lead.startswith("not valid") else "not valid yet"
    parts = [human_minutes(w.minutes)]
    if w.wear_percent is not None:
        parts.append(f"{w.wear_percent:.4g} %")
    if w.host_reads_percent is not None:
        parts.append(f"{w.host_reads_percent:g} % reads")
    return ", ".join(parts)


def fmt_rate(p: Optional[Projection]) -> str:
    if p is None or p.percent_per_year is None:
        return "-"
    return rate_text(p.percent_per_year)


def fmt_written(r: DriveReport) -> str:
    per_day = r.writes.host_bytes_per_day
    return human_bytes(r.writes.host_bytes_written) + (f", +{human_bytes(per_day)}/day" if per_day is not None else "")


# ------------------------------------------------------------------------------------------------
# The report: a table where it fits, else one block per drive; never a truncated identity or figure.


def width() -> int:
    """The terminal's width; without a terminal (cron mail, a pipe) COLUMNS, else 80."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    try:
        return max(40, int(os.environ.get("COLUMNS") or 80))
    except ValueError:
        return 80


def tables_wanted() -> bool:
    """Box-drawn tables for a terminal (or when COLUMNS says how wide); plain blocks for cron mail and pipes,
    which mail clients show in proportional fonts."""
    return sys.stdout.isatty() or bool(os.environ.get("COLUMNS"))


def console(stderr: bool = False) -> Any:
    """A rich console that prints drive strings literally: no markup ('[/]' in a serial), no emoji codes; through
    streams.Stream, so that a stream that cannot encode a character gets its ASCII spelling (and ASCII boxes)."""
    from rich.console import Console

    from .streams import Stream

    return Console(file=cast("IO[str]", Stream(err=stderr)), width=None if sys.stdout.isatty() else width(),
                   soft_wrap=False, highlight=False, markup=False, emoji=False)


def _identity(r: DriveReport) -> str:
    """Model and [serial]; a model of up to 30 characters kept on one line (longer ones wrap like words)."""
    model = r.model.replace(" ", GLUE) if r.model and len(r.model) <= 30 else r.model
    return " ".join(x for x in (model, r.serial and f"[{r.serial}]") if x) or "?"


def _kind(r: DriveReport) -> str:
    return f"{r.interface}{', ' + r.kind if r.kind != 'unknown' else ''}"


def _drive_lines(r: DriveReport) -> list[tuple[str, str, str]]:
    """(label, style, text) lines about a drive beyond its figures: how the projection was made, its window,
    the notes and the warnings."""
    out: list[tuple[str, str, str]] = []
    p = r.projection
    if p is not None:
        out.append(("projection", "dim", f"{p.method}, {intervalwords(p)}: {p.basis}"))
    if r.window is not None and r.window.reason:
        out.append(("window", "", r.window.reason))
    out += [("note", "dim", note) for note in r.notes if r.window is None or note != r.window.reason]
    out += [("warning", "yellow", warning) for warning in r.warnings]
    return out


_COLUMNS = (("Drive", "left"), ("Used", "right"), ("Window", "left"), ("%/year", "right"), ("Years left", "right"),
            ("New drive", "right"), ("Written", "right"))


def _cells(r: DriveReport) -> tuple[str, ...]:
    return (f"{_identity(r)}\n{r.where} ({_kind(r)})", fmt_used(r), fmt_window(r.window), fmt_rate(r.projection),
            years_left(r.projection), years_new(r.projection), fmt_written(r).replace(", ", "\n"))


def _table(reports: Sequence[DriveReport], columns: int) -> Optional[Any]:
    """The report's table, or None when it does not fit in `columns` (see _grid)."""
    return _grid(_COLUMNS, [_cells(r) for r in reports], columns)


def _grid(header: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]], columns: int) -> Optional[Any]:
    """A table laid out here so that no word is ever cut: every column at least as wide as its longest word
    (a serial, a device name, a figure), the widest columns narrowed first, each cell wrapped between words.
    None when even that does not fit in `columns`."""
    from rich.table import Table
    from rich.text import Text

    header = [(fit(name), justify) for name, justify in header]
    rows = [[fit(cell) for cell in row] for row in rows]
    least = [max([len(word) for word in words(name)] + [len(word) for row in rows for word in words(row[i])])
             for i, (name, _) in enumerate(header)]
    widths = [max([len(name)] + [len(line) for row in rows for line in row[i].split("\n")])
              for i, (name, _) in enumerate(header)]
    room = columns - (3 * len(header) + 1)  # borders and padding
    while sum(widths) > room:
        slack, i = max((w - m, i) for i, (w, m) in enumerate(zip(widths, least, strict=True)))
        if slack <= 0:
            return None
        widths[i] -= 1

    def wrap(text: str, width: int) -> str:
        return "\n".join("\n".join(wrap_text(line, width)) or line for line in text.split("\n"))

    t = Table(show_lines=False, expand=False)
    for (name, justify), width in zip(header, widths, strict=True):
        t.add_column(wrap(name, width), justify=justify, width=width, no_wrap=True)  # type: ignore[arg-type]
    for row in rows:
        t.add_row(*(Text(wrap(cell, width)) for cell, width in zip(row, widths, strict=True)))
    return t


def _wrapped(label: str, text: str, columns: int, style: str = "") -> list[Any]:
    """`label` then `text`, wrapped at word boundaries with a hanging indent: nothing is ever cut."""
    from rich.text import Text

    lead = f"  {label:<11} " if label else "  "
    lines = wrap_text(text, max(columns, len(lead) + 20), lead, " " * len(lead))
    return [Text(line, style=style) for line in lines or [lead]]


def _blocks(reports: Sequence[DriveReport], columns: int) -> list[Any]:
    """One block per drive, one figure a line, plain text that wraps (never cuts) at any width: for narrow
    terminals and for cron mail."""
    from rich.text import Text

    out: list[Any] = []
    for r in reports:
        p = r.projection
        head = wrap_text(f"{r.where}  {_identity(r)}  ({_kind(r)})", columns, later="  ")
        out += [Text(line, style="bold") for line in head]
        figures = [("used", fmt_used(r)), ("written", fmt_written(r))]
        if r.window is not None:
            figures.append(("window", fmt_window(r.window)))
        if p is not None:
            figures += [("rate", f"{fmt_rate(p)} %/year"), ("years left", years_left(p)),
                        ("new drive", years_new(p))]
        for label, value in figures:
            out += _wrapped(label, value, columns)
        for label, style, text in _drive_lines(r):
            out += _wrapped(label, text, columns, style)
        out.append(Text(""))
    return out


def report_view(reports: Sequence[DriveReport], columns: int, volumes: Sequence[RaidVolume] = (),
                tables: bool = True) -> Any:
    """The report for people: the table when it fits in `columns`, else one block per drive; the lines about
    each drive; RAID volumes and the drives that could not be read, each in a section of their own."""
    from rich.console import Group
    from rich.text import Text

    readable = [r for r in reports if not r.error]
    failed = [r for r in reports if r.error]
    parts: list[Any] = []
    if readable:
        table = _table(readable, columns) if tables else None
        if table is not None:
            parts.append(table)
            for r in readable:
                who = f"{r.where} {r.serial or ''}".strip()
                for label, style, text in _drive_lines(r):
                    said = f"{who}: {text}" if label == "note" else f"{who}: {label}: {text}"
                    parts += [Text(line, style=style) for line in wrap_text(said, columns, later="  ")]
        else:
            parts += _blocks(readable, columns)
        parts += _lines(key, columns, "dim") if (key := legend(readable)) else []  # what the figures are
    if volumes:
        parts.append(Text(f"RAID volumes ({len(volumes)}):", style="bold"))
        for v in volumes:
            parts += _wrapped("", f"{v.device}: {v.note}", columns)
    if failed:
        parts.append(Text(f"Could not be read ({len(failed)}):", style="bold red"))
        parts += [Text(f"  {r.where}: {r.error}", style="red") for r in failed]
    return Group(*parts)


def scan_view(found: Sequence[tuple[str, Optional[str]]], columns: int) -> Any:
    """The drives smartctl can open, with their -d types: a table on a terminal, aligned columns elsewhere."""
    rows = [(name, dtype or "-") for name, dtype in found]
    table = _grid((("Device", "left"), ("Type", "left")), rows, columns) if tables_wanted() and rows else None
    wide = max([len("Device"), *(len(name) for name, _ in rows)])
    return table or "\n".join(f"{name:<{wide}}  {dtype}" for name, dtype in [("Device", "Type"), *rows])


def start_view(results: Sequence[Any], columns: int) -> Any:
    """What start did to each drive, one block each (drive strings printed literally)."""
    from rich.console import Group
    from rich.text import Text

    parts: list[Any] = []
    for r in results:
        who = " ".join(x for x in (r.model, r.serial and f"[{r.serial}]") if x)
        style = {"reset": "green", "refused": "yellow", "skipped": "dim"}.get(r.status, "red")
        parts.append(Text(f"{r.where}  {who}  {r.status.upper()}", style=style))
        parts += _wrapped("", r.message, columns)
    return Group(*parts)


def status_view(rows: Sequence[Any], columns: int) -> Any:
    from rich.console import Group
    from rich.text import Text

    parts: list[Any] = []
    for row in rows:
        who = " ".join(x for x in (row.model, row.serial and f"[{row.serial}]") if x)
        if row.error:
            parts.append(Text(f"{row.where}  could not be read", style="red"))
            parts += _wrapped("", row.error, columns, "red")
            continue
        window = "-" if not row.timed else "65535" if not row.counting else human_minutes(row.e4h_minutes)
        since = human_minutes(row.since_reset_minutes) if row.since_reset_minutes is not None else "-"
        unknown = row.valid is False and not row.counting and row.reset_at is None  # no reset known: no telling when
        valid = "-" if row.valid is None else "valid" if row.valid else \
            ("not valid" if unknown else "not valid yet") if row.pending else "not valid"
        parts.append(Text(f"{row.where}  {who}"))
        parts += _wrapped("E4h window", f"{window}, {valid}", columns)
        parts += _wrapped("our reset", since if row.reset_at is None else
                          f"{row.reset_at:%Y-%m-%d %H:%M %Z}, {since} ago", columns)
        if row.reason:
            parts += _wrapped("note", row.reason, columns, "dim")
    return Group(*parts)


def verdict_text(verdict: Any, drive: DriveReport) -> str:
    who = " ".join(x for x in (drive.model, drive.serial and f"[{drive.serial}]", drive.device) if x)
    lines = [f"{verdict.level.upper()}: {who}"]
    lines += [f"  - {reason}" for reason in verdict.reasons]
    lines += [f"  ok: {fact}" for fact in verdict.facts]
    return "\n".join(lines + ([f"  ({key})"] if (key := legend([drive])) else []))


class _Progress:
    """measure's progress bar on stderr (a terminal's): minutes waited of the total, time left, each timer."""

    def __init__(self, enabled: bool) -> None:
        from rich.progress import BarColumn, Progress, TextColumn

        self.bar = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                            TextColumn("{task.fields[state]}", markup=False), console=console(stderr=True),
                            disable=not enabled, transient=False)
        self.tasks: dict[str, Any] = {}

    def show(self, poll: Any, duration: float) -> None:
        from ssdwear.run.measure import wait_text

        for device, state in poll.states:
            if device not in self.tasks:
                self.tasks[device] = self.bar.add_task(device, total=duration, state="")
            self.bar.update(self.tasks[device], completed=min(poll.elapsed_minutes, duration),
                            state=f"{wait_text(poll, duration)}; {state}")


@contextmanager
def progress(enabled: bool) -> Iterator[_Progress]:
    shown = _Progress(enabled)
    with shown.bar:
        yield shown


# ------------------------------------------------------------------------------------------------
# History series


def _csv(fields: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def samples_csv(series: Sequence[Any]) -> str:
    from .serialize import SAMPLE_FIELDS, sample_row

    return _csv(SAMPLE_FIELDS, [sample_row(s) for s in series])


DRIVE_LIST_FIELDS = ("serial", "model", "wwn", "interface", "last_device", "samples", "first_sample", "last_sample",
                     "span_days")


def drive_list_doc(drives: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The drives a history holds (Store.drive_list), as the `history` document lists them."""
    def when(t: Any) -> Optional[str]:
        return None if t is None else t.isoformat(timespec="seconds")

    return [dict(serial=d["serial"], model=d["model"], wwn=d["wwn"], interface=d["interface"],
                 last_device=d["device"], samples=d["samples"], first_sample=when(d["first"]),
                 last_sample=when(d["last"]), span_days=None if d["first"] is None else
                 round((d["last"] - d["first"]).total_seconds() / 86400, 2)) for d in drives]


def drive_list_csv(drives: Sequence[dict[str, Any]]) -> str:
    return _csv(DRIVE_LIST_FIELDS, drive_list_doc(drives))


def drive_list_view(drives: Sequence[dict[str, Any]], columns: int) -> Any:
    """`ssdwear history` without a drive: one line (a table row where it fits) per drive held."""
    from rich.console import Group
    from rich.text import Text

    def when(t: Any) -> str:
        return "-" if t is None else f"{t:%Y-%m-%d %H:%M}"

    header = (("Serial", "left"), ("Model", "left"), ("Last device", "left"), ("Samples", "right"),
              ("First (UTC)", "left"), ("Last (UTC)", "left"), ("Span", "right"))
    rows = [(d["serial"] or f"wwn {d['wwn']}", d["model"] or "?", d["device"] or "-", f"{d['samples']:,}",
             when(d["first"]), when(d["last"]),
             human_minutes(None if d["first"] is None else (d["last"] - d["first"]).total_seconds() / 60))
            for d in drives]
    table = _grid(header, rows, columns) if tables_wanted() else None
    if table is not None:
        return table
    parts: list[Any] = []
    for row in rows:
        parts.append(Text(f"{row[0]}  {row[1]}", style="bold"))
        for (label, _), value in zip(header[2:], row[2:], strict=True):
            parts += _wrapped(label.lower(), value, columns)
    return Group(*parts)


def sparkline_chart(title: str, points: Sequence[tuple[float, float]], width: int = 60, height: int = 8,
                    fmt: str = "{:.4g}") -> list[str]:
    """A plain-text chart: time on x (oldest left), value on y, one column per time bucket.

    Every sample is drawn, the lowest as one row; a flat series is one row across; labels give the range.
    """
    if not points:
        return [f"{title}: no data"]
    t0, t1 = points[0][0], points[-1][0]
    columns: list[Optional[float]] = [None] * width
    for t, v in points:
        i = 0 if t1 == t0 else min(width - 1, int((t - t0) / (t1 - t0) * (width - 1)))
        columns[i] = v
    values = [v for v in columns if v is not None]
    lo, hi = min(values), max(values)
    span = hi - lo

    def bar(v: float) -> int:  # rows drawn for a value: 1 for the lowest, `height` for the highest
        return 1 if span == 0 else 1 + round((v - lo) / span * (height - 1))

    heights = [None if v is None else bar(v) for v in columns]
    rows = []
    for level in range(height, 0, -1):
        cells = "".join(" " if h is None else ("█" if h >= level else " ") for h in heights)
        label = fmt.format(hi) if level == height else fmt.format(lo) if level == 1 else ""
        rows.append(f"{label:>10} │{cells}")
    rows.append(f"{'':>10} └{'─' * width}")
    return [title, *rows]


def time_axis(points: Sequence[tuple[float, float]], width: int = 60) -> list[str]:
    """The line under a sparkline chart of (unix time, value) points: the time of its first column at the left,
    of its last at the right and of the middle one between, where they fit (UTC)."""
    from datetime import datetime, timezone

    if not points:
        return []
    t0, t1 = points[0][0], points[-1][0]
    cells = [" "] * width

    def put(column: int, t: float, align: str) -> None:
        text = f"{datetime.fromtimestamp(t, tz=timezone.utc):%Y-%m-%d %H:%M}"
        start = column if align == "<" else column - len(text) + 1 if align == ">" else column - len(text) // 2
        start = max(0, min(width - len(text), start))
        cells[start:start + len(text)] = text

    put(0, t0, "<")
    if t1 > t0 and width >= 34:
        put(width - 1, t1, ">")
        if width >= 52:
            put((width - 1) // 2, t0 + (t1 - t0) / 2, "^")
    return [f"{'UTC':>10}  {''.join(cells).rstrip()}"]


def history_chart(drive: dict[str, Any], series: Sequence[Any]) -> str:
    if not series:
        return f"{drive['model']} [{drive['serial']}]: no samples in this period"
    first, last = series[0].at, series[-1].at
    stamp = [(s.at.timestamp(), s) for s in series]
    lines = [f"{drive['model']} [{drive['serial'] or drive['wwn']}]: {len(series)} "
             f"sample{'s' if len(series) != 1 else ''} from "
             f"{first:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M} UTC", ""]
    used = [(t, float(s.used_percent)) for t, s in stamp if s.used_percent is not None]
    lines += sparkline_chart("Wear used (% of rated endurance)", used, fmt="{:.3g} %") + time_axis(used)
    lines.append("")
    written = [(t, s.host_bytes_written / 1e12) for t, s in stamp if s.host_bytes_written is not None]
    lines += sparkline_chart("Host writes (TB)", written, fmt="{:.4g} TB") + time_axis(written)
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# plan: which drive lasts how long under this workload


_FIT_WORDS = {"meets": "yes", "uncertain": "maybe", "fails": "no", "unknown": "?"}


def _margin(c: Any, target: float) -> str:
    if c.years_low is None:
        return "-"
    return f"{c.years_low - target:+.1f}"


def _span(low: float, high: float) -> str:
    """'137-156 GB', '900 GB-1.2 TB'."""
    return span_text(human_bytes(low), human_bytes(high))


def _lines(text: str, columns: int, style: str = "") -> list[Any]:
    """A paragraph wrapped between words at `columns`, later lines indented by two."""
    from rich.text import Text

    return [Text(line, style=style) for line in wrap_text(text, max(columns, 40), later="  ")]


def plan_view(result: Any, columns: int) -> Any:
    """The plan for people: the workload and what it rests on, the candidates (a table where it fits, else one
    block each), then the notes, each said once with the candidates it concerns."""
    from rich.console import Group
    from rich.text import Text

    w, target = result.workload, result.target_years
    currency = "rated writes" if w.kind == "rated-writes" else "host writes"
    spread = "" if w.low is None or w.high is None else f" ({_span(w.low, w.high)})"
    what = {"exact": "exact, as given", "resolution": "range: the counter's resolution",
            "calibrated": f"range: {(w.interval_level or 0) * 100:g} % prediction interval", "none": "no interval"}
    parts: list[Any] = []
    parts += _lines(f"Workload: {human_bytes(w.bytes_per_day)} a day of {currency}{spread}; "
                          f"{what[w.interval]}", columns, "bold")
    parts += _lines(w.basis, columns)
    if w.kind == "rated-writes":
        parts += _lines("Rated writes are bytes of the rating's own workload that wear a drive as fast: they "
                              "compare directly with ratings on that workload, only roughly with ratings on others "
                              "(client or JEDEC enterprise workloads).", columns, "dim")
    else:
        parts += _lines("Host writes are compared with each rating's bytes written; how hard a workload "
                              "wears a drive per byte (its write amplification) differs from the rating's own "
                              "workload.", columns, "dim")
    parts += _lines(f"Target: {target:g} years; years are judged on the pessimistic bound.", columns)
    header = (("Candidate", "left"), ("Rated", "right"), ("Years", "right"), (f"Meets {target:g} y", "left"),
              ("Margin", "right"), ("Warranty", "right"))
    rows = [(c.name, c.rating_text, fmt_range(c.years, c.years_low, c.years_high), _FIT_WORDS[c.fit],
             _margin(c, target), f"{c.rating.warranty_years:g} y" if c.rating and c.rating.warranty_years else "-")
            for c in result.candidates]
    table = _grid(header, rows, columns) if tables_wanted() else None
    if table is not None:
        parts.append(table)
    else:
        for row in rows:
            parts.append(Text(row[0], style="bold"))
            for (label, _), value in zip(header[1:], row[1:], strict=True):
                parts += _wrapped(label.lower(), value, columns)
    parts += _lines(f"Years: the range in brackets is the workload's; Margin: the pessimistic bound minus "
                          f"{target:g} years.", columns, "dim")
    by_note: dict[str, list[str]] = {}
    for c in result.candidates:
        for note in c.notes:
            by_note.setdefault(note, []).append(c.name)
    for note in result.notes:
        parts += _lines(note, columns)
    for note, names in by_note.items():
        who = ", ".join(names) if len(names) <= 3 else f"{len(names)} candidates ({', '.join(names[:2])}, ...)"
        parts += _lines(f"{who}: {note}", columns, "dim")
    return Group(*parts)
