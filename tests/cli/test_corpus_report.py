"""Reports over the real smartctl corpus (fixtures/corpus): no traceback, the 65535 rule, series windows,
retire-check verdicts. Expected facts come from MANIFEST.md, read at test time."""

from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest
from click.testing import CliRunner
from support.corpus import FILES, manifest_rows
from support.paths import CORPUS, CORPUS_MANIFEST

from ssdwear.cli.main import cli

ROWS = manifest_rows(CORPUS_MANIFEST.read_text(encoding="utf-8"))
INTEL_ROWS = [r for r in ROWS if r.table.startswith("A.")]


def analyze(*names: str, each: bool = False, same_drive: bool = False) -> tuple[int, list[dict], str]:
    args = ["analyze", "--format", "json", *(["--each"] if each else []), *(["--same-drive"] if same_drive else []),
            *(str(CORPUS / n) for n in names)]
    result = CliRunner().invoke(cli, args)
    assert "Traceback" not in result.output + result.stderr
    drives = json.loads(result.stdout)["drives"] if result.stdout.strip() else []
    return result.exit_code, drives, result.stderr


def test_every_corpus_file_is_analyzed_without_a_traceback() -> None:
    code, drives, stderr = analyze(*(p.name for p in FILES), each=True)
    errors = [line for line in stderr.splitlines() if line.startswith("ssdwear: ")]
    assert len(drives) + len(errors) == len(FILES) == 155
    # Only the Windows open failure holds no drive data at all; it is one clear line.
    assert len(errors) == 1 and "windows-open-failed" in errors[0] and "could not read the drive" in errors[0]
    assert code == 3


@pytest.mark.parametrize("row", INTEL_ROWS, ids=lambda r: r.file)
def test_intel_sata_files(row) -> None:
    code, drives, _ = analyze(row.file, each=True)
    assert code == 0 and len(drives) == 1
    d = drives[0]
    assert d["interface"] == "ata" and d["used_percent"] is not None, d
    e2, e4 = row.cells["226 raw"], row.cells["228 raw"]
    if "65535" in (e2, e4):
        w = d["window"]
        assert w is not None and w["valid"] is False and w["reason"].startswith("not valid: E2h-E4h read 65535")
        # Drives at 8,317 to 76,251 power-on hours show 65535 with no reset anyone knows of: never claim one.
        assert "was reset" not in w["reason"] and "after the reset" not in w["reason"]
        assert w["wear_percent"] is None
        assert d["projection"] is None or d["projection"]["method"] != "timed-workload"
    if d["projection"] and d["projection"]["method"] == "timed-workload":
        assert d["window"]["valid"] and d["window"]["wear_steps"] == int(e2)


def test_intel_320_whose_e2h_disagrees_with_device_statistics() -> None:
    _, drives, _ = analyze("linuxhw-EnterpriseDrive__intel-ssdsa2cw120g3__1.txt")
    d = drives[0]
    assert d["used_percent"] == 12 and d["used_source"] == "ata_devstat_percentage_used"
    assert not d["window"]["valid"] and "not trustworthy" in d["window"]["reason"]


def test_toshiba_hdd_load_in_time_is_not_wear() -> None:
    _, drives, _ = analyze("linuxhw-EnterpriseDrive__toshiba-mg04aca600e__1.txt",
                           "smartctl_exporter__toshiba-mg09aca18te__1.json", each=True)
    for d in drives:
        assert d["kind"] == "hdd" and d["window"] is None and d["used_percent"] is None
        assert any("no flash wear indicator" in n for n in d["notes"])


def series() -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for r in ROWS:
        if "series" in r.cells:
            out[r.cells["series"].split()[0]].append(r.file)
    return dict(out)


SERIES = series()


@pytest.mark.parametrize("name", sorted(SERIES, key=lambda s: int(str(s)[1:])))
def test_same_drive_series_give_a_windowed_projection(name: str) -> None:
    files = SERIES[name]
    # the manifest's series are one drive each (one drive's folder in linuxhw/EnterpriseDrive); their serials are
    # masked, so only the user's word joins them (issue 17.9)
    _, drives, _ = analyze(*files, same_drive=True)
    assert len(drives) == 1, f"{name}: {len(files)} readings should be one drive"
    d = drives[0]
    assert d["readings"] == len(files)
    w = d["window"]
    assert w["kind"] == "readings"
    if d["used_at_least"] and d["used_percent"] >= 255:  # saturated indicator: nothing to measure
        assert not w["valid"] and "saturated" in w["reason"]
        return
    assert w["valid"], w["reason"]
    p = d["projection"]
    assert p["method"].startswith("readings:") and p["interval_level"] == 0.8
    assert p["years_remaining_low"] is not None
    assert p["percent_per_year_low"] <= p["percent_per_year"] <= p["percent_per_year_high"]


