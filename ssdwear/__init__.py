"""ssdwear: SMART wear monitor for SSDs (Intel timed workload, ATA, NVMe, SCSI).

The Python API (docs/python-api.md): read_drives, analyze_files, parse_output, and the records they
return. Names are imported on first use, so `import ssdwear` (and the CLI's start-up) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model.version import __version__

_EXPORTS = {
    "read_drives": "run.api", "analyze_files": "run.api", "parse_output": "run.api",
    "DriveReport": "model.records", "Projection": "model.records", "Window": "model.records", "Writes": "model.records",
    "Health": "model.records", "UsedSource": "model.records", "Trend": "model.records", "Snapshot": "model.records",
    "SsdwearError": "model.errors", "ParseError": "model.errors", "DriveError": "model.errors",
    "UsageError": "model.errors",
}
__all__ = [
    "DriveError",
    "DriveReport",
    "Health",
    "ParseError",
    "Projection",
    "Snapshot",
    "SsdwearError",
    "Trend",
    "UsageError",
    "UsedSource",
    "Window",
    "Writes",
    "__version__",
    "analyze_files",
    "parse_output",
    "read_drives",
]

if TYPE_CHECKING:
    from .model.errors import DriveError, ParseError, SsdwearError, UsageError
    from .model.records import DriveReport, Health, Projection, Snapshot, Trend, UsedSource, Window, Writes
    from .run.api import analyze_files, parse_output, read_drives


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'ssdwear' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
