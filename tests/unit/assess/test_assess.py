"""The validity rules of the timed-workload window and the choice of wear indicator."""

from __future__ import annotations

from datetime import timedelta

import pytest
from support.builders import ata, attr, intel, nvme
from support.clock import T0

from ssdwear.assess.context import Context
from ssdwear.assess.report import assess
from ssdwear.model.records import LastLook, ResetRecord


def test_valid_window_projects_timed_workload() -> None:
    r = assess(intel(15, 28, 60), Context(represents_minutes=1440))
    assert r.window is not None and r.window.valid
    assert r.window.wear_percent == pytest.approx(15 / 1024)
    assert r.window.host_reads_percent == 28
    assert r.projection is not None and r.projection.method == "timed-workload"
    assert r.projection.years_new_drive == pytest.approx(18.7, abs=0.05)
    assert r.used_source == "intel_233_media_wearout" and r.used_percent == 0


@pytest.mark.parametrize("e2,e3,e4", [(65535, 65535, 65535), (65535, 4294967295, 65535), (65535, 48, 65535)])
def test_sentinels_mean_not_valid_yet(e2: int, e3: int, e4: int) -> None:
    r = assess(intel(e2, e3, e4), Context())
    assert r.window is not None and not r.window.valid
    # No reset is known (none recorded): the counters are not valid, and nothing claims a reset happened.
    assert (r.window.reason or "").startswith("not valid: E2h-E4h read 65535")
    assert "was reset" not in r.window.reason and "after the reset" not in r.window.reason
    assert r.window.wear_percent is None
    assert r.projection is None or r.projection.method != "timed-workload"


def test_short_window_says_when_it_will_be_valid() -> None:
    r = assess(intel(0, 10, 45), Context())
    assert not r.window.valid and r.window.valid_in_minutes == 15
    assert "15 more power-on minutes" in r.window.reason


def test_our_reset_time_gives_the_valid_time() -> None:
    reset = ResetRecord(at=T0 - timedelta(minutes=10))
    r = assess(intel(65535, 65535, 65535), Context(now=T0, reset=reset))
    assert r.window.reason.startswith("not valid yet: ")
    assert "valid at about 2026-11-30 12:50 UTC" in r.window.reason


def test_e4h_beyond_power_on_time_is_not_trustworthy() -> None:
    r = assess(intel(11204, 0, 1148370188, poh=55419, mwi=90), Context())
    assert not r.window.valid and r.window.reason.startswith("timer not trustworthy")
    assert "exceeds the drive's power-on time" in r.window.reason
    assert r.projection is None or r.projection.method != "timed-workload"


def test_impossible_102400_pattern_is_not_trustworthy() -> None:
    r = assess(intel(102400, 0, 3785137656, poh=10**7), Context())
    assert not r.window.valid and "broken firmware counters" in r.window.reason


def test_window_wear_above_lifetime_wear_is_not_trustworthy() -> None:
    # Intel 320 in the corpus: 226 = 11,017,376 (10,759 %) while Device Statistics say 12 %.
    r = assess(intel(11017376, 0, 4500838, poh=75020, mwi=1, model="INTEL SSDSA2CW120G3", devstat_used=12), Context())
    assert not r.window.valid and "only 12 %" in r.window.reason
    assert r.used_percent == 12 and r.used_source == "ata_devstat_percentage_used"


def test_never_reset_timer_is_the_whole_life_and_a_lifetime_source() -> None:
    # DC S3500 in the wild: 226 = 80619 (78.7 %), 228 = 4,164,380 min ≈ 69,412 power-on hours, 233 = 22.
    r = assess(intel(80619, 31, 4164380, poh=69412, mwi=22, model="INTEL SSDSC2BB240G4"), Context())
    assert r.window.valid and "never reset" in r.window.reason
    assert any(s.source == "intel_e2h_since_manufacture" for s in r.used_sources)
    # Attribute 233 says (100 - 22) / 0.99 = 78.8 %; E2h, counting 1/1024 % since manufacture, says the same
    # within 233's step, and sharper: it becomes the lifetime wear, and the projection is the lifetime forecast.
    assert r.used_source == "intel_e2h_since_manufacture" and r.used_percent == pytest.approx(80619 / 1024)
    assert any("sharpened by E2h" in n for n in r.notes)
    assert r.projection.method == "lifetime-average" and r.projection.interval_level == 0.8
    assert not any("disagree" in w for w in r.warnings)


