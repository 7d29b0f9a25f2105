#!/usr/bin/env python3
"""Back-test of ssdwear's projections on the evaluation half of the same-drive series (out of sample).

Usage: python3 bench/backtest.py [--csv PATH] [--half eval|cal] [--table FILE]

For drives with >= 3 readings (bench/series.py's rules) it predicts the last reading from (a) the first reading
alone and (b) all readings but the last, with the product's own code: ssdwear.wear.forecast.rate_forecast for the
rate interval over the horizon to the last reading, and ssdwear.wear.forecast_projection (what report, analyze,
check, retire-check and Prometheus show) for the years. A last section checks that `ssdwear analyze`'s code path
(assess.series.series_report over parsed snapshots) gives the same projections as the direct call.

Printed per selection and mode: n; coverage of the 50/80/90 % intervals (share of drives whose last reading lies
inside [u + rate_low x dh, u + rate_high x dh]); MAE = median |predicted - actual| in points and as % of the wear
added; the median width of the 80 % interval and width / MAE; beside them the predictors ssdwear 0.1 used:
(a) the lifetime average u/h from the first reading with its +-1 step bounds, (b) a least-squares fit over the
known readings with its resolution and scatter bounds.
The headline selection is drives already >= 5 % worn at the first reading (known at prediction time); drives whose
wear moved >= 5 points are shown too, but that selection looks at the outcome and favours fast drives.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import series

from ssdwear.assess.context import Context
from ssdwear.assess.report import assess
from ssdwear.assess.series import SavedReading, series_report
from ssdwear.model.records import (
    DEVSTAT_LOGICAL_SECTORS_WRITTEN,
    DEVSTAT_PERCENT_USED,
    NVME_DATA_UNIT_BYTES,
    DevStat,
    NvmeHealth,
    Snapshot,
)
from ssdwear.wear import fine, forecast
from ssdwear.wear import rates as wear

LEVELS = forecast.LEVELS
STEP = 1.0


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def lsq(hours: Sequence[float], used: Sequence[float]) -> float:
    n = len(hours)
    mh, mu = sum(hours) / n, sum(used) / n
    sxx = sum((h - mh) ** 2 for h in hours)
    return max(sum((h - mh) * (u - mu) for h, u in zip(hours, used, strict=True)) / sxx, 0.0) if sxx > 0 else 0.0


def old_fit_bounds(hours: Sequence[float], used: Sequence[float]) -> tuple[float, float, float]:
    """ssdwear 0.1's fit over readings (wear.fit_rate): slope, and the wider of +-1 step over the span and 2 SE."""
    n, span = len(hours), hours[-1] - hours[0]
    slope = lsq(hours, used)
    low, high = max(slope * span - STEP, 0) / span, (slope * span + STEP) / span
    if n > 2:
        mh, mu = sum(hours) / n, sum(used) / n
        sxx = sum((h - mh) ** 2 for h in hours)
        residual = sum((u - (mu + slope * (h - mh))) ** 2 for h, u in zip(hours, used, strict=True))
        se = math.sqrt(residual / (n - 2) / sxx)
        low, high = min(low, max(slope - 2 * se, 0)), max(high, slope + 2 * se)
    return slope, low, high


@dataclass
class Case:
    mode: str
    first: float  # used % at the first reading
    known_moved: float  # points the indicator moved over the known readings
    added: float  # points added from the latest known reading to the target
    interface: str
    error: float
    inside: dict[float, bool]
    width: float  # 80 % interval, points
    old_error: float
    old_inside: bool
    old_width: float
    expected_steps: float
    long_inside: dict[float, bool]  # the years interval (long horizon) around the target
    years_low: float | None  # the pessimistic years bound the user sees


