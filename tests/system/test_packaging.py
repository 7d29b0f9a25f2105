"""The wheel and sdist for PyPI: `python -m build` makes both from a clean checkout, `twine check --strict` passes,
the version has one source, the data files (ratings, calibration, man page, completions) are inside, and `pipx
install` of the wheel gives a working `ssdwear` with Debian's own interpreter."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from support.paths import ROOT
from support.tools import require

import ssdwear

pytestmark = pytest.mark.slow  # python -m build (~10 s, once per run)
VERSION = ssdwear.__version__


def wheel_of(dist: Path) -> Path:
    [wheel] = dist.glob("*.whl")
    return wheel


def test_build_makes_one_wheel_and_one_sdist_named_after_the_one_version(dist: Path) -> None:
    assert sorted(p.name for p in dist.iterdir()) == [f"ssdwear-{VERSION}-py3-none-any.whl",
                                                      f"ssdwear-{VERSION}.tar.gz"]
    with zipfile.ZipFile(wheel_of(dist)) as z:
        metadata = z.read(f"ssdwear-{VERSION}.dist-info/METADATA").decode()
    assert re.search(rf"^Version: {re.escape(VERSION)}$", metadata, re.M)
    # the one source: ssdwear/model/version.py; pyproject names no version of its own
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = {attr = "ssdwear.model.version.__version__"}' in pyproject
    project = pyproject.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project, re.M)


def test_twine_finds_nothing_to_say_about_the_metadata_or_the_long_description(dist: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, sorted(dist.iterdir()))],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASSED") == 2


def test_the_wheel_holds_every_module_and_the_data_files(dist: Path) -> None:
    with zipfile.ZipFile(wheel_of(dist)) as z:
        names = set(z.namelist())
        data = f"ssdwear-{VERSION}.data/data/share/"
        shipped = {
            f"{data}man/man1/ssdwear.1": ROOT / "man" / "ssdwear.1",
            f"{data}bash-completion/completions/ssdwear.bash": ROOT / "completions" / "ssdwear.bash",
            f"{data}zsh/site-functions/_ssdwear": ROOT / "completions" / "_ssdwear",
            f"{data}fish/vendor_completions.d/ssdwear.fish": ROOT / "completions" / "ssdwear.fish",
        }
        for name, source in shipped.items():
            assert z.read(name) == source.read_bytes(), name
    package = {str(p.relative_to(ROOT)) for p in (ROOT / "ssdwear").rglob("*")
               if p.is_file() and "__pycache__" not in p.parts}
    assert {"ssdwear/drives/ratings.json", "ssdwear/drives/ratings.yaml", "ssdwear/wear/calibration.json",
            "ssdwear/py.typed"} <= package
    assert package <= names  # every module and data file of the package, whatever the layout
    assert f"ssdwear-{VERSION}.dist-info/licenses/LICENSE" in names


def test_the_sdist_holds_what_builds_and_tests_the_package(dist: Path) -> None:
    with tarfile.open(dist / f"ssdwear-{VERSION}.tar.gz") as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for wanted in ("pyproject.toml", "README.md", "docs/README.md", "docs/exit-codes.md", "LICENSE", "CHANGELOG.md",
                   "man/ssdwear.1", "tools/make_manpage.py", "contrib/install.sh", "completions/ssdwear.bash",
                   "tests/conftest.py", "fixtures/corpus/SOURCES.md", "fixtures/intel/README.md"):
        assert wanted in names, wanted
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)


def documented_pipx_for_root() -> dict[str, str]:
    """The variables of docs/install.md's pipx line for root (issue 25.10: pipx as root put the command in
    /root/.local/bin, where the shipped cron line and unit do not look)."""
    text = (ROOT / "docs" / "install.md").read_text()
    [line] = re.findall(r"^((?:PIPX_\w+=\S+ )+)pipx install ssdwear$", text, re.M)
    return dict(item.split("=", 1) for item in line.split())


def test_the_documented_pipx_install_for_root_puts_the_command_where_the_units_run_it() -> None:
    places = {os.path.dirname(argv[0]) for argv in (
        (ROOT / "contrib" / "cron.d-ssdwear").read_text().rsplit("&&", 1)[1].split(),
        [line.split("=", 1)[1] for line in (ROOT / "contrib" / "systemd" / "ssdwear-sample.service").read_text()
         .splitlines() if line.startswith("ExecStart=")])}
    assert places == {"/usr/local/bin"}
    assert documented_pipx_for_root() == {"PIPX_HOME": "/opt/pipx", "PIPX_BIN_DIR": "/usr/local/bin",
                                          "PIPX_MAN_DIR": "/usr/local/share/man"}


def test_pipx_installs_the_wheel_into_a_clean_home_and_the_command_works(dist: Path, tmp_path: Path) -> None:
    """On a machine with nothing but Debian's python3: pipx, with docs/install.md's variables for root (each place
    under a temporary root), makes the venv, puts the command in its bin dir and the man page where man looks (a
    recent pipx, PyPI's, links a wheel's share/man; Debian 12's 1.1.0 does not)."""
    python = require("/usr/bin/python3")
    places = {name: tmp_path / "root" / value.lstrip("/") for name, value in documented_pipx_for_root().items()}
    home, bindir, mandir = places["PIPX_HOME"], places["PIPX_BIN_DIR"], places["PIPX_MAN_DIR"]
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update({name: str(path) for name, path in places.items()}, HOME=str(tmp_path), PATH=f"{bindir}:/usr/bin:/bin")
    proc = subprocess.run([sys.executable, "-m", "pipx", "install", "--python", python, str(wheel_of(dist))],
                          env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    command = bindir / "ssdwear"
    version = subprocess.run([str(command), "--version"], capture_output=True, text=True, timeout=60, env=env)
    assert version.stdout.strip() == f"ssdwear, version {VERSION}"
    report = subprocess.run([str(command), "--no-history", "--fallback-replay", str(ROOT / "fixtures" / "intel"),
                             "report", "--represents", "1d"], capture_output=True, text=True, timeout=60, env=env,
                            cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "INTEL SSDSA2BZ200G3" in report.stdout and "18.7 (17.5-20.0)" in report.stdout
    assert (mandir / "man1" / "ssdwear.1").read_bytes() == (ROOT / "man" / "ssdwear.1").read_bytes()
    [venv_python] = (home / "venvs" / "ssdwear" / "bin").glob("python3")
    assert Path(os.path.realpath(venv_python)) == Path(os.path.realpath(python))  # Debian's interpreter


@pytest.fixture(scope="module")
def bare_pythons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Interpreters as a fresh Debian has them: one without pip (or build), one with pip but without build."""
    base = tmp_path_factory.mktemp("pythons")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(base / "nopip")], check=True, timeout=120)
    subprocess.run([sys.executable, "-m", "venv", str(base / "pip")], check=True, timeout=300)
    return {"pip": str(base / "nopip" / "bin" / "python"), "build": str(base / "pip" / "bin" / "python")}


@pytest.mark.parametrize("tool", ["build_zipapp", "build_deb"])
@pytest.mark.parametrize("missing", ["pip", "build"])
def test_a_build_tool_without_its_modules_says_what_to_install_in_one_line(
        bare_pythons: dict[str, str], tmp_path: Path, tool: str, missing: str) -> None:
    """Issue 25.7: `/usr/bin/python3: No module named build`, then a traceback; now one line naming the Debian
    package (with --no-install-recommends) and the other way (a wheel of one's own, or a venv's python)."""
    if tool == "build_deb":
        for needed in ("dpkg-buildpackage", "dh", "dh_python3"):
            require(needed)
    python = bare_pythons[missing]
    proc = subprocess.run([python, str(ROOT / "tools" / f"{tool}.py"), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (1, "")
    [line] = proc.stderr.splitlines()
    package = {"pip": "python3-pip", "build": "python3-build"}[missing]
    assert line.startswith(f"{tool}: {python} has no {missing} module, which ")
    assert f"apt-get install --no-install-recommends {package} (Debian, Ubuntu), or " in line
    assert ("--wheel FILE" in line) == (missing == "build")
    assert not (tmp_path / "out").exists()


def test_the_readmes_install_table_names_what_building_needs() -> None:
    readme = " ".join((ROOT / "README.md").read_text().split("## Install", 1)[1].split("\n## ", 1)[0].split())
    assert "`apt-get install --no-install-recommends python3-build python3-pip python3-venv`" in readme
    rows = [line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("| ")]
    for tool in ("tools/build_deb.py", "python3 -m build", "tools/build_zipapp.py"):
        [row] = [r for r in rows if tool in r]
        assert "python3-build" in row, tool
