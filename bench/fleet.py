"""Fake machines for the benchmark: N SATA drives cloned from the hand-written recordings in fixtures/intel.

A fake machine is a fixture folder in ssdwear.smartctl.replay's naming (`smartctl <args with / as _>.out` + `.rc`) that
both `ssdwear --replay DIR` and tests/support/fake_smartctl.py (through a wrapper script) can answer from:

- `smartctl --scan-open --json=c` listing every drive, and one `--json=c -x -n standby -d sat /dev/sdX` read per
  drive (what ssdwear runs);
- optionally (`pysmart=True`) the text outputs pySMART asks for: `--scan-open`, `-d test DEV`, `-d sat --all DEV`
  and `--info DEV` (pySMART parses text, not JSON).

Every clone gets its own device name (/dev/sda ... /dev/sdz, /dev/sdaa ...), serial number and WWN; `state`
overrides the counters (power-on hours, wear used, host writes, Intel E2h/E3h/E4h) so that a generated history
can end where the drive's current reading stands.
"""

from __future__ import annotations

import copy
import json
import shlex
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ssdwear.smartctl.replay import fixture_name

ROOT = Path(__file__).resolve().parents[1]
INTEL = ROOT / "fixtures" / "intel"
FAKE_SMARTCTL = ROOT / "tests" / "support" / "fake_smartctl.py"
TEMPLATES = ("/dev/sda", "/dev/sdb", "/dev/sdc", "/dev/sdd")  # 710, 320, DC S3700, Samsung 860 EVO
BANNER = ("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0-27-amd64] (local build)\n"
          "Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n\n")


def read_args(device: str) -> list[str]:
    return ["--json=c", "-x", "-n", "standby", "-d", "sat", device]




