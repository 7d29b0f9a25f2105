"""The one validity rule of Intel's timed-workload window (E2h/E3h/E4h since a reset), on SATA attributes 226-228
or the NVMe vendor log 0xCA entries alike: `report`, `analyze`, `check` and `retire-check` read the window from
here through report.assess(), `status` and `measure` through report.judged_window()."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ssdwear.drives import timed as drive_timed
from ssdwear.drives.indicators import TRUST_DERIVED, UsedReading
from ssdwear.model.family import TimedWorkload
from ssdwear.model.records import (
    E2H_STEPS_PER_PERCENT,
    MINUTES_PER_YEAR,
    TIMER_SENTINELS,
    Snapshot,
    Window,
    WindowState,
)
from ssdwear.model.units import hours_text, human_minutes, percent_text, time_text

from .context import Context

VALID_AFTER_MINUTES = 60  # the timed-workload attributes hold 65535 until 60 power-on minutes after a reset


@dataclass(frozen=True)
class TimedResult:
    window: Window
    lifetime: UsedReading | None  # E2h as a lifetime indicator when the timer was never reset
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    ours: bool = False  # the window began with a reset ssdwear recorded (and the drive took)


def timed_window(snap: Snapshot, used: UsedReading | None, ctx: Context) -> TimedResult | None:
    """Read E2h/E3h/E4h on an Intel SSD that carries them (SATA attributes 226-228, or the NVMe vendor log
    0xCA entries, under the same rules); None for every other drive.

    This is the one validity rule of the timed window: `report`, `analyze`, `check` and `retire-check` read the
    window from here through assess(), `status` and `measure` through judged_window(). Attribute 226 on a drive
    that is not an Intel SSD (a Toshiba HDD's Load-in_Time) is not wear and is never looked at here.
    """
    if not drive_timed.has_timed_workload(snap):
        return None
    t = drive_timed.trio(snap)
    e2, e3, e4 = (drive_timed.timed_raw(snap, i) for i in (226, 227, 228))
    if e2 is None or e4 is None:
        return None
    warnings: list[str] = []
    notes: list[str] = []

    def pending(state: WindowState, why: str, valid_in: float | None) -> TimedResult:
        return TimedResult(Window(kind="timed-workload", state=state, reason=f"{state.value}: {why}",
                                  valid_in_minutes=valid_in), None, tuple(warnings), tuple(notes))

    def untrusted(reason: str, lifetime: UsedReading | None = None) -> TimedResult:
        window = Window(kind="timed-workload", state=WindowState.UNTRUSTED, reason=f"timer not trustworthy: {reason}",
                        minutes=float(e4), wear_steps=e2)
        return TimedResult(window, lifetime, tuple(warnings), tuple(notes))

    if snap.truncated:
        return untrusted("the output was cut off (see the notes), so the last attribute rows cannot be trusted; "
                         "read the drive again or save its complete smartctl -x output")
    if e4 in TIMER_SENTINELS or e2 in TIMER_SENTINELS:
        state = WindowState.NOT_YET if ctx.reset is not None else WindowState.HELD
        return pending(state, _sentinel_reason(ctx, t, snap), None)
    if e4 < VALID_AFTER_MINUTES:
        left = VALID_AFTER_MINUTES - e4
        return pending(WindowState.NOT_YET, f"{e4} of {VALID_AFTER_MINUTES} power-on minutes; {_when_valid(ctx, e4)}",
                       float(left))

    poh_minutes = snap.power_on_hours * 60 if snap.power_on_hours is not None and snap.power_on_hours_trusted \
        else None
    wear_percent = e2 / E2H_STEPS_PER_PERCENT
    doubt = _implausible_window(snap, t, e2, e4, poh_minutes, used) or \
        _counter_stuck(t, e2, e4, poh_minutes, used, warnings)
    if doubt is not None:
        return untrusted(doubt)
    someone_else = _reset_by_someone_else(ctx, t, e4)
    warnings.extend(someone_else)

    lifetime = _never_reset(t, e2, e4, poh_minutes)
    reason = "timer never reset: the window is the drive's whole life" if lifetime is not None else None
    notes.extend([reason] if reason else [])
    ignored = _reset_ignored(ctx, t, e4)
    if ignored is not None:
        warnings.append(ignored)
        return untrusted(f"the reset ssdwear sent at {_fmt(ctx.reset.at) if ctx.reset else '?'} did not take "
                         f"effect ({t.labels[2]} kept counting from before it); send start again", lifetime)
    represents, said = _represents(ctx, t, e4, lifetime is not None)
    (notes if lifetime is not None else warnings).extend(said)
    host_reads = None if e3 is None or e3 in TIMER_SENTINELS else float(e3)
    window = Window(kind="timed-workload", state=WindowState.VALID, reason=reason, minutes=float(e4),
                    wear_percent=wear_percent, wear_steps=e2, host_reads_percent=host_reads,
                    represents_minutes=represents)
    ours = ctx.reset is not None and ctx.now is not None and not someone_else
    return TimedResult(window, lifetime, tuple(warnings), tuple(notes), ours)


def _never_reset(t: TimedWorkload, e2: int, e4: int, poh_minutes: float | None) -> UsedReading | None:
    """E2h as the lifetime wear indicator when E4h is the drive's whole power-on time (a timer never reset)."""
    if poh_minutes is None or abs(e4 - poh_minutes) > drive_timed.never_reset_slack(poh_minutes):
        return None
    wear_percent = e2 / E2H_STEPS_PER_PERCENT
    return UsedReading(t.lifetime_source, wear_percent, False,
                       f"{t.labels[0]} = {e2} (timer never reset) = {wear_percent:.2f} %", TRUST_DERIVED,
                       step=1 / E2H_STEPS_PER_PERCENT, finer=t.labels[0])


# A window may stand for a --represents duration this much shorter than itself (whole-minute counters, the
# poll that ends a measure a little after the time asked for).
REPRESENTS_SLACK = 0.01


def _represents(ctx: Context, t: TimedWorkload, e4: int, whole_life: bool) -> tuple[float | None, list[str]]:
    """The real time the window stands for (--represents, or the config's `represents`), and what to say when it
    is not applied: never to the drive's whole life, never to a window longer than the time it would stand for
    (a window left to run on after a measure, a reset long ago, or one ssdwear did not make)."""
    given = ctx.represents_minutes
    if not given:
        return None, []
    if whole_life:
        return None, [f"--represents {human_minutes(given)} not applied: the timer was never reset, so the window "
                      "is the drive's whole life"]
    if e4 > given * (1 + REPRESENTS_SLACK):
        since = f"since ssdwear's reset at {_fmt(ctx.reset.at)}" if ctx.reset is not None else \
            "since a reset ssdwear did not record"
        return None, [f"--represents {human_minutes(given)} not applied: the window ({t.labels[2]} = {e4:,} power-on "
                      f"minutes, {human_minutes(e4)} {since}) is longer than the time it would stand for; projected "
                      "as itself"]
    return given, []


def _implausible_window(snap: Snapshot, t: TimedWorkload, e2: int, e4: int, poh_minutes: float | None,
                        used: UsedReading | None) -> str | None:
    """Why these E2h/E4h cannot be a measurement (None when they can)."""
    e2n, e4n = t.labels[0], t.labels[2]
    if drive_timed.impossible_timed(snap, e2, e4):
        return (f"{e2n} = {e2} (exactly 100 %) with {e4n} = {e4:,} minutes ({e4 / MINUTES_PER_YEAR:,.0f} years) "
                "is a pattern of broken firmware counters, not a measurement")
    if poh_minutes is not None and e4 > poh_minutes + 60:
        return (f"{e4n} = {e4:,} minutes exceeds the drive's power-on time "
                f"({poh_minutes:,.0f} minutes = {snap.power_on_hours:,.0f} h)")
    wear_percent = e2 / E2H_STEPS_PER_PERCENT
    if used is not None and not used.at_least and wear_percent > used.percent + max(2.0, 0.05 * used.percent) + 1:
        return (f"{e2n} says {wear_percent:,.2f} % wear in the window, but {used.detail} means only "
                f"{used.percent:g} % in the drive's whole life")
    return None


def _counter_stuck(t: TimedWorkload, e2: int, e4: int, poh_minutes: float | None, used: UsedReading | None,
                   warnings: list[str]) -> str | None:
    """E2h still 0 over a window in which the drive's own lifetime average would have moved it a whole percent
    (1,024 steps): a worn drive whose wear counter does not move (real DC S3500s at 100-237 % whose E2h stayed 0
    for 9,000 power-on hours while their Device Statistics went on counting) is no measurement of 'no wear'. The
    reason, and a warning in `warnings`."""
    if e2 != 0 or used is None or used.percent <= 0 or not poh_minutes:
        return None
    expected = used.percent / poh_minutes * e4 * E2H_STEPS_PER_PERCENT
    if expected < E2H_STEPS_PER_PERCENT:
        return None
    e2n, e4n = t.labels[0], t.labels[2]
    warnings.append(f"wear counter suspect: {e2n} has not moved in {hours_text(e4 / 60)} of a drive "
                    f"{percent_of(used)} worn; its timed window is not used (see the window)")
    return (f"{e2n} = 0 over {e4n} = {e4:,} power-on minutes ({e4 / 60:,.0f} h), although at its lifetime average "
            f"({percent_of(used)} in {hours_text(poh_minutes / 60)}) the drive would have moved it about "
            f"{expected:,.0f} steps: the wear counter does not move")


def _reset_ignored(ctx: Context, t: TimedWorkload, e4: int) -> str | None:
    """Why ssdwear's own last reset did not take (the drive accepted the command but E4h counts on from before
    it), or None."""
    if ctx.reset is None or ctx.now is None:
        return None
    since_reset = (ctx.now - ctx.reset.at).total_seconds() / 60
    if since_reset < 0 or e4 <= since_reset + VALID_AFTER_MINUTES:
        return None  # (a reset dated after now: the wall clock went back, and cannot tell)
    return (f"{t.labels[2]} = {e4:,} minutes is longer than the {since_reset:,.0f} minutes since ssdwear reset this "
            f"drive's timer at {_fmt(ctx.reset.at)}: the reset did not take effect")


def _reset_by_someone_else(ctx: Context, t: TimedWorkload, e4: int) -> list[str]:
    """E4h went backwards since ssdwear's last look, and not because of ssdwear's own reset."""
    last_e4 = ctx.last_look.e4h_minutes if ctx.last_look is not None else None
    if ctx.last_look is not None and last_e4 is not None and last_e4 not in TIMER_SENTINELS and e4 < last_e4:
        ours = ctx.reset is not None and ctx.reset.at > ctx.last_look.at
        if not ours:
            return [f"the timed-workload timer was reset by someone else: {t.labels[2]} went from "
                    f"{ctx.last_look.e4h_minutes:,} at {_fmt(ctx.last_look.at)} to {e4:,} minutes now"]
    return []


def _sentinel_reason(ctx: Context, t: TimedWorkload, snap: Snapshot) -> str:
    """Why E2h-E4h at 65535 give no window (after its state's words). Only a reset ssdwear recorded is said to have
    happened: drives seen at tens of thousands of power-on hours show 65535 with no reset anyone knows of. A drive
    whose reset is not documented is never sent one: `start` gives it a counter window."""
    trio = t.span
    held = (f"the drive holds {trio} at 65535 until its workload timer has run {VALID_AFTER_MINUTES} power-on "
            "minutes after a reset")
    if ctx.reset is not None:
        return f"{held}; {_when_valid(ctx, 0)}"
    return (f"{trio} read 65535, so the counters hold no measurement ({held}; ssdwear has no record "
            f"of resetting this drive, so when it will be valid is not known; {_how_to_start(snap)})")


def _how_to_start(snap: Snapshot) -> str:
    if drive_timed.documented_reset(snap) is not None:
        return "`ssdwear start` begins a window"
    return ("no reset is documented for this drive, so ssdwear sends it none: `ssdwear start` begins a counter window "
            "instead, where the drive has a finer counter")


def _when_valid(ctx: Context, minutes_so_far: int) -> str:
    if ctx.reset is not None:
        at = ctx.reset.at + timedelta(minutes=VALID_AFTER_MINUTES)
        return (f"valid at about {_fmt(at)} if the drive stays powered on "
                f"(ssdwear reset it at {_fmt(ctx.reset.at)})")
    return f"valid in {VALID_AFTER_MINUTES - minutes_so_far} more power-on minutes"


def _fmt(when: datetime) -> str:
    return time_text(when)




def percent_of(reading: UsedReading) -> str:
    return percent_text(reading.percent, reading.at_least)
