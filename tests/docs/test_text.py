"""What the documentation's text promises about itself: a README a sysadmin reads in five minutes, no reference to
files outside the repository anywhere in it (docs, help, code, comments, data), and no project jargon or internal
class names in what users read (the README, the user pages of docs/, the command line's help, the man page)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import click
import pytest
from support.docs import DOCS, README, ROOT, USER_PAGES

# Spelled in pieces so that this file does not match itself.
OUTSIDE = re.compile(r"\.\./" + r"shared\b|\bshared/(series|corpus|DOMAIN|GUIDE)|/work/" + r"shared")
JARGON = re.compile(r"\bthe seed\b|\bseed'?s\b|\bseed (article|measurement|loop)", re.I)
SKIP_DIRS = {".git", ".venv", "build", "dist", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache",
             ".hypothesis", ".benchmarks", "out"}
TEXT_SUFFIXES = {".md", ".py", ".yaml", ".yml", ".json", ".toml", ".in", ".sh", ".c", ".1", ".txt", ".cfg", ""}


def repository_text_files() -> list[Path]:
    """The repository's own text: code, docs, data, contrib, man page; not the recorded smartctl outputs."""
    out = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if (path.is_file() and not SKIP_DIRS.intersection(rel.parts) and not rel.parts[0].endswith(".egg-info")
                and path.suffix in TEXT_SUFFIXES and not (rel.parts[0] == "fixtures" and path.suffix != ".md")):
            out.append(path)
    return out


def help_texts() -> list[tuple[str, str]]:
    """(where, text) of every help string the command line prints."""
    from ssdwear.cli.main import cli

    found = [("ssdwear", cli.help or "")]
    for name, command in cli.commands.items():
        found.append((name, command.help or ""))
        for param in [*command.params, *cli.params]:
            if isinstance(param, click.Option):
                found.append((f"{name} {param.opts[0]}", param.help or ""))
    return found


def test_the_readme_reads_in_five_minutes() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert 200 <= len(lines) < 300, f"README.md has {len(lines)} lines: move detail to docs/ (docs/README.md)"


def test_the_readme_keeps_what_it_answers() -> None:
    """What ssdwear is, install, the two commands, one report, the command list, the links."""
    titles = re.findall(r"^## (.*)$", README.read_text(encoding="utf-8"), re.M)
    for wanted in ("Install", "The two commands", "A report", "Commands", "Documentation"):
        assert wanted in titles, wanted
    assert titles.index("Install") < titles.index("The two commands") < titles.index("A report")


def test_nothing_refers_to_files_outside_the_repository() -> None:
    files = repository_text_files()
    assert README in files and ROOT / "bench" / "series.py" in files and ROOT / "ssdwear" / "drives" / "ratings.json" \
        in files
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}" for path in files
             for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert found == []


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_user_pages_speak_no_project_jargon(page: Path) -> None:
    found = [f"{n}: {line.strip()[:100]}" for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
             if JARGON.search(line)]
    assert found == []


def test_help_and_man_page_speak_no_project_jargon() -> None:
    found = [f"{where}: {text}" for where, text in help_texts() if JARGON.search(text)]
    man = (ROOT / "man" / "ssdwear.1").read_text(encoding="ascii")
    found += [f"man/ssdwear.1: {line}" for line in man.splitlines() if JARGON.search(line)]
    assert found == []
    represents = dict(help_texts())["report --represents"]
    assert "1d for a 60-minute test standing for one day" in represents


def internal_classes() -> set[str]:
    """The package's CamelCase class names that the public API (ssdwear.__all__) does not export."""
    import ssdwear

    names = set()
    for path in (ROOT / "ssdwear").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and re.fullmatch(r"[A-Z][a-z0-9]+[A-Z]\w*", node.name):
                names.add(node.name)
    return names - set(ssdwear.__all__)


@pytest.mark.parametrize("page", [p for p in USER_PAGES if p.name != "python-api.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_user_pages_name_no_internal_class(page: Path) -> None:
    classes = internal_classes()
    assert {"ReplayRunner", "WearAttribute", "SmartctlRunner"} <= classes
    text = page.read_text(encoding="utf-8")
    assert sorted(name for name in classes if re.search(rf"\b{name}\b", text)) == []


def test_the_user_pages_are_the_docs_but_development() -> None:
    assert DOCS / "development.md" not in USER_PAGES and DOCS / "monitoring.md" in USER_PAGES and README in USER_PAGES
