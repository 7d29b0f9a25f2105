"""The smartctl format-version matrix: every output ssdwear parses, as every smartctl release that changed it
prints it (fixtures/formats/, made from smartmontools' source by tools/make_formats.py), read through the path
ssdwear reads it by (a saved output: run.saved.load; a call ssdwear makes itself: smartctl.calls with the replay)
and checked for the same figures in every release. One test per (output, release); a folder without expected
figures here fails, so a new release cannot enter the matrix unchecked.

The drives are tools/formats/drives.py's; the figures below are written out by hand, not taken from it."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.drives import fine, timed
from ssdwear.model.errors import ParseError
from ssdwear.model.records import ScanEntry, Snapshot
from ssdwear.run.saved import load
from ssdwear.smartctl import calls
from ssdwear.smartctl.replay import ReplayRunner

FORMATS = FIXTURES / "formats"
FOLDERS = sorted(p for p in FORMATS.glob("*/*") if p.is_dir())
READ_AT = datetime(2026, 11, 30, 11, 0, tzinfo=timezone.utc)
VERSION = {"5.0.2": "5.0-2", "5.0.8": "5.0-8", "5.0.11": "5.0-11", "5.1.1": "5.1-1", "5.1.2": "5.1-2",
           "5.1.8": "5.1-8", "5.1.10": "5.1-10", "5.1.13": "5.1-13", "5.1.14": "5.1-14", "current": "pre-8.0-549"}


def key(release: str) -> tuple[int, ...]:
    return (99,) if release == "current" else tuple(int(p) for p in release.split("."))


def since(release: str, first: str) -> bool:
    return key(release) >= key(first)


def version(release: str) -> str:
    return VERSION.get(release, release)


def json_version(release: str) -> str:
    return "pre-8.0" if release == "current" else release


def outs(folder: Path) -> list[Path]:
    """The saved outputs of a folder (the --json refusals of releases without --json are not outputs)."""
    return [p for p in sorted(folder.glob("*.out")) if b"=======> UNRECOGNIZED OPTION" not in p.read_bytes()]


def saved(folder: Path) -> list[Snapshot]:
    return [load(p) for p in outs(folder)]


def one(folder: Path) -> Snapshot:
    (snap,) = saved(folder)
    return snap


def live_text(release: str) -> bool:
    """Releases ssdwear reads as text itself: -x and -n exist (5.39), --json does not (7.0)."""
    return since(release, "5.39") and not since(release, "7.0")


# -- ATA -----------------------------------------------------------------------------------------------------

ATTRIBUTES = {1: (100, 100, 6, 0, True, ""), 3: (100, 30, 34, 0, True, "In_the_past"),
              5: (100, 100, 36, 0, True, ""), 9: (100, 100, 0, 12345, False, ""), 12: (100, 100, 20, 42, False, ""),
              197: (100, 100, 0, 0, False, ""), 198: (100, 100, 0, 0, False, "")}


def check_ata_identity(snap: Snapshot, release: str) -> None:
    """The identity as a text output of `release` carries it (JSON carries all of it: checked as 7.5's)."""
    assert snap.interface == "ata"
    assert (snap.model, snap.serial, snap.firmware) == ("INTEL SSDSC2BA200G3", "BTTV312400AB200GGN", "5DV10270")
    assert snap.model_family == ("Intel 730 and DC S35x0/3610/3700 Series SSDs" if since(release, "5.36") else None)
    assert snap.capacity_bytes == (200_049_647_616 if since(release, "5.33") else None)
    assert snap.wwn == ("55cd2e404b605189" if since(release, "5.41") else None)
    assert snap.logical_sector_size == (512 if since(release, "5.41") else None)
    assert snap.rotation_rate == (0 if since(release, "6.0") else None)
    assert snap.local_time == (READ_AT if since(release, "5.1.2") else None)


def refused(folder: Path) -> None:
    """smartctl 5.0 printed no banner and no section header: nothing says the output is smartctl's."""
    (path,) = outs(folder)
    with pytest.raises(ParseError, match=r"not smartctl output \(no smartctl banner or JSON\); save the output of"):
        load(path)


def ata_info(folder: Path, release: str) -> None:
    if release == "5.0":
        return refused(folder)
    snap = one(folder)
    check_ata_identity(snap, release)
    assert snap.smartctl_version == version(release)
    # 5.0.2-5.0.7 'Drive supports S.M.A.R.T. and is enabled'; 5.0.8-5.0.10 only 'SMART support is: Enabled'
    support = (None, True) if since(release, "5.0.8") and not since(release, "5.0.11") else (True, True)
    assert (snap.smart_available, snap.smart_enabled) == support
    if live_text(release):  # what `start` reads again before a reset: --json refused, then -i
        runner = ReplayRunner(folder)
        again = calls.identify(runner, "/dev/sda")
        assert runner.calls == [("--json=c", "-i", "/dev/sda"), ("-i", "/dev/sda")]
        check_ata_identity(again, release)


def ata_health(folder: Path, release: str) -> None:
    snap = one(folder)
    check_ata_identity(snap, release)
    if not since(release, "5.0.11"):  # the line alone: no list of marginal attributes yet
        assert snap.smart_passed is True and snap.attributes == {}
        return
    if release == "5.40":  # the UNKNOWN! this release added: no verdict, no attributes
        assert snap.smart_passed is None and snap.attributes == {}
        return
    assert snap.smart_passed is True
    assert [(a.id, a.when_failed, a.worst, a.thresh) for a in snap.attributes.values()] == [(3, "In_the_past", 30, 34)]


def ata_attributes(folder: Path, release: str) -> None:
    snaps = saved(folder)  # 5.0 has no banner, but its table's header is smartctl's own
    assert len(snaps) == (2 if since(release, "5.41") else 1)  # -A, and -A -f brief
    expected = dict(ATTRIBUTES)
    if not since(release, "5.0.11"):  # 5.0's table has no WHEN_FAILED column
        expected[3] = (*ATTRIBUTES[3][:5], "")
    for snap in snaps:
        assert snap.interface == "ata" and snap.smartctl_version == (None if release == "5.0" else version(release))
        got = {a.id: (a.value, a.worst, a.thresh, a.raw, a.prefailure, a.when_failed)
               for a in snap.attributes.values()}
        assert got == expected
        assert snap.attributes[12].name == "Power_Cycle_Count"
        assert (snap.power_on_hours, snap.power_cycles) == (12345.0, 42)


POWER_ON = {"minutes": 12345 + 45 / 60, "halfminutes": 12345 + 45 / 60, "seconds": 12345 + 45 / 60 + 30 / 3600,
            "msec24hour32": 12345 + 45 / 60 + 30.25 / 3600}


def ata_power_on(folder: Path, release: str) -> None:
    kinds = {"5.0.8": ["minutes"], "5.0.11": ["minutes"], "5.1.2": ["minutes"], "5.1.8": ["seconds"],
             "5.40": ["msec24hour32"]}.get(release, ["halfminutes", "minutes", "msec24hour32", "seconds"])
    files = outs(folder)
    assert len(files) == len(kinds)
    for path, kind in zip(files, kinds, strict=True):
        snap = load(path)
        assert snap.power_on_hours == pytest.approx(POWER_ON[kind]), path.name
        assert snap.power_on_hours_trusted


DEVSTATS = {(1, 0x008): ("Lifetime Power-On Resets", 42, False), (1, 0x010): ("Power-on Hours", 12345, False),
            (1, 0x018): ("Logical Sectors Written", 98_765_432_100, False),
            (1, 0x020): ("Number of Write Commands", 1_234_567_890, False),
            (1, 0x028): ("Logical Sectors Read", 87_654_321_000, False),
            (1, 0x030): ("Number of Read Commands", 987_654_321, False),
            (7, 0x008): ("Percentage Used Endurance Indicator", 7, True)}


def ata_devstat(folder: Path, release: str) -> None:
    snap = one(folder)
    assert snap.interface == "ata"  # Device Statistics are ATA's
    assert {k: (d.name, d.value, d.normalized) for k, d in snap.devstats.items()} == DEVSTATS
    assert snap.power_on_hours == 12345.0 and not snap.truncated


# -- SCSI ----------------------------------------------------------------------------------------------------


def scsi_info(folder: Path, release: str) -> None:
    if release == "5.0":
        return refused(folder)
    snap = one(folder)
    assert snap.interface == "scsi" and snap.smartctl_version == version(release)
    assert snap.model == "HGST HUSMM1680ASS204" and snap.firmware == "C2D0"
    assert snap.serial == ("0PX1D5KA" if since(release, "5.1.10") else None)
    assert snap.capacity_bytes == (800_166_076_416 if since(release, "5.41") else None)
    assert snap.logical_sector_size == (512 if since(release, "5.41") else None)
    assert snap.wwn == ("5000cca04e0d1a2c" if since(release, "5.41") else None)
    assert snap.rotation_rate == (0 if since(release, "6.1") else None)
    assert snap.local_time == (READ_AT if since(release, "5.1.10") else None)


def scsi_health(folder: Path, release: str) -> None:
    if release == "5.0":
        return refused(folder)
    snap = one(folder)
    assert snap.interface == "scsi" and snap.smart_passed is True and snap.smartctl_version == version(release)


def scsi_attributes(folder: Path, release: str) -> None:
    snap = one(folder)
    assert snap.interface == "scsi" and snap.scsi is not None
    assert snap.scsi.grown_defects == 12
    assert snap.power_on_hours == (23456.5 if since(release, "7.2") else None)


def scsi_background(folder: Path, release: str) -> None:
    snap = one(folder)
    assert snap.interface == "scsi" and snap.power_on_hours == 23456.5


def scsi_ssd(folder: Path, release: str) -> None:
    snap = one(folder)
    assert snap.interface == "scsi" and snap.scsi is not None and snap.scsi.percentage_used == 3


def scsi_errlog(folder: Path, release: str) -> None:
    snap = one(folder)
    assert snap.interface == "scsi" and snap.scsi is not None
    # 'Gigabytes processed' is printed with three decimals (%12.3f): 105436.013 and 79212.330 GB
    assert (snap.scsi.bytes_read, snap.scsi.bytes_written) == (105_436_013_000_000, 79_212_330_000_000)
    assert snap.scsi.uncorrected_errors == 0


# -- NVMe ----------------------------------------------------------------------------------------------------

NVME_HEALTH = dict(critical_warning=0, temperature_celsius=35, available_spare=100, available_spare_threshold=10,
                   percentage_used=3, data_units_read=123_456_789, data_units_written=98_765_432,
                   host_read_commands=1_234_567_890, host_write_commands=987_654_321, power_cycles=42,
                   power_on_hours=12_345, unsafe_shutdowns=7, media_errors=0, error_log_entries=0)


def check_nvme_identity(snap: Snapshot, release: str) -> None:
    assert snap.interface == "nvme"
    assert (snap.model, snap.serial, snap.firmware) == ("INTEL SSDPE2KX010T8", "PHLJ000000AB1P0FGN", "VDV10131")
    assert snap.capacity_bytes == 1_000_204_886_016
    assert snap.nvme_version == ("1.2" if since(release, "7.2") else None)


def check_nvme_health(snap: Snapshot) -> None:
    assert snap.nvme is not None
    assert {k: getattr(snap.nvme, k) for k in NVME_HEALTH} == NVME_HEALTH
    assert snap.power_on_hours == 12345.0 and not snap.truncated


def nvme_info(folder: Path, release: str) -> None:
    snap = one(folder)
    check_nvme_identity(snap, release)
    assert snap.logical_sector_size == 512 and snap.smartctl_version == version(release)


def nvme_health(folder: Path, release: str) -> None:
    snap = one(folder)
    assert snap.interface == "nvme" and snap.smartctl_version == version(release)
    check_nvme_health(snap)


CA_ENTRIES = {0xE2: 20, 0xE3: 64, 0xE4: 1440, 0xAD: 200 | 288 << 16 | 240 << 32, 0xF4: 1_808_465, 0xF5: 1_507_054}


def check_ca_page(snap: Snapshot) -> None:
    assert 0xCA in snap.nvme_logs, snap.parse_notes
    page = snap.nvme_logs[0xCA]
    assert len(page) == 512
    assert {k: v for k, v in timed.log_entries(page).items() if k in CA_ENTRIES} == CA_ENTRIES
    counters = {c.source: c.value for c in fine.nvme_counters(snap)}
    assert counters["average_erase_count"] == 240  # ADh
    assert counters["nand_bytes_written"] == 1_808_465 * 32 * 1024 * 1024  # F4h, its unit settled against F5h


def nvmelog(folder: Path, release: str) -> None:
    runner = ReplayRunner(folder)
    snap = calls.read_drive(runner, "/dev/nvme0", "nvme")
    read = ("-x", "-n", "standby", "-d", "nvme", "/dev/nvme0")
    expected = [("--json=c", *read), *([read] if not since(release, "7.0") else []),
                ("-l", "nvmelog,0xca,0x200", "-d", "nvme", "/dev/nvme0")]
    assert runner.calls == expected
    check_nvme_identity(snap, release)
    check_nvme_health(snap)
    check_ca_page(snap)
    if since(release, "7.4"):  # the saved --json=co output: the dump's lines in smartctl.output
        (json_co,) = [p for p in outs(folder) if p.name.startswith("smartctl --json=co")]
        check_ca_page(load(json_co))
    # what a user sees: the E2h-E4h window of 24 hours
    result = ssdwear_cli(["--no-history", "report", "-d", "nvme", "/dev/nvme0", "--format", "json"],
                         App(runner=ReplayRunner(folder), clock=lambda: T0))
    window = json.loads(result.stdout)["drives"][0]["window"]
    assert (window["kind"], window["valid"], window["minutes"], window["wear_steps"]) == \
        ("timed-workload", True, 1440, 20)


# -- JSON ----------------------------------------------------------------------------------------------------


def read_json(folder: Path, device: str, kind: str) -> Snapshot:
    """The read ssdwear makes; on the Intel NVMe drive, then its log page 0xCA."""
    runner = ReplayRunner(folder)
    snap = calls.read_drive(runner, device, kind)
    log = [("-l", "nvmelog,0xca,0x200", "-d", kind, device)] if kind == "nvme" else []
    assert runner.calls == [("--json=c", "-x", "-n", "standby", "-d", kind, device), *log]
    return snap


def json_ata(folder: Path, release: str) -> None:
    snap = read_json(folder, "/dev/sda", "sat")
    check_ata_identity(snap, "7.5")  # every key of the text's identity is in every JSON
    assert snap.smartctl_version == json_version(release)
    got = {a.id: (a.value, a.worst, a.thresh, a.raw, a.prefailure, a.when_failed) for a in snap.attributes.values()}
    assert got == ATTRIBUTES
    assert {k: (d.name, d.value, d.normalized) for k, d in snap.devstats.items()} == DEVSTATS
    assert (snap.power_on_hours, snap.power_cycles, snap.smart_passed) == (12345.0, 42, True)
    # smart_support is in the JSON of every drive from 7.3 (before, ATA said it in text only)
    assert (snap.smart_available, snap.smart_enabled) == ((True, True) if since(release, "7.3") else (None, None))


def json_nvme(folder: Path, release: str) -> None:
    snap = read_json(folder, "/dev/nvme0", "nvme")
    check_nvme_identity(snap, release)
    check_nvme_health(snap)
    check_ca_page(snap)
    assert snap.smartctl_version == json_version(release) and snap.local_time == READ_AT
    assert (snap.smart_available, snap.smart_enabled) == ((True, True) if since(release, "7.3") else (None, None))


def json_scsi(folder: Path, release: str) -> None:
    snap = read_json(folder, "/dev/sdb", "scsi")
    assert snap.interface == "scsi" and snap.model == "HGST HUSMM1680ASS204" and snap.firmware == "C2D0"
    assert (snap.serial, snap.capacity_bytes, snap.logical_sector_size) == ("0PX1D5KA", 800_166_076_416, 512)
    assert snap.wwn == ("5000cca04e0d1a2c" if since(release, "7.3") else None)  # logical_unit_id from 7.3
    assert snap.scsi is not None and snap.scsi.percentage_used == 3 and snap.power_on_hours == 23456.5
    assert (snap.scsi.bytes_read, snap.scsi.bytes_written) == (105_436_013_000_000, 79_212_330_000_000)
    if since(release, "7.2"):
        assert snap.scsi.grown_defects == 12
    else:  # 7.0 and 7.1 put the list's length in bytes there: not a count of defects
        assert snap.scsi.grown_defects is None
        assert any("scsi_grown_defect_list" in note for note in snap.parse_notes)


# -- scan ----------------------------------------------------------------------------------------------------


def scan(folder: Path, release: str) -> None:
    runner = ReplayRunner(folder)
    entries = calls.scan(runner)
    raid = "DELL or MegaRaid controller, please try adding '-d megaraid,N'"
    expected = [ScanEntry("/dev/sda", "sat"), ScanEntry("/dev/sdb", "scsi"), ScanEntry("/dev/sdc", "scsi", raid)]
    if since(release, "6.5"):
        expected.append(ScanEntry("/dev/nvme0", "nvme"))
    assert entries == expected
    json_then_text = [("--scan-open", "--json=c")] + ([("--scan-open",)] if not since(release, "7.0") else [])
    assert runner.calls == json_then_text


CHECKS: dict[str, Callable[[Path, str], None]] = {
    "ata-info": ata_info, "ata-health": ata_health, "ata-attributes": ata_attributes, "ata-power-on": ata_power_on,
    "ata-devstat": ata_devstat, "scsi-info": scsi_info, "scsi-health": scsi_health,
    "scsi-attributes": scsi_attributes, "scsi-background": scsi_background, "scsi-ssd": scsi_ssd,
    "scsi-errlog": scsi_errlog, "nvme-info": nvme_info, "nvme-health": nvme_health, "nvmelog": nvmelog,
    "json-ata": json_ata, "json-nvme": json_nvme, "json-scsi": json_scsi, "scan": scan,
}


@pytest.mark.parametrize("folder", FOLDERS, ids=[f"{p.parent.name}/{p.name}" for p in FOLDERS])
def test_every_release_of_every_output_gives_the_same_figures(folder: Path) -> None:
    CHECKS[folder.parent.name](folder, folder.name)


def test_the_matrix_covers_every_output_from_its_first_release_to_the_current_source() -> None:
    by_output: dict[str, list[str]] = {}
    for folder in FOLDERS:
        by_output.setdefault(folder.parent.name, []).append(folder.name)
    assert sorted(by_output) == sorted(CHECKS)
    first = {"ata-info": "5.0", "ata-health": "5.0.8", "ata-attributes": "5.0", "ata-power-on": "5.0.8",
             "ata-devstat": "5.42", "scsi-info": "5.0", "scsi-health": "5.0", "scsi-attributes": "5.36",
             "scsi-background": "5.37", "scsi-ssd": "5.42", "scsi-errlog": "5.1.10", "nvme-info": "6.5",
             "nvme-health": "6.5", "nvmelog": "6.5", "json-ata": "7.0", "json-nvme": "7.0", "json-scsi": "7.0",
             "scan": "5.40"}
    for output, releases in by_output.items():
        ordered = sorted(releases, key=key)
        assert ordered[0] == first[output] and ordered[-2:] == ["7.5", "current"], (output, ordered)


def test_every_folder_says_what_it_is_and_where_it_comes_from() -> None:
    for folder in FOLDERS:
        text = (folder / "README.md").read_text()
        first, _, rest = text.partition("\n\n")
        assert first.startswith(f"# fixtures/formats/{folder.parent.name}/{folder.name}: ")
        assert rest.startswith("MADE, not recorded: ") and "commit " in rest and "tools/make_formats.py" in rest
        assert "line " in rest and all(f"`{p.name}`" in text for p in folder.glob("*.out"))


def test_the_fixtures_are_what_the_generator_writes() -> None:
    from tools import make_formats

    made, kept = make_formats.build(), make_formats.on_disk(FORMATS)
    assert sorted(made) == sorted(kept), "run: python3 -m tools.make_formats"
    assert [name for name in made if made[name] != kept[name]] == [], "run: python3 -m tools.make_formats"

