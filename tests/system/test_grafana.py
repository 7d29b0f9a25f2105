"""Grafana: contrib/grafana/ssdwear.json is an importable dashboard, every PromQL expression in it parses
(promtool check rules) and selects series that a real node_exporter serves from the textfile sampled from
fixtures/fleet (promtool test rules: one alert per expression that must fire)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from support.paths import FIXTURES, ROOT
from support.tools import require, scrape_textfile

from ssdwear.cli.app import App
from ssdwear.cli.main import cli
from ssdwear.render.prometheus import METRICS
from ssdwear.smartctl.replay import ReplayRunner

DASHBOARD = ROOT / "contrib" / "grafana" / "ssdwear.json"
DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}

# Grafana's own variables, with values a query could get; the dashboard's variables are all regex matchers
# (=~"$instance"), and ".*" is what their "All" stands for.
BUILTIN = {"__rate_interval": "5m", "__interval": "5m", "__range": "5m", "__interval_ms": "300000",
           "__range_s": "300", "__range_ms": "300000"}
VARIABLE = re.compile(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)|\[\[(\w+)(?::\w+)?\]\]")
LABEL_VALUES = re.compile(r"label_values\(\s*(?:(?P<selector>.+?)\s*,\s*)?(?P<label>\w+)\s*\)", re.DOTALL)
SAMPLE = re.compile(r"(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+(?P<value>\S+)(?:\s+-?\d+)?")


def dashboard() -> dict[str, Any]:
    return dict(json.loads(DASHBOARD.read_text(encoding="utf-8")))


def panels(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every panel, including those inside rows (a collapsed row keeps its panels in its own `panels`)."""
    for panel in items:
        yield panel
        yield from panels(panel.get("panels", []))


def user_variables(board: dict[str, Any]) -> set[str]:
    return {var["name"] for var in board["templating"]["list"]}


def concrete(expr: str, variables: set[str]) -> str:
    """The expression as Grafana would send it, with every variable given a value."""
    def value(match: re.Match[str]) -> str:
        name = next(group for group in match.groups() if group)
        if name in BUILTIN:
            return BUILTIN[name]
        assert name in variables, f"${name} is not a variable of the dashboard: {expr}"
        return ".*"
    return VARIABLE.sub(value, expr)


def label_values_selector(query: str) -> str:
    """label_values(SELECTOR, LABEL) is Grafana's, not PromQL: the selector, narrowed to series with LABEL."""
    match = LABEL_VALUES.fullmatch(query.strip())
    assert match, f"only label_values(...) variable queries can be checked: {query}"
    selector, label = match["selector"] or "", match["label"]
    if selector.endswith("}"):
        return selector.replace("{", f'{{{label}!="", ', 1)
    return f'{selector}{{{label}!=""}}'


def expressions(board: dict[str, Any]) -> list[tuple[str, str]]:
    """(where, PromQL with the variables substituted) for every query of the dashboard."""
    variables = user_variables(board)
    found = []
    for panel in panels(board["panels"]):
        for target in panel.get("targets", []):
            if target.get("expr"):
                where = f'panel {panel["id"]} "{panel["title"]}" query {target["refId"]}'
                found.append((where, concrete(target["expr"], variables)))
    for var in board["templating"]["list"]:
        if var["type"] == "query":
            query = var["query"]["query"] if isinstance(var["query"], dict) else var["query"]
            found.append((f"variable ${var['name']}", concrete(label_values_selector(query), variables)))
    return found


