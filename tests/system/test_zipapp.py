"""ssdwear.pyz, the one file for appliances (tools/build_zipapp.py): built from the wheel, runnable as `python3 -I
ssdwear.pyz report` (or through its shebang) by a bare interpreter (-I -S: no site-packages, no environment) from a
read-only place that it never writes to, with PyYAML's pure-Python loader and the package data read from inside the
archive; never with a user's site-packages (issue 26.1)."""

from __future__ import annotations

import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.paths import FIXTURES, ROOT
from support.tools import require

pytestmark = pytest.mark.slow  # builds the wheel and the archive (~15 s)
NOBODY = 65534


@pytest.fixture(scope="module")
def pyz(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    [wheel] = dist.glob("*.whl")
    out = tmp_path_factory.mktemp("pyz") / "ssdwear.pyz"
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_zipapp.py"), "--wheel", str(wheel), "--out",
                           str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return out


@pytest.fixture
def shelf(pyz: Path) -> Iterator[Path]:
    """A read-only directory holding the archive, the Intel fixtures and an empty HOME; as root the archive runs
    as nobody, for whom read-only means read-only."""
    place = Path(tempfile.mkdtemp(prefix="ssdwear-ro."))
    try:
        shutil.copy(pyz, place / "ssdwear.pyz")
        shutil.copytree(FIXTURES / "intel", place / "intel")
        (place / "home").mkdir()
        (place / "config.yaml").write_text("workers: 2\nthresholds:\n  years_remaining: {warning: 3, critical: 1}\n")
        for path in [place, *place.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        yield place
    finally:
        for path in [place, *place.rglob("*")]:
            path.chmod(0o755)
        shutil.rmtree(place)


def run_bare(python: str, place: Path, *args: str, nobody: bool = True) -> subprocess.CompletedProcess[str]:
    as_nobody = {"user": NOBODY, "group": NOBODY, "extra_groups": []} if nobody and os.geteuid() == 0 else {}
    env = {"PATH": "/usr/bin:/bin", "HOME": str(place / "home"), "LANG": "C.UTF-8"}
    return subprocess.run([python, "-I", "-S", str(place / "ssdwear.pyz"), *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=place, **as_nobody)  # type: ignore[call-overload]


def snapshot(place: Path) -> dict[str, int]:
    return {str(p.relative_to(place)): p.stat().st_mtime_ns for p in [place, *place.rglob("*")]}


def test_the_archive_holds_the_package_data_and_no_compiled_code(pyz: Path) -> None:
    with zipfile.ZipFile(pyz) as z:
        names = z.namelist()
    for wanted in ("__main__.py", "ssdwear/drives/ratings.json", "ssdwear/wear/calibration.json", "yaml/__init__.py",
                   "click/__init__.py", "rich/__init__.py", "pySMART/__init__.py"):
        assert wanted in names, wanted
    assert not [n for n in names if n.endswith((".so", ".pyd", ".dylib"))]
    assert not [n for n in names if n.startswith("_yaml/")]  # the C loader's shim is left out
    assert any(n.startswith("pysmart-") and "LICENSE" in n for n in names)  # LGPL: its licence travels with it
    with open(pyz, "rb") as handle:
        assert handle.readline() == b"#!/usr/bin/env -S python3 -I\n"


def _user_site_trap(python: str, tmp_path: Path) -> tuple[dict[str, str], Path]:
    """A real HOME whose user site-packages holds a .pth file that leaves a marker when Python runs it."""
    home, marker = tmp_path / "home", tmp_path / "the-pth-file-ran"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8"}
    user_site = Path(subprocess.run([python, "-c", "import site; print(site.getusersitepackages())"], env=env,
                                    capture_output=True, text=True, check=True).stdout.strip())
    assert user_site.is_relative_to(home)
    user_site.mkdir(parents=True)
    (user_site / "zz-trap.pth").write_text(f"import pathlib; pathlib.Path({str(marker)!r}).write_text('ran')\n")
    subprocess.run([python, "-c", "pass"], env=env, check=True, timeout=60)
    assert marker.read_text() == "ran"  # the trap works: a plain python3 runs the file at start-up
    marker.unlink()
    return env, marker


def test_the_archive_never_runs_a_users_pth_file(pyz: Path, tmp_path: Path) -> None:
    """Issue 26.1: run through its shebang or as documented (`python3 -I ssdwear.pyz`), the user site-packages of
    HOME are never read: the .pth file does not run."""
    python = require("/usr/bin/python3")
    env, marker = _user_site_trap(python, tmp_path)
    for how in ([str(pyz)], [python, "-I", str(pyz)]):
        proc = subprocess.run([*how, "--version"], env=env, capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stdout.split(", ")[0]) == (0, "ssdwear"), proc.stderr
        assert not marker.exists(), how


def test_as_root_without_isolated_mode_the_archive_stops_in_one_line(pyz: Path, tmp_path: Path) -> None:
    """The second line of defence: the .pth file has run (nothing inside the archive can stop that), and ssdwear
    refuses to go on as root, saying how to start it."""
    if os.geteuid() != 0:
        pytest.skip("the refusal is root's (the tests run as root in CI)")
    python = require("/usr/bin/python3")
    env, marker = _user_site_trap(python, tmp_path)
    proc = subprocess.run([python, str(pyz), "--version"], env=env, capture_output=True, text=True, timeout=60)
    assert marker.exists()
    assert (proc.returncode, proc.stdout) == (1, "")
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"ssdwear.pyz: as root, run it as python3 -I {pyz}: without -I, Python runs the .pth "
                           f"files of {tmp_path / 'home'}/")
    # -s alone (no user site-packages) is not refused: the files are not read then
    marker.unlink()
    quiet = subprocess.run([python, "-s", str(pyz), "--version"], env=env, capture_output=True, text=True, timeout=60)
    assert quiet.returncode == 0 and not marker.exists(), quiet.stderr


def test_every_documented_way_to_run_the_archive_is_isolated() -> None:
    """README's install table, docs/install.md, the FreeBSD periodic script's example and build_zipapp's docstring:
    `python3 -I ssdwear.pyz`, never `python3 ssdwear.pyz`."""
    places = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "tools" / "build_zipapp.py",
              ROOT / "contrib" / "freebsd" / "periodic" / "daily" / "410.status-ssdwear"]
    run = re.compile(r"python3?(?:\.\d+)?((?:\s+-\w+)*)\s+\S*ssdwear\.pyz")  # the interpreter's flags before it
    runs = {str(p.relative_to(ROOT)): run.findall(" ".join(p.read_text().split())) for p in places}
    assert all(runs[name] for name in ("README.md", "docs/install.md", "tools/build_zipapp.py",
                                       "contrib/freebsd/periodic/daily/410.status-ssdwear"))
    assert {name: flags for name, found in runs.items() for flags in found if "-I" not in flags.split()} == {}


def test_a_bare_interpreter_reports_from_a_read_only_place_and_writes_nothing(shelf: Path) -> None:
    python = require("/usr/bin/python3")
    before = snapshot(shelf)
    proc = run_bare(python, shelf, "--no-history", "--replay", "intel", "--config", "config.yaml", "report",
                    "--represents", "1d")
    assert proc.returncode == 0, proc.stderr
    assert "INTEL SSDSA2BZ200G3" in proc.stdout and "18.7 (17.5-20.0)" in proc.stdout
    assert snapshot(shelf) == before  # no __pycache__, no extracted copy, nothing in HOME


def test_yaml_works_without_its_c_loader_inside_the_archive(shelf: Path) -> None:
    python = require("/usr/bin/python3")
    probe = run_bare(python, shelf, "--version")
    assert probe.stdout.startswith("ssdwear, version ")
    code = ("import sys; sys.path.insert(0, 'ssdwear.pyz'); import yaml; "
            "print(yaml.__with_libyaml__, hasattr(yaml, 'CSafeLoader'), yaml.__file__)")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(shelf / "home")}
    yaml_probe = subprocess.run([python, "-I", "-S", "-c", code], capture_output=True, text=True, cwd=shelf,
                                env=env, timeout=60)
    assert yaml_probe.stdout.split()[:2] == ["False", "False"]
    assert yaml_probe.stdout.split()[2].startswith("ssdwear.pyz/yaml/__init__.py")  # .pyc: the archive's bytecode
    # the config (a YAML file) is read by the pure-Python loader: its thresholds (critical below 1 year) turn the
    # Intel 710's 0.8 years unscaled from WARNING (the default: critical below 0.5) into CRITICAL
    def state(*config: str) -> str:
        proc = run_bare(python, shelf, "--no-history", "--replay", "intel", *config, "check", "-d", "sat", "/dev/sda")
        return proc.stdout.split()[1]

    assert (state(), state("--config", "config.yaml")) == ("WARNING", "CRITICAL")
    doc = run_bare(python, shelf, "--no-history", "--replay", "intel", "report", "--format", "yaml", "-d", "sat",
                   "/dev/sda")
    assert doc.returncode == 0 and "model: INTEL SSDSA2BZ200G3" in doc.stdout  # the pure-Python dumper


