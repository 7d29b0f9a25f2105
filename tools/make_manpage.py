#!/usr/bin/env python3
"""Write man/ssdwear.1, the manual page ssdwear(1), from the command line's own help: click's command tree (each
command's usage, help text and options, as `ssdwear COMMAND --help` prints them), docs/exit-codes.md's table
and the platform table's paths. tests/system/test_manpage.py fails when the committed page differs from a fresh one.

Run: python3 tools/make_manpage.py            (rewrites man/ssdwear.1)
     python3 tools/make_manpage.py --stdout   (prints it)
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ssdwear import __version__  # noqa: E402
from ssdwear.cli.main import cli  # noqa: E402
from ssdwear.host.platforms import FREEBSD, LINUX  # noqa: E402

PAGE = ROOT / "man" / "ssdwear.1"


def esc(text: str) -> str:
    """Text for roff: backslashes and dashes escaped, anything beyond ASCII as a named Unicode character (groff reads
    the page as ASCII whatever the locale), a line that would start a request kept as text."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line for line in text.split("\n"))


_OPTION = re.compile(r"(?<![\w\[|/-])(-{1,2}\w[\w-]*)")


def bold_options(text: str) -> str:
    """Text for roff with each option name (-x, --name, --wake/--no-wake) in bold, everything else as it is."""
    out, at = [], 0
    for m in _OPTION.finditer(text):
        out += [esc(text[at:m.start()]), "\\fB" + esc(m.group(1)) + "\\fR"]
        at = m.end()
    return "".join([*out, esc(text[at:])])


# man's text starts 7 columns in (the man macros' default indentation, IN=7n), and a page is read at 80 columns
# (MANWIDTH=80): a kept line wider than 73 gets its block moved left by what it lacks.
INDENT, WIDTH = 7, 80


def paragraphs(help_text: str) -> list[str]:
    """click's help text as roff paragraphs: a paragraph after a line `\\b` keeps its lines (.nf), moved left
    where one would pass 80 columns, any other is filled, the way click rewraps it."""
    out = []
    for block in re.split(r"\n[ \t]*\n", inspect.cleandoc(help_text).split("\f", 1)[0].strip()):
        if block.startswith("\b"):
            lines = block.split("\n", 1)[1] if "\n" in block else ""
            over = min(INDENT, max((len(line) for line in lines.split("\n")), default=0) + INDENT - WIDTH)
            moved = (f".in -{over}n\n", "\n.in") if over > 0 else ("", "")
            out.append(".PP\n.nf\n" + moved[0] + esc(lines) + moved[1] + "\n.fi")
        else:
            out.append(".PP\n" + esc(" ".join(line.strip() for line in block.splitlines())))
    return out


def options(command: click.Command, ctx: click.Context) -> list[str]:
    out = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:  # hidden: the global options, listed once
            continue
        names, help_text = record
        out.append(".TP\n" + bold_options(names) + "\n" + esc(help_text or ""))
    return out


def usage(command: click.Command, ctx: click.Context) -> str:
    return " ".join(command.collect_usage_pieces(ctx))


def commands_section(group: click.Group, top: click.Context) -> list[str]:
    out = [".SH COMMANDS"]
    for name in group.list_commands(top):
        command = group.get_command(top, name)
        if command is None or command.hidden:
            continue
        ctx = command.make_context(name, [], parent=top, resilient_parsing=True)  # its context_settings too
        out.append(f'.SS "{esc(name)}"')
        out.append(f".PP\n\\fBssdwear\\fR [\\fIGLOBAL OPTIONS\\fR] \\fB{esc(name)}\\fR "
                   + bold_options(usage(command, ctx)))
        out += paragraphs(command.help or "")
        out += options(command, ctx)
    return out


