"""The documentation as the tests read it: the Markdown pages (README.md, docs/*.md and the other READMEs), their
sections by heading, the tables in them, and GitHub's anchors for headings."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
USER_PAGES = (README, *sorted(p for p in DOCS.glob("*.md") if p.name != "development.md"))
_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_files() -> list[Path]:
    """Every Markdown file the repository tracks as documentation (fixtures' READMEs included), no tool caches."""
    skip = {".git", ".venv", "build", "dist", "node_modules"}
    return sorted(p for p in ROOT.rglob("*.md")
                  if not skip.intersection(p.relative_to(ROOT).parts) and not any(
                      part.startswith(".") or part.endswith(".egg-info") for part in p.relative_to(ROOT).parts))


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append((number, line))
    return out


def headings(text: str) -> list[tuple[int, str]]:
    """(level, title) of every heading outside code blocks."""
    found = []
    for _, line in prose_lines(text):
        m = _HEADING.match(line)
        if m:
            found.append((len(m.group(1)), m.group(2)))
    return found


def slug(title: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped (letters, digits, '-' and '_'
    stay), each space a '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # a link's text
    text = text.replace("`", "").lower()
    kept = "".join(c for c in text if c in "-_ " or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page offers: its headings' slugs, GitHub's -1, -2 ... for repeats."""
    seen: dict[str, int] = {}
    out = set()
    for _, title in headings(text):
        base = slug(title)
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return out


def section(path: Path, title: str) -> str:
    """The text under the heading `title` of `path`, up to the next heading of the same or a higher level."""
    lines = path.read_text(encoding="utf-8").splitlines()
    fenced, start, level = False, None, 0
    for i, line in enumerate(lines):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        m = None if fenced else _HEADING.match(line)
        if m is None:
            continue
        if start is not None and len(m.group(1)) <= level:
            return "\n".join(lines[start:i]).strip("\n") + "\n"
        if start is None and m.group(2) == title:
            start, level = i + 1, len(m.group(1))
    if start is None:
        raise AssertionError(f"{path.relative_to(ROOT)} has no heading {title!r}")
    return "\n".join(lines[start:]).strip("\n") + "\n"


def table_rows(text: str) -> list[list[str]]:
    """The cells of every table row in `text` (header rows included, separator rows not)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not re.match(r"^\|[\s:|-]+\|$", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def code_names(cell: str) -> list[str]:
    """The `backticked` words of a table cell."""
    return re.findall(r"`([^`]+)`", cell)
