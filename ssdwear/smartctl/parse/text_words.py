"""The fixed words of smartctl's text output that the text reader (text.py) matches: the messages smartctl prints
when something failed, the NVMe SMART/Health field names, and the forms of lines that only some releases print
(each with the smartmontools source it follows; fixtures/formats holds them as each release prints them)."""

from __future__ import annotations

import re

MESSAGE_RE = re.compile(
    r"(?:Smartctl open device: .*"
    r"|Smartctl: .*"
    r"|Device is in .* mode.*"
    r"|=+> .*"
    r"|Read Device Identity failed.*"
    r"|A mandatory SMART command failed.*"
    r"|SMART support is:\s*Unavailable.*"
    r"|SMART Disabled\..*"
    r"|SMART Status not supported.*"
    r"|SMART Status command failed.*"
    r"|Warning: .*"
    r"|Read \S.* failed.*"
    r"|Please specify device type.*"
    r"|/dev/\S+: (?:Unknown|Unable|Unsupported|Device).*"
    r"|Terminate command early.*"
    r"|No such device.*"
    r"|Permission denied.*"
    r"|Device open changed type.*"
    r")"
)

# Error lines only smartctl prints: enough to recognise its output even without the banner, and the sign that it
# could not read the drive.
FAILURE_LINES = (
    "Smartctl open device:",
    "Smartctl: ",
    "Device is in ",
    "=======> ",
    "Read Device Identity failed",
    "A mandatory SMART command failed",
)
# NVMe SMART/Health log lines: key (lower case, single spaces) -> NvmeHealth field.
NVME_KEYS = {
    "critical warning": "critical_warning",
    "temperature": "temperature_celsius",
    "available spare": "available_spare",
    "available spare threshold": "available_spare_threshold",
    "percentage used": "percentage_used",
    "data units read": "data_units_read",
    "data units written": "data_units_written",
    "host read commands": "host_read_commands",
    "host write commands": "host_write_commands",
    "power cycles": "power_cycles",
    "power on hours": "power_on_hours",
    "unsafe shutdowns": "unsafe_shutdowns",
    "media and data integrity errors": "media_errors",
    "error information log entries": "error_log_entries",
}
# SCSI identity before 5.41 (smartmontools scsiprint.c `Device: %s %s Version: %s`): an 8-byte vendor, a 16-byte
# product, the revision; the loose form for INQUIRY strings that are not padded to their widths
SCSI_DEVICE_RE = re.compile(r"(.{8}) (.{16}) Version: *(\S*)")
SCSI_DEVICE_LOOSE_RE = re.compile(r"(\S+)\s+(\S.*?)\s+Version:\s*(\S*)")
# smartctl 5.0-5.0.7: 'Device: MODEL                                    Supports ATA Version 7' (ataprint.c
# `Device: %.40s  Supports ATA Version %i`), and 'Drive supports S.M.A.R.T. and is enabled' (5.0-5.0.7)
ATA_DEVICE_5_0_RE = re.compile(r"(\S.*?)\s+Supports ATA Version [0-9]+")
SMART_5_0_RE = re.compile(
    r"Drive (?:supports S\.M\.A\.R\.T\. and is (enabled|disabled)|does not support S\.M\.A\.R\.T\.)"
)
# smartctl 5.0-5.0.10's attribute table (ataprint.c: 'Attribute  Flag  Value Worst Threshold Raw Value', rows
# `(%3d)Name With Spaces` then ` 0x%04x   %.3i   %.3i   %.3i       ` and the raw value)
ATTR_TABLE_5_0_RE = re.compile(r"Attribute\s+Flag\s+Value\s+Worst\s+Threshold\s+Raw Value")