def device_name(index: int) -> str:
    """Linux's naming: sda..sdz, then sdaa..sdzz."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    if index < 26:
        return "/dev/sd" + letters[index]
    index -= 26
    return "/dev/sd" + letters[index // 26] + letters[index % 26]


def template(n: int) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((INTEL / f"{fixture_name(read_args(TEMPLATES[n]))}.out").read_text())
    return doc


@dataclass(frozen=True)
class DriveState:
    """Counters of one drive at the time of the reading (None: keep the template's)."""

    power_on_hours: int
    used_percent: int
    host_bytes_written: int
    e2h: int | None = None  # Intel timed workload (never reset: counts since manufacture)
    e3h: int | None = None
    e4h: int | None = None


def serial_for(index: int, base: str) -> str:
    return f"{base[:8]}BN{index:05d}"


def clone(doc: dict[str, Any], index: int, state: DriveState | None = None) -> dict[str, Any]:
    """The template drive as drive number `index` of the fake machine."""
    out = copy.deepcopy(doc)
    device = device_name(index)
    args = read_args(device)
    out["smartctl"]["argv"] = ["smartctl", *args]
    out["device"]["name"] = device
    out["device"]["info_name"] = f"{device} [SAT]"
    out["serial_number"] = serial_for(index, out["serial_number"])
    out["wwn"]["id"] = (int(out["wwn"]["id"]) + 0x100000 * (index + 1)) & 0xFFFFFFFFF
    if state is not None:
        _apply_state(out, state)
    return out


def _apply_state(doc: dict[str, Any], s: DriveState) -> None:
    table = {a["id"]: a for a in doc["ata_smart_attributes"]["table"]}

    def set_raw(attr_id: int, raw: int | None, value: int | None = None) -> None:
        attr = table.get(attr_id)
        if attr is None or raw is None:
            return
        attr["raw"] = {"value": raw, "string": str(raw)}
        if value is not None:
            attr["value"] = attr["worst"] = value

    sectors = s.host_bytes_written // 512
    set_raw(9, s.power_on_hours)
    doc["power_on_time"] = {"hours": s.power_on_hours}
    intel = 228 in table
    if intel:
        set_raw(225, s.host_bytes_written // (32 << 20))
        set_raw(241, s.host_bytes_written // (32 << 20))
        set_raw(242, s.host_bytes_written // (32 << 20) // 3)
        set_raw(226, s.e2h)
        set_raw(227, s.e3h)
        set_raw(228, s.e4h)
        set_raw(233, 0, value=max(1, 100 - s.used_percent))
    else:
        set_raw(241, sectors)
        set_raw(177, s.used_percent * 30, value=max(1, 100 - s.used_percent))
    for page in doc["ata_device_statistics"]["pages"]:
        for entry in page["table"]:
            key = (page["number"], entry["offset"])
            if key == (1, 16):
                entry["value"] = s.power_on_hours
            elif key == (1, 24):
                entry["value"] = sectors
            elif key == (1, 40):
                entry["value"] = sectors // 3
            elif key == (7, 8):
                entry["value"] = s.used_percent


def scan_json(devices: list[str]) -> dict[str, Any]:
    return {"json_format_version": [1, 0],
            "smartctl": {"version": [7, 3], "svn_revision": "5338", "platform_info": "x86_64-linux-6.1.0-27-amd64",
                         "build_info": "(local build)", "argv": ["smartctl", "--scan-open", "--json=c"],
                         "exit_status": 0},
            "devices": [{"name": d, "info_name": f"{d} [SAT]", "type": "sat", "protocol": "ATA"} for d in devices]}


def write_call(folder: Path, args: list[str], payload: str, rc: int = 0) -> None:
    stem = folder / fixture_name(args)
    stem.with_name(stem.name + ".out").write_text(payload)
    stem.with_name(stem.name + ".rc").write_text(f"{rc}\n")


def make_machine(folder: Path, count: int, states: list[DriveState | None] | None = None,
                 pysmart: bool = False) -> list[dict[str, Any]]:
    """Write a fake machine of `count` drives into `folder`; return the drives' JSON documents."""
    folder.mkdir(parents=True, exist_ok=True)
    templates = [template(i) for i in range(len(TEMPLATES))]
    docs = []
    for index in range(count):
        doc = clone(templates[index % len(templates)], index, states[index] if states else None)
        device = doc["device"]["name"]
        write_call(folder, read_args(device), json.dumps(doc, separators=(",", ":")) + "\n")
        if pysmart:
            write_call(folder, ["-d", "test", device], test_text(device))
            write_call(folder, ["-d", "sat", "--all", device], all_text(doc))
            write_call(folder, ["--info", device], info_text(doc))
            write_call(folder, ["-d", "sat", "--info", device], info_text(doc))
        docs.append(doc)
    devices = [d["device"]["name"] for d in docs]
    write_call(folder, ["--scan-open", "--json=c"], json.dumps(scan_json(devices), separators=(",", ":")) + "\n")
    if pysmart:
        write_call(folder, ["--scan-open"], "".join(f"{d} -d sat # {d} [SAT], ATA device\n" for d in devices))
    return docs


# -- text outputs (smartctl 7.3 `-a` layout) for pySMART --------------------------------------------------------


def test_text(device: str) -> str:
    return BANNER + f"{device}: Device of type 'sat' [ATA] detected\n{device}: Device of type 'sat' [ATA] opened\n"


def info_text(doc: dict[str, Any]) -> str:
    cap = doc["user_capacity"]["bytes"]
    wwn = doc["wwn"]
    lines = [
        "=== START OF INFORMATION SECTION ===",
        f"Model Family:     {doc['model_family']}",
        f"Device Model:     {doc['model_name']}",
        f"Serial Number:    {doc['serial_number']}",
        f"LU WWN Device Id: {wwn['naa']:x} {wwn['oui']:06x} {wwn['id']:09x}",
        f"Firmware Version: {doc['firmware_version']}",
        f"User Capacity:    {cap:,} bytes [{cap // 10**9} GB]",
        "Sector Size:      512 bytes logical/physical",
        "Rotation Rate:    Solid State Device",
        "Device is:        In smartctl database 7.3/5319",
        "ATA Version is:   ATA8-ACS T13/1699-D revision 4",
        "SATA Version is:  SATA 2.6, 3.0 Gb/s",
        f"Local Time is:    {doc['local_time']['asctime']}",
        "SMART support is: Available - device has SMART capability.",
        "SMART support is: Enabled",
        "",
    ]
    return BANNER + "\n".join(lines) + "\n"


def all_text(doc: dict[str, Any]) -> str:
    rows = []
    for a in doc["ata_smart_attributes"]["table"]:
        flags = a["flags"]
        kind = "Pre-fail" if flags.get("prefailure") else "Old_age"
        rows.append(f"{a['id']:3d} {a['name']:<23} 0x{flags['value']:04x}   {a['value']:03d}   {a['worst']:03d}   "
                    f"{a['thresh']:03d}    {kind:<8}  Always       -       {a['raw']['string']}")
    body = [
        "=== START OF READ SMART DATA SECTION ===",
        "SMART overall-health self-assessment test result: " + ("PASSED" if doc["smart_status"]["passed"]
                                                                else "FAILED!"),
        "",
        "SMART Attributes Data Structure revision number: 5",
        "Vendor Specific SMART Attributes with Thresholds:",
        "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE",
        *rows,
        "",
        "SMART Error Log Version: 1",
        "No Errors Logged",
        "",
        "SMART Self-test log structure revision number 1",
        "No self-tests have been logged.  [To run self-tests, use: smartctl -t]",
        "",
    ]
    return info_text(doc) + "\n".join(body) + "\n"


# -- the fake smartctl executable ----------------------------------------------------------------------------------


def write_wrapper(path: Path, python: str = sys.executable) -> Path:
    """A `smartctl` that runs tests/support/fake_smartctl.py (env: FAKE_SMARTCTL_DIR, _LOG, _SLEEP).

    `-S -E`: the fake needs only os/sys/time, so skipping site (and the .pth files of every installed package)
    makes one fake call cost about 8 ms of CPU instead of about 30 ms: closer to the real smartctl, a small C
    program, and less noise in the timing benchmarks (64 fake calls share this machine's cores with ssdwear).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\nexec {shlex.quote(python)} -S -E {shlex.quote(str(FAKE_SMARTCTL))} \"$@\"\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path

