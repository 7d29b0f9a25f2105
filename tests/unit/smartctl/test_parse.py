"""Rules of ssdwear.smartctl.parse pinned on small hand-written snippets in smartctl's exact formats."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from ssdwear.model.errors import ParseError
from ssdwear.model.records import DEVSTAT_PERCENT_USED, DEVSTAT_POWER_ON_HOURS, Snapshot
from ssdwear.smartctl.parse import parse_output, parse_scan

BANNER = (
    "smartctl 7.1 2019-12-30 r5022 [x86_64-linux-5.4.0-99-generic] (local build)\n"
    "Copyright (C) 2002-19, Bruce Allen, Christian Franke, www.smartmontools.org\n"
    "\n"
)

ATA_X = (
    BANNER
    + """=== START OF INFORMATION SECTION ===
Model Family:     Intel 730 and DC S35x0/3610/3700 Series SSDs
Device Model:     INTEL SSDSC2BB480G6
Serial Number:    PHWA123400AB480FGN
LU WWN Device Id: 5 5cd2e4 04ba3c1f2
Firmware Version: G2010150
User Capacity:    480,103,981,056 bytes [480 GB]
Sector Sizes:     512 bytes logical, 4096 bytes physical
Rotation Rate:    Solid State Device
Local Time is:    Wed Mar 16 10:11:12 2022 UTC
SMART support is: Available - device has SMART capability.
SMART support is: Enabled

=== START OF READ SMART DATA SECTION ===
SMART overall-health self-assessment test result: PASSED

SMART Attributes Data Structure revision number: 1
Vendor Specific SMART Attributes with Thresholds:
ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE
  5 Reallocated_Sector_Ct   -O--CK   100   100   000    -    0
  9 Power_On_Hours          -O--CK   100   100   000    -    38316
 12 Power_Cycle_Count       -O--CK   100   100   000    -    69
170 Available_Reservd_Space PO--CK   100   100   010    -    0
190 Temperature_Case        -O---K   072   065   000    -    28 (Min/Max 20/35)
225 Host_Writes_32MiB       -O--CK   100   100   000    -    13590253
226 Workld_Media_Wear_Indic -O--CK   100   100   000    -    65535
227 Workld_Host_Reads_Perc  -O--CK   100   100   000    -    65535
228 Workload_Minutes        -O--CK   100   100   000    -    65535
232 Available_Reservd_Space PO--CK   009   009   010    NOW  0
233 Media_Wearout_Indicator -O--CK   068   068   000    -    0
241 Host_Writes_32MiB       -O--CK   100   100   000    -    13590253
                            ||||||_ K auto-keep
                            |||||__ C event count
                            ||||___ R error rate
                            |||____ S speed/performance
                            ||_____ O updated online
                            |______ P prefailure warning

Device Statistics (GP Log 0x04)
Page  Offset Size        Value Flags Description
0x01  =====  =               =  ===  == General Statistics (rev 2) ==
0x01  0x008  4              69  ---  Lifetime Power-On Resets
0x01  0x010  4           38316  ---  Power-on Hours
0x01  0x018  6     34251322852  ---  Logical Sectors Written
0x05  =====  =               =  ===  == Temperature Statistics (rev 1) ==
0x05  0x018  1               -  ---  Average Long Term Temperature
0x05  0x068  1             -10  ---  Specified Minimum Operating Temperature
0x07  =====  =               =  ===  == Solid State Device Statistics (rev 1) ==
0x07  0x008  1              32  N--  Percentage Used Endurance Indicator
                                |||_ C monitored condition met
                                ||__ D supports DSN
                                |___ N normalized value

"""
)

ATA_OLD = (
    BANNER
    + """=== START OF INFORMATION SECTION ===
Device Model:     ST2000NM000A-2J2100
Serial Number:    --
LU WWN Device Id: 5 000c50 ...
Firmware Version: SN02
User Capacity:    2,000,398,934,016 bytes [2.00 TB]
Sector Size:      512 bytes logical/physical
Rotation Rate:    7200 rpm

=== START OF READ SMART DATA SECTION ===
SMART overall-health self-assessment test result: FAILED!
Drive failure expected in less than 24 hours. SAVE ALL DATA.

SMART Attributes Data Structure revision number: 10
Vendor Specific SMART Attributes with Thresholds:
ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE
  1 Raw_Read_Error_Rate     0x000f   082   064   044    Pre-fail  Always       -       148350832
  5 Reallocated_Sector_Ct   0x0033   001   001   010    Pre-fail  Always   FAILING_NOW 1975
  9 Power_On_Hours          0x0032   099   099   000    Old_age   Always       -       1380
 12 Power_Cycle_Count       0x0032   100   100   020    Old_age   Always       -       39
194 Temperature_Celsius     0x0022   031   040   000    Old_age   Always   In_the_past 31 (0 22 0 0 0)
230 Media_Wearout_Indicator 0x0032   020   020   000    Old_age   Always       -       0x14610d501461
240 Head_Flying_Hours       0x0000   100   253   000    Old_age   Offline      -       1369 (143 119 0)
244 Thermal_Throttle        0x0032   ---   100   ---    Old_age   Always       -       0

SMART Error Log Version: 1
No Errors Logged
"""
)

NVME = (
    BANNER
    + """=== START OF INFORMATION SECTION ===
