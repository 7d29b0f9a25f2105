"""History fits: series breaks (resets, power-off gaps), counter choice, bounds."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from ssdwear import history
from ssdwear.model import Sample

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
TB = 10**12


def s(hours: float, used: float | None = 10, written: int | None = None, poh: float | None = None,
      source: str = "nvme_percentage_used", e2: int | None = None, e4: int | None = None) -> Sample:
    return Sample(at=T0 + timedelta(hours=hours), power_on_hours=1000 + hours if poh is None else poh,
                  used_percent=used, used_source=source, host_bytes_written=written, e2h=e2, e4h=e4)


def test_counter_reset_starts_a_new_series() -> None:
    samples = [s(0, written=5 * TB), s(1, written=6 * TB), s(2, written=1 * TB), s(3, written=2 * TB)]
    seg = history.latest_segment(samples)
    assert [x.host_bytes_written for x in seg.samples] == [1 * TB, 2 * TB]
    assert "counter reset" in seg.cut_reason and "host bytes written" in seg.cut_reason


def test_power_off_gap_is_not_fitted_across() -> None:
    # 48 wall-clock hours pass but the drive was powered for only 2 of them.
    samples = [s(0, poh=1000), s(1, poh=1001), s(49, poh=1003), s(50, poh=1004)]
    seg = history.latest_segment(samples)
    assert len(seg.samples) == 2 and "power-off gap" in seg.cut_reason


def test_wear_indicator_going_back_breaks_the_series() -> None:
    seg = history.latest_segment([s(0, used=40), s(1, used=41), s(2, used=3)])
    assert len(seg.samples) == 1 and "went back" in seg.cut_reason


def test_tbw_counter_gives_a_tight_projection() -> None:
    rated = 1000 * TB
    # 1 TB a day against 1 PB: 36.5 %/year of the rating; 100 TB written -> (90 / 36.5) years.
    samples = [s(h, written=100 * TB + int(h / 24 * TB)) for h in range(0, 24 * 7 + 1, 24)]
    result = history.project(samples, used_percent=10, rated_bytes=rated)
    assert result.well_bounded and result.projection.method == "history:host_bytes_written"
    assert result.projection.percent_per_year == pytest.approx(36.5, rel=1e-3)
    assert result.projection.years_remaining == pytest.approx((100 - 10.6) / 36.5, rel=1e-2)
    assert result.write_bytes_per_day == pytest.approx(TB, rel=1e-6)


def test_integer_indicator_over_a_short_window_is_not_well_bounded() -> None:
    result = history.project([s(0, used=10), s(24, used=10), s(48, used=11)], used_percent=11, rated_bytes=None)
    assert result.projection is not None and not result.well_bounded
    assert result.projection.years_high is None  # a one-step change cannot exclude zero wear
    assert any("bound the wear rate only" in n for n in result.notes)


def test_no_change_gives_a_lower_bound() -> None:
    result = history.project([s(0, used=10), s(24 * 30, used=10)], used_percent=10, rated_bytes=None)
    p = result.projection
    assert p.percent_per_year == 0 and p.years_remaining is None and p.years_low > 0 and p.years_high is None


def test_intel_e2h_is_preferred_when_the_timer_was_not_reset() -> None:
    samples = [s(h, used=5, source="intel_233_media_wearout", e2=1000 + 10 * h, e4=60 * (1000 + h))
               for h in range(0, 200, 20)]
    result = history.project(samples, used_percent=5, rated_bytes=None)
    assert result.projection.method == "history:intel_e2h_workload_media_wear" and result.well_bounded


def test_too_short_history() -> None:
    assert history.project([s(0)], 10, None).projection is None
    result = history.project([s(0), s(0.1)], 10, None)
    assert result.projection is None and "too short" in result.notes[0]
