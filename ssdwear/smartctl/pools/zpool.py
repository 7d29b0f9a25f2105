"""`zpool status`: its pools' vdevs as redundancy groups, from the JSON of ZFS 2.3 (`-j`) or the text of any release.

What is read, from OpenZFS's cmd/zpool/zpool_main.c (zfs-2.3.0; the text layout is older and unchanged since):
- text (status_callback, print_status_config): a pool's `config:` table, one vdev a line, led by a tab and two
  spaces per level of depth (the pool's root vdev at 0, top-level vdevs at 2, their children at 4), then the name
  and the state; the allocation classes under a header line of their own at depth 0 (print_class_vdevs: `dedup`,
  `special`, `logs`, each followed by a tab), then `cache` (print_l2cache) and `spares` (print_spares).
- JSON (status_callback_json, vdev_stats_nvlist, class_vdevs_nvlist): `pools` by name, each with `vdevs` holding its
  root vdev (named as the pool) whose `vdevs` are the top-level vdevs, and the classes beside `vdevs`: `dedup`,
  `special`, `logs`, `l2cache`, `spares`; each vdev has `name`, `vdev_type`, `state`, and its children in `vdevs`.
- names (lib/libzfs/libzfs_pool.c, zpool_vdev_name): interior vdevs as TYPE-ID (`mirror-0`, `raidz2-1`, dRAID as
  `draid2:4d:8c:1s-0`: parity, data, children, spares); leaves as their path with -P, resolved through symbolic
  links with -L (`/dev/disk/by-id/...` -> `/dev/sda1`); dRAID's distributed spares as `draid2-0-0`.
- states (zpool_state_to_name): ONLINE, DEGRADED, FAULTED, OFFLINE, UNAVAIL, REMOVED; spares AVAIL or INUSE.
ZFS before 2.3 refuses `-j` ("invalid option 'j'", exit 2): discover.py then asks for the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ssdwear.model.errors import ParseError
from ssdwear.model.escape import visible
from ssdwear.model.groups import FoundGroup, FoundMember

JSON_ARGS = ("status", "-j", "-P", "-L")
TEXT_ARGS = ("status", "-P", "-L")

# The allocation classes that hold data (a group each) and their role; cache and spares hold none of it.
CLASSES = {"dedup": "dedup", "special": "special", "logs": "log"}
NOT_WORKING = {"FAULTED", "OFFLINE", "UNAVAIL", "REMOVED", "CANT_OPEN", "CLOSED", "UNKNOWN"}
_TOP = re.compile(r"(mirror|raidz(\d)|draid(\d)(?::[0-9a-z:]*)?)-\d+$")
_DRAID_SPARE = re.compile(r"draid\d+-\d+-\d+$")


@dataclass(frozen=True)
class Vdev:
    name: str
    state: str | None
    children: tuple[Vdev, ...] = ()


@dataclass(frozen=True)
class Pool:
    name: str
    state: str | None
    top: tuple[tuple[str, Vdev], ...]  # (role, top-level vdev) in the order zpool prints them
    spares: tuple[str, ...] = ()
    guids: Mapping[str, str] | None = None  # top-level vdev name -> guid (JSON only)


def parse_text(text: str) -> list[FoundGroup]:
    """The groups of every pool in `zpool status -P -L`."""
    return [g for pool in _text_pools(text) for g in groups_of(pool)]


def parse_json(text: str) -> list[FoundGroup]:
    """The groups of every pool in `zpool status -j -P -L`."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ParseError(f"zpool status -j printed no JSON: {exc}") from None
    pools = doc.get("pools") if isinstance(doc, dict) else None
    if not isinstance(pools, dict):
        raise ParseError("zpool status -j printed no 'pools'")
    return [g for p in pools.values() if isinstance(p, dict) for g in groups_of(_json_pool(p))]


# -- the text ----------------------------------------------------------------------------------------------


def _text_pools(text: str) -> Iterator[Pool]:
    name: str | None = None
    state: str | None = None
    table: list[str] | None = None
    for line in text.splitlines():
        if m := re.match(r"\s*pool: (.*)$", line):
            name, state, table = m.group(1).strip(), None, None
        elif (m := re.match(r"\s*state: (\S+)", line)) and table is None:
            state = m.group(1)
        elif name is not None and re.match(r"\tNAME\s+STATE", line):
            table = []
        elif table is not None:
            if line.startswith("\t"):
                table.append(line[1:])
            elif table and name is not None:
                yield _table_pool(name, state, table)
                name, table = None, None
    if name is not None and table:
        yield _table_pool(name, state, table)


