"""The documents around the drives: the envelope every JSON/YAML document has, and the stored samples of `history`
(each drive's own entry is model/schema.py's). No I/O, no rich.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .model.schema import SCHEMA_VERSION

# The fields of a stored sample, in the `history` document and its CSV.
SAMPLE_FIELDS = ("at", "power_on_hours", "used_percent", "used_source", "host_bytes_written", "host_bytes_read",
                 "nand_bytes_written", "e2h", "e3h", "e4h", "available_spare", "media_errors")


def sample_row(s: Any) -> dict[str, Any]:
    row = {name: getattr(s, name) for name in SAMPLE_FIELDS}
    row["at"] = s.at.isoformat(timespec="seconds")
    return row


def samples_doc(drive: dict[str, Any], series: Sequence[Any]) -> dict[str, Any]:
    """A drive's stored samples, as the `history` document holds them."""
    return {"drive": {k: drive[k] for k in ("model", "serial", "wwn", "interface")},
            "samples": [sample_row(s) for s in series]}


def envelope(origin: str, generated_at: str, version: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Every JSON/YAML document: schema, ssdwear version, time, origin, then the command's own keys."""
    return {"schema": SCHEMA_VERSION, "ssdwear": version, "generated_at": generated_at, "origin": origin, **payload}


