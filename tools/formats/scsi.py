"""smartctl's SCSI/SAS text, as each release prints it: the identity (``-i``), the health line (``-H``), the
grown defects and, from 7.2, the power-on time (``-A``), the background scan log's power-on time
(``-l background``), the solid state media log (``-l ssd``) and the error counter log (``-l error``). SCSI output
has no section headers before 6.1; only the lines ssdwear reads are reproduced."""

from __future__ import annotations

from .drives import SCSI, Scsi, capacity, thousands
from .releases import LOCAL_TIME, Cite, Release, banner

INFO_HEADER = "=== START OF INFORMATION SECTION ===\n"
DATA_HEADER = "=== START OF READ SMART DATA SECTION ===\n"


def _data_header(r: Release) -> str:
    return DATA_HEADER if r.at_least("6.1") else ""


def info_lines(r: Release, s: Scsi = SCSI) -> str:
    out = []
    if r.at_least("6.1"):
        out.append(INFO_HEADER)
    if not r.at_least("5.41"):  # `Device: %s %s Version: %s` of the INQUIRY fields as they are (blank-padded)
        out.append(f"Device: {s.vendor:<8} {s.product:<16} Version: {s.revision}\n")
        if not r.at_least("5.1.10"):
            out.append("Device supports S.M.A.R.T. and is Enabled\nTemperature Warning Enabled\n")
        if r.at_least("5.1.10"):
            out.append(f"Serial number: {s.serial}\n")
        if r.at_least("5.24"):
            out.append("Device type: disk\nTransport protocol: SAS\n")
        if r.at_least("5.1.2"):
            out.append(f"Local Time is: {LOCAL_TIME} UTC\n")
        return "".join(out)
    raw_ids = not r.at_least("6.1")  # 5.41 printed the INQUIRY bytes (`%.8s`), 6.1 the trimmed strings
    out.append(f"Vendor:               {s.vendor.ljust(8) if raw_ids else s.vendor}\n")
    out.append(f"Product:              {s.product.ljust(16) if raw_ids else s.product}\n")
    out.append(f"Revision:             {s.revision}\n")
    out.append(f"User Capacity:        {thousands(s.capacity)} bytes [{capacity(s.capacity)}]\n")
    out.append(f"Logical block size:   {s.logical_block} bytes\n")
    if r.at_least("6.1"):
        out.append(f"Physical block size:  {s.physical_block} bytes\n")
        out.append("Rotation Rate:        Solid State Device\n")
    out.append(f"Logical Unit id:      {s.lu_id}\n")
    out.append(f"Serial number:        {s.serial}\n")
    out.append("Device type:          disk\n")
    out.append("Transport protocol:   SAS (SPL-3)\n" if r.at_least("6.1") else "Transport protocol:   SAS\n")
    out.append(f"Local Time is:        {LOCAL_TIME} UTC\n")
    if r.at_least("6.1"):
        out.append("SMART support is:     Available - device has SMART capability.\n"
                   "SMART support is:     Enabled\n")
    return "".join(out)


def info(r: Release) -> str:
    """`smartctl -i` (5.0: `smartctl -i /dev/sda`, printed by scsiGetDriveInfo)."""
    return banner(r) + info_lines(r) + "\n"


INFO_CITES = {
    "5.0": [Cite("5.0", "sm5/scsiprint.c", 199,
                 'printf("Device: %s %s Version: %s\\n", manufacturer, product, revision);'),
            Cite("5.0", "sm5/scsiprint.c", 208, 'printf("Device supports %s and is %s\\n%s\\n", ')],
    "5.1.10": [Cite("5.1.10", "sm5/scsiprint.c", 419, 'pout("Serial number: %s\\n", &gBuf[4]);'),
               Cite("5.1.10", "sm5/scsiprint.c", 426, 'pout("Local Time is: %s\\n", timedatetz);')],
    "5.24": [Cite("5.24", "sm5/scsiprint.c", 678, 'pout("Transport protocol: %s\\n", transport_proto_arr[val]);')],
    "5.41": [Cite("5.41", "smartmontools/scsiprint.cpp", 1352,
                  'pout("Vendor:               %.8s\\n", (char *)&gBuf[8]);'),
             Cite("5.41", "smartmontools/scsiprint.cpp", 1376,
                  'pout("User Capacity:        %s bytes [%s]\\n", cap_str, si_str);'),
             Cite("5.41", "smartmontools/scsiprint.cpp", 1401, 'pout("Logical Unit id:      %s\\n", s);')],
    "6.1": [Cite("6.1", "smartmontools/scsiprint.cpp", 1484, 'pout("=== START OF INFORMATION SECTION ===\\n");'),
            Cite("6.1", "smartmontools/scsiprint.cpp", 1528, 'pout("Physical block size:  %s bytes\\n", lb_str);'),
            Cite("6.1", "smartmontools/scsiprint.cpp", 1589, 'pout("Rotation Rate:        Solid State Device\\n");')],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 2889, 'jout("Vendor:               %.8s\\n", scsi_vendor);'),
            Cite("7.5", "smartmontools/scsiprint.cpp", 3119, 'jout("Logical Unit id:      %s\\n", s);')],
    "current": [Cite("current", "src/scsiprint.cpp", 2898, 'jout("Vendor:               %.8s\\n", scsi_vendor);'),
                Cite("current", "src/scsiprint.cpp", 3128, 'jout("Logical Unit id:      %s\\n", s);')],
}


