"""The documentation's tables that state an interface say what the code does, both ways (nothing missing, nothing
stale): exit codes, the JSON fields of a drive and its projection, `used_source` values, config keys, Prometheus
metrics, and the README's command list."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

import pytest
from click.testing import CliRunner
from support.docs import DOCS, README, ROOT, code_names, section, table_rows
from support.paths import FIXTURES


def first_column_names(text: str) -> set[str]:
    """The backticked names in the first cell of each table row, `name{label}` read as name."""
    return {re.sub(r"\{.*", "", name) for row in table_rows(text)[1:] for name in code_names(row[0])}


def row(text: str, name: str) -> str:
    """The second cell of the table row whose first cell names `name`."""
    found = [r[1] for r in table_rows(text) if name in code_names(r[0])]
    assert found, f"no row for {name}"
    return found[0]


def braced(cell: str) -> set[str]:
    """The field names listed in the first {...} of a cell."""
    m = re.search(r"\{([^}]*)\}", cell)
    assert m, cell
    return {part.strip() for part in m.group(1).split(",")}


# -- exit codes ------------------------------------------------------------------------------------------


def documented_codes() -> set[int]:
    codes: set[int] = set()
    for cells in table_rows((DOCS / "exit-codes.md").read_text(encoding="utf-8"))[1:]:
        for part in cells[0].split(","):
            low, _, high = part.strip().partition("-")
            codes |= set(range(int(low), int(high or low) + 1))
    return codes


def test_every_exit_code_is_documented_and_no_other() -> None:
    from ssdwear.cli import app

    constants = {value for name, value in vars(app).items() if name.startswith("EXIT_")}
    assert {0, 1, 2, 3, 4, 5, 10, 11, 12} <= constants
    nagios = {0, 1, 2, 3}  # check's states
    assert constants <= documented_codes() <= constants | nagios


def test_the_readmes_exit_status_sentence_names_every_general_code() -> None:
    """Issue 25.12: it left out 1. The codes every command shares (docs/exit-codes.md's 0 to 3), each named."""
    readme = " ".join((DOCS.parent / "README.md").read_text(encoding="utf-8").split())
    sentence = re.search(r"Exit status 0 is [^;]*;", readme)
    assert sentence, "the README's exit-status sentence"
    named = {int(n) for n in re.findall(r"(?:^|, )(\d+) ", sentence.group(0).removeprefix("Exit status "))}
    assert named == {0, 1, 2, 3} <= documented_codes()


# -- JSON --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def drives() -> list[dict[str, Any]]:
    import ssdwear

    return [d.to_dict() for d in ssdwear.read_drives(replay=str(FIXTURES / "intel"), represents="1d")]


def json_page() -> str:
    return (DOCS / "json.md").read_text(encoding="utf-8")


def test_every_drive_field_is_documented(drives: list[dict[str, Any]]) -> None:
    table = section(DOCS / "json.md", "DRIVE")
    assert first_column_names(table) == set().union(*drives)
    for name in ("window", "writes", "health"):
        shown = set().union(*(d[name] for d in drives if d[name]))
        assert braced(row(table, name)) == shown, name
    assert braced(row(table, "used_sources")) == set().union(*(s for d in drives for s in d["used_sources"]))


def test_every_projection_field_is_documented(drives: list[dict[str, Any]]) -> None:
    table = section(DOCS / "json.md", "PROJECTION")
    documented = first_column_names(table)
    assert documented == set().union(*(d["projection"] for d in drives if d["projection"]))


def used_sources_in_code() -> set[str]:
    """Every used_source identifier the drive table can produce: the families' wear attributes and raw "% remaining"
    attributes, the standard indicators and the finer counters (the table's rows and the readings of it: every module
    of ssdwear/drives/)."""
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in sorted((ROOT / "ssdwear" / "drives").glob("*.py"))]
    found = set()
    for node in (n for tree in trees for n in ast.walk(tree)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = node.args
            if node.func.id == "UsedReading" and args and isinstance(args[0], ast.Constant):
                found.add(args[0].value)
            if node.func.id == "WearAttribute" and len(args) > 1 and isinstance(args[1], ast.Constant):
                found.add(args[1].value)
            if node.func.id == "RawRemaining" and len(args) > 2 and isinstance(args[2], ast.Constant):
                found.add(args[2].value)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id.endswith("_SOURCE")
                                                for t in node.targets) and isinstance(node.value, ast.Constant):
            found.add(node.value.value)
    from ssdwear.drives.timed import LIFETIME_SOURCES  # each family's E2h of a timer never reset, by its row

    return {name for name in found if isinstance(name, str)} | LIFETIME_SOURCES


