"""completions/ holds the generated scripts; they must match the CLI and be valid shell."""

from __future__ import annotations

import subprocess

import pytest
from conftest import ROOT
from tools import require

from ssdwear.cli import cli
from ssdwear.completion import FILES, GENERATORS

COMPLETIONS = ROOT / "completions"


@pytest.mark.parametrize("shell", sorted(GENERATORS))
def test_completion_files_match_the_cli(shell: str) -> None:
    expected = GENERATORS[shell](cli)
    path = COMPLETIONS / FILES[shell]
    assert path.read_text() == expected, (
        f"{path} drifted from the CLI: regenerate with `ssdwear completion {shell} > {path.relative_to(ROOT)}`")


def test_every_command_and_option_is_offered() -> None:
    text = (COMPLETIONS / FILES["bash"]).read_text()
    for name, command in cli.commands.items():
        assert f"{name})" in text
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("-"):
                    assert opt in text, (name, opt)


def _complete(*words: str) -> list[str]:
    script = (COMPLETIONS / FILES["bash"]).read_text()
    line = " ".join(f'"{w}"' for w in words)
    program = (f'{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _ssdwear; '
               'printf "%s\\n" "${COMPREPLY[@]}"')
    result = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_bash_completes_commands_options_and_choices() -> None:
    assert _complete("ssdwear", "rep") == ["report"]
    assert "--represents" in _complete("ssdwear", "report", "--re")
    assert _complete("ssdwear", "report", "--format", "pro") == ["prometheus"]
    assert _complete("ssdwear", "history", "--format", "") == ["table", "json", "csv"]


@pytest.mark.parametrize("shell,args", [("zsh", ["-n"]), ("fish", ["--no-execute"])])
def test_other_shells_parse_their_scripts(shell: str, args: list[str]) -> None:
    binary = require(shell)
    result = subprocess.run([binary, *args, str(COMPLETIONS / FILES[shell])], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stderr
