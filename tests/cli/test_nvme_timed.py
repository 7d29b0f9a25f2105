"""The timed workload on Intel/Solidigm data-centre NVMe drives: E2h/E3h/E4h from vendor log page 0xCA, read with
one extra smartctl call on those drives only, judged by the SATA rules, reset with nvme-cli behind the same
guard. Replays fixtures/intel-nvme (hand-made pages, real -x documents) and fixtures/nvmelog (recorded)."""

from __future__ import annotations

import json
import shutil
from datetime import timedelta
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES
from support.store import count_samples

from ssdwear.cli.app import App
from ssdwear.drives import timed
from ssdwear.host.store.queries import Store
from ssdwear.model.errors import DriveError, SmartctlNotFound
from ssdwear.smartctl.parse import parse_output
from ssdwear.smartctl.replay import ReplayRunner
from tools import make_intel_nvme

MACHINE = FIXTURES / "intel-nvme"
NVMELOG = FIXTURES / "nvmelog"


def report(folder: Path = MACHINE, *args: str) -> tuple[int, dict[str, dict], ReplayRunner]:
    runner = ReplayRunner(folder)
    result = ssdwear_cli(["--no-history", "report", *args, "--format", "json"], App(runner=runner, clock=lambda: T0))
    return result.exit_code, {d["device"]: d for d in json.loads(result.stdout)["drives"]}, runner


# -- the dump ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,size", [("smartctl -l nvmelog,0x2,0x200 -d nvme _dev_nvme0.out", 512),
                                       ("smartctl -l nvmelog,0x2,0x14 -d nvme _dev_nvme0.out", 20)])
def test_smartctls_real_dump_is_read_byte_for_byte(name: str, size: int) -> None:
    text = (NVMELOG / name).read_bytes()
    page = parse_output(text, source=name).nvme_logs[0x02]
    assert len(page) == size and page[:3] == bytes([0x00, 0x43, 0x01])  # QEMU's health log: 0x143 K
    assert make_intel_nvme.BANNER + make_intel_nvme.dump_text(page, 0x02) == text.decode()


def test_the_dump_in_text_and_in_json_output_lines_is_the_same() -> None:
    text = parse_output((NVMELOG / "smartctl -x -l nvmelog,0x2,0x200 -d nvme _dev_nvme0.out").read_bytes(), "t")
    json_o = parse_output((NVMELOG / "smartctl --json=co -x -n standby -l nvmelog,0x2,0x200 -d nvme _dev_nvme0.out")
                          .read_bytes(), "j")
    assert text.nvme_logs[0x02] == json_o.nvme_logs[0x02] and len(text.nvme_logs[0x02]) == 512
    assert text.model == json_o.model == "QEMU NVMe Ctrl" and text.nvme is not None and json_o.nvme is not None
    plain_json = json.loads((NVMELOG / "smartctl --json=co -l nvmelog,0x2,0x200 -d nvme _dev_nvme0.out").read_text())
    assert "output" in plain_json["smartctl"]  # JSON itself has no key for the dump; only the `o` lines carry it


@pytest.mark.parametrize("damage", ["short", "gap", "junk"])
def test_a_damaged_dump_is_ignored_with_a_note(damage: str) -> None:
    lines = (NVMELOG / "smartctl -l nvmelog,0x2,0x200 -d nvme _dev_nvme0.out").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("NVMe Log"))
    if damage == "short":
        lines = lines[:start + 10]
    elif damage == "gap":
        del lines[start + 5]
    else:
        lines[start + 3] = lines[start + 3][:20] + "zz" + lines[start + 3][22:]
    snap = parse_output("\n".join(lines) + "\n", source="x")
    assert 0x02 not in snap.nvme_logs
    assert any("0x02" in note and "ignored" in note for note in snap.parse_notes)


