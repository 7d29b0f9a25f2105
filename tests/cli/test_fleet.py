"""Cron and fleets through the CLI: sample, history projections, check, config, textfile."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import FLEET_START, SteppedClock
from support.paths import FIXTURES
from support.store import count_samples

from ssdwear.cli.app import App
from ssdwear.smartctl.replay import ReplayRunner

RATINGS = """\
ratings:
  - model: MZQLB1T9HAJR
    tbw: 2733 TB
    note: Samsung PM983 1.92 TB datasheet
  - model: Samsung SSD 860 EVO 1TB
    tbw: 600 TB
"""


@pytest.fixture
def fleet(tmp_path: Path):
    clock = SteppedClock(FLEET_START)
    app = App(runner=ReplayRunner(FIXTURES / "fleet"), clock=clock)
    return app, clock


def test_two_samples_give_history_projections_for_nvme_and_ata(fleet, tmp_path: Path) -> None:
    app, clock = fleet
    config = tmp_path / "ssdwear.yaml"
    config.write_text(RATINGS)
    app.config_file = str(config)
    first = ssdwear_cli(["sample"], app)
    assert first.exit_code == 0 and first.output == ""  # quiet on success
    clock.now += timedelta(hours=24)
    assert ssdwear_cli(["sample"], app).exit_code == 0
    clock.now += timedelta(hours=24)
    report = ssdwear_cli(["report", "--format", "json"], app)
    drives = {d["device"]: d for d in json.loads(report.stdout)["drives"]}
    nvme, ata = drives["/dev/nvme0"], drives["/dev/sda"]
    # The 860 EVO's 177 counts its average erase cycles (60, 61, 62): its rate rests on them, times the wear per
    # cycle its three readings' whole percents allow (issue 19.4)
    p = ata["projection"]
    assert p["method"] == "history:used_fine_percent" and p["wear_class"] == "fine|u5"
    assert "rate from used_fine_percent (average_erase_count)" in ata["window"]["reason"]
    # 6 % used at 62 cycles, the true wear in [6, 7) %, intersected with the earlier readings: 0.0963-0.0989 % a cycle
    assert 2 * 0.0963 / 48 * 8760 < p["rates"]["recent"] < 2 * 0.0989 / 48 * 8760
    # and those readings together pin its wear finer than the whole percent: used_fine_percent from the readings
    fine = ata["used_fine"]
    assert fine["calibration"] == "readings" and fine["source"] == "average_erase_count"
    assert 6 <= fine["percent_low"] <= ata["used_fine_percent"] <= fine["percent_high"] < 7
    assert fine["uncertainty"] < 0.2
    assert p["percent_per_year_low"] < p["percent_per_year"] < p["percent_per_year_high"] < 2 * p["percent_per_year"]
    for d, source in ((nvme, "nvme_percentage_used"),):
        p = d["projection"]
        assert p["method"] == f"history:{source}", d["notes"]
        assert d["window"]["kind"] == "history" and d["readings"] == 3
        assert set(p["rates"]) == {"lifetime", "recent", "write_calibrated"}
        # Both indicators ticked once in these 48 hours: that alone would say 182 %/year; weighed against the
        # drive's own wear per byte and its writes, it does not.
        assert p["rates"]["recent"] == pytest.approx(1 / 48 * 8760)
        assert p["percent_per_year"] < 30 and p["years_remaining_low"] > 1
        assert p["percent_per_year_low"] < p["rates"]["write_calibrated"] < p["percent_per_year_high"]
    # PM983: 1,000,000 data units (512 GB) a day; 860 EVO: 200 GB a day (wall clock).
    assert nvme["writes"]["host_bytes_per_day"] == pytest.approx(512e9, rel=1e-6)
    assert ata["writes"]["host_bytes_per_day"] == pytest.approx(200e9, rel=1e-6)
    assert nvme["writes"]["rated_used_percent"] == pytest.approx(402e6 * 512_000 / 2733e12 * 100, abs=0.01)


def test_samples_seconds_apart_give_no_host_writes_a_day(fleet) -> None:
    app, clock = fleet
    assert ssdwear_cli(["sample"], app).exit_code == 0
    clock.now += timedelta(seconds=2)
    drives = json.loads(ssdwear_cli(["report", "--format", "json"], app).stdout)["drives"]
    assert [d["writes"]["host_bytes_per_day"] for d in drives] == [None, None]  # was 22.1 PB and 8.64 PB a day
    assert "/day" not in ssdwear_cli(["report"], app).stdout


def test_identical_readings_count_once_and_keep_the_lifetime_average(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "still"
    shutil.copytree(FIXTURES / "fleet", folder)
    for f in folder.glob("*@*"):
        f.unlink()  # every read answers the same: a drive republished unchanged
    clock = SteppedClock(FLEET_START)
    app = App(runner=ReplayRunner(folder), clock=clock)
    for _ in range(3):
        ssdwear_cli(["sample"], app)
        clock.now += timedelta(hours=6)
    d = json.loads(ssdwear_cli(["report", "--format", "json"], app).stdout)["drives"][0]
    assert d["projection"]["method"] == "lifetime-average" and d["readings"] == 1
    assert any("1 distinct reading(s)" in n and "lifetime average stands" in n for n in d["notes"])


def test_sample_names_the_failing_drive_and_exits_non_zero(tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "machine"
    shutil.copytree(FIXTURES / "fleet", folder)
    for f in folder.glob("*_dev_sda*"):
        f.unlink()
    result = ssdwear_cli(["sample"], App(runner=ReplayRunner(folder)))
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.startswith("ssdwear: /dev/sda: ")


def test_sample_refuses_a_corrupt_database_and_leaves_it(tmp_path: Path, monkeypatch) -> None:
    db = tmp_path / "broken.db"
    db.write_bytes(b"not sqlite at all" * 100)
    result = ssdwear_cli(["--db", str(db), "sample"], App(runner=ReplayRunner(FIXTURES / "fleet")))
    assert result.exit_code == 1 and "left untouched" in result.stderr
    assert db.read_bytes() == b"not sqlite at all" * 100


def test_history_command_formats(fleet) -> None:
    app, clock = fleet
    for _ in range(3):
        ssdwear_cli(["sample"], app)
        clock.now += timedelta(hours=24)
    csv = ssdwear_cli(["history", "S436NA0M000001", "--format", "csv"], app)
    lines = csv.stdout.splitlines()
    assert lines[0].startswith("at,power_on_hours,used_percent") and len(lines) == 4
    doc = json.loads(ssdwear_cli(["history", "/dev/sda", "--format", "json"], app).stdout)
    assert doc["drive"]["serial"] == "S3Z9NB0K000001X" and len(doc["samples"]) == 3
    chart = ssdwear_cli(["history", "S436NA0M000001"], app).stdout
    assert "Wear used" in chart and "Host writes (TB)" in chart and "█" in chart
    missing = ssdwear_cli(["history", "NOPE"], app)
    assert missing.exit_code == 1 and "no drive matching 'NOPE'" in missing.stderr


def test_history_without_a_drive_lists_the_drives_it_holds(fleet, tmp_path: Path) -> None:
    from ssdwear.host.store.queries import Store

    app, clock = fleet
    missing = ssdwear_cli(["history", "--format", "json"], App(clock=clock, db=str(tmp_path / "none.db")))
    assert missing.exit_code == 1 and "no history yet: nothing was stored at" in missing.stderr
    Store.open(tmp_path / "empty.db").close()
    empty = ssdwear_cli(["history", "--format", "json"], App(clock=clock, db=str(tmp_path / "empty.db")))
    assert empty.exit_code == 1 and json.loads(empty.stdout)["drives"] == [] and "no drive in" in empty.stderr
    for _ in range(3):
        ssdwear_cli(["sample"], app)
        clock.now += timedelta(hours=24)
    doc = json.loads(ssdwear_cli(["history", "--format", "json"], app).stdout)
    assert doc["drives"] == [
        {"serial": "S436NA0M000001", "model": "SAMSUNG MZQLB1T9HAJR-00007", "wwn": None, "interface": "nvme",
         "last_device": "/dev/nvme0", "samples": 3, "first_sample": "2026-11-01T00:00:00+00:00",
         "last_sample": "2026-11-03T00:00:00+00:00", "span_days": 2.0},
        {"serial": "S3Z9NB0K000001X", "model": "Samsung SSD 860 EVO 1TB", "wwn": "5002538000860002",
         "interface": "ata", "last_device": "/dev/sda", "samples": 3, "first_sample": "2026-11-01T00:00:00+00:00",
         "last_sample": "2026-11-03T00:00:00+00:00", "span_days": 2.0}]
    table = ssdwear_cli(["history"], app).stdout
    assert "S436NA0M000001" in table and "/dev/nvme0" in table and "2.0 d" in table and "Last device" in table
    csv = ssdwear_cli(["history", "--format", "csv"], app).stdout.splitlines()
    assert csv[0] == "serial,model,wwn,interface,last_device,samples,first_sample,last_sample,span_days"
    assert len(csv) == 3
    assert "S3Z9NB0K000001X" in ssdwear_cli(["history", "--format", "yaml"], app).stdout
    recent = json.loads(ssdwear_cli(["history", "--since", "50h", "--format", "json"], app).stdout)["drives"]
    assert [d["samples"] for d in recent] == [2, 2]  # the samples of the last 50 hours


@pytest.mark.parametrize("needle", ["nvme0", "/dev/nvme0", "s436na0m000001", "samsung mzqlb1t9hajr-00007",
                                    "S436NA0M000001"])
def test_history_finds_a_drive_in_any_case_and_without_dev(fleet, needle: str) -> None:
    app, _ = fleet
    ssdwear_cli(["sample"], app)
    doc = json.loads(ssdwear_cli(["history", needle, "--format", "json"], app).stdout)
    assert doc["drive"]["serial"] == "S436NA0M000001"


def test_history_finds_a_wwn_as_smartctl_prints_it(fleet) -> None:
    app, _ = fleet
    ssdwear_cli(["sample"], app)
    for needle in ("5 002538 000860002", "0x5002538000860002"):
        assert json.loads(ssdwear_cli(["history", needle, "--format", "json"], app).stdout)["drive"]["serial"] == \
            "S3Z9NB0K000001X"


def test_the_history_chart_has_a_time_axis(fleet) -> None:
    app, clock = fleet
    for _ in range(3):
        ssdwear_cli(["sample"], app)
        clock.now += timedelta(hours=24)
    lines = ssdwear_cli(["history", "sda"], app).stdout.splitlines()
    axis = [line for line in lines if line.lstrip().startswith("UTC")]
    assert len(axis) == 2  # under each chart
    bars = next(line for line in lines if line.startswith("       6 % │"))
    assert axis[0].index("2026-11-01 00:00") == bars.index("│") + 1  # the first column's time under it
    assert axis[0].rstrip().endswith("2026-11-03 00:00") and len(axis[0].rstrip()) == len(bars.rstrip())
    assert "2026-11-02 00:00" in axis[0]


def test_history_ignores_rows_dated_after_now_and_says_so(fleet) -> None:
    app, clock = fleet
    clock.now += timedelta(days=365)
    ssdwear_cli(["sample"], app)  # the clock a year ahead
    clock.now -= timedelta(days=365)
    ssdwear_cli(["sample"], app)
    result = ssdwear_cli(["history", "--format", "json"], app)
    assert [d["samples"] for d in json.loads(result.stdout)["drives"]] == [1, 1]
    assert result.stderr.count("dated after now") == 1
    one = ssdwear_cli(["history", "sda", "--format", "csv"], app)
    assert len(one.stdout.splitlines()) == 2 and "dated after now" in one.stderr


# -- cron and systemd: the shipped units, with and without node_exporter ------------------------------------


def shipped_commands() -> list[list[str]]:
    """The ssdwear arguments the shipped cron.d line and systemd unit run."""
    import shlex

    from support.paths import ROOT

    cron = [line for line in (ROOT / "contrib" / "cron.d-ssdwear").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    unit = [line.split("=", 1)[1] for line in (ROOT / "contrib" / "systemd" / "ssdwear-sample.service").read_text()
            .splitlines() if line.startswith("ExecStart=")]
    assert len(cron) == 1 and len(unit) == 1
    command = cron[0].split(None, 6)[6]  # minute hour day month weekday user: then the shell command
    assert command.startswith("[ -x /usr/local/bin/ssdwear ] && ")  # nothing runs once the command is gone
    commands = [shlex.split(command.rsplit("&&", 1)[1]), shlex.split(unit[0])]
    for argv in commands:
        assert argv[0] == "/usr/local/bin/ssdwear"
    return [argv[1:] for argv in commands]


@pytest.mark.parametrize("node_exporter", [False, True])
def test_the_shipped_units_work_with_or_without_node_exporter(isolated: Path, node_exporter: bool) -> None:
    """Issue 17.13: the units hard-coded --textfile /var/lib/prometheus/node-exporter, so on a host without it
    sample stored nothing and cron mailed click's 'Directory does not exist' every hour. Now they name no
    directory; the system config's textfile_dir (as docs/monitoring.md says) adds the textfile where node_exporter
    is."""
    from ssdwear.host.store.queries import Store

    textfile_dir = isolated / "node-exporter"
    if node_exporter:
        textfile_dir.mkdir()
        (isolated / "etc-config.yaml").write_text(f"textfile_dir: {textfile_dir}\n")  # /etc/ssdwear/config.yaml
    for n, argv in enumerate(shipped_commands(), 1):
        # A directory named here would be this machine's real one (and missing on a host without node_exporter).
        assert "--textfile" not in argv
        result = ssdwear_cli(argv, App(runner=ReplayRunner(FIXTURES / "fleet"), clock=lambda: FLEET_START))
        assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""  # cron mails nothing
        with Store.open(isolated / "history.db", write=False) as store:
            assert count_samples(store) == 2 * n
        assert (textfile_dir / "ssdwear.prom").is_file() == node_exporter


def test_sample_stores_the_samples_whatever_happens_to_the_textfile(isolated: Path) -> None:
    from ssdwear.host.store.queries import Store

    missing = isolated / "no-node-exporter"
    result = ssdwear_cli(["sample", "--textfile", str(missing)], App(runner=ReplayRunner(FIXTURES / "fleet")))
    assert result.exit_code == 3 and result.stdout == ""  # not click's usage error (exit 2)
    assert result.stderr == (f"ssdwear: warning: textfile not written: {missing} does not exist (node_exporter's "
                             "textfile directory: create it, or drop --textfile / textfile_dir); the samples are "
                             "stored\n")
    with Store.open(isolated / "history.db", write=False) as store:
        assert count_samples(store) == 2
    assert not missing.exists()


def test_sample_no_history_writes_the_textfile_only(isolated: Path) -> None:
    textfile_dir = isolated / "prom"
    textfile_dir.mkdir()
    result = ssdwear_cli(["--no-history", "sample", "--textfile", str(textfile_dir)],
                    App(runner=ReplayRunner(FIXTURES / "fleet")))
    assert result.exit_code == 0 and result.output == ""
    assert "ssdwear_used_ratio" in (textfile_dir / "ssdwear.prom").read_text()
    assert not (isolated / "history.db").exists()


# -- check (Nagios) --------------------------------------------------------------------------------


def check(args: list[str], folder: str = "intel", config: str | None = None, tmp_path: Path | None = None):
    app = App(runner=ReplayRunner(FIXTURES / folder), clock=lambda: FLEET_START, no_history=True)
    if config is not None and tmp_path is not None:
        path = tmp_path / "c.yaml"
        path.write_text(config)
        app.config_file = str(path)
    return ssdwear_cli(["check", *args], app)


def nagios(output: str) -> tuple[str, str, list[str], list[str]]:
    """The plugin output as Nagios core reads it: line 1's status text and perfdata, the long-output lines, and the
    perfdata after the first '|' below line 1, with every line after it (the guidelines' multi-line format)."""
    first, *rest = output.rstrip("\n").split("\n")
    text, _, perf = first.partition("|")
    long_lines: list[str] = []
    perf_lines: list[str] = []
    for i, line in enumerate(rest):
        if "|" in line:
            before, _, after = line.partition("|")
            long_lines.append(before.rstrip())
            perf_lines = [after.strip(), *rest[i + 1:]]
            break
        long_lines.append(line)
    return text.strip(), perf.strip(), long_lines, perf_lines


def test_check_ok_with_perfdata(tmp_path: Path) -> None:
    result = check([], config="represents: 1d\n", tmp_path=tmp_path)
    assert result.exit_code == 0
    text, perf, long_lines, perf_lines = nagios(result.stdout)
    # The pessimistic end is what the thresholds judge (for the 320's timed window: one E2h step faster).
    assert text == "SSDWEAR OK - 4 drives OK, least life left: /dev/sdb 4.5 years at the pessimistic end"
    # Line 1 carries a few aggregate figures only; each drive's perfdata is on the long-output lines.
    assert perf == ("'drives'=4;;;0; 'drives_warning'=0;;;0; 'drives_critical'=0;;;0; 'drives_unknown'=0;;;0; "
                    "'years_left_low_min'=4.52;2:;0.5:;0; 'used_max'=15%;80;100;0;")
    assert len(long_lines) == 4 and all(line.split()[0].startswith("/dev/sd") for line in long_lines)
    assert any(line.startswith("/dev/sda INTEL SSDSA2BZ200G3 [CVPR0000SEED710]: OK: 0 % used, 18.7 years left (17.5 "
                               "pessimistic; timed-workload), wears out ") for line in long_lines)
    assert len(perf_lines) == 4  # one drive a line
    assert "'used_CVPR0000SEED710'=0%;80;100;0; 'years_left_CVPR0000SEED710'=18.70;;;0; " \
           "'years_left_low_CVPR0000SEED710'=17.53;2:;0.5:;0; 'tbw_used_CVPR0000SEED710'=0.01%;80;100;0; " \
           "'written_CVPR0000SEED710'=67108864000B;;;0;" in perf_lines


def test_check_warning_from_flags_says_the_percent_used(tmp_path: Path) -> None:
    result = check(["--warning-years", "5"], config="represents: 1d\n", tmp_path=tmp_path)
    assert result.exit_code == 1
    text, perf, long_lines, perf_lines = nagios(result.stdout)
    assert text == ("SSDWEAR WARNING - 1 of 4 drives: /dev/sdb INTEL SSDSA2CW120G3 [CVPR0000SEED320]: 0 % used; "
                    "4.6 years left, 4.5 at the fast end of the counter's resolution (timed-workload)")
    assert "'drives_warning'=1;;;0;" in perf and "'years_left_low_min'=4.52;5:;0.5:;0;" in perf
    assert long_lines[0].startswith("/dev/sdb INTEL SSDSA2CW120G3 [CVPR0000SEED320]: WARNING: 0 % used; 4.6 years")
    assert "'years_left_CVPR0000SEED320'=4.60;;;0; 'years_left_low_CVPR0000SEED320'=4.52;5:;0.5:;0;" in perf_lines[0]


def test_check_line_one_stays_short_on_a_large_machine(tmp_path: Path) -> None:
    """40 drives all in WARNING: line 1 names as many as fit and counts the rest, under NRPE 2's 1 KB; every
    drive keeps its line and its perfdata below."""
    import shutil

    folder = tmp_path / "jbod"
    folder.mkdir()
    one = (FIXTURES / "fleet" / "smartctl --json=c -x -n standby -d nvme _dev_nvme0.out").read_text()
    devices = []
    for i in range(40):
        name = f"/dev/nvme{i}"
        devices.append({"name": name, "info_name": name, "type": "nvme", "protocol": "NVMe"})
        stem = f"smartctl --json=c -x -n standby -d nvme _dev_nvme{i}"
        (folder / f"{stem}.out").write_text(one.replace("S436NA0M000001", f"S436NA0M{i:06d}")
                                            .replace('"/dev/nvme0"', f'"{name}"'))
        (folder / f"{stem}.rc").write_text("0\n")
    scan = FIXTURES / "fleet" / "smartctl --scan-open --json=c.out"
    doc = json.loads(scan.read_text())
    doc["devices"] = devices
    (folder / scan.name).write_text(json.dumps(doc))
    shutil.copy(FIXTURES / "fleet" / "smartctl --scan-open --json=c.rc", folder)
    result = check(["--warning-used", "5"], folder=str(folder))
    assert result.exit_code == 1
    first = result.stdout.split("\n")[0]
    assert len(first.encode()) < 1024, len(first.encode())
    text, perf, long_lines, perf_lines = nagios(result.stdout)
    assert text.startswith("SSDWEAR WARNING - 40 of 40 drives: /dev/nvme") and text.endswith("more (below)")
    assert perf.count("=") == 6
    assert len(long_lines) == 40 and len(perf_lines) == 40
    assert all(f"'used_S436NA0M{i:06d}'=" in " ".join(perf_lines) for i in range(40))


def test_drive_warnings_reach_the_check_output(tmp_path: Path) -> None:
    """A drive whose wear indicators disagree (a real Intel 545s output in place of /dev/sdd): the check says so
    on the drive's line, and counts it on line 1."""
    import shutil

    from support.paths import CORPUS

    folder = tmp_path / "machine"
    shutil.copytree(FIXTURES / "intel", folder)
    read = folder / "smartctl --json=c -x -n standby -d sat _dev_sdd.out"
    read.write_bytes((CORPUS / "linuxhw-EnterpriseDrive__intel-ssdsc2kw256g8__1.txt").read_bytes())
    result = check([], folder=str(folder), config="represents: 1d\n", tmp_path=tmp_path)
    assert result.exit_code == 0
    text, _, long_lines, _ = nagios(result.stdout)
    line = next(x for x in long_lines if x.startswith("/dev/sdd "))
    assert "OK: 7 % used" in line
    assert "warning: wear indicators disagree: attribute 233 Media_Wearout_Indicator" in line
    assert text.endswith("; 1 more with warnings (below)")


def test_a_bar_in_a_drive_string_cannot_end_the_status_text(tmp_path: Path) -> None:
    """Issue 16: a '|' in a model string ended check's status text early; the rest was read as perfdata."""
    import shutil

    folder = tmp_path / "machine"
    shutil.copytree(FIXTURES / "intel", folder)
    read = folder / "smartctl --json=c -x -n standby -d sat _dev_sdd.out"
    read.write_text(read.read_text().replace("Samsung SSD 860 EVO 1TB", "Samsung|SSD 860 EVO 1TB"))
    result = check(["--warning-used", "5"], folder=str(folder), config="represents: 1d\n", tmp_path=tmp_path)
    assert result.exit_code == 1
    text, perf, long_lines, perf_lines = nagios(result.stdout)
    assert "/dev/sdd Samsung\\x7cSSD 860 EVO 1TB [S3Z9NB0K000000X]: wear used 5 % of rated endurance" in text
    assert perf.startswith("'drives'=4;") and "Samsung" not in perf
    assert any(x.startswith("/dev/sdd Samsung\\x7cSSD 860 EVO 1TB") for x in long_lines)
    assert all(x.startswith("'") for x in perf_lines)


def test_check_refuses_fallback_replay(tmp_path: Path) -> None:
    """Issue 16: on a machine without drives, --fallback-replay made check answer OK from the recordings, with the
    only hint on stderr (which Nagios drops). A monitoring check never reports recorded drives as this machine's."""
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "smartctl --scan-open --json=c.out").write_text('{"smartctl": {"version": [7, 3]}}')
    app = App(runner=ReplayRunner(empty), clock=lambda: FLEET_START, no_history=True)
    for args in (["--fallback-replay", str(FIXTURES / "intel"), "check"],
                 ["check", "--fallback-replay", str(FIXTURES / "intel")]):
        result = ssdwear_cli(args, app)
        assert result.exit_code == 3
        assert result.stdout.startswith("SSDWEAR UNKNOWN - --fallback-replay refused: a monitoring check reports "
                                        "this machine's drives")
        assert len(result.stdout.strip().splitlines()) == 1 and "CVPR0000SEED710" not in result.stdout


