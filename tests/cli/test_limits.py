"""Every duration, size and rate a user gives has one documented range (ssdwear/model/units.py): out of range is a
usage error (exit 2) on the command line and a config error (exit 1, FILE:LINE: KEY) that quotes the value as it
was typed; and no value that is accepted overflows anything downstream (dates, timeouts, the plan's years)."""

from __future__ import annotations

import json
import math
import os
import selectors
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.cli import ssdwear_cli
from support.clock import T0
from support.docs import section
from support.paths import FIXTURES, ROOT

from ssdwear.assess import plan as plan_mod
from ssdwear.assess.thresholds import THRESHOLD_NAMES
from ssdwear.cli.main import cli
from ssdwear.drives.ratings import catalogue
from ssdwear.model import units
from ssdwear.render.documents import plan_doc
from ssdwear.wear import rates as wear

INTEL = FIXTURES / "intel"


# -- the command line --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args,typed", [
    (["history", "CVPR0000SEED710", "--since", "3000y"], "'3000y'"),
    (["--timeout", "3000000", "--replay", str(INTEL), "report"], "'3000000'"),  # past select()'s ~24.8 days
    (["--timeout", "0.5", "--replay", str(INTEL), "report"], "'0.5'"),
    (["--replay", str(INTEL), "sample", "--deadline", "2d"], "'2d' is out of range: a run deadline is 1 s to a day"),
    (["--replay", str(INTEL), "sample", "--deadline", "0s"], "'0s' is not a positive duration"),
    (["--replay", str(INTEL), "report", "--represents", "10000y"], "'10000y'"),
    (["--replay", str(INTEL), "measure", "/dev/sda", "--for", "200y"], "'200y'"),
    (["plan", "--host-writes", "1DWPD@1.92"], "'1.92' is out of range"),  # a capacity of 1.92 bytes
    (["plan", "--host-writes", "0.5B/day"], "'0.5B/day' is out of range"),  # was planned as 0 bytes a day
    (["plan", "--host-writes", "1DWPD@1e400"], "'1e400' is out of range"),
    (["plan", "--host-writes", "1TB/day", "--years", "nan"], "'nan' is out of range"),
    (["plan", "--host-writes", "1TB/day", "--spare", "inf"], "'inf' is out of range"),
])
def test_out_of_range_options_are_usage_errors_quoting_the_value(args: list[str], typed: str) -> None:
    result = ssdwear_cli(args)
    assert result.exit_code == 2, result.output
    assert typed in result.stderr and result.stdout == ""


def test_a_capacity_without_its_unit_is_refused_with_the_unit_suggested() -> None:
    """1DWPD@1.92 meant 1.92 TB; read as bytes it planned for 1.92 bytes a day and every drive 'met' it."""
    result = ssdwear_cli(["plan", "--host-writes", "1DWPD@1.92"])
    assert result.exit_code == 2
    assert "a drive's capacity is 1 GB to 1 PB" in result.stderr and "1.92 TB" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_small_rate_is_read_as_it_was_written() -> None:
    """0.00005TB/day was refused quoting '5e-05TB', which nobody typed."""
    result = ssdwear_cli(["plan", "--host-writes", "0.00005TB/day", "--format", "json"])
    assert result.exit_code in (0, 1), result.stderr
    workload = json.loads(result.stdout)["workload"]
    assert workload["bytes_per_day"] == 50_000_000 and "0.00005 TB a day" in workload["basis"]
    assert "5e-05" not in result.stdout + result.stderr


def test_check_thresholds_out_of_range_are_unknown() -> None:
    result = ssdwear_cli(["--replay", str(INTEL), "check", "--warning-years", "nan"])
    assert result.exit_code == 3 and result.stdout.startswith("SSDWEAR UNKNOWN - usage: ")
    assert "'nan' is out of range: a years-left threshold is 0 to 100 years" in result.stdout


