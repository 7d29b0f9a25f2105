"""The recorded corpus of real smartctl outputs and its hand-read MANIFEST.md, as the corpus tests read them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .paths import CORPUS

if TYPE_CHECKING:
    from ssdwear.model.records import Snapshot

OUTPUT_SUFFIXES = (".txt", ".json")
FILES = sorted(p for p in CORPUS.iterdir() if p.is_file() and p.suffix in OUTPUT_SUFFIXES)


@dataclass(frozen=True)
class Row:
    table: str  # heading the table sits under, e.g. 'A. Intel SATA SSDs (...)'
    cells: dict[str, str]  # column header -> cell, exactly as printed (backticks removed)

    @property
    def file(self) -> str:
        return self.cells["file"]


def _cells(line: str) -> list[str]:
    return [c.strip().strip("`").strip() for c in line.strip().strip("|").split("|")]


def manifest_rows(text: str) -> list[Row]:
    rows: list[Row] = []
    heading = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        is_table = line.startswith("|") and i + 1 < len(lines) and re.fullmatch(r"\|[-| :]+\|", lines[i + 1].strip())
        if is_table:
            header = ["file" if c.startswith("file (") else c for c in _cells(line)]  # "file (oldest first)"
            i += 2
            while i < len(lines) and lines[i].startswith("|"):
                cells = _cells(lines[i])
                assert len(cells) == len(header), (
                    f"MANIFEST row has {len(cells)} cells, header {len(header)}: {lines[i]}"
                )
                if "file" in header:
                    rows.append(Row(heading, dict(zip(header, cells, strict=False))))
                i += 1
            continue
        i += 1
    return rows




def snapshot(name: str) -> Snapshot:
    """A corpus file (by name), parsed."""
    from ssdwear.smartctl.parse import parse_output

    return parse_output((CORPUS / name).read_bytes(), source=name)
