#!/usr/bin/env python3
"""Build the Debian package ssdwear_VERSION-1_all.deb with Debian's own tooling (dpkg-buildpackage, debhelper,
dh-python), from the wheel.

    python3 tools/build_deb.py [--wheel dist/ssdwear-X-py3-none-any.whl] [--out dist]

Needs debhelper and dh-python (contrib/install-deps.sh --test installs them). Without --wheel it builds one with
`python -m build`. The wheel's package goes whole into /usr/share/ssdwear (a private directory: Debian's Python
policy for an application's own modules), its data files to their Debian places, and the command is
/usr/bin/ssdwear. Its dependencies come from Debian (python3-click, python3-rich, python3-yaml, and pySMART's
python3-chardet and python3-humanfriendly), with the versions the wheel asks for; pySMART, which Debian does
not package, is included in /usr/share/ssdwear from its PyPI wheel. The packaging files are contrib/debian/;
the changelog and the copyright file are written here, from the version, the licence and pySMART's headers.
"""

from __future__ import annotations

import argparse
import email.utils
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_zipapp import PIP, PURE, build_wheel, entry_point, missing_module, project, requirements, run_checked

ROOT = Path(__file__).resolve().parent.parent
DEBIAN = ROOT / "contrib" / "debian"
PRIVATE = "usr/share/ssdwear"
# A requirement of the wheel (or of a vendored package) -> the Debian package that satisfies it.
DEBIAN_PACKAGES = {"click": "python3-click", "rich": "python3-rich", "pyyaml": "python3-yaml",
                   "chardet": "python3-chardet", "humanfriendly": "python3-humanfriendly"}
VENDORED = {"pysmart"}  # not in Debian: its wheel goes into PRIVATE
# The wheel's data files (under share/) -> where Debian's man-db, bash-completion, zsh and fish read them.
DATA_FILES = {
    "share/man/man1/ssdwear.1": "usr/share/man/man1/ssdwear.1",
    "share/bash-completion/completions/ssdwear.bash": "usr/share/bash-completion/completions/ssdwear",
    "share/zsh/site-functions/_ssdwear": "usr/share/zsh/vendor-completions/_ssdwear",
    "share/fish/vendor_completions.d/ssdwear.fish": "usr/share/fish/vendor_completions.d/ssdwear.fish",
}
UNITS = ROOT / "contrib" / "systemd"
# Issue 20's smartd warning script: installed as /etc/smartmontools/run.d/05ssdwear (a conffile, like
# smartmontools' own run.d scripts): run-parts runs them in name order and 10mail sends the message, so the
# script must come before it to add to the mail.
SMARTD_RUN_D = ROOT / "contrib" / "smartd" / "run.d-ssdwear"
SMARTD_RUN_D_NAME = "05ssdwear"  # the name contrib/install.sh gives it too
LAUNCHER = """#!/usr/bin/python3 -I
# ssdwear, from the Debian package: the program and pySMART live in /{private}.
import sys

sys.path.insert(0, "/{private}")
from {module} import {function}

sys.exit({function}())
"""


def debian_dependency(requirement: str) -> str:
    """'click>=8.1' -> 'python3-click (>= 8.1)'; an upper bound becomes a second relation."""
    name = project(requirement)
    if name not in DEBIAN_PACKAGES:
        raise SystemExit(f"build_deb: no Debian package known for requirement {requirement!r}: add it to "
                         "DEBIAN_PACKAGES (or VENDORED) in tools/build_deb.py")
    spec = re.split(r";", requirement, maxsplit=1)[0][len(name):].strip()
    relations = []
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        op, version = re.fullmatch(r"(>=|<=|==|<|>)\s*(\S+)", clause).groups()  # type: ignore[union-attr]
        relations.append(f"{DEBIAN_PACKAGES[name]} ({ {'>=': '>=', '<=': '<=', '==': '=', '<': '<<', '>': '>>'}[op]} "
                         f"{version})")
    return ", ".join(relations) or DEBIAN_PACKAGES[name]