def test_check_critical_from_config_thresholds(tmp_path: Path) -> None:
    result = check([], config="represents: 1d\nthresholds:\n  years_remaining: {warning: 30, critical: 20}\n",
                   tmp_path=tmp_path)
    assert result.exit_code == 2 and result.stdout.startswith("SSDWEAR CRITICAL - ")


def test_check_critical_on_a_failing_nvme() -> None:
    result = check(["/dev/nvme1", "-d", "nvme"], folder="qemu")
    assert result.exit_code == 2
    assert "SMART overall-health self-assessment: FAILED" in result.stdout


@pytest.mark.parametrize("args", [["--warning-years", "soon"], ["--bogus"],
                                  ["--warning-years", "1", "--critical-years", "2"]])
def test_check_usage_errors_are_unknown(args: list[str]) -> None:
    result = check(args)
    assert result.exit_code == 3 and result.stdout.startswith("SSDWEAR UNKNOWN - ")
    assert len(result.stdout.strip().splitlines()) == 1


def test_check_unreadable_drive_is_unknown(tmp_path: Path) -> None:
    result = check(["/dev/sdz", "-d", "sat"])
    assert result.exit_code == 3 and "cannot read" in result.stdout


# -- configuration ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text,where", [
    ("workers: many\n", "c.yaml:1: workers: expected a whole number"),
    ("thresholds:\n  years_remaining:\n    warn: 1\n", "c.yaml:3: thresholds.years_remaining.warn"),
    ("ratings:\n  - model: X\n", "c.yaml:2: ratings[0]: needs 'tbw'"),
    ("devices: [\n", "c.yaml:2: not valid YAML"),
    ("colour: red\n", "c.yaml:1: colour: unknown key"),
])
def test_bad_config_is_one_line_naming_file_line_and_key(tmp_path: Path, text: str, where: str) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(text)
    result = ssdwear_cli(["--config", str(config), "report"], App(runner=ReplayRunner(FIXTURES / "intel")))
    assert result.exit_code == 1
    assert len(result.stderr.strip().splitlines()) == 1 and where in result.stderr


