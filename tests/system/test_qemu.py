"""ssdwear against real device nodes: QEMU-emulated NVMe, SATA and SCSI drives (pure software emulation).

One VM boot runs the installed ssdwear inside the guest (the host's Python over 9p) against:
  nvme0  NVME0001                              ordinary NVMe
  nvme1  NVME0002  smart_critical_warning=4   health check fails (smartctl exit bit 3)
  sda    AHCI0001                              QEMU's ATA disk: 7 attributes, no wear indicator
  sdb    AHCI0002  model=INTEL SSDSC2BA200G3   an Intel model string without Intel's attributes
  sdc    VSCSI0001 virtio-scsi                 no SMART at all
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

from ssdwear.smartctl import smartd as fmt
from tools import qemuvm

DD_BYTES = 200 * 1024 * 1024
NVME_UNIT = 512_000
SERIALS = {"NVME0001", "NVME0002", "AHCI0001", "AHCI0002", "VSCSI0001"}

GUEST = """
set -u
OUT="$SSDWEAR_VM_OUT"
S="{python} -m ssdwear"
run() {{ name=$1; shift; "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.rc"; }}
# The real smartd (Debian's), in the background while the rest runs: Debian's smartd.conf line plus -M test (a test
# mail per drive at start, through smartd_warning.sh and smartd-runner to /etc/smartmontools/run.d: ssdwear's script,
# then 10mail, here a copy that keeps the mail), every 10 s (-i 10, smartd's minimum), attribute logs in Debian's
# default place (no -A: /var/lib/smartmontools/attrlog.MODEL-SERIAL.ata.csv).
RUND=/etc/smartmontools/run.d
printf '#!/bin/sh\ndate +%%s.%%N > "$SSDWEAR_VM_OUT/mailstart$(echo "$SMARTD_DEVICE" | tr / _)"\n' > $RUND/04stamp
cp {root}/contrib/smartd/run.d-ssdwear $RUND/05ssdwear
printf '#!/bin/sh\nd=$(echo "$SMARTD_DEVICE" | tr / _)\ndate +%%s.%%N > "$SSDWEAR_VM_OUT/mailend$d"\n%s\n' \
    'cp "$1" "$SSDWEAR_VM_OUT/mail$d"' > $RUND/10mail
printf '#!/bin/sh\nexec {python} -m ssdwear "$@"\n' > /usr/local/bin/ssdwear
chmod 755 $RUND/04stamp $RUND/05ssdwear $RUND/10mail /usr/local/bin/ssdwear
echo 'DEVICESCAN -d removable -n standby -m root -M exec /usr/share/smartmontools/smartd-runner -M test' \
    > /run/smartd.conf
smartd -d -i 10 -c /run/smartd.conf > "$OUT/smartd.log" 2>&1 &
SMARTD=$!
run report1 $S report --format json
run sample1 $S sample
run smart_before smartctl --json=c -x -d nvme /dev/nvme0
run dd dd if=/dev/zero of=/dev/nvme0n1 bs=1M count={count} oflag=direct
sync
run smart_after smartctl --json=c -x -d nvme /dev/nvme0
run sample2 $S sample
run report2 $S report --format json
run table $S report
run history $S history NVME0001 --format json
run start_refused $S start /dev/sdb
run start_forced $S start /dev/sdb --force --format json
run nvme_refused $S start /dev/nvme0
run nvme_forced $S start /dev/nvme0 --force --format json
run retire $S retire-check /dev/nvme1 --format json
run check $S check
# at least 3 lines of each ATA drive's attribute log (smartd 7.3 writes none for NVMe), then stop smartd
i=0
while [ $i -lt 90 ]; do
    n=$(for f in /var/lib/smartmontools/attrlog.*.ata.csv; do [ -f "$f" ] && wc -l < "$f"; done | sort -n | head -1)
    [ "${{n:-0}}" -ge 3 ] && [ "$(ls /var/lib/smartmontools/attrlog.*.ata.csv | wc -l)" -ge 2 ] && break
    sleep 1; i=$((i + 1))