def _table_pool(name: str, state: str | None, rows: Sequence[str]) -> Pool:
    """The vdev tree of one pool's config table: (depth, name, state) rows under the class headers."""
    role = "data"
    stacks: dict[str, list[tuple[int, list[Any]]]] = {}
    spares: list[str] = []
    for row in rows:
        depth = len(row) - len(row.lstrip(" "))
        words = row.split()
        if not words:
            continue
        if depth == 0 and len(words) == 1 and words[0] in (*CLASSES, "cache", "spares"):
            role = CLASSES.get(words[0], words[0])
            continue
        if role == "spares":
            if words[1:2] != ["INUSE"]:  # one in use stands in a vdev already
                spares.append(visible(words[0]))
            continue
        if role == "cache" or (depth == 0 and role == "data"):  # the root vdev's line: the pool itself
            continue
        node: list[Any] = [visible(words[0]), words[1] if len(words) > 1 else None, []]
        stack = stacks.setdefault(role, [])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:
            stack[-1][1][2].append(node)
        else:
            stacks.setdefault(f"{role}:top", []).append((depth, node))
        stack.append((depth, node))
    top = tuple((r, _vdev(node)) for r in ("data", *CLASSES.values())
                for _, node in stacks.get(f"{r}:top", []))
    return Pool(name, state, top, tuple(spares))


def _vdev(node: list[Any]) -> Vdev:
    return Vdev(node[0], node[1], tuple(_vdev(child) for child in node[2]))


# -- the JSON ----------------------------------------------------------------------------------------------


def _obj(value: Any) -> dict[str, Any]:
    """An object of zpool's JSON, or {} where it is something else."""
    return value if isinstance(value, dict) else {}


def _json_vdev(v: Mapping[str, Any], name: str) -> Vdev:
    children = _obj(v.get("vdevs"))
    return Vdev(visible(str(v.get("name", name))), str(v.get("state")) if v.get("state") else None,
                tuple(_json_vdev(c, k) for k, c in children.items() if isinstance(c, dict)))


def _json_pool(p: Mapping[str, Any]) -> Pool:
    name = str(p.get("name", "?"))
    top: list[tuple[str, Vdev]] = []
    guids: dict[str, str] = {}
    for root in _obj(p.get("vdevs")).values():
        for key, v in _obj(_obj(root).get("vdevs")).items():
            if isinstance(v, dict):
                top.append(("data", _json_vdev(v, key)))
                guids[top[-1][1].name] = str(v.get("guid", ""))
    for cls, role in CLASSES.items():
        for key, v in _obj(p.get(cls)).items():
            if isinstance(v, dict):
                top.append((role, _json_vdev(v, key)))
                guids[top[-1][1].name] = str(v.get("guid", ""))
    spares = _obj(p.get("spares"))
    return Pool(visible(name), str(p.get("state")) if p.get("state") else None, tuple(top),
                tuple(visible(str(k)) for k, v in spares.items() if _obj(v).get("state") != "INUSE"),
                {k: g for k, g in guids.items() if g})


# -- vdevs -> groups ---------------------------------------------------------------------------------------


def level_of(vdev: Vdev) -> tuple[str, int]:
    """A top-level vdev's level and the failures it survives: an n-way mirror n-1, raidzP and dRAID P, a disk 0."""
    m = _TOP.match(vdev.name)
    if not m or not vdev.children:
        return "disk", 0
    if m.group(1) == "mirror":
        return "mirror", len(vdev.children) - 1
    parity = int(m.group(2) or m.group(3))
    return ("raidz" if m.group(2) else "draid") + str(parity), parity


def _member(v: Vdev) -> FoundMember:
    """One position of a top-level vdev: a leaf, or a `spare-N`/`replacing-N` vdev standing for one position, whose
    data is on its last working child (the hot spare, the new disk)."""
    if not v.children:
        return FoundMember((v.name,), v.state, (v.state or "ONLINE") not in NOT_WORKING)
    working = [c for c in v.children if not c.children and (c.state or "ONLINE") not in NOT_WORKING]
    leaf = working[-1] if working else v.children[-1]
    return FoundMember((leaf.name,), f"{leaf.state} ({v.name})", bool(working))


def groups_of(pool: Pool) -> list[FoundGroup]:
    out: list[FoundGroup] = []
    single = len(pool.top) == 1
    spares = [s for s in pool.spares if not _DRAID_SPARE.match(s.rsplit("/", 1)[-1])]
    for role, vdev in pool.top:
        level, tolerates = level_of(vdev)
        members = tuple(_member(c) for c in vdev.children) if vdev.children else (_member(vdev),)
        label = vdev.name.rsplit("/", 1)[-1]
        notes = (f"the pool's hot spares (not counted as members): {', '.join(spares)}",) if spares else ()
        out.append(FoundGroup("zfs", pool.name if single else f"{pool.name}/{label}", level, tolerates, members,
                              role=role, state=vdev.state, uuid=(pool.guids or {}).get(vdev.name) or None,
                              notes=notes))
    return out
