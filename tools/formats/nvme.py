"""smartctl's NVMe text (6.5 on) and its hex dump of a log page (``-l nvmelog,PAGE,SIZE``), as each release
prints them: the identity lines, the SMART/Health Information block and its header (with the namespace in 6.5,
6.6 and again from 7.5), the dump's header (``NVMe Log 0xca (0x0200 bytes)``; from 7.5 ``(NSID 0x..., 0x0200
bytes)``) and ``dStrHex``'s lines (trailing blanks trimmed up to 7.3, the full 76 columns from 7.4)."""

from __future__ import annotations

from .drives import NVME, Nvme, capacity, thousands
from .releases import LOCAL_TIME, Cite, Release, banner

BROADCAST_NSID = 0xFFFFFFFF  # /dev/nvme0: the controller, every namespace
LOG_PAGE = 0xCA
LOG_SIZE = 0x200
# Intel's SMART attribute log (0xCA): 12-byte entries in this order (tools/make_intel_nvme.py's layout)
CA_ORDER = (0xAB, 0xAC, 0xAD, 0xB8, 0xC7, 0xE2, 0xE3, 0xE4, 0xEA, 0xF0, 0xF3, 0xF4, 0xF5)


def intel_ca_page(e2: int, e3: int, e4: int, raws: dict[int, int] | None = None) -> bytes:
    """Log 0xCA: the 13 documented entries, key (byte 0), normalized value 100 (byte 3), 48-bit little-endian raw
    value (bytes 5-10), the rest of the 512 bytes zero."""
    values = {0xE2: e2, 0xE3: e3, 0xE4: e4, **(raws or {})}
    data = bytearray(LOG_SIZE)
    for i, key in enumerate(CA_ORDER):
        at = 12 * i
        data[at], data[at + 3] = key, 100
        data[at + 5:at + 11] = values.get(key, 0).to_bytes(6, "little")
    return bytes(data)


def drive_page() -> bytes:
    """The P4510's 0xCA page: the timed workload, ADh's min/max/avg erase counts (max 288 puts 0x20, a blank, at
    the end of the second row's ASCII column: 7.3 trims it, 7.4 prints it), F4h/F5h NAND and host writes."""
    low, high, avg = NVME.erase_min_max_avg
    return intel_ca_page(NVME.e2, NVME.e3, NVME.e4, {0xAD: low | high << 16 | avg << 32, 0xF4: NVME.nand_32mib,
                                                     0xF5: NVME.host_32mib})


def hex_dump(data: bytes, trim: bool) -> str:
    """smartmontools' dStrHex(data, len, 0): 16 bytes a line, the offset from column 1 (lower-case hex, two digits
    or more), bytes from column 8 with an extra blank after the 8th, the ASCII rendering from column 60. Up to 7.3
    every line is cut after its last non-blank character; from 7.4 a full line is its 76 columns and the last line
    ends after its last ASCII character."""
    lines = []
    for a in range(0, len(data), 16):
        chunk = data[a:a + 16]
        buff = [" "] * 80
        addr = f"{a:02x}"
        buff[1:1 + len(addr)] = addr
        pos = 5
        for i, c in enumerate(chunk):
            pos += 3
            if pos == 5 + 9 * 3:
                pos += 1
            buff[pos:pos + 2] = f"{c:02x}"
            buff[60 + i] = chr(c) if 0x20 <= c < 0x7F else "."
        line = "".join(buff[:60 + len(chunk)])
        lines.append((line.rstrip(" ") if trim else line) + "\n")
    return "".join(lines)


def dump(r: Release, data: bytes, log_id: int = LOG_PAGE, nsid: int = BROADCAST_NSID) -> str:
    """The header and the dump's lines, then a blank line (what `-l nvmelog` prints after the banner)."""
    head = f"NVMe Log 0x{log_id:02x} (NSID 0x{nsid:x}, 0x{len(data):04x} bytes)\n" if r.at_least("7.5") else \
        f"NVMe Log 0x{log_id:02x} (0x{len(data):04x} bytes)\n"
    return head + hex_dump(data, trim=not r.at_least("7.4")) + "\n"


