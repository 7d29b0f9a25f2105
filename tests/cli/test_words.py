"""The words of the report blocks, the history and check's summary (issue 25.12): a drive's window said once,
counts in one format, plurals right, a history that does not exist said truthfully, a model never split."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import FLEET_START, T0, SteppedClock
from support.paths import CORPUS, FIXTURES

from ssdwear.cli.app import App
from ssdwear.host.store.queries import Store
from ssdwear.model.records import DriveId, RaidVolume, Sample
from ssdwear.smartctl.replay import ReplayRunner

INTEL = FIXTURES / "intel"
LITEON = CORPUS / "pySMART__liteonit-lct-512l9s__1.txt"


def blocks(text: str) -> dict[str, list[str]]:
    """A block report's lines by drive (the device, first word of the block's head)."""
    return {block.split()[0]: block.splitlines() for block in text.strip().split("\n\n") if block.startswith("/")}


# -- the window, once -----------------------------------------------------------------------------------------


def test_a_drive_block_says_its_window_on_one_line() -> None:
    """The S3700's window that is not valid: 'not valid' once, with why, on its one `window` line (it was
    'window  not valid' and then 'window  not valid: E2h-E4h read 65535, ...')."""
    out = ssdwear_cli(["--replay", str(INTEL), "report"], env={"COLUMNS": "80"}).stdout
    s3700 = blocks(out)["/dev/sdc"]
    window = [line for line in s3700 if line.startswith("  window")]
    assert window == ["  window      not valid: E2h-E4h read 65535, so the counters hold no measurement"]
    assert "\n".join(s3700).count("not valid") == 1


def test_a_history_window_is_one_line_its_power_on_span_and_its_readings() -> None:
    """A history's window: its power-on span and wear, then the readings behind it, under one `window` label (they
    were two lines of that label)."""
    clock = SteppedClock(FLEET_START)
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=clock)
    for _ in range(2):
        assert ssdwear_cli(["sample"], app).exit_code == 0
        clock.now += timedelta(hours=24)
    out = ssdwear_cli(["report"], app, env={"COLUMNS": "100"}).stdout
    for device, lines in blocks(out).items():
        labels = [line.split()[0] for line in lines[1:] if not line.startswith("    ")]
        assert labels.count("window") == 1, (device, lines)
        window = next(line for line in lines if line.startswith("  window"))
        assert window.startswith("  window      2.0 d, ") and ": 3 readings over 48 power-on hours (2.0 wall-clock " \
            "days) since" in window, window  # each span says which clock it is on


# -- counts and plurals ----------------------------------------------------------------------------------------


def test_every_count_is_grouped_and_its_noun_agrees() -> None:
    from ssdwear.model.counts import count_text  # the one way a count is said

    assert count_text(1, "drive") == "1 drive" and count_text(0, "drive") == "0 drives"
    assert count_text(3134, "sample") == "3,134 samples" and count_text(2, "entry", "entries") == "2 entries"
    one = RaidVolume("/dev/sda", "DELL PERC H730P Mini", ("/dev/bus/0 sat+megaraid,0",))
    assert "its 1 drive is read through the controller" in one.note
    two = RaidVolume("/dev/sda", "DELL PERC H730P Mini", ("/dev/bus/0 sat+megaraid,0", "/dev/bus/0 sat+megaraid,1"))
    assert "its 2 drives are read through the controller" in two.note


def test_the_history_chart_counts_its_samples_as_import_does(tmp_path: Path) -> None:
    """'3,134 of 3,134 hourly readings imported' and then '3134 samples' in the chart: one format, grouped."""
    db = tmp_path / "h.db"
    drive = DriveId("Samsung SSD 860 EVO 1TB", "S3Z9NB0K000001X")
    with Store.open(db) as store:
        store.add_samples([(drive, Sample(at=T0 - timedelta(hours=3134 - i), power_on_hours=1000 + i,
                                          used_percent=5, host_bytes_written=10**12 + i * 10**9), "/dev/sda")
                           for i in range(3134)])
    chart = ssdwear_cli(["--db", str(db), "history", "S3Z9NB0K000001X"], App(clock=lambda: T0)).stdout
    assert chart.startswith("Samsung SSD 860 EVO 1TB [S3Z9NB0K000001X]: 3,134 samples from "), chart[:200]


@pytest.mark.parametrize("device,summary", [
    ("/dev/sda", "SSDWEAR OK - 1 drive OK, least life left: /dev/sda 17.5 years at the pessimistic end"),
    ("/dev/sdb", "SSDWEAR WARNING - 1 of 1 drive: /dev/sdb INTEL SSDSA2CW120G3 [CVPR0000SEED320]: ")])
def test_checks_summary_of_one_drive_says_drive(device: str, summary: str) -> None:
    result = ssdwear_cli(["--replay", str(INTEL), "check", device, "-d", "sat", "--represents", "1d",
                          "--warning-years", "5"])
    assert result.stdout.startswith(summary), result.stdout


# -- a history that is not there ---------------------------------------------------------------------------------


def test_history_of_a_drive_where_nothing_was_stored_says_there_is_no_history_yet(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    result = ssdwear_cli(["--db", str(db), "history", "nosuch"])
    assert result.exit_code == 1
    assert result.stderr == (f"ssdwear: no history yet: nothing was stored at {db}, so 'nosuch' is not in it "
                             "(`ssdwear sample` stores a reading of every drive there, `ssdwear import smartd` copies "
                             "smartd's attribute logs in; --db FILE or SSDWEAR_DB reads another history)\n")
    listing = ssdwear_cli(["--db", str(db), "history"])
    assert listing.exit_code == 1
    assert listing.stderr.startswith(f"ssdwear: no history yet: nothing was stored at {db} (")
    assert not db.exists()


@pytest.mark.parametrize("older, said, kept", [(1, "1 sample", "holds text, a blob or an infinity where a count "
                                                       "belongs and is ignored"),
                                              (2, "2 samples", "hold text, a blob or an infinity where a count "
                                                       "belongs and are ignored")])
def test_the_historys_counts_agree_with_their_noun(tmp_path: Path, older: int, said: str, kept: str) -> None:
    """The counter reset's samples from another life and the samples holding text, said as every count is (they
    were 'sample(s)')."""
    import sqlite3
    from dataclasses import replace

    db = tmp_path / "h.db"
    clock = SteppedClock(FLEET_START)
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=clock, db=str(db))
    for _ in range(3):
        assert ssdwear_cli(["sample"], app).exit_code == 0
        clock.now += timedelta(hours=24)
    evo = DriveId("Samsung SSD 860 EVO 1TB", "S3Z9NB0K000001X")
    with Store.open(db) as store:
        first = store.samples(evo.key or "")[0]
        store.add_samples([(evo, replace(first, at=FLEET_START - timedelta(days=9 - n), power_on_hours=10**6 + n),
                            "/dev/sdb") for n in range(older)])
    notes = json.loads(ssdwear_cli(["report", "--format", "json"], app).stdout)["drives"][1]["notes"]
    assert f"history: samples before this series skipped: counter reset: {said} with more power-on hours (up to " \
        f"{10**6 + older - 1:,}) than the latest reading (8,048)" in notes, notes
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE samples SET used = 'x' WHERE t IN (SELECT t FROM samples ORDER BY t LIMIT ?)", (older,))
    result = ssdwear_cli(["report", "--format", "json"], app)
    assert f"history: {said.replace('sample', 'stored sample')} {kept}: the database was changed outside " \
        "ssdwear" in result.stderr, result.stderr


# -- a model, whole ---------------------------------------------------------------------------------------------


def test_a_model_longer_than_30_characters_is_never_split() -> None:
    """LITEONIT's 36-character model: whole on its line in the blocks at 80 columns (its words were wrapped after
    '2.5'), whole in the table's cell where the table fits."""
    narrow = ssdwear_cli(["analyze", str(LITEON)], env={"COLUMNS": "80"}).stdout
    head = "  LITEONIT LCT-512L9S-11 2.5 7mm 512GB [TW0HN71H5508549A1220]  (ata, ssd)"
    assert narrow.splitlines()[:2] == [str(LITEON), head]
    wide = ssdwear_cli(["analyze", str(LITEON)], env={"COLUMNS": "200"}).stdout
    assert "│ LITEONIT LCT-512L9S-11 2.5 7mm 512GB " in wide