def test_reset_by_someone_else_is_said_plainly() -> None:
    look = LastLook(at=T0 - timedelta(hours=5), e4h_minutes=5000)
    r = assess(intel(3, 10, 200), Context(now=T0, last_look=look))
    assert any("reset by someone else" in w for w in r.warnings)
    # ...but not when the reset was ours
    ours = ResetRecord(at=T0 - timedelta(hours=4))
    r = assess(intel(3, 10, 200), Context(now=T0, last_look=look, reset=ours))
    assert not any("someone else" in w for w in r.warnings)


def test_reset_that_did_not_take_effect() -> None:
    r = assess(intel(3, 10, 5000), Context(now=T0, reset=ResetRecord(at=T0 - timedelta(minutes=90))))
    assert any("did not take effect" in w for w in r.warnings)


def test_drive_swap_is_said_plainly() -> None:
    r = assess(intel(15, 28, 60, serial="NEW1"), Context(previous_serial="OLD1"))
    assert any("drive swapped" in w and "OLD1" in w and "NEW1" in w for w in r.warnings)


def test_attribute_226_on_a_hdd_is_not_wear() -> None:
    # Toshiba MG04: 226 = Load-in_Time.
    snap = ata("TOSHIBA MG04ACA600E", [attr(226, 544, name="Load-in_Time"), attr(9, 50104)], poh=50104, rotation=7200)
    r = assess(snap, Context())
    assert r.window is None and r.used_percent is None and r.kind == "hdd"
    assert any("HDD" in n for n in r.notes)


def test_intel_attributes_on_a_non_intel_ssd_are_not_read() -> None:
    snap = ata("Samsung SSD 860 EVO 1TB", [attr(226, 500), attr(227, 3), attr(228, 900), attr(177, 0, value=95)])
    r = assess(snap, Context())
    assert r.window is None
    assert r.used_source == "samsung_177_wear_leveling_count" and r.used_percent == 5


def test_disagreeing_indicators_warn_and_prefer_the_standard_one() -> None:
    # Crucial BX500 in the corpus: 202 normalized 60 (40 % used) against Device Statistics 85 %.
    snap = ata("CT240BX500SSD1", [attr(202, 60, value=60)], devstat_used=85)
    r = assess(snap, Context())
    assert r.used_percent == 85 and r.used_source == "ata_devstat_percentage_used"
    assert any("disagree" in w for w in r.warnings)


def test_saturated_vendor_indicator_does_not_disagree_with_a_higher_standard_one() -> None:
    snap = ata("Samsung SSD 860 EVO 1TB", [attr(177, 2489, value=1)], devstat_used=174)
    r = assess(snap, Context())
    assert r.used_percent == 174 and not any("disagree" in w for w in r.warnings)
    assert any("rated endurance used up" in w for w in r.warnings)


def test_nvme_critical_warning_and_spare() -> None:
    r = assess(nvme(255, spare=1, threshold=10, warning=0x05), Context())
    assert r.used_percent == 255 and r.used_at_least
    text = " ".join(r.warnings)
    assert "NVM subsystem reliability degraded" in text and "available spare 1 %" in text


def test_lifetime_average_projection_for_drives_without_a_window() -> None:
    r = assess(nvme(24, poh=12482), Context())
    p = r.projection
    assert p.method == "lifetime-average" and p.interval_level == 0.8 and p.wear_class == "single|u20"
    # the lifetime average at the step's midpoint (24.5 %, the indicator floors) ...
    assert p.rates["lifetime"] == pytest.approx(24.5 / 12482 * 8760)
    # ... times the class's calibrated median ratio, inside its 80 % interval
    assert p.percent_per_year_low < p.percent_per_year < p.percent_per_year_high
    assert p.years_remaining == pytest.approx(76 / p.percent_per_year)
    assert p.years_remaining_low == pytest.approx(76 / p.percent_per_year_high)


def test_the_interval_level_comes_from_the_context() -> None:
    wide = assess(nvme(24, poh=12482), Context(interval_level=0.9)).projection
    narrow = assess(nvme(24, poh=12482), Context(interval_level=0.5)).projection
    assert wide.interval_level == 0.9 and narrow.interval_level == 0.5
    assert wide.years_remaining_low < narrow.years_remaining_low
