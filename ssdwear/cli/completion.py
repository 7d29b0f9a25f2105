"""Static shell completion scripts (bash, zsh, fish) generated from the click command tree.

Static scripts complete without starting Python on every TAB. completions/ holds the generated files;
a test regenerates them and fails when they drift from the CLI (`ssdwear completion SHELL > FILE`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import click

DEVICE_GLOB = "/dev/sd* /dev/nvme[0-9]* /dev/hd* /dev/bus/[0-9]*"


@dataclass(frozen=True)
class Opt:
    names: tuple[str, ...]  # e.g. ('--format', '-f')
    help: str
    takes_value: bool
    choices: tuple[str, ...] = ()
    kind: str = ""  # 'file', 'dir' or '' (free text)


@dataclass(frozen=True)
class Cmd:
    name: str
    help: str
    options: tuple[Opt, ...]
    args: str  # 'devices', 'files', 'device-or-file', 'dirs' or '': what the arguments are
    choices: tuple[str, ...] = ()  # the words the first argument is one of (`import smartd`, `completion bash`)
    choice_name: str = ""  # what that argument is called (its parameter's name)


DESCRIPTION_MAX = 100  # characters: a longer first sentence ends at its last phrase boundary before this


def _short_help(text: str | None) -> str:
    """The help's first sentence, as written; a long one up to its last phrase boundary within DESCRIPTION_MAX
    characters (before a ';', ':' or ',' followed by a space, or an opening bracket, outside brackets), or whole
    when it has none: never cut inside a phrase."""
    first = re.split(r"\.\s+(?=[A-Z])", (text or "").strip().split("\n")[0])[0].rstrip(".")
    if len(first) <= DESCRIPTION_MAX:
        return first
    depth, cut = 0, 0
    for i, char in enumerate(first[:DESCRIPTION_MAX + 1]):
        if char in "([":
            cut = i - 1 if depth == 0 and first[i - 1:i] == " " else cut
            depth += 1
        elif char in ")]":
            depth -= 1
        elif depth == 0 and char in ";:," and first[i + 1:i + 2] == " ":
            cut = i
    return first[:cut].rstrip() if cut >= 30 else first


def _opt(param: click.Option) -> Opt:
    kind = ""
    choices: tuple[str, ...] = ()
    if isinstance(param.type, click.Choice):
        choices = tuple(str(c) for c in param.type.choices)
    elif isinstance(param.type, click.Path):
        kind = "dir" if not param.type.file_okay else "file"
    elif param.metavar == "PATH" or "FILE" in (param.metavar or ""):  # 'FILE', 'DEVICE|SERIAL|FILE'
        kind = "file"
    elif param.metavar == "DIR":
        kind = "dir"
    names = tuple(param.opts) + tuple(param.secondary_opts)
    return Opt(names, _short_help(param.help), not param.is_flag, choices, kind)


def _options(command: click.Command) -> tuple[Opt, ...]:
    help_opt = Opt(("--help", "-h"), "Show help and exit", False)
    return (*(_opt(p) for p in command.params if isinstance(p, click.Option)), help_opt)


def _args(command: click.Command) -> str:
    for p in command.params:
        if isinstance(p, click.Argument) and not isinstance(p.type, click.Choice):
            meta = p.metavar or ""
            if "DEVICE" in meta and "FILE" in meta:
                return "device-or-file"
            if "DEVICE" in meta:
                return "devices"
            if "FILE" in meta:
                return "files"
            if "DIR" in meta:
                return "dirs"
    return ""


def _choices(command: click.Command) -> tuple[tuple[str, ...], str]:
    """The words of a first argument that is a choice (`import smartd`, `completion bash|zsh|fish`), its name."""
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    if arguments and isinstance(arguments[0].type, click.Choice):
        return tuple(str(c) for c in arguments[0].type.choices), arguments[0].name or ""
    return (), ""


def model(group: click.Group) -> tuple[tuple[Opt, ...], tuple[Cmd, ...]]:
    commands = tuple(Cmd(name, _short_help(cmd.help), _options(cmd), _args(cmd), *_choices(cmd))
                     for name, cmd in sorted(group.commands.items()))
    globals_ = tuple(o for o in _options(group))
    return globals_, commands


def _value_case_bash(options: tuple[Opt, ...]) -> list[str]:
    lines = []
    for o in options:
        if not o.takes_value:
            continue
        pattern = "|".join(o.names)
        if o.choices:
            lines.append(f'        {pattern}) COMPREPLY=($(compgen -W "{" ".join(o.choices)}" -- "$cur")); return ;;')
        elif o.kind == "dir":
            lines.append(f'        {pattern}) COMPREPLY=($(compgen -d -- "$cur")); return ;;')
        elif o.kind == "file":
            lines.append(f'        {pattern}) COMPREPLY=($(compgen -f -- "$cur")); return ;;')
        else:
            lines.append(f"        {pattern}) return ;;")
    return lines


_BASH_ARGUMENTS = [  # how many arguments (not options, nor their values) the words after the command hold
    "_ssdwear_arguments() {  # INDEX-OF-THE-COMMAND 'OPTIONS|THAT|TAKE|A|VALUE'",
    "    local i n=0",
    "    for ((i = $1 + 1; i < COMP_CWORD; i++)); do",
    '        case "${COMP_WORDS[i]}" in',
    "            -*=*) ;;",
    '            -*) if [[ "|$2|" == *"|${COMP_WORDS[i]}|"* ]]; then ((i++)); fi ;;',
    "            *) ((n++)) ;;",
    "        esac",
    "    done",
    '    echo "$n"',
    "}",
]


def _bash_arguments(c: Cmd) -> list[str]:
    """What the words after a command's options complete to: its first argument's choices, then its arguments."""
    devices = f'$(compgen -W "$(ls -d {DEVICE_GLOB} 2>/dev/null)" -- "$cur")'
    rest = {"devices": f"COMPREPLY=({devices})", "files": 'COMPREPLY=($(compgen -f -- "$cur"))',
            "device-or-file": f'COMPREPLY=($(compgen -f -- "$cur") {devices})',
            "dirs": 'COMPREPLY=($(compgen -d -- "$cur"))'}.get(c.args, "")
    if not c.choices:
        return [f"            {rest} ;;" if rest else "            ;;"]
    valued = "|".join(n for o in c.options if o.takes_value for n in o.names)
    first = f'COMPREPLY=($(compgen -W "{" ".join(c.choices)}" -- "$cur"))'
    return [f"            if [ \"$(_ssdwear_arguments \"$at\" '{valued}')\" = 0 ]; then {first}; return; fi",
            f"            {rest} ;;" if rest else "            ;;"]


def bash(group: click.Group) -> str:
    globals_, commands = model(group)
    names = " ".join(c.name for c in commands)
    global_words = " ".join(n for o in globals_ for n in o.names)
    out = [
        "# bash completion for ssdwear. Generated by `ssdwear completion bash`; do not edit.",
        "# Install: copy to /usr/share/bash-completion/completions/ssdwear",
        *_BASH_ARGUMENTS,
        "_ssdwear() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" at=0 i',
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        '        case "${COMP_WORDS[i]}" in',
        f"            {'|'.join(c.name for c in commands)}) cmd=\"${{COMP_WORDS[i]}}\"; at=$i; break ;;",
        "        esac",
        "    done",
        '    if [ -z "$cmd" ]; then',
        '        case "$prev" in',
        *_value_case_bash(globals_),
        "        esac",
        f'        COMPREPLY=($(compgen -W "{names} {global_words}" -- "$cur"))',
        "        return",
        "    fi",
        '    case "$cmd" in',
    ]
    for c in commands:
        words = " ".join(n for o in c.options for n in o.names)
        out.append(f"        {c.name})")
        out.append('            case "$prev" in')
        out.extend("    " + line for line in _value_case_bash(c.options))
        out.append("            esac")
        out.append(f'            if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "{words}" -- "$cur")); return; fi')
        out.extend(_bash_arguments(c))
    out += ["    esac", "}", "complete -F _ssdwear ssdwear", ""]
    return "\n".join(out)


def _zsh_quoted(text: str) -> str:
    """text inside a single-quoted zsh word."""
    return text.replace("'", "'\\''")


def _zsh_spec(o: Opt) -> str:
    # _arguments reads the description up to the first unquoted ']'; a backslash quotes a bracket or a colon
    help_text = _zsh_quoted(re.sub(r"([\[\]:\\])", r"\\\1", o.help))
    action = ""
    if o.takes_value:
        if o.choices:
            action = f":value:({' '.join(o.choices)})"
        elif o.kind == "dir":
            action = ":directory:_files -/"
        elif o.kind == "file":
            action = ":file:_files"
        else:
            action = ":value:"
    if len(o.names) == 1:
        return f"'{o.names[0]}[{help_text}]{action}'"
    exclusive = " ".join(o.names)
    return f"'({exclusive})'{{{','.join(o.names)}}}'[{help_text}]{action}'"


def zsh(group: click.Group) -> str:
    globals_, commands = model(group)
    out = ["#compdef ssdwear", "# zsh completion for ssdwear. Generated by `ssdwear completion zsh`; do not edit.",
           "# Install: copy to a directory in $fpath as _ssdwear", "", "_ssdwear_devices() {",
           f"  local -a devs; devs=({DEVICE_GLOB}(N)); _describe 'device' devs", "}", "", "_ssdwear() {",
           "  local curcontext=\"$curcontext\" state line", "  typeset -A opt_args", "  _arguments -C \\"]
    out += [f"    {_zsh_spec(o)} \\" for o in globals_]
    out += ["    '1:command:->command' \\", "    '*::arg:->args'", "  case $state in", "    command)",
            "      local -a commands; commands=("]
    out += [f"        '{c.name}:{_zsh_quoted(c.help)}'" for c in commands]
    out += ["      )", "      _describe 'command' commands ;;", "    args)", "      case $line[1] in"]
    for c in commands:
        either = "'1:device or file:_alternative \"devices:device:_ssdwear_devices\" \"files:file:_files\"'"
        at = 2 if c.choices else 1  # after a first argument of choices
        arg = {"devices": "'*:device:_ssdwear_devices'", "files": "'*:file:_files'", "device-or-file": either,
               "dirs": f"'{at}:directory:_files -/'"}.get(c.args, "")
        if c.choices:
            arg = f"'1:{c.choice_name}:({' '.join(c.choices)})' {arg}".rstrip()
        specs = " ".join(_zsh_spec(o) for o in c.options)
        out.append(f"        {c.name}) _arguments {specs} {arg} ;;".rstrip())
    out += ["      esac ;;", "  esac", "}", "", '_ssdwear "$@"', ""]
    return "\n".join(out)


def fish(group: click.Group) -> str:
    globals_, commands = model(group)
    out = ["# fish completion for ssdwear. Generated by `ssdwear completion fish`; do not edit.",
           "# Install: copy to ~/.config/fish/completions/ssdwear.fish", "complete -c ssdwear -f"]

    def quoted(text: str) -> str:  # inside a single-quoted fish word
        return text.replace("\\", "\\\\").replace("'", "\\'")

    def opt_line(o: Opt, condition: str) -> str:
        parts = [f"complete -c ssdwear -n '{condition}'"]
        for n in o.names:
            parts.append(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}")
        if o.takes_value:
            parts.append("-r")
            if o.choices:
                parts.append(f"-a '{' '.join(o.choices)}'")
            elif o.kind in ("file", "dir"):
                parts.append("-F")
        parts.append(f"-d '{quoted(o.help)}'")
        return " ".join(parts)

    out += [opt_line(o, "__fish_use_subcommand") for o in globals_]
    out += [f"complete -c ssdwear -n '__fish_use_subcommand' -a {c.name} -d '{quoted(c.help)}'" for c in commands]
    for c in commands:
        cond = f"__fish_seen_subcommand_from {c.name}"
        out += [opt_line(o, cond) for o in c.options]
        if c.choices:
            words = " ".join(c.choices)
            out.append(f"complete -c ssdwear -n '{cond}; and not __fish_seen_subcommand_from {words}' -a '{words}'")
        if c.args == "dirs":
            after = f"; and __fish_seen_subcommand_from {' '.join(c.choices)}" if c.choices else ""
            out.append(f"complete -c ssdwear -n '{cond}{after}' -a '(__fish_complete_directories)'")
        if c.args in ("devices", "device-or-file"):
            out.append(f"complete -c ssdwear -n '{cond}' -a '(ls -d {DEVICE_GLOB} 2>/dev/null)'")
        if c.args in ("files", "device-or-file"):
            out.append(f"complete -c ssdwear -n '{cond}' -F")
    return "\n".join(out) + "\n"


GENERATORS = {"bash": bash, "zsh": zsh, "fish": fish}
FILES = {"bash": "ssdwear.bash", "zsh": "_ssdwear", "fish": "ssdwear.fish"}