def test_a_model_in_the_history_list_is_never_split(tmp_path: Path) -> None:
    clock = SteppedClock(FLEET_START)
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=clock)
    assert ssdwear_cli(["sample"], app).exit_code == 0
    listing = ssdwear_cli(["history"], app, env={"COLUMNS": "105"}).stdout  # room for the table, not for every cell
    assert listing.startswith("┏━") and max(map(len, listing.splitlines())) <= 105
    assert "│ SAMSUNG MZQLB1T9HAJR-00007 │" in listing and "│ Samsung SSD 860 EVO 1TB    │" in listing, listing


def test_plans_table_keeps_the_longest_catalogue_model_whole_at_80_columns() -> None:
    """A candidate is its vendor, then its model (family and capacity): the table may put them on two lines, never
    split the model ('Western Digital WD' / 'Blue 3D NAND SATA' / '2 TB' at 80 columns), nor in the notes."""
    import re

    from ssdwear.drives.ratings import catalogue

    entries = [e for e in catalogue() if e.vendor and e.name.startswith(f"{e.vendor} ")]
    longest = max(entries, key=lambda e: len(e.name) - len(e.vendor or ""))
    model = longest.name.removeprefix(f"{longest.vendor} ")
    family = re.escape(re.sub(r"\s*\(.*\)\s*$", "", longest.family or ""))
    result = ssdwear_cli(["--no-history", "plan", "--host-writes", "145GB/day", "--candidate", family],
                         env={"COLUMNS": "80"})
    assert result.exit_code == 1, result.stderr  # its rating states no workload: none meets on comparable years
    lines = result.stdout.splitlines()
    assert any(line.startswith("┏━") for line in lines) and max(map(len, lines)) <= 80, result.stdout
    cells = [line for line in lines if line.startswith("│ ")]
    assert f"│ {model} " in "\n".join(cells), (model, result.stdout)  # whole in its cell
    assert sum(line.count(model) for line in lines) == result.stdout.replace("\n", " ").count(model) >= 2
