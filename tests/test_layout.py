"""The README's Layout section is true: every module is in its table, layers import only upwards (with the
three named exceptions), and click, rich and pySMART stay where the README says."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "ssdwear"
# importer, imported: the lazy imports the README names as exceptions
EXCEPTIONS = {("records", "serialize"), ("session", "serialize"), ("config", "assess")}


def layers() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### Layout", 1)[1].split("\n\n", 3)[2]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| layer")]
    cells = [re.sub(r"\([^)]*\)", "", row.split("|")[2]) for row in rows]  # not the submodules in brackets
    return [[m.split("/")[0].removesuffix(".py") for m in re.findall(r"`([a-z_/]+(?:\.py|/))`", cell)]
            for cell in cells]


def modules() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for path in PACKAGE.rglob("*.py"):
        top = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        if top not in ("__init__", "__main__"):
            out.setdefault(top, []).append(path)
    return out


def imports(path: Path) -> set[str]:
    """Top-level names imported: 'ssdwear' modules by their top name, others by their package name."""
    found = set()
    inside = path.parent != PACKAGE
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.add((node.module or "").split(".")[0])
            elif not (inside and node.level == 1):
                found.update([node.module.split(".")[0]] if node.module else [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
    return found


def test_every_module_is_in_the_layout_table_once() -> None:
    listed = [m for layer in layers() for m in layer]
    assert len(listed) == len(set(listed))
    assert set(listed) == set(modules())


def test_layers_import_only_upwards() -> None:
    rank = {m: i for i, layer in enumerate(layers()) for m in layer}
    wrong = []
    for top, paths in modules().items():
        for path in paths:
            for name in imports(path) & set(rank):
                if rank[name] > rank[top] and (top, name) not in EXCEPTIONS:
                    wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert wrong == []


def test_click_rich_and_pysmart_stay_in_their_modules() -> None:
    where: dict[str, set[str]] = {"click": set(), "rich": set(), "pySMART": set()}
    for top, paths in modules().items():
        for path in paths:
            for name in imports(path) & set(where):
                where[name].add(top)
    assert where == {"click": {"cli"}, "rich": {"render"}, "pySMART": {"host"}}