def test_a_timer_never_reset_is_the_lifetime_sharpened_not_a_window() -> None:
    # S7, Intel DC S3520: E2h counts from manufacture (E4h = power-on minutes). It sharpens the whole-percent
    # Device Statistics figure to 1/1024 % and goes through the calibrated forecast like any lifetime reading.
    _, drives, _ = analyze("linuxhw-EnterpriseDrive__intel-ssdsc2bb480g7__2.txt",
                           "linuxhw-EnterpriseDrive__intel-ssdsc2bb480g7__3.txt", same_drive=True)
    d = drives[0]
    assert d["used_source"] == "intel_e2h_since_manufacture" and d["used_step"] == pytest.approx(1 / 1024)
    assert any("sharpened by E2h" in n for n in d["notes"])
    p = d["projection"]
    assert p["method"] == "readings:intel_e2h_since_manufacture" and p["interval"] == "calibrated"
    # The two readings show the same E2h: no alarm from a drive that did not move.
    assert p["years_remaining_low"] > 5


def test_files_of_different_drives_are_not_merged() -> None:
    # Same model, masked serials, counters that run backwards between them: three drives.
    _, drives, _ = analyze("linuxhw-EnterpriseDrive__intel-ssdsa2cw120g3__1.txt",
                           "linuxhw-EnterpriseDrive__intel-ssdsa2cw120g3__2.txt",
                           "linuxhw-EnterpriseDrive__intel-ssdsa2cw120g3__3.txt")
    assert len(drives) == 3
    # Two Toshiba XG6 outputs from /dev/nvme2 that are different drives (data units read go down).
    _, drives, _ = analyze("smartctl_exporter__toshiba-kxg60znv512g__1.json",
                           "smartctl_exporter__toshiba-kxg60znv512g__2.json")
    assert len(drives) == 2


def retire_check(name: str) -> tuple[int, dict]:
    result = CliRunner().invoke(cli, ["retire-check", str(CORPUS / name), "--format", "json"])
    assert "Traceback" not in result.output
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.parametrize("name,reason", [
    ("linuxhw-EnterpriseDrive__samsung-ssd-970-pro-512gb__3.txt", "254 %"),
    ("linuxhw-EnterpriseDrive__toshiba-kxg50znv512g__1.txt", "available spare 1 %"),
    ("linuxhw-EnterpriseDrive__intel-ssdsc2bb160g4__1.txt", "wear used"),     # 233 = 001
    ("linuxhw-EnterpriseDrive__intel-ssdsc2bw120a4__2.txt", "wear used"),     # 233 = 001
    ("linuxhw-EnterpriseDrive__crucial-ct1000mx500ssd1__3.txt", "101 %"),      # 202 wrapped to 255
])
def test_retire_check_retires_worn_drives(name: str, reason: str) -> None:
    code, doc = retire_check(name)
    assert doc["verdict"] == "retire" and code == 11
    assert any(reason in r for r in doc["reasons"]), doc["reasons"]


@pytest.mark.parametrize("name", [
    "linuxhw-EnterpriseDrive__intel-ssdsc2kb960g8__1.txt",
    "linuxhw-EnterpriseDrive__samsung-mzqlb1t9hajr-00007__1.txt",
    "pySMART__twsc-tsc3an1t0-f2t60s__1.txt",
    "linuxhw-EnterpriseDrive__micron-5200_mtfddak960tdd__1.txt",
])
def test_retire_check_keeps_healthy_drives(name: str) -> None:
    code, doc = retire_check(name)
    assert doc["verdict"] == "keep" and code == 0, doc["reasons"]


def test_retire_check_watches_a_drive_with_little_spare_left() -> None:
    code, doc = retire_check("linuxhw-EnterpriseDrive__toshiba-thnsn5512gpu7__1.txt")  # spare 43 %, 46 % used
    assert doc["verdict"] in ("keep", "watch") and code in (0, 10)


def test_every_number_names_its_source() -> None:
    _, drives, _ = analyze(*(p.name for p in FILES), each=True)
    for d in drives:
        if d["used_percent"] is not None:
            assert d["used_source"] and any(s["source"] == d["used_source"] for s in d["used_sources"])
        for key in ("host_bytes_written", "host_bytes_read", "nand_bytes_written"):
            if d["writes"][key] is not None:
                assert key in d["writes"]["sources"], (d["source"], key)
        if d["projection"]:
            assert d["projection"]["method"] and d["projection"]["basis"]
        assert re.match(r"^(ata|nvme|scsi|unknown)$", d["interface"])


def test_a_drive_past_its_rating_is_not_given_a_month_to_wear_out_in() -> None:
    """The Crucial MX500 at 101 %: 'years left 0.0' beside 'wears out 2026-12' read as a month still ahead."""
    from support.cli import ssdwear_cli

    path = str(CORPUS / "linuxhw-EnterpriseDrive__crucial-ct1000mx500ssd1__3.txt")
    report = ssdwear_cli(["analyze", path], env={"COLUMNS": None}).stdout  # the plain blocks
    assert "wears out   already (rated endurance used up)" in report
    verdict = ssdwear_cli(["retire-check", path])
    assert verdict.exit_code != 0 and "wears out: already (rated endurance used up)" in verdict.stdout
