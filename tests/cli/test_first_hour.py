"""A sysadmin's first hour: what people read (80 columns, cron mail), what scripts rely on (envelopes, exit
codes, formats), what must not happen (a report that writes the database), RAID controllers."""

from __future__ import annotations

import json
import os
import re
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import CORPUS, FIXTURES
from support.store import count_samples

from ssdwear.cli.app import App
from ssdwear.host.store.queries import Store
from ssdwear.render.history import sparkline_chart
from ssdwear.smartctl.replay import ReplayRunner

RAID = FIXTURES / "raid"


# -- output a person reads ---------------------------------------------------------------------------


@pytest.mark.parametrize("folder", ["intel", "qemu", "fleet", "raid/megaraid"])
@pytest.mark.parametrize("columns", [None, "80", "60"])
def test_nothing_that_identifies_a_drive_or_its_years_is_ever_cut(folder: str, columns: str | None) -> None:
    env = {"COLUMNS": columns} if columns else {"COLUMNS": ""}  # no COLUMNS and no terminal: cron mail
    result = ssdwear_cli(["--replay", str(FIXTURES / folder), "report", "--represents", "1d"], env=env)
    doc = json.loads(ssdwear_cli(["--replay", str(FIXTURES / folder), "report", "--represents", "1d", "--format",
                          "json"]).stdout)
    text = result.stdout
    limit = int(columns or 80)
    assert "…" not in text
    assert all(len(line) <= limit for line in text.splitlines()), [x for x in text.splitlines() if len(x) > limit]
    words = set(text.split())
    for d in doc["drives"]:
        for value in (d["device"], d["serial"], *(d["model"] or "").split()):
            if value:
                assert value in words or f"[{value}]" in words, value
        p = d["projection"]
        if p and p["years_remaining"] is not None:
            assert f"{p['years_remaining']:.1f}" in text or f"{p['years_remaining']:.0f}" in text
    if not columns:  # cron mail: plain text, one figure a line, no box drawing
        assert "┃" not in text and "│" not in text and "\n  used        " in text
        if any(d["projection"] for d in doc["drives"]):
            assert "\n  years left  " in text or "\n  new drive   " in text


@pytest.mark.parametrize("folder", ["intel", "qemu", "fleet", "raid/megaraid"])
def test_no_figure_or_model_is_ever_split_across_lines(folder: str) -> None:
    """Issue 17.18: wrapping split a model name, '(ata, ssd)', '31 % reads', '(1/1024 %)' or '18.7 (17.5-20.0)'
    across lines (at 90-100 columns, in table cells and in the lines under the table)."""
    import ssdwear
    from ssdwear.render.report import _kind, fmt_used, fmt_window, years_left, years_new

    reports = [r for r in ssdwear.read_drives(replay=str(FIXTURES / folder), represents="1d") if not r.error]
    phrases: set[str] = set()
    for r in reports:
        phrases |= {f"({_kind(r)})", fmt_used(r), years_left(r.projection),
                    years_new(r.projection), *fmt_window(r.window).split(", ")}
        if r.model and len(r.model) <= 30:
            phrases.add(r.model)
    phrases.discard("-")
    for columns in range(60, 161, 10):
        text = ssdwear_cli(["--no-history", "--replay", str(FIXTURES / folder), "report", "--represents", "1d"],
                   env={"COLUMNS": str(columns)}).stdout
        lines = text.splitlines()
        for phrase in phrases | ({"(1/1024 %)"} if "(1/1024" in text else set()):
            assert any(phrase in line for line in lines), (columns, phrase)


def test_numbers_read_the_same_everywhere() -> None:
    """Issue 17.18: '1765.2 years' in retire-check beside '1,765' in the report, '1.14e+04' %/year, '≥255 %' in the
    table beside '≥ 255 %' in retire-check. One form of each (ssdwear.model.units; years beyond 100 are the bound
    '> 100' everywhere, units.human_years)."""
    from ssdwear.model.units import percent_text, rate_text

    assert [rate_text(x) for x in (11402.3, 114.2, 21.74, 5.35, 0.0145, 0.0000123, 0.0)] == \
        ["11,402", "114", "21.7", "5.35", "0.0145", "0.0000123", "0"]
    assert percent_text(255, True) == "≥ 255 %" and percent_text(0.95507812) == "0.9551 %"
    old = str(CORPUS / "linuxhw-EnterpriseDrive__hgst-husmr7638bdp3y1__1.txt")
    table, verdict = ssdwear_cli(["analyze", old], env={"COLUMNS": "200"}).stdout, ssdwear_cli(["retire-check",
                                                                                                old]).stdout
    assert "│      > 100 │" in table and "> 100 years left, > 100 at the pessimistic end" in verdict
    assert "1765" not in table + verdict and "1,765" not in table + verdict
    worn = str(CORPUS / "linuxhw-EnterpriseDrive__toshiba-kxg50znv512g__1.txt")
    table, verdict = ssdwear_cli(["analyze", worn], env={"COLUMNS": "200"}).stdout, ssdwear_cli(["retire-check",
                                                                                                 worn]).stdout
    assert "│ ≥ 255 % │" in table and "wear used ≥ 255 % of rated endurance" in verdict
    files = sorted(str(f) for f in CORPUS.iterdir() if f.suffix in (".txt", ".json"))
    every = ssdwear_cli(["analyze", "--each", "--represents", "1d", *files], env={"COLUMNS": "200"}).stdout
    assert not re.findall(r"\d(?:\.\d+)?e[+-]\d+\b", every)  # never in exponent form


