"""Each call's timeout and each reading's deadline (smartctl/bounds.py), on the calls ssdwear makes (argv.py): 20 s,
10 s behind a USB bridge, the configured timeout for every call; no call after the deadline, a call cut to it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from ssdwear.model.errors import DriveError
from ssdwear.smartctl.argv import SCAN_ARGS, log_page_args, nvme_identify_args, read_args, reset_args
from ssdwear.smartctl.bounds import Bounded, Bounds
from ssdwear.smartctl.replay import ReplayRunner
from ssdwear.smartctl.runner import CallResult


def on_usb(device: str) -> bool:
    return device == "/dev/sdu"  # the one device this "host" places below a USB device


@pytest.mark.parametrize("args,seconds", [
    (SCAN_ARGS, 20),
    (read_args("/dev/sda", "sat"), 20),  # SATA on a SATA port (or an HBA): -d sat, as the scan names it
    (read_args("/dev/sda", None), 20),
    (read_args("/dev/nvme0", "nvme"), 20),
    (read_args("/dev/bus/0", "sat+megaraid,1"), 20),
    (read_args("/dev/sdu", "sat"), 10),  # SATA behind a USB bridge: the same -d sat, told apart by sysfs
    (read_args("/dev/sdu", "sat,12"), 10),
    (read_args("/dev/sdu", None), 10),  # smartctl picks the bridge's type itself
    (read_args("/dev/sdu", "scsi"), 20),  # a USB stick read as SCSI: no bridge type
    (read_args("/dev/sdu", "sat+megaraid,0"), 20),
    (read_args("/dev/sdb", "sntjmicron"), 10),  # the USB-to-NVMe bridges, wherever their device is
    (read_args("/dev/sdb", "sntasmedia"), 10),
    (read_args("/dev/sdb", "sntrealtek"), 10),
    (read_args("/dev/sdb", "sntjmicron,0x1"), 10),
    (read_args("/dev/sdb", "usbjmicron,p,1"), 10),
    (log_page_args("/dev/sdb", "sntjmicron", 0xCA), 10),
    (reset_args("/dev/sdu", "sat"), 10),
    (nvme_identify_args("/dev/nvme0"), 20),
])
def test_each_call_gets_20_seconds_and_10_behind_a_usb_bridge(args: list[str], seconds: float) -> None:
    assert Bounds(usb=on_usb).call_timeout(args) == seconds
    assert Bounds(timeout_s=45, usb=on_usb).call_timeout(args) == 45  # --timeout, smartctl_timeout: every call


class Timed:
    """A runner told each call's time: it records it, and fails as a killed call does when `takes` is longer."""

    def __init__(self, takes: float) -> None:
        self.takes = takes
        self.given: list[float] = []

    def run(self, args: Sequence[str]) -> CallResult:
        raise AssertionError("a timed runner is told the call's time")

    def run_within(self, args: Sequence[str], seconds: float) -> CallResult:
        self.given.append(seconds)
        if self.takes > seconds:
            raise DriveError(args[-1], f"smartctl did not answer within {seconds:g} s and was killed", kind="timeout")
        return CallResult(tuple(args), b"{}", 0)


def test_a_call_is_cut_to_what_is_left_of_the_deadline_and_none_starts_after_it() -> None:
    runner = Timed(takes=1)
    left = [100.0]
    bounded = Bounded(runner, Bounds(deadline_s=120), lambda: left[0])
    bounded.run(read_args("/dev/sda", "sat"))
    left[0] = 5.0
    bounded.run(read_args("/dev/sda", "sat"))
    assert runner.given == [20, 5.0]

    slow = Bounded(Timed(takes=30), Bounds(deadline_s=120), lambda: 5.0)
    with pytest.raises(DriveError) as cut:
        slow.run(read_args("/dev/sdb", "sat"))
    assert cut.value.kind == "deadline" and "still reading it when the run's deadline (120 s" in cut.value.message

    own = Bounded(Timed(takes=30), Bounds(deadline_s=120), lambda: 100.0)
    with pytest.raises(DriveError) as timed_out:
        own.run(read_args("/dev/sdb", "sat"))
    assert timed_out.value.kind == "timeout" and "within 20 s" in timed_out.value.message

    never = Timed(takes=0)
    with pytest.raises(DriveError) as passed:
        Bounded(never, Bounds(deadline_s=120), lambda: -0.5).run(read_args("/dev/sdc", "sat"))
    assert passed.value.kind == "deadline" and passed.value.device == "/dev/sdc" and never.given == []
    assert "passed before its turn" in passed.value.message


def test_outside_a_reading_only_the_calls_own_timeout_bounds_it(tmp_path) -> None:
    """A timer reset (start) is sent outside a reading: the deadline never cuts it."""
    runner = Timed(takes=0)
    Bounded(runner, Bounds(deadline_s=1), lambda: None).run(reset_args("/dev/sda", "sat"))
    assert runner.given == [20]
    folder = tmp_path / "machine"
    folder.mkdir()
    (folder / "smartctl --scan-open --json=c.out").write_text('{"devices": []}')
    replayed = Bounded(ReplayRunner(folder), Bounds(deadline_s=1), lambda: 0.5)  # recordings: answered at once
    assert replayed.run(SCAN_ARGS).stdout == b'{"devices": []}'
