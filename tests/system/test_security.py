"""Hardening: ssdwear runs as root and trusts no file, drive string or database it did not write.

One test (or a few) per finding of the security review: each reproduces the attack or the bad day with a fake
smartctl, a crafted file or a damaged database, and checks that ssdwear now refuses it or carries on.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.builders import attr, intel
from support.cli import ssdwear_cli
from support.clock import T0
from support.edited import edited_machine
from support.paths import FIXTURES, ROOT
from support.store import count_samples

from ssdwear.cli.app import App
from ssdwear.drives import families, timed
from ssdwear.drives import intel as intel_rows
from ssdwear.host.store.queries import Store
from ssdwear.model.errors import StoreError
from ssdwear.model.records import DriveId, Sample
from ssdwear.smartctl.parse import MAX_INPUT_BYTES, parse_output
from ssdwear.smartctl.replay import ReplayRunner, fixture_name

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the trust rules apply to root (CI runs as root)")
OTHER_UID = 1000  # any uid that is not root's


def machine(tmp_path: Path, base: str = "intel", edits: dict[str, Callable[[dict[str, Any]], object]] | None = None
            ) -> Path:
    return edited_machine(tmp_path, base, edits)


def set_attr_raw(attr_id: int, raw: int) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        for row in doc.get("ata_smart_attributes", {}).get("table", []):
            if row["id"] == attr_id:
                row["raw"] = {"value": raw, "string": str(raw)}
    return edit


READ_SDA = ["--json=c", "-x", "-n", "standby", "-d", "sat", "/dev/sda"]


def write_machine_file(folder: Path, args: list[str], out: str | bytes, rc: int = 0) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = out.encode() if isinstance(out, str) else out
    (folder / f"{fixture_name(args)}.out").write_bytes(data)
    (folder / f"{fixture_name(args)}.rc").write_text(f"{rc}\n")


# ------------------------------------------------------------------------------------------------
# 1. Config files and smartctl binaries


@as_root
@pytest.mark.parametrize("how", ["other owner", "group-writable", "world-writable", "directory writable by others"])
def test_root_refuses_a_config_file_others_can_change(tmp_path: Path, how: str) -> None:
    folder = tmp_path / "conf"
    folder.mkdir()
    config = folder / "config.yaml"
    config.write_text("smartctl: /usr/sbin/smartctl\n")
    if how == "other owner":
        os.chown(config, OTHER_UID, OTHER_UID)
    elif how == "group-writable":
        config.chmod(0o664)
    elif how == "world-writable":
        config.chmod(0o646)
    else:
        folder.chmod(0o777)
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1 and result.stdout == ""
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith(f"ssdwear: refusing config file {config}")
    expected = {"other owner": f"uid {OTHER_UID}", "group-writable": "writable by its group, mode 0664",
                "world-writable": "writable by others, mode 0646",
                "directory writable by others": f"its directory {folder} is writable by group and others"}[how]
    assert expected in line


@as_root
def test_root_refuses_the_users_own_config_under_sudo_with_home_kept(tmp_path: Path) -> None:
    user_config = tmp_path / "config" / "ssdwear" / "config.yaml"  # XDG_CONFIG_HOME points at tmp_path/config
    user_config.parent.mkdir(parents=True)
    user_config.write_text("smartctl: /home/user/evil\n")
    os.chown(user_config, OTHER_UID, OTHER_UID)
    result = ssdwear_cli(["--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1 and f"refusing config file {user_config}" in result.stderr


@as_root
def test_root_reads_a_config_only_root_can_change(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("workers: 2\n")
    config.chmod(0o644)
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 0, result.stderr


def test_without_root_the_users_own_config_is_read(tmp_path: Path, monkeypatch) -> None:
    """The ownership rule protects root only: a normal user's own config is theirs to write."""
    config = tmp_path / "config.yaml"
    config.write_text("workers: 3\n")
    config.chmod(0o664)
    if os.geteuid() == 0:
        os.chown(config, OTHER_UID, OTHER_UID)
    monkeypatch.setattr(os, "geteuid", lambda: OTHER_UID)
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 0, result.stderr