def test_scan_prints_a_table_not_tab_separated_lines() -> None:
    table = ssdwear_cli(["--replay", str(RAID / "megaraid"), "scan"], env={"COLUMNS": "80"}).stdout
    assert "┃ Device     ┃ Type           ┃" in table and "│ /dev/bus/0 │ sat+megaraid,1 │" in table
    plain = ssdwear_cli(["--replay", str(FIXTURES / "intel"), "scan"], env={"COLUMNS": ""}).stdout  # a pipe, cron mail
    assert plain.splitlines()[:2] == ["Device    Type", "/dev/sda  sat"] and "\t" not in table + plain


STUTTERS = ("window: window", "window no window", "65535 (reset)", "(RAID controller volume", "the timer was reset")


def test_the_words_never_stutter_nor_claim_a_reset_nobody_made(tmp_path: Path) -> None:
    """Issue 17.18: 'window window not valid yet', 'window no window', 'RAID volume (RAID controller volume (...))',
    and 'the timer was reset' said of drives no one is known to have reset."""
    corpus = str(CORPUS / "linuxhw-EnterpriseDrive__intel-ssdsa2cw120g3__1.txt")
    twice = tmp_path / "again.txt"
    twice.write_bytes(Path(corpus).read_bytes())  # two readings (serial masked: --same-drive) that give no rate
    config = tmp_path / "c.yaml"
    config.write_text('devices: [/dev/sda, {device: /dev/sda, type: "cciss,0"}]\n')
    runs = [(["--replay", str(FIXTURES / "intel"), "report"], {"COLUMNS": "160"}),
            (["--replay", str(FIXTURES / "intel"), "report"], {"COLUMNS": ""}),
            (["--replay", str(FIXTURES / "intel"), "status"], {"COLUMNS": ""}),
            (["analyze", "--same-drive", corpus, str(twice)], {"COLUMNS": ""}),
            (["--config", str(config), "--replay", str(RAID / "hpsa"), "report"], {"COLUMNS": ""})]
    for args, env in runs:
        text = " ".join(ssdwear_cli(["--no-history", *args], env=env).stdout.split())
        assert not [x for x in STUTTERS if x in text], (args, text)
    analyzed = ssdwear_cli(["--no-history", "analyze", "--same-drive", corpus, str(twice)], env={"COLUMNS": ""})
    blocks = " ".join(analyzed.stdout.split())
    assert "window not usable: 2 readings (" in blocks and blocks.count(" window ") == 1  # one line (issue 25.12)


def test_a_wide_terminal_gets_the_table() -> None:
    result = ssdwear_cli(["--replay", str(FIXTURES / "intel"), "report", "--represents", "1d"], env={"COLUMNS": "160"})
    assert "┃ Drive" in result.stdout and "18.7 (17.5-20.0)" in result.stdout


def test_analyze_and_retire_check_name_the_file() -> None:
    files = sorted(CORPUS.glob("smartctl_exporter__toshiba-kxg60znv512g__*.json"))
    doc = json.loads(ssdwear_cli(["analyze", "--format", "json", *map(str, files)]).stdout)
    assert [d["device"] for d in doc["drives"]] == [str(f) for f in files]  # both files say /dev/nvme2 inside
    verdict = ssdwear_cli(["retire-check", str(files[0])])
    assert verdict.stdout.splitlines()[0].endswith(str(files[0]))


def _chart(values: list[float]) -> list[str]:
    return sparkline_chart("t", [(float(i), v) for i, v in enumerate(values)], width=len(values), height=4)[1:-1]


