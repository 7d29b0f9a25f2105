"""The documentation's example outputs are real, in README.md and in every page of docs/: each block marked
`<!-- output: ssdwear ARGS -->` must equal what that command prints now (replayed fixtures, fixed width), and
each `<!-- python -->` example must print the block marked `<!-- its output -->` below it.
`python3 tests/docs/test_examples.py` rewrites them (check the diff is what you meant)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]  # no support import: this file also runs as a script
EXAMPLE_PAGES = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
BLOCK = re.compile(r"(<!-- output: ssdwear (?P<args>.*?) -->\n```\n)(?P<body>.*?)(```)", re.S)
WIDTH = "120"
# The examples are printed as of this moment (a figure that counts from the run's clock stays put).
EXAMPLES_NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
PYTHON = re.compile(r"(<!-- python -->\n```python\n(?P<code>.*?)```\n<!-- its output -->\n```\n)"
                    r"(?P<body>.*?)(```)", re.S)
MARKERS = re.compile(r"^<!-- (output: ssdwear|python|its output)", re.M)


def render(args: str) -> str:
    from ssdwear.cli.app import App
    from ssdwear.cli.main import cli

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(cli, ["--no-history", *shlex.split(args)], obj=App(clock=lambda: EXAMPLES_NOW,
                                                                                       host=lambda: "db1"))
    finally:
        os.chdir(cwd)
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"


def run_python(code: str) -> str:
    """Run a documented example in a fresh interpreter from the checkout, as a reader would paste it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_examples_are_where_readers_look() -> None:
    """The README keeps its report (and says it is one); the Python API page keeps its runnable example."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "<!-- output: ssdwear --replay fixtures/intel report --represents 1d -->" in readme
    assert PYTHON.search((ROOT / "docs" / "python-api.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=name)
def test_every_marker_opens_a_checked_block(page: Path) -> None:
    """A marker whose block does not follow in the expected form would silently check nothing."""
    text = page.read_text(encoding="utf-8")
    markers = len(MARKERS.findall(text))
    assert markers == len(BLOCK.findall(text)) + 2 * len(PYTHON.findall(text)), f"{name(page)}: malformed marker"


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=name)
def test_python_examples_run(page: Path) -> None:
    for match in PYTHON.finditer(page.read_text(encoding="utf-8")):
        assert run_python(match.group("code")) == match.group("body"), \
            f"{name(page)}: Python example drifted: run {Path(__file__).relative_to(ROOT)}"


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=name)
def test_examples_are_real_output(page: Path) -> None:
    for match in BLOCK.finditer(page.read_text(encoding="utf-8")):
        expected = render(match.group("args"))
        got = "\n".join(line.rstrip() for line in match.group("body").splitlines()) + "\n"
        if match.group("args").find("json") >= 0:  # the timestamp changes; compare the rest
            got = re.sub(r'"generated_at": "[^"]*"', "", got)
            expected = re.sub(r'"generated_at": "[^"]*"', "", expected)
        assert got == expected, (f"{name(page)}: example 'ssdwear {match.group('args')}' drifted: "
                                 f"run {Path(__file__).relative_to(ROOT)}")


def rewrite() -> None:
    for page in EXAMPLE_PAGES:
        text = page.read_text(encoding="utf-8")
        new = BLOCK.sub(lambda m: m.group(1) + render(m.group("args")) + m.group(4), text)
        new = PYTHON.sub(lambda m: m.group(1) + run_python(m.group("code")) + m.group(4), new)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"{name(page)}: examples updated")


if __name__ == "__main__":  # python3 tests/docs/test_examples.py rewrites the examples' outputs
    rewrite()