def pythons() -> list[str]:
    """Other interpreters this machine has (pyenv's), for 'any Python >= 3.10'."""
    found = sorted(glob.glob("/root/.pyenv/versions/3.1[0-9].*/bin/python3"))
    return found or ["none"]


@pytest.mark.parametrize("python", pythons())
def test_the_archive_runs_on_each_python_from_3_10(shelf: Path, python: str) -> None:
    """pyenv's interpreters live under /root, which nobody cannot enter: these run as the user running the tests,
    and the place is checked unchanged instead."""
    if python == "none":
        pytest.skip("no other Python 3.10+ on this machine")
    before = snapshot(shelf)
    proc = run_bare(python, shelf, "--no-history", "--replay", "intel", "report", "--represents", "1d", nobody=False)
    assert proc.returncode == 0, proc.stderr
    assert "18.7 (17.5-20.0)" in proc.stdout
    assert snapshot(shelf) == before


def test_an_older_python_gets_one_line(shelf: Path) -> None:
    old = sorted(glob.glob("/root/.pyenv/versions/3.[6-9].*/bin/python3"))
    if not old:
        pytest.skip("no Python older than 3.10 on this machine")
    proc = run_bare(old[-1], shelf, "report", nobody=False)
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert line.startswith("ssdwear needs Python 3.10 or later; ") and "run the archive with a newer python3" in line


def timed(command: list[str], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, timeout=120, check=True)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def test_start_up_time_against_the_installed_command(pyz: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Figures, not a timed assertion: the median of five runs each, printed."""
    python = require("/usr/bin/python3")
    installed = str(Path(sys.executable).with_name("ssdwear"))
    replay = ["--no-history", "--replay", str(FIXTURES / "intel"), "report"]
    figures = {
        "pyz --version": timed([python, "-I", "-S", str(pyz), "--version"]),
        "installed --version": timed([installed, "--version"]),
        "pyz report (replay)": timed([python, "-I", "-S", str(pyz), *replay]),
        "installed report (replay)": timed([installed, *replay]),
    }
    with capsys.disabled():
        print("\nstart-up, median of 5: " + ", ".join(f"{k} {v:.2f} s" for k, v in figures.items()))
    assert all(v > 0 for v in figures.values())
