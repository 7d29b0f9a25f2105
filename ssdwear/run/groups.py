"""The redundancy groups of one run: the storage tools found here (or their recordings, for a replayed run) asked
about them (smartctl/pools/discover.py), their members resolved to the drives the run read (assess/groups.py).

For other commands (notify's group rules): `find_groups(session, assessed)` gives the Groups of a run already
assessed, with the run's warnings; `ssdwear.assess.groups.redundancy_lost_within(group, now, minutes)` and
`Group.lockstep` are what the rules test, `Group.key` what their state is kept under.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ssdwear.assess.groups import assess_groups
from ssdwear.model.errors import SsdwearError
from ssdwear.model.groups import Group
from ssdwear.smartctl.pools.discover import PROGRAMS, discover
from ssdwear.smartctl.runner import Runner

if TYPE_CHECKING:
    from ssdwear.host.config import Config
    from ssdwear.model.records import DriveReport

    from .session import Assessed, Session


@dataclass(frozen=True)
class Tools:
    """The storage tools a run may ask: program -> its runner, for those found (or recorded); and why the others
    could not be used (refused as root), for the warnings. `live` False for recordings (no sysfs to compare)."""

    runners: Mapping[str, Runner]
    problems: tuple[str, ...] = ()
    live: bool = True


def tools_for(config: Config, replay: Path | None) -> Tools:
    """The storage tools' runners: their recordings in `replay` (a tool with none was not installed on the recorded
    machine), else the programs found here, each looked up and checked as smartctl is (host/runner.py)."""
    if replay is not None:
        from ssdwear.smartctl.replay import ReplayRunner

        recorded = {p for p in PROGRAMS if replay.is_dir() and any(replay.glob(f"{p} *"))}
        return Tools({p: ReplayRunner(replay, program=p) for p in PROGRAMS if p in recorded}, live=False)
    from ssdwear.host.runner import storage_tool  # live runs only

    runners: dict[str, Runner] = {}
    problems = []
    for program in PROGRAMS:
        try:
            found = storage_tool(program, config.call_timeout)
        except SsdwearError as exc:
            problems.append(f"{program} not used: {exc}")
            continue
        if found is not None:
            runners[program] = found
    return Tools(runners, tuple(problems))


def groups_of(tools: Tools, reports: Sequence[DriveReport], now: datetime) -> tuple[tuple[Group, ...], list[str]]:
    """The groups and the warnings of asking for them (tools refused or failing, md arrays mdadm did not list)."""
    found = discover(tools.runners)
    warnings = [*tools.problems, *found.notes]
    if tools.live:
        from ssdwear.host.paths import md_arrays

        listed = {g.name for g in found.groups if g.kind == "md"}
        unlisted = [name for name in md_arrays() if name not in listed]
        if unlisted and "mdadm" not in tools.runners:
            warnings.append(f"md arrays {', '.join(unlisted)} exist (/sys/block) but mdadm was not found: install "
                            "mdadm to judge them")
        elif unlisted and not any("mdadm" in w for w in warnings):
            warnings.append(f"md arrays {', '.join(unlisted)} exist (/sys/block) but mdadm --detail --scan did not "
                            "list them: not judged")
    return assess_groups(found, reports, now), warnings


def find_groups(session: Session, assessed: Assessed) -> tuple[Group, ...]:
    """The groups of a run, its members the drives `assessed` reports; each warning goes to the session's."""
    groups, warnings = groups_of(session.tools(), assessed.reports, assessed.at)
    for warning in warnings:
        session.warn(warning)
    return groups
