"""The maths of a finer counter (issue 19.2, 19.3): its wear per unit from the drive's rating or from the
whole-percent steps of its readings, the fine figure it gives, the wear in a window with its range (the counter's
steps, the wear per unit's range, the calibrated drift), and the recent rate of a fine indicator."""

from __future__ import annotations

import pytest

from ssdwear.wear import fine
from ssdwear.wear.forecast import Reading


def test_one_reading_bounds_the_wear_per_unit_by_its_step() -> None:
    k = fine.lifetime([fine.Point(1000.0, 5.0, 1.0)])
    assert k is not None and k.basis == "lifetime"
    assert k.low == pytest.approx(0.005 * (1 - fine.INTERSECT_SLACK)) and k.high == pytest.approx(0.006 * 1.005)
    f = fine.fine_percent(1000.0, k)
    assert f.low <= 5 and f.high >= 6 and not fine.finer(f, 1.0)  # one reading: no finer than the indicator


def test_readings_on_both_sides_of_a_tick_pin_the_wear_per_unit() -> None:
    # 5 % at 1,190 units, 6 % at 1,200: the sixth percent was reached in between
    k = fine.lifetime([fine.Point(1190.0, 5.0, 1.0), fine.Point(1200.0, 6.0, 1.0)])
    assert k is not None and k.basis == "readings"
    assert 6 / 1200 * 0.995 <= k.low < k.high <= 6 / 1190 * 1.005
    f = fine.fine_percent(1300.0, k)
    assert fine.finer(f, 1.0) and f.low < 6.5 < f.high and f.uncertainty < 0.1


def test_a_counter_that_does_not_count_the_indicators_wear_gives_none() -> None:
    # 10 % at 1,000 units, then 11 % at 2,000: the wear per unit halved, beyond any step
    assert fine.lifetime([fine.Point(1000.0, 10.0, 1.0), fine.Point(2000.0, 11.0, 1.0)]) is None
    assert fine.lifetime([fine.Point(0.0, 3.0, 1.0)]) is None


def test_an_indicator_still_at_zero_bounds_the_wear_per_unit_from_above_only() -> None:
    k = fine.lifetime([fine.Point(500.0, 0.0, 1.0)])
    assert k is not None and k.low == 0 and not k.calibrated and k.high == pytest.approx(1 / 500 * 1.005)


def test_a_drive_rated_count_is_checked_against_the_indicator() -> None:
    k = fine.rated(3000, "attribute 168")
    assert k is not None and k.low == k.high == pytest.approx(100 / 3000)
    assert not fine.contradicts(4.4, 4.0, 1.0)  # 132 of 3000 erase cycles beside 4 %
    assert fine.contradicts(5.5, 100.0, 1.0)  # 55 of 1,000 beside 'worn out'
    assert fine.contradicts(9.0, 4.0, 1.0) and not fine.contradicts(44.0, 40.0, 1.0)  # 10 % of u at 40 %
    assert fine.rated(0, "none") is None


def test_a_window_combines_the_counters_steps_the_wear_per_unit_and_the_drift() -> None:
    exact = fine.PerUnit(0.01, 0.01, "rated", "")
    media = fine.window_wear(100, exact, "media", 0.8)
    host = fine.window_wear(100, exact, "host", 0.8)
    assert media.low < media.central < media.high and media.central == pytest.approx(1.0, rel=0.01)
    assert host.high - host.low > media.high - media.low  # host writes do not see write amplification: wider
    assert media.low == pytest.approx(99 * 0.01, rel=0.03) and media.high == pytest.approx(101 * 0.01, rel=0.03)
    wide = fine.window_wear(100, fine.PerUnit(0.005, 0.006, "lifetime", ""), "media", 0.8)
    # the step's range: 80 % of a uniform range of 0.1 points, and the drift's, around the midpoint
    assert wide.low < 0.55 < wide.high and wide.high - wide.low >= 0.8 * 100 * 0.001
    assert fine.window_wear(100, exact, "media", 0.9).high > media.high > fine.window_wear(100, exact, "media",
                                                                                              0.5).high
    idle = fine.window_wear(0, exact, "media", 0.8)
    assert idle.central == 0 and idle.low == 0 and idle.high > 0  # no movement: less than one unit's wear


def test_the_recent_rate_of_a_fine_indicator_is_its_own_movement() -> None:
    readings = [Reading(10_000, 5.000), Reading(10_100, 5.010), Reading(10_200, 5.020)]
    fc = fine.fine_forecast(readings, fine.PerUnit(1, 1, "rated", ""), 0.8)
    assert fc is not None and fc.mode == "fine" and fc.wear_class == "fine|u5"
    assert fc.base == pytest.approx(0.02 / 200) and fc.low < fc.base < fc.high
    wider = fine.fine_forecast(readings, fine.PerUnit(0.9, 1.1, "lifetime", ""), 0.8)
    assert wider is not None and wider.low < fc.low and wider.high > fc.high  # the wear per unit's range adds
    idle = fine.fine_forecast([Reading(10_000, 5.0), Reading(10_200, 5.0)], fine.PerUnit(1, 1, "rated", ""), 0.8)
    assert idle is not None and idle.central == 0 and idle.low == 0 and idle.high > 0
    assert fine.fine_forecast([Reading(10_000, 5.0), Reading(10_010, 5.1)], fine.PerUnit(1, 1, "rated", ""),
                              0.8) is None  # under a day apart