def health(r: Release) -> str:
    """`smartctl -H` (5.0: `-c`): 'S.M.A.R.T. Sense: Okay!' (5.0), 'S.M.A.R.T. Sense: Ok!' (5.0.2-5.1.9),
    'SMART Sense: Ok!' (5.1.10-5.1.12), 'SMART Health Status: OK' from 5.1.13."""
    line = "SMART Health Status: OK\n" if r.at_least("5.1.13") else "SMART Sense: Ok!\n" if r.at_least("5.1.10") \
        else "S.M.A.R.T. Sense: Ok!\n" if r.at_least("5.0.2") else "S.M.A.R.T. Sense: Okay!\n"
    return banner(r) + _data_header(r) + line + "\n"


HEALTH_CITES = {
    "5.0": [Cite("5.0", "sm5/scsiprint.c", 98, 'printf("S.M.A.R.T. Sense: Okay!\\n");')],
    "5.0.2": [Cite("5.0.2", "sm5/scsiprint.c", 98, 'printf("S.M.A.R.T. Sense: Ok!\\n");')],
    "5.1.10": [Cite("5.1.10", "sm5/scsiprint.c", 113, 'pout("SMART Sense: Ok!\\n");')],
    "5.1.13": [Cite("5.1.13", "sm5/scsiprint.c", 123, 'pout("SMART Health Status: OK\\n");')],
    "6.1": [Cite("6.1", "smartmontools/scsiprint.cpp", 1956, 'pout("=== START OF READ SMART DATA SECTION ===\\n");')],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 402, 'jout("SMART Health Status: OK\\n");')],
    "current": [Cite("current", "src/scsiprint.cpp", 405, 'jout("SMART Health Status: OK\\n");')],
}


def _power_on_line(indent: str, minutes: bool) -> str:
    m = SCSI.power_on_minutes
    tail = f" [{m} minutes]" if minutes else ""
    return f"{indent}Accumulated power on time, hours:minutes {m // 60}:{m % 60:02d}{tail}\n"


def attributes(r: Release) -> str:
    """`smartctl -A`: the grown defect list length (5.36 on); from 7.2 the background scan log's power-on time
    comes first (`only_pow_time`)."""
    out = [banner(r), _data_header(r), "Current Drive Temperature:     30 C\nDrive Trip Temperature:        65 C\n\n"]
    if r.at_least("7.2"):
        out.append(_power_on_line("", minutes=False) + "\n")
    defects = f"Elements in grown defect list: {SCSI.grown_defects}\n"
    out.append(defects + "\n" if r.at_least("6.1") else defects)
    return "".join(out) + ("" if r.at_least("6.1") else "\n")


ATTRIBUTE_CITES = {
    "5.36": [Cite("5.36", "sm5/scsiprint.c", 323, 'pout("Elements in grown defect list: %d\\n", dl_len / div);')],
    "6.1": [Cite("6.1", "smartmontools/scsiprint.cpp", 399,
                 'pout("Elements in grown defect list: %u\\n\\n", dl_len / div);')],
    "7.2": [Cite("7.2", "smartmontools/scsiprint.cpp", 1230,
                 'jout("%sAccumulated power on time, hours:minutes %d:%02d",'),
            Cite("7.2", "smartmontools/scsiprint.cpp", 2546, "res = scsiPrintBackgroundResults(device, true);")],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 1375,
                 'jout("%sAccumulated power on time, hours:minutes %d:%02d",'),
            Cite("7.5", "smartmontools/scsiprint.cpp", 752,
                 'jout("Elements in grown defect list: %u\\n\\n", dl_len / div);')],
    "current": [Cite("current", "src/scsiprint.cpp", 1383,
                     'jout("%sAccumulated power on time, hours:minutes %d:%02d",'),
                Cite("current", "src/scsiprint.cpp", 755,
                     'jout("Elements in grown defect list: %u\\n\\n", dl_len / div);')],
}


def background(r: Release) -> str:
    """`smartctl -l background`: the log's status lines, the power-on time in hours:minutes and minutes."""
    head = "Background scan results log\n" if r.at_least("6.1") else "\nBackground scan results log\n"
    return (banner(r) + _data_header(r) + head + "  Status: waiting until BMS interval timer expires\n"
            + _power_on_line("    ", minutes=True)
            + "    Number of background scans performed: 117,  scan progress: 0.00%\n\n")


