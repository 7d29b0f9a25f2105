"""The folders are the layers (issue 18.1): every import of an ssdwear package, at module level, under TYPE_CHECKING
or inside a function, is of the importer's own package or of one below it in the order pyproject.toml's
`[tool.importlinter]` contract lists; click, rich and pySMART each stay in their one place; no package imports the
facade (ssdwear/__init__.py); one import style. No exceptions. docs/development.md's Layout section names the
packages in that order."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import NamedTuple

from support.docs import section
from support.paths import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib  # type: ignore[no-redef,import-not-found,unused-ignore]

PACKAGE = ROOT / "ssdwear"
OUTSIDE = ("__init__.py", "__main__.py")  # the facade and `python -m ssdwear`: not layers
# Where each of the three libraries may be imported: a package, or (pySMART) one module.
THIRD_PARTY = {"click": "ssdwear.cli", "rich": "ssdwear.render", "pySMART": "ssdwear.host.runner"}


def layers() -> list[str]:
    """The packages from the bottom up (the contract lists them top first, as import-linter does)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    assert config["root_package"] == "ssdwear"
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers"]
    assert contract["containers"] == ["ssdwear"]  # what `lint-imports` (import-linter) reads the names against
    return list(reversed(contract["layers"]))


class Import(NamedTuple):
    line: int
    target: str  # the module or package imported, absolute ('ssdwear.model.records', 'click')
    names: tuple[str, ...]  # the names a `from` import takes
    relative: bool
    typing_only: bool = False  # under `if TYPE_CHECKING:`: never runs


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, module: str = "") -> list[Import]:
    """Every import statement of the module (named `module`, else by its path), wherever it stands."""
    module = module or module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for block in ast.walk(tree) if isinstance(block, ast.If) and "TYPE_CHECKING" in
                   ast.unparse(block.test) for n in ast.walk(block)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(node.lineno, alias.name, (), False, id(node) in typing_only) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append(Import(node.lineno, target, tuple(a.name for a in node.names), bool(node.level),
                                id(node) in typing_only))
    return found


def top(module: str) -> str:
    """The layer a module of ssdwear belongs to: 'ssdwear.smartctl.parse.text' -> 'smartctl'."""
    return module.split(".")[1] if module.count(".") >= 1 else ""


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.parent != PACKAGE or p.name not in OUTSIDE)


def test_every_module_lives_in_one_of_the_layers() -> None:
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert sorted(packages) == sorted(layers())
    assert [p.name for p in PACKAGE.glob("*.py")] == [] or sorted(p.name for p in PACKAGE.glob("*.py")) == \
        sorted(OUTSIDE)
    assert all(top(module_name(p)) in packages for p in modules())


def rank_violations(files: dict[str, Path]) -> list[str]:
    """What breaks the order in these modules (module name -> file)."""
    rank = {name: i for i, name in enumerate(layers())}
    wrong = []
    for module, path in files.items():
        own = top(module)
        for imp in imports(path, module):
            if imp.target == "ssdwear":  # `from ssdwear import drives` names a package; anything else is the facade
                targets = [f"ssdwear.{name}" for name in imp.names]
            elif imp.target.startswith("ssdwear."):
                targets = [imp.target]
            else:
                continue
            for target in targets:
                where = f"{module}:{imp.line}"
                if top(target) not in rank:
                    wrong.append(f"{where} imports {target}: the facade (or no package) from inside the package")
                elif rank[top(target)] > rank[own]:
                    wrong.append(f"{where} imports {target}: {top(target)}/ lies above {own}/")
    return wrong


def test_each_package_imports_only_itself_and_the_ones_below_it() -> None:
    assert rank_violations({module_name(p): p for p in modules()}) == []


def test_no_two_modules_import_each_other_even_lazily() -> None:
    """No import cycle between modules: every import that runs (module level or in a function) counts; the ones
    under TYPE_CHECKING never run (model/schema.py names the records it serialises that way)."""
    files = {module_name(p): p for p in modules()}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        graph[module] = set()
        for imp in imports(path):
            if imp.typing_only:
                continue
            for name in imp.names or ("",):
                target = f"{imp.target}.{name}" if f"{imp.target}.{name}" in files else imp.target
                if target in files and target != module:
                    graph[module].add(target)
    cycles = []
    state: dict[str, str] = {}

    def visit(module: str, path: tuple[str, ...]) -> None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycles.append(" -> ".join((*path[path.index(target):], target)))
            elif target not in state:
                visit(target, (*path, target))
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, (module,))
    assert cycles == []


def test_one_import_style_relative_within_a_package_absolute_across() -> None:
    wrong = []
    for path in modules():
        own = top(module_name(path))
        for imp in imports(path):
            if not imp.target.startswith("ssdwear"):
                continue
            same = top(imp.target) == own and imp.target != "ssdwear"
            if imp.relative != same:
                how = "relative across packages" if imp.relative else "absolute within its own package"
                wrong.append(f"{path.relative_to(ROOT)}:{imp.line}: {imp.target} {how}")
    assert wrong == []


def test_click_rich_and_pysmart_stay_in_their_one_place() -> None:
    where: dict[str, set[str]] = {name: set() for name in THIRD_PARTY}
    for path in sorted(PACKAGE.rglob("*.py")):
        for imp in imports(path):
            library = imp.target.split(".")[0]
            if library in where:
                where[library].add(module_name(path))
    for library, home in THIRD_PARTY.items():
        assert where[library], f"{library} is imported nowhere: fix THIRD_PARTY"
        strays = sorted(m for m in where[library] if m != home and not m.startswith(home + "."))
        assert strays == [], f"{library} imported outside {home}"


def test_the_rank_check_finds_lazy_upward_and_facade_imports(tmp_path: Path) -> None:
    """A module of model/ that imports assess/ inside a function, render/ relatively under TYPE_CHECKING, or the
    facade is caught; an import of a package below, or of its own, is not."""
    path = tmp_path / "x.py"
    path.write_text("from typing import TYPE_CHECKING\nfrom . import errors\n"
                    "if TYPE_CHECKING:\n    from .. import render\n"
                    "def f():\n    from ssdwear.assess.report import assess\n    from ssdwear import read_drives\n")
    assert [w.split(" ", 1)[1] for w in rank_violations({"ssdwear.model.x": path})] == [
        "imports ssdwear.render: render/ lies above model/",
        "imports ssdwear.assess.report: assess/ lies above model/",
        "imports ssdwear.read_drives: the facade (or no package) from inside the package"]
    assert rank_violations({"ssdwear.cli.x": path}) == ["ssdwear.cli.x:7 imports ssdwear.read_drives: the facade (or "
                                                        "no package) from inside the package"]


def test_the_development_guide_lists_the_packages_in_order() -> None:
    listed = re.findall(r"^- `([a-z]+)/`", section(ROOT / "docs" / "development.md", "Layout"), re.M)
    assert listed == layers()
