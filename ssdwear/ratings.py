"""Rated write endurance (TBW) per model, and the config entries that extend it. TB and PB are decimal."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Optional

from .records import Snapshot

TB = 10**12
PB = 10**15
GB = 10**9


@dataclass(frozen=True)
class Rating:
    """Rated endurance of a model (regex on the model string) or of one drive (serial).

    Either `bytes` (TBW) or `dwpd` + `warranty_years`, which Intel's formula turns into bytes for the
    drive's capacity: TBW = DWPD x capacity x 365 x warranty years.
    """

    bytes: Optional[int]
    note: str
    model: Optional[str] = None  # regular expression searched in the model string (case-insensitive)
    serial: Optional[str] = None  # exact serial number
    nominal_capacity_bytes: Optional[int] = None  # marketed capacity, to recognise extra spare area
    spare_area_bytes: Optional[int] = None  # rating with +20 % spare area (user capacity <= 85 % of nominal)
    dwpd: Optional[float] = None  # drive writes per day over the warranty
    warranty_years: Optional[float] = None

    def bytes_for(self, capacity_bytes: Optional[int]) -> Optional[int]:
        if self.bytes is not None:
            return self.bytes
        if self.dwpd is not None and self.warranty_years is not None and capacity_bytes:
            return int(self.dwpd * capacity_bytes * 365 * self.warranty_years)
        return None


# Seed figures: Intel SSD 710 and X25-E product briefs as quoted by the AnandTech Intel SSD 710 review
# (2011): 4 KB random writes; the 710 figures in brackets apply with +20 % spare area.
BUILTIN_RATINGS: Sequence[Rating] = (
    Rating(500 * TB, "Intel SSD 710 100 GB: 500 TB (900 TB with +20 % spare area)", model=r"SSDSA2BZ100G3",
           nominal_capacity_bytes=100 * GB, spare_area_bytes=900 * TB),
    Rating(1 * PB, "Intel SSD 710 200 GB: 1.0 PB (1.5 PB with +20 % spare area)", model=r"SSDSA2BZ200G3",
           nominal_capacity_bytes=200 * GB, spare_area_bytes=1500 * TB),
    Rating(1100 * TB, "Intel SSD 710 300 GB: 1.1 PB (1.5 PB with +20 % spare area)", model=r"SSDSA2BZ300G3",
           nominal_capacity_bytes=300 * GB, spare_area_bytes=1500 * TB),
    Rating(1 * PB, "Intel X25-E 32 GB: 1.0 PB", model=r"SSDSA[12]SH032G1"),
    Rating(2 * PB, "Intel X25-E 64 GB: 2.0 PB", model=r"SSDSA[12]SH064G1"),
)


@dataclass(frozen=True)
class AppliedRating:
    bytes: int
    source: str


def find_rating(snap: Snapshot, configured: Sequence[Rating] = ()) -> Optional[AppliedRating]:
    """The rating for this drive: a configured serial first, then configured models, then the built-in table."""
    model = snap.model or ""
    by_serial = [(r, f"serial {r.serial}") for r in configured if r.serial and r.serial == snap.serial]
    by_model = [(r, f"model /{r.model}/") for r in configured
                if r.model and not r.serial and re.search(r.model, model, re.I)]
    for rating, where in by_serial + by_model:
        value = rating.bytes_for(snap.capacity_bytes)
        if value:
            return AppliedRating(value, f"config ({where}): {rating.note}")
    for rating in BUILTIN_RATINGS:
        if rating.model and re.search(rating.model, model, re.I) and rating.bytes:
            if (rating.spare_area_bytes and rating.nominal_capacity_bytes and snap.capacity_bytes
                    and snap.capacity_bytes <= 0.85 * rating.nominal_capacity_bytes):
                return AppliedRating(rating.spare_area_bytes,
                                     f"built-in: {rating.note}; user capacity shows the extra spare area")
            return AppliedRating(rating.bytes, f"built-in: {rating.note}")
    return None
