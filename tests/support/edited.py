"""The edited copies of corpus outputs (fixtures/edited/, made by tools/make_edited.py) and the commands the tests
run over them: analyze's and retire-check's JSON documents."""

from __future__ import annotations

import json
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
