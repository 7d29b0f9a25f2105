"""How long ssdwear waits for smartctl and nvme-cli: each call's timeout, and the deadline of a reading.

Each call may take the timeout the configuration (`smartctl_timeout`) or `--timeout` gives; without one,
DEFAULT_TIMEOUT_S (20 s), or USB_TIMEOUT_S (10 s) for a drive behind a USB bridge: a -d type that names one (the
USB-to-NVMe bridges sntjmicron, sntasmedia and sntrealtek, the USB-to-ATA ones usbjmicron, usbcypress, usbprolific,
usbsunplus and usbasm1352r), or `sat` (or no -d type: smartctl then picks the bridge's type itself) on a device the
host places on USB (host/platforms.on_usb, the test smartctl itself makes). `smartctl --scan-open` cannot say it:
it names a SATA disk on a USB bridge `-d sat` exactly as one on a SATA port. A stalled USB bridge or a failing disk
holds a call for a minute (smartmontools' issues show stalls of 60 s); a drive that answers takes well under a
second, an idle hard disk about 1.65 s (bench/README.md).

A reading (the scan, then one read of every drive) may have a deadline: no call starts after it, and a call still
running when it comes is killed then (its timeout is cut to what is left of the reading). A drive not read by then
is a DriveError of kind 'deadline', reported as not read; the run goes on with the others (run/session.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ssdwear.model.errors import DriveError

from .argv import call_device_type, call_subject
from .runner import DEFAULT_TIMEOUT_S, CallResult, Runner, TimedRunner

USB_TIMEOUT_S = 10.0
# smartctl's -d types that name a USB bridge (smartctl(8), 7.3-7.5), whatever the device; their options follow a ','.
USB_BRIDGE_TYPES = ("sntjmicron", "sntasmedia", "sntrealtek", "usbjmicron", "usbcypress", "usbprolific", "usbsunplus",
                    "usbasm1352r")


def _never(device: str) -> bool:
    return False


@dataclass(frozen=True)
class Bounds:
    """The time each call may take, and the deadline of a reading (seconds after its first call; None: none)."""

    timeout_s: float | None = None  # every call (smartctl_timeout, --timeout); None: by the call (call_timeout)
    usb: Callable[[str], bool] = _never  # whether a device sits behind a USB bridge (host/platforms.on_usb)
    deadline_s: float | None = None

    def call_timeout(self, args: Sequence[str]) -> float:
        if self.timeout_s is not None:
            return self.timeout_s
        return USB_TIMEOUT_S if self.behind_usb(args) else DEFAULT_TIMEOUT_S

    def behind_usb(self, args: Sequence[str]) -> bool:
        """Whether the call reaches its drive through a USB bridge (the module's docstring)."""
        dtype = call_device_type(args)
        base = re.split(r"[,+]", dtype, maxsplit=1)[0].lower() if dtype else None
        if base in USB_BRIDGE_TYPES:
            return True
        if dtype is not None and (base != "sat" or "+" in dtype):  # a controller's pass-through: not on USB
            return False
        subject = call_subject(args)
        return subject.startswith("/dev/") and self.usb(subject)

    def passed(self, subject: str) -> DriveError:
        """The drive whose turn came after the deadline."""
        return DriveError(subject, f"not read: the run's deadline ({self.deadline_s or 0:g} s: --deadline, "
                          "run_deadline) passed before its turn; the others were read (raise the deadline, or read "
                          "more drives at once: --workers)", kind="deadline")

    def cut(self, subject: str) -> DriveError:
        """The drive whose call was still running when the deadline came."""
        return DriveError(subject, f"not read: smartctl was still reading it when the run's deadline "
                          f"({self.deadline_s or 0:g} s: --deadline, run_deadline) came, and was killed (hung device "
                          "or controller?)", kind="deadline")


class Bounded:
    """A runner whose every call gets its time (Bounds.call_timeout), cut to what is left of the reading's deadline
    (`left`: seconds, None outside a reading or without a deadline); no call starts once it has passed. A runner
    that cannot be told a call's time (recordings answer at once) is only kept from starting one."""

    def __init__(self, inner: Runner, bounds: Bounds, left: Callable[[], float | None]) -> None:
        self.inner, self.bounds, self.left = inner, bounds, left

    def run(self, args: Sequence[str]) -> CallResult:
        own = self.bounds.call_timeout(args)
        left = self.left()
        if left is not None and left <= 0:
            raise self.bounds.passed(call_subject(args))
        budget = own if left is None else min(own, left)
        try:
            if isinstance(self.inner, TimedRunner):
                return self.inner.run_within(args, budget)
            return self.inner.run(args)
        except DriveError as exc:
            if exc.kind == "timeout" and budget < own:
                raise self.bounds.cut(exc.device) from None
            raise
