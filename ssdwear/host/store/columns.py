"""The samples table's one field table: each field of a stored sample (model.records.Sample, in its order) and the
column that holds it, with what the column holds. Every statement that writes or reads samples, and the `history`
document's fields (render/documents.py), are made from it; nothing spells a sample by position."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal, NamedTuple

from ssdwear.model.records import Sample

Kind = Literal["time", "number", "source"]


class Column(NamedTuple):
    field: str  # Sample's attribute
    column: str  # the samples table's column (migrations.py)
    kind: Kind  # 'time': ms since the epoch (UTC); 'number': a count or percent, read only where it is a finite
    # number; 'source': the id of a name in the sources table


SAMPLE_COLUMNS: tuple[Column, ...] = (
    Column("at", "t", "time"),
    Column("power_on_hours", "poh", "number"),
    Column("used_percent", "used", "number"),
    Column("used_source", "used_src", "source"),
    Column("host_bytes_written", "host_w", "number"),
    Column("host_bytes_read", "host_r", "number"),
    Column("nand_bytes_written", "nand_w", "number"),
    Column("e2h", "e2", "number"),
    Column("e3h", "e3", "number"),
    Column("e4h", "e4", "number"),
    Column("available_spare", "spare", "number"),
    Column("media_errors", "media_err", "number"),
    Column("counter_source", "fine_src", "source"),
    Column("counter", "fine", "number"),
    Column("counter_rated", "fine_rated", "number"),
)
NUMBERS = tuple(c for c in SAMPLE_COLUMNS if c.kind == "number")


def ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def from_ms(value: int) -> datetime:
    return datetime.fromtimestamp(value / 1000, tz=timezone.utc)


def column_list(prefix: str = "") -> str:
    """The samples table's sample columns, in the table's order: 't, poh, used, used_src, ...'."""
    return ", ".join(f"{prefix}{c.column}" for c in SAMPLE_COLUMNS)


def select_list() -> tuple[str, str]:
    """What reads a sample from `samples s`: the select list (a source as its name) and the joins it needs."""
    names, joins = [], []
    for c in SAMPLE_COLUMNS:
        if c.kind == "source":
            joins.append(f"LEFT JOIN sources {c.column}_n ON {c.column}_n.id = s.{c.column}")
            names.append(f"{c.column}_n.name")
        else:
            names.append(f"s.{c.column}")
    return ", ".join(names), " ".join(joins)


def sample_of_row(row: tuple[Any, ...]) -> Sample:
    """A row read by select_list as the sample it holds."""
    values: dict[str, Any] = {c.field: from_ms(v) if c.kind == "time" else v
                              for c, v in zip(SAMPLE_COLUMNS, row, strict=True)}
    return Sample(**values)
