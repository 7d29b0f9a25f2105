"""The one windowed projection (issue 18.2): the same readings of one drive give the same window and projection
whether they are saved outputs (`analyze`), stored samples under a live reading (`report`'s history) or the stored
samples alone (`plan --from SERIAL`). Each case is a rule the three copies did not share before."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from support.builders import ata, attr, nvme
from support.clock import T0

from ssdwear.assess.context import Context
from ssdwear.assess.plan import report_from_history
from ssdwear.assess.report import assess
from ssdwear.assess.series import SavedReading, series_report
from ssdwear.drives.ratings import Rating
from ssdwear.host.config import Config
from ssdwear.host.store.queries import Store
from ssdwear.model.records import NVME_DATA_UNIT_BYTES, DriveId, DriveReport, NvmeHealth, Snapshot
from ssdwear.run.session import Run, Session, sample_of

DAY = timedelta(days=1)
TB = 10**12


def nvme_at(day: int, used: int | None, units_a_day: int = 1_000_000) -> Snapshot:
    """builders.nvme read `day` days (24 power-on hours each) after 10,000 h, writing `units_a_day` data units."""
    snap = nvme(used or 0, poh=10_000 + 24 * day, written_units=20_000_000 + units_a_day * day)
    assert snap.nvme is not None
    return replace(snap, nvme=replace(snap.nvme, percentage_used=used),
                   source=f"/saved/nvme-day{day}.json")


def s3500_at(day: int, devstat: int, e2h: int) -> Snapshot:
    """An Intel DC S3500 whose E4h is broken (beyond its power-on minutes: no reset since manufacture, so E2h counts
    its whole life, 1/1024 %) beside Device Statistics' whole percent; 100 GiB of host writes a day."""
    poh = 78_535 + 24 * day
    attrs = [attr(226, e2h), attr(227, 0), attr(228, 72_000_000), attr(233, 0, value=20), attr(9, poh),
             attr(241, 10_000_000 + 3200 * day), attr(243, 20_000_000 + 6400 * day)]
    return replace(ata("INTEL SSDSC2BB240G4", attrs, poh=poh, devstat_used=devstat),
                   source=f"/saved/s3500-day{day}.txt")


