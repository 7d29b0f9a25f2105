"""docs/json.md's GROUP, MEMBER and STEP say what `report --groups` and `plan --stagger` print, both ways (nothing
missing, nothing stale), over the hand-written ZFS machines; the envelope table names their keys."""

from __future__ import annotations

import json
import re

from support.cli import ssdwear_cli
from support.docs import DOCS, code_names, section, table_rows
from support.paths import FIXTURES

POOLS = FIXTURES / "pools"


def first_column(text: str) -> set[str]:
    return {name for row in table_rows(text)[1:] for name in code_names(row[0])}


def listed(text: str, label: str) -> set[str]:
    """The backticked names of the paragraph led by `label:` (up to the next blank line), what is in brackets
    (their values, their meaning) left out."""
    paragraph = text.split(f"{label}:", 1)[1].split("\n\n", 1)[0]
    while re.search(r"\([^()]*\)", paragraph):
        paragraph = re.sub(r"\([^()]*\)", "", paragraph)
    return set(re.findall(r"`([a-z_]+)`", paragraph))


def doc(*args: str) -> dict:
    result = ssdwear_cli(["--replay", str(POOLS / "zfs-raidz"), "--no-history", *args, "--format", "json"])
    return json.loads(result.stdout)


def test_every_group_and_member_field_is_documented() -> None:
    groups = doc("report", "--groups")["groups"]
    table = section(DOCS / "json.md", "GROUP")
    assert first_column(table) == set(groups[0])
    assert listed(table, "MEMBER") == set().union(*(m for g in groups for m in g["members"]))


def test_every_stagger_field_is_documented() -> None:
    plan = doc("plan", "--stagger", "backup/raidz2-1")
    step = section(DOCS / "json.md", "STEP (`plan --stagger`)")
    assert listed(step, "One per working member") == set(plan["schedule"][0])
    envelope = section(DOCS / "json.md", "The envelope")
    row = next(r[1] for r in table_rows(envelope) if "plan --stagger" in r[0])
    assert set(code_names(row)) == set(plan) - {"schema", "ssdwear", "generated_at", "origin"}
    assert {"name", "kind", "level", "tolerates"} == set(plan["group"])
    report = next(r[1] for r in table_rows(envelope) if "report" in code_names(r[0]))
    assert "`groups`: [GROUP]" in report
