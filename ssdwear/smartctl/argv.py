"""The calls ssdwear makes, as the arguments after the program name. These argument lists are also the names of
the recorded fixtures (replay.fixture_name)."""

from __future__ import annotations

from collections.abc import Sequence


def read_args(device: str, device_type: str | None, json: bool = True, wake: bool = False) -> list[str]:
    args = ["--json=c", "-x"] if json else ["-x"]
    if not wake:
        args += ["-n", "standby"]
    if device_type:
        args += ["-d", device_type]
    return [*args, device]


def identity_args(device: str, device_type: str | None, json: bool = True) -> list[str]:
    return [*(["--json=c"] if json else []), "-i", *(["-d", device_type] if device_type else []), device]


def reset_args(device: str, device_type: str | None) -> list[str]:
    return ["-t", "vendor,0x40", *(["-d", device_type] if device_type else []), device]


def log_page_args(device: str, device_type: str | None, page: int, size: int = 0x200) -> list[str]:
    """An NVMe log page as smartctl's hex dump. Both numbers must be hex with 0x: smartctl rejects `,512`."""
    return ["-l", f"nvmelog,0x{page:02x},0x{size:x}", *(["-d", device_type] if device_type else []), device]


def nvme_reset_args(device: str) -> list[str]:
    """nvme-cli: Set Features, feature 0xD5 (Intel/Solidigm: reset the timed-workload counters), value 1."""
    return ["set-feature", device, "-f", "0xd5", "-v", "1"]


SCAN_ARGS = ["--scan-open", "--json=c"]
SCAN_ARGS_TEXT = ["--scan-open"]


def nvme_identify_args(device: str) -> list[str]:
    """nvme-cli: Identify Controller as JSON (CTRATT, ENDGIDMAX, the version): a read every controller answers."""
    return ["id-ctrl", device, "-o", "json"]


def nvme_log_args(device: str, log_id: int, lsi: int | None = None, size: int = 512) -> list[str]:
    """nvme-cli: one log page as raw bytes (`-b`: the specification's layout, the same in every nvme-cli version;
    its JSON keys change between versions). `lsi` is the Log Specific Identifier (the endurance group)."""
    return ["get-log", device, f"--log-id=0x{log_id:02x}", *([f"--lsi={lsi}"] if lsi is not None else []),
            f"--log-len={size}", "-b"]


NVME_COMMANDS = ("id-ctrl", "get-log", "set-feature")  # nvme-cli's calls above: the device comes second


def call_subject(args: Sequence[str]) -> str:
    """What a call is about, for messages: its device (smartctl's last argument, nvme-cli's second), or the scan."""
    if list(args[:1]) == ["--scan-open"]:
        return "smartctl --scan-open"
    if args and args[0] in NVME_COMMANDS and len(args) > 1:
        return args[1]
    return args[-1] if args and not args[-1].startswith("-") else "smartctl " + " ".join(args)


def call_device_type(args: Sequence[str]) -> str | None:
    """The -d type a smartctl call gives (None: smartctl picks it)."""
    for i, arg in enumerate(args[:-1]):
        if arg == "-d":
            return args[i + 1]
    return None
