"""The Debian package (tools/build_deb.py): built with debhelper from the wheel, lintian-clean (each override says
why), installed on this machine with `apt-get install ./ssdwear_*.deb` (as CI does, as root), run, checked with
systemd-analyze and man, then purged, leaving nothing behind."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.paths import FIXTURES, ROOT
from support.tools import require

import ssdwear

pytestmark = pytest.mark.slow  # builds the wheel and the package; installs and purges it (~30 s)
VERSION = ssdwear.__version__
WATCHED = ("/usr", "/etc", "/lib", "/var/lib")  # where a package's files and state go


@pytest.fixture(scope="module")
def deb(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    for tool in ("dpkg-buildpackage", "dh", "dh_python3"):
        require(tool)
    [wheel] = dist.glob("*.whl")
    out = tmp_path_factory.mktemp("deb")
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_deb.py"), "--wheel", str(wheel), "--out",
                           str(out)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    [package] = out.glob("*.deb")
    return package


def contents(deb: Path) -> dict[str, str]:
    """Path -> mode string of every entry of the package's data."""
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True)
    out = {}
    for line in listing.stdout.splitlines():
        fields = line.split()
        out[fields[5].removeprefix(".")] = fields[0]
    return out


def field(deb: Path, name: str) -> str:
    return subprocess.run(["dpkg-deb", "--field", str(deb), name], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_package_is_named_after_the_version_and_holds_what_the_issue_lists(deb: Path) -> None:
    assert deb.name == f"ssdwear_{VERSION}-1_all.deb"
    files = contents(deb)
    for path in ("/usr/bin/ssdwear", "/lib/systemd/system/ssdwear-sample.service",
                 "/lib/systemd/system/ssdwear-sample.timer", "/etc/cron.d/ssdwear", "/etc/ssdwear/config.yaml",
                 "/usr/share/man/man1/ssdwear.1.gz", "/usr/share/bash-completion/completions/ssdwear",
                 "/usr/share/zsh/vendor-completions/_ssdwear", "/usr/share/fish/vendor_completions.d/ssdwear.fish",
                 "/usr/share/doc/ssdwear/copyright", "/usr/share/doc/ssdwear/changelog.Debian.gz",
                 "/usr/share/doc/ssdwear/changelog.gz", "/usr/share/ssdwear/ssdwear/__init__.py",
                 "/usr/share/ssdwear/ssdwear/drives/ratings.json", "/usr/share/ssdwear/pySMART/__init__.py",
                 "/etc/smartmontools/run.d/05ssdwear"):
        assert path in files, path
    assert files["/usr/bin/ssdwear"] == files["/etc/smartmontools/run.d/05ssdwear"] == "-rwxr-xr-x"
    # the README and the docs/ pages it links, beside each other as in the source (dh_compress may gzip them)
    for page in ("README.md", "docs/README.md", "docs/exit-codes.md", "docs/security.md"):
        assert {f"/usr/share/doc/ssdwear/{page}", f"/usr/share/doc/ssdwear/{page}.gz"} & set(files), page
    # every module of the package, whatever the layout, and nothing compiled
    package = {"/usr/share/ssdwear/" + str(p.relative_to(ROOT)) for p in (ROOT / "ssdwear").rglob("*.py")}
    assert package <= set(files)
    assert not [p for p in files if p.endswith((".pyc", ".so"))]


def test_the_control_fields(deb: Path) -> None:
    depends = field(deb, "Depends")
    assert "python3 (>= 3.10)" in depends and "smartmontools" in depends
    for relation in ("python3-click (>= 8.1)", "python3-rich (>= 13)", "python3-yaml (>= 6)", "python3-chardet",
                     "python3-humanfriendly"):
        assert relation in depends
    assert "pysmart" not in depends.lower()  # included, not depended on
    assert field(deb, "Recommends") == "nvme-cli"
    assert field(deb, "Architecture") == "all"
    conffiles = subprocess.run(["dpkg-deb", "--info", str(deb), "conffiles"], capture_output=True, text=True,
                               check=True).stdout.split()
    assert sorted(conffiles) == ["/etc/cron.d/ssdwear", "/etc/smartmontools/run.d/05ssdwear",
                                 "/etc/ssdwear/config.yaml"]


def test_the_copyright_file_names_both_licences(deb: Path, tmp_path: Path) -> None:
    subprocess.run(["dpkg-deb", "--extract", str(deb), str(tmp_path)], check=True)
    text = (tmp_path / "usr/share/doc/ssdwear/copyright").read_text()
    assert text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    assert "License: Expat" in text and "Permission is hereby granted" in text
    assert re.search(r"Files: root/usr/share/ssdwear/pySMART/\*\nCopyright: .*Marc Herndon", text)
    assert "License: LGPL-2.1+" in text and "/usr/share/common-licenses/LGPL-2.1" in text


def test_lintian_has_nothing_to_say_beyond_the_explained_overrides(deb: Path) -> None:
    lintian = require("lintian")
    proc = subprocess.run([lintian, "--pedantic", "--fail-on", "error,warning,info,pedantic", str(deb)],
                          capture_output=True, text=True, timeout=300)
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr
    proc = subprocess.run([lintian, "--pedantic", "--show-overrides", str(deb)], capture_output=True, text=True,
                          timeout=300)
    overridden = sorted(set(re.findall(r"^O: ssdwear: (\S+)", proc.stdout, re.M)))
    assert overridden == ["initial-upload-closes-no-bugs", "repeated-path-segment"]
    overrides = (ROOT / "contrib" / "debian" / "ssdwear.lintian-overrides").read_text().splitlines()
    for i, line in enumerate(overrides):  # each override follows a comment that explains it
        if line.startswith("ssdwear:"):
            assert overrides[i - 1].startswith("#"), line


def test_the_launcher_runs_the_wheels_entry_point_in_isolated_mode(deb: Path, tmp_path: Path) -> None:
    subprocess.run(["dpkg-deb", "--extract", str(deb), str(tmp_path)], check=True)
    launcher = (tmp_path / "usr/bin/ssdwear").read_text()
    assert launcher.startswith("#!/usr/bin/python3 -I\n")  # no PYTHONPATH, no user site-packages, not /usr/bin
    assert 'sys.path.insert(0, "/usr/share/ssdwear")' in launcher and "from ssdwear.cli.main import main" in launcher


def walk(tops: tuple[str, ...]) -> set[str]:
    found: set[str] = {"/", "/.", *tops}
    for top in tops:
        for directory, dirs, names in os.walk(top):
            found.update(os.path.join(directory, n) for n in dirs + names)
    return found


def apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(["apt-get", "-y", "-q", "-o", "DPkg::Lock::Timeout=300", *args], capture_output=True,
                          text=True, timeout=900, env=env)


def installed_packages() -> set[str]:
    return set(subprocess.run(["dpkg-query", "-W", "-f", "${Package}\\n"], capture_output=True, text=True,
                              check=True).stdout.split())


@pytest.fixture
def machine() -> Iterator[None]:
    """This machine, for one package test at a time, when it is ours to install into: root, apt, and no ssdwear
    package of someone else's installed."""
    if os.geteuid() != 0:
        pytest.skip("installing a package needs root (CI runs as root)")
    require("apt-get")
    if subprocess.run(["dpkg-query", "-W", "ssdwear"], capture_output=True).returncode == 0:
        pytest.skip("an ssdwear package is installed on this machine already: not touching it")
    if os.path.lexists("/var/lib/ssdwear"):
        pytest.skip("/var/lib/ssdwear exists (someone's history): the package's purge would delete it")
    with open("/run/lock/ssdwear-deb-test.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def test_apt_installs_it_it_works_and_a_purge_leaves_nothing(deb: Path, machine: None, tmp_path: Path) -> None:
    before, packages_before = walk(WATCHED), installed_packages()
    proc = apt("install", str(deb))
    try:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        owned = subprocess.run(["dpkg", "-L", "ssdwear"], capture_output=True, text=True, check=True).stdout.split()
        _check_installed(tmp_path)
    finally:
        purge = apt("purge", "ssdwear")
    assert purge.returncode == 0, purge.stdout[-3000:] + purge.stderr[-3000:]
    after = walk(WATCHED)
    assert [p for p in after - before if "ssdwear" in p] == []  # no module, cache, history, timer link or state
    assert [p for p in owned if p not in before and os.path.lexists(p)] == []
    # anything else new belongs to the dependencies apt brought in (and their byte-code)
    brought = installed_packages() - packages_before
    theirs = set(subprocess.run(["dpkg", "-L", *brought], capture_output=True, text=True).stdout.split()) \
        if brought else set()
    stray = [p for p in after - before - theirs if "__pycache__" not in p and not p.startswith("/var/lib/dpkg/")
             and not p.startswith("/var/lib/apt/") and not p.startswith("/var/lib/systemd/deb-systemd-helper")]
    assert stray == []


def _check_installed(tmp_path: Path) -> None:
    run = {"capture_output": True, "text": True, "timeout": 120, "cwd": tmp_path}
    version = subprocess.run(["/usr/bin/ssdwear", "--version"], **run)  # type: ignore[call-overload]
    assert version.stdout.strip() == f"ssdwear, version {VERSION}"
    # a replayed report, with the Debian packages' click, rich and yaml, and the conffile read as root
    report = subprocess.run(["/usr/bin/ssdwear", "--no-history", "--replay", str(FIXTURES / "intel"), "report",
                             "--represents", "1d"], **run)  # type: ignore[call-overload]
    assert report.returncode == 0, report.stderr
    assert "INTEL SSDSA2BZ200G3" in report.stdout and "18.7 (17.5-20.0)" in report.stdout
    assert Path("/etc/ssdwear/config.yaml").read_bytes() == (ROOT / "contrib" / "config.yaml.example").read_bytes()
    # a sample into the history the package's purge must remove
    sample = subprocess.run(["/usr/bin/ssdwear", "--replay", str(FIXTURES / "fleet"), "--db",
                             "/var/lib/ssdwear/history.db", "sample"], **run)  # type: ignore[call-overload]
    assert sample.returncode == 0, sample.stderr
    assert Path("/var/lib/ssdwear/history.db").is_file()
    units = ["/lib/systemd/system/ssdwear-sample.service", "/lib/systemd/system/ssdwear-sample.timer"]
    verify = subprocess.run([require("systemd-analyze"), "verify", *units], **run)  # type: ignore[call-overload]
    assert (verify.returncode, verify.stderr) == (0, ""), verify.stderr
    assert os.path.islink("/etc/systemd/system/timers.target.wants/ssdwear-sample.timer")  # enabled on install
    assert subprocess.run([require("man"), "-w", "ssdwear"], **run).stdout.strip() == (  # type: ignore[call-overload]
        "/usr/share/man/man1/ssdwear.1.gz")
    loaded = subprocess.run(["bash", "-c", "source /usr/share/bash-completion/bash_completion; "
                             "__load_completion ssdwear; complete -p ssdwear"], **run)  # type: ignore[call-overload]
    assert loaded.stdout.strip() == "complete -F _ssdwear ssdwear"
    # byte-code compiled by the package's postinst (py3compile), which its prerm removes again
    assert list(Path("/usr/share/ssdwear/ssdwear").glob("__pycache__/*.pyc"))


def test_the_debian_files_are_in_the_sdist_beside_the_script(dist: Path) -> None:
    with tarfile.open(dist / f"ssdwear-{VERSION}.tar.gz") as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in ("tools/build_deb.py", "contrib/debian/control.in", "contrib/debian/rules",
                 "contrib/debian/ssdwear.lintian-overrides", "contrib/debian/postrm"):
        assert name in names