def test_the_longest_timeout_reaches_a_real_smartctl(fake_smartctl) -> None:
    smartctl, _ = fake_smartctl(INTEL)
    result = ssdwear_cli(["--smartctl", str(smartctl), "--timeout", "86400", "report", "/dev/sda", "-d", "sat",
                  "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["drives"][0]["serial"] == "CVPR0000SEED710"


# -- the config file ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text,where", [
    ("history_window: 10000y\n", "c.yaml:1: history_window: '10000y' is out of range: a duration is 1 s to 100 "
                                 "years"),
    ("represents: 3000y\n", "c.yaml:1: represents: '3000y' is out of range"),
    ("smartctl_timeout: 3000000\n", "c.yaml:1: smartctl_timeout: '3000000' is out of range"),
    ("workers: 100000\n", "c.yaml:1: workers: '100000' is out of range"),
    ("run_deadline: 2d\n", "c.yaml:1: run_deadline: '2d' is out of range: a run deadline is 1 s to a day"),
    ("run_lock_wait: forever\n", "c.yaml:1: run_lock_wait: 'forever' is not a duration"),
    ("ratings:\n  - {model: X, tbw: 0.5}\n", "c.yaml:2: ratings[0].tbw: '0.5' is out of range: a rating in bytes "
                                             "written is 100 GB to 1 EB (a number without a unit is bytes"),
    ("ratings:\n  - {model: X, tbw: .inf}\n", "c.yaml:2: ratings[0].tbw: '.inf' is not a byte count"),
    ("ratings:\n  - {model: X, tbw: 1 PB, capacity: 1.92}\n", "c.yaml:2: ratings[0].capacity: '1.92' is out of "
                                                              "range"),
    ("ratings:\n  - {model: X, dwpd: 1000, warranty_years: 5}\n", "c.yaml:2: ratings[0].dwpd: '1000' is out of "
                                                                  "range"),
    ("ratings:\n  - {model: X, dwpd: 1, warranty_years: .inf}\n", "c.yaml:2: ratings[0].warranty_years: expected a "
                                                                  "finite number, got '.inf'"),
    ("thresholds:\n  years_remaining: {warning: 1000}\n", "c.yaml:2: thresholds.years_remaining.warning: '1000' is "
                                                          "out of range"),
])
def test_out_of_range_config_values_name_file_line_key_and_value(tmp_path: Path, text: str, where: str) -> None:
    """history_window: 10000y made every drive an internal error (sample stored nothing); tbw: 0.5 and tbw: .inf
    failed every command with an internal error."""
    config = tmp_path / "c.yaml"
    config.write_text(text)
    for command in (["report"], ["sample"]):
        result = ssdwear_cli(["--config", str(config), "--replay", str(INTEL), "--db", str(tmp_path / "h.db"),
                              *command])
        assert result.exit_code == 1, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"ssdwear: {tmp_path}/{where}"), lines


def test_the_longest_history_window_and_since_work_end_to_end(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("history_window: 100y\n")
    db = str(tmp_path / "h.db")
    common = ["--config", str(config), "--replay", str(INTEL), "--db", db]
    assert ssdwear_cli([*common, "sample"]).exit_code == 0
    report = ssdwear_cli([*common, "report", "--format", "json"])
    assert report.exit_code == 0 and len(json.loads(report.stdout)["drives"]) == 4
    history = ssdwear_cli(["--db", db, "history", "BTTV0000S3700", "--since", "100y", "--format", "json"])
    assert history.exit_code == 0 and len(json.loads(history.stdout)["samples"]) == 1
    planned = ssdwear_cli([*common, "plan", "--from", "BTTV0000S3700", "--format", "json"])
    assert planned.exit_code in (0, 1) and json.loads(planned.stdout)["workload"]["bytes_per_day"] > 0


def test_the_threshold_ranges_cover_every_threshold() -> None:
    assert set(units.THRESHOLDS) == set(THRESHOLD_NAMES)


def test_every_option_with_a_range_states_it_in_its_help() -> None:
    import click

    from ssdwear.cli.app import Limited

    seen = []
    for command in [cli, *cli.commands.values()]:
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, Limited):
                seen.append(param.opts[0])
                assert param.type.limits().words in (param.help or ""), (command.name, param.opts)
    assert {"--timeout", "--workers", "--represents", "--since", "--for", "--poll", "--years", "--spare",
            "--warning-years", "--critical-used", "--warning-spare", "--critical-tbw"} <= set(seen)
    plan = cli.commands["plan"]
    host_writes = next(p for p in plan.params if p.name == "host_writes")
    assert units.WRITE_RATE.words in (host_writes.help or "") and units.DWPD.words.split(" drive")[0] in \
        (host_writes.help or "")


