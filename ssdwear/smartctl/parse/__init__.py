"""Parse smartctl output (text or JSON) into a :class:`~ssdwear.model.records.Snapshot`.

Two entry points:

* :func:`parse_output` reads what one ``smartctl`` call printed (``-a``/``-x`` text of any release from 5.0.11
  to the current source, each layout pinned by fixtures/formats; Windows CRLF and Latin-1 captures included; or
  ``--json`` output) and returns one ``Snapshot``.
* :func:`parse_scan` reads ``smartctl --scan-open`` (text or ``--json=c``) and returns
  ``(device, -d type)`` pairs (:func:`parse_scan_entries`: with the open errors too).

Anything that is not smartctl output raises :class:`~ssdwear.model.errors.ParseError` with a one-line
message; no other exception ever escapes. Only the standard library is imported, every regular
expression is compiled once at import, and text is parsed in one pass over its lines.

Modules: ``values`` (decoding, numbers, identifiers, times: the values read from untrusted text), ``builder``
(the snapshot builder both readers fill, with the range checks and power-on-hours rules), ``text`` and
``text_tables`` (smartctl's text output: the section table and the table rows), ``text_words`` (the fixed words and
line forms of its releases the text reader matches), ``json_reader`` (JSON output, in parts), ``scan``
(``--scan-open``).
"""

from __future__ import annotations

from ssdwear.model.errors import ParseError
from ssdwear.model.records import Snapshot

from .builder import Builder
from .json_reader import parse_json
from .scan import parse_scan, parse_scan_entries
from .text import parse_text
from .text_words import FAILURE_LINES
from .values import HINT_TEXT, MAX_INPUT_BYTES, decode, source_name

__all__ = ["FAILURE_LINES", "MAX_INPUT_BYTES", "parse_output", "parse_scan", "parse_scan_entries"]

_PROMPT_LINES = 3  # lines a typed command may take before the JSON it printed


def parse_output(data: bytes | str, source: str, device: str | None = None, device_type: str | None = None) -> Snapshot:
    """Parse one smartctl output (text or JSON) into a Snapshot.

    ``source`` (file name or device path) goes into ``Snapshot.source`` and error messages; ``device`` and
    ``device_type`` override what the output says. Raises ParseError, and nothing else, for input that is not
    smartctl output.
    """
    try:
        if len(data) > MAX_INPUT_BYTES:
            raise ParseError(f"{source_name(source)}: {len(data):,} bytes is far more than smartctl prints for one "
                             f"drive (at most {MAX_INPUT_BYTES // 1024 // 1024} MiB is read); {HINT_TEXT}")
        return _read(decode(data), source).build(device, device_type)
    except ParseError:
        raise
    except Exception as exc:  # a parser bug must not take the whole run down
        raise ParseError(
            f"{source_name(source)}: internal parser error ({type(exc).__name__}) on this smartctl output; "
            "please report it with the file attached"
        ) from exc


def _read(text: str, source: str) -> Builder:
    """The reader for this text: JSON when it starts with '{', else smartctl's text format."""
    stripped = text.lstrip()
    if not stripped:
        raise ParseError(f"{source_name(source)}: empty input, not smartctl output; {HINT_TEXT}")
    if stripped[0] == "{":
        return parse_json(text, source)
    try:
        return parse_text(text, source)
    except ParseError:
        # JSON after a user-typed command line ('$ smartctl -j -x /dev/sda'): a few lines naming smartctl, then
        # the document. Anything longer before a brace (a README, notes) is not smartctl output, and says so.
        brace = text.find("\n{")
        if brace < 0 or "smartctl" not in text[:brace] or text.count("\n", 0, brace) >= _PROMPT_LINES:
            raise
        return parse_json(text[brace + 1 :], source)
