"""The README's install path on Debian's own Python: a venv under PREFIX, the command linked into BINDIR.

Runs the README's first command itself (its install steps pointed at a temporary prefix), with Debian's
/usr/bin/python3, which refuses `pip install` into the system (PEP 668). Needs the package index (pip).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.paths import ROOT
from support.tools import require


def readme_first_command() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The two commands", 1)[1]
    return re.search(r"```\n\s*(sh contrib/install-deps\.sh.*?)\n\s*```", section, re.S).group(1).strip()


@pytest.mark.slow  # pip installs ssdwear and its dependencies into a new venv (~10 s)
def test_the_readme_installs_into_a_venv_with_debians_python_and_reports(tmp_path: Path) -> None:
    python = require("/usr/bin/python3")
    command = readme_first_command()
    assert command.startswith("sh contrib/install-deps.sh && sh contrib/install.sh && ssdwear ")
    prefix, bindir = tmp_path / "opt" / "ssdwear", tmp_path / "bin"
    env = {**os.environ, "PREFIX": str(prefix), "BINDIR": str(bindir), "PYTHON": python,
           "BASH_COMPLETION_DIR": str(tmp_path / "bash"), "ZSH_COMPLETION_DIR": str(tmp_path / "zsh"),
           "FISH_COMPLETION_DIR": str(tmp_path / "fish"), "MANDIR": str(tmp_path / "man"),
           "SMARTD_RUN_D": str(tmp_path / "run.d"),  # made below: never the machine's /etc/smartmontools/run.d
           "PATH": f"{bindir}:{os.environ['PATH']}",
           "SSDWEAR_DB": str(tmp_path / "history.db")}
    env.pop("VIRTUAL_ENV", None)
    (tmp_path / "run.d").mkdir()
    proc = subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "reporting the recorded smartctl outputs in fixtures/intel instead" in proc.stderr
    assert (tmp_path / "run.d" / "05ssdwear").is_file()
    assert "INTEL SSDSA2BZ200G3" in proc.stdout and "18.7 (17.5-20.0)" in proc.stdout
    # the command is the venv's, and that venv runs on Debian's interpreter
    assert (bindir / "ssdwear").resolve() == (prefix / "bin" / "ssdwear").resolve()
    cfg = (prefix / "pyvenv.cfg").read_text()
    assert str(Path(python).resolve().parent) in cfg
    for path in (tmp_path / "bash" / "ssdwear", tmp_path / "zsh" / "_ssdwear", tmp_path / "fish" / "ssdwear.fish"):
        assert path.read_text() == (ROOT / "completions" / {"ssdwear": "ssdwear.bash"}.get(path.name, path.name)) \
            .read_text()
    # the man page, from the wheel's data files
    assert (tmp_path / "man" / "man1" / "ssdwear.1").read_text() == (ROOT / "man" / "ssdwear.1").read_text()
    # the units run what the install produces
    for unit in ("contrib/cron.d-ssdwear", "contrib/systemd/ssdwear-sample.service"):
        assert "/usr/local/bin/ssdwear sample" in (ROOT / unit).read_text()


def test_debians_python_refuses_a_plain_pip_install() -> None:
    """Why the README does not say `pip install .`: on Debian 12 the system interpreter is externally managed."""
    python = require("/usr/bin/python3")
    marker = list(Path(python).resolve().parent.parent.glob("lib/python3*/EXTERNALLY-MANAGED"))
    assert marker, "Debian's python3 carries EXTERNALLY-MANAGED (PEP 668)"


@pytest.mark.parametrize("python", ["old", "missing"])
def test_install_refuses_a_python_older_than_310_in_one_line(tmp_path: Path, python: str) -> None:
    fake = tmp_path / "python3.9"
    if python == "old":  # answers like RHEL 9's /usr/bin/python3
        fake.write_text('#!/bin/sh\ncase "$1" in -V) echo "Python 3.9.18";; *) exit 1;; esac\n')
        fake.chmod(0o755)
    env = {**os.environ, "PYTHON": str(fake), "PREFIX": str(tmp_path / "venv"), "BINDIR": str(tmp_path / "bin"),
           "SMARTD_RUN_D": "no"}
    proc = subprocess.run(["sh", "contrib/install.sh"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert "needs Python 3.10 or later" in line and "PYTHON=python3.11" in line
    assert ("Python 3.9.18" if python == "old" else "not found") in line
    assert not (tmp_path / "venv").exists()


def _install(checkout: Path, tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """contrib/install.sh of `checkout`, into a prefix and bin directory under tmp_path, without completions."""
    env = {**os.environ, "PREFIX": str(tmp_path / "opt" / "ssdwear"), "BINDIR": str(tmp_path / "bin"),
           "PYTHON": require("/usr/bin/python3"), "COMPLETIONS": "no", "MANDIR": str(tmp_path / "man"),
           "SMARTD_RUN_D": "no", **settings}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(["sh", str(checkout / "contrib" / "install.sh")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("setting", ["PREFIX", "BINDIR", "MANDIR", "BASH_COMPLETION_DIR", "SMARTD_RUN_D"])
def test_install_refuses_a_relative_directory_before_doing_anything(tmp_path: Path, setting: str) -> None:
    """A relative PREFIX made a link in BINDIR that points nowhere, and install.sh still said "installed"."""
    proc = _install(ROOT, tmp_path, **{setting: "relative/dir"})
    assert proc.returncode == 1 and proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"install.sh: {setting} must be an absolute path, got 'relative/dir'")
    assert f"{setting}={tmp_path}/relative/dir" in line  # what to write instead
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing made, here or in the prefix


def _package_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


@pytest.mark.slow  # two pip installs (~15 s)
def test_an_upgrade_over_a_stale_build_installs_exactly_the_checkouts_package(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT, checkout, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis"))
    first = _install(checkout, tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    # The checkout moves on (a file changes), with a build/ an earlier `pip install .` left: a module since
    # removed and an older copy of the changed file, newer on disk than the checkout's (as after a rebase).
    stale = checkout / "build" / "lib" / "ssdwear"
    stale.mkdir(parents=True, exist_ok=True)  # the old install.sh left one of its own
    (stale / "obsolete.py").write_text("raise SystemExit('a module removed from ssdwear')\n")
    (stale / "host").mkdir()
    (stale / "host" / "paths.py").write_bytes((checkout / "ssdwear" / "host" / "paths.py").read_bytes())
    with open(checkout / "ssdwear" / "host" / "paths.py", "a") as handle:
        handle.write("# changed since the last install\n")
    for path in stale.rglob("*"):
        os.utime(path, (4102444800, 4102444800))  # 2100
    upgrade = _install(checkout, tmp_path)
    assert upgrade.returncode == 0, upgrade.stderr[-2000:]
    [site] = (tmp_path / "opt" / "ssdwear" / "lib").glob("python3*/site-packages")
    installed, source = _package_files(site / "ssdwear"), _package_files(checkout / "ssdwear")
    assert sorted(installed) == sorted(source)  # no obsolete.py
    assert installed == source  # the changed paths.py, not the stale copy
    command = tmp_path / "bin" / "ssdwear"
    assert upgrade.stdout.startswith(f"installed: {command} -> {tmp_path}/opt/ssdwear/bin/ssdwear (ssdwear, version ")
    assert subprocess.run([str(command), "--version"], capture_output=True, timeout=60).returncode == 0


@pytest.mark.slow  # a pip install (~10 s)
def test_install_says_installed_only_when_the_installed_command_runs(tmp_path: Path) -> None:
    """A directory where the link should go: `ln -sf` puts the link inside it, and the command does not run."""
    (tmp_path / "bin" / "ssdwear").mkdir(parents=True)
    proc = _install(ROOT, tmp_path)
    assert proc.returncode == 1 and "installed" not in proc.stdout
    [line] = [x for x in proc.stderr.splitlines() if x.startswith("install.sh:")]
    assert proc.stderr.splitlines()[-1] == line
    assert line.startswith(f"install.sh: {tmp_path}/bin/ssdwear does not run the command installed in ")


@pytest.mark.slow  # a pip install (~10 s)
def test_install_puts_the_smartd_mail_script_before_10mail_only_where_run_d_exists(tmp_path: Path) -> None:
    """Issue 20.4: Debian's smartd-runner runs /etc/smartmontools/run.d/* in name order and 10mail sends the mail:
    the script is 05ssdwear, executable; without the directory (no smartmontools) nothing is made."""
    run_d = tmp_path / "run.d"
    absent = _install(ROOT, tmp_path, SMARTD_RUN_D=str(run_d))
    assert absent.returncode == 0, absent.stderr[-2000:]
    assert not run_d.exists() and "smartd mail script" not in absent.stdout
    run_d.mkdir()
    (run_d / "10mail").write_text("#!/bin/sh\n")
    proc = _install(ROOT, tmp_path, SMARTD_RUN_D=str(run_d))
    assert proc.returncode == 0, proc.stderr[-2000:]
    script = run_d / "05ssdwear"
    assert script.read_bytes() == (ROOT / "contrib" / "smartd" / "run.d-ssdwear").read_bytes()
    assert os.access(script, os.X_OK) and sorted(p.name for p in run_d.iterdir()) == ["05ssdwear", "10mail"]
    assert f"smartd mail script: {script}" in proc.stdout


def test_the_deb_and_install_sh_give_the_smartd_mail_script_one_name() -> None:
    """Both put it before smartd-runner's 10mail (the .deb once named it 50ssdwear: after the mail was sent).
    (tools/build_deb.py is read, not imported: it imports its sibling scripts as a script does.)"""
    build_deb = (ROOT / "tools" / "build_deb.py").read_text()
    [deb_name] = re.findall(r'^SMARTD_RUN_D_NAME = "(\w+)"', build_deb, re.M)
    assert 'run.d" / SMARTD_RUN_D_NAME' in build_deb
    install = (ROOT / "contrib" / "install.sh").read_text()
    assert set(re.findall(r'"\$SMARTD_RUN_D/(\w+)"', install)) == {deb_name} and deb_name < "10mail"


def _tree(top: Path) -> dict[str, tuple[str, bytes | str]]:
    """Every path under top: a directory, a file's bytes or a link's target."""
    found: dict[str, tuple[str, bytes | str]] = {}
    for path in sorted(top.rglob("*")):
        name = str(path.relative_to(top))
        found[name] = ("link", os.readlink(path)) if path.is_symlink() else ("dir", "") if path.is_dir() else \
            ("file", path.read_bytes())
    return found


def _every_setting(tmp_path: Path) -> dict[str, str]:
    """Each directory setting, in folders that do not exist yet (install.sh makes them; --uninstall removes them
    again), and a run.d that exists, as smartmontools' does, with its 10mail."""
    machine = tmp_path / "machine"
    (machine / "etc" / "smartmontools" / "run.d").mkdir(parents=True)
    (machine / "etc" / "smartmontools" / "run.d" / "10mail").write_text("#!/bin/sh\n")
    (machine / "usr" / "local").mkdir(parents=True)
    return {"PREFIX": f"{machine}/opt/ssdwear", "BINDIR": f"{machine}/usr/local/bin",
            "MANDIR": f"{machine}/usr/local/share/man", "BASH_COMPLETION_DIR": f"{machine}/bash/completions",
            "ZSH_COMPLETION_DIR": f"{machine}/usr/local/share/zsh/site-functions",
            "FISH_COMPLETION_DIR": f"{machine}/fish/vendor_completions.d",
            "SMARTD_RUN_D": f"{machine}/etc/smartmontools/run.d", "COMPLETIONS": "yes"}