BACKGROUND_CITES = {
    "5.37": [Cite("5.37", "sm5/scsiprint.cpp", 879, 'pout("\\nBackground scan results log\\n");'),
             Cite("5.37", "sm5/scsiprint.cpp", 892, 'pout("    Accumulated power on time, hours:minutes %d:%02d "')],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 1375,
                 'jout("%sAccumulated power on time, hours:minutes %d:%02d",'),
            Cite("7.5", "smartmontools/scsiprint.cpp", 1380, 'jout(" [%d minutes]\\n", j);')],
    "current": [Cite("current", "src/scsiprint.cpp", 1383,
                     'jout("%sAccumulated power on time, hours:minutes %d:%02d",'),
                Cite("current", "src/scsiprint.cpp", 1388, 'jout(" [%d minutes]\\n", j);')],
}


def ssd(r: Release) -> str:
    """`smartctl -l ssd`: 'SS Media used endurance indicator' (5.42-6.2), 'Percentage used endurance indicator'
    (6.3 on)."""
    key = "Percentage used endurance indicator" if r.at_least("6.3") else "SS Media used endurance indicator"
    return banner(r) + _data_header(r) + f"{key}: {SCSI.percentage_used}%\n\n"


SSD_CITES = {
    "5.42": [Cite("5.42", "smartmontools/scsiprint.cpp", 999,
                  'pout("SS Media used endurance indicator: %d%%\\n", ucp[7]);')],
    "6.3": [Cite("6.3", "smartmontools/scsiprint.cpp", 1056,
                 'pout("Percentage used endurance indicator: %d%%\\n", ucp[7]);')],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 1769, 'q = "Percentage used endurance indicator";'),
            Cite("7.5", "smartmontools/scsiprint.cpp", 1770, 'jout("%s: %d%%\\n", q, ucp[7]);')],
    "current": [Cite("current", "src/scsiprint.cpp", 1777, 'q = "Percentage used endurance indicator";'),
                Cite("current", "src/scsiprint.cpp", 1778, 'jout("%s: %d%%\\n", q, ucp[7]);')],
}

_ERRLOG_HEAD_5_1 = ("          Errors Corrected    Total      Total   Correction     Gigabytes    Total\n"
                    "              delay:       [rereads/    errors   algorithm      processed    uncorrected\n"
                    "            minor | major  rewrites]  corrected  invocations   [10^9 bytes]  errors\n")
_ERRLOG_HEAD = ("           Errors Corrected by           Total   Correction     Gigabytes    Total\n"
                "               ECC          rereads/    errors   algorithm      processed    uncorrected\n"
                "           fast | delayed   rewrites  corrected  invocations   [10^9 bytes]  errors\n")


def _errlog_head(r: Release) -> str:
    return _ERRLOG_HEAD if r.at_least("5.36") else _ERRLOG_HEAD.replace(" ECC ", " EEC ")  # 5.33's spelling


def errlog(r: Release) -> str:
    """`smartctl -l error`: the error counter log, a row per counter page (`%s%8llu %8llu  %8llu  %8llu   %8llu`
    then `   %12.3f    %8llu` gigabytes and uncorrected errors)."""
    out = [banner(r), _data_header(r), "Error counter log:\n" if r.at_least("6.1") else "\nError counter log:\n",
           _ERRLOG_HEAD_5_1 if not r.at_least("5.33") else _errlog_head(r)]
    for name, row in SCSI.errlog.items():
        fast, delayed, rewrites, corrected, invocations, processed, uncorrected = row
        label = f"{name}:".ljust(8)
        out.append(f"{label}{fast:8d} {delayed:8d}  {rewrites:8d}  {corrected:8d}   {invocations:8d}"
                   f"   {processed / 1e9:12.3f}    {uncorrected:8d}\n")
    out.append(f"\nNon-medium error count: {0:8d}\n\n")
    return "".join(out)


ERRLOG_CITES = {
    "5.1.10": [Cite("5.1.10", "sm5/scsiprint.c", 225, 'pout("\\nError counter log:\\n");'),
               Cite("5.1.10", "sm5/scsiprint.c", 228, '"              delay:       [rereads/    errors   "'),
               Cite("5.1.10", "sm5/scsiprint.c", 236, 'pout("%s%8llu %8llu  %8llu  %8llu   %8llu", '),
               Cite("5.1.10", "sm5/scsiprint.c", 240, 'pout("   %12.3f    %8llu\\n", processed_gb, ecp->counter[6]);')],
    "5.33": [Cite("5.33", "sm5/scsiprint.c", 435, 'pout("           Errors Corrected by           Total   "'),
             Cite("5.33", "sm5/scsiprint.c", 437, '"               EEC          rereads/    errors   "')],
    "7.5": [Cite("7.5", "smartmontools/scsiprint.cpp", 961, 'pout("Error counter log:\\n");'),
            Cite("7.5", "smartmontools/scsiprint.cpp", 983, 'jout("   %12.3f    %8" PRIu64 "\\n", processed_gb,')],
    "current": [Cite("current", "src/scsiprint.cpp", 964, 'pout("Error counter log:\\n");'),
                Cite("current", "src/scsiprint.cpp", 986, 'jout("   %12.3f    %8" PRIu64 "\\n", processed_gb,')],
}