def run(drives: list[series.Drive], table: forecast.Calibration) -> list[Case]:
    out = []
    for mode in ("a", "b"):
        for d, known, target in series.cases(drives, mode):
            latest = known[-1]
            dh = target.power_on_hours - latest.power_on_hours
            if dh <= 0 or latest.power_on_hours <= 0:
                continue
            u = latest.used_percent
            fcs = {lv: forecast.rate_forecast(known, STEP, d.interface, lv, dh, table) for lv in LEVELS}
            longs = {lv: forecast.rate_forecast(known, STEP, d.interface, lv, None, table) for lv in LEVELS}
            if any(f is None for f in (*fcs.values(), *longs.values())):
                continue
            predicted = {lv: forecast.predicted_reading(fc, u, dh) for lv, fc in fcs.items() if fc is not None}
            if mode == "a":
                old, old_low, old_high = u / latest.power_on_hours, max(u - STEP, 0) / latest.power_on_hours, \
                    (u + STEP) / latest.power_on_hours
            else:
                old, old_low, old_high = old_fit_bounds([r.power_on_hours for r in known],
                                                        [r.used_percent for r in known])
            long80 = longs[0.8]
            assert long80 is not None
            projection = wear.rate_projection(wear.Rate.from_forecast(long80), u, "backtest", "", 0.8)
            out.append(Case(
                mode=mode, first=d.readings[0].used_percent,
                known_moved=u - known[0].used_percent if mode == "b" else u,
                added=target.used_percent - u, interface=d.interface,
                error=abs(predicted[0.8][0] - target.used_percent),
                inside={lv: p[1] <= target.used_percent <= p[2] for lv, p in predicted.items()},
                width=predicted[0.8][2] - predicted[0.8][1],
                old_error=abs(u + old * dh - target.used_percent),
                old_inside=u + old_low * dh <= target.used_percent <= u + old_high * dh,
                old_width=(old_high - old_low) * dh, expected_steps=long80.base * dh / STEP,
                long_inside={lv: f.low * dh <= target.used_percent - u <= f.high * dh
                             for lv, f in longs.items() if f is not None},
                years_low=projection.years_remaining_low))
    return out


HEADER = (f"{'':4} {'n':>5} | {'cov50':>5} {'cov80':>5} {'cov90':>5} | {'MAE':>5} {'MAE%':>4} {'width':>6} "
          f"{'w/MAE':>5} | {'0.1 MAE':>7} {'MAE%':>4} {'cov':>5} {'width':>6}")


def summary(cases: list[Case], title: str) -> list[str]:
    lines = [f"== {title}", HEADER]
    for mode in ("a", "b"):
        cs = [c for c in cases if c.mode == mode]
        if not cs:
            continue
        n = len(cs)
        cov = {lv: sum(c.inside[lv] for c in cs) / n for lv in LEVELS}
        mae = median([c.error for c in cs])
        mae_pct = median([100 * c.error / c.added for c in cs if c.added > 0])
        width = median([c.width for c in cs])
        old_mae = median([c.old_error for c in cs])
        old_pct = median([100 * c.old_error / c.added for c in cs if c.added > 0])
        old_cov = sum(c.old_inside for c in cs) / n
        old_width = median([c.old_width for c in cs])
        lines.append(f"({mode}) {n:5d} | {100 * cov[0.5]:4.1f}% {100 * cov[0.8]:4.1f}% {100 * cov[0.9]:4.1f}% | "
                     f"{mae:5.2f} {mae_pct:3.0f}% {width:6.2f} {width / mae if mae else float('inf'):5.2f} | "
                     f"{old_mae:7.2f} {old_pct:3.0f}% {100 * old_cov:4.1f}% {old_width:6.2f}")
    return lines


