#!/usr/bin/env python3
"""Rebuild ssdwear/wear/calibration.json from the calibration half of the same-drive series.

Usage: python3 bench/calibrate.py [--csv PATH] [--out FILE] [--swap]

Reads the same-drive series readings.csv (linuxhw/EnterpriseDrive, CC BY 4.0), named by --csv PATH or
SSDWEAR_SERIES_CSV (docs/accuracy.md: what it is, where it comes from; bench/series.py: the rules and the
halves). Cases, as in the back-test: drives with >= 3 readings; (a) the first reading known, (b) all but the last
known; the target is the last reading. For each case the product's own estimate
(ssdwear.wear.forecast.estimate) gives the central rate r and the class; E = r x dh / step is the indicator
movement expected by the target, rho = (u_target - u_known) / (r x dh) the realized future rate over r.

Fitted on the calibration half only:
  h0_hours  the prior hours for an indicator still at 0: the value in H0_GRID whose aggregate prediction for
            single readings at 0 % matches their aggregate realized wear;
  prior_steps  k, how many indicator steps the write-calibrated rate weighs against the readings' own movement
            (forecast.py): the value in K_GRID with the least mean absolute error of the (b) predictions;
  min_power_on_hours  the youngest drive a lifetime average is projected from: single readings that already show
            wear (u > 0), each reading but a drive's last one predicting its last (the 80 % interval over that
            horizon), bucketed by power-on hours at MIN_HOURS_GRID; the smallest grid value from which every
            bucket's coverage is within MIN_HOURS_SLACK of the 80 % it states (below it the lifetime average of a
            young drive over-predicts: its early wear does not go on at that pace);
  classes   per class: buckets of E (>= MIN_BUCKET cases each, at most 4) with the rate multipliers (lo, hi)
            for the levels 0.5/0.8/0.9 (an interval [0, Q(level)] where the indicator did not tick in more than
            the lower tail, else equal tails); a long-horizon row for years left from the cases expected to move
            >= 2 steps (tick noise small), and the central multiplier = their median ratio. Classes whose
            indicator never moved borrow the long row of one reading at that wear.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from itertools import pairwise
from pathlib import Path

import series

from ssdwear.wear import fine, forecast

OUT = series.ROOT / "ssdwear" / "wear" / "calibration.json"
MIN_BUCKET = 200
MAX_BUCKETS = 4
LONG_E = 2.0
LONG_MIN = 100
NEVER_MOVED = ("single|u0", "multi|still0", "multi|still1")
BORROW = {"multi|still0": "single|u0", "multi|still1": "single|u1"}
H0_GRID = (0.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0)
K_GRID = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
MIN_SPAN_HOURS = 24.0
MIN_HOURS_GRID = (0.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0)
MIN_HOURS_SLACK = 0.1
STEP = 1.0  # the series' indicators move in whole percent
DRIFT_MIN_USED = 0.5  # percent: E2h's 1/1024 % step is under 0.2 % of the lifetime wear
DRIFT_MIN_WEAR = 0.05  # percent in the window: 51 E2h steps or more


def quantile(xs: list[float], p: float) -> float:
    """Linear-interpolation quantile of a sorted list."""
    if len(xs) == 1:
        return xs[0]
    x = p * (len(xs) - 1)
    i = math.floor(x)
    j = min(i + 1, len(xs) - 1)
    return xs[i] + (xs[j] - xs[i]) * (x - i)


def rho_samples(drives: list[series.Drive], h0: float, k: float) -> dict[str, list[tuple[float, float, float]]]:
    """{class: [(E, rho, steps moved)]} over both back-test constructions."""
    out: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for mode in ("a", "b"):
        for d, known, target in series.cases(drives, mode):
            est = forecast.estimate(known, STEP, d.interface, h0, k, MIN_SPAN_HOURS)
            if est is None:
                continue
            dh = target.power_on_hours - known[-1].power_on_hours
            if dh <= 0 or est.rate <= 0:
                continue
            du = target.used_percent - known[-1].used_percent
            out[est.wear_class].append((est.rate * dh / STEP, du / (est.rate * dh), du / STEP))
    return out


def _sig(x: float) -> float:
    return 0.0 if x <= 0 else round(x, 1 - math.floor(math.log10(x)))


def multipliers(rhos: list[float], level: float) -> list[float]:
    tail = (1 - level) / 2
    p0 = sum(1 for x in rhos if x <= 0) / len(rhos)
    if p0 >= tail:  # the atom at 0 (no tick) is larger than the lower tail
        return [0.0, round(max(quantile(rhos, level), 0.0), 4)]
    return [round(quantile(rhos, tail), 4), round(quantile(rhos, 1 - tail), 4)]


def build(drives: list[series.Drive], h0: float, k: float) -> dict:
    samples = rho_samples(drives, h0, k)
    classes: dict[str, dict] = {}
    for cls, xs in sorted(samples.items()):
        xs.sort()
        n = len(xs)
        nb = max(1, min(MAX_BUCKETS, n // MIN_BUCKET))
        edges = [_sig(xs[i * n // nb][0]) for i in range(1, nb)]
        parts: list[list[float]] = [[] for _ in range(nb)]
        for e, rho, _ in xs:
            parts[forecast._bucket(e, edges)].append(rho)
        for part in parts:
            part.sort()
        classes[cls] = {"e_edges": edges,
                        "iv": [{f"{lv:g}": multipliers(part, lv) for lv in forecast.LEVELS} for part in parts],
                        "n": [len(p) for p in parts],
                        "p_zero": [round(sum(1 for x in p if x <= 0) / len(p), 3) for p in parts]}
    pooled: dict[str, list[float]] = defaultdict(list)
    for cls, xs in samples.items():
        if cls not in NEVER_MOVED:
            pooled[cls.split("|")[0]].extend(rho for e, rho, _ in xs if e >= LONG_E)
    for cls in sorted(classes):
        if cls in BORROW:
            continue
        own = sorted(rho for e, rho, _ in samples[cls] if e >= LONG_E)
        mode = cls.split("|")[0]
        src, rhos = (f"own E>={LONG_E:g}", own) if len(own) >= LONG_MIN else \
            (f"pooled {mode} E>={LONG_E:g}", sorted(pooled[mode]))
        classes[cls].update(long={f"{lv:g}": [round(quantile(rhos, (1 - lv) / 2), 4),
                                              round(quantile(rhos, (1 + lv) / 2), 4)] for lv in forecast.LEVELS},
                            long_n=len(rhos), long_from=src, mult=round(quantile(rhos, 0.5), 4))
    for cls, donor in BORROW.items():
        if cls in classes and donor in classes:
            classes[cls].update(long=classes[donor]["long"], long_n=classes[donor]["long_n"],
                                long_from=f"borrowed from {donor}", mult=classes[donor]["mult"])
    return {"h0_hours": h0, "prior_steps": k, "min_span_hours": MIN_SPAN_HOURS, "classes": classes}


def fit_h0(drives: list[series.Drive]) -> float:
    best = None
    for h0 in H0_GRID:
        xs = rho_samples(drives, h0, 2.0).get("single|u0", [])
        ratio = sum(x[2] for x in xs) / sum(x[0] for x in xs)
        score = abs(math.log(ratio)) if ratio > 0 else float("inf")
        print(f"  h0 {h0:6g} h: realized / predicted wear of drives at 0 % = {ratio:.2f}")
        if best is None or score < best[0]:
            best = (score, h0)
    assert best is not None
    return best[1]


def fit_k(drives: list[series.Drive], h0: float) -> float:
    best = None
    for k in K_GRID:
        table = forecast.Calibration.from_dict(build(drives, h0, k))
        errors = []
        for d, known, target in series.cases(drives, "b"):
            dh = target.power_on_hours - known[-1].power_on_hours
            fc = forecast.rate_forecast(known, STEP, d.interface, 0.8, dh, table)
            if fc is not None:
                errors.append(abs(forecast.predicted_reading(fc, known[-1].used_percent, dh)[0] - target.used_percent))
        mean = sum(errors) / len(errors)
        print(f"  prior_steps {k:4g}: mean abs error of (b) = {mean:.4f} points")
        if best is None or mean < best[0]:
            best = (mean, k)
    assert best is not None
    return best[1]


def fit_min_hours(drives: list[series.Drive], table: forecast.Calibration) -> tuple[float, dict[str, list[float]]]:
    """(min_power_on_hours, {bucket start: [cases, 80 % coverage]}) (see the module docstring)."""
    counts = {g: [0, 0] for g in MIN_HOURS_GRID}
    for d in drives:
        target = d.readings[-1]
        for r in d.readings[:-1]:
            dh = target.power_on_hours - r.power_on_hours
            fc = forecast.rate_forecast([r], STEP, d.interface, 0.8, dh, table)
            if r.used_percent <= 0 or dh < MIN_SPAN_HOURS or fc is None:
                continue
            _, low, high = forecast.predicted_reading(fc, r.used_percent, dh)
            bucket = counts[max(g for g in MIN_HOURS_GRID if g <= r.power_on_hours)]
            bucket[0] += 1
            bucket[1] += low <= target.used_percent <= high
    coverage = {f"{g:g}": [n, round(inside / n, 3) if n else 0.0] for g, (n, inside) in counts.items()}
    holds = [n == 0 or inside / n >= 0.8 - MIN_HOURS_SLACK for n, inside in counts.values()]
    first = next((i for i in range(len(holds)) if all(holds[i:])), len(holds) - 1)
    for start, (n, cov) in coverage.items():
        print(f"  single readings with wear from {start:>5} h: n {n:6.0f}, 80 % interval covers {cov:.2f}")
    return MIN_HOURS_GRID[first], coverage


def grid(xs: list[float]) -> list[float]:
    """The GRID quantiles of a sample (the midpoints of GRID equal shares), rounded: how a calibrated spread is kept."""
    xs = sorted(xs)
    return [round(quantile(xs, (j + 0.5) / fine.GRID), 4) for j in range(fine.GRID)]


def fine_class_rows(drives: list[series.Drive], table: forecast.Calibration) -> dict[str, dict]:
    """The fine classes: for drives with >= 3 readings whose fine indicator (series.fine_readings) covers them,
    the rate of all but the last reading (the product's fine.fine_forecast, before its spread) against the realized
    rate to the last, by the same fine indicator: their ratio's quantiles by class, and the median."""
    rhos: dict[str, list[float]] = defaultdict(list)
    for d in drives:
        n = len(d.readings)
        f = series.fine_readings(d, n - 1) if n >= 3 else None
        if f is None or forecast.too_early(f.readings, table) is not None:
            continue
        known, target = forecast.clean(f.readings), f.beyond[-1]
        span, dh = known[-1].power_on_hours - known[0].power_on_hours, target.power_on_hours - known[-1].power_on_hours
        if len(known) < 2 or not table.spans(span) or dh <= 0:
            continue
        rate = (known[-1].used_percent - known[0].used_percent) / span
        if rate > 0:
            rhos[fine.fine_class(known[-1].used_percent)].append(
                (target.used_percent - known[-1].used_percent) / (rate * dh))
    return {cls: {"grid": grid(xs), "mult": round(quantile(sorted(xs), 0.5), 4), "n": len(xs)}
            for cls, xs in sorted(rhos.items())}


def drift_rows(drives: list[series.Drive]) -> dict[str, dict]:
    """How far a window's wear per unit strays from its lifetime value: consecutive readings of drives whose Intel
    E2h (never reset, counting the indicator's wear) measures the wear in between to 1/1024 %: the window's wear per
    NAND byte (media) and per host byte (host) over the lifetime's at the window's start. Windows with at least
    DRIFT_MIN_WEAR of wear in them, starting at DRIFT_MIN_USED or more (E2h's own step is then small)."""
    qs: dict[str, list[float]] = {"media": [], "host": []}
    for d in drives:
        f = series.fine_readings(d, len(d.readings))
        if f is None or f.source != "intel_e2h_since_manufacture":
            continue
        byhours = {r.power_on_hours: e for r, e in zip(d.readings, d.extras, strict=True)}
        for a, b in pairwise(f.readings):
            if a.used_percent < DRIFT_MIN_USED or b.used_percent - a.used_percent < DRIFT_MIN_WEAR:
                continue
            nand = byhours[a.power_on_hours].nand_bytes_written, byhours[b.power_on_hours].nand_bytes_written
            pairs = {"host": (a.host_bytes_written, b.host_bytes_written), "media": nand}
            for kind, (ca, cb) in pairs.items():
                if ca and cb and cb > ca:
                    qs[kind].append(((b.used_percent - a.used_percent) / (cb - ca)) / (a.used_percent / ca))
    return {kind: {"grid": grid(xs), "median": round(quantile(sorted(xs), 0.5), 4), "n": len(xs)}
            for kind, xs in qs.items()}


def write(table: dict, path: Path) -> None:
    """Compact JSON: the constants, then one line per class."""
    lines = ["{"]
    for key in sorted(k for k in table if k != "classes"):
        lines.append(f"{json.dumps(key)}: {json.dumps(table[key], sort_keys=True)},")
    lines.append('"classes": {')
    names = sorted(table["classes"])
    for i, name in enumerate(names):
        body = json.dumps(table["classes"][name], sort_keys=True, separators=(",", ":"))
        lines.append(f"{json.dumps(name)}: {body}{',' if i < len(names) - 1 else ''}")
    lines.append("}}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", type=Path, help=f"the series CSV (default: ${series.CSV_ENV})")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--swap", action="store_true", help="robustness check only: calibrate on the other half")
    args = parser.parse_args()
    drives = [d for d in series.load(args.csv) if d.calibration_half != args.swap]
    print(f"calibration half: {len(drives)} drives ({sum(len(d.readings) >= 3 for d in drives)} with >= 3 readings)")
    h0 = fit_h0(drives)
    k = fit_k(drives, h0)
    table = build(drives, h0, k)
    min_hours, coverage = fit_min_hours(drives, forecast.Calibration.from_dict(table))
    table["min_power_on_hours"] = min_hours
    table["classes"].update(fine_class_rows(drives, forecast.Calibration.from_dict(table)))
    table["drift"] = drift_rows(drives)
    table["provenance"] = {
        "data": "linuxhw/EnterpriseDrive (Linux Hardware Project, linux-hardware.org), CC BY 4.0: same-drive "
                "smartctl -x readings extracted from the repository history to 66faf203c101 (readings.csv, "
                "docs/accuracy.md)",
        "half": "evaluation half held out" if not args.swap else "SWAPPED (robustness check, do not ship)",
        "selection": "calibration half: int(drive_id, 16) % 2 == 0; drives with >= 3 readings after bench/series.py",
        "drives": sum(len(d.readings) >= 3 for d in drives),
        "built_by": "python3 bench/calibrate.py",
        "min_power_on_hours": "smallest of power-on hours " + "/".join(f"{g:g}" for g in MIN_HOURS_GRID)
                              + f" from which single readings showing wear are covered by their 80 % interval at "
                              f"least {0.8 - MIN_HOURS_SLACK:g} of the time in every bucket (calibration half, "
                              "each reading but a drive's last predicting its last)",
        "min_power_on_hours_coverage": coverage,
        "fine": "classes fine|*: drives with >= 3 readings whose fine indicator (Intel E2h of a timer never reset, "
                "else NAND bytes written x the wear per NAND byte the known readings' whole-percent steps allow; "
                "bench/series.py fine_readings) covers every reading; the quantiles (grid, the midpoints of "
                f"{fine.GRID} equal shares) of the realized rate to the last reading over the recent rate of the "
                "others",
        "drift": "drift: consecutive readings of drives whose E2h (never reset) measures the wear between them, with "
                 f">= {DRIFT_MIN_WEAR:g} % of wear from >= {DRIFT_MIN_USED:g} % used: the quantiles of the window's "
                 "wear per NAND byte (media) and per host byte (host) over their lifetime values at the window's start",
    }
    write(table, args.out)
    print(f"h0_hours {h0:g}, prior_steps {k:g}, min_power_on_hours {min_hours:g}; "
          f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
    for kind, row in table["drift"].items():
        print(f"  drift {kind:5} n {row['n']:5}: median {row['median']:.4f}, 10-90 % {row['grid'][3]:.4f}-"
              f"{row['grid'][36]:.4f}")
    for cls, c in table["classes"].items():
        if cls.startswith("fine|"):
            print(f"  {cls:13} n {c['n']:5} mult {c['mult']:.3f}  10-90 %: {c['grid'][3]:.3f}-{c['grid'][36]:.3f}")
            continue
        print(f"  {cls:13} edges {c['e_edges']!s:20} n {c['n']!s:22} mult {c['mult']:.3f}  "
              f"80 %: {[tuple(q['0.8']) for q in c['iv']]}  long {tuple(c['long']['0.8'])} "
              f"(n {c['long_n']}, {c['long_from']})")
        if min(c["n"]) < MIN_BUCKET:
            print(f"WARNING: {cls} has a bucket under {MIN_BUCKET} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
