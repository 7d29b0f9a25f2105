"""notify's events for people: one line each (the stdout channel in table format, and so a cron job's mail)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ssdwear.model.escape import visible
from ssdwear.model.records import DriveId


def event_line(doc: Mapping[str, Any]) -> str:
    """'FIRING used_percent: SAMSUNG MZQLB1T9HAJR-00007 [S436NA0M000001] /dev/nvme0: 85 % of its rated ...'."""
    drive, group = doc.get("drive"), doc.get("group")
    if isinstance(group, Mapping):
        who = f"{group.get('name')} ({group.get('kind')})"
    elif isinstance(drive, Mapping):
        label = DriveId(drive.get("model"), drive.get("serial"), drive.get("wwn")).label
        who = " ".join(x for x in (label, drive.get("device")) if x) or "?"
    else:
        who = "?"
    return visible(f"{str(doc.get('event', '?')).upper()} {doc.get('rule', '?')}: {who}: {doc.get('message', '')}")
