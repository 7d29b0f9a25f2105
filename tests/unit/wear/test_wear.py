"""Pure wear maths against the seed article's figures (AnandTech, Intel SSD 710 review, 2011), and the
conversion of rates into years with their intervals."""

from __future__ import annotations

import pytest

from ssdwear.wear import rates as wear

DAY = 1440.0


def timed(steps: int, minutes: float = 60, represents: float | None = None, used: float | None = None):
    return wear.rate_projection(wear.timed_workload_rate(steps, minutes, represents), used, "timed-workload", "", None)


def test_seed_710_rate_and_years() -> None:
    # E2h = 15 steps of 1/1024 % in a 60-minute window that stands for one day of the workload.
    rate = wear.timed_workload_rate(15, 60, represents_minutes=DAY)
    assert rate.per_year == pytest.approx(15 / 1024 * 365, rel=1e-9)
    assert rate.per_year == pytest.approx(5.35, abs=0.01)
    p = timed(15, represents=DAY)
    assert p.years_new_drive == pytest.approx(18.7, abs=0.05)
    # The article's 0.0145 % (between counter steps 14 and 15) gives 18.9 years: inside the range.
    article_years = 100 / (0.0145 * 365)
    assert article_years == pytest.approx(18.9, abs=0.05)
    assert p.years_new_drive_low < article_years < p.years_new_drive_high
    assert p.interval_level is None  # the range is the counter's resolution, not a calibrated interval
    assert p.years_remaining is None and p.years_remaining_low is None  # lifetime wear unknown


def test_seed_320_gives_4_6_years() -> None:
    assert timed(61, represents=DAY).years_new_drive == pytest.approx(4.6, abs=0.05)


def test_window_stands_for_itself_by_default() -> None:
    # One step per hour of power-on time bounds a new drive's life at about 11.7 years (DOMAIN.md).
    assert timed(1).years_new_drive == pytest.approx(11.7, abs=0.05)


def test_no_wear_yet_gives_a_lower_bound_not_infinity() -> None:
    p = timed(0)
    assert p.years_new_drive is None and p.years_new_drive_high is None
    assert p.years_new_drive_low == pytest.approx(11.7, abs=0.05)
    assert p.percent_per_year == 0


def test_remaining_years_use_lifetime_wear_and_the_high_rate_gives_the_low_years() -> None:
    rate = wear.timed_workload_rate(15, 60, represents_minutes=DAY)
    p = timed(15, represents=DAY, used=40.0)
    assert p.years_remaining == pytest.approx(60 / rate.per_year)
    assert p.years_remaining_low == pytest.approx(60 / rate.high)
    assert p.years_remaining_high == pytest.approx(60 / rate.low)
    assert p.years_remaining_low < p.years_remaining < p.years_remaining_high


def test_worn_out_drive_has_zero_years_left() -> None:
    p = wear.rate_projection(wear.Rate(10, 5, 20), 120.0, "readings", "", 0.8)
    assert p.years_remaining == 0 and p.years_remaining_low == 0 and p.years_remaining_high == 0


def test_a_zero_low_rate_leaves_the_high_years_unbounded() -> None:
    p = wear.rate_projection(wear.Rate(2, 0, 4), 10.0, "lifetime-average", "", 0.8)
    assert p.years_remaining == 45 and p.years_remaining_low == 22.5 and p.years_remaining_high is None


def test_timed_window_must_have_length() -> None:
    with pytest.raises(ValueError):
        wear.timed_workload_rate(1, 0)


def test_trend_only_when_the_intervals_do_not_overlap() -> None:
    lifetime = wear.Rate(2.0, 1.0, 3.0)
    faster = wear.trend(wear.Rate(8.0, 5.0, 12.0), lifetime, 20.0)
    assert faster is not None and faster.direction == "speeding up"
    assert faster.text == "wear speeding up: 10.0 years at the recent rate, 40.0 years at the lifetime rate"
    assert wear.trend(wear.Rate(0.1, 0.0, 0.5), lifetime, 20.0).direction == "slowing down"
    assert wear.trend(wear.Rate(3.5, 2.9, 4.0), lifetime, 20.0) is None  # overlap: no claim
    assert wear.trend(wear.Rate(8.0, 5.0, 12.0), lifetime, 100.0) is None  # nothing left to run out


def test_a_finer_counter_counts_the_same_wear_only_within_the_indicators_step() -> None:
    def point(hours: float, used: float, fine: float | None) -> wear.Point:
        return wear.Point(hours, used, 1.0, fine, None)

    same = wear.finer_readings([point(1000, 79, 78.31), point(9810, 80, 79.27)])
    assert same is not None and [r.used_percent for r in same] == [78.31, 79.27]
    assert wear.finer_readings([point(1000, 12, 10759.16), point(2000, 12, 10760.0)]) is None  # broken E2h
    assert wear.finer_readings([point(1000, 79, 78.31), point(2000, 80, None)]) is None  # one reading lacks it
    assert wear.finer_readings([point(1000, 79, 79.5), point(2000, 79, 79.1)]) is None  # it went back
    assert wear.finer_readings([wear.Point(1000, 0.5, wear.FINE_STEP, 0.5, None)] * 2) is None  # not finer
