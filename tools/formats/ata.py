"""smartctl's ATA text sections, as each release prints them: the information section (``-i``), the health
line (``-H``), the attribute table (``-A``, old and brief formats), attribute 9's power-on time formats
(``-v 9,...``) and Device Statistics (``-l devstat``). Only the lines ssdwear reads are reproduced, with the
section headers around them; each function names the lines of ataprint/atacmds it follows in ``CITES``."""

from __future__ import annotations

from .drives import ATA, DEVSTAT_NAMES, Ata, AtaAttr, capacity, thousands
from .releases import LOCAL_TIME, Cite, Release, banner

INFO_HEADER = "=== START OF INFORMATION SECTION ===\n"
DATA_HEADER = "=== START OF READ SMART DATA SECTION ===\n"


def _identify_string(text: str, width: int, r: Release) -> str:
    """The IDENTIFY strings: before 5.38 printswap() printed the field from its first non-blank character, with
    the field's trailing blanks; from 5.38 on they are trimmed (ata_format_id_string)."""
    return text.ljust(width) if not r.at_least("5.38") else text


def _info_5_0(r: Release, a: Ata) -> str:
    """5.0-5.0.10: no section header; the IDENTIFY fields as the kernel gives them (blank-padded, `%.40s`)."""
    if not r.at_least("5.0.8"):
        return (f"Device: {a.model:<40}  Supports ATA Version 7\nSerial Number:    {a.serial:<20}\n"
                f"Firmware Version: {a.firmware:<8}\nATA minor number (version support) 0x18\n"
                "Drive supports S.M.A.R.T. and is enabled\n")
    return (f"Device Model:     {a.model:<40}\nSerial Number:    {a.serial:<20}\nFirmware Version: {a.firmware:<8}\n"
            "ATA Version is:   7\nATA Standard is:  ATA/ATAPI-7 T13 1532D revision 1\nSMART support is: Enabled\n\n")


def info_lines(r: Release, a: Ata = ATA) -> str:
    """The information section's lines ssdwear reads, in the order the release prints them."""
    if not r.at_least("5.0.11"):
        return _info_5_0(r, a)
    out = [INFO_HEADER]
    if r.at_least("5.36") and a.family:
        out.append(f"Model Family:     {a.family}\n")
    out.append(f"Device Model:     {_identify_string(a.model, 40, r)}\n")
    out.append(f"Serial Number:    {a.serial}\n")
    if r.at_least("5.41") and a.wwn is not None:
        naa, oui, unique = a.wwn
        out.append(f"LU WWN Device Id: {naa:x} {oui:06x} {unique:09x}\n")
    out.append(f"Firmware Version: {_identify_string(a.firmware, 8, r)}\n")
    if r.at_least("5.41"):
        out.append(f"User Capacity:    {thousands(a.capacity)} bytes [{capacity(a.capacity)}]\n")
        out.append(f"Sector Size:      {a.logical_sector} bytes logical/physical\n" if a.logical_sector ==
                   a.physical_sector else
                   f"Sector Sizes:     {a.logical_sector} bytes logical, {a.physical_sector} bytes physical\n")
    elif r.at_least("5.33"):
        out.append(f"User Capacity:    {thousands(a.capacity)} bytes\n")
    if r.at_least("6.0"):
        out.append("Rotation Rate:    Solid State Device\n")
    if r.at_least("5.1.2"):
        out.append(f"Local Time is:    {LOCAL_TIME} UTC\n")
    elif r.at_least("5.1.1"):
        out.append(f"Local Time is:    {LOCAL_TIME}\n")  # ctime(): no time zone
    out.append("SMART support is: Available - device has SMART capability.\n")
    out.append("SMART support is: Enabled\n")
    out.append("\n")
    return "".join(out)


def info(r: Release) -> str:
    """`smartctl -i`."""
    return banner(r) + info_lines(r)


