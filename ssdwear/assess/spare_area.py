"""What leaving part of a drive's user capacity unused does to its endurance, for `plan --spare`: a published
spare-area rating where one applies, else the write-amplification model (wear/spare.py) on the drive's NAND. Pure."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ssdwear.drives.ratings import Rating
from ssdwear.model.units import bytes_text, capacity_text
from ssdwear.wear import spare as spare_mod


@dataclass(frozen=True)
class SpareResult:
    """What leaving `percent` of the user capacity unused does to a candidate's endurance."""

    percent: float
    method: str  # 'published', 'model', 'published+model', 'not modelled'
    gain: float | None  # factor on the rated bytes (or the measured life) against the full capacity
    alpha: float | None = None  # NAND available to data and garbage collection / user capacity, before
    alpha_spare: float | None = None  # the same with the spare left unused
    published_bytes: int | None = None  # a published spare-area rating that applied
    model_bytes: float | None = None  # what the model gives from the full-capacity rating
    model_error: float | None = None  # (model - published) / published, where both exist
    assumption: str | None = None  # how the NAND was found when it is not published for this drive
    note: str = ""


def nand_alpha(entry: Rating | None, family: Sequence[Rating]) -> tuple[float | None, str | None]:
    """alpha of a drive (NAND for data and garbage collection / user capacity) and, when its NAND is not
    published, the assumption made: the same proportion as the nearest capacity of its family whose NAND is."""
    if entry is None or not entry.nominal_capacity_bytes:
        return None, None
    if entry.nand_bytes:
        return spare_mod.alpha_of(entry.nand_bytes, entry.nominal_capacity_bytes, entry.reserved_bytes or 0), None
    known = [r for r in family if r.vendor == entry.vendor and r.family == entry.family and r.nand_bytes
             and r.nominal_capacity_bytes]
    if not known:
        return None, None
    cap = entry.nominal_capacity_bytes

    def alpha(r: Rating) -> float:
        assert r.nand_bytes and r.nominal_capacity_bytes
        return spare_mod.alpha_of(r.nand_bytes, r.nominal_capacity_bytes, r.reserved_bytes or 0)

    nearest = min(known, key=lambda r: (abs(math.log(cap / (r.nominal_capacity_bytes or cap))), -alpha(r)))
    held = f", {nearest.reserved_bytes / 1e9:g} GB of it parity" if nearest.reserved_bytes else ""
    assert nearest.nand_bytes is not None
    return alpha(nearest), (f"NAND not published for this capacity: assumed in the same proportion as the "
                            f"{capacity_text(nearest.nominal_capacity_bytes)}'s ({nearest.nand_bytes / 2**30:g} GiB"
                            f"{held})")


def spare_result(entry: Rating | None, family: Sequence[Rating], percent: float) -> SpareResult:
    """What leaving `percent` of the user capacity unused does to a drive's endurance, as a factor (`gain`) on its
    full-capacity rating or on its measured life.

    A published spare-area rating is used where one applies (the largest published share not above `percent`);
    from there the model goes on to `percent`. Without the drive's NAND (published, or in proportion to a
    sibling's) the model cannot be applied, and the result says so.
    """
    share = percent / 100
    full = entry.bytes_for(None) if entry is not None else None
    base_share, base_gain, published = 0.0, 1.0, None
    if (entry is not None and full and entry.spare_area_bytes and entry.spare_area_percent is not None
            and entry.spare_area_percent <= percent + 1e-9):
        base_share, base_gain, published = entry.spare_area_percent / 100, entry.spare_area_bytes / full, \
            entry.spare_area_bytes
    alpha, assumption = nand_alpha(entry, family)
    exact = abs(base_share - share) < 1e-9
    model_full = spare_mod.endurance_gain(alpha, share) if alpha is not None and alpha > 1 else None
    model_bytes = None if model_full is None or not full else full * model_full
    if exact and published is not None:
        error = None if model_bytes is None else (model_bytes - published) / published
        note = "published spare-area rating" + (
            "" if model_bytes is None or error is None else
            f"; the model would give {bytes_text(model_bytes)} ({error:+.1%})")
        return SpareResult(percent, "published", base_gain, alpha, None if alpha is None else alpha / (1 - share),
                           published, model_bytes, error, assumption if model_bytes is not None else None, note)
    if alpha is None or alpha <= 1:
        why = "its NAND capacity is not known" if entry is not None else "the drive is not in the catalogue"
        note = (f"published rating for {base_share * 100:g} % spare area used; beyond that not modelled ({why})"
                if published is not None else
                f"spare area not modelled ({why}): the figure is without the extra spare, which would add to it")
        return SpareResult(percent, "not modelled", base_gain, published_bytes=published, note=note)
    alpha_spare = alpha / (1 - share)
    step = spare_mod.write_amplification(alpha / (1 - base_share)) / spare_mod.write_amplification(alpha_spare)
    if published is not None:
        assert full
        note = (f"published {bytes_text(published)} at {base_share * 100:g} % spare area, then the model on to "
                f"{percent:g} %: x{step:.2f}")
        return SpareResult(percent, "published+model", base_gain * step, alpha, alpha_spare, published, model_bytes,
                           None, assumption, note)
    note = (f"model: alpha {alpha:.3f} -> {alpha_spare:.3f}, write amplification "
            f"{spare_mod.write_amplification(alpha):.2f} -> {spare_mod.write_amplification(alpha_spare):.2f}: "
            f"endurance x{step:.2f}")
    return SpareResult(percent, "model", step, alpha, alpha_spare, None, model_bytes, None, assumption, note)
