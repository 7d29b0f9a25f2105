"""What ssdwear draws on a real terminal: the installed command in a pseudo-terminal (tests/support/terminal.py),
read off a VT100 screen as a user would see it, interrupted with a real Ctrl-C.

Everything that differs on a terminal is here, one test each: measure's live progress bar and Ctrl-C (during the
wait and during the reset); the report's box-drawn table at the terminal's width, or blocks where it does not fit;
the history chart and drive list; scan's table; start's and status's blocks; plan's table. (No command shows
progress while it imports: `import smartd` prints its one line per drive at the end, terminal or not.)
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import time
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import FLEET_START, SteppedClock
from support.paths import FIXTURES, ROOT
from support.terminal import Terminal, installed_command, run_in_terminal, user_env

from ssdwear.cli.app import App
from ssdwear.host.store.queries import Store
from ssdwear.smartctl.replay import ReplayRunner

INTEL = FIXTURES / "intel"
SEED710 = "INTEL SSDSA2BZ200G3|CVPR0000SEED710"
SEED320 = "INTEL SSDSA2CW120G3|CVPR0000SEED320"
POLL_SECONDS = 5
STARTUP_SECONDS = 15  # the command's own start on a loaded 2-core machine, before its first poll is due
BOX = set("┏┓┗┛┡┩└┘│┃━─╇┳┻╋┣┫┠┨┬┴┼")


def measure_args(db: Path) -> list[str]:
    return ["--replay", str(INTEL), "--db", str(db), "measure", "/dev/sda", "-d", "sat", "--for", "60m", "--poll",
            f"{POLL_SECONDS}s"]


def reset_on_record(db: Path, key: str) -> bool:
    with Store.open(db, create=False, write=False) as store:
        return store.last_reset(key) is not None


# -- measure: the bar, and Ctrl-C ------------------------------------------------------------------------------


@pytest.mark.slow
def test_measure_draws_the_bar_at_once_updates_it_each_poll_and_ctrl_c_ends_the_wait(tmp_path: Path) -> None:
    """The issue's command: the bar with the total and the time left appears within one poll (at once, in fact,
    then each poll moves it); Ctrl-C ends the wait with 'interrupted' and 130, the reset kept on record. Before the
    fix it drew nothing at all (the live console wrote into its own stderr proxy, forever), so the first
    wait_for fails after its deadline."""
    db = tmp_path / "h.db"
    with Terminal(measure_args(db), columns=120, lines=30) as term:
        screen = term.wait_for("of 60 min, 60 min left; E4h 65535 (counting)", STARTUP_SECONDS + POLL_SECONDS)
        bar = screen.splitlines()[0]
        assert re.match(r"/dev/sda ━{20,} \d+ s of 60 min, 60 min left; E4h 65535 \(counting\)$", bar), screen
        assert screen.count("/dev/sda ━") == 1  # redrawn in place: one bar, not a line per poll
        drawn = term.raw.decode()  # and before the first poll, the bar at its start
        first_poll = re.search(r"[1-9]\d* s of 60 min", drawn)
        assert first_poll and 0 <= drawn.find("0 s of 60 min, 60 min left, first reading in 5 s; timer reset") < \
            first_poll.start()
        assert reset_on_record(db, SEED710)  # recorded before it was sent, before the wait
        term.interrupt()
        code = term.finish(20)
        screen = term.screen()
    assert code == 130, screen
    lines = screen.splitlines()
    assert lines[0].startswith("/dev/sda ━") and "of 60 min" in lines[0]  # the bar stays where it was
    assert lines[1].startswith("ssdwear: interrupted while waiting: each window goes on, its reset or baseline kept "
                               "on record"), screen
    assert "Traceback" not in screen and "\x1b[?25h" in term.raw.decode()  # and the cursor is shown again
    assert reset_on_record(db, SEED710)


@pytest.mark.slow
def test_measure_to_its_end_leaves_the_finished_bar_and_prints_the_report_under_it(tmp_path: Path) -> None:
    """The whole run at a terminal: the bar done, then the report's table (stdout, never drawn into the bar)."""
    args = ["--replay", str(INTEL), "--db", str(tmp_path / "h.db"), "measure", "/dev/sda", "-d", "sat", "--for",
            "10s", "--poll", f"{POLL_SECONDS}s", "--represents", "1d"]
    with Terminal(args, columns=120, lines=40) as term:  # E4h 65535, 30, then 60 min: valid at the third poll
        code = term.finish(STARTUP_SECONDS + 4 * POLL_SECONDS)
        screen = term.screen()
    assert code == 0, screen
    lines = screen.splitlines()
    assert re.match(r"/dev/sda ━{20,} 1\d s of 10 s, done; E4h 60 min$", lines[0]), screen
    assert lines[1].startswith("┏━") and lines[2].startswith("┃ Drive ")
    assert lines[4].startswith("│ INTEL SSDSA2BZ200G3 ") and "18.7 (17.5-20.0)" in lines[4]