@pytest.mark.parametrize("as_json", [False, True])
def test_a_flood_of_dump_headers_keeps_16_dumps_and_says_so_once(as_json: bool) -> None:
    # A mailed-in file of nothing but 'NVMe Log' headers (4 MiB of them: 144,000 in text) cost a dump object and
    # a note each: 85 MiB peak for `analyze` (bench/run.py --only input), docs/security.md promises under 45 MiB.
    from ssdwear.smartctl.parse import MAX_INPUT_BYTES
    from ssdwear.smartctl.parse.nvmelog import MAX_DUMPS

    header = "NVMe Log 0xca (0x4000 bytes)"
    count = (MAX_INPUT_BYTES - 1000) // (len(header) + 3)
    if as_json:
        doc = {"json_format_version": [1, 0], "smartctl": {"version": [7, 3], "output": [header] * count},
               "device": {"name": "/dev/nvme0", "type": "nvme"}, "model_name": "M", "serial_number": "S"}
        snap = parse_output(json.dumps(doc, separators=(",", ":")).encode(), source="flood.json")
    else:
        snap = parse_output(("smartctl 7.3 2022-02-28 r5338\nModel Number: M\n" + f"{header}\n" * count).encode(),
                            source="flood.txt")
    dump_notes = [n for n in snap.parse_notes if "NVMe log" in n]
    assert len(dump_notes) == MAX_DUMPS + 1 and snap.nvme_logs == {}  # each kept dump is empty: truncated
    assert f"{count - MAX_DUMPS:,} more NVMe log dumps" in dump_notes[-1]


def test_entries_are_found_by_key_not_position() -> None:
    page = make_intel_nvme.page(20, 64, 1440)
    assert {k: v for k, v in timed.log_entries(page).items() if k in (0xE2, 0xE3, 0xE4)} == \
           {0xE2: 20, 0xE3: 64, 0xE4: 1440}
    entries = [page[i:i + 12] for i in range(0, 13 * 12, 12)]
    shuffled = b"".join(reversed(entries)).ljust(512, b"\0")
    assert timed.log_entries(shuffled)[0xE4] == 1440
    no_e2 = page.replace(bytes([0xE2, 0, 0, 100]), bytes([0xE9, 0, 0, 100]))
    assert 0xE2 not in timed.log_entries(no_e2)


# -- reading and judging ---------------------------------------------------------------------------------


def test_intel_nvme_windows_come_out_of_report_with_the_sata_rules() -> None:
    code, by_dev, _ = report()
    assert code == 0
    window = by_dev["/dev/nvme0"]["window"]
    assert window["kind"] == "timed-workload" and window["valid"] and window["minutes"] == 1440
    assert window["wear_steps"] == 20 and window["host_reads_percent"] == 64
    p = by_dev["/dev/nvme0"]["projection"]
    assert p["method"] == "timed-workload"
    assert p["percent_per_year"] == pytest.approx(20 / 1024 * 365, rel=1e-3)  # one day's window, a year of them
    assert p["years_remaining"] == pytest.approx(27 / (20 / 1024 * 365), rel=1e-2)  # 73 % used
    never = by_dev["/dev/nvme1"]
    assert "timer never reset" in " ".join(never["notes"])
    assert "intel_e2h_since_manufacture" in [s["source"] for s in never["used_sources"]]
    assert never["projection"]["method"] != "timed-workload"
    assert "broken firmware counters" in by_dev["/dev/nvme2"]["window"]["reason"]
    assert by_dev["/dev/nvme2"]["window"]["valid"] is False
    assert by_dev["/dev/nvme3"]["window"] is None and by_dev["/dev/nvme3"]["error"] is None
    assert any("0xca could not be read" in n and "0x4002" in n for n in by_dev["/dev/nvme3"]["notes"])


class HangingLogPage(ReplayRunner):
    """The recordings, except that the vendor log page call times out as a hung drive's would."""

    def run(self, args):
        if "-l" in args:
            raise DriveError(args[-1], "smartctl did not answer within 2 s and was killed (hung device or "
                                       "controller?); raise --timeout if the drive is just slow", kind="timeout")
        return super().run(args)


def test_a_hung_log_page_call_keeps_the_good_reading_as_a_failed_one_does(tmp_path: Path) -> None:
    app = App(runner=HangingLogPage(MACHINE), db=str(tmp_path / "h.db"), clock=lambda: T0)
    result = ssdwear_cli(["sample", "/dev/nvme0", "-d", "nvme", "--textfile", str(tmp_path)], app)
    assert result.exit_code == 0, result.output
    prom = (tmp_path / "ssdwear.prom").read_text()
    assert 'ssdwear_read_ok{device="/dev/nvme0",model="INTEL SSDPE2KX010T8",serial="PHLJ9000000A1P0FGN"} 1' in prom
    assert "ssdwear_used_ratio{" in prom
    with Store.open(tmp_path / "h.db", create=False, write=False) as store:
        assert count_samples(store) == 1
    doc = json.loads(ssdwear_cli(["--no-history", "report", "/dev/nvme0", "-d", "nvme", "--format", "json"],
                         App(runner=HangingLogPage(MACHINE), clock=lambda: T0)).stdout)
    (drive,) = doc["drives"]
    assert drive["error"] is None and drive["used_percent"] == 73 and drive["window"] is None
    assert any("0xca could not be read" in n and "did not answer within 2 s" in n for n in drive["notes"])


