"""The Debian package (tools/build_deb.py): built with debhelper from the wheel, lintian-clean (each override says
why), installed with `apt-get install ./ssdwear_*.deb` in the suite's VM over this machine's files (a checkout
install among them), run, checked with systemd-analyze, man and bash-completion, removed and purged there, leaving
nothing behind; never installed on this machine (issue 25.3)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from support.paths import ROOT
from support.tools import require

import ssdwear
from tools import qemuvm

pytestmark = pytest.mark.slow  # builds the wheel and the package; installs and purges it in the VM
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


# -- installed, used, removed and purged in the suite's VM, never on this machine --------------------------------
#
# The VM (tools/qemuvm.py) sees this machine's / read-only under a RAM overlay: the package is installed over
# whatever is here (install.sh's files included) and what it changes is seen exactly (the overlay's upper
# directory, $SSDWEAR_VM_CHANGES), while this machine's files cannot change. The VM has no network: the
# dependencies apt will want (apt-get -s here) are fetched beforehand with apt-get download into a cache and put
# into the guest's apt cache, so `apt-get install ./ssdwear_*.deb` resolves and installs them as on a server.

DEB_CACHE = qemuvm.default_cache_dir().parent / "debs"  # ~/.cache/ssdwear/debs, beside the VM image
CRON = "/etc/cron.d/ssdwear"
# What a checkout install leaves (contrib/install.sh, the README's command 1), at the paths it uses; made in the
# guest where this machine has none, so that the package always meets one: the venv holds only a launcher of
# this checkout (the files around it are what the package's paths share).
CHECKOUT_INSTALL = """
if [ ! -e /usr/local/bin/ssdwear ]; then
    {python} -m venv --without-pip /opt/ssdwear
    printf '#!/bin/sh\\nPYTHONPATH={root} exec {python} -m ssdwear "$@"\\n' > /opt/ssdwear/bin/ssdwear
    chmod 755 /opt/ssdwear/bin/ssdwear
    ln -s /opt/ssdwear/bin/ssdwear /usr/local/bin/ssdwear
    mkdir -p /usr/local/share/man/man1 /usr/share/bash-completion/completions /usr/local/share/zsh/site-functions \\
        /usr/share/fish/vendor_completions.d
    cp {root}/man/ssdwear.1 /usr/local/share/man/man1/ssdwear.1
    cp {root}/completions/ssdwear.bash /usr/share/bash-completion/completions/ssdwear
    cp {root}/completions/_ssdwear /usr/local/share/zsh/site-functions/_ssdwear
    cp {root}/completions/ssdwear.fish /usr/share/fish/vendor_completions.d/ssdwear.fish
    [ ! -d /etc/smartmontools/run.d ] || cp {root}/contrib/smartd/run.d-ssdwear /etc/smartmontools/run.d/05ssdwear
    echo made > "$OUT/checkout_install_made"