INFO_CITES = {
    "5.0": [Cite("5.0", "sm5/ataprint.c", 24, 'printf ("Device: %.40s  Supports ATA Version %i\\n", '),
            Cite("5.0", "sm5/ataprint.c", 26, 'printf("Serial Number:    %.20s\\n",drive.serial_no);'),
            Cite("5.0", "sm5/ataprint.c", 27, 'printf("Firmware Version: %.8s\\n",drive.fw_rev);'),
            Cite("5.0", "sm5/ataprint.c", 686, 'printf ("Drive supports S.M.A.R.T. and is ");')],
    "5.0.8": [Cite("5.0.8", "sm5/ataprint.c", 42, 'printf("Device Model:     %.40s\\n",drive.model);'),
              Cite("5.0.8", "sm5/ataprint.c", 744, 'printf ("SMART support is: ");'),
              Cite("5.0.8", "sm5/ataprint.c", 753, 'printf( "Enabled\\n\\n");')],
    "5.0.11": [Cite("5.0.11", "sm5/ataprint.c", 721, '"=== START OF INFORMATION SECTION ===\\n"'),
               Cite("5.0.11", "sm5/ataprint.c", 68, 'pout("Device Model:     ");'),
               Cite("5.0.11", "sm5/ataprint.c", 71, 'pout("Serial Number:    ");'),
               Cite("5.0.11", "sm5/ataprint.c", 74, 'pout("Firmware Version: ");'),
               Cite("5.0.11", "sm5/ataprint.c", 740, '"SMART support is: Available - device has SMART capability.'),
               Cite("5.0.11", "sm5/ataprint.c", 742, 'pout("SMART support is: Enabled\\n");')],
    "5.1.1": [Cite("5.1.1", "sm5/ataprint.c", 106, 'pout("Local Time is:    %s", ctime(&tval));')],
    "5.1.2": [Cite("5.1.2", "sm5/ataprint.c", 104, 'pout("Local Time is:    %s\\n", timedatetz);'),
              Cite("5.1.2", "sm5/utility.c", 72, 'snprintf(buffer, 64, "%s %s", datebuffer, timezonename);')],
    "5.33": [Cite("5.33", "sm5/ataprint.c", 505, 'pout("User Capacity:    %s bytes\\n", capacity);')],
    "5.36": [Cite("5.36", "sm5/ataprint.c", 518, 'pout("Model Family:     %s\\n"')],
    "5.41": [Cite("5.41", "smartmontools/ataprint.cpp", 442, 'pout("LU WWN Device Id: %x %06x %09"PRIx64"\\n"'),
             Cite("5.41", "smartmontools/ataprint.cpp", 449, 'pout("User Capacity:    %s bytes [%s]\\n",'),
             Cite("5.41", "smartmontools/ataprint.cpp", 457,
                  'pout("Sector Sizes:     %u bytes logical, %u bytes physical",')],
    "6.0": [Cite("6.0", "smartmontools/ataprint.cpp", 601, 'pout("Rotation Rate:    Solid State Device\\n");')],
    "7.5": [Cite("7.5", "smartmontools/ataprint.cpp", 665, 'jout("Device Model:     %s\\n", infofound(model));'),
            Cite("7.5", "smartmontools/ataprint.cpp", 722, 'jout("Rotation Rate:    Solid State Device\\n");'),
            Cite("7.5", "smartmontools/ataprint.cpp", 830, 'jout_startup_datetime("Local Time is:    ");')],
    "current": [Cite("current", "src/ataprint.cpp", 663, 'jout("Device Model:     %s\\n", infofound(model));'),
                Cite("current", "src/ataprint.cpp", 697, 'jout("User Capacity:    %s bytes [%s]\\n",'),
                Cite("current", "src/ataprint.cpp", 828, 'jout_startup_datetime("Local Time is:    ");')],
}

# --- the attribute table ------------------------------------------------------------------------------------

OLD_HEADER = ("ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE\n")
OLD_HEADER_5_0 = "ID# ATTRIBUTE_NAME          FLAG     VALUE WORST THRESH TYPE     WHEN_FAILED RAW_VALUE\n"
BRIEF_HEADER = "ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE\n"
BRIEF_LEGEND = "".join(f"{'':28}{text}\n" for text in (
    "||||||_ K auto-keep", "|||||__ C event count", "||||___ R error rate", "|||____ S speed/performance",
    "||_____ O updated online", "|______ P prefailure warning"))


