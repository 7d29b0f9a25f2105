"""The tests' one clock: T0 is "now" wherever a test needs one, FLEET_START where a fleet's month of samples
begins (its documents print that date). A SteppedClock is a clock a test moves on."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=timezone.utc)
FLEET_START = datetime(2026, 11, 1, tzinfo=timezone.utc)


class SteppedClock:
    """A clock that says `now` until a test moves it (advance, or set `now`)."""

    def __init__(self, now: datetime = T0) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@contextmanager
def in_time_zone(name: str) -> Iterator[None]:
    """The process's local time zone set to `name` (TZ, as smartd's local timestamps are read), then put back."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = name
    time.tzset()
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = old
        time.tzset()
