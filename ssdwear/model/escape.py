"""Untrusted strings made safe to show: drive strings, file names and smartctl's messages may carry control
characters (an escape sequence would rewrite the terminal) or bytes that are not UTF-8."""

from __future__ import annotations

import os
import re

# C0 and C1 control characters, DEL, and the Unicode line separators and bidirectional overrides that can
# rearrange what a terminal shows.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def has_control(text: str) -> bool:
    return _CONTROL.search(text) is not None


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every control character shown as an escape (ESC -> '\\x1b'), safe to print anywhere."""
    return _CONTROL.sub(_escape, text) if _CONTROL.search(text) else text


_CONTROL_IN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible_text(text: str) -> str:
    """Like visible(), for multi-line text: tabs and line ends (LF, CR) are kept."""
    return _CONTROL_IN_TEXT.sub(_escape, text) if _CONTROL_IN_TEXT.search(text) else text


def display_path(path: object) -> str:
    """A file name as people should see it: bytes that are not UTF-8 and control characters escaped."""
    raw = os.fsencode(os.fspath(path))  # type: ignore[call-overload]
    return visible(raw.decode("utf-8", "backslashreplace"))