def test_config_devices_and_textfile_dir(tmp_path: Path) -> None:
    textfile = tmp_path / "prom"
    textfile.mkdir()
    config = tmp_path / "c.yaml"
    config.write_text(f"devices:\n  - {{device: /dev/nvme0, type: nvme}}\ntextfile_dir: {textfile}\n")
    runner = ReplayRunner(FIXTURES / "fleet")
    result = ssdwear_cli(["--config", str(config), "sample"], App(runner=runner))
    assert result.exit_code == 0
    assert [c[-1] for c in runner.calls] == ["/dev/nvme0"]  # no scan: the config names the drives
    assert "ssdwear_used_ratio" in (textfile / "ssdwear.prom").read_text()


def test_missing_explicit_config_is_an_error(tmp_path: Path) -> None:
    result = ssdwear_cli(["--config", str(tmp_path / "none.yaml"), "report"],
                         App(runner=ReplayRunner(FIXTURES / "intel")))
    assert result.exit_code == 1 and "no such config file" in result.stderr


def test_the_shipped_example_config_sets_nothing_and_states_the_defaults(tmp_path: Path) -> None:
    """The example is installed as /etc/ssdwear/config.yaml (a conffile): as shipped it must set nothing, so that
    a later release's defaults are not shadowed; its commented thresholds, uncommented, are today's defaults."""
    import re
    from dataclasses import replace

    from support.paths import ROOT

    from ssdwear.assess.thresholds import DEFAULT_THRESHOLDS
    from ssdwear.host import config

    example = ROOT / "contrib" / "config.yaml.example"
    assert replace(config.load([example]), files=()) == config.Config()
    lines = example.read_text().splitlines()
    start = lines.index("#thresholds:")
    block = [lines[start]] + [x for x in lines[start + 1:start + 5] if x.startswith("#  ")]
    uncommented = tmp_path / "thresholds.yaml"
    uncommented.write_text("\n".join(re.sub(r"^#", "", x) for x in block) + "\n")
    assert config.load([uncommented]).thresholds == DEFAULT_THRESHOLDS