Model Number:                       Samsung SSD 970 PRO 512GB
Serial Number:                      S463NF0K000000X
Firmware Version:                   1B2QEXP7
Total NVM Capacity:                 512,110,190,592 [512 GB]
Namespace 1 Size/Capacity:          512,110,190,592 [512 GB]
Namespace 1 Formatted LBA Size:     512
Local Time is:                      Fri Apr  1 09:08:07 2022 CEST

=== START OF SMART DATA SECTION ===
SMART overall-health self-assessment test result: FAILED!
- NVM subsystem reliability has been degraded

SMART/Health Information (NVMe Log 0x02)
Critical Warning:                   0x04
Temperature:                        39 Celsius
Available Spare:                    100%
Available Spare Threshold:          10%
Percentage Used:                    199%
Data Units Read:                    119,871,230 [61.3 TB]
Data Units Written:                 2,603,733,369 [1.33 PB]
Host Read Commands:                 2,177,307,045
Host Write Commands:                21,457,151,112
Controller Busy Time:               105,418
Power Cycles:                       66
Power On Hours:                     19,996
Unsafe Shutdowns:                   37
Media and Data Integrity Errors:    0
Error Information Log Entries:      1,203
Warning  Comp. Temperature Time:    0
Critical Comp. Temperature Time:    0
"""
)

SCSI = (
    BANNER
    + """=== START OF INFORMATION SECTION ===
Vendor:               SAMSUNG
Product:              MZILT7T6HALA/007
Revision:             GXA0
User Capacity:        7,681,501,126,656 bytes [7.68 TB]
Logical block size:   512 bytes
Rotation Rate:        Solid State Device
Logical Unit id:      0x5002538b1184df60
Serial number:        S5DDNE0R801692
Device type:          disk
Transport protocol:   SAS (SPL-4)
Local Time is:        Fri Dec 23 16:00:21 2022 MSK
SMART support is:     Available - device has SMART capability.
SMART support is:     Enabled

=== START OF READ SMART DATA SECTION ===
SMART Health Status: OK

Percentage used endurance indicator: 3%
Current Drive Temperature:     25 C
Elements in grown defect list: 2

Error counter log:
           Errors Corrected by           Total   Correction     Gigabytes    Total
               ECC          rereads/    errors   algorithm      processed    uncorrected
           fast | delayed   rewrites  corrected  invocations   [10^9 bytes]  errors
read:          0        0         0         0          0      10311,154           1
write:         0        0         0         0          0      11472.811           2
verify:        0        0         0         0          0          0,000           3

Background scan results log
  Status: scan is active
    Accumulated power on time, hours:minutes 146:02 [8762 minutes]