def samsung_at(day: int) -> Snapshot:
    """A Samsung 860 EVO whose 177 (its average erase count) gains a cycle a day from 100, each cycle 0.1 % of its
    rated wear (Device Statistics' whole percent beside it); 50 GB of host writes a day."""
    cycles, poh = 100 + day, 20_000 + 24 * day
    attrs = [attr(177, cycles, value=90, name="Wear_Leveling_Count"), attr(9, poh),
             attr(241, 10**11 + 97_656_250 * day, name="Total_LBAs_Written")]
    return replace(ata("Samsung SSD 860 EVO 1TB", attrs, poh=poh, devstat_used=cycles // 10),
                   source=f"/saved/860evo-day{day}.txt")


RATED = (Rating(bytes=2000 * TB, note="test rating", model="Example NVMe"),)
CASES = {
    # the indicator moves: the baseline every path gives alike
    "indicator": ([nvme_at(d, 10 + d // 20) for d in range(0, 61, 10)], ()),
    # no wear indicator: host writes against the rating (analyze had no such fallback)
    "rated-writes": ([nvme_at(d, None) for d in range(0, 61, 10)], RATED),
    # the indicator saturated now: it bounds the wear from below only, so no rate from it (analyze took one from
    # the readings before it saturated)
    "saturated": ([nvme_at(d, 250 + d // 20) for d in range(0, 41, 10)] + [nvme_at(50, 255)], ()),
    # E2h finer than the whole percent the report shows: years left from the wear the report shows (the history
    # took them from E2h)
    "finer": ([s3500_at(d, 79 if d < 300 else 80, 80_191 + 3 * d) for d in range(0, 361, 60)], ()),
    # a wear counter finer than the whole percent (issue 19.4): its movement times its wear per cycle
    "fine-counter": ([samsung_at(d) for d in range(0, 61, 10)], ()),
}


def analyzed(snaps: list[Snapshot], ctx: Context) -> DriveReport:
    return series_report([SavedReading(s, assess(s, ctx)) for s in snaps], ctx)


def reported(snaps: list[Snapshot], ctx: Context, db: Path) -> DriveReport:
    """`report` of the newest reading with the others stored as samples, a day apart (the session's path)."""
    with Store.open(db) as store:
        for i, s in enumerate(snaps[:-1]):
            key = DriveId.of(s).key
            assert key is not None
            at = T0 - (len(snaps) - 1 - i) * DAY
            store.add_sample(DriveId.of(s), sample_of(s, assess(s, ctx), at))
    config = Config(ratings=tuple(ctx.ratings))
    session = Session(config=config, runner_factory=lambda: None, db_path=db, clock=lambda: T0)  # type: ignore
    (report,) = session.assess(Run((snaps[-1],))).reports
    session.close()
    return report


def planned(snaps: list[Snapshot], ctx: Context, db: Path) -> DriveReport:
    """The same stored samples read by `plan --from SERIAL` (the newest stored too)."""
    latest = snaps[-1]
    key = DriveId.of(latest).key
    assert key is not None
    with Store.open(db) as store:
        store.add_sample(DriveId.of(latest), sample_of(latest, assess(latest, ctx), T0))
        samples = store.samples(key)
    return report_from_history(DriveId.of(latest), samples, ctx.ratings, ctx.interval_level, T0 + timedelta(seconds=1))


def figures(r: DriveReport) -> tuple[object, ...]:
    p, w = r.projection, r.window
    return (None if p is None else (p.method.split(":")[-1], p.percent_per_year, p.percent_per_year_low,
                                    p.percent_per_year_high, p.years_remaining, p.years_remaining_low,
                                    p.years_remaining_high, p.years_new_drive, p.wear_class),
            None if w is None or not w.valid else (w.minutes, w.wear_percent, w.counter), r.used_percent)


@pytest.mark.parametrize("case", sorted(CASES))
def test_saved_outputs_stored_samples_and_plan_give_one_projection(case: str, tmp_path: Path) -> None:
    snaps, ratings = CASES[case]
    ctx = Context(now=T0, ratings=ratings)
    a, r, p = analyzed(snaps, ctx), reported(snaps, ctx, tmp_path / "h.db"), planned(snaps, ctx, tmp_path / "h.db")
    assert figures(a) == figures(r) == figures(p), (a.notes, r.notes, p.notes)
    if case == "saturated":
        assert a.projection is None and a.window is not None and "saturated" in (a.window.reason or "")
        assert any("no wear indicator" in n for n in r.notes)
    else:
        assert a.projection is not None and a.projection.method.startswith("readings:")
        assert r.projection is not None and r.projection.method.startswith("history:")
        assert a.readings == r.readings == p.readings == len(snaps)
        assert a.warnings[-1:] == r.warnings[-1:] or a.projection.trend is None


def test_the_finer_counter_rates_and_the_shown_wear_sets_the_years() -> None:
    snaps, _ = CASES["finer"]
    report = analyzed(snaps, Context(now=T0))
    p = report.projection
    assert p is not None and p.method == "readings:intel_e2h_since_manufacture" and report.used_percent == 80
    assert p.years_remaining == pytest.approx((100 - 80) / p.percent_per_year)


def test_a_wear_counter_gives_the_rate_as_used_fine_percent_on_every_path(tmp_path: Path) -> None:
    snaps, _ = CASES["fine-counter"]
    ctx = Context(now=T0)
    a, r = analyzed(snaps, ctx), reported(snaps, ctx, tmp_path / "h.db")
    for report, kind in ((a, "readings"), (r, "history")):
        p = report.projection
        assert p is not None and p.method == f"{kind}:used_fine_percent" and p.wear_class == "fine|u5"
        # 60 cycles in 60 days x the wear per cycle the readings' steps allow (0.0995-0.1068 %): about 36.5 %/year
        assert 36.5 * 0.995 < p.rates["recent"] < 36.5 * 1.068
        assert p.percent_per_year_low < 36.5 < p.percent_per_year_high
    # the whole percent alone (the same readings without the counter) gives a wider interval
    bare = [replace(s, attributes={k: v for k, v in s.attributes.items() if k != 177}) for s in snaps]
    coarse = analyzed(bare, ctx).projection
    assert coarse is not None and coarse.method == "readings:ata_devstat_percentage_used"
    fine_p = a.projection
    assert fine_p is not None
    assert fine_p.percent_per_year_high - fine_p.percent_per_year_low < \
        coarse.percent_per_year_high - coarse.percent_per_year_low


def test_write_amplification_over_the_series_is_noted_for_saved_outputs_and_history(tmp_path: Path) -> None:
    snaps, _ = CASES["finer"]
    ctx = Context(now=T0)
    said = "write amplification 2.00 over the series (NAND / host bytes written)"
    assert said in analyzed(snaps, ctx).notes
    assert f"history: {said}" in reported(snaps, ctx, tmp_path / "h.db").notes


def test_host_writes_a_day_come_from_dated_readings_only(tmp_path: Path) -> None:
    snaps, _ = CASES["indicator"]
    ctx = Context(now=T0)
    assert analyzed(snaps, ctx).writes.host_bytes_per_day is None  # saved outputs carry no wall-clock dates here
    per_day = reported(snaps, ctx, tmp_path / "h.db").writes.host_bytes_per_day
    assert per_day == pytest.approx(10 * 1_000_000 * NVME_DATA_UNIT_BYTES)  # 10 power-on days a wall-clock day


def test_a_measured_timed_window_stands_for_every_path() -> None:
    from support.builders import intel

    snaps = [intel(20 + d, 28, 60 + 24 * 60 * d, poh=1000 + 24 * d, mwi=100 - d) for d in range(3)]
    report = analyzed(snaps, Context(now=T0))
    assert report.projection is not None and report.projection.method == "timed-workload" and report.readings == 3


def test_nvme_health_builder_keeps_its_indicator() -> None:
    assert isinstance(nvme_at(0, None).nvme, NvmeHealth) and nvme_at(0, None).nvme.percentage_used is None
