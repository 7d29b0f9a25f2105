"""A live drive's smartd attribute log as readings (issue 20.1, 20.2): confirmed against the drive, its clock the
power-on hours, the window's lines bounded; the edge cases of crafted logs: a drive replaced under the same name,
clock jumps, attributes appearing and disappearing, lines a crash cut."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from support.clock import in_time_zone
from support.paths import FIXTURES

from ssdwear.assess import history
from ssdwear.assess.context import Context
from ssdwear.assess.report import assess
from ssdwear.model.records import DriveReport, Snapshot
from ssdwear.run import smartd as readings
from ssdwear.smartctl.parse import parse_output
from ssdwear.smartctl.smartd import as_logged

NOW = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)
SINCE = NOW - timedelta(days=30)
NAME = "attrlog.Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777A.ata.csv"


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    with in_time_zone("UTC"):
        yield


@pytest.fixture
def live() -> Snapshot:
    """The workstation drive of fixtures/smartd now: 12,132 power-on hours, 12 % used."""
    return parse_output((FIXTURES / "smartd" / "smartctl --json=c -x -n standby -d sat _dev_sda.out").read_bytes(),
                        "/dev/sda")


def line(at: datetime, poh: float, used: int = 12, lbas: int = 137_000_000_000, extra: str = "",
         without: Sequence[int] = ()) -> str:
    fields = [(9, 98, int(poh)), (12, 99, 41), (177, 100 - used, used * 6), (241, 99, lbas)]
    body = "".join(f"\t{i};{n};{r};" for i, n, r in fields if i not in without)
    return f"{at:%Y-%m-%d %H:%M:%S};{body}{extra}\n"


def always_on(days: int = 30, start_poh: float = 11_412.0, step_hours: float = 1.0) -> list[tuple[datetime, float]]:
    start = NOW - timedelta(days=days)
    return [(start + timedelta(hours=k * step_hours), start_poh + k * step_hours)
            for k in range(int(days * 24 / step_hours))]


def logged_report(live: Snapshot) -> DriveReport:
    """The live drive as its log shows it, assessed: the newest report a log's series is read by."""
    seen = as_logged(live)
    return assess(seen, Context(now=NOW))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / NAME
    path.write_text(text)
    return path


def logged(tmp_path: Path, live: Snapshot) -> tuple[readings.LogReadings | None, list[str]]:
    return readings.drive_log([str(tmp_path / "attrlog.")], live, SINCE, NOW)


def test_a_month_of_lines_are_readings_of_the_drive_through_the_drive_table(tmp_path: Path, live: Snapshot) -> None:
    write(tmp_path, "".join(line(at, poh, used=11 if poh < 11_700 else 12, lbas=int(1e11 + poh * 1e6))
                            for at, poh in always_on()))
    log, notes = logged(tmp_path, live)
    assert log is not None and notes == []
    assert log.lines == 720 and log.bad == 0
    sample = log.samples[-1]
    assert sample.used_source == "samsung_177_wear_leveling_count" and sample.used_percent == 12
    assert sample.host_bytes_written == int(1e11 + sample.power_on_hours * 1e6) * 512  # 241 x 512 B, as live
    assert WINDOW_LIMIT[0] <= len(log.samples) <= WINDOW_LIMIT[1]  # evenly thinned, never more


WINDOW_LIMIT = (readings.WINDOW_LINES, 2 * readings.WINDOW_LINES + 1)


def test_a_log_whose_newest_line_has_more_power_on_hours_than_the_drive_is_another_drives(
        tmp_path: Path, live: Snapshot) -> None:
    write(tmp_path, "".join(line(at, poh + 30_000) for at, poh in always_on()))
    log, notes = logged(tmp_path, live)
    assert log is None
    assert len(notes) == 1 and "another drive's log under the same name (a drive replaced), not used" in notes[0]


