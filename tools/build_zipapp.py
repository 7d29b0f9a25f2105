#!/usr/bin/env python3
"""Build ssdwear.pyz: one file that runs as `python3 -I ssdwear.pyz report` (or `./ssdwear.pyz report`) on any
Python >= 3.10 with nothing else installed (TrueNAS SCALE, Proxmox, Unraid, an appliance whose package manager is
locked), made with the standard library's zipapp from the wheel and its dependencies' pure-Python wheels.

    python3 tools/build_zipapp.py [--wheel dist/ssdwear-X-py3-none-any.whl] [--out ssdwear.pyz]

Without --wheel it builds one with `python -m build` (the sdist, then the wheel from it). The dependencies are the
wheel's own Requires-Dist, resolved by pip for Python 3.10 and any platform, pure-Python wheels only, so the file
holds no compiled code. PyYAML publishes only compiled wheels: its Python modules go in without the compiled C
loader, and yaml falls back to its pure-Python loader, which ssdwear uses when CSafeLoader is missing. Every
package keeps its dist-info (with its licence file) inside the archive.

Isolated mode (-I), always: without it Python runs the .pth files of $HOME's user site-packages at start-up, before
the archive is opened, and root with another user's HOME (a sudo rule that keeps HOME) would run that user's code.
The shebang is `#!/usr/bin/env -S python3 -I`, every documented invocation is `python3 -I ssdwear.pyz`, and the
archive started as root without it (user site-packages enabled) exits 1 with one line saying so: too late to stop
those files (they have run by then), but the job fails loudly until its command line is fixed.
"""

from __future__ import annotations

import argparse
import compileall
import email.parser
import importlib.util
import py_compile
import re
import shutil
import subprocess
import sys
import tempfile
import zipapp
import zipfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
# Any interpreter from 3.10 on: pip picks releases that still support it, as py3-none-any wheels.
PURE = ["--only-binary", ":all:", "--implementation", "py", "--abi", "none", "--platform", "any",
        "--python-version", "3.10"]
COMPILED_ONLY = {"pyyaml"}  # no pure wheel published: its Python part only (add_python_part)


# `env -S` splits the rest into words (coreutils 8.30, FreeBSD's env): python3 found on PATH, run isolated.
INTERPRETER = "/usr/bin/env -S python3 -I"
# The archive's entry point: an interpreter too old gets one line, not a traceback from somewhere inside; root
# without isolated mode (the user site-packages of HOME active: its .pth files have run) gets one line too.
MAIN = """import os
import site
import sys

if sys.version_info < (3, 10):
    sys.exit("ssdwear needs Python 3.10 or later; %s is %s: run the archive with a newer python3"
             % (sys.executable, sys.version.split()[0]))
if site.ENABLE_USER_SITE is True and hasattr(os, "geteuid") and os.geteuid() == 0:
    sys.exit("ssdwear.pyz: as root, run it as python3 -I %s: without -I, Python runs the .pth files of %s "
             "(HOME's user site-packages) before ssdwear starts" % (sys.argv[0], site.getusersitepackages()))
from {module} import {function}

{function}()
"""


# What the builds need of the interpreter running them, and the Debian package that brings it; --no-install-recommends
# keeps out what the recommends pull in (python3-pip's: build-essential and python3-dev, dozens of packages).
BUILD_MODULES = {"pip": ("python3-pip", "fetches the dependencies"), "build": ("python3-build", "makes the wheel")}


def missing_module(tool: str, wheel_given: bool) -> str | None:
    """One line saying what to install, when this interpreter lacks pip (every build fetches from PyPI) or, without
    --wheel, the build module (`python -m build` makes the wheel); None when it has what it needs."""
    for module, (package, does) in BUILD_MODULES.items():
        if (module == "pip" or not wheel_given) and importlib.util.find_spec(module) is None:
            instead = "give a wheel with --wheel FILE (pip wheel --no-deps makes one)" if module == "build" else \
                "run it with a venv's python"
            return (f"{tool}: {sys.executable} has no {module} module, which {does}: apt-get install "
                    f"--no-install-recommends {package} (Debian, Ubuntu), or {instead}")
    return None


def run_checked(tool: str, build: Callable[[], Path]) -> Path:
    """build(), with a failed command (pip, build, dpkg-buildpackage) said in one line after its own output."""
    try:
        return build()
    except subprocess.CalledProcessError as e:
        command = " ".join(str(a) for a in e.cmd[:4])
        raise SystemExit(f"{tool}: {command} ... failed (exit {e.returncode}): see its output above") from None


