"""InfluxDB line protocol, parsed strictly for the tests, written from its grammar (influxdata/line-protocol,
line-protocol.ebnf) and its reference decoder's escapes (lineprotocol/decoder.go, takeEsc and the escapers): in the
measurement a backslash escapes `,` and space; in tag keys, tag values and field keys `,`, `=` and space; in a string
field `\\`, `"` and the \\n, \\r, \\t of the encoder; any other backslash stands for itself. Non-printable ASCII
(0x00-0x1f, 0x7f) is refused outside string fields; a point needs a field; numbers carry their type (`1i` an
integer, `1u` an unsigned one, `1` or `1.5` a float), booleans are t/true/... and f/false/...."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Value = float | int | bool | str
NONPRINTABLE = re.compile("[\x00-\x1f\x7f]")
INT = re.compile(r"-?[0-9]+i")
UINT = re.compile(r"[0-9]+u")
FLOAT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)")
TRUE, FALSE = {"t", "T", "true", "True", "TRUE"}, {"f", "F", "false", "False", "FALSE"}
STRING_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r", "t": "\t"}


class LineProtocolError(ValueError):
    """Not line protocol"""


@dataclass
class Point:
    measurement: str
    tags: dict[str, str] = field(default_factory=dict)
    fields: dict[str, Value] = field(default_factory=dict)
    timestamp: int | None = None


class _Line:
    def __init__(self, text: str, number: int) -> None:
        self.text, self.i, self.number = text, 0, number

    def fail(self, what: str) -> LineProtocolError:
        return LineProtocolError(f"line {self.number}, column {self.i + 1}: {what}: {self.text!r}")

    def peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def take(self, stops: str, escapes: str, what: str) -> str:
        """Characters up to an unescaped one of `stops` (or the end); `\\` + one of `escapes` is that character."""
        out = []
        while self.i < len(self.text):
            c = self.text[self.i]
            if c == "\\" and self.i + 1 < len(self.text) and self.text[self.i + 1] in escapes:
                out.append(self.text[self.i + 1])
                self.i += 2
                continue
            if c in stops:
                break
            if NONPRINTABLE.match(c):
                raise self.fail(f"non-printable character in the {what}")
            out.append(c)
            self.i += 1
        if not out:
            raise self.fail(f"empty {what}")
        return "".join(out)

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise self.fail(f"expected {char!r}")
        self.i += 1

    def spaces(self) -> int:
        start = self.i
        while self.peek() == " ":
            self.i += 1
        return self.i - start

    def string(self) -> str:
        self.expect('"')
        out: list[str] = []
        while True:
            c = self.peek()
            if c == "":
                raise self.fail("unterminated string field")
            self.i += 1
            if c == '"':
                return "".join(out)
            if c == "\\":
                nxt = self.peek()
                if nxt == "":
                    raise self.fail("unterminated string field")
                self.i += 1
                out.append(STRING_ESCAPES.get(nxt, "\\" + nxt))
            else:
                out.append(c)

    def value(self) -> Value:
        if self.peek() == '"':
            return self.string()
        start = self.i
        while self.peek() not in ("", ",", " "):
            self.i += 1
        token = self.text[start:self.i]
        if INT.fullmatch(token):
            return int(token[:-1])
        if UINT.fullmatch(token):
            return int(token[:-1])
        if FLOAT.fullmatch(token):
            return float(token)
        if token in TRUE or token in FALSE:
            return token in TRUE
        raise self.fail(f"not a field value: {token!r}")

    def point(self) -> Point:
        if self.peek() == "#":
            raise self.fail("a measurement may not start with #")
        p = Point(self.take(", ", ", ", "measurement"))
        while self.peek() == ",":
            self.i += 1
            key = self.take("=", ",= ", "tag key")
            self.expect("=")
            p.tags[key] = self.take(", ", ",= ", "tag value")
        if self.spaces() == 0:
            raise self.fail("expected a space before the fields")
        while True:
            key = self.take("=", ",= ", "field key")
            self.expect("=")
            p.fields[key] = self.value()
            if self.peek() != ",":
                break
            self.i += 1
        if self.spaces() and self.peek():
            start = self.i
            while self.peek() not in ("", " "):
                self.i += 1
            stamp = self.text[start:self.i]
            if not re.fullmatch(r"-?[0-9]+", stamp):
                raise self.fail(f"not a timestamp: {stamp!r}")
            p.timestamp = int(stamp)
            self.spaces()
        if self.peek():
            raise self.fail("trailing characters")
        return p


def parse(text: str) -> list[Point]:
    """Every point of `text`; blank lines and comments are skipped, anything else malformed raises."""
    points = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = _Line(raw[:-1] if raw.endswith("\r") else raw, number)
        line.spaces()
        if line.peek() in ("", "#"):
            continue
        points.append(line.point())
    return points
