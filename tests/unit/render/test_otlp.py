"""The OTLP/JSON ssdwear writes (render/otlp.py), read by the OpenTelemetry protocol's own JSON mapping
(opentelemetry-proto's ExportMetricsServiceRequest through protobuf's json_format, which refuses an unknown field or
a value of the wrong type), and held to the hardware semantic conventions' required attributes."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1.metrics_service_pb2 import ExportMetricsServiceRequest
from support.builders import nvme

from ssdwear.assess.report import assess, failed
from ssdwear.render.otlp import HARDWARE, NAMES, otlp_json
from ssdwear.render.prometheus import METRICS

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
# semantic-conventions, model/hardware: each metric's required data point attributes
REQUIRED = {"hw.physical_disk.endurance_utilization": {"hw.id", "hw.physical_disk.state"},
            "hw.physical_disk.size": {"hw.id"}, "hw.errors": {"hw.id", "hw.type"},
            "hw.status": {"hw.id", "hw.type", "hw.state"}}


def request(text: str) -> dict[str, Any]:
    """The request as the protocol reads it: parsed into the proto, then back to its JSON form."""
    message = json_format.Parse(text, ExportMetricsServiceRequest())
    return json_format.MessageToDict(message)


def attrs(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {a["key"]: next(iter(a["value"].values())) for a in items}


def metrics(doc: dict[str, Any], index: int = 0) -> dict[str, dict[str, Any]]:
    return {m["name"]: m for m in doc["resourceMetrics"][index]["scopeMetrics"][0]["metrics"]}


def test_a_drive_is_a_resource_with_semantic_convention_metrics() -> None:
    drive = replace(assess(nvme(10)), capacity_bytes=1_920_383_410_176)
    worn = replace(drive, used_percent=104.0)
    doc = request(otlp_json([drive, worn], NOW, "db1", "0.2.0"))
    assert len(doc["resourceMetrics"]) == 3  # two drives and the run
    resource = attrs(doc["resourceMetrics"][0]["resource"]["attributes"])
    assert resource == {"host.name": "db1", "hw.id": "NVME1", "hw.type": "physical_disk", "hw.name": "/dev/nvme0",
                        "hw.model": "Example NVMe", "hw.serial_number": "NVME1", "hw.physical_disk.type": "SSD"}
    found = metrics(doc)
    for name, required in REQUIRED.items():
        for point in found[name].get("gauge", found[name].get("sum", {}))["dataPoints"]:
            assert required <= set(attrs(point.get("attributes", []))), name
    endurance = found["hw.physical_disk.endurance_utilization"]
    assert endurance["unit"] == "1" and endurance["gauge"]["dataPoints"][0]["asDouble"] == 0.9
    assert metrics(doc, 1)["hw.physical_disk.endurance_utilization"]["gauge"]["dataPoints"][0].get("asDouble", 0) == 0
    assert metrics(doc, 1)["ssdwear.used"]["gauge"]["dataPoints"][0]["asDouble"] == 1.04  # the figure, unclamped
    written = found["ssdwear.host_written"]
    assert written["unit"] == "By" and written["sum"]["isMonotonic"] is True
    assert written["sum"]["aggregationTemporality"] == "AGGREGATION_TEMPORALITY_CUMULATIVE"
    assert written["sum"]["dataPoints"][0]["timeUnixNano"] == "1772366400000000000"
    assert found["hw.physical_disk.size"]["sum"]["dataPoints"][0]["asInt"] == "1920383410176"
    status = {attrs(p["attributes"])["hw.state"]: p.get("asInt", "0") for p in found["hw.status"]["sum"]["dataPoints"]}
    assert status == {"ok": "1", "predicted_failure": "0"}
    errors = found["hw.errors"]["sum"]["dataPoints"][0]
    assert "error.type" not in attrs(errors["attributes"])  # conditionally required: only once an error occurred


def test_a_drive_not_read_is_its_name_and_read_ok_0() -> None:
    doc = request(otlp_json([failed("/dev/sdz", "no such device")], NOW, None, "0.2.0"))
    assert attrs(doc["resourceMetrics"][0]["resource"]["attributes"]) == {
        "hw.id": "/dev/sdz", "hw.type": "physical_disk", "hw.name": "/dev/sdz"}
    assert list(metrics(doc)) == ["ssdwear.read_ok"]
    assert metrics(doc)["ssdwear.read_ok"]["gauge"]["dataPoints"][0].get("asInt", "0") == "0"


def test_every_drive_metric_has_an_opentelemetry_name() -> None:
    """A metric added to the exposition needs its OTLP name (or a hardware convention) before it ships."""
    not_per_drive = {name for name in METRICS if name.startswith(("ssdwear_group_", "ssdwear_member_"))} | {
        "ssdwear_drive_info", "ssdwear_last_run_timestamp_seconds", "ssdwear_run_duration_seconds", "ssdwear_drives"}
    assert set(METRICS) - not_per_drive == set(NAMES) | HARDWARE
    assert len({otel for otel, *_ in NAMES.values()}) == len(NAMES)
