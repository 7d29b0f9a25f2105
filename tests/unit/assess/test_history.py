"""History projections: series breaks (counter resets), the readings chosen, the calibrated forecast over them."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from support.clock import T0

from ssdwear.assess import history
from ssdwear.assess.windowed import Windowed
from ssdwear.model.records import DriveReport, Sample, Writes

TB = 10**12


def s(hours: float, used: float | None = 10, written: int | None = None, poh: float | None = None,
      source: str = "nvme_percentage_used") -> Sample:
    return Sample(at=T0 + timedelta(hours=hours), power_on_hours=1000 + hours if poh is None else poh,
                  used_percent=used, used_source=source, host_bytes_written=written)


def latest(source: str | None = "nvme_percentage_used", rated: int | None = None, interface: str = "nvme",
           at_least: bool = False) -> DriveReport:
    """The newest report of the drive: its wear indicator now, the step, the rating."""
    return DriveReport(device="/dev/x", interface=interface, used_source=source, used_step=1.0,
                       used_at_least=at_least, writes=Writes(rated_bytes=rated))


def project(samples: list[Sample], source: str | None = "nvme_percentage_used", rated: int | None = None,
            now: datetime = T0 + timedelta(days=3650)) -> Windowed:
    return history.history_windowed(samples, latest(source, rated), 0.8, now)


def test_counter_reset_starts_a_new_series() -> None:
    samples = [s(0, written=5 * TB), s(1, written=6 * TB), s(2, written=1 * TB), s(3, written=2 * TB)]
    seg = history.latest_segment(samples)
    assert [x.host_bytes_written for x in seg.samples] == [1 * TB, 2 * TB]
    assert "counter reset" in seg.cut_reason and "host bytes written" in seg.cut_reason


def test_a_power_off_gap_is_no_break_because_power_on_hours_are_the_clock() -> None:
    # 48 wall-clock hours pass but the drive was powered for 3 of them: it neither aged nor wore meanwhile.
    samples = [s(0, poh=1000), s(1, poh=1001), s(49, poh=1003), s(50, poh=1004)]
    assert len(history.latest_segment(samples).samples) == 4


def test_wear_indicator_going_back_breaks_the_series() -> None:
    seg = history.latest_segment([s(0, used=40), s(1, used=41), s(2, used=3)])
    assert len(seg.samples) == 1 and "went back" in seg.cut_reason


def test_a_month_of_samples_gives_a_calibrated_history_projection() -> None:
    # 10 % -> 11 % in 30 days while writing 100 GB a day, on a drive with 60 TB in 20,000 h.
    samples = [s(h, used=10 if h < 500 else 11, written=60 * TB + int(h / 24 * 1e11), poh=20_000 + h)
               for h in range(0, 24 * 30 + 1, 24)]
    result = project(samples)
    p = result.projection
    assert p is not None and p.method == "history:nvme_percentage_used" and p.interval_level == 0.8
    assert result.window.kind == "history" and result.readings == len(samples)
    assert p.percent_per_year_low < p.percent_per_year < p.percent_per_year_high
    assert set(p.rates) == {"lifetime", "recent", "write_calibrated"}
    assert result.host_bytes_per_day == pytest.approx(1e11, rel=1e-6)


def test_under_a_day_of_samples_the_lifetime_average_stands() -> None:
    result = project([s(0, written=TB), s(6, written=TB + 10**10)])
    assert result.projection is None and "less than a day" in result.notes[0]


def test_identical_samples_count_once() -> None:
    same = [s(0, written=TB, poh=5000)] * 5
    result = project(same)
    assert result.projection is None and "1 distinct reading" in result.notes[0]


def test_without_a_wear_indicator_host_writes_against_the_rating_stand_in() -> None:
    rated = 1000 * TB
    # 1 TB a day against 1 PB: 36.5 %/year of the rating; 100 TB written at the first sample.
    samples = [s(h, used=None, written=100 * TB + int(h / 24 * TB), source="") for h in range(0, 24 * 7 + 1, 24)]
    result = project(samples, source=None, rated=rated)
    p = result.projection
    assert p.method == "history:host_bytes_written"
    assert p.percent_per_year_low < 36.5 < p.percent_per_year_high
    assert p.years_remaining == pytest.approx((100 - 10.7) / p.percent_per_year, rel=1e-3)  # 107 TB written


def test_no_indicator_and_no_rating_is_said() -> None:
    result = project([s(0, used=None, source=""), s(48, used=None, source="")], source=None)
    assert result.projection is None and "no wear indicator" in result.notes[-1]


def test_too_short_history() -> None:
    assert project([s(0)]).projection is None


def test_the_series_is_ordered_by_power_on_hours_not_by_the_wall_clock() -> None:
    # the 1,024 h sample was stored with the clock a day ahead: by the wall clock it cut the series (1,036 -> 1,024)
    samples = [s(0, poh=1000), s(36, poh=1036), s(48, poh=1024), s(49, poh=1049)]
    seg = history.latest_segment(samples)
    assert [x.power_on_hours for x in seg.samples] == [1000, 1024, 1036, 1049] and seg.cut_reason is None


def test_samples_with_more_power_on_hours_than_the_newest_reading_are_from_before_a_reset() -> None:
    seg = history.latest_segment([s(0, poh=5000), s(1, poh=5001), s(2, poh=10), s(3, poh=11)])
    assert [x.power_on_hours for x in seg.samples] == [10, 11]
    assert seg.cut_reason == ("counter reset: 2 samples with more power-on hours (up to 5,001) than the latest "
                              "reading (11)")


def test_samples_dated_after_now_are_not_in_the_projection() -> None:
    samples = [s(h, used=10 + h / 240, written=TB + h * 10**10) for h in range(0, 24 * 10 + 1, 24)]
    ahead = s(24 * 400, used=10, written=TB, poh=1000 + 12)  # taken at 12 h, stored with the clock 400 days ahead
    now = T0 + timedelta(hours=24 * 10)
    assert project([*samples, ahead], now=now) == project(samples, now=now)
    assert project([*samples, ahead], now=now).readings == len(samples)


def test_host_writes_a_day_need_the_span_a_wear_rate_needs() -> None:
    # 10 GB in 6 hours, and the same drive read twice 2 s apart while its counters moved a day (the fleet recordings
    # sampled back to back): neither is a day's writes. 22.1 PB/day was printed for the second.
    assert project([s(0, written=TB), s(6, written=TB + 10**10)]).host_bytes_per_day is None
    back_to_back = [s(0, written=TB, poh=1000), s(2 / 3600, written=TB + 512 * 10**9, poh=1024)]
    assert project(back_to_back).host_bytes_per_day is None
    day = [s(0, written=TB, poh=1000), s(24, written=TB + 512 * 10**9, poh=1024)]
    assert project(day).host_bytes_per_day == pytest.approx(512e9)


def test_a_finer_counter_of_the_same_wear_is_the_history_rate() -> None:
    # Device Statistics 79 -> 80 % while E2h (its timer never reset: E4h beyond the power-on minutes) moves 978
    # steps: the 1/1024 % counter's movement is the rate, not a one-point tick weighed against the writes.
    def intel(hours: float, used: float, e2h: int) -> Sample:
        return Sample(at=T0 + timedelta(hours=hours), power_on_hours=78_535 + hours, used_percent=used,
                      used_source="ata_devstat_percentage_used", host_bytes_written=int(330e12 + hours * 1e8),
                      e2h=e2h, e4h=72_000_000)
    later = T0 + timedelta(hours=9000)
    samples = [intel(0, 79, 80_191), intel(4000, 79, 80_700), intel(8810, 80, 81_169)]
    fine = history.history_windowed(samples, latest("ata_devstat_percentage_used", interface="ata"), 0.8, later)
    assert fine.projection is not None and fine.projection.method == "history:intel_e2h_since_manufacture"
    assert fine.projection.rates["recent"] == pytest.approx(978 / 1024 / 8810 * 8760, rel=1e-6)
    # A timer reset since (E4h shorter than the power-on time) makes E2h a window, not the lifetime: not used.
    reset = [Sample(**{**x.__dict__, "e4h": 60_000}) for x in samples]
    coarse = history.history_windowed(reset, latest("ata_devstat_percentage_used", interface="ata"), 0.8, later)
    assert coarse.projection is not None and coarse.projection.method == "history:ata_devstat_percentage_used"
