"""The README's example outputs are real: each block marked `<!-- output: ssdwear ARGS -->` must equal what
that command prints now (replayed fixtures, fixed width), and each `<!-- python -->` example must print the block
marked `<!-- its output -->` below it. `python3 tests/cli/test_readme.py` rewrites them."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]  # no support import: this file also runs as a script
README = ROOT / "README.md"
BLOCK = re.compile(r"(<!-- output: ssdwear (?P<args>.*?) -->\n```\n)(?P<body>.*?)(```)", re.S)
WIDTH = "120"
PYTHON = re.compile(r"(<!-- python -->\n```python\n(?P<code>.*?)```\n<!-- its output -->\n```\n)"
                    r"(?P<body>.*?)(```)", re.S)


def render(args: str) -> str:
    from ssdwear.cli.app import App
    from ssdwear.cli.main import cli

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(cli, ["--no-history", *shlex.split(args)], obj=App())
    finally:
        os.chdir(cwd)
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    return "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"


def run_python(code: str) -> str:
    """Run a README example in a fresh interpreter from the checkout, as a reader would paste it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_readme_python_examples_run() -> None:
    blocks = list(PYTHON.finditer(README.read_text(encoding="utf-8")))
    assert blocks, "README has no Python example"
    for match in blocks:
        assert run_python(match.group("code")) == match.group("body"), f"README Python example drifted: run {__file__}"


def test_readme_examples_are_real_output() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    assert blocks, "README has no example blocks"
    for match in blocks:
        expected = render(match.group("args"))
        got = "\n".join(line.rstrip() for line in match.group("body").splitlines()) + "\n"
        if match.group("args").find("json") >= 0:  # the timestamp changes; compare the rest
            got = re.sub(r'"generated_at": "[^"]*"', "", got)
            expected = re.sub(r'"generated_at": "[^"]*"', "", expected)
        assert got == expected, f"README example 'ssdwear {match.group('args')}' drifted: run {__file__}"


if __name__ == "__main__":  # python3 tests/cli/test_readme.py rewrites the README's example outputs
    text = README.read_text(encoding="utf-8")
    text = BLOCK.sub(lambda m: m.group(1) + render(m.group("args")) + m.group(4), text)
    text = PYTHON.sub(lambda m: m.group(1) + run_python(m.group("code")) + m.group(4), text)
    README.write_text(text, encoding="utf-8")
    print("README examples updated")
