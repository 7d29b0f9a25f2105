"""Prometheus: the exposition passes promtool, the alert rules pass their unit tests, and a real
node_exporter serves the textfile that `ssdwear sample --textfile` writes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.paths import FIXTURES, ROOT
from support.tools import require, scrape_textfile

from ssdwear.cli.app import App
from ssdwear.cli.main import cli
from ssdwear.render.prometheus import METRICS, exposition
from ssdwear.smartctl.replay import ReplayRunner

RULES = ROOT / "contrib" / "prometheus"


def prometheus_text(*args: str) -> str:
    result = CliRunner().invoke(cli, ["--no-history", "--replay", str(FIXTURES / "intel"), "report",
                                      "--represents", "1d", "--format", "prometheus", *args], obj=App())
    assert result.exit_code == 0, result.output
    return result.stdout


def test_exposition_names_and_values() -> None:
    text = prometheus_text()
    assert ('ssdwear_life_remaining_seconds{device="/dev/sda",model="INTEL SSDSA2BZ200G3",'
            'serial="CVPR0000SEED710",method="timed-workload"} 589824000') in text  # 18.7 years x 365 days
    assert 'ssdwear_timed_window_valid{device="/dev/sdc",model="INTEL SSDSC2BA200G3",serial="BTTV0000S3700"} 0' \
        in text
    for line in text.splitlines():
        if not line.startswith("#"):
            assert line.split("{")[0].split(" ")[0] in METRICS


def test_failed_drive_is_a_metric_not_a_gap() -> None:
    from ssdwear.assess.report import failed

    text = exposition([failed("/dev/sdz", "no such device", reason="missing")], 1_700_000_000)
    assert 'ssdwear_read_ok{device="/dev/sdz",reason="missing"} 0' in text  # its place alone: nothing else is known
    assert "ssdwear_last_run_timestamp_seconds 1700000000" in text


def test_promtool_accepts_the_exposition(tmp_path: Path) -> None:
    promtool = require("promtool")
    result = subprocess.run([promtool, "check", "metrics"], input=prometheus_text(), capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # about 4 s: promtool starts and evaluates every case
def test_alert_and_fleet_rules_pass_promtool_unit_tests() -> None:
    promtool = require("promtool")
    for args in (["check", "rules", "ssdwear-alerts.yml"], ["test", "rules", "ssdwear-alerts.test.yml"],
                 ["check", "rules", "ssdwear-fleet.yml"], ["test", "rules", "ssdwear-fleet.test.yml"]):
        result = subprocess.run([promtool, *args], cwd=RULES, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stdout + result.stderr


def test_node_exporter_serves_the_sampled_textfile(tmp_path: Path) -> None:
    require("prometheus-node-exporter", "node_exporter")
    textfile_dir = tmp_path / "textfile"
    textfile_dir.mkdir()
    runner = ReplayRunner(FIXTURES / "fleet")
    result = CliRunner().invoke(cli, ["sample", "--textfile", str(textfile_dir)], obj=App(runner=runner))
    assert result.exit_code == 0 and result.output == "", result.output
    assert [p.name for p in textfile_dir.iterdir()] == ["ssdwear.prom"]  # no temporary file left behind

    _, body = scrape_textfile(textfile_dir)
    assert 'ssdwear_used_ratio{device="/dev/nvme0",model="SAMSUNG MZQLB1T9HAJR-00007",' \
           'serial="S436NA0M000001",source="nvme_percentage_used"} 0.1' in body
    assert 'ssdwear_host_written_bytes_total{device="/dev/sda"' in body


def test_the_changelog_names_only_real_metrics() -> None:
    """Issue 17.18: the CHANGELOG named `ssdwear_years_remaining_lower_seconds`, which does not exist."""
    import re

    named = set(re.findall(r"`(ssdwear_[a-z_]+)`", (ROOT / "CHANGELOG.md").read_text()))
    assert named and named <= set(METRICS), named - set(METRICS)


SERIES_PER_DRIVE = 40  # the cardinality budget (issue 29 item 4): a 10,000-server fleet pays for every series


def replay_folders() -> list[Path]:
    return sorted({p.parent for p in FIXTURES.rglob("smartctl --scan-open*.out")})


def saved_outputs() -> list[Path]:
    return sorted(p for folder in ("corpus", "corpus-freebsd", "edited") for p in (FIXTURES / folder).rglob("*")
                  if p.suffix in (".txt", ".json"))


def series_per_drive(text: str) -> dict[str, int]:
    """How many series each drive of an exposition has (a drive: its device label)."""
    import re

    counts: dict[str, int] = {}
    for line in text.splitlines():
        m = re.search(r'\bdevice="((?:[^"\\]|\\.)*)"', line)
        if m and not line.startswith(("#", "ssdwear_member_info")):
            counts[m[1]] = counts.get(m[1], 0) + 1
    return counts


@pytest.mark.slow
def test_every_fixture_drive_stays_within_the_series_budget() -> None:
    """Every drive of every replayed machine and every saved output: at most SERIES_PER_DRIVE series each."""
    counts: dict[str, int] = {}
    for folder in replay_folders():
        result = CliRunner().invoke(cli, ["--no-history", "--replay", str(folder), "report", "--format",
                                          "prometheus"], obj=App())
        assert result.exit_code in (0, 1, 3), result.output
        counts.update({f"{folder.name}:{d}": n for d, n in series_per_drive(result.stdout).items()})
    for path in saved_outputs():
        result = CliRunner().invoke(cli, ["analyze", "--format", "prometheus", str(path)], obj=App())
        counts.update({f"{path.name}:{d}": n for d, n in series_per_drive(result.stdout).items()})
    assert len(counts) > 150, len(counts)  # the 27 machines' drives and the saved outputs were all read
    assert max(counts.values()) <= SERIES_PER_DRIVE, sorted(counts.items(), key=lambda kv: -kv[1])[:5]
    assert min(counts.values()) >= 1
