"""ssdwear: SMART wear monitor for SSDs (Intel timed workload, ATA, NVMe, SCSI).

The Python API (see the README, "Python API"): read_drives, analyze_files, parse_output, and the records they
return. Names are imported on first use, so `import ssdwear` (and the CLI's start-up) stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"  # the one version (pyproject.toml reads it); 0.2: JSON schema 2

_EXPORTS = {
    "read_drives": "api", "analyze_files": "api", "parse_output": "api",
    "DriveReport": "records", "Projection": "records", "Window": "records", "Writes": "records",
    "Health": "records", "UsedSource": "records", "Trend": "records", "Snapshot": "records",
    "SsdwearError": "errors", "ParseError": "errors", "DriveError": "errors", "UsageError": "errors",
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
    from .api import analyze_files, parse_output, read_drives
    from .errors import DriveError, ParseError, SsdwearError, UsageError
    from .records import DriveReport, Health, Projection, Snapshot, Trend, UsedSource, Window, Writes


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