def log_call(r: Release) -> str:
    """`smartctl -l nvmelog,0xca,0x200 -d nvme /dev/nvme0`."""
    return banner(r) + dump(r, drive_page())


DUMP_CITES = {
    "6.5": [Cite("6.5", "smartmontools/nvmeprint.cpp", 463,
                 'pout("NVMe Log 0x%02x (0x%04x bytes)\\n", options.log_page, size);'),
            Cite("6.5", "smartmontools/scsicmds.cpp", 93, "const int cpstart = 60;"),
            Cite("6.5", "smartmontools/scsicmds.cpp", 123, "while (cpos > 0 && buff[cpos-1] == ' ')")],
    "7.4": [Cite("7.4", "smartmontools/scsicmds.cpp", 321, 'snprintf(e, elen, "%.76s\\n", buff);'),
            Cite("7.4", "smartmontools/scsicmds.cpp", 332, "buff[cpos] = '\\0';")],
    "7.5": [Cite("7.5", "smartmontools/nvmeprint.cpp", 928,
                 'pout("NVMe Log 0x%02x (NSID 0x%x, 0x%04x bytes)\\n", options.log_page, nsid, read_bytes);'),
            Cite("7.5", "smartmontools/nvmeprint.cpp", 914, "nsid = device->get_nsid();")],
    "current": [Cite("current", "src/nvmeprint.cpp", 942,
                     'pout("NVMe Log 0x%02x (NSID 0x%x, 0x%04x bytes)\\n", options.log_page, nsid, read_bytes);'),
                Cite("current", "lib/scsicmds.cpp", 321, 'snprintf(e, elen, "%.76s\\n", buff);')],
}

# --- the text sections --------------------------------------------------------------------------------------


def _count(n: int, bytes_per_unit: int = 0) -> str:
    """le128_to_str: the value with thousands separators, and `[N.NN xB]` when it counts units of bytes."""
    text = thousands(n)
    return f"{text} [{capacity(n * bytes_per_unit)}]" if n and bytes_per_unit else text


def info_lines(r: Release, n: Nvme = NVME) -> str:
    out = ["=== START OF INFORMATION SECTION ===\n",
           f"Model Number:                       {n.model}\n",
           f"Serial Number:                      {n.serial}\n",
           f"Firmware Version:                   {n.firmware}\n",
           "PCI Vendor/Subsystem ID:            0x8086\n",
           "IEEE OUI Identifier:                0x5cd2e4\n",
           f"Total NVM Capacity:                 {_count(n.capacity, 1)}\n",
           "Unallocated NVM Capacity:           0\n",
           "Controller ID:                      0\n"]
    if r.at_least("7.2"):
        out.append(f"NVMe Version:                       {n.version}\n")
    out += ["Number of Namespaces:               1\n",
            f"Namespace 1 Size/Capacity:          {_count(n.capacity, 1)}\n",
            f"Namespace 1 Formatted LBA Size:     {n.lba_size}\n",
            f"Local Time is:                      {LOCAL_TIME} UTC\n", "\n"]
    return "".join(out)


def info(r: Release) -> str:
    """`smartctl -i -d nvme /dev/nvme0`."""
    return banner(r) + info_lines(r)


INFO_CITES = {
    "6.5": [Cite("6.5", "smartmontools/nvmeprint.cpp", 110, 'pout("Model Number:                       %s\\n"'),
            Cite("6.5", "smartmontools/nvmeprint.cpp", 129, 'pout("Total NVM Capacity:                 %s\\n"'),
            Cite("6.5", "smartmontools/nvmeprint.cpp", 150,
                 'pout("Namespace %u Size/Capacity:        %s%s\\n", nsid, align,'),
            Cite("6.5", "smartmontools/nvmeprint.cpp", 158, 'pout("Namespace %u Formatted LBA Size:   %s%u\\n"')],
    "7.2": [Cite("7.2", "smartmontools/nvmeprint.cpp", 155, 'jout("NVMe Version:                       %s\\n", buf);')],
    "7.5": [Cite("7.5", "smartmontools/nvmeprint.cpp", 112, 'jout("Model Number:                       %s\\n"'),
            Cite("7.5", "smartmontools/nvmeprint.cpp", 155, 'jout("NVMe Version:                       %s\\n", buf);')],
    "current": [Cite("current", "src/nvmeprint.cpp", 94, 'jout("Model Number:                       %s\\n"'),
                Cite("current", "src/nvmeprint.cpp", 121,
                     'jout("Total NVM Capacity:                 %s\\n", uile128_to_str(')],
}