def test_history_chart_draws_every_sample_including_the_lowest_and_flat_series() -> None:
    flat = _chart([5, 5, 5])
    assert flat[-1].endswith("███") and all(set(row.split("│")[1]) <= {" "} for row in flat[:-1])
    rising = _chart([1, 2, 3, 4])
    assert rising[-1].endswith("████") and rising[0].endswith("   █")  # lowest drawn, highest full height
    single = _chart([7])
    assert single[-1].endswith("█")
    reset = _chart([10, 20, 2])  # a counter reset: the drop shows
    assert reset[0].split("│")[1] == " █ " and reset[-1].split("│")[1] == "███"


def test_an_unreadable_drive_is_said_once_in_its_own_section(tmp_path: Path) -> None:
    folder = tmp_path / "machine"
    shutil.copytree(FIXTURES / "intel", folder)
    stem = folder / "smartctl --json=c -x -n standby -d sat _dev_sdc"
    Path(f"{stem}.out").write_text("smartctl 7.3\nSmartctl open device: /dev/sdc failed: No such device\n")
    Path(f"{stem}.rc").write_text("2\n")
    table = ssdwear_cli(["--replay", str(folder), "report"], env={"COLUMNS": "160"})
    assert table.exit_code == 3
    assert table.stdout.count("no such device") == 1 and "Could not be read (1):" in table.stdout
    assert table.stderr == ""
    as_json = ssdwear_cli(["--replay", str(folder), "report", "--format", "json"])
    assert as_json.stderr.count("/dev/sdc") == 1


