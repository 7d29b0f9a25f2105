"""What ssdwear takes from pySMART, pinned against the installed pySMART (issue 18.5; host/runner.py says why).

ssdwear uses pySMART through its public API only: SMARTCTL_PATH (smartctl on PATH at import) to locate smartctl,
and runs the command line that Smartctl(smartctl_path, options).generic_call(args, pass_options=True) runs. When
pySMART changes either, these fail; they also fail if ssdwear reaches for a name pySMART keeps private again."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from support.paths import ROOT

ARGV_PRINTER = f"""#!{sys.executable}
import json, os, sys
print(json.dumps({{"argv": sys.argv, "locale": [os.environ.get("LC_ALL"), os.environ.get("LANG")]}}))
sys.stderr.write("said on stderr\\n")
sys.stdout.flush()
sys.stdout.buffer.write(b"\\xff not UTF-8\\n")
sys.exit(4)
"""


def fake_smartctl(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "smartctl"
    path.write_text(ARGV_PRINTER)
    path.chmod(0o755)
    return path


def test_the_runner_runs_the_command_line_pysmart_builds(tmp_path: Path) -> None:
    from ssdwear.host.runner import SmartctlRunner, import_pysmart

    smartctl = fake_smartctl(tmp_path / "bin")
    options, args = ["-T", "permissive"], ["--json=c", "-x", "-n", "standby", "-d", "sat", "/dev/sda"]
    lines, status = import_pysmart().smartctl.Smartctl(smartctl_path=str(smartctl), options=list(options)) \
        .generic_call(list(args), pass_options=True)
    by_pysmart = json.loads(lines[0])["argv"]
    result = SmartctlRunner(str(smartctl), options=options).run(args)
    ours = json.loads(result.stdout.splitlines()[0])
    assert by_pysmart == ours["argv"] == [str(smartctl), *options, *args]
    assert status == result.status == 4


def test_each_call_keeps_bytes_stderr_and_the_status_in_the_c_locale(tmp_path: Path) -> None:
    """What pySMART's generic_call cannot give, and why ssdwear runs the process itself."""
    from ssdwear.host.runner import SmartctlRunner

    result = SmartctlRunner(str(fake_smartctl(tmp_path / "bin"))).run(["-i", "/dev/sda"])
    assert json.loads(result.stdout.splitlines()[0])["locale"] == ["C", "C"]
    assert result.stdout.endswith(b"\xff not UTF-8\n") and result.stderr == b"said on stderr\n"
    assert result.status == 4 and result.args == ("-i", "/dev/sda")


def test_pysmart_locates_smartctl_on_path_at_import(tmp_path: Path) -> None:
    smartctl = fake_smartctl(tmp_path / "bin")
    code = ("from ssdwear.host.runner import import_pysmart, locate_smartctl; "
            "print(import_pysmart().utils.SMARTCTL_PATH); print(locate_smartctl(None))")
    env = {**os.environ, "PATH": str(smartctl.parent)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [str(smartctl), str(smartctl)]


def test_importing_pysmart_leaves_the_process_as_it_was() -> None:
    """pySMART writes LANG=C into os.environ and installs its logger class when imported (the first line shows it
    still does, so the guard is still needed); ssdwear's import puts both back."""
    code = ("import logging, os; os.environ['LANG'] = 'de_DE.UTF-8'; before = logging.getLoggerClass(); "
            "import pySMART; print(os.environ.get('LANG'), logging.getLoggerClass() is before); "
            "os.environ['LANG'] = 'de_DE.UTF-8'; logging.setLoggerClass(logging.Logger); "
            "import sys; [sys.modules.pop(m) for m in list(sys.modules) if m.startswith('pySMART')]; "
            "from ssdwear.host.runner import import_pysmart; import_pysmart(); "
            "print(os.environ.get('LANG'), logging.getLoggerClass() is logging.Logger)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["C False", "de_DE.UTF-8 True"]


def _pysmart_private_names() -> set[str]:
    """Every name pySMART's own source keeps private: methods, functions and attributes with one leading underscore."""
    spec = importlib.util.find_spec("pySMART")
    assert spec is not None and spec.origin is not None
    names = set()
    for path in Path(spec.origin).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else \
                node.attr if isinstance(node, ast.Attribute) else None
            if name and name.startswith("_") and not name.startswith("__"):
                names.add(name)
    return names


def test_ssdwear_uses_no_name_pysmart_keeps_private() -> None:
    private = _pysmart_private_names()
    assert "_exec" in private  # what ssdwear overrode before issue 18.5
    used = []
    for path in sorted((ROOT / "ssdwear").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(isinstance(n, (ast.Import, ast.ImportFrom)) and "pySMART" in ast.unparse(n) for n in ast.walk(tree)):
            continue
        for node in ast.walk(tree):
            name = node.name if isinstance(node, (ast.FunctionDef, ast.ClassDef)) else \
                node.attr if isinstance(node, ast.Attribute) else None
            if name in private:
                used.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}: {name}")
    assert used == []