def unpack(wheel: Path, root: Path) -> None:
    """The wheel's modules into PRIVATE, its data files to DATA_FILES' places; dist-info and scripts stay out."""
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            top, _, rest = name.partition("/")
            if top.endswith(".dist-info") or name.endswith("/"):
                continue
            if top.endswith(".data"):
                scheme, _, path = rest.partition("/")
                if scheme == "scripts":
                    continue
                if scheme != "data" or path not in DATA_FILES:
                    raise SystemExit(f"build_deb: {wheel.name} carries {name}: give it a place in DATA_FILES")
                target = root / DATA_FILES[path]
            else:
                target = root / PRIVATE / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(z.read(name))


def vendor(requirement: str, root: Path, work: Path) -> tuple[str, list[str], list[str]]:
    """A pure wheel of `requirement` from PyPI into PRIVATE: (its version, its own requirements, its copyright
    holders as its files state them)."""
    subprocess.run([*PIP, "download", "--no-deps", *PURE, "--dest", str(work), requirement], check=True)
    [wheel] = work.glob("*.whl")
    version = wheel.name.split("-")[1]
    holders: list[str] = []
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if name.endswith(".py"):
                text = z.read(name).decode("utf-8", "replace")
                for line in re.findall(r"(?:SPDX-FileCopyrightText:|Copyright \([cC]\))\s*(.+)", text):
                    holder = line.strip()
                    if holder not in holders:
                        holders.append(holder)
    unpack(wheel, root)
    return version, requirements(wheel), holders


def copyright_years_holders() -> str:
    match = re.search(r"^Copyright \(c\) (.+)$", (ROOT / "LICENSE").read_text(), re.M)
    return match.group(1).strip() if match else "the ssdwear authors"


def expat_text() -> str:
    """LICENSE's permission notice as a DEP-5 license paragraph (the lines after the copyright line)."""
    text = (ROOT / "LICENSE").read_text().split("\n\n", 2)[2].strip()
    return "\n".join(" " + line if line.strip() else " ." for line in text.splitlines())


def debian_dir(src: Path, wheel: Path, version: str, depends: list[str], pysmart: tuple[str, list[str]]) -> None:
    maintainer = f"{os.environ.get('DEBFULLNAME', 'The ssdwear authors')} <" \
                 f"{os.environ.get('DEBEMAIL', 'ssdwear@maintainers.invalid')}>"
    debian = src / "debian"
    shutil.copytree(DEBIAN, debian)
    control = (debian / "control.in").read_text()
    (debian / "control").write_text(control.replace("@MAINTAINER@", maintainer)
                                    .replace("@DEPENDS@", ", ".join(depends)))
    when = email.utils.formatdate(float(os.environ.get("SOURCE_DATE_EPOCH", time.time())))
    (debian / "changelog").write_text(
        f"ssdwear ({version}-1) unstable; urgency=medium\n\n"
        f"  * ssdwear {version}, packaged from its wheel by tools/build_deb.py.\n"
        f"  * What changed upstream: /usr/share/doc/ssdwear/changelog.gz.\n\n -- {maintainer}  {when}\n")
    copyright_in = (debian / "copyright.in").read_text()
    holders = "\n ".join(pysmart[1])
    (debian / "copyright").write_text(
        copyright_in.replace("@MAINTAINER@", maintainer).replace("@VERSION@", version)
        .replace("@COPYRIGHT@", copyright_years_holders()).replace("@PYSMART_VERSION@", pysmart[0])
        .replace("@PYSMART_COPYRIGHT@", holders).replace("@EXPAT@", expat_text()))
    for template in ("control.in", "copyright.in"):
        (debian / template).unlink()
    (debian / "ssdwear.docs").write_text("README.md\ndocs\n")  # the README links docs/*.md
    (debian / "ssdwear.examples").write_text("contrib/grafana/ssdwear.json\ncontrib/prometheus/ssdwear-alerts.yml\n")


