"""The Intel timed-workload window: one validity rule for report, status, measure and check (issue 17.7),
--represents only where the window can stand for it (17.3), and a calibrated range for long windows (17.11)."""

from __future__ import annotations

import functools
import json
import shutil
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from support.builders import intel
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import CORPUS, FIXTURES

from ssdwear.assess.context import Context
from ssdwear.assess.report import assess
from ssdwear.assess.status import status_row
from ssdwear.cli.app import App
from ssdwear.drives import timed
from ssdwear.model.errors import ParseError
from ssdwear.model.records import ResetRecord, Snapshot
from ssdwear.run.measure import drive_state
from ssdwear.run.saved import load
from ssdwear.smartctl.replay import ReplayRunner

DAY = 1440.0


def timed_files() -> list[Path]:
    """Every saved output in fixtures/corpus and fixtures/ whose drive carries the timed workload."""
    found = []
    for path in sorted([*CORPUS.glob("*.txt"), *CORPUS.glob("*.json"), *FIXTURES.rglob("*.out")]):
        try:
            snap = load(path)
        except ParseError:
            continue
        if timed.has_timed_workload(snap):
            found.append(path)
    return found


TIMED_FILES = timed_files()


def builder_cases() -> list[Snapshot]:
    """The test builders' timed windows: every rule once."""
    return [intel(15, 28, 60), intel(65535, 65535, 65535), intel(65535, 4294967295, 65535), intel(0, 10, 45),
            intel(11204, 0, 1148370188, poh=55419, mwi=90), intel(102400, 0, 3785137656, poh=10**7),
            intel(11017376, 0, 4500838, poh=75020, mwi=1, model="INTEL SSDSA2CW120G3", devstat_used=12),
            intel(80619, 31, 4164380, poh=69412, mwi=22, model="INTEL SSDSC2BB240G4"),
            intel(3, 10, 5000), intel(31980, 12, 1137612, poh=55843, mwi=52),
            replace(intel(15, 28, 60), truncated=True)]


def contexts(snap: Snapshot) -> list[Context]:
    """No reset known; ssdwear's reset 90 minutes ago (a longer window did not take it); a reset the window
    fits; each with and without --represents 1d."""
    e4 = min(timed.timed_raw(snap, 228) or 0, 10**8)  # broken counters reach 3.8e9 minutes
    resets = [None, ResetRecord(at=T0 - timedelta(minutes=90)), ResetRecord(at=T0 - timedelta(minutes=e4 + 30))]
    return [Context(now=T0, reset=r, represents_minutes=rep) for r in resets for rep in (None, DAY)]


def test_the_corpus_and_fixtures_hold_timed_windows_of_every_kind() -> None:
    states = set()
    for path in TIMED_FILES:
        window = assess(load(path), Context(now=T0)).window
        assert window is not None
        states.add("valid" if window.valid else "pending" if window.pending else "refused")
    assert len(TIMED_FILES) >= 60 and states == {"valid", "pending", "refused"}


def _same(ctx: Context, _: Snapshot) -> Context:
    return ctx


@pytest.mark.parametrize("snap", [*(pytest.param(p, id=p.name) for p in TIMED_FILES),
                                  *(pytest.param(s, id=f"builder{i}") for i, s in enumerate(builder_cases()))])
def test_status_measure_and_report_agree_on_validity(snap: Path | Snapshot) -> None:
    snap = load(snap) if isinstance(snap, Path) else snap
    for ctx in contexts(snap):
        window = assess(snap, ctx).window
        assert window is not None
        row = status_row(snap, ctx)
        state = drive_state(snap, functools.partial(_same, ctx))
        assert row.valid == state.valid == window.valid, (ctx, window.reason, row.reason, state.shown)
        assert row.pending == state.pending == window.pending
        if not window.valid:  # both say why, in report's words
            assert window.reason is not None and window.reason in (row.reason or "")
            assert state.pending or window.reason in state.shown


@pytest.mark.parametrize("snap", [*(pytest.param(p, id=p.name) for p in TIMED_FILES),
                                  *(pytest.param(s, id=f"builder{i}") for i, s in enumerate(builder_cases()))])
