"""`report` and `analyze` in the formats a fleet's engines read (issue 29 item 5): `--format influx` (line protocol,
read back by support/lineprotocol.py) and `--format otlp` (OTLP/JSON, read by opentelemetry-proto's protobuf JSON
mapping), over every replayed machine; the figures are the Prometheus exposition's."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from support.lineprotocol import parse
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.cli.main import cli
from ssdwear.render.otlp import NAMES

MACHINES = sorted({p.parent for p in FIXTURES.rglob("smartctl --scan-open*.out")})


NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def run(*args: str, codes: tuple[int, ...] = (0,)) -> str:
    result = CliRunner().invoke(cli, ["--no-history", *args], obj=App(clock=lambda: NOW, host=lambda: "db1"))
    assert result.exit_code in codes, result.output
    return result.stdout


def test_every_machine_in_line_protocol_one_point_per_drive_each_field_one_type() -> None:
    types: dict[str, set[type]] = {}
    drives = 0
    for machine in MACHINES:
        text = run("--replay", str(machine), "report", "--format", "influx", codes=(0, 1, 3))
        points = parse(text)
        assert len(points) == len(text.splitlines()), machine
        assert all(p.measurement == "ssdwear" and p.tags["host"] == "db1" and "device" in p.tags
                   and p.timestamp and p.timestamp > 1.7e18 for p in points), machine
        for p in points:
            for name, value in p.fields.items():
                types.setdefault(name, set()).add(type(value))
        drives += len(points)
    assert drives > 40
    assert {name: kinds for name, kinds in types.items() if len(kinds) > 1} == {}  # InfluxDB refuses a type change


def test_every_machine_in_otlp_is_a_valid_export_request() -> None:
    requests = 0
    for machine in MACHINES:
        text = run("--replay", str(machine), "report", "--format", "otlp", codes=(0, 1, 3))
        if not text:  # a machine whose recordings hold no drive (fixtures/formats/scan): nothing to export
            continue
        assert text.count("\n") == 1  # one request a line: the collector's file receiver reads them so
        json_format.Parse(text, ExportMetricsServiceRequest())  # raises on an unknown field or a wrong type
        requests += 1
    assert requests > 15


def exposition_values(text: str) -> dict[tuple[str, str], float]:
    """(metric, device) -> value of a Prometheus exposition."""
    out = {}
    for line in text.splitlines():
        m = re.match(r'(ssdwear_[a-z_]+)\{device="([^"]*)".* (\S+)$', line)
        if m:
            out[(m[1], m[2])] = float(m[3])
    return out


def test_the_three_formats_carry_the_same_figures() -> None:
    args = ("--replay", str(FIXTURES / "fleet"), "report", "--format")
    prometheus = exposition_values(run(*args, "prometheus"))
    request = json_format.MessageToDict(json_format.Parse(run(*args, "otlp"), ExportMetricsServiceRequest()))
    # every figure but the read's duration, which each run measures anew
    by_otel = {otel: name for name, (otel, *_) in NAMES.items() if name != "ssdwear_read_duration_seconds"}
    compared = 0
    for resource in request["resourceMetrics"][:-1]:
        device = next(a["value"]["stringValue"] for a in resource["resource"]["attributes"] if a["key"] == "hw.name")
        for metric in resource["scopeMetrics"][0]["metrics"]:
            if metric["name"] in by_otel:
                [point] = (metric.get("gauge") or metric["sum"])["dataPoints"]
                value = float(point.get("asDouble", point.get("asInt", 0)))
                assert value == pytest.approx(prometheus[(by_otel[metric["name"]], device)]), metric["name"]
                compared += 1
    assert compared > 30
    points = {p.tags["device"]: p.fields for p in parse(run(*args, "influx"))}
    for device, fields in points.items():
        assert fields["used_percent"] / 100 == pytest.approx(prometheus[("ssdwear_used_ratio", device)])
        assert fields["wears_out_timestamp_low"] == prometheus[("ssdwear_wears_out_lower_timestamp_seconds", device)]
        assert fields["host_bytes_written"] == prometheus[("ssdwear_host_written_bytes_total", device)]


def test_saved_outputs_name_no_host(tmp_path: Path) -> None:
    """analyze reads outputs from anywhere: no host tag, no host.name."""
    saved = next(FIXTURES.glob("corpus/pySMART__apple-ssd-ap0512z__1.txt"))
    [point] = parse(run("analyze", "--format", "influx", str(saved)))
    assert "host" not in point.tags and point.tags["model"] == "APPLE SSD AP0512Z"
    assert "host.name" not in run("analyze", "--format", "otlp", str(saved))


@pytest.mark.parametrize("fmt", ["influx", "otlp"])
def test_fallback_recordings_are_never_metrics(fmt: str) -> None:
    result = CliRunner().invoke(cli, ["--fallback-replay", str(FIXTURES / "fleet"), "report", "--format", fmt],
                                obj=App())
    assert result.exit_code == 2
    assert f"--fallback-replay is refused with --format {fmt}" in result.stderr


@pytest.mark.parametrize("fmt", ["influx", "otlp"])
def test_groups_are_not_silently_dropped(fmt: str) -> None:
    """The formats carry drives only: --groups with them is a usage error that says where the groups are."""
    result = CliRunner().invoke(cli, ["--no-history", "--replay", str(FIXTURES / "pools" / "md-raid1"), "report",
                                      "--groups", "--format", fmt], obj=App())
    assert result.exit_code == 2 and result.stdout == ""
    assert f"--groups is not in --format {fmt}" in result.stderr and "prometheus, json and yaml" in result.stderr
