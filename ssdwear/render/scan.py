"""`scan` for people: the drives smartctl can open, with their -d types."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .layout import grid, tables_wanted

if TYPE_CHECKING:
    from rich.console import RenderableType


def scan_view(found: Sequence[tuple[str, str | None]], columns: int) -> RenderableType:
    """The drives smartctl can open, with their -d types: a table on a terminal, aligned columns elsewhere."""
    rows = [(name, dtype or "-") for name, dtype in found]
    table = grid((("Device", "left"), ("Type", "left")), rows, columns) if tables_wanted() and rows else None
    wide = max([len("Device"), *(len(name) for name, _ in rows)])
    return table or "\n".join(f"{name:<{wide}}  {dtype}" for name, dtype in [("Device", "Type"), *rows])