@pytest.mark.slow
def test_off_a_terminal_sigint_ends_measures_wait_the_same_way(tmp_path: Path) -> None:
    """The same wait under cron or nohup (pipes, no terminal): a line per few minutes instead of the bar, and
    SIGINT ends it with the same line and the same 130."""
    db = tmp_path / "h.db"
    proc = subprocess.Popen([installed_command(), *measure_args(db)], cwd=ROOT, env=user_env(),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        assert proc.stderr is not None
        said, deadline = b"", time.monotonic() + STARTUP_SECONDS + POLL_SECONDS
        while not re.search(rb"ssdwear: measure: \d+ s of 60 min", said):
            assert time.monotonic() < deadline, said
            if select.select([proc.stderr], [], [], 0.2)[0]:
                said += os.read(proc.stderr.fileno(), 4096)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130
    last = (said + err).decode().splitlines()[-1]
    assert last.startswith("ssdwear: interrupted while waiting: each window goes on, its reset or baseline kept "
                           "on record (`ssdwear status` shows how far it is"), last
    assert out == b"" and "━" not in (said + err).decode()
    assert reset_on_record(db, SEED710)


@pytest.mark.slow
def test_ctrl_c_while_measure_resets_a_drive_lets_the_reset_finish_and_exits_3(fake_smartctl, tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C at the keyboard reaches ssdwear and the smartctl it runs (the terminal's foreground process group):
    the reset under way is let finish and kept on record, the next drive is not reset, measure does not wait,
    exit 3 (docs/exit-codes.md)."""
    smartctl, log = fake_smartctl(INTEL)
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP", "2")
    monkeypatch.setenv("FAKE_SMARTCTL_SLEEP_ON", "vendor,0x40")  # the reset takes 2 s
    db = tmp_path / "h.db"
    args = ["--smartctl", str(smartctl), "--db", str(db), "measure", "/dev/sda", "/dev/sdb", "-d", "sat", "--for",
            "60m", "--poll", f"{POLL_SECONDS}s"]
    with Terminal(args, columns=120, lines=30) as term:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not (log.is_file() and "-t vendor,0x40 -d sat /dev/sda" in log.read_text()):
            assert time.monotonic() < deadline, term.screen()
            time.sleep(0.05)
        term.interrupt()
        code = term.finish(30)
        screen = term.screen()
    assert code == 3, screen
    assert "interrupted by SIGINT while /dev/sda's reset was under way" in screen
    assert "of 60 min" not in screen  # no wait
    assert "-t vendor,0x40 -d sat /dev/sdb" not in log.read_text()
    assert reset_on_record(db, SEED710) and not reset_on_record(db, SEED320)


# -- the report: a table at the terminal's width, or blocks ---------------------------------------------------


def readme_report() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- output: ssdwear --replay fixtures/intel report --represents 1d -->\n```\n", 1)[1]
    return block.split("```", 1)[0].rstrip("\n")


def months(text: str) -> str:
    """`text` with its calendar months masked: they count from today, the README's from the day it was printed."""
    return re.sub(r"\b20\d\d-\d\d\b", "YYYY-MM", text)


REPORT = ["--no-history", "--replay", str(INTEL), "report", "--represents", "1d"]


@pytest.mark.parametrize("how", ["TIOCSWINSZ", "COLUMNS"])
def test_the_report_on_a_120_column_terminal_is_the_readmes_table(how: str) -> None:
    """The width as the terminal's window size says it, or as COLUMNS says it on a terminal that reports no size
    (a serial console): the README's table, box for box (its example says it is printed 120 columns wide)."""
    env = user_env({"COLUMNS": "120"}) if how == "COLUMNS" else None
    code, screen = run_in_terminal(REPORT, columns=120, lines=60, env=env, sized=how == "TIOCSWINSZ")
    assert code == 0, screen
    assert months(screen) == months(readme_report())
    assert {"┏", "┃", "┡", "│", "└"} <= set(screen)


def test_a_terminal_that_reports_no_size_gets_80_columns() -> None:
    code, screen = run_in_terminal(REPORT, columns=120, lines=80, sized=False)
    assert code == 0, screen
    assert not BOX & set(screen) and max(map(len, screen.splitlines())) <= 80


def test_the_report_on_an_80_column_terminal_is_blocks_and_says_the_window_once() -> None:
    """The table does not fit in 80 columns: one block per drive, every line within the width, a drive's window
    said on one `window` line (the S3700's 'not valid' once, with its reason)."""
    code, screen = run_in_terminal(REPORT, columns=80, lines=80)
    assert code == 0, screen
    lines = screen.splitlines()
    assert not BOX & set(screen) and max(map(len, lines)) <= 80
    assert lines[0] == "/dev/sda  INTEL SSDSA2BZ200G3 [CVPR0000SEED710]  (ata, ssd)"
    s3700 = screen.split("/dev/sdc  ", 1)[1].split("\n\n", 1)[0]
    assert [line for line in s3700.splitlines() if line.startswith("  window")] == [
        "  window      not valid: E2h-E4h read 65535, so the counters hold no measurement"]
    assert s3700.count("not valid") == 1


def test_a_long_model_is_never_split_across_lines_at_80_columns() -> None:
    """LITEONIT's 36-character model stays whole: on its own line under the file's name, never '... 2.5' then
    '7mm 512GB'."""
    saved = FIXTURES / "corpus" / "pySMART__liteonit-lct-512l9s__1.txt"
    code, screen = run_in_terminal(["analyze", str(saved)], columns=80, lines=30)
    assert code == 0, screen
    assert "\n  LITEONIT LCT-512L9S-11 2.5 7mm 512GB [TW0HN71H5508549A1220]  (ata, ssd)\n" in screen, screen


# -- the history: the chart and the drive list ----------------------------------------------------------------


@pytest.fixture
def history() -> Path:
    """The fleet machine sampled three times a day apart, into the test's history (SSDWEAR_DB)."""
    clock = SteppedClock(FLEET_START)
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=clock)
    for _ in range(3):
        assert ssdwear_cli(["sample"], app).exit_code == 0
        clock.now += timedelta(hours=24)
    return Path(os.environ["SSDWEAR_DB"])


@pytest.mark.parametrize("columns,chart", [(100, 60), (60, 48)])
def test_the_history_chart_fits_the_terminal(history: Path, columns: int, chart: int) -> None:
    """The two charts are drawn whole: 60 columns of bars where there is room, fewer on a narrow terminal, so no
    line of a chart is wrapped into the next (at 60 columns each was, before)."""
    code, screen = run_in_terminal(["history", "/dev/sda"], columns=columns, lines=40)
    assert code == 0, screen
    lines = screen.splitlines()
    title = " ".join(line.strip() for line in screen.split("\n\n", 1)[0].splitlines())
    assert title == "Samsung SSD 860 EVO 1TB [S3Z9NB0K000001X]: 3 samples from 2026-11-01 00:00 to 2026-11-03 00:00 UTC"
    assert lines.count("Wear used (% of rated endurance)") == 1 and lines.count("Host writes (TB)") == 1
    axes = [line for line in lines if "└" in line]
    assert axes == ["           └" + "─" * chart] * 2, screen
    times = [line for line in lines if line.lstrip().startswith("UTC ")]
    assert len(times) == 2 and all(t.rstrip().endswith("2026-11-03 00:00") for t in times)
    bars = [line for line in lines if "│" in line]
    assert len(bars) == 16 and all(len(line) <= 12 + chart for line in bars)
    assert max(map(len, lines)) <= columns


def test_the_history_drive_list_is_a_table_on_a_terminal(history: Path) -> None:
    code, screen = run_in_terminal(["history"], columns=140, lines=20)
    assert code == 0, screen
    lines = screen.splitlines()
    assert lines[0].startswith("┏━") and lines[-1].startswith("└─") and max(map(len, lines)) <= 140
    assert [c.strip() for c in lines[1].strip("┃").split("┃")] == [
        "Serial", "Model", "Last device", "Samples", "First (UTC)", "Last (UTC)", "Span"]
    row = [c.strip() for c in lines[3].strip("│").split("│")]
    assert row == ["S436NA0M000001", "SAMSUNG MZQLB1T9HAJR-00007", "/dev/nvme0", "3", "2026-11-01 00:00",
                   "2026-11-03 00:00", "2.0 d"]


# -- scan, start, status, plan ------------------------------------------------------------------------------


def test_scan_is_a_table_on_a_terminal() -> None:
    code, screen = run_in_terminal(["--replay", str(INTEL), "scan"], columns=80, lines=20)
    assert code == 0, screen
    lines = screen.splitlines()
    assert lines[0].startswith("┏━") and [c.strip() for c in lines[1].strip("┃").split("┃")] == ["Device", "Type"]
    assert [c.strip() for c in lines[3].strip("│").split("│")] == ["/dev/sda", "sat"]


def test_start_and_status_name_each_drive_whole_at_the_terminals_width(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    code, screen = run_in_terminal(["--replay", str(INTEL), "--db", str(db), "start", "/dev/sda", "/dev/sdd", "-d",
                                    "sat"], columns=60, lines=30)
    assert code == 0, screen
    lines = screen.splitlines()
    assert lines[0] == "/dev/sda  INTEL SSDSA2BZ200G3 [CVPR0000SEED710]  RESET"
    assert "/dev/sdd  Samsung SSD 860 EVO 1TB [S3Z9NB0K000000X]" in lines and "  BASELINE" in lines
    assert max(map(len, lines)) <= 60
    code, screen = run_in_terminal(["--replay", str(INTEL), "--db", str(db), "status", "/dev/sda", "-d", "sat"],
                                   columns=60, lines=30)
    assert code == 0, screen
    assert screen.splitlines()[:2] == ["/dev/sda  INTEL SSDSA2BZ200G3 [CVPR0000SEED710]", "  E4h window  60 min, valid"]


def test_plan_is_a_table_on_a_wide_terminal_and_blocks_on_a_narrow_one() -> None:
    args = ["--no-history", "--replay", str(INTEL), "plan", "--from", "/dev/sda", "-d", "sat", "--represents", "1d",
            "--candidate", "710"]
    code, wide = run_in_terminal(args, columns=160, lines=60)
    assert code == 0, wide
    lines = wide.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("┏━"))
    assert lines[top + 1].startswith("┃ Candidate ") and max(map(len, lines)) <= 160
    code, narrow = run_in_terminal(args, columns=50, lines=200)
    assert code == 0, narrow
    assert not BOX & set(narrow) and max(map(len, narrow.splitlines())) <= 50
    assert "Intel SSD 710 200 GB" in narrow.splitlines() and "  rated       1.0 PB" in narrow.splitlines()


def test_a_report_as_json_on_a_terminal_is_the_same_document() -> None:
    """Data stays data at a terminal: no escape codes, no box characters, the document a pipe gets."""
    with Terminal(["--no-history", "--replay", str(INTEL), "report", "--format", "json"], columns=80) as term:
        assert term.finish(30) == 0
        written = term.raw.decode().replace("\r\n", "\n")
    assert "\x1b" not in written and not BOX & set(written)
    assert json.loads(written)["drives"][0]["serial"] == "CVPR0000SEED710"
