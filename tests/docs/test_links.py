"""Every relative link between the README, docs/ and the other Markdown files of the repository resolves: the file
exists, and a #anchor names a heading of the page it points at (GitHub's anchors)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from support.docs import ROOT, anchors, markdown_files, prose_lines, slug

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
PAGES = markdown_files()


def links(path: Path) -> list[tuple[int, str]]:
    """(line, target) of every inline link outside code (fenced blocks and `spans`); link text may wrap."""
    prose = dict(prose_lines(path.read_text(encoding="utf-8")))
    text = "\n".join(re.sub(r"`[^`]*`", "``", prose.get(n, "")) for n in range(1, max(prose, default=0) + 1))
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in LINK.finditer(text)]


def broken(path: Path) -> list[str]:
    problems = []
    for number, target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...: not ours to check here
            continue
        file_part, _, anchor = target.partition("#")
        where = (path.parent / unquote(file_part)).resolve() if file_part else path
        here = f"{path.relative_to(ROOT)}:{number}: {target}"
        if not where.exists():
            problems.append(f"{here}: no such file")
        elif ROOT not in where.parents and where != ROOT:
            problems.append(f"{here}: outside the repository")
        elif anchor and (where.suffix != ".md" or anchor not in anchors(where.read_text(encoding="utf-8"))):
            problems.append(f"{here}: no heading with that anchor")
    return problems


def test_the_pages_are_found() -> None:
    names = {str(p.relative_to(ROOT)) for p in PAGES}
    assert {"README.md", "docs/README.md", "docs/development.md", "bench/README.md", "fixtures/README.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert broken(page) == []


def test_the_docs_index_links_every_page_of_docs() -> None:
    index = ROOT / "docs" / "README.md"
    linked = {(index.parent / target.partition("#")[0]).resolve() for _, target in links(index)}
    pages = {p.resolve() for p in (ROOT / "docs").glob("*.md") if p != index}
    assert pages - linked == set()


def test_anchors_are_githubs() -> None:
    """The slug rule the link check relies on, on headings these pages really have."""
    assert slug("What a window stands for: `--represents`") == "what-a-window-stands-for---represents"
    assert slug("Nagios / Icinga") == "nagios--icinga"
    assert slug("`used_source` values") == "used_source-values"
    assert slug("Planning: which drive lasts how long under this workload?") == \
        "planning-which-drive-lasts-how-long-under-this-workload"
    assert anchors("# A\n## B\n```\n# not a heading\n```\n## B\n") == {"a", "b", "b-1"}


def test_a_broken_link_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import support.docs

    page = tmp_path / "page.md"
    page.write_text("# Top\n[ok](#top) [gone](missing.md) [bad anchor](#nowhere) `[code](skipped.md)`\n"
                    "```\n[in a block](skipped.md)\n```\n[a link\nthat wraps](wrapped.md)\n")
    monkeypatch.setattr(support.docs, "ROOT", tmp_path)
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert [p.split(": ", 1)[1] for p in broken(page)] == ["missing.md: no such file",
                                                           "#nowhere: no heading with that anchor",
                                                           "wrapped.md: no such file"]
    assert [line for line, _ in links(page)] == [2, 2, 2, 6]
