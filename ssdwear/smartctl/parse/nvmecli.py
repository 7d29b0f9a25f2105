"""What nvme-cli printed: Identify Controller as JSON (`nvme id-ctrl DEV -o json`) and log pages as raw bytes
(`nvme get-log ... -b`). nvme-cli 2.3 (Debian 12) prints the Identify fields under the specification's names
(`ver`, `ctratt`, `endgidmax`: nvme-print.c json_nvme_id_ctrl); a log page read with `-b` is the page's bytes as
the drive returned them. Anything else is None: the caller notes why the page was not used."""

from __future__ import annotations

import json
from typing import NamedTuple

# Identify Controller, Controller Attributes bit 4: Endurance Groups supported (NVMe base specification 1.4+).
CTRATT_ENDURANCE_GROUPS = 1 << 4


class Controller(NamedTuple):
    ctratt: int
    endgidmax: int  # the largest Endurance Group Identifier (0 where the controller has none)

    @property
    def endurance_groups(self) -> bool:
        return bool(self.ctratt & CTRATT_ENDURANCE_GROUPS) and self.endgidmax >= 1


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 32 else None


def identify_controller(data: bytes) -> Controller | None:
    """CTRATT and ENDGIDMAX from `nvme id-ctrl -o json`; None when the output is not that document."""
    try:
        doc = json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict):
        return None
    ctratt, endgidmax = _count(doc.get("ctratt")), _count(doc.get("endgidmax", 0))
    return None if ctratt is None or endgidmax is None else Controller(ctratt, endgidmax)


def log_page(data: bytes, size: int) -> bytes | None:
    """A page read with `-b`: exactly `size` bytes, else None (nvme-cli printed an error or something else)."""
    return data if len(data) == size else None