def _uninstall(tmp_path: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **settings}
    return subprocess.run(["sh", str(ROOT / "contrib" / "install.sh"), "--uninstall"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow  # two pip installs (~20 s)
def test_uninstall_removes_every_file_install_wrote_and_every_folder_it_made(tmp_path: Path) -> None:
    """Issue 25.8: the documented removal left the smartd hook and three completion files. An install, an upgrade
    over it, then --uninstall with the same settings: the machine as it was, to the byte."""
    settings = _every_setting(tmp_path)
    machine = tmp_path / "machine"
    before = _tree(machine)
    for _ in ("install", "upgrade"):
        proc = _install(ROOT, tmp_path, **settings)
        assert proc.returncode == 0, proc.stderr[-2000:]
    written = {f"{settings['BINDIR']}/ssdwear", f"{settings['MANDIR']}/man1/ssdwear.1",
               f"{settings['BASH_COMPLETION_DIR']}/ssdwear", f"{settings['ZSH_COMPLETION_DIR']}/_ssdwear",
               f"{settings['FISH_COMPLETION_DIR']}/ssdwear.fish", f"{settings['SMARTD_RUN_D']}/05ssdwear"}
    assert all(os.path.lexists(path) for path in written)
    assert proc.stdout.rstrip().endswith("to remove it: sh contrib/install.sh --uninstall (with the same settings)")
    record = (Path(settings["PREFIX"]) / "installed-files").read_text().splitlines()
    assert {line.split(" ", 1)[1] for line in record if line.startswith("file ")} == written
    assert f"dir {machine}/usr/local/share/zsh" in record and f"dir {machine}/opt" in record
    removal = _uninstall(tmp_path, **settings)
    assert (removal.returncode, removal.stderr) == (0, ""), removal.stderr
    said = removal.stdout.splitlines()
    assert {f"removed: {path}" for path in written} | {f"removed: {settings['PREFIX']}"} <= set(said)
    assert said[-1].startswith("uninstalled; kept: the history and the config")
    assert _tree(machine) == before
    again = _uninstall(tmp_path, **settings)
    assert again.returncode == 0 and again.stdout.startswith("install.sh: nothing of ssdwear's to remove")


@pytest.mark.slow  # a pip install (~10 s)
def test_uninstall_without_the_record_removes_what_the_settings_name(tmp_path: Path) -> None:
    """An install from before the record (or a record lost): the settings name the files, and the folders that
    held nothing else stay (install.sh cannot know it made them)."""
    settings = _every_setting(tmp_path)
    assert _install(ROOT, tmp_path, **settings).returncode == 0
    (Path(settings["PREFIX"]) / "installed-files").unlink()
    removal = _uninstall(tmp_path, **settings)
    assert removal.returncode == 0, removal.stderr
    left = [p for p, (kind, _) in _tree(tmp_path / "machine").items() if kind != "dir"]
    assert left == ["etc/smartmontools/run.d/10mail"]


def test_uninstall_leaves_what_is_not_its_own(tmp_path: Path) -> None:
    """A BINDIR/ssdwear that is not install.sh's link (pipx's, a file of the admin's) is left and said; a PREFIX
    that is no virtual environment is refused before anything is removed."""
    settings = _every_setting(tmp_path)
    bindir, prefix = Path(settings["BINDIR"]), Path(settings["PREFIX"])
    bindir.mkdir(parents=True)
    (bindir / "ssdwear").symlink_to("/opt/pipx/venvs/ssdwear/bin/ssdwear")
    mail = Path(settings["SMARTD_RUN_D"]) / "05ssdwear"
    mail.write_text("#!/bin/sh\n")
    removal = _uninstall(tmp_path, **settings)
    assert removal.returncode == 0, removal.stderr
    assert f"left: {bindir / 'ssdwear'} (not the link to {prefix}/bin/ssdwear that install.sh makes)" in \
        removal.stdout.splitlines()
    assert os.path.islink(bindir / "ssdwear") and not mail.exists()
    prefix.mkdir(parents=True)
    (prefix / "data").write_text("not a venv\n")
    refused = _uninstall(tmp_path, **settings)
    assert (refused.returncode, refused.stdout) == (1, "")
    assert refused.stderr == f"install.sh: {prefix} is not a virtual environment (no pyvenv.cfg): nothing removed; " \
                             "set PREFIX to the one install.sh made\n"
    assert (prefix / "data").is_file() and os.path.islink(bindir / "ssdwear")


def test_install_refuses_an_unknown_argument_in_one_line(tmp_path: Path) -> None:
    # every place in the temporary folder: an install.sh that took the argument for none would install there
    env = {**os.environ, **_every_setting(tmp_path)}
    proc = subprocess.run(["sh", str(ROOT / "contrib" / "install.sh"), "--remove"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "install.sh: unknown argument '--remove': give none to install or upgrade, or --uninstall\n"


@pytest.mark.slow  # a pip install (~10 s)
def test_install_leaves_a_path_a_debian_package_owns_and_warns(tmp_path: Path) -> None:
    """Issue 25.11: the ssdwear package installs the smartd mail script and the bash and fish completions at the
    paths install.sh uses. dpkg's answer decides (a dpkg-query first on PATH stands in for a machine with the
    package; the real dpkg and package are in tests/system/test_deb.py's VM): an owned path is not written, and
    install.sh says the package is there too."""
    settings = _every_setting(tmp_path)
    owned = f"{settings['BASH_COMPLETION_DIR']}/ssdwear"
    fake = tmp_path / "fake-dpkg"
    fake.mkdir()
    (fake / "dpkg-query").write_text(f'#!/bin/sh\ncase "$2" in {owned}|/usr/bin/ssdwear) echo "ssdwear: $2";; '
                                     '*) echo "dpkg-query: no path found matching pattern $2" >&2; exit 1;; esac\n')
    (fake / "dpkg-query").chmod(0o755)
    proc = _install(ROOT, tmp_path, **settings, PATH=f"{fake}:{os.environ['PATH']}")
    assert proc.returncode == 0, proc.stderr[-2000:]
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("install.sh: warning: ")]
    assert warnings[0].startswith("install.sh: warning: the Debian package ssdwear is installed too: ")
    assert warnings[1:] == [f"install.sh: warning: {owned} belongs to the Debian package ssdwear: left as the "
                            "package has it"]
    assert not os.path.lexists(owned) and f"completion for bash: {owned}" not in proc.stdout
    assert os.path.isfile(f"{settings['FISH_COMPLETION_DIR']}/ssdwear.fish")


def test_ci_runs_the_readmes_first_command_as_it_stands_there() -> None:
    """Issue 25.3: .ci/run runs command 1, then the suite twice, then install.sh --uninstall; the command it runs
    is read from the README (its own line, run here), so the two cannot drift apart."""
    ci = (ROOT / ".ci" / "run").read_text()
    [line] = [x for x in ci.splitlines() if x.startswith("command1=")]
    got = subprocess.run(["sh", "-c", f'{line}\nprintf "%s" "$command1"'], cwd=ROOT, capture_output=True, text=True,
                         timeout=30)
    assert got.stdout == readme_first_command()
    steps = [x.strip() for x in ci.splitlines()]
    assert steps.index('sh -c "$command1"') < steps.index("for run in 1 2; do") < \
        steps.index("sh contrib/install.sh --uninstall")
