"""completions/ holds the generated scripts; they must match the CLI and be valid shell."""

from __future__ import annotations

import re
import subprocess

import pytest
from support.paths import ROOT
from support.tools import require

from ssdwear.cli.completion import FILES, GENERATORS
from ssdwear.cli.main import cli

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
    assert _complete("ssdwear", "history", "--format", "") == ["table", "json", "yaml", "csv"]


@pytest.mark.parametrize("shell,args", [("zsh", ["-n"]), ("fish", ["--no-execute"])])
def test_other_shells_parse_their_scripts(shell: str, args: list[str]) -> None:
    binary = require(shell)
    result = subprocess.run([binary, *args, str(COMPLETIONS / FILES[shell])], capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0, result.stderr


# -- installed where each shell looks (the paths contrib/install.sh and docs/install.md give) -----------------


def _install_dir(tmp_path, shell: str):
    target = {"bash": tmp_path / "bash-completion" / "completions" / "ssdwear", "zsh": tmp_path / "zsh" / "_ssdwear",
              "fish": tmp_path / "fish" / "ssdwear.fish"}[shell]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text((COMPLETIONS / FILES[shell]).read_text())
    return target


def test_bash_completion_loads_it_on_demand_from_its_directory(tmp_path) -> None:
    """With the bash-completion package: its loader finds the file in a completions directory the first time
    `ssdwear` is completed (BASH_COMPLETION_USER_DIR stands in for /usr/share/bash-completion)."""
    require("bash")
    loader = "/usr/share/bash-completion/bash_completion"
    from pathlib import Path

    if not Path(loader).is_file():
        message = "bash-completion is not installed (contrib/install-deps.sh --test installs it)"
        if __import__("os").environ.get("SSDWEAR_REQUIRE_TOOLS"):
            pytest.fail(message)
        pytest.skip(message)
    _install_dir(tmp_path, "bash")
    program = (f'export BASH_COMPLETION_USER_DIR={tmp_path / "bash-completion"}; source {loader}; '
               '_completion_loader ssdwear; complete -p ssdwear; '
               'COMP_WORDS=(ssdwear sta); COMP_CWORD=1; _ssdwear; printf "%s\\n" "${COMPREPLY[@]}"')
    result = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "complete -F _ssdwear ssdwear" and sorted(lines[1:]) == ["start", "status"]


def test_zsh_compinit_picks_it_up_from_fpath(tmp_path) -> None:
    zsh = require("zsh")
    target = _install_dir(tmp_path, "zsh")
    program = (f"fpath=({target.parent} $fpath); autoload -Uz compinit; compinit -u -D; "
               "print -r -- $_comps[ssdwear]")
    result = subprocess.run([zsh, "-f", "-c", program], capture_output=True, text=True, timeout=30,
                            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "_ssdwear"


def test_fish_completes_from_its_vendor_directory(tmp_path) -> None:
    fish = require("fish")
    target = _install_dir(tmp_path, "fish")
    bindir = tmp_path / "bin"  # fish completes the arguments of commands it can find
    bindir.mkdir()
    (bindir / "ssdwear").write_text("#!/bin/sh\n")
    (bindir / "ssdwear").chmod(0o755)
    program = (f"set -p fish_complete_path {target.parent}; complete -C 'ssdwear rep'; "
               "complete -C 'ssdwear history --format '")
    result = subprocess.run([fish, "--no-config", "-c", program], capture_output=True, text=True, timeout=30,
                            env={"HOME": str(tmp_path), "PATH": f"{bindir}:/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    words = [line.split("\t")[0] for line in result.stdout.splitlines()]
    assert "report" in words and {"table", "json", "yaml", "csv"} <= set(words)


# -- issue 25.12: what each shell offers and shows, asked of the shell itself ---------------------------------


def test_bash_offers_the_first_arguments_words() -> None:
    """`import` offered no `smartd`, `completion` no shell; after the word (and options with their values), the
    rest: a directory for import."""
    assert _complete("ssdwear", "import", "") == ["smartd"]
    assert _complete("ssdwear", "import", "sm") == ["smartd"]
    assert _complete("ssdwear", "--db", "x.db", "import", "--format", "json", "") == ["smartd"]
    assert sorted(_complete("ssdwear", "completion", "")) == ["bash", "fish", "zsh"]
    assert "smartd" not in _complete("ssdwear", "import", "smartd", "")  # DIR now: directories, not the word again
    assert _complete("ssdwear", "completion", "zsh", "") == []


def _fish(tmp_path, *lines: str) -> list[list[str]]:
    """fish's own answers (`complete -C`) with the vendor file loaded: [word, description] per candidate."""
    fish = require("fish")
    target = _install_dir(tmp_path, "fish")
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    (bindir / "ssdwear").write_text("#!/bin/sh\n")
    (bindir / "ssdwear").chmod(0o755)
    program = f"set -p fish_complete_path {target.parent}; " + "; ".join(f"complete -C '{x}'" for x in lines)
    result = subprocess.run([fish, "--no-config", "-c", program], capture_output=True, text=True, timeout=60,
                            env={"HOME": str(tmp_path), "PATH": f"{bindir}:/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return [line.split("\t") for line in result.stdout.splitlines()]


def _help_of(command: str, option: str) -> str:
    ctx = cli.make_context("ssdwear", [], resilient_parsing=True)
    params = cli.get_command(ctx, command).params if command else cli.params
    [param] = [p for p in params if option in getattr(p, "opts", [])]
    return param.help or ""


def test_fish_shows_the_help_as_written_and_whole_phrases(tmp_path) -> None:
    """Descriptions lost their apostrophes ('smartds attribute logs') and stopped mid-phrase ('...config.yaml
    and'): each is the help's first sentence, or its part up to a phrase boundary."""
    got = dict((word, description) for word, description in _fish(tmp_path, "ssdwear ", "ssdwear plan --"))
    assert got["import"] == "Copy smartd's attribute logs into the history"
    assert got["--spare"] == ("Leave PERCENT of each drive's user capacity unused (spare area, 0.1 to 99.9 % of the "
                              "user capacity)")
    assert got["--config"] == "Extra config file read after /etc/ssdwear/config.yaml and ~/.config/ssdwear/config.yaml"
    for option in ("--config", "--spare", "--from", "--host-writes", "--represents"):
        shown = got[option]
        assert _help_of("plan", option).startswith(shown) and not shown.endswith((" and", " or", ",", " the"))
    words = [w for w, *_ in _fish(tmp_path, "ssdwear import ", "ssdwear completion ")]
    assert words[:1] == ["smartd"] and sorted(words[1:]) == ["bash", "fish", "zsh"]


ZPTY = r"""
zmodload zsh/zpty
zpty z 'TERM=dumb zsh -f -i'
zpty -w z 'PS1="%% "; fpath=({fpath} $fpath); autoload -Uz compinit; compinit -u -D; LISTMAX=0; COLUMNS=250'
zpty -w z 'ssdwear() {{ :; }}'
zpty -w -n z $'{line}\t'
sleep 2
out=
while zpty -rt z chunk; do out+=$chunk; done
sleep 1
while zpty -rt z chunk; do out+=$chunk; done
print -r -- "$out"
zpty -d z
"""


def _zsh_screen(tmp_path, line: str) -> list[str]:
    """What an interactive zsh shows after `line` and TAB (in a pseudo-terminal of zsh's own zpty), escape codes
    left out: the lines it listed, then the command line as completion left it."""
    zsh = require("zsh")
    target = _install_dir(tmp_path, "zsh")
    result = subprocess.run([zsh, "-f", "-c", ZPTY.format(fpath=target.parent, line=line)], capture_output=True,
                            text=True, timeout=60, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\x07\r]", "", result.stdout)
    return [" ".join(x.split()) for x in text.splitlines() if x.strip()]


def test_zsh_shows_colons_brackets_and_apostrophes_as_written(tmp_path) -> None:
    """zsh turned ':' into two spaces ('Drives read in parallel  1 to 256') and brackets into parentheses."""
    listed = _zsh_screen(tmp_path, "ssdwear import --")
    assert "--workers -- Drives read in parallel: 1 to 256 (default 64)" in listed
    assert "--db -- History database [env SSDWEAR_DB]" in listed
    assert "import -- Copy smartd's attribute logs into the history" in _zsh_screen(tmp_path, "ssdwear ")


def test_zsh_completes_the_first_arguments_words(tmp_path) -> None:
    assert _zsh_screen(tmp_path, "ssdwear import ")[-1] == "% ssdwear import smartd"
    assert _zsh_screen(tmp_path, "ssdwear completion ")[-2:] == ["bash fish zsh", "% ssdwear completion"]