"""
)


def parse(text: str | bytes, source: str = "snippet.txt", **kw: str) -> Snapshot:
    return parse_output(text, source, **kw)


def nvme_with(key: str, printed: str) -> Snapshot:
    return parse(BANNER + "SMART/Health Information (NVMe Log 0x02)\n" + f"{key}: {printed}\n")


# ---------------------------------------------------------------------------------------------------
# ATA text


def test_ata_brief_identity_and_health() -> None:
    s = parse(ATA_X)
    assert s.interface == "ata"
    assert s.model == "INTEL SSDSC2BB480G6"
    assert s.model_family == "Intel 730 and DC S35x0/3610/3700 Series SSDs"
    assert s.serial == "PHWA123400AB480FGN"
    assert s.wwn == "55cd2e404ba3c1f2"
    assert s.firmware == "G2010150"
    assert s.capacity_bytes == 480_103_981_056
    assert s.logical_sector_size == 512
    assert s.rotation_rate == 0
    assert s.is_solid_state is True
    assert s.smartctl_version == "7.1"
    assert (s.smart_available, s.smart_enabled, s.smart_passed) == (True, True, True)
    assert s.power_on_hours == 38316
    assert s.power_on_hours_trusted
    assert s.power_cycles == 69
    assert s.local_time == datetime(2022, 3, 16, 10, 11, 12, tzinfo=timezone.utc)
    assert s.messages == ()
    assert s.parse_notes == ()
    assert s.device is None and s.device_type is None
    assert s.source == "snippet.txt"


def test_ata_brief_attribute_table() -> None:
    s = parse(ATA_X)
    assert sorted(s.attributes) == [5, 9, 12, 170, 190, 225, 226, 227, 228, 232, 233, 241]
    a = s.attributes[190]
    assert (a.name, a.value, a.worst, a.thresh) == ("Temperature_Case", 72, 65, 0)
    assert (a.raw, a.raw_string) == (28, "28 (Min/Max 20/35)")
    assert s.attributes[226].raw == 65535
    assert s.attributes[233].value == 68
    assert s.attributes[170].prefailure and not s.attributes[5].prefailure
    assert s.attributes[232].when_failed == "FAILING_NOW"
    assert s.attributes[5].when_failed == ""


def test_ata_device_statistics() -> None:
    s = parse(ATA_X)
    pu = s.devstats[DEVSTAT_PERCENT_USED]
    assert (pu.page, pu.offset, pu.name, pu.value, pu.valid, pu.normalized) == (
        7, 8, "Percentage Used Endurance Indicator", 32, True, True,
    )  # fmt: skip
    assert s.devstat(DEVSTAT_POWER_ON_HOURS) == 38316
    assert s.devstats[(1, 0x18)].value == 34_251_322_852
    assert not s.devstats[(1, 0x18)].normalized
    invalid = s.devstats[(5, 0x18)]
    assert (invalid.valid, invalid.value) == (False, None)
    assert s.devstat((5, 0x18)) is None
    assert s.devstats[(5, 0x68)].value == -10


def test_devstat_255_is_recorded_as_printed() -> None:
    s = parse(ATA_X.replace("32  N--  Percentage", "255  ---  Percentage"))
    assert s.devstats[DEVSTAT_PERCENT_USED].value == 255
    assert s.devstats[DEVSTAT_PERCENT_USED].valid


def test_ata_old_format_table() -> None:
    s = parse(ATA_OLD)
    assert s.interface == "ata"
    assert s.smart_passed is False
    assert s.rotation_rate == 7200
    assert s.is_solid_state is False
    assert s.serial is None
    assert s.wwn is None  # truncated by the anonymiser
    assert s.power_on_hours == 1380
    assert s.power_cycles == 39
    a5 = s.attributes[5]
    assert (a5.value, a5.worst, a5.thresh, a5.raw, a5.when_failed, a5.prefailure) == (
        1, 1, 10, 1975, "FAILING_NOW", True,
    )  # fmt: skip
    assert s.attributes[194].when_failed == "In_the_past"
    assert s.attributes[194].raw == 31
    assert s.attributes[230].raw == 0x14610D501461
    assert s.attributes[230].raw_string == "0x14610d501461"
    assert s.attributes[240].raw == 1369
    a244 = s.attributes[244]
    assert (a244.value, a244.worst, a244.thresh) == (None, 100, None)
    assert s.devstats == {}


def test_crlf_and_trailing_spaces() -> None:
    padded = "\r\n".join(line + "   " for line in ATA_OLD.splitlines()) + "\r\n"
    s = parse(padded.encode())
    assert s.attributes[5].raw == 1975
    assert s.attributes[194].raw_string == "31 (0 22 0 0 0)"
    assert s.model == "ST2000NM000A-2J2100"
    assert s.capacity_bytes == 2_000_398_934_016


def test_collapsed_whitespace() -> None:
    collapsed = "\n".join(" ".join(line.split()) for line in ATA_X.splitlines())
    s = parse(collapsed)
    assert s.attributes[241].raw == 13_590_253
    assert s.attributes[190].raw_string == "28 (Min/Max 20/35)"
    assert s.devstats[DEVSTAT_PERCENT_USED].value == 32
    assert s.local_time == datetime(2022, 3, 16, 10, 11, 12, tzinfo=timezone.utc)
    assert s.wwn == "55cd2e404ba3c1f2"


@pytest.mark.parametrize(
    ("raw", "hours"),
    [
        ("55419", 55419.0),
        ("18850 (8 107 0)", 18850.0),
        ("18924h+45m+31.870s", 18924 + 45 / 60 + 31.87 / 3600),
        ("8317h+00m+25.820s", 8317 + 25.82 / 3600),
    ],
)
def test_power_on_hours_forms(raw: str, hours: float) -> None:
    text = ATA_X.replace("-O--CK   100   100   000    -    38316", f"-O--CK   100   100   000    -    {raw}")
    text = text.replace("38316  ---  Power-on Hours", f"{int(hours)}  ---  Power-on Hours")
    s = parse(text)
    assert s.power_on_hours == pytest.approx(hours)
    assert s.power_on_hours_trusted
    assert s.attributes[9].raw_string == raw


def test_power_on_hours_absurd_prefers_device_statistics() -> None:
    text = ATA_X.replace(
        "-O--CK   100   100   000    -    38316", "-O--CK   100   100   000    -    970208h+52m+55.300s"
    )
    s = parse(text)
    assert s.power_on_hours == 38316
    assert s.power_on_hours_trusted is True  # the standard statistic's hours are kept, not dropped
    assert any("not plausible" in n for n in s.parse_notes)
    assert s.attributes[9].raw == 970208


@pytest.mark.parametrize("attr9,devstat,hours,trusted", [
    ("970208h+52m+55.300s", "644752875", 970208 + 52 / 60 + 55.3 / 3600, False),  # both impossible: no clock
    ("38316", "644752875", 38316, True),  # an impossible Device Statistics value does not replace attribute 9
    ("38316", "38316", 38316, True),
])
def test_one_plausibility_rule_for_every_power_on_source(attr9: str, devstat: str, hours: float,
                                                         trusted: bool) -> None:
    text = ATA_X.replace("-O--CK   100   100   000    -    38316", f"-O--CK   100   100   000    -    {attr9}")
    s = parse(text.replace("38316  ---  Power-on Hours", f"{devstat}  ---  Power-on Hours"))
    assert s.power_on_hours == pytest.approx(hours) and s.power_on_hours_trusted is trusted
    assert any("Device Statistics Power-on Hours 644,752,875" in n for n in s.parse_notes) == (devstat != "38316")


def test_power_on_hours_absurd_without_device_statistics() -> None:
    text = ATA_OLD.replace("Always       -       1380", "Always       -       949902h+54m+54.540s")
    s = parse(text)
    assert s.power_on_hours_trusted is False
    assert s.power_on_hours == pytest.approx(949902 + 54 / 60 + 54.54 / 3600)
    assert s.parse_notes


def test_power_on_hours_disagreeing_with_device_statistics() -> None:
    s = parse(ATA_X.replace("38316  ---  Power-on Hours", "45000  ---  Power-on Hours"))
    assert s.power_on_hours == 45000
    assert s.power_on_hours_trusted is True
    assert any("disagree" in n for n in s.parse_notes)
    close = parse(ATA_X.replace("38316  ---  Power-on Hours", "38400  ---  Power-on Hours"))
    assert close.power_on_hours == 38316 and close.power_on_hours_trusted


@pytest.mark.parametrize(
    "printed",
    ["--", "-", "", "XXXXXXXXXXXX", "REDACTED", "[No Information Found]", "000000000000", "BXXXXXXXXXXXXXXXXN"],
)
def test_masked_serial_is_none(printed: str) -> None:
    s = parse(ATA_X.replace("PHWA123400AB480FGN", printed))
    assert s.serial is None


@pytest.mark.parametrize(
    ("printed", "wwn"),
    [
        ("5 5cd2e4 04ba3c1f2", "55cd2e404ba3c1f2"),
        ("5 002538 655584D30", "5002538655584d30"),
        ("5 5cd2e4 ...", None),
        ("5 001517 ...", None),
        ("REDACTED", None),
    ],
)
def test_text_wwn(printed: str, wwn: str | None) -> None:
    assert parse(ATA_X.replace("5 5cd2e4 04ba3c1f2", printed)).wwn == wwn


def test_smart_unavailable_and_disabled() -> None:
    text = (
        BANNER + "=== START OF INFORMATION SECTION ===\n"
        "Vendor:               AVAGO\nProduct:              MR9361-16i\n"
        "SMART support is:     Unavailable - device lacks SMART capability.\n"
    )
    s = parse(text)
    assert s.interface == "scsi"
    assert s.model == "AVAGO MR9361-16i"
    assert s.smart_available is False
    assert s.smart_passed is None
    assert "SMART support is: Unavailable - device lacks SMART capability." in s.messages
    d = parse(ATA_X.replace("SMART support is: Enabled", "SMART support is: Disabled"))
    assert d.smart_enabled is False


# ---------------------------------------------------------------------------------------------------
# Numbers and separators


@pytest.mark.parametrize(
    "printed",
    [
        "2,603,733,369 [1.33 PB]",
        "2.603.733.369 [1,33 PB]",
        "2’603’733’369 [1.33 PB]",
        "2'603'733'369 [1.33 PB]",
        "2\u202f603\u202f733\u202f369 [1,33 PB]",
        "2\u00a0603\u00a0733\u00a0369 [1,33 PB]",
        "2 603 733 369 [1,33 PB]",
        "2603733369",
    ],
)
def test_thousands_separators(printed: str) -> None:
    assert nvme_with("Data Units Written", printed).nvme.data_units_written == 2_603_733_369


def test_dot_separator_is_never_a_decimal() -> None:
    s = nvme_with("Power On Hours", "5.809")
    assert s.power_on_hours == 5809
    assert s.nvme is not None and s.nvme.power_on_hours == 5809


def test_latin1_nbsp_bytes() -> None:
    text = (BANNER + "SMART/Health Information (NVMe Log 0x02)\r\nPower On Hours:  3\xa0387\r\n").encode("latin-1")
    with pytest.raises(UnicodeDecodeError):
        text.decode("utf-8")
    s = parse(text)
    assert s.power_on_hours == 3387
    assert s.capacity_bytes is None


def test_latin1_user_capacity_in_ata_text() -> None:
    data = ATA_X.replace("480,103,981,056", "480\xa0103\xa0981\xa0056").encode("latin-1")
    assert parse(data).capacity_bytes == 480_103_981_056


# ---------------------------------------------------------------------------------------------------
# NVMe


def test_nvme_text() -> None:
    s = parse(NVME)
    assert s.interface == "nvme"
    assert s.model == "Samsung SSD 970 PRO 512GB"
    assert s.capacity_bytes == 512_110_190_592
    assert s.logical_sector_size == 512
    assert s.rotation_rate == 0 and s.is_solid_state
    assert s.smart_passed is False
    assert s.power_on_hours == 19996
    assert s.power_cycles == 66
    assert s.local_time == datetime(2022, 4, 1, 9, 8, 7, tzinfo=timezone(timedelta(hours=2)))
    n = s.nvme
    assert n is not None
    assert n.critical_warning == 4
    assert n.temperature_celsius == 39
    assert (n.available_spare, n.available_spare_threshold, n.percentage_used) == (100, 10, 199)
    assert (n.data_units_read, n.data_units_written) == (119_871_230, 2_603_733_369)
    assert (n.host_read_commands, n.host_write_commands) == (2_177_307_045, 21_457_151_112)
    assert (n.power_cycles, n.power_on_hours, n.unsafe_shutdowns) == (66, 19996, 37)
    assert (n.media_errors, n.error_log_entries) == (0, 1203)
    assert s.attributes == {} and s.devstats == {} and s.scsi is None


def test_nvme_smartctl_6_layout() -> None:
    text = (
        "smartctl 6.6 2016-05-31 r4324 [x86_64-linux-5.4.0-126-generic] (local build)\n"
        "=== START OF INFORMATION SECTION ===\nModel Number: WDC WDS100T2B0C-00PXH0\n"
        "Namespace 1 Size/Capacity: 1 000 204 886 016 [1,00 TB]\n\n"
        "=== START OF SMART DATA SECTION ===\n"
        "SMART/Health Information (NVMe Log 0x02, NSID 0xffffffff)\n"
        "Critical Warning: 0x00\nAvailable Spare: 100%\nPercentage Used: 0%\n"
        "Data Units Written: 852\u202f433 [436 GB]\nPower On Hours: 31\n"
    )
    s = parse(text)
    assert s.smartctl_version == "6.6"
    assert s.capacity_bytes == 1_000_204_886_016
    assert s.nvme is not None and s.nvme.data_units_written == 852_433
    assert s.power_on_hours == 31


def test_nvme_behind_scsi_translation_is_scsi() -> None:
    text = (
        BANNER + "=== START OF INFORMATION SECTION ===\nVendor:               NVMe\n"
        "Product:              Dell Ent NVMe CM\nRevision:             .1.8\n"
        "Serial number:        --\n\nSMART Health Status: OK\n\nPercentage used endurance indicator: 0%\n"
    )
    s = parse(text)
    assert s.interface == "scsi"
    assert s.model == "NVMe Dell Ent NVMe CM"
    assert s.nvme is None
    assert s.scsi is not None and s.scsi.percentage_used == 0
    assert s.smart_passed is True


# ---------------------------------------------------------------------------------------------------
# SCSI


def test_scsi_text() -> None:
    s = parse(SCSI)
    assert s.interface == "scsi"
    assert s.model == "SAMSUNG MZILT7T6HALA/007"
    assert s.firmware == "GXA0"
    assert s.serial == "S5DDNE0R801692"
    assert s.wwn == "5002538b1184df60"
    assert s.capacity_bytes == 7_681_501_126_656
    assert s.logical_sector_size == 512
    assert s.smart_passed is True
    assert s.power_on_hours == pytest.approx(146 + 2 / 60)
    assert s.local_time == datetime(2022, 12, 23, 16, 0, 21, tzinfo=timezone(timedelta(hours=3)))
    sc = s.scsi
    assert sc is not None
    assert sc.percentage_used == 3
    assert sc.bytes_read == 10_311_154_000_000  # '10311,154' GB: decimal comma
    assert sc.bytes_written == 11_472_811_000_000
    assert sc.uncorrected_errors == 6
    assert sc.grown_defects == 2
    assert s.nvme is None and s.attributes == {}


def test_scsi_health_not_ok() -> None:
    s = parse(SCSI.replace("SMART Health Status: OK", "SMART Health Status: FIRMWARE IMPENDING FAILURE [asc=5d]"))
    assert s.smart_passed is False


# ---------------------------------------------------------------------------------------------------
# JSON

ATA_JSON = {
    "json_format_version": [1, 0],
    "smartctl": {"version": [7, 3], "svn_revision": "5338", "exit_status": 0},
    "device": {"name": "/dev/sda", "info_name": "/dev/sda [SAT]", "type": "sat", "protocol": "ATA"},
    "model_family": "Intel 730 and DC S35x0/3610/3700 Series SSDs",
    "model_name": "INTEL SSDSC2BB240G4",
    "serial_number": "BTWL0000000A240NGN",
    "wwn": {"naa": 5, "oui": 9528, "id": 22817852457},
    "firmware_version": "D2010370",
    "user_capacity": {"blocks": 468862128, "bytes": 240057409536},
    "logical_block_size": 512,
    "rotation_rate": 0,
    "local_time": {"time_t": 1652219998, "asctime": "Tue May 10 21:59:58 2022 UTC"},
    "smart_support": {"available": True, "enabled": True},
    "smart_status": {"passed": True},
    "ata_smart_attributes": {
        "revision": 1,
        "table": [
            {
                "id": 9, "name": "Power_On_Hours", "value": 100, "worst": 100, "thresh": 0, "when_failed": "",
                "flags": {"value": 50, "string": "-O--CK ", "prefailure": False},
                "raw": {"value": 69412, "string": "69412"},
            },
            {
                "id": 173, "name": "MaxAvgErase_Ct", "value": 100, "worst": 100, "thresh": 0, "when_failed": "past",
                "flags": {"value": 51, "string": "PO--CK ", "prefailure": True},
                "raw": {"value": 1114162, "string": "50 (Average 17)"},
            },
            {
                "id": 226, "name": "Workld_Media_Wear_Indic", "value": 100, "worst": 100, "thresh": 0,
                "when_failed": "now", "flags": {"prefailure": False}, "raw": {"value": 80619, "string": "80619"},
            },
        ],
    },
    "ata_device_statistics": {
        "pages": [
            {
                "number": 1, "name": "General Statistics", "revision": 1,
                "table": [
                    {"offset": 16, "name": "Power-on Hours", "size": 4, "value": 69412,
                     "flags": {"valid": True, "normalized": False}},
                    {"offset": 56, "name": "Date and Time TimeStamp", "size": 6, "value": 1360000,
                     "flags": {"valid": False, "normalized": False}},
                ],
            },
            {
                "number": 7, "name": "Solid State Device Statistics", "revision": 1,
                "table": [
                    {"offset": 8, "name": "Percentage Used Endurance Indicator", "size": 1, "value": 255,
                     "flags": {"valid": True, "normalized": True}},
                ],
            },
        ]
    },
    "power_on_time": {"hours": 69412},
    "power_cycle_count": 55,
}  # fmt: skip


def test_json_ata() -> None:
    s = parse(json.dumps(ATA_JSON), "sda.json")
    assert s.interface == "ata"
    assert s.device == "/dev/sda" and s.device_type == "sat"
    assert s.model == "INTEL SSDSC2BB240G4"
    assert s.wwn == f"5{9528:06x}{22817852457:09x}" == "50025385500ccc29"
    assert s.capacity_bytes == 240_057_409_536
    assert s.smartctl_version == "7.3"
    assert s.exit_status == 0
    assert s.power_on_hours == 69412 and s.power_cycles == 55
    assert s.local_time == datetime(2022, 5, 10, 21, 59, 58, tzinfo=timezone.utc)
    a = s.attributes[173]
    assert (a.raw, a.raw_string, a.prefailure, a.when_failed) == (1114162, "50 (Average 17)", True, "In_the_past")
    assert s.attributes[226].when_failed == "FAILING_NOW"
    assert s.devstats[DEVSTAT_PERCENT_USED].value == 255
    assert s.devstats[DEVSTAT_PERCENT_USED].normalized
    ts = s.devstats[(1, 56)]
    assert (ts.valid, ts.value) == (False, None)


def test_json_tab_indented_sorted_keys_and_redactions() -> None:
    redacted = dict(ATA_JSON)
    redacted.update(
        serial_number="REDACTED",
        firmware_version="REDACTED",
        wwn={"id": 1234567890, "naa": 5, "oui": 9528},
        local_time={"asctime": "Fri Feb 13 23:31:30 2009 UTC", "time_t": 1234567890},
    )
    s = parse(json.dumps(redacted, indent="\t", sort_keys=True))
    assert s.serial is None and s.firmware is None and s.wwn is None and s.local_time is None
    assert s.attributes[226].raw == 80619


def test_json_time_t_disagreeing_with_asctime_is_dropped() -> None:
    doc = dict(ATA_JSON, local_time={"time_t": 1637039918, "asctime": "Sun Sep 20 16:24:50 2020 Europe"})
    s = parse(json.dumps(doc))
    assert s.local_time is None
    assert s.parse_notes


def test_json_nvme() -> None:
    doc = {
        "json_format_version": [1, 0],
        "smartctl": {"version": [7, 4], "pre_release": True, "exit_status": 4,
                     "messages": [{"string": "Read Self-test Log failed", "severity": "error"}]},
        "device": {"name": "/dev/nvme0", "type": "nvme", "protocol": "NVMe"},
        "model_name": "INTEL SSDPE2KX010T8",
        "nvme_total_capacity": 1000204886016,
        "smart_status": {"passed": True, "nvme": {"value": 0}},
        "nvme_smart_health_information_log": {
            "critical_warning": 0, "temperature": 30, "available_spare": 99, "available_spare_threshold": 10,
            "percentage_used": 73, "data_units_read": 1, "data_units_written": 5165815292, "host_reads": 3,
            "host_writes": 4, "power_cycles": 10, "power_on_hours": 8843, "unsafe_shutdowns": 5,
            "media_errors": 0, "num_err_log_entries": 7,
        },
        "power_on_time": {"hours": 8843},
        "power_cycle_count": 10,
    }  # fmt: skip
    s = parse(json.dumps(doc))
    assert s.interface == "nvme"
    assert s.smartctl_version == "pre-7.4"
    assert s.capacity_bytes == 1_000_204_886_016
    assert s.rotation_rate == 0
    assert s.exit_status == 4
    assert s.messages == ("Read Self-test Log failed",)
    n = s.nvme
    assert n is not None
    assert (n.percentage_used, n.data_units_written, n.available_spare, n.power_on_hours) == (73, 5165815292, 99, 8843)
    assert (n.host_read_commands, n.host_write_commands, n.error_log_entries) == (3, 4, 7)


def test_json_scsi() -> None:
    doc = {
        "json_format_version": [1, 0],
        "smartctl": {"version": [7, 3], "exit_status": 0},
        "device": {"name": "/dev/sdb", "type": "scsi", "protocol": "SCSI"},
        "scsi_vendor": "HITACHI", "scsi_product": "H109060SESUN600G", "scsi_revision": "A31A",
        "logical_unit_id": "0x5000cca01234abcd",
        "smart_status": {"passed": True},
        "power_on_time": {"hours": 22364, "minutes": 52},
        "scsi_percentage_used_endurance_indicator": 7,
        "scsi_grown_defect_list": 0,
        "scsi_error_counter_log": {
            "read": {"gigabytes_processed": "162438.759", "total_uncorrected_errors": 1},
            "write": {"gigabytes_processed": 127551.26, "total_uncorrected_errors": 0},
            "verify": {"gigabytes_processed": "1.525", "total_uncorrected_errors": 2},
        },
    }  # fmt: skip
    s = parse(json.dumps(doc))
    assert s.interface == "scsi"
    assert s.model == "HITACHI H109060SESUN600G"
    assert s.firmware == "A31A"
    assert s.wwn == "5000cca01234abcd"
    assert s.power_on_hours == pytest.approx(22364 + 52 / 60)
    sc = s.scsi
    assert sc is not None
    assert (sc.percentage_used, sc.grown_defects, sc.uncorrected_errors) == (7, 0, 3)
    assert sc.bytes_read == 162_438_759_000_000
    assert sc.bytes_written == 127_551_260_000_000


def test_json_open_failure_is_an_empty_snapshot() -> None:
    doc = {
        "json_format_version": [1, 0],
        "smartctl": {"version": [7, 0], "argv": ["smartctl", "--all", "-j", "/dev/sda"], "exit_status": 2,
                     "messages": [{"string": "Smartctl open device: /dev/sda failed: No such device",
                                   "severity": "error"}]},
    }  # fmt: skip
    s = parse(json.dumps(doc), "/dev/sda", device="/dev/sda", device_type="sat")
    assert s.exit_status == 2
    assert s.messages == ("Smartctl open device: /dev/sda failed: No such device",)
    assert s.interface == "unknown"
    assert s.model is None and s.attributes == {} and s.nvme is None and s.scsi is None
    assert s.device == "/dev/sda" and s.device_type == "sat"


def test_device_overrides() -> None:
    s = parse(json.dumps(ATA_JSON), device="/dev/bus/0", device_type="megaraid,28")
    assert (s.device, s.device_type) == ("/dev/bus/0", "megaraid,28")


def test_json_trailing_text_is_noted() -> None:
    s = parse(json.dumps(ATA_JSON) + "\nsmartctl: warning\n")
    assert s.model == "INTEL SSDSC2BB240G4"
    assert s.parse_notes


# ---------------------------------------------------------------------------------------------------
# Local time


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("Wed Mar 16 10:11:12 2022 UTC", datetime(2022, 3, 16, 10, 11, 12, tzinfo=timezone.utc)),
        ("Wed Oct  1 10:46:20 2025 GMT", datetime(2025, 10, 1, 10, 46, 20, tzinfo=timezone.utc)),
        ("Tue Apr  9 08:02:36 2024 EDT", datetime(2024, 4, 9, 12, 2, 36, tzinfo=timezone.utc)),
        ("Sat May 14 10:00:00 2022 +07", datetime(2022, 5, 14, 3, 0, 0, tzinfo=timezone.utc)),
        ("--", None),
        ("Sun May ... 2022 +07", None),
        ("Fri May 26 13:33:02 2023 RTZ", None),  # Windows 'RTZ n' zones are ambiguous
        ("Wed Jul 27 11:39:39 2022 CST", None),  # US Central or China: ambiguous
        ("Thu Mar 16 10:11:12 2022 UTC", None),  # weekday does not match the date: hand-edited
    ],
)
def test_local_time(printed: str, expected: datetime | None) -> None:
    s = parse(ATA_X.replace("Wed Mar 16 10:11:12 2022 UTC", printed))
    assert s.local_time == expected


# ---------------------------------------------------------------------------------------------------
# Odd and failed outputs


def test_user_typed_command_before_banner() -> None:
    for prompt in ("$ smartctl -a /dev/sda\n", "root@host:~# smartctl -x /dev/sda\n", "# smartctl -x /dev/sda\n"):
        s = parse(prompt + ATA_X)
        assert s.model == "INTEL SSDSC2BB480G6"
        assert s.smartctl_version == "7.1"


@pytest.mark.parametrize(
    "line",
    [
        "Smartctl open device: /dev/sda failed: Permission denied",
        "Device is in STANDBY mode, exit(2)",
        "=======> UNRECOGNIZED OPTION: json",
        "Read Device Identity failed: Input/output error",
        "A mandatory SMART command failed: exiting. To continue, add one or more '-T permissive' options.",
    ],
)
def test_text_error_lines_become_messages(line: str) -> None:
    s = parse(BANNER + line + "\n")
    assert s.messages == (line,)
    assert s.interface == "unknown"


def test_truncated_text_keeps_what_was_read() -> None:
    cut = ATA_X.index("226 Workld")
    s = parse(ATA_X[: cut + 20])
    assert s.attributes[225].raw == 13_590_253
    assert 226 not in s.attributes
    assert s.parse_notes
    nv = parse(NVME[: NVME.index("Power Cycles")])
    assert nv.nvme is not None and nv.nvme.percentage_used == 199
    assert any("NVMe" in n for n in nv.parse_notes)


def test_section_without_banner_is_accepted() -> None:
    s = parse(NVME[len(BANNER) :])
    assert s.smartctl_version is None
    assert s.nvme is not None and s.nvme.data_units_written == 2_603_733_369


def _assert_one_line_parse_error(data: str | bytes, source: str = "notes.txt") -> str:
    with pytest.raises(ParseError) as info:
        parse_output(data, source)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(source.split("\n")[0].strip() or "<input>")
    assert "smartctl" in msg
    assert "internal parser error" not in msg
    return msg


@pytest.mark.parametrize(
    "data",
    [
        b"",
        "   \n\t\n",
        b"\x00\x01\x02\xff\xfe binary \x89PNG\r\n\x1a\n",
        "Dear diary, today I bought an SSD.\nDevice Model: not really\n",
        "/dev/sda -d sat # /dev/sda [SAT], ATA device\n",
        "[1, 2, 3]",
        '{"devices": [{"name": "/dev/sda"}]}',
        '{"json_format_version": [1, 0], "smartctl": {"version": [7, 1]',
        "{not json at all",
        '["smartctl"]',
        "{" * 100_000,
        '{"json_format_version": [1, 0], "x": ' + "[" * 50_000 + "]" * 50_000 + "}",
    ],
)
def test_not_smartctl_output_raises_parse_error(data: str | bytes) -> None:
    _assert_one_line_parse_error(data)


def test_parse_error_message_names_the_source_and_what_to_do() -> None:
    msg = _assert_one_line_parse_error("random text\n", "notes.txt")
    assert msg.startswith("notes.txt: not smartctl output")
    assert "smartctl -x" in msg
    msg = _assert_one_line_parse_error('{"smartctl": {"version": [7, 3]', "x.json")
    assert msg.startswith("x.json: ") and "JSON" in msg


def test_bytes_and_str_agree() -> None:
    assert parse(ATA_X.encode()) == parse(ATA_X)
    assert parse(b"\xef\xbb\xbf" + NVME.encode()).nvme == parse(NVME).nvme


# ---------------------------------------------------------------------------------------------------
# --scan-open


def test_parse_scan_text() -> None:
    text = (
        "/dev/sda -d sat # /dev/sda [SAT], ATA device\n"
        "/dev/sdb -d scsi # /dev/sdb, SCSI device\n"
        "# /dev/sdc -d scsi # /dev/sdc, SCSI device open failed: No such device\n"
        "/dev/nvme0 -d nvme # /dev/nvme0, NVMe device\n"
        "/dev/bus/0 -d megaraid,28 # /dev/bus/0 [megaraid_disk_28], SCSI device\n"
        "/dev/sdd # /dev/sdd, no type\n"
        "glob(3) aborted matching pattern /dev/discs/disc*\n"
        "\n"
    )
    assert parse_scan(text) == [
        ("/dev/sda", "sat"),
        ("/dev/sdb", "scsi"),
        ("/dev/nvme0", "nvme"),
        ("/dev/bus/0", "megaraid,28"),
        ("/dev/sdd", None),
    ]
    assert parse_scan(text.encode()) == parse_scan(text)
    assert parse_scan("") == []


def test_parse_scan_json() -> None:
    doc = {
        "json_format_version": [1, 0],
        "smartctl": {"version": [7, 3], "exit_status": 0},
        "devices": [
            {"name": "/dev/sda", "info_name": "/dev/sda [SAT]", "type": "sat", "protocol": "ATA"},
            {"name": "/dev/sdc", "info_name": "/dev/sdc", "type": "scsi", "open_error": "No such device"},
            {"name": "/dev/nvme0", "info_name": "/dev/nvme0", "type": "nvme", "protocol": "NVMe"},
            {"info_name": "nameless"},
            "junk",
        ],
    }
    assert parse_scan(json.dumps(doc, separators=(",", ":"))) == [("/dev/sda", "sat"), ("/dev/nvme0", "nvme")]
    assert parse_scan('{"smartctl": {}}') == []
    with pytest.raises(ParseError):
        parse_scan('{"devices": [')


# ---------------------------------------------------------------------------------------------------
# Smaller rules


def test_missing_tables_are_noted() -> None:
    no_table = ATA_X[: ATA_X.index("SMART Attributes Data Structure")]
    s = parse(no_table)
    assert s.attributes == {} and s.smart_passed is True
    assert any("attribute table" in n for n in s.parse_notes)
    info_only = ATA_X[: ATA_X.index("=== START OF READ SMART DATA SECTION")]
    assert any("no SMART data section" in n for n in parse(info_only).parse_notes)


def test_power_on_minutes_attribute() -> None:
    text = ATA_X.replace("  9 Power_On_Hours          -O--CK   100   100   000    -    38316",
                         "  9 Power_On_Minutes        -O--CK   100   100   000    -    2298960")  # fmt: skip
    s = parse(text)
    assert s.power_on_hours == pytest.approx(38316)
    assert s.power_on_hours_trusted


def test_device_statistics_pages_separated_by_blank_lines() -> None:
    text = ATA_X.replace("0x05  =====", "\n0x05  =====").replace("0x07  =====", "\n0x07  =====")
    s = parse(text)
    assert s.devstats[DEVSTAT_PERCENT_USED].value == 32
    assert s.devstats[(5, 0x68)].value == -10


def test_text_device_override() -> None:
    s = parse(NVME, "/dev/nvme0", device="/dev/nvme0", device_type="nvme")
    assert (s.source, s.device, s.device_type) == ("/dev/nvme0", "/dev/nvme0", "nvme")


def test_json_nonsense_values_are_dropped() -> None:
    doc = dict(ATA_JSON, user_capacity={"bytes": -1}, logical_block_size="512", rotation_rate=True)
    s = parse(json.dumps(doc))
    assert (s.capacity_bytes, s.logical_sector_size, s.rotation_rate) == (None, None, None)


def test_parse_module_imports_only_the_standard_library() -> None:
    import ast
    import sys
    from pathlib import Path

    import ssdwear.smartctl.parse

    stdlib = getattr(sys, "stdlib_module_names", None)
    if stdlib is None:
        pytest.skip("needs Python 3.10+ for sys.stdlib_module_names")
    modules = sorted(Path(ssdwear.smartctl.parse.__file__).parent.glob("*.py"))
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in ("__future__", "ssdwear") or top in stdlib, \
                    f"ssdwear.smartctl.parse.{module.stem} imports {name}"


def test_smartctl_error_line_without_banner() -> None:
    s = parse("Smartctl open device: /dev/sdz failed: No such device\n")
    assert s.messages == ("Smartctl open device: /dev/sdz failed: No such device",)
    with pytest.raises(ParseError):
        parse("Warning: this is not smartctl\n")


def test_json_after_a_typed_command() -> None:
    s = parse("$ smartctl --json -x /dev/sda\n" + json.dumps(ATA_JSON, indent=2))
    assert s.model == "INTEL SSDSC2BB240G4"
    with pytest.raises(ParseError):
        parse("$ cat notes\n{not json")


def test_field_maps_name_fields_of_the_health_records() -> None:
    """The builder makes NvmeHealth and ScsiHealth from the tables the readers' field maps fill."""
    from dataclasses import fields

    from ssdwear.model.records import NvmeHealth, ScsiHealth
    from ssdwear.smartctl.parse import json_reader, text, text_words

    nvme = {f.name for f in fields(NvmeHealth)}
    assert set(text_words.NVME_KEYS.values()) == nvme
    assert set(json_reader.NVME_KEYS.values()) == nvme
    scsi = {f.name for f in fields(ScsiHealth)}
    for field_map in (text.SCSI_ERRLOG_BYTES, json_reader.SCSI_KEYS, json_reader.SCSI_ERRLOG_BYTES):
        assert set(field_map.values()) <= scsi
