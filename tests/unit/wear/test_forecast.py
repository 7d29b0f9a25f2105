"""The calibrated forecast on small hand-made drives: flat, idle, steady, accelerating, bytes-only, a lone tick.

The table itself is measured out of sample by bench/backtest.py (figures in docs/accuracy.md); these tests pin what the
model does with readings a person can check by hand.
"""

from __future__ import annotations

import json

import pytest

from ssdwear.wear import forecast
from ssdwear.wear import rates as wear
from ssdwear.wear.forecast import Reading

TB = 1e12
YEAR = 8760.0


def project(readings: list[Reading], interface: str = "ata", level: float = 0.8):
    return wear.forecast_projection(readings, 1.0, interface, "history:test", "", level)


def test_one_reading_is_the_lifetime_average_at_the_step_midpoint() -> None:
    fc = forecast.rate_forecast([Reading(20_000, 12, None)])
    assert fc.mode == "single" and fc.wear_class == "single|u5"
    assert fc.lifetime == pytest.approx(12.5 / 20_000)  # the indicator shows 12 while the wear is in [12, 13)
    row = forecast.calibration().classes["single|u5"]
    assert fc.central == pytest.approx(fc.lifetime * row["mult"])
    low, high = row["long"]["0.8"]
    assert (fc.low, fc.high) == pytest.approx((fc.lifetime * low, fc.lifetime * high))
    assert fc.low < fc.central < fc.high


def test_an_indicator_at_zero_is_shrunk_and_never_gets_an_alarming_bound() -> None:
    p = project([Reading(1000, 0, 4 * TB)])  # (before 1,000 h a 0 % indicator is too early to project)
    assert p.percent_per_year < 1 and p.years_remaining_high is None  # could be no wear at all
    assert p.years_remaining_low > 10


def test_a_flat_drive_with_writes_gets_no_alarming_bound() -> None:
    # 2 %, nothing moved over 500 h while 5 TB were written: not "0.3 years" at the low end.
    p = project([Reading(8000, 2, 40 * TB), Reading(8500, 2, 45 * TB)])
    assert p.trend is None
    assert p.years_remaining_low > 5
    assert p.years_remaining_low < p.years_remaining < (p.years_remaining_high or float("inf"))


def test_an_idle_drive_has_no_end_in_sight_but_a_lower_bound() -> None:
    # 3 % at 9,000 h, not one byte written over the last 2,000 h.
    p = project([Reading(7000, 3, 30 * TB), Reading(9000, 3, 30 * TB)])
    assert p.percent_per_year == 0 and p.years_remaining is None and p.years_remaining_high is None
    assert p.years_remaining_low > 5  # its old workload may come back: bounded by its lifetime rate


def test_a_steady_drive_agrees_with_its_lifetime_average() -> None:
    # 0.5 % per 1,000 power-on hours all its life, 3 GB per hour.
    readings = [Reading(h, h / 2000, h * 3e9) for h in (16_000, 18_000, 20_000)]
    p = project(readings)
    true_rate = 0.5 / 1000 * YEAR
    assert p.trend is None
    assert p.percent_per_year_low < true_rate < p.percent_per_year_high
    assert p.percent_per_year == pytest.approx(true_rate, rel=0.25)
    assert p.rates["recent"] == pytest.approx(true_rate)


def test_an_accelerating_drive_says_so_and_leans_on_the_recent_rate() -> None:
    # 10 % in its first 20,000 h (5.5 TB a month), then 10 more points in 2,000 h at ten times the writes.
    readings = [Reading(20_000, 10, 150 * TB), Reading(22_000, 20, 300 * TB)]
    p = project(readings)
    assert p.trend is not None and p.trend.direction == "speeding up"
    assert p.trend.text.startswith("wear speeding up: ")
    lifetime_years = wear.years_left(80, p.rates["lifetime"])
    assert p.years_remaining < lifetime_years and p.years_remaining_low < p.years_remaining
    assert p.percent_per_year > 10 * p.rates["lifetime"] / 2  # far closer to the recent 43.8 %/year


def test_bytes_give_a_recent_rate_when_the_indicator_barely_moves() -> None:
    # The case: two samples 30 days apart that moved one percent and 3 TB, on a drive at 10 % after
    # 20,000 h and 60 TB: not the lifetime average.
    readings = [Reading(20_000, 10, 60 * TB), Reading(20_720, 11, 63 * TB)]
    fc = forecast.rate_forecast(readings, interface="nvme")
    assert fc.mode == "multi" and fc.write_calibrated is not None
    assert fc.write_calibrated > fc.lifetime  # it writes faster than its lifetime average
    assert fc.lifetime < fc.base < fc.recent  # the tick moves the rate up, the writes keep it sane
    p = project(readings, "nvme")
    assert p.percent_per_year_low < p.rates["write_calibrated"] < p.percent_per_year_high


def test_a_lone_tick_in_two_days_is_not_a_rate_of_180_percent_a_year() -> None:
    readings = [Reading(12_000, 10, 205 * TB), Reading(12_048, 11, 206 * TB)]
    fc = forecast.rate_forecast(readings, interface="nvme")
    assert fc.recent * YEAR == pytest.approx(182.5)
    assert fc.base < 2 * fc.write_calibrated  # weighed by the hours each stands for
    assert fc.weight_recent < 0.1


