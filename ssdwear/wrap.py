"""Text for people wrapped between words, never inside a figure: a number and its unit, a short bracket
('(ata, ssd)', '(1/1024 %)'), a figure and its range ('18.7 (17.5-20.0)'), 'E2h = 15' and a model name stay on
one line; a word longer than the width overflows its line rather than being cut. Measured on what stdout can
print (streams.fit)."""

from __future__ import annotations

import re
import sys

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
    from .streams import fit as fit_stream

    return GLUE.join(fit_stream(part, sys.stdout) for part in text.split(GLUE))


def wrap_text(text: str, width: int, first: str = "", later: str = "") -> list[str]:
    """`text` wrapped between words at `width` (lines led by `first`, then `later`), figures kept whole."""
    import textwrap

    lines = textwrap.wrap(keep_together(fit(text)), width=width, initial_indent=first, subsequent_indent=later,
                          break_long_words=False, break_on_hyphens=False)
    return [line.replace(GLUE, " ") for line in lines]


def words(text: str) -> list[str]:
    """The pieces `wrap_text` never breaks."""
    return [w for w in re.split(r"[ \n]+", keep_together(text)) if w]