def test_config_smartctl_must_be_an_absolute_path(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("smartctl: ./smartctl\n")
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1
    assert f"{config}:1: smartctl: must be an absolute path" in result.stderr


@as_root
@pytest.mark.parametrize("how", ["world-writable", "other owner"])
def test_root_refuses_a_smartctl_binary_others_can_change(fake_smartctl, tmp_path: Path, how: str) -> None:
    smartctl, log = fake_smartctl(FIXTURES / "intel")
    if how == "world-writable":
        smartctl.chmod(0o777)
    else:
        os.chown(smartctl, OTHER_UID, OTHER_UID)
    result = ssdwear_cli(["--smartctl", str(smartctl), "report"], App())
    assert result.exit_code == 1 and f"refusing smartctl binary {smartctl}" in result.stderr
    assert not log.exists()  # never run


# ------------------------------------------------------------------------------------------------
# 2. Absurd counters


def test_all_ones_counter_is_dropped_and_every_drive_is_sampled(tmp_path: Path) -> None:
    folder = machine(tmp_path, edits={"/dev/sda": lambda d: (set_attr_raw(241, 0xFFFFFFFFFFFF)(d),
                                                             set_attr_raw(225, 0xFFFFFFFFFFFF)(d))})
    textfile = tmp_path / "prom"
    textfile.mkdir()
    result = ssdwear_cli(["sample", "--textfile", str(textfile)], App(runner=ReplayRunner(folder), clock=lambda: T0))
    assert result.exit_code == 0, result.stderr
    with Store.open(tmp_path / "history.db") as store:
        assert count_samples(store) == 4  # every drive, the absurd one included
    assert (textfile / "ssdwear.prom").read_text().count("ssdwear_read_ok{") == 4
    report = ssdwear_cli(["--replay", str(folder), "report", "/dev/sda", "-d", "sat", "--format", "json"])
    drive = json.loads(report.stdout)["drives"][0]
    # the sane Device Statistics counter wins over the 0xFFFFFFFFFFFF attribute
    assert drive["writes"]["host_bytes_written"] == 2_000 * 65536 * 512
    assert "Device Statistics" in drive["writes"]["sources"]["host_bytes_written"]
    assert any("more than this drive can have transferred" in w for w in drive["warnings"])


def test_a_counter_beyond_floats_does_not_break_prometheus(tmp_path: Path) -> None:
    def huge(doc: dict[str, Any]) -> None:
        doc["nvme_smart_health_information_log"]["data_units_written"] = 10**400
        doc["nvme_smart_health_information_log"]["media_errors"] = -1
    folder = machine(tmp_path, "fleet", {"/dev/nvme0": huge})
    result = ssdwear_cli(["--no-history", "--replay", str(folder), "report", "--format", "prometheus"])
    assert result.exit_code == 0, result.stderr
    assert "ssdwear_host_written_bytes_total{device=\"/dev/nvme0\"" not in result.stdout
    assert "ssdwear_media_errors_total{device=\"/dev/nvme0\"" not in result.stdout
    assert "ssdwear_used_ratio{device=\"/dev/nvme0\"" in result.stdout  # the rest of the drive is still there


def test_a_sample_that_does_not_fit_is_that_drives_error_only(tmp_path: Path) -> None:
    with Store.open(tmp_path / "h.db") as store:
        good = Sample(at=T0, power_on_hours=10, host_bytes_written=1000)
        bad = Sample(at=T0, power_on_hours=10, host_bytes_written=1 << 70)
        rejected = store.add_samples([(DriveId("M", "A", None, "ata"), good, "/dev/sda"),
                                      (DriveId("M", "B", None, "ata"), bad, "/dev/sdb")])
        assert set(rejected) == {"M|B"} and "64-bit" in rejected["M|B"]
        assert count_samples(store) == 1 and store.samples("M|A")[0].host_bytes_written == 1000


def test_a_drive_whose_assessment_fails_is_that_drives_error(tmp_path: Path, monkeypatch) -> None:
    from ssdwear.assess import report as assess

    real = assess.assess

    def flaky(snap, ctx):
        if snap.serial == "CVPR0000SEED320":
            raise ZeroDivisionError("injected")
        return real(snap, ctx)

    monkeypatch.setattr(assess, "assess", flaky)
    textfile = tmp_path / "prom"
    textfile.mkdir()
    result = ssdwear_cli(["sample", "--textfile", str(textfile)],
                         App(runner=ReplayRunner(FIXTURES / "intel"), clock=lambda: T0), internal_error_ok=True)
    assert result.exit_code == 3
    assert "ssdwear: /dev/sdb: internal error assessing this drive (ZeroDivisionError: injected)" in result.stderr
    with Store.open(tmp_path / "history.db") as store:
        assert count_samples(store) == 3
    assert 'ssdwear_read_ok{device="/dev/sdb",reason="internal"} 0' in (textfile / "ssdwear.prom").read_text()


# ------------------------------------------------------------------------------------------------
# 3. A damaged history database


def _sampled_db(tmp_path: Path) -> Path:
    db = tmp_path / "history.db"
    for _ in range(3):
        assert ssdwear_cli(["sample"], App(runner=ReplayRunner(FIXTURES / "fleet"), clock=lambda: T0)).exit_code == 0
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db


def _damage_page(db: Path, page: int) -> None:
    data = bytearray(db.read_bytes())
    data[(page - 1) * 4096:page * 4096] = b"\xff" * 4096
    db.write_bytes(bytes(data))


@pytest.mark.slow
def test_a_damaged_database_is_one_clear_error_for_sample_and_a_warning_for_report(tmp_path: Path) -> None:
    db = _sampled_db(tmp_path)
    pages = db.stat().st_size // 4096
    outcomes = set()
    for page in range(2, pages + 1):
        pristine = db.read_bytes()
        _damage_page(db, page)
        damaged = db.read_bytes()
        # in a process of its own with a deadline: a retry loop on a damaged index would spin forever
        textfile = tmp_path / f"prom{page}"
        textfile.mkdir()
        proc = subprocess.run([sys.executable, "-m", "ssdwear", "--db", str(db), "--replay",
                               str(FIXTURES / "fleet"), "sample", "--textfile", str(textfile)],
                              capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
        assert (textfile / "ssdwear.prom").exists()  # monitoring goes on either way
        if proc.returncode != 0:
            assert proc.returncode == 1
            assert f"history database {db} is damaged" in proc.stderr and f"sqlite3 {db} .recover" in proc.stderr
            assert db.read_bytes() == damaged  # left untouched
            outcomes.add("sample refused")
            # report only reads: it goes on, with a warning when the damage is on its way
            report = ssdwear_cli(["--db", str(db), "--replay", str(FIXTURES / "fleet"), "report", "--format", "json"])
            assert report.exit_code == 0 and len(json.loads(report.stdout)["drives"]) == 2
            assert "internal error" not in report.stderr
            assert db.read_bytes() == damaged
        db.write_bytes(pristine)
        for side in ("-wal", "-shm"):
            Path(f"{db}{side}").unlink(missing_ok=True)
    assert "sample refused" in outcomes


def _trigger(db: Path, message: str) -> None:
    con = sqlite3.connect(db)
    con.execute(f"CREATE TRIGGER boom BEFORE INSERT ON samples BEGIN SELECT RAISE(ABORT, '{message}'); END")
    con.commit()
    con.close()


def test_only_the_time_collision_is_retried_and_only_so_often(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    Store.open(db).close()
    _trigger(db, "UNIQUE constraint failed: samples.drive_id, samples.t")  # a collision that never ends
    with Store.open(db) as store, pytest.raises(StoreError, match="damaged"):
        store.add_samples([(DriveId("M", "A", None, "ata"), Sample(at=T0, power_on_hours=1), None)])
    db2 = tmp_path / "h2.db"
    Store.open(db2).close()
    _trigger(db2, "NOT NULL constraint failed: samples.poh")  # any other integrity error: not a collision
    with Store.open(db2) as store, pytest.raises(StoreError, match="damaged"):
        store.add_samples([(DriveId("M", "A", None, "ata"), Sample(at=T0, power_on_hours=1), None)])


# ------------------------------------------------------------------------------------------------
# 4. Terminal and markup injection

ESC = "\x1b]0;pwned\x07\x1b[2J"


def _hostile_intel(doc: dict[str, Any]) -> None:
    """A real Intel drive whose serial and firmware carry rich markup and whose family carries escapes."""
    doc["serial_number"] = "[/]"
    doc["firmware_version"] = "[bold red]x[link=http://e]"
    doc["model_family"] = "Intel 710 Series SSDs" + ESC


def _hostile_model(doc: dict[str, Any]) -> None:
    doc["model_name"] = "Samsung SSD 860 EVO 1TB" + ESC


def test_control_characters_and_markup_from_a_drive_never_reach_the_terminal(tmp_path: Path) -> None:
    folder = machine(tmp_path, edits={"/dev/sda": _hostile_intel, "/dev/sdd": _hostile_model})
    for args in (["report"], ["status"], ["start", "/dev/sda", "-d", "sat"], ["check"],
                 ["retire-check", "/dev/sda", "-d", "sat"], ["report", "--format", "json"],
                 ["report", "--format", "yaml"], ["report", "--format", "prometheus"]):
        result = ssdwear_cli(["--replay", str(folder), "--db", str(tmp_path / "h.db"), *args])
        out = result.stdout + result.stderr
        assert "\x1b" not in out and "\x07" not in out, args
        assert result.exit_code in (0, 2, 3, 4, 10, 11), (args, result.stderr)  # (check: 2 = CRITICAL)
        if args[0] in ("report", "status", "start") and "--format" not in args:
            assert "[/]" in result.stdout, args
        if args[0] in ("report", "status") and "--format" not in args:
            assert "Samsung SSD 860 EVO 1TB\\x1b]0;pwned\\x07" in result.stdout, args
    start = ssdwear_cli(["--replay", str(folder), "--db", str(tmp_path / "h2.db"), "start", "/dev/sda", "-d", "sat"])
    assert start.exit_code == 0 and "reset" in start.stdout  # the table of resets sent is printed, markup or not


def test_json_keeps_control_characters_visible_as_escapes(tmp_path: Path) -> None:
    folder = machine(tmp_path, edits={"/dev/sdd": _hostile_model})
    result = ssdwear_cli(["--replay", str(folder), "report", "/dev/sdd", "-d", "sat", "--format", "json"])
    drive = json.loads(result.stdout)["drives"][0]
    assert drive["model"] == "Samsung SSD 860 EVO 1TB\\x1b]0;pwned\\x07\\x1b[2J"


def test_control_characters_in_text_output_are_escaped_at_the_parser() -> None:
    text = (b"smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\n"
            b"=== START OF INFORMATION SECTION ===\nDevice Model:     EVIL\x1b[31mDRIVE\x9b\nSerial Number:    S1\n")
    snap = parse_output(text, source="x")
    assert snap.model == "EVIL\\x1b[31mDRIVE\\x9b"


# ------------------------------------------------------------------------------------------------
# 5. The vendor-command guard


@pytest.mark.parametrize("options", [["-t", "vendor,0x40"], ["-s", "on"], ["-o", "on"], ["-S", "on"],
                                     ["-X"], ["--set=standby,now"], ["-g", "all"], ["-l", "scttempint,1"],
                                     ["-q", "silent"], ["-d", "sat"], ["/dev/sda"]])
def test_config_may_not_pass_options_that_command_the_drive(tmp_path: Path, options: list[str]) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(f"smartctl_options: {json.dumps(options)}\n")
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1 and f"{config}:1: smartctl_options:" in result.stderr
    assert "never ones that send commands to the drive" in result.stderr


@pytest.mark.parametrize("options", [["-T", "permissive"], ["--tolerance=verypermissive"], ["-b", "warn"],
                                     ["-F", "samsung3"], ["-v", "9,minutes"], ["-Tpermissive"]])
def test_config_may_pass_options_that_change_how_smartctl_reads(tmp_path: Path, options: list[str]) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(f"smartctl_options: {json.dumps(options)}\n")
    assert ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"]).exit_code == 0


@pytest.mark.parametrize("model,family", [
    ("SAMSUNG SSDSC2BA200G3R", None),
    ("Samsung SSD 860 EVO (INTEL SSDSA2BZ200G3)", None),
    ("Micron_5200 INTEL-SSDSC2KB480G7", None),
    ("INTEL SSDSA2BZ200G3", "Samsung based SSDs"),
])
def test_guard_matches_whole_model_numbers_and_believes_the_drive_family(model: str, family: str | None) -> None:
    snap = intel(15, 28, 60, model=model, family=family)
    assert timed.reset_refusal(snap) is not None
    assert families.family_of(snap) not in intel_rows.FAMILIES


@pytest.mark.parametrize("model,firmware", [("INTEL SSDSA2BZ200G3", None), ("INTEL SSDSC2BA200G3T", None),
                                            ("SSDSCKJB240G7R", None), ("INTEL SSDSC2KB038TZ", None),
                                            ("INTEL SSDSA2M080G2GC", "2CV102J8")])
def test_guard_still_allows_the_documented_families(model: str, firmware: str | None) -> None:
    assert timed.reset_refusal(intel(15, 28, 60, model=model, firmware=firmware)) is None


def test_a_drive_swapped_between_the_check_and_the_reset_is_not_reset(tmp_path: Path) -> None:
    folder = machine(tmp_path)
    identity = folder / f"{fixture_name(['--json=c', '-i', '-d', 'sat', '/dev/sda'])}.out"
    doc = json.loads(identity.read_text())
    doc["serial_number"] = "SWAPPED0001"
    identity.write_text(json.dumps(doc))
    runner = ReplayRunner(folder)
    result = ssdwear_cli(["start", "/dev/sda", "-d", "sat", "--format", "json"], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 4
    entry = json.loads(result.stdout)["results"][0]
    assert entry["status"] == "refused" and "changed since it was read" in entry["message"]
    assert not any(c[0] == "-t" for c in runner.calls)


# ------------------------------------------------------------------------------------------------
# 6. The database path


def test_a_symlinked_database_path_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.write_text("do not overwrite\n")
    link = tmp_path / "history.db"
    link.symlink_to(target)
    result = ssdwear_cli(["--db", str(link), "sample"], App(runner=ReplayRunner(FIXTURES / "fleet"), clock=lambda: T0))
    assert result.exit_code == 1 and "is a symbolic link" in result.stderr
    assert target.read_text() == "do not overwrite\n"
    dangling = tmp_path / "dangling.db"
    dangling.symlink_to(tmp_path / "created-by-root")
    result = ssdwear_cli(["--db", str(dangling), "sample"], App(runner=ReplayRunner(FIXTURES / "fleet"),
                                                                clock=lambda: T0))
    assert result.exit_code == 1 and not (tmp_path / "created-by-root").exists()


def test_a_symlink_beside_the_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    Store.open(db).close()
    Path(f"{db}-wal").unlink(missing_ok=True)
    Path(f"{db}-wal").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(StoreError, match="-wal is a symbolic link"):
        Store.open(db)


def test_a_new_database_is_created_private(tmp_path: Path) -> None:
    db = tmp_path / "new" / "h.db"
    Store.open(db).close()
    assert stat.S_IMODE(db.stat().st_mode) & 0o027 == 0


@as_root
def test_root_refuses_a_database_another_user_owns(tmp_path: Path) -> None:
    db = tmp_path / "h.db"
    Store.open(db).close()
    os.chown(db, OTHER_UID, OTHER_UID)
    with pytest.raises(StoreError, match=f"owned by .*uid {OTHER_UID}"):
        Store.open(db)


# ------------------------------------------------------------------------------------------------
# 7. start on a database that cannot be written


def _full(path: Path, exc_text: str = "database or disk is full") -> StoreError:
    from ssdwear.host.store.files import store_error

    return store_error(path, sqlite3.OperationalError(exc_text), "writing")


def test_start_sends_nothing_when_the_baseline_cannot_be_stored(tmp_path: Path, monkeypatch) -> None:
    def full(self, *args, **kwargs):
        raise _full(self.path)

    monkeypatch.setattr(Store, "add_sample", full)
    runner = ReplayRunner(FIXTURES / "intel")
    result = ssdwear_cli(["start", "/dev/sda", "/dev/sdb", "-d", "sat", "--format", "json"],
                    App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 1
    for entry in json.loads(result.stdout)["results"]:
        assert entry["status"] == "failed" and "nothing was sent" in entry["message"]
        assert "free some space" in entry["message"]
    assert not any(c[0] == "-t" for c in runner.calls)


def test_a_reset_that_cannot_be_recorded_is_reported_and_the_others_go_on(tmp_path: Path, monkeypatch) -> None:
    real = Store.record_reset

    def full_for_sda(self, drive, *args, **kwargs):
        if "SEED710" in drive.key:
            raise _full(self.path)
        return real(self, drive, *args, **kwargs)

    monkeypatch.setattr(Store, "record_reset", full_for_sda)
    runner = ReplayRunner(FIXTURES / "intel")
    result = ssdwear_cli(["start", "/dev/sda", "/dev/sdb", "-d", "sat", "--format", "json"],
                    App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 3
    by_device = {e["device"]: e for e in json.loads(result.stdout)["results"]}
    # the reset is recorded before it is sent (issue 16.6): a record that cannot be written means nothing is sent
    assert by_device["/dev/sda"]["status"] == "failed"
    message = by_device["/dev/sda"]["message"]
    assert "nothing was sent" in message and "not be recorded" in message
    assert not any(c[:2] == ("-t", "vendor,0x40") and c[-1] == "/dev/sda" for c in runner.calls)
    assert by_device["/dev/sdb"]["status"] == "reset"


# ------------------------------------------------------------------------------------------------
# 8-10. analyze on what is not a regular file, oversized input, a capture cut mid-row


def test_analyze_skips_directories_fifos_and_devices_and_reports_the_rest(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    shutil.copy(FIXTURES / "intel" / f"{fixture_name(READ_SDA)}.out", good)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    directory = tmp_path / "adir"
    directory.mkdir()
    proc = subprocess.run([sys.executable, "-m", "ssdwear", "analyze", "--format", "json", str(directory),
                           str(fifo), "/dev/zero", str(good)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 3
    assert [d["serial"] for d in json.loads(proc.stdout)["drives"]] == ["CVPR0000SEED710"]
    errors = proc.stderr.splitlines()
    assert errors == [f"ssdwear: {directory}: is a directory, skipped; give files that hold smartctl output",
                      f"ssdwear: {fifo}: is a FIFO, skipped; give files that hold smartctl output",
                      "ssdwear: /dev/zero: is a device, skipped; give files that hold smartctl output"]


def test_input_over_the_cap_is_refused_in_one_line(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"Warning: x\n" * (MAX_INPUT_BYTES // 10))
    result = ssdwear_cli(["analyze", str(big)])
    assert result.exit_code == 1 and "is not one drive's smartctl output" in result.stderr


def test_json_with_too_many_containers_is_refused_before_decoding() -> None:
    from ssdwear.model.errors import ParseError

    with pytest.raises(ParseError, match="far more than smartctl prints"):
        parse_output(b'{"smartctl": {}, "x": [' + b"[]," * 200_000 + b"[]]}", source="x")


def test_a_flood_of_messages_keeps_only_the_first_hundred() -> None:
    data = b"smartctl 7.3 2022-02-28 r5338\n" + b"".join(b"Warning: message %d\n" % i for i in range(50_000))
    snap = parse_output(data, source="x")
    assert len(snap.messages) == 100


TEXT_INTEL = """smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-27-amd64] (local build)
Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org

=== START OF INFORMATION SECTION ===
Model Family:     Intel 710 Series SSDs
Device Model:     INTEL SSDSA2BZ200G3
Serial Number:    CVPR0000TEXT710
Firmware Version: 6PB10362
User Capacity:    200,049,647,616 bytes [200 GB]
Rotation Rate:    Solid State Device

=== START OF READ SMART DATA SECTION ===
SMART overall-health self-assessment test result: PASSED

ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE
  9 Power_On_Hours          0x0032   100   100   000    Old_age   Always       -       5000
226 Workld_Media_Wear_Indic 0x0032   100   100   000    Old_age   Always       -       1500
227 Workld_Host_Reads_Perc  0x0032   100   100   000    Old_age   Always       -       28
228 Workload_Minutes        0x0032   100   100   000    Old_age   Always       -       6000
"""
TEXT_TAIL = """
SMART Error Log Version: 1
No Errors Logged
"""


def test_a_capture_cut_mid_row_gives_no_timed_projection(tmp_path: Path) -> None:
    whole = tmp_path / "whole.txt"
    whole.write_text(TEXT_INTEL + TEXT_TAIL)
    full = json.loads(ssdwear_cli(["analyze", "--format", "json", str(whole)]).stdout)["drives"][0]
    assert full["window"]["valid"] and full["window"]["minutes"] == 6000
    cut = tmp_path / "cut.txt"
    cut.write_text(TEXT_INTEL[:-39])  # the 228 row cut inside its columns: "228 Workload_Minutes  0x0032   100"
    drive = json.loads(ssdwear_cli(["analyze", "--format", "json", str(cut)]).stdout)["drives"][0]
    assert drive["window"] is None  # the cut 228 row was dropped: no timed window at all
    assert drive["projection"] is None or drive["projection"]["method"] != "timed-workload"
    assert any("cut mid-row" in n for n in drive["notes"])
    assert any("was cut off" in w for w in drive["warnings"])
    # A raw value cut between its digits ('... 6000' to '... 60') cannot be told from a shorter one: a row with
    # every field is whole (issue 26.13). A brief-format table without its legend is still cut off.
    brief = tmp_path / "brief-no-legend.txt"
    brief.write_text(TEXT_INTEL.replace("FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED",
                                        "FLAGS    VALUE WORST THRESH FAIL")
                     .replace("0x0032   100   100   000    Old_age   Always       -", "-O--CK   100   100   000    -"))
    drive = json.loads(ssdwear_cli(["analyze", "--format", "json", str(brief)]).stdout)["drives"][0]
    assert not drive["window"]["valid"] and "cut off" in drive["window"]["reason"]
    # -a's old format ends with a blank line only: complete rows up to the end of the output are the whole table
    at_line = tmp_path / "ends-at-a-line-end.txt"
    at_line.write_text(TEXT_INTEL)
    drive = json.loads(ssdwear_cli(["analyze", "--format", "json", str(at_line)]).stdout)["drives"][0]
    assert drive["window"]["valid"] and drive["window"]["minutes"] == 6000


# ------------------------------------------------------------------------------------------------
# 11-12. Impossible values, file names that are not UTF-8


def test_impossible_values_are_dropped_with_a_warning_and_drive_no_verdict(tmp_path: Path) -> None:
    def impossible(doc: dict[str, Any]) -> None:
        log = doc["nvme_smart_health_information_log"]
        log.update(available_spare=-3, media_errors=-1, percentage_used=2**64)
    folder = machine(tmp_path, "fleet", {"/dev/nvme0": impossible})
    out = tmp_path / "nvme.json"
    shutil.copy(folder / f"{fixture_name(['--json=c', '-x', '-n', 'standby', '-d', 'nvme', '/dev/nvme0'])}.out", out)
    result = ssdwear_cli(["retire-check", str(out), "--format", "json"])
    doc = json.loads(result.stdout)
    drive = doc["drive"]
    assert drive["used_percent"] is None and drive["health"]["available_spare_percent"] is None
    assert drive["health"]["media_errors"] is None
    warnings = " | ".join(drive["warnings"])
    for text in ("available spare = -3", "media errors = -1", f"percentage used = {2**64}"):
        assert text in warnings
    assert doc["verdict"] == "keep" and result.exit_code == 0  # spare -3 < threshold would have meant RETIRE

    def devstat(doc: dict[str, Any]) -> None:
        for page in doc["ata_device_statistics"]["pages"]:
            for entry in page["table"]:
                if page["number"] == 7:
                    entry["value"] = -50
    folder = machine(tmp_path / "b", "fleet", {"/dev/sda": devstat})
    report = ssdwear_cli(["--no-history", "--replay", str(folder), "report", "/dev/sda", "-d", "sat", "--format",
                          "json"])
    drive = json.loads(report.stdout)["drives"][0]
    assert drive["used_source"] != "ata_devstat_percentage_used"
    assert any("Percentage Used Endurance Indicator' = -50" in w for w in drive["warnings"])


def test_file_names_that_are_not_utf8_are_shown_escaped(tmp_path: Path) -> None:
    raw_dir = os.fsencode(tmp_path)
    name = raw_dir + b"/sda-\xff\x1b.json"
    source = FIXTURES / "intel" / f"{fixture_name(['--json=c', '-x', '-n', 'standby', '-d', 'sat', '/dev/sda'])}.out"
    with open(name, "wb") as handle:
        handle.write(source.read_bytes())
    for fmt in ("yaml", "json", "table"):
        proc = subprocess.run([os.fsencode(sys.executable), b"-m", b"ssdwear", b"analyze", b"--format",
                               fmt.encode(), name], capture_output=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert proc.returncode == 0, proc.stderr
        assert b"\xff" not in proc.stdout and b"\x1b" not in proc.stdout
        if fmt != "table":
            assert b"sda-\\xff\\x1b.json" in proc.stdout.replace(b"\\\\", b"\\")


# ------------------------------------------------------------------------------------------------
# 13-15. Timeouts, device names, live reads without data


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-1"])
def test_timeout_must_be_finite_and_positive(value: str) -> None:
    result = ssdwear_cli(["--timeout", value, "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 2 and "--timeout" in result.stderr


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "0"])
def test_config_timeout_must_be_finite_and_positive(tmp_path: Path, value: str) -> None:
    config = tmp_path / "c.yaml"
    config.write_text(f"smartctl_timeout: {value}\n")
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1 and f"{config}:1: smartctl_timeout:" in result.stderr


def test_a_scan_that_times_out_is_named_as_the_scan(fake_smartctl, monkeypatch) -> None:
    smartctl, _ = fake_smartctl(FIXTURES / "intel")
    monkeypatch.setenv("FAKE_SMARTCTL_HANG", "--json=c")  # the scan's last argument
    result = ssdwear_cli(["--smartctl", str(smartctl), "--timeout", "1", "report"], App())
    assert result.exit_code == 1
    assert result.stderr.startswith("ssdwear: smartctl --scan-open: smartctl did not answer within 1 s")


@pytest.mark.parametrize("device", ["--json=c", "-T", "/dev/sda\x1b[2J", "/dev/sd a\n"])
def test_device_names_that_smartctl_would_misread_are_refused(device: str) -> None:
    runner = ReplayRunner(FIXTURES / "intel")
    result = ssdwear_cli(["report", "--", device], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 2 and result.stderr.startswith("ssdwear: device ")
    assert "\x1b" not in result.stderr and runner.calls == []


def test_config_and_scan_device_names_are_checked_too(tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text('devices: ["-x"]\n')
    result = ssdwear_cli(["--config", str(config), "--replay", str(FIXTURES / "intel"), "report"])
    assert result.exit_code == 1 and "cannot be passed to smartctl" in result.stderr
    folder = machine(tmp_path)
    scan = json.loads((folder / "smartctl --scan-open --json=c.out").read_text())
    scan["devices"].append({"name": "--set=standby,now", "type": "sat", "protocol": "ATA"})
    (folder / "smartctl --scan-open --json=c.out").write_text(json.dumps(scan))
    runner = ReplayRunner(folder)
    result = ssdwear_cli(["report", "--format", "json"], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0 and len(json.loads(result.stdout)["drives"]) == 4
    assert "--set=standby,now" in result.stderr and "skipped" in result.stderr
    assert not any("--set=standby,now" in call for call in runner.calls)


def test_a_live_read_without_drive_data_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    args = ["--json=c", "-x", "-n", "standby", "-d", "sat", "/dev/sda"]
    write_machine_file(folder, args, json.dumps({"smartctl": {"version": [7, 3], "exit_status": 0}}))
    result = ssdwear_cli(["report", "/dev/sda", "-d", "sat", "--format", "json"],
                    App(runner=ReplayRunner(folder), clock=lambda: T0))
    assert result.exit_code == 1 and "smartctl printed no drive data" in result.stderr
    assert json.loads(result.stdout)["drives"][0]["error"].startswith("smartctl printed no drive data")


def test_exit_bit_3_without_a_smart_status_means_failing(tmp_path: Path) -> None:
    def no_status(doc: dict[str, Any]) -> None:
        doc.pop("smart_status", None)
    folder = machine(tmp_path, edits={"/dev/sdd": no_status})
    (folder / f"{fixture_name(['--json=c', '-x', '-n', 'standby', '-d', 'sat', '/dev/sdd'])}.rc").write_text("8\n")
    result = ssdwear_cli(["retire-check", "/dev/sdd", "-d", "sat"], App(runner=ReplayRunner(folder), clock=lambda: T0))
    assert result.exit_code == 11 and "SMART overall-health self-assessment: FAILED" in result.stdout


def test_snapshot_builder_helpers_are_consistent() -> None:
    """The builders these tests use make drives the guard reads like real ones."""
    snap = intel(15, 28, 60)
    assert timed.has_timed_workload(snap) and snap.attr(226) == attr(226, 15, name="Workld_Media_Wear_Indic")
