"""`ssdwear status`: the timed-workload window of each drive so far."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from . import smart, vendors
from .assess import VALID_AFTER_MINUTES
from .errors import DriveError
from .model import TIMER_SENTINELS, drive_key
from .units import human_minutes


def status_rows(session: Any, outcomes: Sequence[smart.Outcome]) -> list[dict[str, Any]]:
    now = session.clock()
    store = session.store()
    rows: list[dict[str, Any]] = []
    for outcome in outcomes:
        if isinstance(outcome, DriveError):
            rows.append(dict(device=outcome.device, model=None, serial=None, e4h_minutes=None, reset_at=None,
                             since_reset_minutes=None, valid=None, reason=f"read failed: {outcome.message}",
                             window_text="-", since_reset_text="-"))
            continue
        snap = outcome
        key = drive_key(snap.model, snap.serial, snap.wwn)
        reset = store.last_reset(key) if store is not None and key is not None else None
        since: Optional[float] = (now - reset.at).total_seconds() / 60 if reset is not None else None
        e4: Optional[int] = None
        valid: Optional[bool] = None
        if vendors.has_timed_workload(snap):
            e4 = vendors.timed_raw(snap, 228)
            if e4 is None or e4 in TIMER_SENTINELS:
                valid = False
                reason = (f"timer reset: E4h reads 65535 until {VALID_AFTER_MINUTES} power-on minutes have "
                          "passed")
                window_text = "65535 (reset)"
            else:
                valid = e4 >= VALID_AFTER_MINUTES
                reason = "" if valid else f"{VALID_AFTER_MINUTES - e4} more power-on minutes needed"
                window_text = human_minutes(e4)
        else:
            reason = "no timed-workload attributes (not an Intel SSD with 226-228)"
            window_text = "-"
        if reset is None and valid is not None:
            reason = (reason + "; " if reason else "") + "no reset by ssdwear recorded"
        rows.append(dict(device=snap.device or snap.source, model=snap.model, serial=snap.serial, e4h_minutes=e4,
                         reset_at=reset.at.isoformat(timespec="seconds") if reset else None,
                         since_reset_minutes=round(since, 1) if since is not None else None, valid=valid,
                         reason=reason or None, window_text=window_text, since_reset_text=human_minutes(since)))
    return rows
