"""VictoriaMetrics (issue 29 item 6): vmalert accepts ssdwear's rule files, a real victoria-metrics on loopback takes
the textfile pushed by contrib/victoriametrics/ssdwear-push (with its `host` label) and the line protocol of
`--format influx`, and its MetricsQL gives the fleet rules' answers over what was pushed."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from support.paths import FIXTURES, ROOT
from support.tools import require, victoria_metrics

from ssdwear.cli.app import App
from ssdwear.cli.main import cli
from ssdwear.smartctl.replay import ReplayRunner

RULES = ROOT / "contrib" / "prometheus"
PUSH = ROOT / "contrib" / "victoriametrics" / "ssdwear-push"


@pytest.mark.parametrize("rules", ["ssdwear-fleet.yml", "ssdwear-alerts.yml"])
def test_vmalert_accepts_the_rules(rules: str) -> None:
    vmalert = require("vmalert")
    result = subprocess.run([vmalert, "-dryRun", f"-rule={RULES / rules}"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]


def test_vmalert_refuses_a_broken_rule(tmp_path: Path) -> None:
    """The dry run parses every expression (it is worth running): a rule file with a PromQL error fails it."""
    vmalert = require("vmalert")
    bad = tmp_path / "bad.yml"
    bad.write_text("groups:\n  - name: x\n    rules:\n      - record: a:b\n        expr: sum(rate(x[5m]) by\n")
    result = subprocess.run([vmalert, "-dryRun", f"-rule={bad}"], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "bad prometheus expr" in result.stderr


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        return bytes(response.read())


def post(url: str, body: bytes) -> None:
    request = urllib.request.Request(url, data=body, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status in (200, 204)


def settled(ask: Callable[[], list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """What VictoriaMetrics answers once what was written is searchable (it buffers new series for about a second):
    the first non-empty answer that a second look half a second later repeats, within 20 s."""
    deadline, last = time.monotonic() + 20, None
    while time.monotonic() < deadline:
        found = ask()
        if found and found == last:
            return found
        last = found
        time.sleep(0.5)
    raise AssertionError(f"VictoriaMetrics did not settle on an answer: {str(last)[:500]}")


def canonical(series: dict[str, Any]) -> str:
    return json.dumps(series["metric"], sort_keys=True)


def export(url: str, match: str) -> list[dict[str, Any]]:
    def ask() -> list[dict[str, Any]]:
        body = get(f"{url}/api/v1/export?" + urllib.parse.urlencode({"match[]": match})).decode()
        return sorted((json.loads(line) for line in body.splitlines() if line), key=canonical)

    return settled(ask)


def query(url: str, expr: str) -> list[dict[str, Any]]:
    def ask() -> list[dict[str, Any]]:
        doc = json.loads(get(f"{url}/api/v1/query?" + urllib.parse.urlencode({"query": expr})))
        assert doc["status"] == "success", doc
        return sorted(doc["data"]["result"], key=canonical)

    return settled(ask)


def rule(name: str) -> str:
    """The expression of a recording rule of ssdwear-fleet.yml (the first one recording `name`)."""
    groups = yaml.safe_load((RULES / "ssdwear-fleet.yml").read_text())["groups"]
    return str(next(r["expr"] for g in groups for r in g["rules"] if r.get("record") == name))


def sampled_textfile(directory: Path) -> Path:
    result = CliRunner().invoke(cli, ["--no-history", "sample", "--textfile", str(directory)],
                                obj=App(runner=ReplayRunner(FIXTURES / "fleet")))
    assert result.exit_code == 0, result.output
    return directory / "ssdwear.prom"


def quarters_ahead(at: float, now: datetime) -> int:
    when = datetime.fromtimestamp(at, timezone.utc)
    return (when.year * 4 + (when.month - 1) // 3) - (now.year * 4 + (now.month - 1) // 3)


@pytest.mark.slow
def test_the_pushed_textfile_and_the_fleet_rules_in_victoria_metrics(tmp_path: Path) -> None:
    require("curl")
    textfile = sampled_textfile(tmp_path)
    series = [line for line in textfile.read_text().splitlines() if line and not line.startswith("#")]
    with victoria_metrics(tmp_path / "vm") as url:
        pushed = subprocess.run([str(PUSH), url, str(textfile)], capture_output=True, text=True, timeout=60,
                                env={**os.environ, "SSDWEAR_HOST": "db1"})
        assert pushed.returncode == 0, pushed.stderr
        stored = export(url, '{__name__=~"ssdwear_.*"}')
        assert len(stored) == len(series)  # every series of the textfile, none lost or split
        assert all(s["metric"]["host"] == "db1" for s in stored)
        info = {s["metric"]["device"]: s["metric"] for s in stored if s["metric"]["__name__"] == "ssdwear_drive_info"}
        assert info["/dev/sda"]["serial_number"] == "S3Z9NB0K000001X" and info["/dev/sda"]["interface"] == "sat"

        now = datetime.now(timezone.utc)
        ahead = {r["metric"]["device"]: int(float(r["value"][1]))
                 for r in query(url, rule("ssdwear:wears_out_lower_quarters_ahead"))}
        wear_out = {s["metric"]["device"]: s["values"][-1] for s in stored
                    if s["metric"]["__name__"] == "ssdwear_wears_out_lower_timestamp_seconds"}
        assert ahead == {device: quarters_ahead(at, now) for device, at in wear_out.items()}
        [worst] = query(url, rule("instance:ssdwear_wears_out_lower_timestamp_seconds:bottom1"))
        earliest = min(wear_out, key=lambda device: wear_out[device])
        assert worst["metric"]["host"] == "db1" and worst["metric"]["device"] == earliest


@pytest.mark.slow
def test_victoria_metrics_reads_the_line_protocol(tmp_path: Path) -> None:
    """A real consumer of InfluxDB's line protocol (VictoriaMetrics' /write) reads every drive's numeric fields,
    with the escaped tags whole."""
    result = CliRunner().invoke(cli, ["--no-history", "--replay", str(FIXTURES / "fleet"), "report", "--format",
                                      "influx"], obj=App(host=lambda: "db one"))
    assert result.exit_code == 0, result.output
    with victoria_metrics(tmp_path / "vm") as url:
        post(f"{url}/write", result.stdout.encode())
        stored = export(url, '{__name__=~"ssdwear_.*"}')
    used = {s["metric"]["model"]: s["values"][-1] for s in stored if s["metric"]["__name__"] == "ssdwear_used_percent"}
    assert used == {"SAMSUNG MZQLB1T9HAJR-00007": 10, "Samsung SSD 860 EVO 1TB": 5}
    assert {s["metric"]["host"] for s in stored} == {"db one"}
    assert {s["metric"]["__name__"] for s in stored} >= {"ssdwear_years_remaining_low", "ssdwear_host_bytes_written",
                                                          "ssdwear_wears_out_timestamp_low", "ssdwear_read_ok"}


def test_the_push_says_what_is_missing(tmp_path: Path) -> None:
    """No textfile yet, or a host name that would not be a plain label value: one line and an exit status, no post."""
    missing = subprocess.run([str(PUSH), "http://127.0.0.1:9", str(tmp_path / "none.prom")], capture_output=True,
                             text=True, timeout=30, env={**os.environ, "SSDWEAR_HOST": "db1"})
    assert missing.returncode == 1 and missing.stderr.count("\n") == 1 and "no textfile to push" in missing.stderr
    (tmp_path / "ssdwear.prom").write_text("ssdwear_drives 0\n")
    odd = subprocess.run([str(PUSH), "http://127.0.0.1:9", str(tmp_path / "ssdwear.prom")], capture_output=True,
                         text=True, timeout=30, env={**os.environ, "SSDWEAR_HOST": "db1&extra_label=x=y"})
    assert odd.returncode == 2 and "set SSDWEAR_HOST" in odd.stderr
