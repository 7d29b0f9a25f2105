"""A counter window's time on the drive's own power-on minutes (Micron log E1h) only where both ends count them: a
baseline stored in whole hours (smartctl's, or an E1h reading that fell on a whole hour) keeps the hour rule."""

from __future__ import annotations

from support.clock import T0

from ssdwear.assess.counter_window import _span
from ssdwear.model.records import DriveReport, Sample


def test_minutes_at_both_ends_time_the_window() -> None:
    report = DriveReport(device="/dev/nvme1", power_on_hours=(600_000 + 45) / 60, power_on_minutes=600_045)
    span = _span(report, Sample(at=T0, power_on_hours=(600_000 - 20) / 60), 66.0)
    assert span.minutes == 65 and "65 min of the drive's own power-on time (log E1h)" in span.words
    assert span.warning is None


def test_a_power_off_is_found_to_the_minute() -> None:
    report = DriveReport(device="/dev/nvme1", power_on_hours=(600_000 + 45) / 60, power_on_minutes=600_045)
    span = _span(report, Sample(at=T0, power_on_hours=(600_000 - 20) / 60), 80.0)  # 15 minutes off
    assert span.minutes == 65 and span.warning is not None and "power-off in the counter window" in span.warning


def test_a_baseline_in_whole_hours_keeps_the_hour_rule() -> None:
    report = DriveReport(device="/dev/nvme1", power_on_hours=(600_000 + 45) / 60, power_on_minutes=600_045)
    span = _span(report, Sample(at=T0, power_on_hours=10_000.0), 80.0)
    assert span.minutes == 80.0 and "wall-clock time" in span.words and "E1h" not in span.words


def test_a_window_whose_write_amplification_is_not_the_drives_trailing_hour_is_a_warning() -> None:
    from ssdwear.assess.counter_window import _amplification
    from ssdwear.model.records import Writes

    base = Sample(at=T0, host_bytes_written=1_000, nand_bytes_written=1_600)
    agree = DriveReport(device="d", writes=Writes(host_bytes_written=2_000, nand_bytes_written=3_350,
                                                  drive_write_amplification_hour=1.75))
    assert _amplification(agree, base, 60.0) == (1.75, None)
    differ = DriveReport(device="d", writes=Writes(host_bytes_written=2_000, nand_bytes_written=3_600,
                                                   drive_write_amplification_hour=1.75))
    amplification, warning = _amplification(differ, base, 60.0)
    assert amplification == 2.0 and warning is not None and "trailing-hour figure (log D0h) 1.75" in warning
    assert _amplification(differ, base, 180.0) == (2.0, None)  # not an hour: nothing to compare with


def test_under_an_hour_of_the_drives_own_minutes_is_no_window() -> None:
    report = DriveReport(device="/dev/nvme1", power_on_hours=(600_000 + 10) / 60, power_on_minutes=600_010)
    span = _span(report, Sample(at=T0, power_on_hours=(600_000 - 20) / 60), 300.0)
    assert span.minutes == 0.0 and "powered on for less than 60 minutes" in span.words
