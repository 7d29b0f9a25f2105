#!/usr/bin/env python3
"""Write fixtures/formats/: the smartctl format-version matrix (tools/formats/ builds it).

    python3 -m tools.make_formats                      rewrite fixtures/formats/ (deterministic)
    python3 -m tools.make_formats --check              exit 1 when a file differs from what this writes
    python3 -m tools.make_formats --verify-source GIT  check every cited source line against a clone of
                                                       github.com/smartmontools/smartmontools (its git dir)
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from ssdwear.smartctl.replay import fixture_name
from tools.formats import matrix
from tools.formats.releases import RELEASES, Cite, Release

ROOT = Path(__file__).resolve().parents[1]

HERE = ROOT / "fixtures" / "formats"
SOURCE = "github.com/smartmontools/smartmontools"


def _folder_readme(output: matrix.Output, r: Release, calls: list[matrix.Call]) -> str:
    where = r.tag if r.name != "current" else "the current source"
    version = f"smartctl {r.version}" if r.name != "current" else f"smartctl {r.version} (the current source)"
    lines = [
        f"# fixtures/formats/{output.name}/{r.name}: {output.what}, as {version} prints it",
        "",
        f"MADE, not recorded: the output of {version} ({where}, commit {r.commit}, {r.date}) for the calls below, "
        f"reproduced from the printf formats of its source ({SOURCE}) for the made-up drives of "
        "tools/formats/drives.py. No smartmontools code is copied; only the printed layout is.",
        "",
        f"What {'this release' if r.name != 'current' else 'the current source'} changed in this output: "
        f"{output.changes[r.name]}.",
        "",
        "| file | the call | exit status |",
        "|---|---|---|",
    ]
    for argv, _, rc in calls:
        lines.append(f"| `{fixture_name(argv)}.out` | `smartctl {' '.join(argv)}` | {rc} |")
    lines += ["", "The source lines it reproduces:", ""]
    lines += [f"- {c.render()}" for c in matrix.cites(output, r, calls)]
    lines += ["", f"How ssdwear reads it: {output.reads}.", "",
              "Written by tools/make_formats.py (`python3 -m tools.make_formats`); tests/unit/smartctl/test_formats.py "
              "checks that this folder is what it writes and parses every file here.", ""]
    return "\n".join(lines)


def _top_readme() -> str:
    rows = [f"| `{o.name}` | {o.what} | {', '.join(r.name for r in o.releases())} |" for o in matrix.OUTPUTS]
    return "\n".join([
        "# fixtures/formats: every smartctl output ssdwear parses, as each release that changed it prints it",
        "",
        "MADE, not recorded: one folder per output and smartctl release, from the first release that printed the "
        "output to 7.5 and the current source, with every release between that changed a line ssdwear reads. Each "
        f"is reproduced from that release's source ({SOURCE}, tags RELEASE_X_Y; the current source is commit "
        f"{RELEASES['current'].commit}) and its NEWS and ChangeLog (doc/old/NEWS-5.0-7.5.txt, "
        "doc/old/ChangeLog-*.txt); each folder's README names the release, the commit and the source lines. The "
        "drives are made up (tools/formats/drives.py): the same values in every release, so that one test per "
        "folder can ask every release for the same figures (tests/unit/smartctl/test_formats.py).",
        "",
        "| output | what | releases |",
        "|---|---|---|",
        *rows,
        "",
        "Files are named after the call they replace (`smartctl <argv, '/' -> '_'>.out`, `.rc`). Where ssdwear "
        "itself makes the call on that release (the text fallbacks of 5.39-6.6, the log page, the scan, the "
        "JSON reads) a folder is a machine `--replay` can read, with what the release answers to `--json` when it "
        "has none (`=======> UNRECOGNIZED OPTION: json=c`, exit status 1).",
        "",
        "smartctl 5.0 (2002-10-10) printed no banner and no section header: its `-i` says nothing that is "
        "smartctl's own, and ssdwear refuses it ('not smartctl output', ata-info/5.0); its attribute table it knows "
        "by the table's header (ata-attributes/5.0). Not in the "
        "matrix: `-f hex` attribute tables (5.43 on), which ssdwear never asks for; the lines ssdwear does not read; "
        "the messages JSON carries (`smartctl.messages`, the same since 7.0).",
        "",
        "To add a release: read what it changed (its NEWS entry, `git log -S'TEXT' RELEASE_A..RELEASE_B -- FILE` "
        "on the lines an output prints), add it to `tools/formats/releases.py` (tag, commit, date, SVN revision, "
        "platform), give the output's renderer in tools/formats/ the new layout and the cited lines, add the "
        "release to the output's `changes` in `tools/formats/matrix.py`, run `python3 -m tools.make_formats`, "
        "`python3 -m tools.make_formats --verify-source GITDIR` against a clone, and add the release's expected "
        "figures to tests/unit/smartctl/test_formats.py.",
        "",
        "Written by tools/make_formats.py (`python3 -m tools.make_formats`).",
        "",
    ])


def build() -> dict[str, bytes]:
    """Every file of fixtures/formats/, by path relative to it."""
    files: dict[str, bytes] = {"README.md": _top_readme().encode()}
    for output in matrix.OUTPUTS:
        for r in output.releases():
            calls = output.calls(r)
            folder = f"{output.name}/{r.name}"
            files[f"{folder}/README.md"] = _folder_readme(output, r, calls).encode()
            for argv, out, rc in calls:
                stem = fixture_name(argv)
                files[f"{folder}/{stem}.out"] = out.encode()
                files[f"{folder}/{stem}.rc"] = f"{rc}\n".encode()
    return files


def on_disk(here: Path = HERE) -> dict[str, bytes]:
    return {str(p.relative_to(here)): p.read_bytes() for p in sorted(here.rglob("*")) if p.is_file()}


def write(here: Path = HERE) -> int:
    files = build()
    if here.exists():
        shutil.rmtree(here)
    for name, data in files.items():
        path = here / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {len(files)} files to {here}")
    return 0


def check(here: Path = HERE) -> int:
    made, kept = build(), on_disk(here)
    wrong = sorted(set(made) ^ set(kept)) + sorted(n for n in set(made) & set(kept) if made[n] != kept[n])
    for name in wrong:
        print(f"{name}: differs from what tools/make_formats.py writes (run it)")
    return 1 if wrong else 0


def all_cites() -> set[Cite]:
    found: set[Cite] = set()
    for output in matrix.OUTPUTS:
        for r in output.releases():
            found.update(matrix.cites(output, r, output.calls(r)))
    return found


def verify_source(gitdir: Path) -> int:
    """Each cited line, at its release's commit, must contain the cited text."""
    bad = 0
    cache: dict[tuple[str, str], list[str]] = {}
    for c in sorted(all_cites(), key=lambda c: (c.at, c.path, c.line)):
        key = (RELEASES[c.at].commit, c.path)
        if key not in cache:
            shown = subprocess.run(["git", "--git-dir", str(gitdir), "show", f"{key[0]}:{c.path}"],
                                   capture_output=True, text=True, errors="replace")
            cache[key] = shown.stdout.splitlines() if shown.returncode == 0 else []
        text = cache[key]
        if not 0 < c.line <= len(text) or c.text not in text[c.line - 1]:
            print(f"{c.at} {c.path}:{c.line}: does not hold {c.text!r}")
            bad += 1
    print(f"{len(all_cites()) - bad} of {len(all_cites())} cited lines hold their text")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write fixtures/formats/, the smartctl format-version matrix.")
    ap.add_argument("--check", action="store_true", help="compare fixtures/formats/ with what this writes")
    ap.add_argument("--verify-source", type=Path, metavar="GITDIR", help="check the cited lines against a clone")
    args = ap.parse_args(argv)
    if args.verify_source:
        return verify_source(args.verify_source)
    return check() if args.check else write()


if __name__ == "__main__":
    sys.exit(main())
