"""`ssdwear check`: the Nagios/Icinga plugin (exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN; perfdata), in the format of
the Nagios plugin development guidelines: a short first line, the drives on the long-output lines."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ssdwear.model.counts import count_text
from ssdwear.model.errors import SsdwearError
from ssdwear.model.records import DriveId, DriveReport
from ssdwear.model.units import human_years, percent_text, wears_out_text

from .thresholds import THRESHOLD_NAMES, Threshold
from .verdict import RETIRE, USED_REASON, WATCH, judge
from .verdict import UNKNOWN as CANNOT_JUDGE

OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
STATE_NAMES = {OK: "OK", WARNING: "WARNING", CRITICAL: "CRITICAL", UNKNOWN: "UNKNOWN"}
_SEVERITY = {OK: 0, UNKNOWN: 1, WARNING: 2, CRITICAL: 3}  # worst first: CRITICAL > WARNING > UNKNOWN > OK
# Line 1's summary at most this long (NRPE 2 carries 1 KB of output in all; the aggregate perfdata follow it).
STATUS_TEXT_LIMIT = 300
FLAG_NAMES = {"years": "years_remaining", "used": "used_percent", "spare": "spare_percent",
              "tbw": "rated_used_percent"}


def thresholds_from(config: Mapping[str, Threshold], flags: Mapping[str, float | None]) -> dict[str, Threshold]:
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


def _plain(text: str) -> str:
    """Text for the plugin output: a '|' would end the status text early (Nagios reads the rest as perfdata) and a
    line break would start another line, so neither comes through as itself ('|' is shown as its escape)."""
    return text.replace("|", "\\x7c").replace("\r", " ").replace("\n", " ")


def _range(t: Threshold, lower_is_worse: bool) -> tuple[str, str]:
    def one(v: float | None) -> str:
        if v is None:
            return ""
        return f"{v:g}:" if lower_is_worse else f"{v:g}"

    return one(t.warning), one(t.critical)


def drive_perfdata(r: DriveReport, t: Mapping[str, Threshold]) -> str:
    """One drive's perfdata (labels carry its serial, else its device name): empty for a drive not read."""
    if r.error:
        return ""
    items = []
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


def perfdata(reports: Sequence[DriveReport], t: Mapping[str, Threshold]) -> str:
    """Every drive's perfdata on one line (the long output carries it one drive a line)."""
    return " ".join(x for x in (drive_perfdata(r, t) for r in reports) if x)


def _aggregate(states: Sequence[tuple[int, DriveReport, str, str]], t: Mapping[str, Threshold]) -> str:
    """The few figures of line 1: how many drives in each state, the least pessimistic life, the most wear."""
    count = {s: sum(1 for state, *_ in states if state == s) for s in (WARNING, CRITICAL, UNKNOWN)}
    items = [f"'drives'={len(states)};;;0;", f"'drives_warning'={count[WARNING]};;;0;",
             f"'drives_critical'={count[CRITICAL]};;;0;", f"'drives_unknown'={count[UNKNOWN]};;;0;"]
    lows = [r.projection.years_remaining_low for _, r, _, _ in states
            if not r.error and r.projection is not None and r.projection.years_remaining_low is not None]
    if lows:
        w, c = _range(t["years_remaining"], True)
        items.append(f"'years_left_low_min'={min(lows):.2f};{w};{c};0;")
    used = [r.used_percent for _, r, _, _ in states if not r.error and r.used_percent is not None]
    if used:
        w, c = _range(t["used_percent"], False)
        items.append(f"'used_max'={max(used):g}%;{w};{c};0;")
    return " ".join(items)


def _head(states: Sequence[tuple[int, DriveReport, str, str]]) -> str:
    """Line 1's summary: the drives that are not OK, worst first, as many as fit in STATUS_TEXT_LIMIT."""
    if not states:
        return "no drives found"
    bad = [(r, short) for s, r, short, _ in states if s != OK]
    warned = sum(1 for s, r, _, _ in states if s == OK and r.warnings)
    tail = f"; {warned:,} more with warnings (below)" if warned else ""
    if not bad:
        head = f"{count_text(len(states), 'drive')} OK"
        lows = [(r.projection.years_remaining_low, r) for _, r, _, _ in states
                if r.projection is not None and r.projection.years_remaining_low is not None]
        if lows:
            years, least = min(lows, key=lambda x: x[0])
            head += f", least life left: {least.where} {human_years(years)} years at the pessimistic end"
        return head + tail
    head = f"{len(bad):,} of {count_text(len(states), 'drive')}: "
    shown: list[str] = []
    for i, (_, short) in enumerate(bad):
        rest = len(bad) - i - 1
        more = f"; and {rest:,} more (below)" if rest else ""
        if shown and len(head + "; ".join([*shown, short]) + more) > STATUS_TEXT_LIMIT:
            return head + "; ".join(shown) + f"; and {len(bad) - i:,} more (below)" + tail
        shown.append(short)
    text = head + "; ".join(shown)
    if len(text) > STATUS_TEXT_LIMIT:  # one drive's own words too long for line 1: the whole text is below
        text = text[:STATUS_TEXT_LIMIT - 3].rstrip() + "..."
    return text + tail