def _old_row(a: AtaAttr, raw: str, r: Release) -> str:
    """One row of the old (default) format: `%3d %-24s0x%04x   %-3s ...`; before 5.1.14 without UPDATED."""
    kind = "Pre-fail" if a.prefailure else "Old_age"
    when = {"now": "FAILING_NOW", "past": "In_the_past"}.get(a.state, "    -")
    head = f"{a.id:3d} {a.name:<24}0x{a.flags:04x}   {a.value:03d}   {a.worst:03d}   {a.thresh:03d}    "
    if not r.at_least("5.1.14"):
        return f"{head}{kind:<9}{when:<12}{raw}\n"
    updated = "Always" if a.online else "Offline"
    return f"{head}{kind:<10}{updated:<9}{when:<12}{raw}\n"


def _brief_row(a: AtaAttr, raw: str) -> str:
    """One row of `-f brief` (5.41 on, `-x`'s format): the flags as letters, FAIL as -, NOW or Past."""
    other = "+" if a.flags & ~0x3F else " "
    fail = {"now": "NOW", "past": "Past"}.get(a.state, "-")
    values = f"{a.value:03d}   {a.worst:03d}   {a.thresh:03d}"
    return f"{a.id:3d} {a.name:<24}{a.letters}{other}  {values}    {fail:<5}{raw}\n"


def _table_5_0(rows: tuple[AtaAttr, ...], raws: dict[int, str]) -> str:
    """5.0-5.0.10's table: `(ID)Name With Spaces`, the flags in hex, the three values, the raw value."""
    out = ["Vendor Specific SMART Attributes with Thresholds:\nRevision Number: 1\n",
           "Attribute                    Flag     Value Worst Threshold Raw Value\n"]
    for a in rows:
        name = a.name.replace("_", " ")
        out.append(f"({a.id:3d}){name:<23} 0x{a.flags:04x}   {a.value:03d}   {a.worst:03d}   {a.thresh:03d}       "
                   f"{raws.get(a.id, str(a.raw))}\n")
    return "".join(out)


def table(r: Release, rows: tuple[AtaAttr, ...], brief: bool = False, heading: bool = True,
          raw_of: dict[int, str] | None = None) -> str:
    """The attribute table: 'SMART Attributes Data Structure revision number', the header, a row per attribute,
    the brief format's legend, a blank line. `heading` False is the marginal/failed list -H prints (no revision
    lines); `raw_of` gives the RAW_VALUE strings of attributes printed in another raw format."""
    raws = raw_of or {}
    if not r.at_least("5.0.11"):
        return _table_5_0(rows, raws)
    out = []
    if heading:
        out += ["SMART Attributes Data Structure revision number: 1\n",
                "Vendor Specific SMART Attributes with Thresholds:\n"]
    out.append(BRIEF_HEADER if brief else OLD_HEADER if r.at_least("5.1.14") else OLD_HEADER_5_0)
    for a in rows:
        raw = raws.get(a.id, str(a.raw))
        out.append(_brief_row(a, raw) if brief else _old_row(a, raw, r))
    if brief and heading:
        out.append(BRIEF_LEGEND)
    out.append("\n")
    return "".join(out)


def _data_header(r: Release) -> str:
    return DATA_HEADER if r.at_least("5.0.11") else ""


def attributes(r: Release, brief: bool = False) -> str:
    """`smartctl -A` (`-A -f brief`; 5.0: `-v`)."""
    return banner(r) + _data_header(r) + table(r, ATA.attributes, brief)


