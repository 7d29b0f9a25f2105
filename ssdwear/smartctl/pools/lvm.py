"""LVM's raid logical volumes: `lvm lvs -a` with the fields named, as JSON (`--reportformat json`, LVM 2.02.158 and
later) or, where that is refused, as `|`-separated text.

`lvs` is run as `lvm lvs`: Debian's /sbin/lvs is a link to lvm, and as root ssdwear runs only a program by its own
name (host/trust.py). What is read (LVM 2.03.16, recorded in fixtures/pools/lvm-raid1): one row per LV, hidden ones
(`-a`) in brackets: a raid LV's `devices` are its images (`data_rimage_0(0),data_rimage_1(0)`), each image's are
physical volumes with their first extent (`/dev/sda2(1)`); a physical volume that is gone is `[unknown]`. `stripes`
is the number of images of a raid1 LV (and of an old-style `mirror` LV); `lv_health_status` is empty when healthy,
else `partial`, `refresh needed`, `mismatches exist`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from ssdwear.model.errors import ParseError
from ssdwear.model.escape import visible
from ssdwear.model.groups import FoundGroup, FoundMember

FIELDS = ("vg_name", "lv_name", "lv_uuid", "segtype", "stripes", "devices", "lv_health_status")
JSON_ARGS = ("lvs", "-a", "--reportformat", "json", "-o", ",".join(FIELDS))
TEXT_ARGS = ("lvs", "-a", "--noheadings", "--separator", "|", "-o", ",".join(FIELDS))

Row = Mapping[str, str]


def parse_json(text: str) -> list[FoundGroup]:
    try:
        doc = json.loads(text)
        rows = [row for report in doc["report"] for row in report.get("lv", [])]
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ParseError(f"lvm lvs --reportformat json printed no report: {exc}") from None
    return groups_of([{k: str(v) for k, v in row.items()} for row in rows if isinstance(row, dict)])


def parse_text(text: str) -> list[FoundGroup]:
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().split("|")]
        if len(cells) == len(FIELDS):
            rows.append(dict(zip(FIELDS, cells, strict=True)))
    return groups_of(rows)


def level_of(segtype: str, images: int) -> tuple[str, int] | None:
    """A raid LV's level and the image failures it survives; None for an LV that is no raid (linear, striped,
    thin, ...). raid5_ls and the other layouts are raid5; raid10 keeps two copies."""
    base = re.sub(r"_.*", "", segtype)
    if base in ("raid1", "mirror"):
        return base, max(images - 1, 0)
    return {"raid4": (base, 1), "raid5": (base, 1), "raid6": (base, 2), "raid10": (base, 1),
            "raid0": (base, 0)}.get(base)


def _names(devices: str) -> list[str]:
    """`a(0),b(12)` -> [a, b]: the LVs or physical volumes a segment lies on."""
    return [re.sub(r"\(\d+\)$", "", d.strip()) for d in devices.split(",") if d.strip()]


def _physical(name: str, by_name: Mapping[str, Row], depth: int = 0) -> list[str]:
    """The physical volumes under an LV (an image may itself lie on hidden LVs: integrity's _iorig)."""
    if name.startswith("/") or name == "[unknown]" or depth > 8:
        return [name]
    row = by_name.get(name)
    if row is None:
        return ["[unknown]"]
    return [pv for sub in _names(row.get("devices", "")) for pv in _physical(sub, by_name, depth + 1)]


def groups_of(rows: Sequence[Row]) -> list[FoundGroup]:
    out: list[FoundGroup] = []
    for row in rows:
        name = row.get("lv_name", "")
        if name.startswith("["):
            continue
        try:
            images = int(row.get("stripes") or 0)
        except ValueError:
            images = 0
        level = level_of(row.get("segtype", ""), images)
        if level is None:
            continue
        vg = row.get("vg_name", "")
        by_name = {r.get("lv_name", "").strip("[]"): r for r in rows if r.get("vg_name") == vg}
        members = []
        for image in _names(row.get("devices", "")):
            pvs = tuple(dict.fromkeys(visible(pv) for pv in _physical(image, by_name)))
            missing = "[unknown]" in pvs
            members.append(FoundMember(tuple(pv for pv in pvs if pv != "[unknown]") or pvs,
                                       "missing" if missing else "active", not missing))
        health = row.get("lv_health_status") or None
        out.append(FoundGroup("lvm", visible(f"{vg}/{name}"), level[0], level[1], tuple(members),
                              state=health or "ok", uuid=row.get("lv_uuid") or None,
                              notes=(f"lvs says: {visible(health)}",) if health else ()))
    return out