def build_wheel(out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], check=True,
                   stdout=subprocess.DEVNULL)
    [wheel] = out.glob("ssdwear-*.whl")
    return wheel


def requirements(wheel: Path) -> list[str]:
    """The wheel's Requires-Dist, without the extras' ones."""
    with zipfile.ZipFile(wheel) as z:
        [name] = [n for n in z.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = email.parser.Parser().parsestr(z.read(name).decode())
    return [r for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r]


def entry_point(wheel: Path) -> str:
    with zipfile.ZipFile(wheel) as z:
        [name] = [n for n in z.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = z.read(name).decode()
    return re.search(r"^ssdwear\s*=\s*(\S+)$", text, re.M).group(1)  # type: ignore[union-attr]


def project(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def add_python_part(requirement: str, stage: Path, work: Path) -> None:
    """A compiled-only project's pure-Python package, from its wheel for this machine without the compiled modules
    (PyYAML: yaml/*.py, the same files as lib/yaml in its sdist; not _yaml, the C loader's shim), and its
    dist-info's METADATA and licence."""
    subprocess.run([*PIP, "download", "--no-deps", "--only-binary", ":all:", "--python-version", "3.10",
                    "--dest", str(work), requirement], check=True)
    [wheel] = work.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            top, _, rest = name.partition("/")
            keep = (top == "yaml" and name.endswith(".py")) or (
                top.endswith(".dist-info") and (rest == "METADATA" or "LICENSE" in rest))
            if keep:
                target = stage / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(name))
    if not (stage / "yaml" / "__init__.py").is_file():
        raise SystemExit(f"build_zipapp: {wheel.name} has no yaml/__init__.py: see how that wheel is laid out now")


def stage_tree(wheel: Path, stage: Path, work: Path) -> None:
    needs = requirements(wheel)
    pure = [r for r in needs if project(r) not in COMPILED_ONLY]
    # the dependencies and theirs (pure wheels for any platform), then the wheel itself without its dependencies
    subprocess.run([*PIP, "install", "--no-compile", "--target", str(stage), *PURE, *pure], check=True)
    shutil.rmtree(stage / "bin", ignore_errors=True)  # console scripts: the archive is the command
    subprocess.run([*PIP, "install", "--no-compile", "--no-deps", "--target", str(stage), *PURE, str(wheel)],
                   check=True)
    for requirement in needs:
        if project(requirement) in COMPILED_ONLY:
            add_python_part(requirement, stage, work / project(requirement))
    shutil.rmtree(stage / "bin", ignore_errors=True)
    shutil.rmtree(stage / "share", ignore_errors=True)  # the wheel's man page and completions: not run from here
    compiled = [p for p in stage.rglob("*") if p.suffix in (".so", ".pyd", ".dylib")]
    if compiled:
        raise SystemExit(f"build_zipapp: compiled code in the staged tree: {compiled[:3]}")


def build(wheel: Path, out: Path, bytecode: bool = True) -> Path:
    with tempfile.TemporaryDirectory(prefix="ssdwear-zipapp.") as tmp:
        work = Path(tmp)
        stage = work / "stage"
        stage_tree(wheel, stage, work)
        for cache in stage.rglob("__pycache__"):
            shutil.rmtree(cache)
        if bytecode:
            # zipimport cannot write bytecode, so every start would compile every module again (twice the
            # start-up time): it reads module.pyc beside module.py, when its magic number is the running
            # interpreter's. Compiled by this interpreter (its minor version benefits; any other reads the .py).
            compileall.compile_dir(stage, quiet=1, legacy=True,
                                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        module, function = entry_point(wheel).split(":")
        (stage / "__main__.py").write_text(MAIN.format(module=module, function=function))
        zipapp.create_archive(stage, out, interpreter=INTERPRETER, compressed=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wheel", type=Path, help="the ssdwear wheel (default: build one)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "ssdwear.pyz")
    parser.add_argument("--no-bytecode", action="store_true",
                        help=f"leave out the bytecode for Python {sys.version_info.major}.{sys.version_info.minor} "
                             "(half the size, twice the start-up time)")
    args = parser.parse_args()
    if (missing := missing_module("build_zipapp", args.wheel is not None)) is not None:
        raise SystemExit(missing)
    args.out.parent.mkdir(parents=True, exist_ok=True)

    def make() -> Path:
        with tempfile.TemporaryDirectory(prefix="ssdwear-wheel.") as tmp:
            wheel = args.wheel or build_wheel(Path(tmp))
            return build(wheel.resolve(), args.out, bytecode=not args.no_bytecode)

    out = run_checked("build_zipapp", make)
    out.chmod(0o755)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