ATTRIBUTE_CITES = {
    "5.0": [Cite("5.0", "sm5/ataprint.c", 291, "Attribute                    Flag     Value Worst Threshold Raw Value"),
            Cite("5.0", "sm5/ataprint.c", 614, 'printf("(  9)Power On Hours         ");'),
            Cite("5.0", "sm5/ataprint.c", 301, 'printf(" 0x%04x   %.3i   %.3i   %.3i       ", ')],
    "5.0.11": [Cite("5.0.11", "sm5/ataprint.c", 399,
                    "THRESH TYPE     WHEN_FAILED RAW_VALUE"),
               Cite("5.0.11", "sm5/ataprint.c", 413, 'pout("%-28s",attributename);'),
               Cite("5.0.11", "sm5/ataprint.c", 417, 'pout("0x%04x   %.3i   %.3i   %.3i    %-9s%-12s", '),
               Cite("5.0.11", "sm5/atacmds.c", 750, 'sprintf(out,"%3d %s",id,name);')],
    "5.1.14": [Cite("5.1.14", "sm5/ataprint.c", 455, "THRESH TYPE      UPDATED  WHEN_FAILED RAW_VALUE"),
               Cite("5.1.14", "sm5/ataprint.c", 475, 'pout("0x%04x   %.3d   %.3d   %.3d    %-10s%-9s%-12s", ')],
    "5.41": [Cite("5.41", "smartmontools/ataprint.cpp", 819,
                  'pout("ID# ATTRIBUTE_NAME          FLAGS    VALUE WORST THRESH FAIL RAW_VALUE\\n");'),
             Cite("5.41", "smartmontools/ataprint.cpp", 853,
                  'pout("%3d %-24s%c%c%c%c%c%c%c  %-3s   %-3s   %-3s    %-5s%s\\n",'),
             Cite("5.41", "smartmontools/ataprint.cpp", 872, '"%28s||||||_ K auto-keep\\n"')],
    "7.5": [Cite("7.5", "smartmontools/ataprint.cpp", 1304,
                 'jout("%s %-24s0x%04x   %-4s  %-4s  %-4s   %-10s%-9s%-12s%s\\n",'),
            Cite("7.5", "smartmontools/ataprint.cpp", 1314, 'jout("%s %-24s%s  %-4s  %-4s  %-4s   %-5s%s\\n",')],
    "current": [Cite("current", "src/ataprint.cpp", 1305,
                     'jout("%s %-24s0x%04x   %-4s  %-4s  %-4s   %-10s%-9s%-12s%s\\n",'),
                Cite("current", "src/ataprint.cpp", 1315, 'jout("%s %-24s%s  %-4s  %-4s  %-4s   %-5s%s\\n",')],
}

# --- -H -----------------------------------------------------------------------------------------------------


def health(r: Release) -> tuple[str, int]:
    """`smartctl -i -H`: the identity, then the health line. The drive's attribute 3 failed in the past, so a
    PASSED drive also gets the list of 'marginal' attributes (exit bit 5); 5.40's fixture shows the UNKNOWN! line
    that release added for a drive whose SMART status and attributes could not be read (exit bit 2)."""
    head = banner(r) + info_lines(r) + _data_header(r)
    if not r.at_least("5.0.11"):  # ataPsuedoCheckSmart: failing prefail attributes, the line, a blank line
        return head + "SMART overall-health self-assessment test result: PASSED\n\n", 0
    if r.name == "5.40":
        return head + ("SMART overall-health self-assessment test result: UNKNOWN!\n"
                       "SMART Status, Attributes and Thresholds cannot be read.\n\n"), 4
    marginal = [a for a in ATA.attributes if a.state == "past"]
    note = "Please note the following marginal attributes:\n" if not r.at_least("5.1.2") else \
        "Please note the following marginal Attributes:\n"
    return head + "SMART overall-health self-assessment test result: PASSED\n" + note + \
        table(r, tuple(marginal), heading=False), 32


HEALTH_CITES = {
    "5.0.8": [Cite("5.0.8", "sm5/ataprint.c", 614, '"SMART overall-health self-assessment test result: PASSED\\n");'),
              Cite("5.0.8", "sm5/ataprint.c", 829, 'ataPsuedoCheckSmart ( smartval , smartthres);')],
    "5.0.11": [Cite("5.0.11", "sm5/ataprint.c", 846, 'pout("=== START OF READ SMART DATA SECTION ===\\n");'),
               Cite("5.0.11", "sm5/ataprint.c", 871,
                    'pout("SMART overall-health self-assessment test result: PASSED\\n");'),
               Cite("5.0.11", "sm5/ataprint.c", 877, 'pout("Please note the following marginal attributes:\\n");')],
    "5.40": [Cite("5.40", "smartmontools/ataprint.cpp", 2070,
                  'pout("SMART overall-health self-assessment test result: UNKNOWN!\\n"'),
             Cite("5.40", "smartmontools/ataprint.cpp", 2071,
                  '"SMART Status, Attributes and Thresholds cannot be read.\\n\\n");')],
    "7.5": [Cite("7.5", "smartmontools/ataprint.cpp", 4060,
                 'jout("SMART overall-health self-assessment test result: PASSED\\n");'),
            Cite("7.5", "smartmontools/ataprint.cpp", 4067,
                 'pout("Please note the following marginal Attributes:\\n");')],
    "current": [Cite("current", "src/ataprint.cpp", 4105,
                     'jout("SMART overall-health self-assessment test result: PASSED\\n");'),
                Cite("current", "src/ataprint.cpp", 4112,
                     'pout("Please note the following marginal Attributes:\\n");')],
}