def test_identical_readings_count_once() -> None:
    same = Reading(5000, 7, 10 * TB)
    fc = forecast.rate_forecast([same, same, same])
    assert fc.readings == 1 and fc.mode == "single"


def test_readings_closer_than_a_day_are_one_reading() -> None:
    fc = forecast.rate_forecast([Reading(5000, 7, 10 * TB), Reading(5010, 7, 11 * TB)])
    assert fc.mode == "single"


def test_levels_nest_and_only_calibrated_levels_are_accepted() -> None:
    readings = [Reading(20_000, 10, 60 * TB), Reading(22_000, 12, 70 * TB)]
    by = {lv: forecast.rate_forecast(readings, level=lv) for lv in forecast.LEVELS}
    assert by[0.9].low <= by[0.8].low <= by[0.5].low <= by[0.5].high <= by[0.8].high <= by[0.9].high
    with pytest.raises(ValueError, match="not calibrated"):
        forecast.rate_forecast(readings, level=0.7)


def test_a_short_horizon_carries_the_chance_of_no_tick() -> None:
    readings = [Reading(20_000, 10, 60 * TB)]
    soon = forecast.rate_forecast(readings, horizon_hours=10)
    assert soon is not None and soon.low == 0  # over 10 hours a 1 % indicator most likely shows no change
    predicted, low, high = forecast.predicted_reading(soon, 10, 10)
    assert low == 10 and low <= predicted <= high


def test_the_shipped_table_is_small_complete_and_says_where_it_came_from() -> None:
    raw = json.loads(forecast.CALIBRATION_FILE.read_text())
    assert forecast.CALIBRATION_FILE.stat().st_size < 8_000
    assert "CC BY 4.0" in raw["provenance"]["data"] and "bench/calibrate.py" in raw["provenance"]["built_by"]
    assert "SWAPPED" not in raw["provenance"]["half"]
    fine_rows = {name: row for name, row in raw["classes"].items() if name.startswith("fine|")}
    assert set(fine_rows) == {"fine|u0", "fine|u1", "fine|u5", "fine|u20"}  # a fine indicator's recent rate
    for row in [*fine_rows.values(), *raw["drift"].values()]:  # its spread, and the drift of windows
        assert len(row["grid"]) == 40 and row["grid"] == sorted(row["grid"]) and row["n"] >= 100
    assert set(raw["drift"]) == {"media", "host"} and "drift" in raw["provenance"] and "fine" in raw["provenance"]
    for name, row in raw["classes"].items():
        if name in fine_rows:
            continue
        assert set(row["long"]) == {"0.5", "0.8", "0.9"}, name
        assert len(row["iv"]) == len(row["e_edges"]) + 1, name
        for lo, hi in [*row["long"].values(), *(iv for b in row["iv"] for iv in b.values())]:
            assert 0 <= lo <= hi, name


def test_too_early_below_the_calibrated_minimum_of_power_on_time() -> None:
    cal = forecast.calibration()
    assert cal.min_power_on_hours == 1000  # bench/calibrate.py fit_min_hours, with its provenance in the table
    assert "min_power_on_hours" in cal.provenance and cal.provenance["min_power_on_hours_coverage"]["500"][1] < 0.7
    young = [Reading(18, 15, None)]
    assert forecast.rate_forecast(young) is None and wear.forecast_projection(young, 1.0, "", "x", "", 0.8) is None
    assert "too early to project: 15 % used in only 18 power-on hours" in (forecast.too_early(young) or "")
    # An indicator still at 0 that young says as little (issue 26.16); 1,000 h is old enough for both.
    assert "too early to project: 0 % used in only 66 power-on hours" in (forecast.too_early([Reading(66, 0, None)])
                                                                          or "")
    assert forecast.rate_forecast([Reading(66, 0, None)]) is None
    assert forecast.too_early([Reading(1000, 15, None)]) is None
    assert forecast.too_early([Reading(1000, 0, None)]) is None
    assert forecast.too_early([Reading(500, 2, None), Reading(900, 3, None)]) is not None  # the latest decides


@pytest.mark.parametrize("central,low,high,shown", [
    (18.7, 17.5, 20.0, "18.7 (17.5-20.0)"),
    (51.4, 35.2, 114.3, "51.4 (≥ 35.2)"),  # the range reaches beyond what the data support
    (145.0, 84.0, 448.0, "> 100 (≥ 84.0)"),
    (1765.0, 154.0, 5000.0, "> 100"),
    (None, 11.7, None, "≥ 11.7"),  # no wear seen in a timed window: a lower bound
    (None, 120.0, None, "> 100"),
    (0.2, 0.04, 2.5, "0.2 (< 0.1-2.5)"),
    (0.0, 0.0, 0.0, "0.0"),  # nothing left (the report says so)
])
def test_printed_years_are_bounded_where_the_data_cannot_support_a_figure(central, low, high, shown) -> None:
    from ssdwear.model.units import fmt_years

    assert fmt_years(central, low, high) == shown
