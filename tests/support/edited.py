"""The edited copies of corpus outputs (fixtures/edited/, made by tools/make_edited.py) and the commands the tests
run over them: analyze's and retire-check's JSON documents; and copies of a fixture machine whose answers a test
edits (edited_machine)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .cli import ssdwear_cli
from .paths import FIXTURES

EDITED = FIXTURES / "edited"


def analyze(*paths: Path, args: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The drives of `ssdwear analyze --format json ARGS PATHS`."""
    result = ssdwear_cli(["analyze", "--format", "json", *args, *(str(p) for p in paths)])
    return list(json.loads(result.stdout)["drives"])


def retire_check(path: Path) -> tuple[int, dict[str, Any]]:
    """(exit status, document) of `ssdwear retire-check PATH --format json`."""
    result = ssdwear_cli(["retire-check", str(path), "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def edited_machine(tmp_path: Path, base: str = "intel",
                   edits: dict[str, Callable[[dict[str, Any]], object]] | None = None) -> Path:
    """A copy of a fixture machine whose JSON answers for some devices are edited (-x and -i alike)."""
    folder = tmp_path / f"machine-{base}"
    shutil.copytree(FIXTURES / base, folder)
    for device, edit in (edits or {}).items():
        for path in folder.glob(f"*{device.replace('/', '_')}*.out"):
            if path.name.startswith("smartctl --json=c"):
                doc = json.loads(path.read_text())
                edit(doc)
                path.write_text(json.dumps(doc) + "\n")
    return folder