def snapshot(d: series.Drive, r: forecast.Reading) -> Snapshot | None:
    """A reading as the parser would have made it from the drive's smartctl output (NVMe log / ATA devstat)."""
    used, hours = int(r.used_percent), r.power_on_hours
    if used != r.used_percent or r.host_bytes_written is None:
        return None
    common = dict(source=f"{d.drive_id}-{hours:g}.txt", model=d.model, serial=d.drive_id, rotation_rate=0,
                  power_on_hours=hours, smart_passed=True)
    if d.used_source == "nvme_percentage_used" and r.host_bytes_written % NVME_DATA_UNIT_BYTES == 0:
        return Snapshot(interface="nvme", nvme=NvmeHealth(
            percentage_used=used, power_on_hours=int(hours),
            data_units_written=int(r.host_bytes_written) // NVME_DATA_UNIT_BYTES), **common)  # type: ignore[arg-type]
    if d.used_source == "ata_devstat_percentage_used" and r.host_bytes_written % 512 == 0:
        stats = {DEVSTAT_PERCENT_USED: DevStat(7, 8, "Percentage Used Endurance Indicator", used, normalized=True),
                 DEVSTAT_LOGICAL_SECTORS_WRITTEN: DevStat(1, 0x18, "Logical Sectors Written",
                                                          int(r.host_bytes_written) // 512)}
        return Snapshot(interface="ata", devstats=stats, logical_sector_size=512, **common)  # type: ignore[arg-type]
    return None


def cli_path_check(drives: list[series.Drive], limit: int = 600) -> str:
    """The projection `ssdwear analyze` makes of the known readings (parsed snapshots -> assess -> series_report)
    against the direct call the back-test makes: they must be the same numbers."""
    ctx = Context()
    worst = 0.0
    n = 0
    for d, known, _ in series.cases(drives, "b"):
        snaps = [snapshot(d, r) for r in known]
        if any(x is None for x in snaps):
            continue
        chain = [SavedReading(x, assess(x, ctx)) for x in snaps if x is not None]
        via_cli = series_report(chain, ctx).projection
        direct = wear.forecast_projection(known, STEP, d.interface, "direct", "", 0.8)
        if via_cli is None or direct is None or via_cli.percent_per_year is None or direct.percent_per_year is None:
            continue
        for a, b in ((via_cli.percent_per_year, direct.percent_per_year),
                     (via_cli.percent_per_year_high, direct.percent_per_year_high)):
            if a is not None and b is not None and max(a, b) > 0:
                worst = max(worst, abs(a - b) / max(a, b))
        n += 1
        if n >= limit:
            break
    return (f"== the CLI's path: {n} drives' known readings (b) as parsed snapshots through assess and "
            f"assess.series.series_report: largest relative difference from the direct call {worst:.2e}")


@dataclass
class FineCase:
    """Predictor (b) on one drive with a fine indicator, with and without it."""

    source: str
    first: float
    without_inside: bool  # today's (b): the indicator's 80 % interval for the last reading
    without_error: float
    without_width: float
    inside: bool  # with the fine signal: its 80 % interval for the wear at the last reading, against the fine truth
    inside_indicator: bool  # ... and the whole-percent indicator there lies in the floors of that interval
    error: float
    width: float


def fine_cases(drives: list[series.Drive], table: forecast.Calibration, nand_only: bool = False) -> list[FineCase]:
    """(b) on the drives whose fine indicator covers every reading (series.fine_readings): all readings but the last
    known. Without: the product's calibrated forecast of the whole-percent indicator (as run()). With: the product's
    fine.fine_forecast over the fine indicator's known readings; its interval is for the wear, checked against the
    same fine indicator at the last reading (E2h: Intel's own 1/1024 % count; NAND: the NAND counter times the wear
    per byte the known readings allowed) and against the whole-percent indicator there (inside the floors of the
    interval). `nand_only`: NAND bytes even where E2h exists (the path of every non-Intel drive, checked where E2h
    can judge it)."""
    out = []
    for d in drives:
        n = len(d.readings)
        f = series.fine_readings(d, n - 1, nand_only=nand_only) if n >= 3 else None
        if f is None:
            continue
        known, target = d.readings[:-1], d.readings[-1]
        dh = target.power_on_hours - known[-1].power_on_hours
        without = forecast.rate_forecast(known, STEP, d.interface, 0.8, dh, table)
        with_fine = fine.fine_forecast(f.readings, f.per_unit, 0.8, table)
        if dh <= 0 or without is None or with_fine is None or forecast.too_early(f.readings, table) is not None:
            continue
        p, lo, hi = forecast.predicted_reading(without, known[-1].used_percent, dh)
        f0, truth = forecast.clean(f.readings)[-1].used_percent, f.beyond[-1].used_percent
        fp, flo, fhi = f0 + with_fine.central * dh, f0 + with_fine.low * dh, f0 + with_fine.high * dh
        out.append(FineCase(
            f.source, d.readings[0].used_percent, lo <= target.used_percent <= hi, abs(p - target.used_percent),
            hi - lo, flo <= truth <= fhi, math.floor(flo) <= target.used_percent <= math.floor(fhi),
            abs(fp - truth), fhi - flo))
    return out


def fine_summary(cases: list[FineCase], title: str) -> list[str]:
    if not cases:
        return [f"== {title}: no drive"]
    n = len(cases)

    def pct(xs: list[bool]) -> str:
        return f"{100 * sum(xs) / len(xs):4.1f}%"

    w0, w1 = median([c.without_width for c in cases]), median([c.width for c in cases])
    return [f"== {title}",
            f"   n {n}: without the fine signal: inside {pct([c.without_inside for c in cases])}, median error "
            f"{median([c.without_error for c in cases]):.2f} points, median width {w0:.2f}",
            f"   n {n}: with it:                inside {pct([c.inside for c in cases])} (the indicator inside its "
            f"floors: {pct([c.inside_indicator for c in cases])}), median error {median([c.error for c in cases]):.2f} "
            f"points, median width {w1:.2f} ({100 * (1 - w1 / w0):.0f} % narrower)"]


@dataclass
class WindowCase:
    counter: str  # 'media' (NAND bytes) or 'host'
    inside_e2h: bool | None  # the wear E2h counted in the window lies in the window's 80 % range (E2h drives)
    inside_indicator: bool  # the indicator at the window's end lies in the floors of the range it allows
    width: float
    error: float | None


def window_cases(drives: list[series.Drive]) -> list[WindowCase]:
    """The window maths on real drives (issue 19.3, where the window is months): for consecutive readings, the
    wear between them from the counter's movement x the wear per unit the first reading's whole-percent step allows
    x the calibrated drift (the product's fine.window_wear at 80 %), against the wear E2h counted (drives whose E2h
    was never reset) and against the indicator at the second reading."""
    out = []
    for d in drives:
        e2h = series.fine_readings(d, len(d.readings))
        for i in range(len(d.readings) - 1):
            a, b = d.readings[i], d.readings[i + 1]
            if a.used_percent <= 0 or not forecast.calibration().spans(b.power_on_hours - a.power_on_hours):
                continue
            for kind, ca, cb in (("media", d.extras[i].nand_bytes_written, d.extras[i + 1].nand_bytes_written),
                                 ("host", a.host_bytes_written, b.host_bytes_written)):
                k = fine.lifetime([fine.Point(ca, a.used_percent, STEP)]) if ca else None
                if k is None or cb is None or ca is None or cb < ca:
                    continue
                w = fine.window_wear(cb - ca, k, kind, 0.8)
                truth = None
                if e2h is not None and e2h.source == "intel_e2h_since_manufacture":
                    truth = e2h.readings[i + 1].used_percent - e2h.readings[i].used_percent
                low_end, high_end = fine.spread(k, fine.drift_grid(kind), 0.8)[0::2]
                out.append(WindowCase(
                    kind, None if truth is None else w.low <= truth <= w.high,
                    math.floor(low_end * (ca + (cb - ca))) <= b.used_percent <= math.floor(high_end * (ca + (cb - ca))),
                    w.high - w.low, None if truth is None else abs(w.central - truth)))
    return out


def window_summary(cases: list[WindowCase]) -> list[str]:
    lines = ["== the window back-test: the wear between consecutive readings from the counter's movement (80 % range)"]
    for kind, what in (("media", "NAND bytes written"), ("host", "host bytes written")):
        cs = [c for c in cases if c.counter == kind]
        judged = [c for c in cs if c.inside_e2h is not None]
        if not cs:
            continue
        lines.append(f"   {what:18}: against E2h's count, n {len(judged)}: inside "
                     f"{100 * sum(bool(c.inside_e2h) for c in judged) / max(len(judged), 1):4.1f}%, median error "
                     f"{median([c.error or 0.0 for c in judged]):.3f} points, median width "
                     f"{median([c.width for c in judged]):.3f}; against the indicator, n {len(cs)}: inside its floors "
                     f"{100 * sum(c.inside_indicator for c in cs) / len(cs):4.1f}%")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", type=Path, help=f"the series CSV (default: ${series.CSV_ENV})")
    parser.add_argument("--half", choices=("eval", "cal"), default="eval", help="eval = out of sample (default)")
    parser.add_argument("--table", type=Path, help="calibration table (default: the one ssdwear ships)")
    args = parser.parse_args()
    table = forecast.Calibration.from_dict(__import__("json").loads(args.table.read_text())) if args.table \
        else forecast.calibration()
    drives = [d for d in series.load(args.csv) if d.calibration_half == (args.half == "cal")]
    cases = run(drives, table)
    print(f"{args.half} half: {sum(len(d.readings) >= 3 for d in drives)} drives with >= 3 readings; "
          f"intervals at 50/80/90 %; 0.1 = the predictor and bounds of ssdwear 0.1")
    selections: list[tuple[str, Callable[[Case], bool]]] = [
        ("HEADLINE: >= 5 % used at the first reading", lambda c: c.first >= 5),
        ("  the same, ATA", lambda c: c.first >= 5 and c.interface == "ata"),
        ("  the same, NVMe", lambda c: c.first >= 5 and c.interface == "nvme"),
        ("all drives", lambda c: True),
        ("< 5 % used at the first reading", lambda c: c.first < 5),
        ("wear moved >= 5 points first to last (selected on the outcome: favours fast drives)",
         lambda c: c.known_moved + c.added >= 5 if c.mode == "b" else c.added >= 5),
    ]
    for title, keep in selections:
        print("\n".join(summary([c for c in cases if keep(c)], title)))
    print("== the years interval (long horizon) around the last reading, where the indicator was expected to move "
          ">= 2 steps (ticks matter little)")
    for mode in ("a", "b"):
        for title, keep in (("all", lambda c: True), (">= 5 % at first", lambda c: c.first >= 5)):
            cs = [c for c in cases if c.mode == mode and c.expected_steps >= 2 and keep(c)]
            if cs:
                covs = "  ".join(f"cov{lv * 100:g} {100 * sum(c.long_inside[lv] for c in cs) / len(cs):4.1f}%"
                                 for lv in LEVELS)
                print(f"({mode}) {title:16} n {len(cs):5d}: {covs}")
    print("== no alarms from drives that did not move: years_remaining_low (80 %) of drives < 5 % at the first reading")
    for mode in ("a", "b"):
        cs = [c for c in cases if c.mode == mode and c.first < 5]
        still = sorted(c.years_low for c in cs if c.known_moved == 0 and c.years_low is not None)
        print(f"({mode}) {len(still)} whose indicator never moved: under 1 year {sum(y < 1 for y in still)}, under "
              f"2 years {sum(y < 2 for y in still)}; smallest {still[0]:.1f} y, median {median(still):.0f} y")
    print(cli_path_check(drives))
    fines = fine_cases(drives, table)
    print("== predictor (b) with and without the fine signal, drives with a finer counter (the 80 % interval)")
    for title, keep in (("all", lambda c: True), (">= 5 % used at the first reading", lambda c: c.first >= 5)):
        print("\n".join(fine_summary([c for c in fines if keep(c)], f"fine signal, {title}")))
        for source in ("intel_e2h_since_manufacture", "nand_bytes_written"):
            print("\n".join(fine_summary([c for c in fines if keep(c) and c.source == source], f"  {source}, {title}")))
    nand = fine_cases(drives, table, nand_only=True)
    print("\n".join(fine_summary(nand, "NAND bytes written on every drive that has them (E2h's drives too), all")))
    print("\n".join(window_summary(window_cases(drives))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
