"""ssdwear_drive_info joins ssdwear's series to smartctl_exporter's and node_exporter's (issue 29 item 4): the queries
docs/monitoring.md shows, evaluated by promtool over series in each exporter's own shape, ssdwear's being the real
exposition of the fixtures/fleet drives; and the info metric's labels are smartctl_exporter's names."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from support.paths import FIXTURES, ROOT
from support.tools import require

from ssdwear.cli.app import App
from ssdwear.cli.main import cli

NODE = "db1:9100"  # node_exporter, which serves ssdwear's textfile and node_disk_info
SMARTCTL_EXPORTER = "db1:9633"
QUERY = re.compile(r"<!-- promql: (?P<name>[^>]*?) -->\n```promql\n(?P<expr>.*?)```", re.S)
SERIES = re.compile(r'^(?P<name>[a-z_]+)(?:\{(?P<labels>.*)\})? (?P<value>\S+)$')
LABEL = re.compile(r'([a-z_]+)="((?:[^"\\]|\\.)*)"')
# smartctl_exporter's smartctl_device labels (prometheus-community/smartctl_exporter, metrics.go, metricDeviceModel)
SMARTCTL_DEVICE_LABELS = ("device", "interface", "protocol", "model_family", "model_name", "serial_number",
                          "ata_additional_product_id", "firmware_version", "ata_version", "sata_version", "form_factor",
                          "scsi_vendor", "scsi_product", "scsi_revision", "scsi_version")

Series = tuple[str, dict[str, str], float]


def exposition() -> str:
    result = CliRunner().invoke(cli, ["--no-history", "--replay", str(FIXTURES / "fleet"), "report", "--format",
                                      "prometheus"], obj=App())
    assert result.exit_code == 0, result.output
    return result.stdout


def parse(text: str, instance: str) -> list[Series]:
    out = []
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        m = SERIES.match(line)
        assert m, line
        labels = {k: json.loads(f'"{v}"') for k, v in LABEL.findall(m["labels"] or "") if v}
        out.append((m["name"], {**labels, "instance": instance}, float(m["value"])))
    return out


def smartctl_documents() -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted(FIXTURES.glob("fleet/smartctl --json=c -x *@3.out"))]


def smartctl_exporter_series(doc: dict[str, Any]) -> list[Series]:
    """What smartctl_exporter makes of one `smartctl --json` document (smartctl.go: NewSMARTctl, buildDeviceLabel,
    mineDevice; a label it fills with "" is absent in Prometheus): its device name (/dev/ stripped, '/' -> '_', the -d
    type appended where it holds a comma), smartctl_device and the current temperature."""
    name, dtype = doc["device"]["name"], doc["device"]["type"]
    device = re.sub(r"^/dev/(?:disk/by-id/|disk/by-path/|)", "", name).replace("/", "_")
    if "," in dtype:
        device += "_" + dtype.replace(",", "_")
    values = {"device": device, "interface": dtype, "protocol": doc["device"]["protocol"],
              "model_family": doc.get("model_family", "unknown"), "model_name": doc.get("model_name", "unknown"),
              "serial_number": doc.get("serial_number", ""), "ata_additional_product_id": "unknown",
              "firmware_version": doc.get("firmware_version", ""),
              "form_factor": doc.get("form_factor", {}).get("name", "")}
    labels = {k: values[k] for k in SMARTCTL_DEVICE_LABELS if values.get(k)}
    return [("smartctl_device", {**labels, "instance": SMARTCTL_EXPORTER}, 1.0),
            ("smartctl_device_temperature", {"device": device, "temperature_type": "current",
                                             "instance": SMARTCTL_EXPORTER}, float(doc["temperature"]["current"]))]


def node_disk_info(doc: dict[str, Any], ssdwear_wwn: str | None) -> Series:
    """node_exporter's node_disk_info of the drive (collector/diskstats_linux.go: device, major, minor, path, wwn,
    model, serial, revision from udev; an NVMe controller's namespace is the block device). The path and the
    numbers are made up, in udev's form."""
    nvme = doc["device"]["type"] == "nvme"
    labels = {"device": "nvme0n1" if nvme else "sda", "major": "259" if nvme else "8", "minor": "0",
              "path": "pci-0000:01:00.0-nvme-1" if nvme else "pci-0000:00:17.0-ata-1",
              "model": doc["model_name"].replace(" ", "_"), "serial": doc["serial_number"],
              "revision": doc["firmware_version"], "instance": NODE}
    if ssdwear_wwn:
        labels["wwn"] = "0x" + ssdwear_wwn
    return ("node_disk_info", labels, 1.0)


