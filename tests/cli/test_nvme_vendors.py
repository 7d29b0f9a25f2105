"""NVMe drives whose vendor log 0xCA reuses Intel's layout (issue 27.7a: DapuStor, ScaleFlux, Memblaze, YMTC, Shannon,
SSSTC; drives/nvme_vendors.py): the page is read, read-only, for the average erase count and the NAND writes (write
amplification), and nothing else is ever sent to them: `start` (even --force), `measure` and `sample` replayed through
the CLI, their argv logs holding reads only. Replays fixtures/nvme-vendors (hand-made: tools/make_nvme_vendors.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0, SteppedClock
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.smartctl.replay import ReplayRunner
from tools import make_nvme_vendors

MACHINE = FIXTURES / "nvme-vendors"
VENDORS = {device: (model, amplification, avg) for device, model, _, _, amplification, (_, _, avg)
           in make_nvme_vendors.DRIVES}
PAGE = ("-l", "nvmelog,0xca,0x200", "-d", "nvme")
READS = (("--json=c", "-x"), ("--json=c", "-i"), ("--scan-open", "--json=c"), PAGE[:2])


def reads_only(runner: ReplayRunner) -> bool:
    """Every smartctl call a read: -x, -i, the scan and the 0xCA page; no -t vendor,0x40, no other log."""
    return all(c[:2] in READS for c in runner.calls) and not any("vendor,0x40" in c for c in runner.calls)


def test_the_fixture_machine_is_what_its_tool_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(make_nvme_vendors, "HERE", tmp_path / "nvme-vendors")
    assert make_nvme_vendors.main() == 0
    made = {p.relative_to(tmp_path / "nvme-vendors"): p.read_bytes() for p in (tmp_path / "nvme-vendors").rglob("*")}
    assert made == {p.relative_to(MACHINE): p.read_bytes() for p in MACHINE.rglob("*")}


def test_report_reads_each_vendors_0xca_page_for_its_erase_count_and_nand_writes() -> None:
    runner = ReplayRunner(MACHINE)
    result = ssdwear_cli(["--no-history", "report", "--format", "json"], App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0, result.output
    drives = {d["device"]: d for d in json.loads(result.stdout)["drives"]}
    for device, (model, amplification, avg) in VENDORS.items():
        drive = drives[device]
        assert drive["model"] == model
        counters = {c["source"]: c for c in drive["counters"]}
        assert counters["average_erase_count"]["value"] == avg and "log 0xCA ADh" in counters["average_erase_count"][
            "detail"], device
        assert "log 0xCA F4h NAND writes" in counters["nand_bytes_written"]["detail"], device
        assert drive["writes"]["write_amplification"] == amplification, device  # F4h over Data Units Written
        assert drive["used_fine"]["source"] == "nand_bytes_written" and drive["used_percent"] == 73.0
    # a page whose first entries are not the layout's: a note, no figure from it
    nvme6 = drives["/dev/nvme6"]
    assert [c["source"] for c in nvme6["counters"]] == ["host_bytes_written"]
    assert nvme6["writes"]["write_amplification"] is None
    assert any("not Intel's, so it is not read" in n for n in nvme6["notes"]), nvme6["notes"]
    # one page read per drive, nothing but reads
    assert sorted(c for c in runner.calls if c[:1] == ("-l",)) == [(*PAGE, f"/dev/nvme{i}") for i in range(7)]
    assert reads_only(runner)


def test_no_other_drive_is_asked_for_log_0xca() -> None:
    for machine in ("fleet", "qemu", "intel", "nvmelog"):
        runner = ReplayRunner(FIXTURES / machine)
        ssdwear_cli(["--no-history", "report", "--format", "json"], App(runner=runner, clock=lambda: T0))
        assert not any("nvmelog,0xca" in " ".join(c) for c in runner.calls), machine


@pytest.mark.parametrize("force", [False, True])
def test_start_sends_them_nothing_even_forced_and_stores_a_counter_baseline(tmp_path: Path, force: bool) -> None:
    runner, nvme = ReplayRunner(MACHINE), ReplayRunner(MACHINE, program="nvme")
    app = App(runner=runner, nvme_runner=nvme, db=str(tmp_path / "h.db"), clock=lambda: T0)
    result = ssdwear_cli(["start", *VENDORS, "-d", "nvme", *(["--force"] if force else []), "--format", "json"], app)
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout)["results"]
    assert [r["status"] for r in results] == ["baseline"] * len(VENDORS)
    for r in results:
        assert "baseline nand_bytes_written" in r["message"] and "never sent a timer reset" in r["message"], r
    assert nvme.calls == []  # no Set Features 0xD5, no nvme-cli call at all
    assert reads_only(runner)
    assert sum(c[:2] == PAGE[:2] for c in runner.calls) == len(VENDORS)  # their counters were read


def test_measure_a_window_on_their_nand_writes_sending_nothing(tmp_path: Path) -> None:
    clock = SteppedClock()

    def sleep(seconds: float) -> None:
        clock.advance(seconds=seconds)

    runner, nvme = ReplayRunner(MACHINE), ReplayRunner(MACHINE, program="nvme")
    app = App(runner=runner, nvme_runner=nvme, db=str(tmp_path / "h.db"), clock=clock, sleep=sleep,
              monotonic=lambda: (clock.now - T0).total_seconds())
    result = ssdwear_cli(["measure", "/dev/nvme2", "-d", "nvme", "--for", "60m", "--poll", "30m", "--force",
                          "--format", "json"], app)
    assert result.exit_code == 0, result.output
    (drive,) = json.loads(result.stdout)["drives"]
    window = drive["window"]
    assert window["kind"] == "counter" and window["valid"] and window["counter"] == "nand_bytes_written"
    # 200,000 data units (102.4 GB) written, 2.05 times that to the flash, counted in 32 MiB
    host = 200_000 * 512_000 / (32 << 20)
    assert abs(window["counter_delta"] / (32 << 20) - host * 2.05) <= 2
    assert nvme.calls == [] and reads_only(runner)


def test_sample_stores_their_counters_with_reads_only(tmp_path: Path) -> None:
    runner, nvme = ReplayRunner(MACHINE), ReplayRunner(MACHINE, program="nvme")
    db = tmp_path / "h.db"
    result = ssdwear_cli(["sample", *VENDORS, "-d", "nvme"], App(runner=runner, nvme_runner=nvme, db=str(db),
                                                                 clock=lambda: T0))
    assert result.exit_code == 0, result.output
    assert nvme.calls == [] and reads_only(runner)
    with sqlite3.connect(db) as con:
        rows = con.execute("SELECT s.name, nand_w, host_w FROM samples JOIN sources s ON s.id = fine_src").fetchall()
    assert len(rows) == len(VENDORS)
    assert all(src == "nand_bytes_written" and nand > host > 0 for src, nand, host in rows), rows


def test_a_failed_page_read_leaves_the_reading_with_a_note(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    shutil.copytree(MACHINE, folder)
    failed = FIXTURES / "nvmelog" / "smartctl -l nvmelog,0xca,0x200 -d nvme _dev_nvme0"  # QEMU's: exit 4, 0x4002
    for ext in ("out", "rc"):
        shutil.copy(f"{failed}.{ext}", folder / f"smartctl -l nvmelog,0xca,0x200 -d nvme _dev_nvme0.{ext}")
    result = ssdwear_cli(["--no-history", "--replay", str(folder), "report", "/dev/nvme0", "-d", "nvme", "--format",
                          "json"], App(clock=lambda: T0))
    assert result.exit_code == 0, result.output
    (drive,) = json.loads(result.stdout)["drives"]
    assert drive["used_percent"] == 73.0 and [c["source"] for c in drive["counters"]] == ["host_bytes_written"]
    assert any(n.startswith("vendor log page 0xca could not be read") and n.endswith("its counters are not read")
               for n in drive["notes"]), drive["notes"]


def test_status_says_why_there_is_no_timer_without_calling_the_drive_not_an_intel_ssd(tmp_path: Path) -> None:
    """status named every drive without a timer 'not an Intel SSD with 226-228', these NVMe drives (whose 0xCA page
    carries E2h-E4h entries ssdwear does not read for them) and Samsung's DC drives (245-247) among them."""
    runner = ReplayRunner(MACHINE)
    result = ssdwear_cli(["--db", str(tmp_path / "h.db"), "status", "--format", "json"],
                         App(runner=runner, clock=lambda: T0))
    assert result.exit_code == 0, result.output
    rows = {r["device"]: r for r in json.loads(result.stdout)["drives"]}
    for device in VENDORS:
        reason = rows[device]["reason"]
        assert reason.startswith("no workload timer: ssdwear reads one only where the drive's family documents it")
        assert "226-228" not in reason and "not an Intel" not in reason
        assert "`ssdwear start` stores a counter baseline" in reason
