"""smartctl's exit status, a bitmask (smartctl(8) RETURN VALUES):
  bit 0  the command line did not parse            -> the call failed
  bit 1  the device could not be opened (or, with -n, it is in a low-power mode) -> the call failed
  bit 2  a SMART or other ATA/NVMe command failed, or a checksum error -> failed only if no data came back
  bit 3  SMART status: disk failing          bit 4  prefail attribute at or below threshold
  bit 5  attribute at or below threshold in the past
  bit 6  the device error log has errors     bit 7  the self-test log has errors
Bits 3-7 describe the drive, not the call.
"""

from __future__ import annotations

BIT_CMDLINE, BIT_OPEN, BIT_COMMAND = 0x01, 0x02, 0x04
DRIVE_BITS = (
    (0x08, "SMART status: disk failing"),
    (0x10, "a prefail attribute is at or below its threshold"),
    (0x20, "an attribute was at or below its threshold in the past"),
    (0x40, "the device error log contains errors"),
    (0x80, "the self-test log contains errors"),
)


def describe_status(status: int) -> list[str]:
    """Every condition the exit status reports, in words."""
    out = []
    if status & BIT_CMDLINE:
        out.append("the command line did not parse")
    if status & BIT_OPEN:
        out.append("the device could not be opened or is in a low-power mode")
    if status & BIT_COMMAND:
        out.append("a SMART or other device command failed")
    out.extend(text for bit, text in DRIVE_BITS if status & bit)
    return out
