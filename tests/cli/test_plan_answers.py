"""One question, asked every way, gets one answer or says why not (issue 25.5; GUIDE.md, "Testing at the real
surface"). The Intel SSD 710 review's question: would an SSD 320 with 50 % spare area do at the 710's workload?

Asked of the catalogue (the review's 145 GB a day given by hand), of the 710 measured (--from DEVICE), of the 710 and
the 320 measured (--from DEVICE twice), of their saved outputs (--from FILE) and of the 320 alone, every SSD 320 row
either carries the measured SSD 320's years (27.0 for its 120 GB, in proportion for the other capacities) or is
marked not comparable, in the JSON and in the table, with the reason; never 'maybe, 0.6-6.7 years' beside 'yes,
27.0' as two answers. A 'yes' on years that do not compare never makes the exit status 0."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from support.cli import ssdwear_cli
from support.paths import FIXTURES

INTEL = str(FIXTURES / "intel")
SAVED = [f"{INTEL}/smartctl --json=c -x -n standby -d sat _dev_{d}.out" for d in ("sda", "sdb")]
WAYS = {
    "catalogue": ["plan", "--host-writes", "145GB/day"],
    "710 measured": ["--replay", INTEL, "plan", "--from", "/dev/sda", "-d", "sat", "--represents", "1d"],
    "both measured": ["--replay", INTEL, "plan", "--from", "/dev/sda", "--from", "/dev/sdb", "-d", "sat",
                      "--represents", "1d"],
    "saved outputs": ["plan", "--from", SAVED[0], "--from", SAVED[1], "--represents", "1d"],
    "320 measured": ["--replay", INTEL, "plan", "--from", "/dev/sdb", "-d", "sat", "--represents", "1d"],
}
ASK = ["--candidate", "SSD 320", "--spare", "50"]
MEASURED_320 = "INTEL SSDSA2CW120G3 [CVPR0000SEED320] as measured"


def _plan(way: str, fmt: str = "json") -> tuple[int, str]:
    result = ssdwear_cli([*WAYS[way], *ASK, "--format", fmt])
    return result.exit_code, result.stdout


@pytest.fixture(scope="module")
def measured() -> dict:
    """The measured SSD 320's own answer: its life as a new drive at the wear it showed, with 50 % spare area."""
    row = next(c for c in json.loads(_plan("both measured")[1])["candidates"] if c["name"] == MEASURED_320)
    assert row["fit"] == "meets" and row["years"] == pytest.approx(27.0, abs=0.05)
    return row


@pytest.mark.parametrize("way", list(WAYS))
def test_every_way_gives_the_measured_answer_or_says_why_not(way: str, measured: dict) -> None:
    code, out = _plan(way)
    d = json.loads(out)
    rows = [c for c in d["candidates"] if (c["family"] or "").startswith("SSD 320") or c["name"] == MEASURED_320]
    assert len(rows) >= 6, [c["name"] for c in d["candidates"]]
    _, table = _plan(way, "table")
    said = " ".join(table.split())
    for c in rows:
        if c["comparable"]:  # one answer: the measured 320's, in proportion to the capacity
            scale = (c["capacity_bytes"] or 0) / 120e9 if c["kind"] != "measured" else 1.0
            for key in ("years", "years_low", "years_high"):
                assert c[key] == pytest.approx(measured[key] * scale, rel=0.01), (way, c["name"], key)
            assert c["kind"] == "measured" or c["from_measured"]["serial"] == "CVPR0000SEED320"
        elif c["years_low"] is None:  # the 40 GB, which the published range leaves out: no years at all
            assert c["comparable_reason"] == "no rating: no years to compare" and c["fit"] == "unknown"
        else:  # or why not, in the JSON and in the table
            assert "its rating states no workload" in c["comparable_reason"], (way, c["comparable_reason"])
            assert c["kind"] != "measured"
            line = next(x for x in table.splitlines() if x.startswith(f"│ {c['name']} "))
            assert re.search(r"\d \*\s*│", line), line
            assert "years not comparable as computed: its rating states no workload" in said
    answered = [c for c in rows if c["comparable"]]
    if way in ("catalogue", "710 measured"):  # no SSD 320 was measured: only the reason
        assert answered == [] and d["met"] is False and code == 1
        assert "*: years not comparable as computed" in said
    else:
        assert {c["name"] for c in answered} == {c["name"] for c in rows}
        assert d["met"] is True and code == 0


def test_the_spare_area_figure_is_said_modelled_never_published() -> None:
    _, table = _plan("catalogue", "table")
    said = " ".join(table.split())
    assert "rated 29.4-352 TB, modelled from the published 5.0-60 TB, the range of the SSD 320 family" in said
    assert "29.4-352 TB, the published range" not in said


