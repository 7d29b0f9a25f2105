"""The Python API: the same reports as the CLI, as values; cheap to import; errors as one-line exceptions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import CORPUS, FIXTURES, ROOT

import ssdwear
from ssdwear.cli.app import App
from ssdwear.cli.main import cli

INTEL_710 = CORPUS / "linuxhw-EnterpriseDrive__intel-ssdsa2bz200g3__1.txt"


def _python(code: str) -> str:
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_one_liner_from_a_fresh_interpreter() -> None:
    code = f"import ssdwear; print(ssdwear.analyze_files([{str(INTEL_710)!r}])[0].to_dict()['used_percent'])"
    assert _python(code) == "10.0\n"


def test_import_is_cheap_and_names_load_on_first_use() -> None:
    code = ("import sys, ssdwear; heavy = [m for m in ('click', 'rich', 'yaml', 'sqlite3', 'ssdwear.run.api', "
            "'ssdwear.smartctl.parse', 'ssdwear.run.session') if m in sys.modules]; print(heavy); ssdwear.read_drives; "
            "print('ssdwear.run.api' in sys.modules)")
    assert _python(code) == "[]\nTrue\n"


def test_exports_are_what_all_says() -> None:
    assert set(ssdwear.__all__) == set(ssdwear._EXPORTS) | {"__version__"}
    for name in ssdwear.__all__:
        assert getattr(ssdwear, name) is not None
    with pytest.raises(AttributeError):
        ssdwear.no_such_name  # noqa: B018


def _cli_json(args: list[str]) -> dict:
    result = CliRunner().invoke(cli, ["--no-history", *args, "--format", "json"], obj=App())
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_to_dict_is_the_cli_json_entry() -> None:
    [report] = ssdwear.analyze_files([INTEL_710])
    [entry] = _cli_json(["analyze", str(INTEL_710)])["drives"]
    assert json.loads(json.dumps(report.to_dict())) == entry


def test_read_drives_gives_what_report_gives() -> None:
    reports = ssdwear.read_drives(replay=FIXTURES / "intel", represents="1d")
    doc = _cli_json(["--replay", str(FIXTURES / "intel"), "report", "--represents", "1d"])
    assert [json.loads(json.dumps(r.to_dict())) for r in reports] == doc["drives"]
    assert [r.projection.years_new_drive for r in reports[:2] if r.projection] == \
           pytest.approx([18.7, 4.6], abs=0.05)
    named = ssdwear.read_drives(["/dev/sdb"], device_type="sat", replay=FIXTURES / "intel", represents=1440)
    assert [r.serial for r in named] == ["CVPR0000SEED320"]


def test_unreadable_files_are_reports_with_the_reason(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("not smartctl\n")
    reports = ssdwear.analyze_files([INTEL_710, junk, tmp_path])
    assert [r.error is None for r in reports] == [True, False, False]
    assert reports[1].device and reports[1].device.endswith("junk.txt") and "junk.txt" in (reports[1].error or "")
    assert "directory" in (reports[2].error or "")


def test_errors_are_one_line_exceptions(tmp_path: Path) -> None:
    with pytest.raises(ssdwear.UsageError, match="list of paths"):
        ssdwear.analyze_files(str(INTEL_710))
    with pytest.raises(ssdwear.SsdwearError) as missing:
        ssdwear.read_drives(["/dev/sda"], smartctl=str(tmp_path / "no-smartctl"))
    assert "\n" not in str(missing.value)
    with pytest.raises(ssdwear.ParseError):
        ssdwear.parse_output(b"\x00\x01 nothing here")


def test_parse_output_reads_bytes_and_text() -> None:
    data = INTEL_710.read_bytes()
    snap = ssdwear.parse_output(data)
    assert isinstance(snap, ssdwear.Snapshot) and snap.model == "INTEL SSDSA2BZ200G3"
    assert ssdwear.parse_output(data.decode()) == snap