def lay_out(wheel: Path, src: Path, work: Path) -> tuple[str, list[str], tuple[str, list[str]]]:
    """The source tree dpkg-buildpackage builds: root/ (what the package installs), the files debian/ names."""
    root = src / "root"
    unpack(wheel, root)
    depends, pysmart = [], ("", [])
    for requirement in requirements(wheel):
        if project(requirement) in VENDORED:
            vendored_version, more, holders = vendor(requirement, root, work / project(requirement))
            pysmart = (vendored_version, holders)
            depends += [debian_dependency(r) for r in more if "extra ==" not in r]
        else:
            depends.append(debian_dependency(requirement))
    module, function = entry_point(wheel).split(":")
    launcher = root / "usr" / "bin" / "ssdwear"
    launcher.parent.mkdir(parents=True)
    launcher.write_text(LAUNCHER.format(private=PRIVATE, module=module, function=function))
    launcher.chmod(0o755)
    units = root / "lib" / "systemd" / "system"
    units.mkdir(parents=True)
    for unit in sorted(UNITS.glob("ssdwear-*")):
        text = unit.read_text()
        if unit.suffix == ".service":
            if text.count("ExecStart=/usr/local/bin/ssdwear ") != 1:
                raise SystemExit(f"build_deb: {unit} does not run /usr/local/bin/ssdwear once")
            text = text.replace("/usr/local/bin/ssdwear", "/usr/bin/ssdwear")  # ExecStart and its condition
        (units / unit.name).write_text(text)
    (root / "etc" / "ssdwear").mkdir(parents=True)
    shutil.copy(ROOT / "contrib" / "config.yaml.example", root / "etc" / "ssdwear" / "config.yaml")
    if SMARTD_RUN_D.is_file():
        run_d = root / "etc" / "smartmontools" / "run.d" / SMARTD_RUN_D_NAME
        run_d.parent.mkdir(parents=True)
        shutil.copy(SMARTD_RUN_D, run_d)
        run_d.chmod(0o755)
    for name in ("README.md", "CHANGELOG.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "docs", src / "docs")
    shutil.copytree(ROOT / "contrib", src / "contrib", ignore=shutil.ignore_patterns("debian"))
    version = wheel.name.split("-")[1]
    return version, depends, pysmart


def build(wheel: Path, out: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix="ssdwear-deb.") as tmp:
        work = Path(tmp)
        version = wheel.name.split("-")[1]
        src = work / f"ssdwear-{version}"
        version, depends, pysmart = lay_out(wheel, src, work)
        debian_dir(src, wheel, version, depends, pysmart)
        proc = subprocess.run(["dpkg-buildpackage", "--build=binary", "--no-sign"], cwd=src, capture_output=True,
                              text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-4000:])
            raise SystemExit(f"build_deb: dpkg-buildpackage failed (exit {proc.returncode}); see above")
        [deb] = work.glob("ssdwear_*_all.deb")
        target = out / deb.name
        shutil.copy(deb, target)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="the ssdwear wheel (default: build one)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="the folder for the .deb (default: dist)")
    args = parser.parse_args()
    for tool in ("dpkg-buildpackage", "dh", "dh_python3"):
        if shutil.which(tool) is None:
            raise SystemExit(f"build_deb: {tool} not found: apt-get install debhelper dh-python "
                             "(sh contrib/install-deps.sh --test installs them)")
    if (missing := missing_module("build_deb", args.wheel is not None)) is not None:
        raise SystemExit(missing)
    args.out.mkdir(parents=True, exist_ok=True)

    def make() -> Path:
        with tempfile.TemporaryDirectory(prefix="ssdwear-wheel.") as tmp:
            wheel = args.wheel or build_wheel(Path(tmp))
            return build(wheel.resolve(), args.out.resolve())

    print(f"wrote {run_checked('build_deb', make)}")


if __name__ == "__main__":
    main()