def test_every_used_source_is_documented() -> None:
    in_code = used_sources_in_code()
    assert {"nvme_percentage_used", "samsung_177_wear_leveling_count", "intel_e2h_since_manufacture"} <= in_code
    documented = set(code_names(section(DOCS / "json.md", "`used_source` values").split("A hard disk")[0]))
    assert documented == in_code


def test_the_envelope_is_documented(drives: list[dict[str, Any]]) -> None:
    envelope = section(DOCS / "json.md", "The envelope")
    for key in ("schema", "ssdwear", "generated_at", "origin"):
        assert f'"{key}"' in envelope
    assert "`drives`: [DRIVE], `raid_volumes`" in row(envelope, "report")


def test_every_event_field_is_documented() -> None:
    """notify's events (issue 28.3): the table lists exactly the keys after the envelope, and the drive's and
    group's fields, of real events: a drive's from a replayed run, a group's from its record."""
    from datetime import timedelta

    from support.clock import T0

    from ssdwear.assess.alerts import GroupFacts, Rules
    from ssdwear.assess.transitions import EMPTY, Observed, evaluate
    from ssdwear.cli.main import cli
    from ssdwear.render.documents import event_doc

    result = CliRunner().invoke(cli, ["--no-history", "--replay", str(FIXTURES / "qemu"), "notify", "--dry-run",
                                      "--format", "json"])
    (drive_event,) = [json.loads(line) for line in result.stdout.splitlines()]
    group = GroupFacts("group:md:md0", "md0", "md", "raid1", lockstep=True,
                       redundancy_lost_low_at=T0 + timedelta(days=100), projected=True)
    group_event = event_doc(evaluate(Observed([group]), EMPTY, Rules(), T0).transitions[0])
    table = section(DOCS / "json.md", "EVENT")
    envelope = {"schema", "ssdwear", "generated_at", "origin"}
    assert first_column_names(table) == set(drive_event) - envelope == set(group_event)
    assert braced(row(table, "drive")) == set(drive_event["drive"])
    group_fields = group_event["group"]
    assert isinstance(group_fields, dict) and braced(row(table, "group")) == set(group_fields)
    from ssdwear.assess.alerts import EVENTS, RULES

    assert set(code_names(row(table, "event"))) == set(EVENTS)
    assert set(code_names(row(table, "rule"))) == set(RULES)


# -- configuration, metrics, commands ---------------------------------------------------------------------


def test_every_config_key_is_documented() -> None:
    """In docs/configuration.md's table, and in the example config the packages install (commented out)."""
    from ssdwear.assess.thresholds import THRESHOLD_NAMES
    from ssdwear.host.config import KNOWN_KEYS
    from ssdwear.host.notify_config import CHANNEL_OPTIONS, NOTIFY_KEYS

    table = section(DOCS / "configuration.md", "The config files")
    assert first_column_names(table) == set(KNOWN_KEYS)
    thresholds = row(table, "thresholds")
    assert [name for name in THRESHOLD_NAMES if f"`{name}`" not in thresholds] == []
    notify = row(table, "notify")
    options = {o for kind, names in CHANNEL_OPTIONS.items() for o in (kind, *names)}
    assert [name for name in (*NOTIFY_KEYS, *options) if f"`{name}" not in notify] == []
    example = (ROOT / "contrib" / "config.yaml.example").read_text(encoding="utf-8")
    said = set(re.findall(r"^#\s*-?\s*([a-z_]+):", example, re.M))
    assert set(KNOWN_KEYS) - said == set() and set(NOTIFY_KEYS) - said == set()


def test_every_metric_is_documented() -> None:
    from ssdwear.render.prometheus import METRICS

    assert first_column_names(section(DOCS / "monitoring.md", "Prometheus")) == set(METRICS)


def test_the_readme_lists_every_command() -> None:
    from ssdwear.cli.main import cli

    block = section(README, "Commands").split("```")[1]
    listed = re.findall(r"^ssdwear ([a-z-]+)", block, re.M)
    assert len(listed) == len(set(listed)) and set(listed) == {
        name for name, command in cli.commands.items() if not command.hidden}