# --- attribute 9: the power-on time formats -----------------------------------------------------------------

POWER_ON_MINUTES = 45  # past the hour, in every format
POWER_ON_SECONDS = 30
POWER_ON_MSEC = 250


def power_on_raw(kind: str) -> tuple[str, str]:
    """(attribute name, RAW_VALUE string) of attribute 9 counted in minutes, seconds, half minutes or hours and
    milliseconds, for 12,345 h 45 min 30.25 s (atacmds.cpp RAWFMT_MIN2HOUR, SEC2HOUR, HALFMIN2HOUR,
    MSEC24_HOUR32; 5.0's -m printed minutes as 'H h + M m')."""
    h, m, s = ATA.power_on_hours, POWER_ON_MINUTES, POWER_ON_SECONDS
    return {
        "minutes-5.0": ("Power_On_Hours", f"{h} h + {m:2d} m"),
        "minutes": ("Power_On_Minutes", f"{h}h+{m:02d}m"),
        "seconds": ("Power_On_Seconds", f"{h}h+{m:02d}m+{s:02d}s"),
        "halfminutes": ("Power_On_Half_Minutes", f"{h}h+{m:02d}m"),
        "msec24hour32": ("Power_On_Hours_and_Msec", f"{h}h+{m:02d}m+{s:02d}.{POWER_ON_MSEC:03d}s"),
    }[kind]


def power_on(r: Release, kind: str) -> str:
    """`smartctl -A -v 9,FORMAT` (5.0: `-Am`): the attribute table with attribute 9 in that raw format."""
    name, raw = power_on_raw(kind)
    rows = tuple(AtaAttr(a.id, name, a.flags, a.value, a.worst, a.thresh, a.raw) if a.id == 9 else a
                 for a in ATA.attributes)
    return banner(r) + _data_header(r) + table(r, rows, raw_of={9: raw})


POWER_ON_CITES = {
    "5.0.8": [Cite("5.0.8", "sm5/ataprint.c", 341, 'printf ("%llu h + %2llu m\\n",rawvalue/60,rawvalue%60);')],
    "5.0.11": [Cite("5.0.11", "sm5/ataprint.c", 433, 'pout ("%llu h + %2llu m\\n",rawvalue/60,rawvalue%60);')],
    "5.1.2": [Cite("5.1.2", "sm5/ataprint.c", 443, 'pout("%lluh+%02llum\\n", tmp1, tmp2);'),
              Cite("5.1.2", "sm5/atacmds.c", 831, 'name="Power_On_Minutes";')],
    "5.1.8": [Cite("5.1.8", "sm5/atacmds.c", 844, 'sprintf(out, "%lluh+%02llum+%02llus", hours, minutes, seconds);'),
              Cite("5.1.8", "sm5/atacmds.c", 124, '"9,seconds",')],
    "5.40": [Cite("5.40", "smartmontools/atacmds.cpp", 1962, 's = strprintf("%uh+%02um+%02u.%03us",'),
             Cite("5.40", "smartmontools/atacmds.cpp", 216, '{"msec24hour32"   , RAWFMT_MSEC24_HOUR32},'),
             Cite("5.40", "smartmontools/atacmds.cpp", 225, '"9,halfmin2hour,Power_On_Half_Minutes"')],
    "7.5": [Cite("7.5", "smartmontools/atacmds.cpp", 2044, 's = strprintf("%uh+%02um+%02u.%03us",'),
            Cite("7.5", "smartmontools/atacmds.cpp", 130, '"9,min2hour,Power_On_Minutes"')],
    "current": [Cite("current", "lib/atacmds.cpp", 1894, 's = strprintf("%uh+%02um+%02u.%03us",'),
                Cite("current", "lib/atacmds.cpp", 157, '"9,min2hour,Power_On_Minutes"')],
}