done
echo $i > "$OUT/smartd_waited"
kill $SMARTD; wait $SMARTD
mkdir "$OUT/attrlog" && cp -p /var/lib/smartmontools/attrlog.* "$OUT/attrlog/"
run smartd_report $S report --format json
run smartd_import $S import smartd
run smartd_import2 $S import smartd --format json
"""


@pytest.fixture(scope="module")
def vm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = qemuvm.qemu_available()
    if reason is not None:
        if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
            pytest.fail(f"QEMU cannot run here: {reason}")
        pytest.skip(f"QEMU cannot run here: {reason}")
    drives = [qemuvm.Drive.nvme("NVME0001"), qemuvm.Drive.nvme("NVME0002", smart_critical_warning=4),
              qemuvm.Drive.sata("AHCI0001"), qemuvm.Drive.sata("AHCI0002", model="INTEL SSDSC2BA200G3",
                                                               rotation_rate=1),
              qemuvm.Drive.scsi("VSCSI0001")]
    script = GUEST.format(python=shlex.quote(sys.executable), count=DD_BYTES // 2**20, root=shlex.quote(str(ROOT)))
    result = qemuvm.run_vm(drives, script, timeout_s=270, workdir=tmp_path_factory.mktemp("vm"))
    assert result.returncode == 0, result.console[-4000:]
    assert result.seconds < 300
    print(f"VM run: {result.seconds:.1f} s")
    return result.outdir


def out(vm: Path, name: str) -> tuple[int, str, str]:
    return (int((vm / f"{name}.rc").read_text()), (vm / f"{name}.out").read_text(),
            (vm / f"{name}.err").read_text())


def by_serial(text: str) -> dict[str, dict]:
    return {d["serial"]: d for d in json.loads(text)["drives"]}


@pytest.mark.qemu
def test_every_drive_is_discovered_and_reported_by_serial(vm: Path) -> None:
    rc, stdout, stderr = out(vm, "report1")
    assert rc == 0, stderr
    drives = by_serial(stdout)
    assert set(drives) == SERIALS
    assert drives["NVME0001"]["interface"] == "nvme" and drives["NVME0001"]["device"] == "/dev/nvme0"
    assert drives["NVME0001"]["used_source"] == "nvme_percentage_used"
    assert drives["AHCI0001"]["interface"] == "ata" and drives["AHCI0001"]["used_percent"] is None
    assert drives["AHCI0002"]["model"] == "INTEL SSDSC2BA200G3" and drives["AHCI0002"]["window"] is None


@pytest.mark.qemu
def test_the_scsi_disk_without_smart_is_said_so_and_the_others_still_reported(vm: Path) -> None:
    drives = by_serial(out(vm, "report1")[1])
    scsi = drives["VSCSI0001"]
    assert scsi["interface"] == "scsi" and scsi["error"] is None
    assert any("no SMART data" in note for note in scsi["notes"])
    assert all(d["error"] is None for d in drives.values())


@pytest.mark.qemu
def test_samples_record_exactly_the_bytes_written(vm: Path) -> None:
    for name in ("sample1", "sample2"):
        rc, stdout, stderr = out(vm, name)
        assert rc == 0 and stdout == "", stderr  # quiet on success
    samples = json.loads(out(vm, "history")[1])["samples"]
    assert len(samples) == 2  # sample1, sample2: report only reads the history
    before = json.loads(out(vm, "smart_before")[1])["nvme_smart_health_information_log"]
    after = json.loads(out(vm, "smart_after")[1])["nvme_smart_health_information_log"]
    first, second = samples[0]["host_bytes_written"], samples[1]["host_bytes_written"]  # sample1, sample2
    assert first == before["data_units_written"] * NVME_UNIT
    grown = second - first
    assert grown == (after["data_units_written"] - before["data_units_written"]) * NVME_UNIT
    commands = after["host_writes"] - before["host_writes"]
    assert commands > 0
    assert DD_BYTES <= grown <= DD_BYTES + NVME_UNIT * commands  # within one data unit per write command
    assert grown - DD_BYTES < NVME_UNIT  # QEMU rounds the byte total up to whole units: less than one


@pytest.mark.qemu
def test_samples_seconds_apart_give_no_write_rate(vm: Path) -> None:
    """The VM's two samples lie seconds apart: a host-write rate needs a day of history, as a wear rate does
    (issue 17.17: it printed +22 PB/day from them), so the real drive gets none and the table shows no /day."""
    nvme = by_serial(out(vm, "report2")[1])["NVME0001"]
    assert nvme["writes"]["host_bytes_written"] > 0
    assert nvme["writes"]["host_bytes_per_day"] is None
    assert "/day" not in out(vm, "table")[1]


@pytest.mark.qemu
def test_the_vendor_command_guard_and_the_drives_rejection(vm: Path) -> None:
    rc, stdout, stderr = out(vm, "start_refused")
    assert rc == 4 and stdout.startswith("/dev/sdb  INTEL SSDSC2BA200G3 [AHCI0002]  REFUSED") and stderr == ""
    assert "does not report the timed-workload attributes" in " ".join(stdout.split())
    rc, stdout, stderr = out(vm, "start_forced")
    (entry,) = json.loads(stdout)["results"]
    assert rc == 5 and entry["status"] == "rejected" and entry["serial"] == "AHCI0002"
    assert "rejected the timer reset" in entry["message"] and "aborted command" in entry["message"]
    assert stderr.count("/dev/sdb") == 1


@pytest.mark.qemu
def test_the_nvme_timer_reset_guard_and_the_drives_rejection_through_real_nvme_cli(vm: Path) -> None:
    """QEMU's NVMe drive is no Intel/Solidigm data-centre drive: no reset, but its Data Units Written give a counter
    window (issue 19: a baseline stored, nothing sent); forced, nvme-cli sends Set Features 0xD5 and the drive's own
    rejection (NVMe status 0x4002) is what the user reads."""
    rc, stdout, stderr = out(vm, "nvme_refused")
    assert rc == 0 and stdout.startswith("/dev/nvme0  QEMU NVMe Ctrl [NVME0001]  BASELINE") and stderr == ""
    said = " ".join(stdout.split())
    assert "nothing was sent to the drive" in said and "not an Intel/Solidigm data-centre NVMe SSD" in said
    rc, stdout, stderr = out(vm, "nvme_forced")
    (entry,) = json.loads(stdout)["results"]
    assert rc == 5 and entry["status"] == "rejected" and entry["serial"] == "NVME0001", (stdout, stderr)
    assert "nvme set-feature -f 0xd5 -v 1" in entry["message"] and "Invalid Field in Command" in entry["message"]
    assert "0x4002" in entry["message"]


@pytest.mark.qemu
def test_critical_warning_reaches_retire_check_and_check(vm: Path) -> None:
    rc, stdout, _ = out(vm, "retire")
    doc = json.loads(stdout)
    assert rc == 11 and doc["verdict"] == "retire"
    assert any("NVMe critical warning 0x04" in r for r in doc["reasons"])
    rc, stdout, _ = out(vm, "check")
    assert rc == 2 and stdout.startswith("SSDWEAR CRITICAL - ") and "NVME0002" in stdout.splitlines()[0]


LOGS = {"AHCI0001": "attrlog.QEMU_HARDDISK-AHCI0001.ata.csv",
        "AHCI0002": "attrlog.INTEL_SSDSC2BA200G3-AHCI0002.ata.csv"}


@pytest.mark.qemu
def test_the_real_smartd_wrote_attribute_logs_in_the_documented_format(vm: Path) -> None:
    """smartd 7.3 in Debian's default place, named MODEL-SERIAL with '_' for blanks; every line as smartd.cpp
    writes it (local time, ID;VALUE;RAW triplets, tab-led); no NVMe log (smartd writes those from 7.5 on)."""
    written = sorted(p.name for p in (vm / "attrlog").iterdir())
    assert written == sorted(LOGS.values()), written
    report = by_serial(out(vm, "report1")[1])
    for serial, name in LOGS.items():
        raw = (vm / "attrlog" / name).read_bytes()
        assert raw.endswith(b"\n")
        lines = [fmt.parse_line(x, "ata") for x in raw.split(b"\n")[:-1]]
        assert len(lines) >= 3 and all(isinstance(x, fmt.Line) for x in lines), raw[:500]
        assert all(x.ata and 9 in {i for i, _, _ in x.ata} for x in lines if isinstance(x, fmt.Line))
        stamps = [x.stamp for x in lines if isinstance(x, fmt.Line)]
        assert stamps == sorted(stamps)
        first = raw.split(b"\n")[0]
        print(f"smartd wrote {len(lines)} lines to {name} ({stamps[0]} to {stamps[-1]}, after "
              f"{(vm / 'smartd_waited').read_text().strip()} s of waiting); first: {first!r}")
        assert report[serial]["power_on_hours"] is not None


@pytest.mark.qemu
def test_ssdwear_reads_the_real_smartds_logs_as_the_drives(vm: Path) -> None:
    rc, stdout, stderr = out(vm, "smartd_report")
    assert rc == 0, stderr
    drives = by_serial(stdout)
    for serial, name in LOGS.items():
        said = [n for n in drives[serial]["notes"] if n.startswith("smartd:attrlog /var/lib/smartmontools/" + name)]
        assert len(said) == 1 and ", " not in said[0].split(" lines")[0], drives[serial]["notes"]  # none skipped
    rc, stdout, stderr = out(vm, "smartd_import")
    assert rc == 0, stderr
    for serial, name in LOGS.items():
        [line] = [x for x in stdout.splitlines() if f"[{serial}]" in x]
        assert " hourly readings imported (0 already there) from smartd:attrlog " \
               f"/var/lib/smartmontools/{name}: " in line, line
    again = {d["serial"]: d for d in json.loads(out(vm, "smartd_import2")[1])["drives"]}
    assert all(again[s]["added"] == 0 and again[s]["offered"] >= 1 for s in LOGS)  # importing twice adds nothing


@pytest.mark.qemu
def test_smartds_test_mail_carries_ssdwears_verdict_through_the_real_smartd_runner(vm: Path) -> None:
    """smartd -M test -> smartd_warning.sh -> smartd-runner -> run-parts: 05ssdwear appended retire-check before
    10mail took the message; smartd logged no output of its warning script."""
    mail = (vm / "mail_dev_sda").read_text()
    assert "TEST EMAIL from smartd for device: /dev/sda" in mail
    assert "\n--- ssdwear retire-check /dev/sda" in mail and "QEMU HARDDISK [AHCI0001] /dev/sda" in mail
    seconds = float((vm / "mailend_dev_sda").read_text()) - float((vm / "mailstart_dev_sda").read_text())
    print(f"05ssdwear took {seconds:.1f} s in the VM")
    assert seconds < 35  # within its own budget (30 s and the kill's 5)
    log = (vm / "smartd.log").read_text()
    assert "Executing test of /usr/share/smartmontools/smartd-runner to root" in log
    assert "produced unexpected output" not in log and "failed" not in log.lower().split("test of")[-1][:200]
