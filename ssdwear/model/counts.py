"""How a count is said: the one way every count of things (drives, samples, readings) is printed."""

from __future__ import annotations


def count_text(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun as people say it: '1 drive', '3,134 samples' (thousands grouped, as every figure
    ssdwear prints; the plural `noun` + 's' unless given)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
