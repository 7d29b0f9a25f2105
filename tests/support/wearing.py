"""Machines for notify's tests: NVMe drives whose smartctl outputs a test rewrites between runs (a drive that wears,
vanishes or is replaced), in the hand-written layout of tools/make_handwritten.py; a notify command that logs the
events it is handed; a config file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.make_handwritten import dumps, name, nvme_json, scan_json

MODEL = "Samsung SSD 970 EVO Plus 1TB"


def read_args(device: str) -> list[str]:
    return ["--json=c", "-x", "-n", "standby", "-d", "nvme", device]


def put_drive(folder: Path, device: str, serial: str | None, used: float = 10, poh: int = 150_000,
              written: int = 50_000_000) -> None:
    """The drive smartctl finds at `device` now (None: the device does not answer), in smartctl 7.3's JSON (the
    hand-written layout of tools/make_handwritten.py)."""
    out = folder / f"{name(read_args(device))}.out"
    if serial is None:
        out.unlink(missing_ok=True)
        return
    out.write_text(dumps(nvme_json(device, MODEL, serial, 1_000_204_886_016, poh, int(used), written, written * 2,
                                   read_args(device))))


def machine(folder: Path, drives: dict[str, str | None], used: float = 10) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name(['--scan-open', '--json=c'])}.out").write_text(
        scan_json([(d, "nvme", "NVMe") for d in drives]))
    for device, serial in drives.items():
        put_drive(folder, device, serial, used)
    return folder


def recorder(tmp_path: Path) -> tuple[Path, Path]:
    """A notify command that appends each event it gets (its stdin) to a log, one JSON document a line."""
    log = tmp_path / "events.jsonl"
    program = tmp_path / "bin" / "notify-log"
    program.parent.mkdir(exist_ok=True)
    program.write_text(f"#!/bin/sh\ncat >> {log}\n")
    program.chmod(0o755)
    return program, log


def logged(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ssdwear.yaml"
    path.write_text(text)
    path.chmod(0o600)
    return path