fi
"""
GUEST = r"""
set -u
OUT="$SSDWEAR_VM_OUT"
run() {{
    name=$1; shift; "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.rc"
    echo "$(cut -d' ' -f1 /proc/uptime) $name" >> "$OUT/timing"
}}
changes() {{ (cd "$SSDWEAR_VM_CHANGES" && find . -mindepth 1 -printf '%y %p\n') > "$OUT/$1"; }}
cronline() {{ grep -v '^#' "$1" | grep . | sed -E 's/^([^ ]+ +){{6}}//'; }}  # the command, as cron hands it to sh
export DEBIAN_FRONTEND=noninteractive
# dpkg reads its whole database on every run: this machine's, as it was when the test began, in RAM (file by
# file over 9p it takes a minute a run under emulation); it is state, not a file a package installs
mount -t tmpfs -o mode=0755 tmpfs /var/lib/dpkg && tar -C /var/lib/dpkg -xf "$OUT/dpkg.tar" || exit 97
# the guest starts from no ssdwear package, history or config, whatever this machine has (hidden by the overlay)
if dpkg-query -W ssdwear > /dev/null 2>&1; then dpkg --purge ssdwear > "$OUT/pristine.out" 2>&1; fi
rm -rf /var/lib/ssdwear /etc/ssdwear /root/.config/ssdwear /root/.local/share/ssdwear
# man-db's trigger re-indexes every manual page (minutes under emulation); man -w reads the directories
rm -f /var/lib/man-db/auto-update
{checkout_install}
changes before
echo "$(cut -d' ' -f1 /proc/uptime) ready" >> "$OUT/timing"
{bring}
run install apt-get install -y -q -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold {deb}
dpkg -L ssdwear > "$OUT/owned"
dpkg-query -W -f '${{Conffiles}}\n' ssdwear > "$OUT/conffiles"
run version /usr/bin/ssdwear --version
run report /usr/bin/ssdwear --no-history --replay {root}/fixtures/intel report --represents 1d
cmp /etc/ssdwear/config.yaml {root}/contrib/config.yaml.example > "$OUT/config.cmp" 2>&1; echo $? >> "$OUT/config.cmp"
run cron_installed sh -c "$(cronline /etc/cron.d/ssdwear)"
run sample /usr/bin/ssdwear --replay {root}/fixtures/fleet --db /var/lib/ssdwear/history.db sample
ls -l /var/lib/ssdwear > "$OUT/state" 2>&1
run verify systemd-analyze verify /lib/systemd/system/ssdwear-sample.service /lib/systemd/system/ssdwear-sample.timer
readlink /etc/systemd/system/timers.target.wants/ssdwear-sample.timer > "$OUT/timer_link"
run man_package env MANPATH=/usr/share/man man -w ssdwear
run man_path man -w ssdwear
run bash bash -c 'source /usr/share/bash-completion/bash_completion; __load_completion ssdwear; complete -p ssdwear'
ls /usr/share/ssdwear/ssdwear/__pycache__ > "$OUT/pycache" 2>&1
run verify_files dpkg --verify ssdwear
# a checkout install beside it: its removal leaves the package's files, and says so
run uninstall sh {root}/contrib/install.sh --uninstall
run verify_after_uninstall dpkg --verify ssdwear
run remove apt-get remove -y -q ssdwear
run cron_removed sh -c "$(cronline /etc/cron.d/ssdwear)"
run checkout_cron_removed sh -c "$(cronline {root}/contrib/cron.d-ssdwear)"
run purge apt-get purge -y -q ssdwear
dpkg-query -W -f '${{db:Status-Abbrev}}\n' ssdwear > "$OUT/status_after" 2>&1
changes after
"""


def _dependencies(deb: Path) -> list[Path]:
    """The .debs apt would bring for the package on this machine (none when it has them all), fetched once into
    the cache with apt-get download (the package mirror must be reachable, as for the VM's kernel)."""
    require("apt-get")
    env = {**os.environ, "LC_ALL": "C"}
    plan = subprocess.run(["apt-get", "-s", "-q", "install", str(deb)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert plan.returncode == 0, plan.stdout[-2000:] + plan.stderr[-2000:]
    wanted = [m.groups() for m in re.finditer(r"^Inst (\S+) \((\S+) ", plan.stdout, re.M) if m.group(1) != "ssdwear"]
    DEB_CACHE.mkdir(parents=True, exist_ok=True)
    found = []
    for name, version in wanted:
        pattern = f"{name.split(':')[0]}_{version.replace(':', '%3a')}_*.deb"
        if not list(DEB_CACHE.glob(pattern)):
            got = subprocess.run(["apt-get", "download", "-q", f"{name}={version}"], cwd=DEB_CACHE, env=env,
                                 capture_output=True, text=True, timeout=600)
            if got.returncode != 0:
                message = f"apt-get download {name}={version} failed: {got.stderr.strip()[-500:]}"
                if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
                    pytest.fail(message)
                pytest.skip(message)
        found += sorted(DEB_CACHE.glob(pattern))
    return found


def _package_paths(debs: list[Path]) -> set[str]:
    """Every path the .debs hold, as this machine resolves it (/lib is /usr/lib where /usr is merged)."""
    paths = set()
    for deb in debs:
        listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True)
        for line in listing.stdout.splitlines():
            path = "/" + line.split(None, 5)[5].split(" -> ")[0].removeprefix("./").rstrip("/")
            paths.add(os.path.realpath(os.path.dirname(path)) + "/" + os.path.basename(path))
    return paths


# The package's own paths on this machine: the guest must leave them as they are (absent, unless someone's package
# is installed here). Other files here may change while the VM runs (the machine is shared): what keeps the test
# off them is that the guest sees this machine's / read-only.
OWN = ("/usr/bin/ssdwear", "/usr/share/ssdwear", "/etc/cron.d/ssdwear", "/lib/systemd/system/ssdwear-sample.timer",
       "/usr/share/doc/ssdwear", "/var/lib/ssdwear", "/etc/ssdwear")


def _state(path: str) -> tuple[str, bytes | str] | None:
    if os.path.islink(path):
        return "link", os.readlink(path)
    if os.path.isfile(path):
        return "file", Path(path).read_bytes()
    return ("dir", " ".join(sorted(os.listdir(path)))) if os.path.isdir(path) else None


def installed_packages() -> dict[str, str]:
    """Package -> version of every package installed on this machine."""
    listing = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${db:Status-Abbrev} ${Version}\\n"],
                             capture_output=True, text=True, check=True).stdout
    return {fields[0]: fields[2] for fields in (line.split() for line in listing.splitlines())
            if len(fields) == 3 and fields[1] == "ii"}


@pytest.fixture(scope="module")
def guest(deb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One VM boot: the package installed with apt over this machine's files, used, then removed and purged; the
    guest's outputs, and a check that this machine is as it was."""
    reason = qemuvm.qemu_available()
    if reason is not None:
        if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
            pytest.fail(f"QEMU cannot run here: {reason}")
        pytest.skip(f"QEMU cannot run here: {reason}")
    debs = _dependencies(deb)
    work = tmp_path_factory.mktemp("deb-vm")
    (work / "out").mkdir()
    subprocess.run(["tar", "-C", "/var/lib/dpkg", "-cf", str(work / "out" / "dpkg.tar"), "."], check=True)
    python, root = shlex.quote(sys.executable), shlex.quote(str(ROOT))
    bring = f"cp {' '.join(shlex.quote(str(d)) for d in debs)} /var/cache/apt/archives/" if debs else \
        ": apt has every dependency already"
    script = GUEST.format(checkout_install=CHECKOUT_INSTALL.format(python=python, root=root), root=root,
                          deb=shlex.quote(str(deb)), bring=bring)
    own_before, packages_before = {p: _state(p) for p in OWN}, installed_packages()
    result = qemuvm.run_vm([qemuvm.Drive.sata("AHCI0001")], script, timeout_s=900, fresh_dirs=(),
                           workdir=work)
    steps = [line.split() for line in (result.outdir / "timing").read_text().splitlines()] \
        if (result.outdir / "timing").exists() else []
    took = ", ".join(f"{name} {float(at) - float(steps[i - 1][0]) if i else 0:.0f}"
                     for i, (at, name) in enumerate(steps))
    print(f"\ndeb VM: {result.seconds:.0f} s, {len(debs)} dependencies fetched; seconds a step: {took}")
    assert result.returncode == 0, result.console[-4000:]
    [share] = [a for a in result.argv if a.startswith("local,path=/,")]
    assert "readonly=on" in share.split(",")  # the guest cannot write a file of this machine's
    assert {p: _state(p) for p in OWN} == own_before
    # the package and what apt brought in the guest: on this machine as they were (installed or not, same version)
    brought = {"ssdwear", *re.findall(r"^Unpacking (\S+) ", (result.outdir / "install.out").read_text(), re.M)}
    packages_after = installed_packages()
    assert {n: packages_after.get(n) for n in brought} == {n: packages_before.get(n) for n in brought}
    return result.outdir


def out(guest: Path, name: str) -> tuple[int, str, str]:
    return (int((guest / f"{name}.rc").read_text()), (guest / f"{name}.out").read_text(),
            (guest / f"{name}.err").read_text())


@pytest.mark.qemu
def test_apt_installs_it_over_a_checkout_install_and_warns(guest: Path) -> None:
    rc, stdout, stderr = out(guest, "install")
    assert rc == 0, stdout[-3000:] + stderr[-3000:]
    said = " ".join((stdout + stderr).split())
    assert "ssdwear: warning: /usr/local/bin/ssdwear is installed too (contrib/install.sh or pipx): it comes before " \
           "/usr/bin/ssdwear on PATH, and this package now owns the files at the paths both use" in said
    assert "Created symlink /etc/systemd/system/timers.target.wants/ssdwear-sample.timer" in said
    assert (guest / "timer_link").read_text().strip() == "/lib/systemd/system/ssdwear-sample.timer"  # enabled


@pytest.mark.qemu
def test_the_installed_package_runs_with_debians_modules(guest: Path) -> None:
    assert out(guest, "version")[1].strip() == f"ssdwear, version {VERSION}"
    rc, stdout, stderr = out(guest, "report")  # the Debian packages' click, rich and yaml, the conffile read as root
    assert rc == 0, stderr
    assert "INTEL SSDSA2BZ200G3" in stdout and "18.7 (17.5-20.0)" in stdout
    assert (guest / "config.cmp").read_text() == "0\n"  # /etc/ssdwear/config.yaml is contrib/config.yaml.example
    rc, stdout, stderr = out(guest, "sample")
    assert (rc, stdout) == (0, ""), stderr
    assert "history.db" in (guest / "state").read_text()  # the history the purge must remove
    assert out(guest, "verify")[0::2] == (0, "")  # systemd-analyze verify of both units: no word
    assert [p for p in (guest / "pycache").read_text().split() if p.endswith(".pyc")]  # py3compile (postinst)
    assert out(guest, "verify_files") == (0, "", "")  # dpkg --verify: every file as the package has it


@pytest.mark.qemu
def test_its_man_page_and_completion_are_the_packages_own(guest: Path) -> None:
    """Issue 25.3: `man -w` found install.sh's /usr/local page first, and failed. The package's own paths are
    checked: its page on its manpath; its bash completion the one bash-completion loads."""
    assert out(guest, "man_package")[1].strip() == "/usr/share/man/man1/ssdwear.1.gz"
    assert out(guest, "man_path")[0] == 0  # whichever comes first on the full manpath, there is one
    assert out(guest, "bash")[1].strip() == "complete -F _ssdwear ssdwear"
    owned = (guest / "owned").read_text().split()
    assert "/usr/share/bash-completion/completions/ssdwear" in owned and "/usr/share/man/man1/ssdwear.1.gz" in owned


@pytest.mark.qemu
def test_the_checkout_installs_removal_leaves_the_packages_files(guest: Path) -> None:
    """Issue 25.11: with both installed, `install.sh --uninstall` removes the checkout install and leaves what dpkg
    says is the package's (dpkg --verify finds every file of the package as it was)."""
    rc, stdout, stderr = out(guest, "uninstall")
    assert (rc, stderr) == (0, ""), stderr
    lines = stdout.splitlines()
    for path in ("/usr/share/bash-completion/completions/ssdwear", "/usr/share/fish/vendor_completions.d/ssdwear.fish",
                 "/etc/smartmontools/run.d/05ssdwear"):
        assert f"left: {path} (the Debian package ssdwear's)" in lines
    assert "removed: /usr/local/bin/ssdwear" in lines and "removed: /opt/ssdwear" in lines
    assert "removed: /usr/local/share/man/man1/ssdwear.1" in lines
    assert out(guest, "verify_after_uninstall") == (0, "", "")


@pytest.mark.qemu
def test_after_apt_get_remove_the_kept_cron_line_runs_nothing(guest: Path) -> None:
    """Issue 25.9: /etc/cron.d/ssdwear is a conffile, kept by `apt-get remove`; without systemd it ran the missing
    /usr/bin/ssdwear every hour (exit 127, a mail each time). Run as cron runs it (sh -c): installed it samples,
    removed it says nothing. The checkout's cron file, once install.sh --uninstall removed the command, likewise."""
    assert (guest / "conffiles").read_text().split()[0::2] == sorted(
        ["/etc/cron.d/ssdwear", "/etc/smartmontools/run.d/05ssdwear", "/etc/ssdwear/config.yaml"])
    rc, stdout, stderr = out(guest, "cron_installed")  # the VM's QEMU disk, read by the real smartctl
    assert (rc, stdout) == (0, ""), stderr
    assert out(guest, "remove")[0] == 0
    for name in ("cron_removed", "checkout_cron_removed"):
        rc, stdout, stderr = out(guest, name)
        assert (stdout, stderr) == ("", ""), name  # nothing for cron to mail
        assert rc != 127, name


def _changes(listing: Path) -> dict[str, str]:
    """'./path' -> find's type letter (d, f, l; c for a whiteout) of each entry of the overlay's upper directory."""
    return {path: kind for kind, path in (line.split(" ", 1) for line in listing.read_text().splitlines())}


@pytest.mark.qemu
def test_a_purge_leaves_nothing_and_removes_only_its_own(guest: Path) -> None:
    """Everything the guest changed in this machine's tree, seen in the overlay: after the purge nothing of the
    package is left, what else is new belongs to the dependencies apt brought or to the package tools' own state
    and logs, and what is gone was the package's (or the checkout install's, which its own removal said)."""
    assert out(guest, "purge")[0] == 0
    status = (guest / "status_after").read_text().strip()  # forgotten by dpkg, or known as not installed
    assert status == "dpkg-query: no packages found matching ssdwear" or status in ("un", "pn"), status
    before, after = (_changes(guest / name) for name in ("before", "after"))
    new = {p.removeprefix(".") for p, kind in after.items() if before.get(p) != kind}
    owned = {os.path.realpath(p) for p in (guest / "owned").read_text().split()}
    gone = {p for p in new if after["." + p] == "c"}  # whiteouts: deleted from this machine's tree
    uninstalled = {line.split(": ", 1)[1].rstrip("/") for line in out(guest, "uninstall")[1].splitlines()
                   if line.startswith("removed: ")}
    assert gone - owned - uninstalled == set()
    # a directory of this machine's in the overlay is the parent of something written: not something left
    left = {p for p in new - gone if not (after["." + p] == "d" and os.path.isdir(p))}
    # no module, history, link or state; man-db's cache of formatted pages (/var/cache/man) is man-db's, pruned by it
    assert [p for p in left if "ssdwear" in p and "__pycache__" not in p and not p.startswith("/var/cache/man/")] == []
    # the rest: the dependencies' files (and their byte-code), dpkg's, apt's, debconf's and the helpers' state, logs
    brought = [name for name in re.findall(r"^Unpacking (\S+) ", out(guest, "install")[1], re.M) if name != "ssdwear"]
    theirs = _package_paths([d for name in brought for d in sorted(DEB_CACHE.glob(f"{name}_*.deb"))])
    state = ("/var/lib/dpkg/", "/var/lib/apt/", "/var/cache/", "/var/log/", "/var/lib/systemd/deb-systemd-",
             "/tmp/", "/var/lib/man-db/")
    stray = sorted(p for p in left - theirs if "__pycache__" not in p and not p.startswith(state))
    assert stray == []


def test_the_debian_files_are_in_the_sdist_beside_the_script(dist: Path) -> None:
    with tarfile.open(dist / f"ssdwear-{VERSION}.tar.gz") as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in ("tools/build_deb.py", "contrib/debian/control.in", "contrib/debian/rules",
                 "contrib/debian/ssdwear.lintian-overrides", "contrib/debian/postrm", "contrib/debian/preinst"):
        assert name in names
