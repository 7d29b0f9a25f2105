"""How text is laid out for people: wrapped between words, never inside a figure (a number and its unit, a short
bracket ('(ata, ssd)', '(1/1024 %)'), a figure and its range ('18.7 (17.5-20.0)'), 'E2h = 15' and a model name stay
on one line; a word longer than the width overflows its line rather than being cut), measured on what stdout can
print (streams.fit); the width of the terminal or of cron mail; the rich console; tables whose columns never cut a
word. The views (report.py, plan.py, ...) build on these."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, cast

from ssdwear.model.records import DriveId

from .streams import fit as fit_stream

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

GLUE = "\u00a0"  # a space no line may break at (textwrap breaks only at ASCII whitespace)
_UNITS = r"(?:%|min|minutes?|h|hours?|d|days?|y|years?|[kMGTP]i?B|B)(?![\w])"


def keep_together(text: str) -> str:
    """`text` with the spaces inside figures replaced by GLUE."""
    text = re.sub(r"\([^()\n]{1,24}\)", lambda m: m.group(0).replace(" ", GLUE), text)
    text = re.sub(rf"(?<=\d) (?={_UNITS})", GLUE, text)
    text = re.sub(r"% (?=reads\b)", "%" + GLUE, text)
    text = re.sub(r"(?<=\d) (?=\()", GLUE, text)
    text = re.sub(r"(?<=\w) = (?=\d)", f"{GLUE}={GLUE}", text)  # 'E2h = 15'
    return re.sub(r"(≥|>=) (?=\d)", lambda m: m.group(1) + GLUE, text)


def fit(text: str) -> str:
    """`text` as stdout can encode it (streams.fit: ASCII spellings under a non-UTF-8 locale), before it is laid
    out, so that columns and wrapping are measured on what is printed; GLUE stays glue."""
    return GLUE.join(fit_stream(part, sys.stdout) for part in text.split(GLUE))


def wrap_text(text: str, width: int, first: str = "", later: str = "") -> list[str]:
    """`text` wrapped between words at `width` (lines led by `first`, then `later`), figures kept whole."""
    import textwrap

    lines = textwrap.wrap(keep_together(fit(text)), width=width, initial_indent=first, subsequent_indent=later,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace(GLUE, " ") for line in lines]


def whole(text: str) -> str:
    """`text` that no line may break: a model string is one name ('LITEONIT LCT-512L9S-11 2.5 7mm 512GB'); one
    longer than the line overflows it whole, as any word does."""
    return text.replace(" ", GLUE)


def drive_name(drive: DriveId) -> str:
    """The drive's label ('MODEL [SERIAL]', DriveId.label) with the model kept whole, for text that is wrapped."""
    return DriveId(drive.model and whole(drive.model), drive.serial, drive.wwn).label


def words(text: str) -> list[str]:
    """The pieces `wrap_text` never breaks."""
    return [w for w in re.split(r"[ \n]+", keep_together(text)) if w]


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


def console(stderr: bool = False) -> Console:
    """A rich console that prints drive strings literally: no markup ('[/]' in a serial), no emoji codes; through
    streams.Stream, so that a stream that cannot encode a character gets its ASCII spelling (and ASCII boxes)."""
    from rich.console import Console

    from .streams import Stream

    return Console(file=cast("IO[str]", Stream(err=stderr)), width=None if sys.stdout.isatty() else width(),
                   soft_wrap=False, highlight=False, markup=False, emoji=False)


def grid(header: Sequence[tuple[str, str]], rows: Sequence[Sequence[str]], columns: int) -> Table | None:
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


def line_text(line: str, style: str = "") -> Text:
    """One laid-out line as rich prints it: never wrapped again, so a word longer than the width (a file's path)
    overflows its line whole rather than being cut at the width and continued in column 0."""
    from rich.text import Text

    return Text(line, style=style, no_wrap=True, overflow="ignore")


def labelled(label: str, text: str, columns: int, style: str = "") -> list[Text]:
    """`label` then `text`, wrapped at word boundaries with a hanging indent: nothing is ever cut."""
    lead = f"  {label:<11} " if label else "  "
    lines = wrap_text(text, max(columns, len(lead) + 20), lead, " " * len(lead))
    return [line_text(line, style) for line in lines or [lead]]


def paragraph(text: str, columns: int, style: str = "") -> list[Text]:
    """A paragraph wrapped between words at `columns`, later lines indented by two."""
    return [line_text(line, style) for line in wrap_text(text, max(columns, 40), later="  ")]