def series_text(name: str, labels: dict[str, str]) -> str:
    return name + "{" + ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(labels.items())) + "}"


def docs_queries() -> dict[str, str]:
    found = {m["name"]: m["expr"] for m in QUERY.finditer((ROOT / "docs" / "monitoring.md").read_text())}
    assert len(found) == 3, found
    return found


def expected(queries: dict[str, str], ours: list[Series], theirs: list[Series],
             node: list[Series]) -> dict[str, list[tuple[dict[str, str], float]]]:
    """What each query must give: the join done by hand over the same series (the labels a group_left copies)."""
    info = {s[1]["device"]: s[1] for s in ours if s[0] == "ssdwear_drive_info"}
    device_of = {s[1]["serial_number"]: s[1] for s in theirs if s[0] == "smartctl_device"}
    by_device = {s[1]["device"]: s[1] for s in theirs if s[0] == "smartctl_device"}
    slot = {s[1]["serial"]: s[1]["path"] for s in node}

    wear_out = [({**s[1], "serial_number": info[s[1]["device"]]["serial_number"],
                  "model_family": device_of[info[s[1]["device"]]["serial_number"]]["model_family"]}, s[2])
                for s in ours if s[0] == "ssdwear_wears_out_lower_timestamp_seconds"]
    temperature: list[tuple[dict[str, str], float]] = []
    for s in theirs:
        if s[0] == "smartctl_device_temperature":
            serial = by_device[s[1]["device"]]["serial_number"]
            mine = next(i for i in info.values() if i["serial_number"] == serial)
            extra: dict[str, str] = {k: mine[k] for k in ("firmware_version", "wwn") if k in mine}
            temperature.append(({**s[1], "serial_number": serial, **extra}, s[2]))
    used = [({**s[1], "path": slot[s[1]["serial"]]}, s[2]) for s in ours if s[0] == "ssdwear_used_ratio"]
    names = list(queries)
    return {names[0]: wear_out, names[1]: temperature, names[2]: used}


def test_drive_info_has_smartctl_exporters_label_names() -> None:
    ours = parse(exposition(), NODE)
    info = [s[1] for s in ours if s[0] == "ssdwear_drive_info"]
    assert {i["device"]: (i["model_name"], i["serial_number"], i["firmware_version"], i["interface"])
            for i in info} == {"/dev/nvme0": ("SAMSUNG MZQLB1T9HAJR-00007", "S436NA0M000001", "EDA7202Q", "nvme"),
                               "/dev/sda": ("Samsung SSD 860 EVO 1TB", "S3Z9NB0K000001X", "RVT03B6Q", "sat")}
    assert info[1]["wwn"] == "5002538000860002" and "wwn" not in info[0]  # the NVMe drive reports no WWN
    theirs = {k for doc in smartctl_documents() for s in smartctl_exporter_series(doc) if s[0] == "smartctl_device"
              for k in s[1]}
    assert {k for i in info for k in i} - {"wwn", "instance"} <= theirs


def test_the_documented_joins_evaluate_over_both_exporters(tmp_path: Path) -> None:
    promtool = require("promtool")
    ours = parse(exposition(), NODE)
    docs = smartctl_documents()
    theirs = [s for doc in docs for s in smartctl_exporter_series(doc)]
    wwn = {s[1]["serial_number"]: s[1].get("wwn") for s in ours if s[0] == "ssdwear_drive_info"}
    node = [node_disk_info(doc, wwn[doc["serial_number"]]) for doc in docs]
    queries = docs_queries()
    wanted = expected(queries, ours, theirs, node)
    assert all(wanted.values()), wanted  # every query finds every drive
    tests: dict[str, object] = {"rule_files": [], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": [{"series": series_text(name, labels), "values": repr(value)}
                         for name, labels, value in [*ours, *theirs, *node]],
        "promql_expr_test": [{"expr": queries[name], "eval_time": "0m",
                              "exp_samples": [{"labels": series_text("", labels), "value": value}
                                              for labels, value in wanted[name]]} for name in queries]}]}
    (tmp_path / "join.test.yml").write_text(yaml.safe_dump(tests, sort_keys=False))
    result = subprocess.run([promtool, "test", "rules", "join.test.yml"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