def test_dashboard_is_importable() -> None:
    board = dashboard()
    assert board["uid"] == "ssdwear" and board["title"] == "ssdwear"
    assert board["schemaVersion"] >= 36
    assert board.get("id") is None  # an export for sharing: Grafana assigns the id on import
    variables = {var["name"]: var for var in board["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    instance = variables["instance"]
    assert instance["definition"] == "label_values(ssdwear_drives, instance)"
    for name in ("instance", "serial"):
        assert variables[name]["multi"] and variables[name]["includeAll"] and variables[name]["allValue"] == ".*"

    def datasources(node: Any) -> Iterator[Any]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "datasource":
                    yield value
                yield from datasources(value)
        elif isinstance(node, list):
            for item in node:
                yield from datasources(item)

    # No data source uid of the machine it was made on: every query goes to the one picked in $datasource.
    for ref in datasources(board):
        assert ref in (DATASOURCE, {"type": "grafana", "uid": "-- Grafana --"}), ref

    all_panels = list(panels(board["panels"]))
    ids = [panel["id"] for panel in all_panels]
    assert len(ids) == len(set(ids)), "panel ids must be unique"
    for panel in all_panels:
        if panel["type"] == "row":
            continue
        assert panel["datasource"] == DATASOURCE and panel["targets"], panel["title"]
        config = panel["fieldConfig"]
        units = [config["defaults"].get("unit")] + [prop["value"] for override in config["overrides"]
                                                    for prop in override["properties"] if prop["id"] == "unit"]
        assert any(units), f'panel "{panel["title"]}" has no unit'


def test_every_query_filters_by_the_selected_hosts() -> None:
    board = dashboard()
    variables = user_variables(board)
    for panel in panels(board["panels"]):
        for target in panel.get("targets", []):
            expr = target["expr"]
            for match in re.finditer(r"\b(ssdwear_\w+)(\{[^}]*\})?", expr):
                assert match[1] in METRICS, f'panel "{panel["title"]}": {match[1]} is not an ssdwear metric'
                assert 'instance=~"$instance"' in (match[2] or ""), f'panel "{panel["title"]}": {expr}'
            # A multi-value variable only works in a regex matcher.
            for match in VARIABLE.finditer(expr):
                name = next(group for group in match.groups() if group)
                if name in variables:
                    assert f'=~"{match[0]}"' in expr, f'panel "{panel["title"]}": {match[0]} outside =~"..."'


def test_every_expression_parses(tmp_path: Path) -> None:
    promtool = require("promtool")
    found = expressions(dashboard())
    rules = {"groups": [{"name": "ssdwear-dashboard", "rules": [
        {"record": f"dashboard:expression_{i}", "expr": expr} for i, (_, expr) in enumerate(found)]}]}
    (tmp_path / "dashboard.rules.yml").write_text(yaml.safe_dump(rules, sort_keys=False))
    result = subprocess.run([promtool, "check", "rules", "dashboard.rules.yml"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    output = result.stdout + result.stderr
    named = {int(i) for i in re.findall(r"dashboard:expression_(\d+)", output)} or set(range(len(found)))
    assert result.returncode == 0, output + "".join(f"\ndashboard:expression_{i} is {found[i][0]}: {found[i][1]}"
                                                   for i in sorted(named))


def served_by_node_exporter(tmp_path: Path) -> tuple[str, str]:
    """(instance, /metrics body) of a real node_exporter serving the textfile sampled from fixtures/fleet."""
    require("prometheus-node-exporter", "node_exporter")
    textfile_dir = tmp_path / "textfile"
    textfile_dir.mkdir()
    result = CliRunner().invoke(cli, ["sample", "--textfile", str(textfile_dir)],
                                obj=App(runner=ReplayRunner(FIXTURES / "fleet")))
    assert result.exit_code == 0, result.output
    return scrape_textfile(textfile_dir)


def input_series(instance: str, body: str) -> list[dict[str, str]]:
    """The scraped ssdwear_ samples as promtool input series over 2 hours at 1 minute, labelled as Prometheus
    labels a scrape (instance, job): gauges constant, counters rising so that rate() is not zero."""
    kinds = {}
    series = []
    for line in body.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(maxsplit=3)
            kinds[name] = kind
        elif line.startswith("ssdwear_"):
            match = SAMPLE.fullmatch(line)
            assert match, line
            labels = ",".join(filter(None, [f'instance="{instance}",job="node"', match["labels"]]))
            value = float(match["value"])
            step = max(1.0, value * 1e-6) if kinds[match["name"]] == "counter" else 0.0
            series.append({"series": f"{match['name']}{{{labels}}}", "values": f"{value!r}+{step!r}x120"})
    return series


def test_every_expression_selects_served_series(tmp_path: Path) -> None:
    promtool = require("promtool")
    instance, body = served_by_node_exporter(tmp_path)
    series = input_series(instance, body)
    found = expressions(dashboard())

    # One alert per expression that fires while the expression selects anything: at 90 minutes every one must.
    # No expression may legitimately select nothing on the fleet fixture (two healthy, readable drives):
    # counts of bad drives are written as sum(... == bool 0), which is 0, not empty, when all is well.
    rules = {"groups": [{"name": "ssdwear-dashboard", "rules": [
        {"alert": f"Expression{i}", "expr": f"count({expr}) > 0", "labels": {"where": where}}
        for i, (where, expr) in enumerate(found)]}]}
    tests = {"rule_files": ["dashboard.rules.yml"], "evaluation_interval": "1m", "tests": [{
        "interval": "1m",
        "input_series": series,
        "alert_rule_test": [{"eval_time": "90m", "alertname": f"Expression{i}",
                             "exp_alerts": [{"exp_labels": {"where": where}}]} for i, (where, _) in enumerate(found)],
    }]}
    (tmp_path / "dashboard.rules.yml").write_text(yaml.safe_dump(rules, sort_keys=False))
    (tmp_path / "dashboard.test.yml").write_text(yaml.safe_dump(tests, sort_keys=False))
    result = subprocess.run([promtool, "test", "rules", "dashboard.test.yml"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr

    # An `or` branch can select nothing while the whole expression still does: every metric named must be served.
    served = {s["series"].split("{")[0] for s in series}
    for where, expr in found:
        for name in re.findall(r"\bssdwear_\w+", expr):
            assert name in served, f"{where}: {name} is not among the series node_exporter serves"