def _drive_state(r: DriveReport, t: Mapping[str, Threshold]) -> tuple[int, str, str]:
    """(state, the words for line 1, the drive's long-output line) of one drive."""
    who = " ".join(x for x in (r.device and r.where, DriveId.of(r).label) if x)
    if r.error:
        return UNKNOWN, f"{who}: cannot read: {r.error}", f"{who}: UNKNOWN: cannot read: {r.error}"
    verdict = judge(r, t)
    state = {RETIRE: CRITICAL, WATCH: WARNING, CANNOT_JUDGE: UNKNOWN}.get(verdict.level, OK)
    used = None if r.used_percent is None else f"{percent_text(r.used_percent, r.used_at_least)} used"
    if verdict.reasons:
        said = [used] if used and not any(x.startswith(USED_REASON) for x in verdict.reasons) else []
        first = verdict.reasons[0]
        short = f"{who}: {first}" if first.startswith(USED_REASON) or not used else f"{who}: {used}; {first}"
        parts = [*said, *verdict.reasons]
        if r.projection is not None and (dates := wears_out_text(r.projection)) is not None:
            parts.append(f"wears out {dates}")
    else:
        short = f"{who}: {_summary(r)}"
        parts = [_summary(r)]
    refused = _window_refused(r)
    if refused:
        parts.append(refused)
    said_already = [_letters(x) for x in parts]
    parts += [f"warning: {w}" for w in r.warnings if not any(_letters(w).startswith(x) for x in said_already)]
    return state, short, f"{who}: {STATE_NAMES[state]}: {'; '.join(parts)}"


def _letters(text: str) -> str:
    """Only the letters and digits, lower-cased: a warning that repeats a reason in other punctuation is said once."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def evaluate(reports: Sequence[DriveReport], t: Mapping[str, Threshold], notes: Sequence[str] = (),
             warnings: Sequence[str] = ()) -> tuple[int, str]:
    """(exit code, plugin output), in the Nagios plugin format: line 1 the status, a short summary and a few
    aggregate perfdata; then one line per drive (worst first, with its warnings), the `notes` (RAID volumes) and the
    run's `warnings` (the history not used, and why: the figures above then rest on the drives' readings alone);
    the last of them carries, after a '|', the first drive's perfdata, and each further drive's follows on a line
    of its own (the plugin guidelines' multi-line perfdata)."""
    states = [(state, r, short, text) for r in reports for state, short, text in [_drive_state(r, t)]]
    states.sort(key=lambda x: -_SEVERITY[x[0]])
    worst = max((s for s, *_ in states), key=lambda s: _SEVERITY[s], default=UNKNOWN)
    said = "; ".join(dict.fromkeys(w.split(":", 1)[0] for w in warnings))
    line = f"SSDWEAR {STATE_NAMES[worst]} - {_plain(_head(states))}" + (f"; {_plain(said)} (below)" if said else "")
    if states:
        line += f" | {_aggregate(states, t)}"
    long_lines = [_plain(text) for *_, text in states] + [_plain(n) for n in notes] + \
        [_plain(f"warning: {w}") for w in warnings]
    perf = [x for x in (drive_perfdata(r, t) for _, r, _, _ in states) if x]
    if perf and long_lines:
        long_lines[-1] += f" | {perf[0]}"
        long_lines += perf[1:]
    return worst, "\n".join([line, *long_lines])


def _window_refused(r: DriveReport) -> str:
    """A timed window refused for good (a reset that did not take, a timer that cannot be trusted), said on the
    drive's line: the figures above then come from elsewhere."""
    w = r.window
    if w is None or w.kind != "timed-workload" or w.valid or w.pending:
        return ""
    return f"timed window {w.reason}"


def _summary(r: DriveReport) -> str:
    parts = []
    if r.used_percent is not None:
        parts.append(f"{percent_text(r.used_percent, r.used_at_least)} used")
    p = r.projection
    if p is not None and p.years_remaining_low is not None:
        central = "no end in sight" if p.years_remaining is None else f"{human_years(p.years_remaining)} years left"
        parts.append(f"{central} ({human_years(p.years_remaining_low)} pessimistic; {p.method})")
        if (dates := wears_out_text(p)) is not None:
            parts.append(f"wears out {dates}")
    return ", ".join(parts) or f"{r.kind}: no wear figures"
