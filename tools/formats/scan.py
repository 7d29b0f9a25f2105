"""smartctl's ``--scan-open``, as each release prints it: 5.40's first form (``NAME -d TYPE [PROTOCOL] (opened)``,
``(open failed: ...)``), the smartd.conf-like lines from 5.41 on (``NAME -d TYPE # INFO, PROTOCOL device``, a
device that would not open as a ``# ...`` comment), and the ``devices`` array of ``--json=c`` from 7.0 on.

The machine: an ATA SSD behind SAT (/dev/sda), a SAS SSD (/dev/sdb), a device that does not open (/dev/sdc,
a RAID controller's volume), and, from 6.5 (the first release with NVMe), an NVMe controller (/dev/nvme0)."""

from __future__ import annotations

from typing import Any

from .jsondocs import dumps, envelope
from .releases import Cite, Release, json_refusal

RAID_ERROR = "DELL or MegaRaid controller, please try adding '-d megaraid,N'"


Device = tuple[str, str, str, str, str | None]  # name, -d type, info name, protocol, open error


def _devices(r: Release) -> list[Device]:
    """The matrix's machine, as the release can see it."""
    out = [("/dev/sda", "sat", "/dev/sda [SAT]", "ATA", None), ("/dev/sdb", "scsi", "/dev/sdb", "SCSI", None),
           ("/dev/sdc", "scsi", "/dev/sdc", "SCSI", RAID_ERROR)]
    if r.at_least("6.5"):
        out.append(("/dev/nvme0", "nvme", "/dev/nvme0", "NVMe", None))
    return out


def text(r: Release, devices: list[Device] | None = None) -> str:
    """`smartctl --scan-open`. 5.40 prints the info name, the type and the protocol in brackets, then whether it
    opened; 5.41 on prints a line smartd.conf takes, and a device that did not open as a comment."""
    out = []
    for name, kind, info, protocol, error in devices if devices is not None else _devices(r):
        if not r.at_least("5.41"):
            opened = " (opened)" if error is None else f" (open failed: {error})"
            out.append(f"{info} -d {kind} [{protocol}]{opened}\n")
        elif error is None:
            out.append(f"{name} -d {kind} # {info}, {protocol} device\n")
        else:
            out.append(f"# {name} -d {kind} # {info}, {protocol} device open failed: {error}\n")
    return "".join(out)


def json_text(r: Release, machine: list[Device] | None = None) -> str:
    """`smartctl --scan-open --json=c`."""
    devices: list[dict[str, Any]] = []
    for name, kind, info, protocol, error in machine if machine is not None else _devices(r):
        device: dict[str, Any] = {"name": name, "info_name": info, "type": kind, "protocol": protocol}
        if error is not None:
            device["open_error"] = error
        devices.append(device)
    return dumps({**envelope(r, ["--scan-open", "--json=c"]), "devices": devices})


def refusal(r: Release) -> tuple[str, int]:
    """What a release without --json answers to `--scan-open --json=c`: the banner and the refusal."""
    return json_refusal(r)


CITES = {
    "5.40": [Cite("5.40", "smartmontools/smartctl.cpp", 940,
                  'pout("%s -d %s [%s]%s\\n", dev->get_info_name(), dev->get_dev_type(),'),
             Cite("5.40", "smartmontools/smartctl.cpp", 937,
                  'openmsg = strprintf(" (open failed: %s)", dev->get_errmsg());')],
    "5.41": [Cite("5.41", "smartmontools/smartctl.cpp", 988,
                  'pout("# %s -d %s # %s, %s device open failed: %s\\n", dev->get_dev_name(),'),
             Cite("5.41", "smartmontools/smartctl.cpp", 997,
                  'pout(" # %s, %s device\\n", dev->get_info_name(), get_protocol_info(dev.get()));')],
    "7.0": [Cite("7.0", "smartmontools/smartctl.cpp", 1487, 'json::ref jref = jglb["devices"][i];'),
            Cite("7.0", "smartmontools/smartctl.cpp", 1501, 'jref["open_error"] = dev->get_errmsg();'),
            Cite("7.0", "smartmontools/smartctl.cpp", 1459, 'jref["info_name"] = dev->get_info_name();')],
    "7.5": [Cite("7.5", "smartmontools/smartctl.cpp", 1561, 'jref["open_error"] = dev->get_errmsg();')],
    "current": [Cite("current", "src/smartctl.cpp", 1595, 'jref["open_error"] = dev->get_errmsg();')],
}