def test_the_window_says_its_state_and_the_table_prints_it(snap: Path | Snapshot) -> None:
    """Issue 27.3: the table's Window cell and status read the window's state (WindowState), as the rule judged it;
    the table worked it out by splitting the reason's text, and status looked for 'no record' in it."""
    from ssdwear.model.records import WindowState
    from ssdwear.render.report import fmt_window

    snap = load(snap) if isinstance(snap, Path) else snap
    for ctx in contexts(snap):
        window = assess(snap, ctx).window
        assert window is not None and window.valid == (window.state is WindowState.VALID)
        if not window.valid:  # a timed window that is not valid says its state first, as the table prints it
            assert fmt_window(window) == window.state.value and window.reason.startswith(
                "timer not trustworthy" if window.state is WindowState.UNTRUSTED else window.state.value)
        held = window.state is WindowState.HELD  # 65535 with no reset ssdwear recorded
        assert held == (window.pending and ctx.reset is None and timed.timed_raw(snap, 228) in (65535, 4294967295))
        # status adds that no reset is recorded, unless the window's reason says it already (the held window's)
        assert ("no reset by ssdwear recorded" in (status_row(snap, ctx).reason or "")) == (ctx.reset is None
                                                                                            and not held)


def test_the_table_prints_the_state_whatever_the_reason_says() -> None:
    from ssdwear.model.records import Window, WindowState
    from ssdwear.render.report import fmt_window

    said = "the counters hold no measurement: when it will be valid is not known"
    assert fmt_window(Window("timed-workload", WindowState.HELD, said)) == "not valid"
    assert fmt_window(Window("timed-workload", WindowState.NOT_YET, said)) == "not valid yet"
    assert fmt_window(Window("counter", WindowState.NOT_YET, said)) == "not usable"


@pytest.mark.parametrize("snap,words", [
    (intel(11204, 0, 1148370188, poh=55419, mwi=90), "exceeds the drive's power-on time"),
    (intel(102400, 0, 3785137656, poh=10**7), "broken firmware counters"),
    (intel(11017376, 0, 4500838, poh=75020, mwi=1, model="INTEL SSDSA2CW120G3", devstat_used=12), "only 12 %"),
    (replace(intel(15, 28, 60), truncated=True), "cut off"),
])
def test_status_refuses_what_report_refuses(snap: Snapshot, words: str) -> None:
    row = status_row(snap, Context(now=T0))
    assert row.valid is False and not row.pending and words in (row.reason or "")


# -- a reset the drive accepted but ignored ---------------------------------------------------------------


def ignoring_machine(tmp_path: Path) -> Path:
    """fixtures/intel, except that /dev/sda ignores the reset: every read after it shows E4h = 5,000 minutes and
    E2h = 40, counting on from before (the 710 has 120 power-on hours = 7,200 minutes)."""
    folder = tmp_path / "ignoring"
    shutil.copytree(FIXTURES / "intel", folder)
    for n in (2, 3, 4):
        path = folder / f"smartctl --json=c -x -n standby -d sat _dev_sda@{n}.out"
        doc = json.loads(path.read_text())
        for row in doc["ata_smart_attributes"]["table"]:
            if row["id"] in (226, 228):
                raw = 40 if row["id"] == 226 else 5000
                row["raw"] = {"value": raw, "string": str(raw)}
        path.write_text(json.dumps(doc) + "\n")
    return folder


