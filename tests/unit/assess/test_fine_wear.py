"""The fine wear indicator in the report (issue 19.2): `used_fine_percent` with its source and uncertainty, from the
drive's own rating (Silicon Motion's 167 of its rated 168), from Intel's never-reset E2h, or no finer than the
indicator from one reading (the wear per unit kept for windows); a contradiction with the whole-percent indicator is
a warning and the fine figure dropped."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.builders import nvme
from support.corpus import snapshot

from ssdwear.assess.report import assess
from ssdwear.drives import fine
from ssdwear.model.schema import drive_dict

TRANSCEND = "smartctl_exporter__transcend-ts32gmts400__1.json"  # 167 = 132 of the rated 168 = 3000; 169 says 96 left


def test_a_rated_erase_count_gives_a_fine_figure_with_its_source_and_uncertainty() -> None:
    report = assess(snapshot(TRANSCEND))
    assert report.used_percent == 4.0 and report.fine is not None
    assert report.fine.source == "average_erase_count" and report.fine.calibration == "rated"
    assert report.fine.percent is not None and abs(report.fine.percent - 132 * 100 / 3000) < 1e-9  # 4.4 %
    d = drive_dict(report)
    assert d["used_fine_percent"] == 4.4 and d["used_fine"]["source"] == "average_erase_count"
    # the count moves in whole erase cycles: the figure is 4.4 % to 4.433 % (one cycle = 1/30 %)
    assert d["used_fine"]["percent_low"] == 4.4 and d["used_fine"]["percent_high"] == 4.4333
    assert d["used_fine"]["uncertainty"] == 0.0167
    assert d["counters"][0]["source"] == "average_erase_count" and d["counters"][0]["rated"] == 3000


def _endurance_log(estimate: int, media_written: int) -> bytes:
    page = bytearray(512)
    page[5] = 12  # the group's Percentage Used
    page[32:48] = estimate.to_bytes(16, "little")  # Endurance Estimate, 10^9 bytes (NVMe 2.0 Figure 209)
    page[80:96] = media_written.to_bytes(16, "little")  # Media Units Written, 10^9 bytes
    return bytes(page)


def test_an_endurance_estimate_gives_a_fine_figure_finer_than_percentage_used() -> None:
    snap = replace(nvme(12), nvme_logs={fine.ENDURANCE_GROUP_LOG: _endurance_log(7000, 861)})
    report = assess(snap)
    assert report.fine is not None and report.fine.source == "nvme_media_units_written"
    assert report.fine.calibration == "rated" and abs(report.fine.percent - 12.3) < 1e-9  # 861 x 100 / 7000
    assert not any("disagree" in w for w in report.warnings)


def test_a_rated_count_that_contradicts_the_indicator_is_a_warning_and_dropped() -> None:
    # Percentage Used 12, but 3,500 of an estimated 7,000 (10^9 B) media units written would be 50 %
    report = assess(replace(nvme(12), nvme_logs={fine.ENDURANCE_GROUP_LOG: _endurance_log(7000, 3500)}))
    assert report.used_percent == 12 and (report.fine is None or report.fine.percent is None)
    assert any(w.startswith("wear indicators disagree") and "the finer counter is not used" in w
               for w in report.warnings), report.warnings
    assert drive_dict(report)["used_fine_percent"] is None


def test_a_never_reset_e2h_is_the_gold_standard() -> None:
    report = assess(snapshot("linuxhw-EnterpriseDrive__intel-ssdsc2bb480g6__3.txt"))
    assert report.fine is not None and report.fine.source == "intel_e2h_since_manufacture"
    assert report.fine.percent == report.used_percent == 84.9296875 and report.fine.calibration == "e2h"


def test_one_reading_of_an_unrated_counter_is_no_finer_than_its_indicator() -> None:
    # Crucial's NAND pages: the wear per page is only known within the indicator's step from one reading
    report = assess(snapshot("linuxhw-EnterpriseDrive__crucial-ct1000mx500ssd1__1.txt"))
    assert report.fine is not None and report.fine.source == "nand_pages_written"
    assert report.fine.percent is None and report.fine.calibration == "lifetime"
    assert report.fine.per_unit_low is not None and report.fine.per_unit_high is not None
    assert report.fine.per_unit_low < report.fine.per_unit_high  # 60-61 % over the lifetime count
    assert drive_dict(report)["used_fine_percent"] is None


def test_a_hard_disk_has_no_finer_counters() -> None:
    from support.builders import ata, attr

    report = assess(ata("ST4000DM000", [attr(9, 1000)], rotation=5900))
    assert report.counters == () and report.fine is None


def test_the_report_shows_the_fine_figure_beside_the_indicator() -> None:
    from ssdwear.render.report import fine_text, fmt_used

    report = assess(snapshot(TRANSCEND))
    assert fmt_used(report) == "4 %\nfine 4.400 %"  # the table's cell
    assert fmt_used(report, ", ") == "4 %, fine 4.400 % (4.400-4.433)"  # a block's line
    assert fine_text(assess(snapshot("linuxhw-EnterpriseDrive__intel-ssdsc2bb480g6__3.txt"))) is None  # E2h itself


def test_prometheus_exports_the_fine_figure_with_its_source() -> None:
    from ssdwear.render.prometheus import exposition

    text = exposition([assess(snapshot(TRANSCEND))], 0.0)
    assert 'ssdwear_used_fine_ratio{' in text and 'source="average_erase_count"' in text
    line = next(x for x in text.splitlines() if x.startswith("ssdwear_used_fine_ratio{"))
    assert float(line.rsplit(" ", 1)[1]) == pytest.approx(0.044)


def test_counts_are_said_as_people_say_them() -> None:
    from ssdwear.model.records import CounterReading

    def amount(unit: str, count: int) -> str:
        return CounterReading("c", "erase", count, unit, None, "").amount(count)

    assert amount("erase cycle", 60) == "60 erase cycles" and amount("erase cycle", 1) == "1 erase cycle"
    assert amount("byte", 2048) == "2,048 bytes" and amount("10^9 bytes", 861) == "861 x 10^9 bytes"
