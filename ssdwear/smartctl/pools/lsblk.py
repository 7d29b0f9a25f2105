"""lsblk: what each block device is built on, to follow a group's member down to its drive through partitions,
LUKS (dm-crypt), LVM and md.

`lsblk -J -s` (util-linux; recorded from 2.38 in fixtures/pools/*) prints the devices as a forest turned upside
down: each device nobody uses is a root, and a device's `children` are what it is built on (a crypt device's its
partition, a partition's its disk). Serial, WWN and model come from udev's database and, without udev, from sysfs
where the kernel has them (an NVMe namespace's serial and model; a SCSI/ATA disk's model, cut to 16 characters, and
no serial): trailing blanks are cut. Older lsblk lacks the PATH column (2.33 added it): then it is asked without.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ssdwear.model.errors import ParseError
from ssdwear.model.escape import visible
from ssdwear.model.groups import BlockDevice

COLUMNS = "NAME,KNAME,PATH,TYPE,SERIAL,WWN,MODEL,MOUNTPOINT"
ARGS = ("-J", "-s", "-o", COLUMNS)
ARGS_NO_PATH = ("-J", "-s", "-o", COLUMNS.replace("PATH,", ""))


def _text(value: Any) -> str | None:
    if value is None:
        return None
    text = visible(str(value)).strip()
    return text or None


def parse(text: str) -> tuple[BlockDevice, ...]:
    """Every device once (a disk under two partitions is listed under each), with everything it sits on."""
    try:
        roots = json.loads(text)["blockdevices"]
    except (ValueError, KeyError, TypeError) as exc:
        raise ParseError(f"lsblk -J printed no blockdevices: {exc}") from None
    found: dict[str, BlockDevice] = {}

    def walk(nodes: Iterable[Any]) -> None:
        for node in nodes:
            if not isinstance(node, Mapping) or not node.get("kname"):
                continue
            kids = node.get("children")
            children: list[Any] = kids if isinstance(kids, list) else []
            walk(children)
            kname = str(node["kname"])
            below = tuple(str(c["kname"]) for c in children if isinstance(c, Mapping) and c.get("kname"))
            known = found.get(kname)
            if known is not None:
                below = tuple(dict.fromkeys((*known.below, *below)))
            name = _text(node.get("name")) or kname
            path = _text(node.get("path")) or (f"/dev/mapper/{name}" if kname.startswith("dm-") else f"/dev/{kname}")
            found[kname] = BlockDevice(kname=visible(kname), name=name, path=path, type=str(node.get("type") or ""),
                                       serial=_text(node.get("serial")), wwn=_text(node.get("wwn")),
                                       model=_text(node.get("model")), mountpoint=_text(node.get("mountpoint")),
                                       below=below)

    walk(roots if isinstance(roots, list) else [])
    return tuple(found.values())