def test_plan_and_report_agree_on_what_a_day_is(tmp_path) -> None:
    """A workstation on 35 % of the time (fixtures/smartd: a year of smartd's log): `report` shows its host writes a
    wall-clock day, `plan` its workload a power-on day, in rated writes. plan labels its day and years power-on,
    turns them into wall-clock figures at the measured duty cycle, and names report's figure and what sets the two
    apart: the rating's workload against the host's bytes."""
    from datetime import datetime, timezone

    from support.clock import in_time_zone

    from ssdwear.cli.app import App
    from ssdwear.model.units import human_bytes

    config = tmp_path / "c.yaml"
    config.write_text(f"smartd_attrlog: {FIXTURES / 'smartd' / 'attrlog'}/\n")
    now = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)  # tools/make_smartd.py's NOW
    base = ["--config", str(config), "--replay", str(FIXTURES / "smartd")]
    with in_time_zone("Europe/Berlin"):  # smartd wrote the log in Berlin's local time
        def run(*args: str) -> str:
            return ssdwear_cli([*base, *args], App(clock=lambda: now)).stdout

        drive = json.loads(run("report", "/dev/sda", "-d", "sat", "--format", "json"))["drives"][0]
        report_table = run("report", "/dev/sda", "-d", "sat")
        d = json.loads(run("plan", "--from", "/dev/sda", "-d", "sat", "--candidate", "860 EVO 1 TB", "--format",
                           "json"))
        table = " ".join(run("plan", "--from", "/dev/sda", "-d", "sat", "--candidate", "860 EVO 1 TB").split())
    w, host, duty = d["workload"], drive["writes"]["host_bytes_per_day"], drive["projection"]["duty_cycle"]
    assert w["kind"] == "rated-writes" and 0.3 < duty < 0.4 and w["duty_cycle"] == pytest.approx(duty, abs=1e-3)
    assert w["host_bytes_per_wall_clock_day"] == pytest.approx(host, rel=1e-6)  # report's Written, +28.4 GB/day
    assert w["bytes_per_wall_clock_day"] == pytest.approx(w["bytes_per_day"] * duty, rel=1e-3)
    assert f"+{human_bytes(host)}/day" in report_table
    assert f"Workload: {human_bytes(w['bytes_per_day'])} a power-on day of rated writes" in table
    assert (f"so that is {human_bytes(w['bytes_per_wall_clock_day'])} a wall-clock day of rated writes; the host "
            f"wrote {human_bytes(host)} a wall-clock day (report's Written): each host byte wore it as "
            f"{w['bytes_per_wall_clock_day'] / host:.2f} bytes of its rating's workload") in table
    assert "Target: 5 power-on years" in table and f"5 power-on years last {5 / duty:.1f} calendar years" in table


@pytest.mark.parametrize("args,said,unsaid", [
    (["plan", "--host-writes", "145GB/day", "--candidate", "SSD 710"], ["Margin: the pessimistic bound"],
     ["brackets", "a range alone", "≥", "*:"]),
    (["--replay", INTEL, "plan", "--from", "/dev/sda", "-d", "sat", "--represents", "1d", "--candidate", "SSD 710"],
     ["brackets: the range of the measured wear"], ["a range alone", "*:"]),
    (["plan", "--host-writes", "145GB/day", "--candidate", "SSD 320 80"],
     ["a range alone: over a rating's range", "*: years not comparable as computed"], ["brackets"]),
], ids=["exact", "measured", "range"])
def test_the_footer_describes_only_what_the_table_printed(args: list[str], said: list[str], unsaid: list[str]) -> None:
    """The legend under plan's table (issue 25.12: it spoke of brackets where none were printed)."""
    after = ssdwear_cli(args).stdout.split("└")[1].splitlines()[1:]  # the lines under the table's bottom edge
    paragraph = [after[0], *itertools.takewhile(lambda line: line.startswith("  "), after[1:])]
    legend = " ".join(" ".join(paragraph).split())
    assert legend.startswith("Power-on years (a drive that is off neither writes nor wears)"), legend
    for text in said:
        assert text in legend, legend
    for text in unsaid:
        assert text not in legend, legend


def test_host_writes_fitted_a_wall_clock_day_become_a_power_on_day() -> None:
    """The history's host writes a wall-clock day (report's Written) over a measured 35 % duty cycle are 1/0.35 of
    that a power-on day, the day every year of plan counts; at the duty assumed (always on) they stay as they are."""
    from ssdwear.assess.plan import Measured, host_workload
    from ssdwear.model.records import DriveReport, Projection, Writes

    def drive(duty: float, measured: bool) -> Measured:
        p = Projection("history:x", "b", 5.0, 4.0, 6.0, 10.0, 8.0, 12.0, 20.0, 16.0, 25.0, 0.8, duty_cycle=duty,
                       duty_measured=measured)
        return Measured(DriveReport(device="/dev/sda", model="M", serial="S", power_on_hours=1000, projection=p,
                                    writes=Writes(host_bytes_written=10**13, host_bytes_per_day=28e9)), "/dev/sda")

    w = host_workload(drive(0.35, True))
    assert w is not None and w.bytes_per_day == pytest.approx(28e9 / 0.35) and w.duty_cycle == 0.35
    assert "80 GB a power-on day, fitted over the stored history: 28 GB a wall-clock day, at its 35 % power-on" \
        in w.basis
    assumed = host_workload(drive(1.0, False))
    assert assumed is not None and assumed.bytes_per_day == 28e9 and assumed.duty_cycle is None
    assert "always on assumed" in assumed.basis
