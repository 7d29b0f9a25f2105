"""The corpus figures table, tests/cli/corpus_figures.tsv: what `ssdwear analyze --format json --each` reports for
every real output in fixtures/corpus (the wear figure, its source, the finer figure, the write counters, the window
and the projection's method), one row per file.

The committed table was written from main before issue 27 moved the drive knowledge into one table of families
(commit 5467b6d); tests/cli/test_corpus_figures.py holds every later tree to it, cell by cell, except the changes it
lists, each with the value before, the value after and why. `python3 -m tools.corpus_figures` prints the table for
the tree it runs in (`> tests/cli/corpus_figures.tsv` would rewrite it: only for a change the test lists).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from ssdwear.cli.main import cli

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "fixtures" / "corpus"
TABLE = ROOT / "tests" / "cli" / "corpus_figures.tsv"
COLUMNS = ("file", "used_percent", "used_at_least", "used_source", "used_fine_percent", "fine_source",
           "write_amplification", "host_bytes_written", "nand_bytes_written", "counter", "window", "projection")


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _row(name: str, d: dict[str, Any] | None) -> dict[str, str]:
    if d is None:
        return {"file": name, **{c: "-" for c in COLUMNS[1:]}}
    fine, writes, window, projection = d.get("used_fine"), d["writes"], d["window"], d["projection"]
    return {
        "file": name, "used_percent": _cell(d["used_percent"]), "used_at_least": _cell(d["used_at_least"]),
        "used_source": _cell(d["used_source"]), "used_fine_percent": _cell(d["used_fine_percent"]),
        "fine_source": _cell(fine["source"] if fine else None),
        "write_amplification": _cell(writes["write_amplification"]),
        "host_bytes_written": _cell(writes["host_bytes_written"]),
        "nand_bytes_written": _cell(writes["nand_bytes_written"]),
        "counter": _cell(d["counters"][0]["source"] if d["counters"] else None),
        "window": _cell(f"{window['kind']}:{'valid' if window['valid'] else 'not valid'}" if window else None),
        "projection": _cell(projection["method"] if projection else None),
    }


def figures() -> list[dict[str, str]]:
    """One row per corpus file, in file-name order, as the tree this runs in reports it."""
    files = sorted(p for p in CORPUS.iterdir() if p.suffix in (".txt", ".json"))
    result = CliRunner().invoke(cli, ["analyze", "--format", "json", "--each", *map(str, files)])
    drives = {Path(d["source"]).name: d for d in json.loads(result.stdout)["drives"]}
    return [_row(p.name, drives.get(p.name)) for p in files]


def table_text(rows: list[dict[str, str]]) -> str:
    return "".join("\t".join(line) + "\n" for line in [COLUMNS, *([r[c] for c in COLUMNS] for r in rows)])


def read_table(text: str) -> list[dict[str, str]]:
    header, *lines = (line.split("\t") for line in text.splitlines())
    return [dict(zip(header, line, strict=True)) for line in lines]


if __name__ == "__main__":
    sys.stdout.write(table_text(figures()))
