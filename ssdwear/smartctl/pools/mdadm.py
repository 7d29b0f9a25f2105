"""mdadm: the md arrays (`mdadm --detail --scan`), then each one's members (`mdadm --detail --export DEV`).

What is read (mdadm 4.2, recorded in fixtures/pools/md-*): the scan prints one `ARRAY DEVICE KEY=VALUE...` line per
active array (`INACTIVE-ARRAY` for one that is not running); --export prints KEY=VALUE lines: MD_LEVEL (raid1,
raid5, raid10, ...), MD_DEVICES (the raid devices it is built with), MD_UUID, MD_NAME, and per member device
MD_DEVICE_<dev>_DEV (its path) and MD_DEVICE_<dev>_ROLE: its slot number, or `spare` (a spare, and also a member
that failed: mdadm 4.2 gives no slot to either) or `journal`.
"""

from __future__ import annotations

import re

from ssdwear.model.errors import ParseError
from ssdwear.model.escape import visible
from ssdwear.model.groups import FoundGroup, FoundMember

SCAN_ARGS = ("--detail", "--scan")


def detail_args(device: str) -> tuple[str, ...]:
    return ("--detail", "--export", device)


def parse_scan(text: str) -> tuple[list[str], list[str]]:
    """The active arrays' device paths, and a note for each inactive one."""
    arrays: list[str] = []
    notes: list[str] = []
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "ARRAY":
            arrays.append(words[1])
        elif len(words) >= 2 and words[0] == "INACTIVE-ARRAY":
            notes.append(f"md array {visible(words[1])} is not running (mdadm --detail --scan): not judged")
    return arrays, notes


# Failures an md level survives by design. raid10's copies are in its layout, which --export does not print: two
# (mdadm's default, near=2) are assumed, and the group says so.
TOLERATES = {"raid1": None, "raid4": 1, "raid5": 1, "raid6": 2, "raid10": 1, "raid0": 0, "linear": 0}


def parse_detail(text: str, device: str) -> FoundGroup | None:
    """The array `mdadm --detail --export DEVICE` describes; None for what holds no data of its own (a container
    of IMSM/DDF metadata, whose member arrays are listed too)."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            values[key.strip()] = value.strip()
    level = values.get("MD_LEVEL")
    if not level:
        raise ParseError(f"mdadm --detail --export {device} printed no MD_LEVEL")
    if level not in TOLERATES:
        return None
    slots: dict[str, tuple[str | None, str | None]] = {}
    for key, value in values.items():
        if m := re.fullmatch(r"MD_DEVICE_(.+)_(ROLE|DEV)", key):
            role, dev = slots.get(m.group(1), (None, None))
            slots[m.group(1)] = (value, dev) if m.group(2) == "ROLE" else (role, value)
    members = sorted(((int(role), dev) for role, dev in slots.values() if role and role.isdigit() and dev),
                     key=lambda slot: slot[0])
    try:
        built = int(values.get("MD_DEVICES", len(members)))
    except ValueError:
        built = len(members)
    tolerates = built - 1 if level == "raid1" else TOLERATES[level]
    notes = ["raid10: two copies of each block assumed (mdadm's default layout, near=2; --export does not say)"
             ] if level == "raid10" else []
    spares = [visible(dev) for role, dev in slots.values() if role == "spare" and dev]
    if spares:
        notes.append(f"not in a slot (spare, or failed): {', '.join(spares)}")
    name = visible(device.rsplit("/", 1)[-1])
    return FoundGroup("md", name, level, tolerates,
                      tuple(FoundMember((visible(dev),), "active") for _, dev in members),
                      state=None, uuid=values.get("MD_UUID"), missing=max(built - len(members), 0),
                      notes=tuple(notes))