def test_config_smartctl_options_reach_the_real_smartctl(fake_smartctl, tmp_path: Path) -> None:
    smartctl, log = fake_smartctl(FIXTURES / "intel")
    config = tmp_path / "c.yaml"
    config.write_text('smartctl_options: ["-T", "permissive"]\n')
    result = ssdwear_cli(["--smartctl", str(smartctl), "--config", str(config), "report", "/dev/sda", "-d", "sat"],
                    App())
    assert log.read_text().splitlines() == ["-T permissive --json=c -x -n standby -d sat /dev/sda"]
    assert result.exit_code == 1  # the fake has no recording for that argv: the drive could not be read


def test_config_interval_level_is_one_of_the_calibrated_levels(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("interval_level: 0.7\n")
    bad = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"],
                      App(clock=lambda: FLEET_START))
    assert bad.exit_code == 1 and f"{config}:1: interval_level: must be one of 0.5, 0.8, 0.9" in bad.stderr
    config.write_text("interval_level: 0.9\n")
    good = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report", "--format", "json"],
                  App(clock=lambda: FLEET_START))
    by_device = {d["device"]: d for d in json.loads(good.stdout)["drives"]}
    assert by_device["/dev/sdd"]["projection"]["interval_level"] == 0.9
    assert by_device["/dev/sda"]["projection"]["interval_level"] is None  # the timed window: resolution only


def test_a_stored_sample_holding_text_is_left_out_with_a_warning(fleet, tmp_path: Path) -> None:
    """The database is untrusted: text where a count belongs was 'internal error' for the drive in report and
    stopped plan --from."""
    import sqlite3

    app, clock = fleet
    for _ in range(3):
        assert ssdwear_cli(["sample"], app).exit_code == 0
        clock.now += timedelta(hours=24)
    with sqlite3.connect(tmp_path / "history.db") as db:
        db.execute("UPDATE samples SET host_w = 'a lot' WHERE t = (SELECT max(t) FROM samples)")
    warning = "ignored: the database was changed outside ssdwear"
    for args in (["report"], ["history"], ["plan", "--from", "S3Z9NB0K000001X"]):
        result = ssdwear_cli(args, app)
        assert result.exit_code == 0 and warning in result.stderr, (args, result.stderr)