def test_every_range_is_in_the_configuration_page() -> None:
    page = section(ROOT / "docs" / "configuration.md", "Ranges")
    table = "\n".join(line for line in page.splitlines() if line.startswith("|"))
    ranges = [v for v in vars(units).values() if isinstance(v, units.Limits)] + list(units.THRESHOLDS.values())
    missing = [limits.words for limits in ranges if limits.words not in table]
    assert len(ranges) == 16 and missing == []


# -- no string makes a parser raise anything but ValueError; no accepted value overflows downstream -------------


NUMBERS = st.one_of(
    st.integers(0, 10**40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.from_regex(r"[0-9]{0,400}\.?[0-9]{0,6}([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.sampled_from(["nan", "inf", "-1", ".5", "5.", "1_000", "0x10", "\u0663", "\uff11"]),
)
SUFFIXES = st.sampled_from(["", "s", " sec", "m", "min", "h", "d", "w", "y", " years", "B", " TB", "TiB", "PB",
                            "EB", "kb", "e", "TB/day", " GB per week", "TB/mo", " PiB a year", "B/d", "DWPD@1.92TB",
                            " dwpd of 960 GB", "DWPD x 1.92", "DWPD@1e400", "DWPD@0.00005TB", "/day"])
TEXTS = st.one_of(st.builds(lambda n, s: n + s, NUMBERS, SUFFIXES), st.text(max_size=30))
CATALOGUE = catalogue()


def _ready_pipe() -> tuple[selectors.BaseSelector, int, int]:
    read, write = os.pipe()
    os.write(write, b"x")
    selector = selectors.DefaultSelector()
    selector.register(read, selectors.EVENT_READ)
    return selector, read, write


@settings(max_examples=400, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_parsers_raise_only_value_error_and_accepted_values_stay_usable(text: str) -> None:
    try:
        minutes = units.parse_duration_minutes(text)
    except ValueError:
        pass
    else:
        assert units.DURATION.low <= minutes <= units.DURATION.high
        for now in (T0, datetime.now(timezone.utc)):
            assert (now - timedelta(minutes=minutes)).year >= 1900 and (now + timedelta(minutes=minutes)).year < 9999
        rate = wear.timed_workload_rate(15, 60, minutes)
        assert all(math.isfinite(x) for x in (rate.per_year, rate.low, rate.high))
    try:
        seconds = units.parse_seconds(text)
    except ValueError:
        pass
    else:  # what subprocess.run(timeout=...) hands to select/poll and to a thread's wait
        selector, read, write = _ready_pipe()
        try:
            assert selector.select(seconds)
        finally:
            selector.close()
            os.close(read)
            os.close(write)
        event = threading.Event()
        event.set()
        assert event.wait(seconds)
    for limits in (units.CAPACITY, units.NAND, units.RATED_WRITES):
        try:
            size = units.parse_bytes(text, limits)
        except ValueError:
            continue
        assert isinstance(size, int) and limits.low <= size <= limits.high and units.human_bytes(size)
    try:
        per_day, words = units.parse_write_rate(text)
    except ValueError:
        return
    assert units.WRITE_RATE.low <= per_day <= units.WRITE_RATE.high and words
    result = plan_mod.plan(plan_mod.given_workload(per_day, words), [], CATALOGUE)
    figures = [y for c in result.candidates for y in (c.years, c.years_low, c.years_high) if y is not None]
    assert figures and all(math.isfinite(y) and y > 0 for y in figures)
    json.dumps(plan_doc(result), allow_nan=False)