def exit_status() -> list[str]:
    """docs/exit-codes.md's table of exit codes (an interface), one .TP each, and its paragraphs."""
    text = (ROOT / "docs" / "exit-codes.md").read_text(encoding="utf-8")
    section = text.split("\n", 1)[1]  # all but the page's title
    rows = [line.split("|")[1:3] for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    out = [".SH EXIT STATUS"]
    for code, meaning in rows[1:]:
        meaning = re.sub(r"`([^`]*)`", lambda m: "\x00B" + m.group(1) + "\x00R", meaning.strip())
        out.append(".TP\n" + esc(code.strip()) + "\n" + esc(meaning).replace("\x00B", "\\fB").replace("\x00R", "\\fR"))
    rest = [p for p in section.split("\n\n") if p.strip() and not p.strip().startswith("|")]
    for paragraph in rest:
        out.append(".PP\n" + esc(" ".join(re.sub(r"`([^`]*)`", r"\1", paragraph).split())))
    return out


def files_section() -> list[str]:
    out = [".SH FILES"]
    for label, where in (("Linux", LINUX), ("FreeBSD and TrueNAS CORE", FREEBSD)):
        out.append(f".TP\n{esc(label)}\n\\fI{esc(str(where.system_config))}\\fR: the system configuration file;\n"
                   f".br\n\\fI{esc(str(where.system_db))}\\fR: the history database when run as root;\n"
                   f".br\nsmartctl: looked for on PATH, then in {esc(', '.join(where.program_dirs[:3]))}.")
    out.append(".TP\nAny user\n\\fI~/.config/ssdwear/config.yaml\\fR ($XDG_CONFIG_HOME): read after the system "
               "file;\n.br\n\\fI~/.local/share/ssdwear/history.db\\fR ($XDG_DATA_HOME): the history of a user "
               "other than root.")
    return out


ENVIRONMENT = [
    ("SSDWEAR_SMARTCTL", "the smartctl binary (as --smartctl)"),
    ("SSDWEAR_CONFIG", "an extra config file read after the others (as --config)"),
    ("SSDWEAR_DB", "the history database (as --db)"),
    ("SSDWEAR_DEBUG", "set to 1: an internal error prints its traceback"),
]


def page() -> str:
    top = cli.make_context("ssdwear", [], resilient_parsing=True)  # -h and --help, as the command has them
    description, *more = paragraphs(cli.help or "")
    lines = [
        '.\\" Generated by tools/make_manpage.py from ssdwear\'s command line help; do not edit.',
        f'.TH SSDWEAR 1 "" "ssdwear {esc(__version__)}" "User Commands"',
        ".nh\n.ad l",
        ".SH NAME",
        "ssdwear \\- SMART wear monitor: percent used and projected years left for every SSD",
        ".SH SYNOPSIS",
        ".B ssdwear\n[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]",
        ".SH DESCRIPTION", description, *more,
        ".PP\nEvery command accepts the global options too, before or after its name. "
        "\\fBssdwear \\fICOMMAND\\fB \\-\\-help\\fR prints what this page says about it.",
        ".SH GLOBAL OPTIONS", *options(cli, top),
        *commands_section(cli, top),
        *exit_status(),
        ".SH ENVIRONMENT",
        *(f".TP\n.B {name}\n{esc(text)}" for name, text in ENVIRONMENT),
        *files_section(),
        ".SH SEE ALSO",
        ".BR smartctl (8),\n.BR smartd (8),\n.BR nvme (1),\n.BR cron (8),\n.BR systemd.timer (5),\n.BR periodic (8)",
        ".PP\nThe README and the pages of docs/ (the timed workload, planning, monitoring, configuration, JSON "
        "output, exit codes, security, how good the projections are) ship in the source distribution and, in the "
        "Debian package, in /usr/share/doc/ssdwear.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    text = page()
    if "--stdout" in sys.argv[1:]:
        sys.stdout.write(text)
        return
    PAGE.parent.mkdir(exist_ok=True)
    PAGE.write_text(text, encoding="ascii")
    print(f"wrote {PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
