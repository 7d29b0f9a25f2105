"""Text to stdout and stderr whatever their encoding: the one writer every output and message goes through.

Under a UTF-8 locale text is written as it is. Under any other (ISO-8859-1, C/POSIX with ASCII, a
PYTHONIOENCODING) what the stream cannot encode gets an ASCII spelling (`≥` -> `>=`, box and chart lines -> `|`,
`-`, `+`, `#`) and anything else a backslash escape (`\\u4e2d`), so no output ever fails on encoding. JSON and
YAML are made ASCII with their own escapes instead (`unicode_ok`), so they stay valid documents; the Prometheus
exposition is UTF-8 by its specification and is written as UTF-8 bytes (`write_utf8`).
"""

from __future__ import annotations

import codecs
import sys
from typing import TextIO

# What ssdwear itself prints beyond ASCII, and the usual typographic characters of drive strings and notes.
ASCII_SPELLINGS = {
    "≥": ">=", "≤": "<=", "≠": "!=", "≈": "~", "±": "+/-", "×": "x", "−": "-", "–": "-", "—": "-", "…": "...",
    "‘": "'", "’": "'", "‚": ",", "“": '"', "”": '"', "„": '"', "→": "->", "←": "<-", "•": "*", "·": ".",
    "\u00a0": " ", "\u202f": " ", "\u2009": " ", "µ": "u", "°": " deg", "█": "#", "▌": "#", "│": "|", "┃": "|",
    "─": "-", "━": "-", "└": "+", "┘": "+", "┌": "+", "┐": "+", "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
}
_HANDLER = "ssdwear-ascii"


def _spell(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler: ASCII spellings, else backslash escapes, for what the encoding cannot hold."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start:error.end]
    return "".join(ASCII_SPELLINGS.get(c) or c.encode("ascii", "backslashreplace").decode("ascii")
                   for c in chunk), error.end


codecs.register_error(_HANDLER, _spell)


def _encoding(stream: object) -> str:
    name = getattr(stream, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "ascii"


def fit(text: str, stream: object) -> str:
    """`text` as `stream` can encode it (unchanged when it can)."""
    encoding = _encoding(stream)
    try:
        text.encode(encoding)
        return text
    except UnicodeEncodeError:
        return text.encode(encoding, _HANDLER).decode(encoding)


def unicode_ok(err: bool = False) -> bool:
    """Whether the stream is UTF-8 (or another Unicode encoding): else JSON and YAML are written in ASCII."""
    return _encoding(sys.stderr if err else sys.stdout).startswith("utf")


def write(text: str, err: bool = False, nl: bool = True) -> None:
    """`text` (and a newline) on stdout, or stderr with `err`, as the stream can encode it."""
    stream = sys.stderr if err else sys.stdout
    stream.write(fit(text + ("\n" if nl else ""), stream))
    stream.flush()


def write_utf8(text: str) -> None:
    """`text` on stdout as UTF-8 bytes whatever the locale (the Prometheus exposition's encoding)."""
    stream = sys.stdout
    buffer = getattr(stream, "buffer", None)
    if buffer is None or unicode_ok():
        write(text, nl=False)
        return
    stream.flush()
    buffer.write(text.encode("utf-8", "backslashreplace"))
    buffer.flush()


class Stream:
    """stdout or stderr as a file for rich's Console: each write goes through `fit`; rich reads `encoding` to
    choose ASCII boxes and bars when the stream is not UTF-8.

    It holds the stream that was sys.stdout or sys.stderr when it was made, never looks it up again: rich's live
    display (measure's progress bar) puts a proxy into sys.stderr that prints through the live console, so a
    console whose file looked sys.stderr up at each write would write into its own proxy, forever."""

    def __init__(self, err: bool = False) -> None:
        self.err = err
        self.stream: TextIO = sys.stderr if err else sys.stdout

    @property
    def encoding(self) -> str:
        return _encoding(self.stream)

    def write(self, text: str) -> int:
        return self.stream.write(fit(text, self.stream))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()