def test_a_drive_replaced_under_the_same_name_mid_log_leaves_the_new_drives_part(tmp_path: Path,
                                                                                  live: Snapshot) -> None:
    old = [(at, poh + 30_000) for at, poh in always_on(days=30)[:200]]
    new = [(at, 12_132 - (NOW - at).total_seconds() / 3600) for at, _ in always_on(days=30)[200:]]
    write(tmp_path, "".join(line(at, poh) for at, poh in old + new))
    log, _ = logged(tmp_path, live)
    assert log is not None
    series = history.Series(log.samples, logged_report(live), "smartd:attrlog", log.summary)
    result = history.series_windowed(series, 0.8, NOW)
    assert any("smartd:attrlog: samples before this series skipped" in n for n in result.notes)
    assert result.window is not None and result.window.reason is not None
    assert "since 2026-11-09" in result.window.reason  # the new drive's lines only


def test_lines_dated_ahead_of_their_power_on_hours_are_placed_by_them(tmp_path: Path, live: Snapshot) -> None:
    times = always_on()
    jumped = [(at + timedelta(days=3) if 100 <= k < 110 else at, poh) for k, (at, poh) in enumerate(times)]
    write(tmp_path, "".join(line(at, poh) for at, poh in jumped))
    log, _ = logged(tmp_path, live)
    assert log is not None
    assert any("dated later than their power-on hours allow (the clock was ahead)" in n for n in log.notes)
    ats = [s.at for s in log.samples]
    assert ats == sorted(ats) and max(ats) <= NOW


def test_attributes_that_come_and_go_are_read_line_by_line(tmp_path: Path, live: Snapshot) -> None:
    """A firmware update that drops 177 for a while: those lines read no wear (they are no readings of it), the
    others still project; the change is said."""
    text = "".join(line(at, poh, used=11 if poh < 11_700 else 12, without=(177,) if 300 <= k < 400 else ())
                   for k, (at, poh) in enumerate(always_on()))
    write(tmp_path, text)
    log, _ = logged(tmp_path, live)
    assert log is not None
    assert any("the drive's attributes changed at" in n and "-177" in n for n in log.notes)
    assert {s.used_source for s in log.samples} == {"samsung_177_wear_leveling_count", None}
    series = history.Series(log.samples, logged_report(live), "smartd:attrlog", log.summary)
    projection = history.series_windowed(series, 0.8, NOW).projection
    # the lines with 177 carry its raw, the average erase count: the rate rests on it (issue 19.4)
    assert projection is not None and projection.method == "smartd:attrlog:used_fine_percent"


def test_cut_lines_are_skipped_with_a_count_in_the_notes(tmp_path: Path, live: Snapshot) -> None:
    lines = [line(at, poh) for at, poh in always_on()]
    for k in (10, 20, 30):  # cut by a crash; the next line smartd wrote is glued on
        lines[k] = lines[k].replace("\t241;99;137000000000;\n", "\t241;9")
    write(tmp_path, "".join(lines) + "2026-12-01 07:30:00;\t9;98;121")
    log, _ = logged(tmp_path, live)
    assert log is not None and log.bad == 4
    assert any("4 line(s) of" in n and "1 the last line is cut off (no line end)" in n for n in log.notes)


def test_an_scsi_log_says_why_it_gives_no_readings(tmp_path: Path) -> None:
    scsi = Snapshot(source="/dev/sdc", interface="scsi", model="SEAGATE ST4000NM0023", serial="Z1Z0ABCD",
                    power_on_hours=100.0)
    (tmp_path / "attrlog.SEAGATE-ST4000NM0023-Z1Z0ABCD.scsi.csv").write_text(
        "2026-11-30 08:00:00;\twrite-gb-processed;89.125;\ttemperature;35;\n")
    log, notes = readings.drive_log([str(tmp_path / "attrlog.")], scsi, SINCE, NOW)
    assert log is None and "no power-on hours and no wear indicator" in notes[0]


