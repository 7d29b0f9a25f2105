"""The one clock: every layer is given a Clock (tests pass a fixed one). Kept apart from records.py so that the
CLI can default to it without importing the records at start-up."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)