# --- Device Statistics --------------------------------------------------------------------------------------


def _devstat_row(r: Release, page: int, offset: int, size: int, value: int, flags: int) -> str:
    name = DEVSTAT_NAMES[(page, offset)]
    val = str(value) if flags & 0x40 else "-"
    if not r.at_least("6.4"):  # `%3d  0x%03x  %d%c %15s%c %s`: decimal page, '~' after a normalized value
        unknown = "+" if flags & 0x1F else " "
        norm = "~" if flags & 0x20 else " "
        return f"{page:3d}  0x{offset:03x}  {size}{unknown} {val:>15}{norm} {name}\n"
    letters = ("N" if flags & 0x20 else "-") + ("D" if flags & 0x10 else "-") + ("C" if flags & 0x08 else "-")
    letters += "+" if flags & 0x07 else " "
    extra = ""
    if r.name == "current" and (page, offset) in ((1, 0x018), (1, 0x028)):  # e5ea4868b: '[N.NN TB]'
        extra = f" [{capacity(value * ATA.logical_sector)}]"
    return f"0x{page:02x}  0x{offset:03x}  {size} {val:>15}  {letters} {name}{extra}\n"


def devstat(r: Release) -> str:
    """`smartctl -l devstat`: the pages' entries, a title line per page, the legend."""
    old = not r.at_least("6.4")
    out = [banner(r), DATA_HEADER, "Device Statistics (GP Log 0x04)\n",
           "Page Offset Size         Value  Description\n" if old else
           "Page  Offset Size        Value Flags Description\n"]
    line = "  =====  =                =  == " if old else "  =====  =               =  ===  == "
    for page in (1, 7):
        title = f"{page:3d}" if old else f"0x{page:02x}"
        out.append(f"{title}{line}{DEVSTAT_NAMES[page]} (rev 1) ==\n")
        out += [_devstat_row(r, *entry) for entry in ATA.devstats if entry[0] == page]
    if old:
        out.append(f"{'':30}|_ ~ normalized value\n\n")
    else:
        out.append(f"{'':32}|||_ C monitored condition met\n{'':32}||__ D supports DSN\n"
                   f"{'':32}|___ N normalized value\n\n")
    return "".join(out)


DEVSTAT_CITES = {
    "5.42": [Cite("5.42", "smartmontools/ataprint.cpp", 1282,
                  'pout("Page Offset Size         Value  Description\\n");'),
             Cite("5.42", "smartmontools/ataprint.cpp", 1215, 'pout("%3d  0x%03x  %d%c %15s%c %s\\n",'),
             Cite("5.42", "smartmontools/ataprint.cpp", 1169,
                  'static const char line[] = "  =====  =                =  == ";'),
             Cite("5.42", "smartmontools/ataprint.cpp", 1294, 'pout("%30s|_ ~ normalized value\\n", "");')],
    "6.4": [Cite("6.4", "smartmontools/ataprint.cpp", 1620,
                 'pout("Page  Offset Size        Value Flags Description\\n");'),
            Cite("6.4", "smartmontools/ataprint.cpp", 1541, 'pout("0x%02x  0x%03x  %d %15s  %c%c%c%c %s\\n",'),
            Cite("6.4", "smartmontools/ataprint.cpp", 1652, 'pout("%32s|||_ C monitored condition met\\n", "");')],
    "7.5": [Cite("7.5", "smartmontools/ataprint.cpp", 1915, 'jout("0x%02x  0x%03x  %d %15s  %s %s\\n",'),
            Cite("7.5", "smartmontools/ataprint.cpp", 2013,
                 'jout("Page  Offset Size        Value Flags Description\\n");')],
    "current": [Cite("current", "src/ataprint.cpp", 1946, 'jout("0x%02x  0x%03x  %d %15s  %s %s%s%s%s\\n",'),
                Cite("current", "src/ataprint.cpp", 1799,
                     'format_capacity(buf, sizeof(buf), val * log_sector_size, decimal_point);')],
}