@pytest.mark.slow  # writes and reads 80 MB
def test_a_ten_year_log_is_read_within_the_bounds(tmp_path: Path, live: Snapshot) -> None:
    """175,200 lines (ten years at smartd's 30 minutes): the window's lines assessed stay bounded."""
    start = NOW - timedelta(days=3650)
    old = replace(live, power_on_hours=90_000.0, attributes={**live.attributes, 9: replace(
        live.attributes[9], raw=90_000, raw_string="90000")})  # as old as the log: always on for ten years
    text = "".join(line(start + timedelta(minutes=30 * k), 90_000 - 87_600 + k * 0.5 + 0.4) for k in range(175_200))
    write(tmp_path, text)
    began = time.perf_counter()
    log, _ = logged(tmp_path, old)
    assert log is not None and log.lines == 175_200 and len(log.samples) <= WINDOW_LIMIT[1]
    assert time.perf_counter() - began < 10  # generous for a shared CI machine; bench/smartd.py measures it


def zoned(points: Sequence[tuple[datetime, float]], zone: str, utc_until: datetime | None = None) -> str:
    """The lines as smartd writes them on a host in `zone`: UTC stamps (smartd 7.0 and older) up to `utc_until`,
    local stamps after (smartd 7.1 and later)."""
    local = ZoneInfo(zone)
    return "".join(line(at if utc_until is not None and at <= utc_until else at.astimezone(local), poh)
                   for at, poh in points)


def when_written(log: readings.LogReadings, points: Sequence[tuple[datetime, float]]) -> list[tuple[datetime, ...]]:
    """(as read, as written) for each reading; on an always-on drive with one line an hour its hours name its line."""
    written = {int(poh): at for at, poh in points}
    return [(s.at, written[int(s.power_on_hours or 0)]) for s in log.samples]


def test_a_log_of_smartd_7_0_or_older_is_read_in_utc(tmp_path: Path, live: Snapshot) -> None:
    """Issue 26.8: smartd 7.0 and older wrote UTC (gmtime), local time only since 7.1 (e9d93a4be): on a host in
    Tokyo every line was read nine hours early. The machine's smartmontools (the smartctl that read the drive) says
    which smartd wrote the log."""
    points = always_on(start_poh=12_132 - 719.0)
    with in_time_zone("Asia/Tokyo"):
        write(tmp_path, zoned(points, "Asia/Tokyo", utc_until=NOW))
        log, _ = readings.drive_log([str(tmp_path / "attrlog.")], replace(live, smartctl_version="7.0"), SINCE, NOW)
    assert log is not None and len(log.samples) > 100
    assert all(read == written for read, written in when_written(log, points))
    assert any("timestamps read as UTC: smartd 7.0 and older write UTC" in n for n in log.notes)
    assert log.first == points[0][0] and log.last == points[-1][0]


@pytest.mark.parametrize("upgraded", [timedelta(days=10), timedelta(0)])
def test_the_utc_lines_of_an_upgraded_smartd_fit_their_power_on_hours_only_as_utc(
        tmp_path: Path, live: Snapshot, upgraded: timedelta) -> None:
    """A log kept since smartd 7.0, read with 7.3 installed: its older lines are UTC, which in New York put them
    five hours after the lines that follow (and the newest, where smartd was not restarted yet, after now). Read as
    UTC they fit their power-on hours: those lines are UTC, and every line before them."""
    points = always_on(start_poh=12_132 - 719.0)
    with in_time_zone("America/New_York"):
        write(tmp_path, zoned(points, "America/New_York", utc_until=NOW - upgraded))
        log, _ = logged(tmp_path, live)
    assert log is not None and len(log.samples) > 100
    assert all(read == written for read, written in when_written(log, points))
    assert any("read as UTC: they fit their power-on hours only so" in n for n in log.notes)
    assert not any("the clock was ahead" in n for n in log.notes)
