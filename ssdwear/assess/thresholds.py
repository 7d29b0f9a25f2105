"""The levels check and retire-check judge by, and their defaults (the config's `thresholds` and check's
--warning-*/--critical-* override them; host/config.py reads them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Threshold:
    warning: float | None = None
    critical: float | None = None


# For years/spare, lower is worse; for percentages used, higher is worse.
THRESHOLD_NAMES = {
    "years_remaining": "lower is worse",
    "used_percent": "higher is worse",
    "spare_percent": "lower is worse",
    "rated_used_percent": "higher is worse",
}
DEFAULT_THRESHOLDS = {
    "years_remaining": Threshold(warning=2.0, critical=0.5),
    "used_percent": Threshold(warning=80.0, critical=100.0),
    "spare_percent": Threshold(warning=20.0, critical=10.0),
    "rated_used_percent": Threshold(warning=80.0, critical=100.0),
}
