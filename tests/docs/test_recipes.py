"""docs/development.md's recipes are true as written (issue 27.5): every file they name exists, every name they say
a file holds is defined there, the command recipe's decorators are the ones a real command wears (it showed the
stack from before command() and left out the COMMANDS tuple), and the Family fields the family recipe names are
the row's."""

from __future__ import annotations

import ast
import re
from dataclasses import fields

from support.docs import section
from support.paths import ROOT

DEV = ROOT / "docs" / "development.md"


def _defined(path: str) -> set[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_every_file_the_recipes_name_exists() -> None:
    text = DEV.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:ssdwear|tests|tools|fixtures|bench|contrib)/[\w./-]+)`", text))
    assert len(named) > 30
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_every_name_a_recipe_places_in_a_file_is_there() -> None:
    text = " ".join(DEV.read_text(encoding="utf-8").split())
    said = re.findall(r"`(\w+)(?:\(\))?`,? in `(ssdwear/[\w/]+\.py)`", text) + \
        re.findall(r"`(\w+)(?:\(\))?` \(`(ssdwear/[\w/]+\.py)`", text)
    assert {("sample_of", "ssdwear/assess/history.py"), ("SAMPLE_COLUMNS", "ssdwear/host/store/columns.py"),
            ("command", "ssdwear/cli/app.py")} <= set(said)
    assert sorted((name, path) for name, path in said if name not in _defined(path)) == []


def test_the_command_recipe_wears_the_decorators_a_real_command_wears() -> None:
    recipe = section(DEV, "How to add a command")
    block = recipe.split("```python", 1)[1].split("```", 1)[0]
    shown = [line.strip().split("(")[0].lstrip("@") for line in block.splitlines() if line.strip().startswith("@")]
    tree = ast.parse((ROOT / "ssdwear" / "cli" / "commands" / "reading.py").read_text(encoding="utf-8"))
    (scan,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "scan"]
    real = [ast.unparse(d.func if isinstance(d, ast.Call) else d) for d in scan.decorator_list]
    assert shown == real == ["command", "format_option"]
    assert "`COMMANDS`" in recipe
    for module in ("reading", "timed", "fleet", "notify", "planning"):
        assert "COMMANDS" in _defined(f"ssdwear/cli/commands/{module}.py") and f"`{module}`" in recipe


def test_the_family_recipe_names_the_rows_fields() -> None:
    from ssdwear.model.family import Family

    recipe = section(DEV, "How to add a drive family")
    named = set(re.findall(r"`(\w+)`", recipe)) & {f.name for f in fields(Family)}
    assert {"source", "model", "firmware", "family", "family_alone", "wear", "remaining", "fine", "timed",
            "nvme_logs", "names", "host_written", "nand_written"} <= named