def health_lines(r: Release, nsid: int = BROADCAST_NSID, n: Nvme = NVME) -> str:
    """The SMART/Health Information block: its header names the namespace in 6.5-6.6 (the device's) and from 7.5
    (the one read: the broadcast NSID unless the controller keeps it per namespace); 7.0-7.4 read it with the
    broadcast NSID and say nothing."""
    named = not r.at_least("7.0") or r.at_least("7.5")
    head = f"SMART/Health Information (NVMe Log 0x02, NSID 0x{nsid:x})\n" if named else \
        "SMART/Health Information (NVMe Log 0x02)\n"
    rows = (("Critical Warning:", f"0x{n.critical_warning:02x}"), ("Temperature:", f"{n.temperature} Celsius"),
            ("Available Spare:", f"{n.available_spare}%"),
            ("Available Spare Threshold:", f"{n.available_spare_threshold}%"),
            ("Percentage Used:", f"{n.percentage_used}%"),
            ("Data Units Read:", _count(n.data_units_read, 512_000)),
            ("Data Units Written:", _count(n.data_units_written, 512_000)),
            ("Host Read Commands:", _count(n.host_reads)), ("Host Write Commands:", _count(n.host_writes)),
            ("Controller Busy Time:", _count(n.busy_time)), ("Power Cycles:", _count(n.power_cycles)),
            ("Power On Hours:", _count(n.power_on_hours)), ("Unsafe Shutdowns:", _count(n.unsafe_shutdowns)),
            ("Media and Data Integrity Errors:", _count(n.media_errors)),
            ("Error Information Log Entries:", _count(n.error_log_entries)))
    return head + "".join(f"{key:<36}{value}\n" for key, value in rows) + "\n"


def health(r: Release) -> str:
    """`smartctl -A -d nvme /dev/nvme0`."""
    return banner(r) + "=== START OF SMART DATA SECTION ===\n" + health_lines(r)


def x_text(r: Release) -> str:
    """`smartctl -x -n standby -d nvme /dev/nvme0` as 6.5/6.6 print it (the read ssdwear falls back to without
    --json): the identity, the health line and block."""
    return (banner(r) + info_lines(r) + "=== START OF SMART DATA SECTION ===\n"
            "SMART overall-health self-assessment test result: PASSED\n\n" + health_lines(r))


HEALTH_CITES = {
    "6.5": [Cite("6.5", "smartmontools/nvmeprint.cpp", 286,
                 'pout("SMART/Health Information (NVMe Log 0x02, NSID 0x%x)\\n", nsid);'),
            Cite("6.5", "smartmontools/nvmeprint.cpp", 433,
                 "print_smart_log(smart_log, device->get_nsid(), id_ctrl, show_all);"),
            Cite("6.5", "smartmontools/nvmeprint.cpp", 294, 'pout("Data Units Written:                 %s\\n"')],
    "7.0": [Cite("7.0", "smartmontools/nvmeprint.cpp", 338, 'jout("SMART/Health Information (NVMe Log 0x02)\\n");')],
    "7.5": [Cite("7.5", "smartmontools/nvmeprint.cpp", 489,
                 'jout("SMART/Health Information (NVMe Log 0x02, NSID 0x%x)\\n", nsid);'),
            Cite("7.5", "smartmontools/nvmeprint.cpp", 829,
                 "unsigned smart_log_nsid = ((id_ctrl.lpa & 0x01) ? device->get_nsid()")],
    "current": [Cite("current", "src/nvmeprint.cpp", 471,
                     'jout("SMART/Health Information (NVMe Log 0x02, NSID 0x%x)\\n", nsid);'),
                Cite("current", "src/nvmeprint.cpp", 501,
                     'jout("Data Units Written:                 %s\\n", uile128_to_str(buf,')],
}
