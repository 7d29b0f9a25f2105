"""`history` for people: the drives a history holds, and one drive's samples as plain-text charts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ssdwear.model.counts import count_text
from ssdwear.model.units import human_minutes, time_text

from .layout import drive_name, grid, labelled, line_text, tables_wanted, whole, wrap_text

if TYPE_CHECKING:
    from rich.console import RenderableType

    from ssdwear.model.records import Sample, StoredDrive


def drive_list_view(drives: Sequence[StoredDrive], columns: int) -> RenderableType:
    """`ssdwear history` without a drive: one line (a table row where it fits) per drive held."""
    from rich.console import Group
    from rich.text import Text

    def when(t: datetime | None) -> str:
        return "-" if t is None else time_text(t, zone=False)

    header = (("Serial", "left"), ("Model", "left"), ("Last device", "left"), ("Samples", "right"),
              ("First (UTC)", "left"), ("Last (UTC)", "left"), ("Span", "right"))
    rows = [(d.drive.serial or f"wwn {d.drive.wwn}", whole(d.drive.model or "?"), d.device or "-", f"{d.samples:,}",
             when(d.first), when(d.last),
             human_minutes(None if d.first is None or d.last is None else (d.last - d.first).total_seconds() / 60))
            for d in drives]
    table = grid(header, rows, columns) if tables_wanted() else None
    if table is not None:
        return table
    parts: list[RenderableType] = []
    for row in rows:
        parts.append(Text(f"{row[0]}  {row[1]}", style="bold"))
        for (label, _), value in zip(header[2:], row[2:], strict=True):
            parts += labelled(label.lower(), value, columns)
    return Group(*parts)


def sparkline_chart(title: str, points: Sequence[tuple[float, float]], width: int = 60, height: int = 8,
                    fmt: str = "{:.4g}") -> list[str]:
    """A plain-text chart: time on x (oldest left), value on y, one column per time bucket.

    Every sample is drawn, the lowest as one row; a flat series is one row across, labelled once; labels give the
    range.
    """
    if not points:
        return [f"{title}: no data"]
    t0, t1 = points[0][0], points[-1][0]
    columns: list[float | None] = [None] * width
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
        label = fmt.format(hi) if level == height and span else fmt.format(lo) if level == 1 else ""
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
        text = time_text(datetime.fromtimestamp(t, tz=timezone.utc), zone=False)
        start = column if align == "<" else column - len(text) + 1 if align == ">" else column - len(text) // 2
        start = max(0, min(width - len(text), start))
        cells[start:start + len(text)] = text

    put(0, t0, "<")
    if t1 > t0 and width >= 34:
        put(width - 1, t1, ">")
        if width >= 52:
            put((width - 1) // 2, t0 + (t1 - t0) / 2, "^")
    return [f"{'UTC':>10}  {''.join(cells).rstrip()}"]


# The chart's columns: at most this many time buckets, fewer on a narrow terminal, never fewer than the least.
CHART_WIDTH, CHART_LEAST = 60, 20
_LEAD = 12  # the value labels and the axis ('    50.2 TB │') left of the chart


def history_chart(stored: StoredDrive, series: Sequence[Sample], columns: int = 80) -> str:
    """One drive's samples for people: a title (the drive named whole, the count) and two charts as wide as
    `columns` allows (CHART_WIDTH at most, so no line of them is wrapped on a narrow terminal)."""
    name = drive_name(stored.drive) or stored.key
    if not series:
        return "\n".join(wrap_text(f"{name}: no samples in this period", columns, later="  "))
    first, last = series[0].at, series[-1].at
    title = f"{name}: {count_text(len(series), 'sample')} from {time_text(first, zone=False)} to {time_text(last)}"
    width = max(CHART_LEAST, min(CHART_WIDTH, columns - _LEAD))
    stamp = [(s.at.timestamp(), s) for s in series]
    lines = [*wrap_text(title, columns, later="  "), ""]
    used = [(t, float(s.used_percent)) for t, s in stamp if s.used_percent is not None]
    lines += sparkline_chart("Wear used (% of rated endurance)", used, width, fmt="{:.3g} %") + time_axis(used, width)
    lines.append("")
    written = [(t, s.host_bytes_written / 1e12) for t, s in stamp if s.host_bytes_written is not None]
    lines += sparkline_chart("Host writes (TB)", written, width, fmt="{:.4g} TB") + time_axis(written, width)
    return "\n".join(lines)


def history_view(stored: StoredDrive, series: Sequence[Sample], columns: int) -> RenderableType:
    """history_chart as rich prints it: each line as laid out here, never wrapped again."""
    from rich.console import Group

    return Group(*(line_text(line) for line in history_chart(stored, series, columns).split("\n")))
