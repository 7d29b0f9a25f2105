"""`ssdwear check`: the Nagios/Icinga plugin (exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN; perfdata)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Optional

from .config import THRESHOLD_NAMES, Threshold
from .errors import SsdwearError
from .records import DriveReport
from .units import human_years
from .verdict import RETIRE, WATCH, judge
from .verdict import UNKNOWN as CANNOT_JUDGE

OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
STATE_NAMES = {OK: "OK", WARNING: "WARNING", CRITICAL: "CRITICAL", UNKNOWN: "UNKNOWN"}
_SEVERITY = {OK: 0, UNKNOWN: 1, WARNING: 2, CRITICAL: 3}  # worst first: CRITICAL > WARNING > UNKNOWN > OK
FLAG_NAMES = {"years": "years_remaining", "used": "used_percent", "spare": "spare_percent",
              "tbw": "rated_used_percent"}


def thresholds_from(config: Mapping[str, Threshold], flags: Mapping[str, Optional[float]]) -> dict[str, Threshold]:
    """Config thresholds overridden by --warning-X/--critical-X; inconsistent pairs are a usage error."""
    out = dict(config)
    for short, name in FLAG_NAMES.items():
        current = out.get(name, Threshold())
        warning = flags.get(f"warning_{short}")
        critical = flags.get(f"critical_{short}")
        t = Threshold(warning=current.warning if warning is None else warning,
                      critical=current.critical if critical is None else critical)
        if t.warning is not None and t.critical is not None:
            lower_is_worse = THRESHOLD_NAMES[name] == "lower is worse"
            if (lower_is_worse and t.warning < t.critical) or (not lower_is_worse and t.warning > t.critical):
                relation = ">=" if lower_is_worse else "<="
                raise SsdwearError(f"usage: --warning-{short} ({t.warning:g}) must be {relation} "
                                   f"--critical-{short} ({t.critical:g})")
        out[name] = t
    return out


def _label(r: DriveReport) -> str:
    ident = r.serial or (r.device or "drive").rsplit("/", 1)[-1]
    return re.sub(r"[^A-Za-z0-9_.-]", "_", ident)


def _range(t: Threshold, lower_is_worse: bool) -> tuple[str, str]:
    def one(v: Optional[float]) -> str:
        if v is None:
            return ""
        return f"{v:g}:" if lower_is_worse else f"{v:g}"

    return one(t.warning), one(t.critical)


def perfdata(reports: Sequence[DriveReport], t: Mapping[str, Threshold]) -> str:
    items = []
    for r in reports:
        if r.error:
            continue
        label = _label(r)
        if r.used_percent is not None:
            w, c = _range(t["used_percent"], False)
            items.append(f"'used_{label}'={r.used_percent:g}%;{w};{c};0;")
        p = r.projection
        if p is not None and p.years_remaining is not None:
            items.append(f"'years_left_{label}'={p.years_remaining:.2f};;;0;")
        if p is not None and p.years_remaining_low is not None:  # the figure the thresholds judge
            w, c = _range(t["years_remaining"], True)
            items.append(f"'years_left_low_{label}'={p.years_remaining_low:.2f};{w};{c};0;")
        h = r.health
        if h.available_spare_percent is not None and h.available_spare_threshold_percent:
            w, c = _range(t["spare_percent"], True)
            items.append(f"'spare_{label}'={h.available_spare_percent}%;{w};{c};0;100")
        if r.writes.rated_used_percent is not None:
            w, c = _range(t["rated_used_percent"], False)
            items.append(f"'tbw_used_{label}'={r.writes.rated_used_percent:g}%;{w};{c};0;")
        if r.writes.host_bytes_written is not None:
            items.append(f"'written_{label}'={r.writes.host_bytes_written}B;;;0;")
    return " ".join(items)


def evaluate(reports: Sequence[DriveReport], t: Mapping[str, Threshold]) -> tuple[int, str]:
    """(exit code, plugin output: status line | perfdata, then one line per drive)."""
    states: list[tuple[int, DriveReport, str]] = []
    for r in reports:
        who = " ".join(x for x in (r.device and r.where, r.model, r.serial and f"[{r.serial}]") if x)
        if r.error:
            states.append((UNKNOWN, r, f"{who}: cannot read: {r.error}"))
            continue
        verdict = judge(r, t)
        state = {RETIRE: CRITICAL, WATCH: WARNING, CANNOT_JUDGE: UNKNOWN}.get(verdict.level, OK)
        detail = verdict.reasons[0] if verdict.reasons else _summary(r)
        states.append((state, r, f"{who}: {detail}{_window_refused(r)}"))
    worst = max((s for s, _, _ in states), key=lambda s: _SEVERITY[s], default=UNKNOWN)
    bad = [text for s, _, text in states if s != OK]
    if not states:
        head = "no drives found"
    elif bad:
        head = f"{len(bad)} of {len(states)} drives: " + "; ".join(bad)
    else:
        head = f"{len(states)} drives OK"
        lows = [(r.projection.years_remaining_low, r) for _, r, _ in states
                if r.projection is not None and r.projection.years_remaining_low is not None]
        if lows:
            years, least = min(lows, key=lambda x: x[0])
            head += f", least life left: {least.device} {human_years(years)} years at the pessimistic end"
    line = f"SSDWEAR {STATE_NAMES[worst]} - {head}"
    perf = perfdata(reports, t)
    long_text = "\n".join(text for _, _, text in states)
    return worst, f"{line} | {perf}\n{long_text}" if perf else f"{line}\n{long_text}"


def _window_refused(r: DriveReport) -> str:
    """A timed window refused for good (a reset that did not take, a timer that cannot be trusted), said on the
    drive's line: the figures above then come from elsewhere."""
    w = r.window
    if w is None or w.kind != "timed-workload" or w.valid or w.pending:
        return ""
    return f"; timed window {w.reason}"


def _summary(r: DriveReport) -> str:
    parts = []
    if r.used_percent is not None:
        parts.append(f"{'≥ ' if r.used_at_least else ''}{r.used_percent:g} % used")
    p = r.projection
    if p is not None and p.years_remaining_low is not None:
        central = "no end in sight" if p.years_remaining is None else f"{human_years(p.years_remaining)} years left"
        parts.append(f"{central} ({human_years(p.years_remaining_low)} pessimistic; {p.method})")
    return ", ".join(parts) or f"{r.kind}: no wear figures"