@pytest.mark.slow
def test_a_real_hung_log_page_call_is_killed_and_the_reading_kept(fake_smartctl, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    smartctl, log = fake_smartctl(MACHINE)
    monkeypatch.setenv("FAKE_SMARTCTL_HANG_CALLS", "nvmelog")
    result = ssdwear_cli(["--smartctl", str(smartctl), "--timeout", "3", "--db", str(tmp_path / "h.db"), "sample",
                  "/dev/nvme0", "-d", "nvme", "--textfile", str(tmp_path)], App(clock=lambda: T0))
    assert result.exit_code == 0, result.output
    assert "nvmelog,0xca,0x200" in log.read_text()  # the call was made, and hung
    prom = (tmp_path / "ssdwear.prom").read_text()
    assert 'serial="PHLJ9000000A1P0FGN"} 1' in prom and "ssdwear_read_ok" in prom


def test_one_extra_call_on_intel_datacentre_nvme_and_none_on_other_drives() -> None:
    _, _, runner = report()
    logs = [c for c in runner.calls if c[:1] == ("-l",)]
    assert sorted(logs) == [("-l", "nvmelog,0xca,0x200", "-d", "nvme", f"/dev/nvme{i}") for i in range(4)]  # hex
    assert len(runner.calls) == 1 + 4 * 2  # the scan, then -x and the page for each drive
    for machine in ("fleet", "qemu", "intel"):
        _, _, other = report(FIXTURES / machine)
        assert not any("nvmelog" in " ".join(c) for c in other.calls), machine


def test_a_fresh_reset_is_pending_like_on_sata(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(MACHINE, folder)
    calls = ("smartctl --json=c -x -n standby -d nvme _dev_nvme0", "smartctl -l nvmelog,0xca,0x200 -d nvme _dev_nvme0")
    for call in calls:  # make the just-reset reading the first one
        for ext in ("out", "rc"):
            shutil.copy(folder / f"{call}@2.{ext}", folder / f"{call}.{ext}")
    _, by_dev, _ = report(folder)
    window = by_dev["/dev/nvme0"]["window"]
    assert window["valid"] is False and "65535" in window["reason"] and by_dev["/dev/nvme0"]["projection"]["method"] \
        != "timed-workload"


def test_analyze_reads_the_dump_from_saved_json_and_text() -> None:
    for name in ("p4510-nvme0.json", "p4510-nvme0.txt"):
        result = ssdwear_cli(["analyze", str(MACHINE / "saved" / name), "--format", "json"], App(clock=lambda: T0))
        assert result.exit_code == 0, result.output
        (drive,) = json.loads(result.stdout)["drives"]
        assert drive["window"]["kind"] == "timed-workload" and drive["window"]["minutes"] == 1440, name
        assert drive["window"]["wear_steps"] == 20 and drive["projection"]["method"] == "timed-workload", name


def test_status_shows_the_nvme_timer() -> None:
    result = ssdwear_cli(["--no-history", "--replay", str(MACHINE), "status", "--format", "json"],
                         App(clock=lambda: T0))
    rows = {r["device"]: r for r in json.loads(result.stdout)["drives"]}
    nvme0 = rows["/dev/nvme0"]
    assert nvme0["timed_workload"] and nvme0["e4h_minutes"] == 1440 and nvme0["valid"]
    assert rows["/dev/nvme3"]["timed_workload"] is False


# -- the reset ---------------------------------------------------------------------------------------------------


def test_start_resets_a_documented_intel_nvme_with_nvme_cli_after_rereading_its_identity(tmp_path: Path) -> None:
    runner, nvme = ReplayRunner(MACHINE), ReplayRunner(MACHINE, program="nvme")
    app = App(runner=runner, nvme_runner=nvme, db=str(tmp_path / "h.db"), clock=lambda: T0)
    result = ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme", "--format", "json"], app)
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["results"]
    assert entry["status"] == "reset" and entry["serial"] == "PHLJ9000000A1P0FGN"
    assert nvme.calls == [("set-feature", "/dev/nvme0", "-f", "0xd5", "-v", "1")]
    assert runner.calls[-1] == ("--json=c", "-i", "-d", "nvme", "/dev/nvme0")  # identity just before the reset
    assert not any("vendor,0x40" in c for c in runner.calls)


def test_start_resets_no_undocumented_nvme_and_force_reports_the_drives_rejection(tmp_path: Path) -> None:
    # the Intel drive whose log 0xCA could not be read, and a Samsung NVMe drive: refused, nothing sent
    nvme = ReplayRunner(MACHINE, program="nvme")
    result = ssdwear_cli(["start", "/dev/nvme3", "-d", "nvme"], App(runner=ReplayRunner(MACHINE), nvme_runner=nvme,
                                                           db=str(tmp_path / "a.db"), clock=lambda: T0))
    # both count their writes (issue 19): a counter window's baseline each, and no command sent
    said = " ".join(result.stdout.split())
    assert result.exit_code == 0 and "BASELINE" in said and "did not show the timed-workload counters" in said
    fleet = ReplayRunner(FIXTURES / "fleet", program="nvme")
    result = ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme"], App(runner=ReplayRunner(FIXTURES / "fleet"),
                                                           nvme_runner=fleet, db=str(tmp_path / "b.db"),
                                                           clock=lambda: T0))
    said = " ".join(result.stdout.split())
    assert result.exit_code == 0 and "BASELINE" in said and "not an Intel/Solidigm data-centre NVMe SSD" in said
    assert nvme.calls == [] and fleet.calls == []
    # forced on QEMU's drive: the recorded rejection of Set Features 0xD5 by QEMU, through nvme-cli 2.3
    folder = tmp_path / "qemu"
    shutil.copytree(FIXTURES / "qemu", folder)
    for f in NVMELOG.glob("nvme set-feature _dev_nvme0 *"):
        shutil.copy(f, folder / f.name)
    for ext in ("out", "rc"):  # the identity start reads again: answered with the drive's recorded -x document
        shutil.copy(folder / f"smartctl --json=c -x -n standby -d nvme _dev_nvme0.{ext}",
                    folder / f"smartctl --json=c -i -d nvme _dev_nvme0.{ext}")
    result = ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme", "--force", "--format", "json"],
                 App(runner=ReplayRunner(folder), nvme_runner=ReplayRunner(folder, program="nvme"),
                     db=str(tmp_path / "c.db"), clock=lambda: T0))
    (entry,) = json.loads(result.stdout)["results"]
    assert result.exit_code == 5 and entry["status"] == "rejected"
    assert "Invalid Field in Command" in entry["message"] and "0x4002" in entry["message"]


