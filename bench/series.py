"""The same-drive wear series (readings.csv) as ssdwear readings, with the hygiene rules that bench/calibrate.py
and bench/backtest.py share.

Data: linuxhw/EnterpriseDrive (Linux Hardware Project, github.com/linuxhw/EnterpriseDrive), CC BY 4.0: 18,504
drives, 56,734 `smartctl -x` readings of the same drive months and years apart, extracted by ssdwear 0.1.0 from
the repository's history (docs/accuracy.md says how, and which columns are read). The CSV is not in this
repository: the scripts take it from --csv PATH or SSDWEAR_SERIES_CSV. Only what is derived from it
(ssdwear/wear/calibration.json, the figures in docs/accuracy.md) is shipped.

Rules:
- a drive with a `poh_down` row is dropped whole (its power-on clock went backwards while its counters went
  forwards: a counter reset or a swapped drive, so no row can be trusted to share one clock);
- other suspect rows (`hbw_down`, `used_down`) are dropped;
- saturated readings (`used_at_least`) are dropped: they bound a rate from below only and cannot be checked;
- identical readings (same power-on hours and counters) count once;
- a drive whose remaining readings carry more than one used_source is dropped;
- readings sorted by power-on hours.
Halves: calibration = int(drive_id, 16) % 2 == 0 (drive_id is a hash of the drive's path), evaluation = odd.
"""

from __future__ import annotations

import csv
import os
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from ssdwear.drives.timed import lifetime_e2h_percent
from ssdwear.wear import fine
from ssdwear.wear import rates as wear
from ssdwear.wear.forecast import Reading

ROOT = Path(__file__).resolve().parents[1]

CSV_ENV = "SSDWEAR_SERIES_CSV"
_WHAT = ("the same-drive series readings.csv: 18,504 drives' smartctl -x readings from the public repository "
         "github.com/linuxhw/EnterpriseDrive (CC BY 4.0), not in this repository; docs/accuracy.md says how it is "
         "made")


def _f(text: str) -> float | None:
    return float(text) if text not in ("", None) else None


@dataclass(frozen=True)
class Extra:
    """What a reading holds beside its Reading: the finer counters (bench/backtest.py's fine signal)."""

    nand_bytes_written: float | None
    e2h: int | None  # Intel timed-workload raws (E2h 1/1024 %, E4h minutes), as published
    e4h: int | None


@dataclass(frozen=True)
class Drive:
    drive_id: str
    interface: str
    used_source: str
    model: str
    readings: tuple[Reading, ...]  # sorted by power-on hours
    extras: tuple[Extra, ...] = ()  # one per reading, in the same order

    @property
    def calibration_half(self) -> bool:
        return int(self.drive_id, 16) % 2 == 0


def csv_path(given: Path | None) -> Path:
    """The series CSV: --csv PATH, else $SSDWEAR_SERIES_CSV; one line and exit 2 when neither names a file."""
    if given is None:
        named = os.environ.get(CSV_ENV)
        if not named:
            sys.stderr.write(f"no series CSV: pass --csv PATH or set {CSV_ENV} ({_WHAT})\n")
            sys.exit(2)
        given = Path(named)
    if not given.is_file():
        sys.stderr.write(f"{given}: no such file ({_WHAT}); pass --csv PATH or set {CSV_ENV}\n")
        sys.exit(2)
    return given


def _i(text: str) -> int | None:
    return int(float(text)) if text not in ("", None) else None


