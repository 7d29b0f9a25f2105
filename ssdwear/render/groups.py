"""The redundancy groups for people (`report --groups`): one row per group under the drives' table (one block per
group where tables are not wanted), then each group's lockstep conditions and notes."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from ssdwear.model.groups import Group, GroupMember
from ssdwear.model.records import DriveId
from ssdwear.model.units import month_text

from .layout import drive_name, grid, labelled, line_text, paragraph, wrap_text

if TYPE_CHECKING:
    from rich.console import RenderableType

_COLUMNS = (("Group", "left"), ("Level", "left"), ("Tolerates", "right"), ("Members", "left"),
            ("Redundancy lost", "right"), ("Lockstep", "left"))
LEGEND = ("Redundancy lost: the month more of its members have worn out than it tolerates, unless some are "
          "replaced (pessimistic in brackets).")


def month(at: datetime | None) -> str | None:
    return None if at is None else month_text(at)


def lost_text(g: Group) -> str:
    """'2031-04 (2029-11)', '≥ 2029-11' (no central date: no end in sight), or '-'."""
    central, low = month(g.redundancy_lost_at), month(g.redundancy_lost_low_at)
    if low is None:
        return central or "-"
    if central is None:
        return f"≥ {low}"
    return central if central == low else f"{central} ({low})"


def who(m: GroupMember) -> str:
    """A member for people: its drive's label (model [serial], the WWN standing in) and device, else its own name;
    '(failed)' where it is."""
    r = m.report
    said = f"{drive_name(DriveId.of(r)) or '?'} {r.where}" if r is not None else m.member
    return said if m.working else f"{said} ({m.state or 'not working'})"


def tolerates_text(g: Group) -> str:
    shown = "?" if g.tolerates is None else str(g.tolerates)
    return f"{shown}, {g.missing} missing" if g.missing else shown


def _title(g: Group) -> str:
    return f"{g.name} ({g.kind}{'' if g.role == 'data' else ', ' + g.role})"


def _lines(g: Group) -> list[tuple[str, str]]:
    out = [("lockstep", "; ".join(g.lockstep_reasons))] if g.lockstep_reasons else []
    return out + [("note", note) for note in g.notes]


def groups_view(groups: Sequence[Group], columns: int, tables: bool = True) -> list[RenderableType]:
    """The groups' rows (or blocks) and lines; [] when there are none."""
    from rich.text import Text

    if not groups:
        return [Text("Redundancy groups: none found (ZFS, md, LVM raid, btrfs).")]
    rows = [(_title(g), g.level, tolerates_text(g), "\n".join(who(m) for m in g.members), lost_text(g),
             "yes" if g.lockstep else "no") for g in groups]
    table = grid(_COLUMNS, rows, columns) if tables else None
    parts: list[RenderableType] = []
    if table is not None:
        parts.append(table)
        for g in groups:
            for label, text in _lines(g):
                parts += [line_text(line, "dim") for line in wrap_text(f"{g.name}: {label}: {text}", columns,
                                                                       later="  ")]
    else:
        for g, row in zip(groups, rows, strict=True):
            parts += [line_text(line, "bold") for line in wrap_text(f"{row[0]}  {g.level}", columns, later="  ")]
            holds = f"{row[5]}: {'; '.join(g.lockstep_reasons)}" if g.lockstep_reasons else row[5]
            figures = [("tolerates", row[2]), ("members", ", ".join(who(m) for m in g.members)),
                       ("lost", row[4]), ("lockstep", holds), *(("note", note) for note in g.notes)]
            for label, text in figures:
                parts += labelled(label, text, columns)
            parts.append(Text(""))
    return parts + paragraph(LEGEND, columns, "dim")