def test_as_root_a_refused_device_is_not_told_to_become_root(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "machine"
    shutil.copytree(FIXTURES / "intel", folder)
    stem = folder / "smartctl --json=c -x -n standby -d sat _dev_sdc"
    Path(f"{stem}.out").write_text("smartctl 7.3\nSmartctl open device: /dev/sdc failed: Permission denied\n")
    Path(f"{stem}.rc").write_text("2\n")
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    error = json.loads(ssdwear_cli(["--replay", str(folder), "report", "--format",
                                    "json"]).stdout)["drives"][2]["error"]
    assert "run ssdwear as root" not in error and "it takes root" not in error
    assert "permission denied although ssdwear runs as root" in error and "-d sat" in error
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    error = json.loads(ssdwear_cli(["--replay", str(folder), "report", "--format",
                                    "json"]).stdout)["drives"][2]["error"]
    assert "it takes root" in error


# -- start ------------------------------------------------------------------------------------------


def test_start_without_drives_asks_for_names_or_all() -> None:
    runner = ReplayRunner(FIXTURES / "intel")
    result = ssdwear_cli(["start"], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 2 and "--all" in result.stderr and runner.calls == []


def test_start_refusals_keep_the_serial_and_say_why_once() -> None:
    result = ssdwear_cli(["start", "/dev/sdd", "-d", "sat", "--format", "json"],
                 App(runner=ReplayRunner(FIXTURES / "intel"), clock=lambda: T0))
    entry = json.loads(result.stdout)["results"][0]
    assert entry["serial"] == "S3Z9NB0K000000X" and entry["model"] == "Samsung SSD 860 EVO 1TB"
    assert entry["message"].count("vendor subcommands are undefined") == 1


# -- formats, envelopes, read-only commands, options anywhere ------------------------------------------------


ENVELOPE = {"schema", "ssdwear", "generated_at", "origin"}


@pytest.mark.parametrize("args,key", [
    (["--replay", "{intel}", "report"], "drives"),
    (["--replay", "{intel}", "status"], "drives"),
    (["--replay", "{intel}", "scan"], "devices"),
    (["--replay", "{intel}", "retire-check", "/dev/sdd", "-d", "sat"], "verdict"),
    (["analyze", "{corpus}"], "drives"),
])
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_every_document_has_the_envelope(args: list[str], key: str, fmt: str) -> None:
    corpus = str(CORPUS / "smartctl_exporter__toshiba-kxg60znv512g__1.json")
    argv = [a.format(intel=FIXTURES / "intel", corpus=corpus) for a in args] + ["--format", fmt]
    result = ssdwear_cli(argv)
    doc = json.loads(result.stdout) if fmt == "json" else yaml.safe_load(result.stdout)
    assert set(doc) >= ENVELOPE and key in doc and doc["schema"] == 3


def test_start_and_history_documents_have_the_envelope(tmp_path: Path) -> None:
    app = App(runner=ReplayRunner(FIXTURES / "intel"), clock=lambda: T0)
    started = json.loads(ssdwear_cli(["start", "/dev/sda", "-d", "sat", "--format", "json"], app).stdout)
    assert set(started) >= ENVELOPE and started["results"][0]["status"] == "reset"
    for fmt in ("json", "yaml"):
        out = ssdwear_cli(["history", "CVPR0000SEED710", "--format", fmt]).stdout
        doc = json.loads(out) if fmt == "json" else yaml.safe_load(out)
        assert set(doc) >= ENVELOPE and doc["drive"]["serial"] == "CVPR0000SEED710" and len(doc["samples"]) == 1


def test_an_empty_result_is_still_a_valid_document(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "smartctl --scan-open --json=c.out").write_text('{"smartctl": {"version": [7, 3]}}')
    for command in ("report", "status", "scan"):
        result = ssdwear_cli(["--replay", str(empty), command, "--format", "json"])
        doc = json.loads(result.stdout)
        assert result.exit_code == 1 and set(doc) >= ENVELOPE
        assert doc.get("drives", doc.get("devices")) == []


def test_read_only_commands_never_create_or_write_the_database(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=lambda: T0)
    for args in (["report"], ["status"], ["check"], ["retire-check", "/dev/sda", "-d", "sat"]):
        ssdwear_cli(["--db", str(db), *args], app)
        assert not db.exists(), args
    assert ssdwear_cli(["--db", str(db), "sample"], app).exit_code == 0
    before = db.stat().st_mtime_ns, Path(f"{db}-wal").read_bytes() if Path(f"{db}-wal").exists() else b""
    for args in (["report"], ["status"], ["check"], ["retire-check", "/dev/sda", "-d", "sat"]):
        ssdwear_cli(["--db", str(db), *args], app)
    with Store.open(db, write=False) as store:
        assert count_samples(store) == 2  # only sample's
    assert ssdwear_cli(["--db", str(db), "report", "--record"], app).exit_code == 0
    with Store.open(db, write=False) as store:
        assert count_samples(store) == 4
    assert before[0] <= db.stat().st_mtime_ns


def test_config_record_makes_report_store_samples(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("record: true\n")
    db = tmp_path / "h.db"
    ssdwear_cli(["--config", str(config), "--db", str(db), "report"], App(runner=ReplayRunner(FIXTURES / "fleet"),
                                                                    clock=lambda: T0))
    with Store.open(db, write=False) as store:
        assert count_samples(store) == 2


def test_global_options_work_before_or_after_the_command(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=lambda: T0)
    assert ssdwear_cli(["sample", "--db", str(db)], app).exit_code == 0 and db.exists()
    after = ssdwear_cli(["report", "--replay", str(FIXTURES / "intel"), "--no-history", "--format", "json"])
    before = ssdwear_cli(["--replay", str(FIXTURES / "intel"), "--no-history", "report", "--format", "json"])
    assert json.loads(after.stdout)["drives"] == json.loads(before.stdout)["drives"]
    assert ssdwear_cli(["report", "--smartctl",
                        str(tmp_path / "nope")]).stderr.startswith("ssdwear: smartctl not found")


@pytest.mark.parametrize("command", [["status"], ["scan"], ["report"]])
def test_fallback_replay_serves_the_reporting_commands(tmp_path: Path, command: list[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "smartctl --scan-open --json=c.out").write_text('{"smartctl": {"version": [7, 3]}}')
    result = ssdwear_cli(["--replay", str(empty), "--fallback-replay", str(FIXTURES / "intel"), *command])
    assert "reporting the recorded smartctl outputs in" in result.stderr
    assert "CVPR0000SEED710" in result.stdout or "/dev/sda" in result.stdout


@pytest.mark.parametrize("command", [["sample"], ["start", "--all"], ["measure", "--all"]])
def test_fallback_replay_is_refused_where_it_would_act_on_recordings(command: list[str]) -> None:
    result = ssdwear_cli(["--fallback-replay", str(FIXTURES / "intel"), *command])
    assert result.exit_code == 2 and "--fallback-replay is for the reporting commands" in result.stderr


def test_check_takes_no_format_and_says_so_in_plugin_terms() -> None:
    result = ssdwear_cli(["--replay", str(FIXTURES / "intel"), "check", "--format", "json"])
    assert result.exit_code == 3 and result.stdout.startswith("SSDWEAR UNKNOWN - usage:")


# -- RAID controllers -----------------------------------------------------------------------------------


def test_megaraid_volume_is_a_note_and_its_drives_are_read_by_serial(tmp_path: Path) -> None:
    result = ssdwear_cli(["--replay", str(RAID / "megaraid"), "report", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [(d["device"], d["device_type"], d["serial"]) for d in doc["drives"]] == [
        ("/dev/bus/0", "sat+megaraid,0", "BTWL402501AB240NGN"), ("/dev/bus/0", "sat+megaraid,1", "S3YZNB0KB00864E")]
    (volume,) = doc["raid_volumes"]
    assert volume["device"] == "/dev/sda" and "DELL or MegaRaid" in volume["controller"]
    assert "its 2 drives are read through the controller" in volume["note"]
    table = ssdwear_cli(["--replay", str(RAID / "megaraid"), "report"], env={"COLUMNS": "100"}).stdout
    assert "/dev/bus/0 sat+megaraid,1" in table.replace("\n", " ") and "RAID volumes (1):" in table


def test_two_drives_behind_one_path_are_never_a_swapped_drive(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    clock = {"now": T0}
    app = App(runner=ReplayRunner(RAID / "megaraid"), clock=lambda: clock["now"])
    for _ in range(3):
        assert ssdwear_cli(["--db", str(db), "sample"], app).exit_code == 0
        clock["now"] += timedelta(hours=1)
    doc = json.loads(ssdwear_cli(["--db", str(db), "report", "--format", "json"], app).stdout)
    assert not any("swapped" in w for d in doc["drives"] for w in d["warnings"])


def test_a_volume_smartctl_does_not_flag_is_recognised_by_its_inquiry() -> None:
    doc = json.loads(ssdwear_cli(["--replay", str(RAID / "megaraid-avago"), "report", "--format", "json"]).stdout)
    assert [v["controller"] for v in doc["raid_volumes"]] == ["AVAGO MR9361-16i"]
    assert all(d["device"] == "/dev/bus/0" for d in doc["drives"])


@pytest.mark.parametrize("folder,controller", [("smartpqi", "HPE LOGICAL VOLUME"), ("aacraid", "Adaptec RAID5"),
                                               ("areca", "Areca ARC-1226-VOL#000")])
def test_volumes_without_scanned_drives_say_how_to_name_them(folder: str, controller: str) -> None:
    result = ssdwear_cli(["--replay", str(RAID / folder), "report", "--format", "json"])
    (volume,) = json.loads(result.stdout)["raid_volumes"]
    assert volume["controller"] == controller and "name them in the config" in volume["note"]
    assert result.exit_code in (0, 1)  # a volume is a note, never a drive error


def test_hpsa_drives_named_in_the_config_and_the_volume_without_a_type(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text('devices: [/dev/sda, {device: /dev/sda, type: "cciss,0"}, {device: /dev/sda, type: "cciss,1"}]\n')
    result = ssdwear_cli(["--config", str(config), "--replay", str(RAID / "hpsa"), "report", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    # smartctl says 'sat' for these drives; ssdwear keeps the type it passed
    assert [d["device_type"] for d in doc["drives"]] == ["cciss,0", "cciss,1"]
    assert "requires option '-d cciss,N'" in doc["raid_volumes"][0]["controller"]


def test_start_reaches_an_intel_drive_through_megaraid(tmp_path: Path) -> None:
    runner = ReplayRunner(RAID / "megaraid")
    result = ssdwear_cli(["start", "/dev/bus/0", "-d", "sat+megaraid,0", "--format", "json"],
                 App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert ("-t", "vendor,0x40", "-d", "sat+megaraid,0", "/dev/bus/0") in runner.calls
    rejected = ssdwear_cli(["start", "/dev/bus/0", "-d", "sat+megaraid,0", "--format", "json"],
                   App(runner=ReplayRunner(RAID / "megaraid-reject"), clock=lambda: T0))
    assert rejected.exit_code == 5 and json.loads(rejected.stdout)["results"][0]["status"] == "rejected"


def test_the_reports_device_line_shows_the_pass_through_type() -> None:
    text = ssdwear_cli(["--replay", str(RAID / "megaraid"), "report"], env={"COLUMNS": ""}).stdout
    assert re.search(r"^/dev/bus/0 sat\+megaraid,0  INTEL SSDSC2BB240G4", text, re.M)


def test_samples_of_a_pass_through_drive_are_found_by_serial(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    ssdwear_cli(["--db", str(db), "sample"], App(runner=ReplayRunner(RAID / "megaraid"), clock=lambda: T0))
    with Store.open(db, write=False) as store:
        (found,) = store.find_drives("S3YZNB0KB00864E")
        assert [s.at for s in store.samples(found.key)] == [T0]
        assert [d.drive.serial for d in store.find_drives("/dev/bus/0 sat+megaraid,1")] == ["S3YZNB0KB00864E"]