def test_without_nvme_cli_only_nvme_resets_fail_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> str:
        raise SmartctlNotFound("nvme-cli not found (the NVMe timer reset needs it): apt-get install nvme-cli")

    monkeypatch.setattr("ssdwear.host.runner.locate_nvme", missing)
    result = ssdwear_cli(["start", "/dev/nvme0", "-d", "nvme", "--format", "json"],
                 App(runner=ReplayRunner(MACHINE), db=str(tmp_path / "h.db"), clock=lambda: T0))
    (entry,) = json.loads(result.stdout)["results"]
    assert entry["status"] == "failed" and "nothing was sent" in entry["message"] and "nvme-cli" in entry["message"]
    assert result.exit_code == 1 and len(result.stderr.splitlines()) == 1  # nothing could be done
    sata = ssdwear_cli(["start", "/dev/sda", "-d", "sat", "--format", "json"],
               App(runner=ReplayRunner(FIXTURES / "intel"), db=str(tmp_path / "s.db"), clock=lambda: T0))
    assert sata.exit_code == 0 and json.loads(sata.stdout)["results"][0]["status"] == "reset"


def test_measure_an_nvme_window_end_to_end(tmp_path: Path) -> None:
    now = [T0]
    ticks = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += timedelta(seconds=seconds)
        ticks[0] += seconds

    runner, nvme = ReplayRunner(MACHINE), ReplayRunner(MACHINE, program="nvme")
    app = App(runner=runner, nvme_runner=nvme, db=str(tmp_path / "h.db"), clock=lambda: now[0], sleep=sleep,
              monotonic=lambda: ticks[0])
    result = ssdwear_cli(["measure", "/dev/nvme0", "-d", "nvme", "--for", "60m", "--poll", "20m", "--represents", "1h",
                  "--format", "json"], app)
    assert result.exit_code == 0, result.output
    (drive,) = json.loads(result.stdout)["drives"]
    assert drive["window"]["valid"] and drive["window"]["minutes"] == 60 and drive["window"]["wear_steps"] == 1
    assert nvme.calls == [("set-feature", "/dev/nvme0", "-f", "0xd5", "-v", "1")]
