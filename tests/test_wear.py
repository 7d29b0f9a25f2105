"""Pure wear maths against the seed article's figures (AnandTech, Intel SSD 710 review, 2011)."""

from __future__ import annotations

import math

import pytest

from ssdwear import wear

DAY = 1440.0


def test_seed_710_rate_and_years() -> None:
    # E2h = 15 steps of 1/1024 % in a 60-minute window that stands for one day of the workload.
    rate = wear.timed_workload_rate(15, 60, represents_minutes=DAY)
    assert rate.per_year == pytest.approx(15 / 1024 * 365, rel=1e-9)
    assert rate.per_year == pytest.approx(5.35, abs=0.01)
    p = wear.project(rate, None, "timed-workload")
    assert p.years_new_drive == pytest.approx(18.7, abs=0.05)
    # The article's 0.0145 % (between counter steps 14 and 15) gives 18.9 years: inside the range.
    article_years = 100 / (0.0145 * 365)
    assert article_years == pytest.approx(18.9, abs=0.05)
    assert p.years_low is not None and p.years_high is not None
    assert p.years_low < article_years < p.years_high
    assert p.bounds_of == "years_new_drive"


def test_seed_320_gives_4_6_years() -> None:
    p = wear.project(wear.timed_workload_rate(61, 60, represents_minutes=DAY), None, "timed-workload")
    assert p.years_new_drive == pytest.approx(4.6, abs=0.05)


def test_window_stands_for_itself_by_default() -> None:
    # One step per hour of power-on time bounds a new drive's life at about 11.7 years (DOMAIN.md).
    p = wear.project(wear.timed_workload_rate(1, 60), None, "timed-workload")
    assert p.years_new_drive == pytest.approx(11.7, abs=0.05)


def test_no_wear_yet_gives_a_lower_bound_not_infinity() -> None:
    p = wear.project(wear.timed_workload_rate(0, 60), None, "timed-workload")
    assert p.years_new_drive is None
    assert p.years_high is None
    assert p.years_low == pytest.approx(11.7, abs=0.05)
    assert p.percent_per_year == 0


def test_remaining_years_use_lifetime_wear() -> None:
    rate = wear.timed_workload_rate(15, 60, represents_minutes=DAY)
    p = wear.project(rate, 40.0, "timed-workload")
    assert p.years_remaining == pytest.approx(60 / rate.per_year)
    assert p.bounds_of == "years_remaining"
    assert p.years_low < p.years_remaining < p.years_high


def test_worn_out_drive_has_zero_years_left() -> None:
    p = wear.project(wear.delta_rate(10, 1, 1000), 120.0, "readings")
    assert p.years_remaining == 0 and p.years_low == 0 and p.years_high == 0


def test_delta_rate_resolution_bounds() -> None:
    rate = wear.delta_rate(2.0, 1.0, 8760)
    assert (rate.low, rate.per_year, rate.high) == pytest.approx((1.0, 2.0, 3.0))
    zero = wear.delta_rate(0.0, 1.0, 8760)
    assert zero.per_year == 0 and zero.low == 0 and zero.high == pytest.approx(1.0)


def test_fit_rate_follows_a_line_and_widens_with_scatter() -> None:
    hours = [0.0, 1000.0, 2000.0, 3000.0, 4000.0]
    clean = wear.fit_rate(hours, [10.0, 11.0, 12.0, 13.0, 14.0], step=1 / 1024)
    assert clean.per_year == pytest.approx(8.76)
    noisy = wear.fit_rate(hours, [10.0, 11.6, 11.4, 13.5, 14.0], step=1 / 1024)
    assert noisy.high - noisy.low > clean.high - clean.low
    assert noisy.low <= noisy.per_year <= noisy.high


@pytest.mark.parametrize("bad", [
    lambda: wear.timed_workload_rate(1, 0), lambda: wear.delta_rate(1, 1, 0),
    lambda: wear.fit_rate([1.0], [1.0], 1.0), lambda: wear.fit_rate([1.0, 1.0], [1, 2], 1),
])
def test_degenerate_inputs_are_rejected(bad) -> None:
    with pytest.raises(ValueError):
        bad()


def test_bytes_projection_against_tbw() -> None:
    # 100 TB written of a 1 PB rating, writing 1 TB per 100 hours: 900 TB left at 87.6 TB/year.
    p = wear.bytes_rate_projection(100 * 10**12, 10**15, 0.9e10, 1e10, 1.1e10, "history:host_bytes_written")
    assert p.years_remaining == pytest.approx(900 / 87.6)
    assert not math.isinf(p.years_high or 0)
