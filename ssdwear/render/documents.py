"""Every command's documents for scripts: JSON and YAML (the envelope, each drive's entry from model/schema.py, the
stored samples of `history`) and CSV. No I/O, no rich."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional

from ssdwear.model.schema import SCHEMA_VERSION

if TYPE_CHECKING:
    from datetime import datetime

    from ssdwear.model.records import Sample, StoredDrive


def to_json(doc: dict[str, Any], ascii_only: bool = False) -> str:
    """The document; with `ascii_only` every character beyond ASCII as a \\u escape (the same document)."""
    return json.dumps(doc, indent=2, ensure_ascii=ascii_only) + "\n"


def to_yaml(doc: dict[str, Any], ascii_only: bool = False) -> str:
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(doc, Dumper=dumper, sort_keys=False, allow_unicode=not ascii_only, width=1000))


# The fields of a stored sample, in the `history` document and its CSV.
SAMPLE_FIELDS = ("at", "power_on_hours", "used_percent", "used_source", "host_bytes_written", "host_bytes_read",
                 "nand_bytes_written", "e2h", "e3h", "e4h", "available_spare", "media_errors")


def sample_row(s: Sample) -> dict[str, Any]:
    row = {name: getattr(s, name) for name in SAMPLE_FIELDS}
    row["at"] = s.at.isoformat(timespec="seconds")
    return row


def samples_doc(stored: StoredDrive, series: Sequence[Sample]) -> dict[str, Any]:
    """A drive's stored samples, as the `history` document holds them."""
    d = stored.drive
    return {"drive": {"model": d.model, "serial": d.serial, "wwn": d.wwn, "interface": d.interface},
            "samples": [sample_row(s) for s in series]}


def envelope(origin: str, generated_at: str, version: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Every JSON/YAML document: schema, ssdwear version, time, origin, then the command's own keys."""
    return {"schema": SCHEMA_VERSION, "ssdwear": version, "generated_at": generated_at, "origin": origin, **payload}


def _csv(fields: Sequence[str], rows: Sequence[dict[str, Any]]) -> str:
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return out.getvalue()


def samples_csv(series: Sequence[Sample]) -> str:
    return _csv(SAMPLE_FIELDS, [sample_row(s) for s in series])


DRIVE_LIST_FIELDS = ("serial", "model", "wwn", "interface", "last_device", "samples", "first_sample", "last_sample",
                     "span_days")


def drive_list_doc(drives: Sequence[StoredDrive]) -> list[dict[str, Any]]:
    """The drives a history holds (Store.drive_list), as the `history` document lists them."""
    def when(t: Optional[datetime]) -> Optional[str]:
        return None if t is None else t.isoformat(timespec="seconds")

    return [dict(serial=d.drive.serial, model=d.drive.model, wwn=d.drive.wwn, interface=d.drive.interface,
                 last_device=d.device, samples=d.samples, first_sample=when(d.first), last_sample=when(d.last),
                 span_days=None if d.first is None or d.last is None else
                 round((d.last - d.first).total_seconds() / 86400, 2)) for d in drives]


def drive_list_csv(drives: Sequence[StoredDrive]) -> str:
    return _csv(DRIVE_LIST_FIELDS, drive_list_doc(drives))