def load(path: Path | None = None, stats: Counter[str] | None = None) -> list[Drive]:
    """Every drive with at least two readings left after the rules above. `stats` counts what was dropped."""
    path = csv_path(path)
    stats = stats if stats is not None else Counter()
    by_drive: dict[str, list[dict[str, str]]] = defaultdict(list)
    with open(path, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            by_drive[row["drive_id"]].append(row)
    drives = []
    for drive_id, rows in by_drive.items():
        stats["drives_in"] += 1
        if any("poh_down" in r["suspect"] for r in rows):
            stats["dropped_drive_poh_down"] += 1
            continue
        keep = []
        for r in rows:
            if r["suspect"]:
                stats["dropped_row_suspect"] += 1
            elif r["used_at_least"] == "true":
                stats["dropped_row_saturated"] += 1
            else:
                keep.append(r)
        if len({r["used_source"] for r in keep}) > 1:
            stats["dropped_drive_mixed_source"] += 1
            continue
        seen = set()
        readings = []
        extras = []
        for r in sorted(keep, key=lambda r: float(r["power_on_hours"])):
            key = (r["power_on_hours"], r["used_percent"], r["host_bytes_written"], r["host_bytes_read"],
                   r["nand_bytes_written"])
            if key in seen:
                stats["dropped_row_identical"] += 1
                continue
            seen.add(key)
            readings.append(Reading(float(r["power_on_hours"]), float(r["used_percent"]),
                                    _f(r["host_bytes_written"])))
            extras.append(Extra(_f(r["nand_bytes_written"]), _i(r.get("e2h_raw", "")), _i(r.get("e4h_raw", ""))))
        if len(readings) < 2:
            stats["dropped_drive_under_2_readings"] += 1
            continue
        last = keep[-1]
        drives.append(Drive(drive_id, last["interface"], last["used_source"], last["model"], tuple(readings),
                            tuple(extras)))
    stats["drives_out"] = len(drives)
    return drives


def cases(drives: list[Drive], mode: str):
    """(drive, known readings, target reading) for drives with >= 3 readings: (a) the first reading known,
    (b) all but the last known; the target is the last reading."""
    for d in drives:
        if len(d.readings) >= 3:
            yield d, (d.readings[:1] if mode == "a" else d.readings[:-1]), d.readings[-1]


@dataclass(frozen=True)
class Fine:
    """A drive's readings as a fine indicator: its source, the readings of it (percent), the wear per unit it rests
    on (exact for E2h), and the same for the readings beyond the known ones (the truth to check against)."""

    source: str  # 'intel_e2h_since_manufacture' or 'nand_bytes_written'
    readings: list[Reading]
    per_unit: fine.PerUnit
    beyond: list[Reading]


E2H_EXACT = fine.PerUnit(1.0, 1.0, "rated", "E2h counts 1/1024 % steps of wear")


def fine_readings(d: Drive, known: int, nand_only: bool = False) -> Fine | None:
    """The drive's fine indicator over its first `known` readings, with the same indicator at the later ones: Intel
    E2h of a timer never reset where every reading has it and it counts the indicator's wear (the product's
    wear.finer_readings), else NAND bytes written times the wear per NAND byte that the known readings' whole-percent
    steps allow (the product's fine.lifetime). None where neither applies."""
    points = [wear.Point(r.power_on_hours, r.used_percent, 1.0,
                         lifetime_e2h_percent(e.e2h, e.e4h, r.power_on_hours), r.host_bytes_written)
              for r, e in zip(d.readings, d.extras, strict=True)]
    e2h = None if nand_only else wear.finer_readings(points)
    if e2h is not None:
        return Fine("intel_e2h_since_manufacture", e2h[:known], E2H_EXACT, e2h[known:])
    if any(e.nand_bytes_written is None for e in d.extras):
        return None
    counts = [e.nand_bytes_written or 0.0 for e in d.extras]
    if any(b < a for a, b in pairwise(counts)):
        return None
    k = fine.lifetime([fine.Point(c, r.used_percent, 1.0) for c, r in zip(counts[:known], d.readings[:known],
                                                                             strict=True)])
    if k is None or not k.calibrated:
        return None
    as_wear = [Reading(r.power_on_hours, c * k.mid, r.host_bytes_written) for c, r in zip(counts, d.readings,
                                                                                                   strict=True)]
    return Fine("nand_bytes_written", as_wear[:known], k, as_wear[known:])