class Clocks:
    """One machine (its replayed drives keep their call counts across runs) and clocks moved only by sleep."""

    def __init__(self, folder: Path) -> None:
        self.now, self.ticks = T0, 0.0
        self.runner = ReplayRunner(folder)

    def sleep(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.ticks += seconds

    def app(self, db: Path) -> App:
        return App(runner=self.runner, db=str(db), clock=lambda: self.now, sleep=self.sleep,
                   monotonic=lambda: self.ticks)


def test_a_reset_that_did_not_take_is_said_by_status_report_check_and_measure(tmp_path: Path) -> None:
    clocks = Clocks(ignoring_machine(tmp_path))
    assert ssdwear_cli(["start", "/dev/sda", "-d", "sat"], clocks.app(tmp_path / "h.db")).exit_code == 0
    clocks.sleep(90 * 60)
    app = clocks.app(tmp_path / "h.db")
    row = json.loads(ssdwear_cli(["status", "/dev/sda", "-d", "sat", "--format", "json"], app).stdout)["drives"][0]
    assert row["valid"] is False and "did not take effect" in row["reason"] and row["e4h_minutes"] == 5000
    table = ssdwear_cli(["status", "/dev/sda", "-d", "sat"], clocks.app(tmp_path / "h.db")).stdout
    assert "not valid" in table and "not valid yet" not in table

    drive = json.loads(ssdwear_cli(["report", "/dev/sda", "-d", "sat", "--represents", "1d", "--format", "json"],
                           clocks.app(tmp_path / "h.db")).stdout)["drives"][0]
    assert drive["window"]["valid"] is False and "did not take effect" in drive["window"]["reason"]
    # the old window is not judged as the new one (and the drive, at 0 % and under 1,000 h, gets no lifetime one)
    assert drive["projection"] is None or drive["projection"]["method"] != "timed-workload"
    assert any("did not take effect" in w for w in drive["warnings"])

    check = ssdwear_cli(["check", "/dev/sda", "-d", "sat"], clocks.app(tmp_path / "h.db"))
    line = next(x for x in check.stdout.splitlines() if x.startswith("/dev/sda"))
    assert "did not take effect" in line

    clocks.sleep(24 * 60 * 60)  # a day later: measure resets again, and the drive ignores it again
    measured = ssdwear_cli(["measure", "/dev/sda", "-d", "sat", "--for", "60m", "--poll", "20m", "--format", "json"],
                   clocks.app(tmp_path / "h.db"))
    drive = json.loads(measured.stdout)["drives"][0]
    assert drive["window"]["valid"] is False and "did not take effect" in drive["window"]["reason"]
    assert "not valid: timer not trustworthy: the reset ssdwear sent" in measured.stderr
    # it stops at the time asked for: waiting cannot make this window valid
    assert clocks.ticks == pytest.approx((90 + 24 * 60 + 60) * 60)


# -- --represents (17.3) ------------------------------------------------------------------------------


INTEL_730 = CORPUS / "linuxhw-EnterpriseDrive__intel-ssdsc2bp240g4__1.txt"  # E4h 1,137,612 min = 2.2 years
KB480G8 = CORPUS / "pySMART__intel-ssdsc2kb480g8__1.txt"  # E4h 237,832 min = 165 days


@pytest.mark.parametrize("path", [INTEL_730, KB480G8])
def test_represents_is_refused_for_a_window_longer_than_it_with_one_line_and_the_window_stands_for_itself(
        path: Path) -> None:
    alone = json.loads(ssdwear_cli(["analyze", str(path), "--format", "json"]).stdout)["drives"][0]
    result = ssdwear_cli(["analyze", str(path), "--represents", "1d", "--format", "json"])
    assert result.exit_code == 0
    drive = json.loads(result.stdout)["drives"][0]
    assert drive["window"]["valid"] and drive["window"]["represents_minutes"] is None
    assert drive["projection"]["method"] == "timed-workload"
    assert drive["projection"]["percent_per_year"] == alone["projection"]["percent_per_year"]
    assert drive["projection"]["percent_per_year"] < 100  # not 1.14e+04 %/year
    refused = [w for w in drive["warnings"] if "--represents" in w]
    assert len(refused) == 1 and "not applied" in refused[0] and "longer than" in refused[0]
    assert not any("speeding up" in w for w in drive["warnings"])


def test_represents_from_the_config_is_refused_the_same_way(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("represents: 1d\n")
    result = ssdwear_cli(["--config", str(config), "analyze", str(INTEL_730), "--format", "json"])
    drive = json.loads(result.stdout)["drives"][0]
    assert drive["window"]["represents_minutes"] is None and drive["projection"]["percent_per_year"] < 100
    assert any("--represents 24.0 h not applied" in w for w in drive["warnings"])


def test_a_whole_machine_report_warns_on_that_drive_and_reports_the_others(tmp_path: Path) -> None:
    folder = tmp_path / "machine"
    shutil.copytree(FIXTURES / "intel", folder)
    shutil.copy(INTEL_730, folder / "smartctl --json=c -x -n standby -d sat _dev_sdb.out")
    result = ssdwear_cli(["--replay", str(folder), "report", "--represents", "1d", "--format", "json"])
    assert result.exit_code == 0
    by_dev = {d["device"]: d for d in json.loads(result.stdout)["drives"]}
    assert by_dev["/dev/sda"]["projection"]["years_new_drive"] == pytest.approx(18.7, abs=0.05)  # 60 min -> 1 d
    assert by_dev["/dev/sda"]["window"]["represents_minutes"] == DAY
    assert by_dev["/dev/sdb"]["window"]["represents_minutes"] is None
    assert any("not applied" in w for w in by_dev["/dev/sdb"]["warnings"])


def test_represents_never_applies_to_a_never_reset_window() -> None:
    r = assess(intel(80619, 31, 4164380, poh=69412, mwi=22, model="INTEL SSDSC2BB240G4"),
               Context(now=T0, represents_minutes=DAY))
    assert r.window.represents_minutes is None and r.projection.method == "lifetime-average"
    assert any("never reset" in n and "--represents" in n for n in r.notes)


def test_the_basis_says_when_a_window_ssdwear_did_not_reset_stands_for_the_duration() -> None:
    unrecorded = assess(intel(15, 28, 60), Context(now=T0, represents_minutes=DAY)).projection
    assert "standing for 1,440 minutes of real time (a window ssdwear did not reset" in unrecorded.basis
    ours = assess(intel(15, 28, 60), Context(now=T0, represents_minutes=DAY,
                                             reset=ResetRecord(at=T0 - timedelta(minutes=70)))).projection
    assert ours.basis.endswith("standing for 1,440 minutes of real time")
    assert ours.years_new_drive == unrecorded.years_new_drive == pytest.approx(18.7, abs=0.05)


def test_a_window_ssdwear_reset_but_longer_than_the_duration_is_refused_too() -> None:
    ours = ResetRecord(at=T0 - timedelta(days=40))
    r = assess(intel(300, 10, 50000, poh=5000), Context(now=T0, represents_minutes=DAY, reset=ours))
    assert r.window.valid and r.window.represents_minutes is None
    assert any("since ssdwear's reset at" in w and "not applied" in w for w in r.warnings)


# -- long windows carry a calibrated range (17.11) ----------------------------------------------------


def test_a_long_window_carries_the_calibrated_range_and_short_ones_the_resolution() -> None:
    drive = json.loads(ssdwear_cli(["analyze", str(INTEL_730), "--format", "json"]).stdout)["drives"][0]
    p = drive["projection"]
    assert p["method"] == "timed-workload" and p["interval"] == "calibrated" and p["interval_level"] == 0.8
    assert p["wear_class"] == "multi|u20"
    resolution = 31980 / 1024 / (1137612 / 525600)
    assert p["percent_per_year"] == pytest.approx(resolution, rel=1e-4)  # the measured rate stays the centre
    # the range is the calibrated drift of real workloads, far wider than one E2h step either side (+-0.003 %)
    assert p["percent_per_year_high"] > 1.3 * p["percent_per_year"] and p["percent_per_year_low"] < 0.7 * resolution
    seed = json.loads(ssdwear_cli(["--replay", str(FIXTURES / "intel"), "report", "--represents", "1d", "--format",
                           "json"]).stdout)["drives"]
    for d, central, low, high in ((seed[0], 18.7, 17.5, 20.0), (seed[1], 4.6, 4.5, 4.7)):
        q = d["projection"]
        assert q["interval"] == "resolution" and q["interval_level"] is None
        assert (round(q["years_new_drive"], 1), round(q["years_new_drive_low"], 1),
                round(q["years_new_drive_high"], 1)) == (central, low, high)

