"""The matrix: every output ssdwear parses, the smartctl releases that changed what it reads there, the calls
each fixture folder answers and the source lines it reproduces.

An output's releases are the first that printed it, every release that changed a line ssdwear reads, 7.5 and the
current source (``changes``: release -> what changed). A fixture's folder holds the calls named as the replay
names them (``smartctl <argv, '/' -> '_'>.out`` and ``.rc``); where ssdwear itself makes the call on that release
(the text fallbacks of 5.39-6.6, the NVMe log page, the scan, the JSON reads of 7.0 on) the folder is a machine
it can replay, with what the release answers to ``--json`` when it has no ``--json``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import ata, jsondocs, nvme, scan, scsi
from .releases import REFUSAL_CITES, RELEASES, Cite, Release, banner, json_refusal

Call = tuple[list[str], str, int]  # argv after 'smartctl', stdout, exit status


@dataclass(frozen=True)
class Output:
    name: str
    what: str  # what the folder holds, for the README's first line
    reads: str  # how ssdwear reads it
    changes: dict[str, str]  # release -> what that release changed (the first: what it first printed)
    cites: dict[str, list[Cite]]  # release -> the source lines of the layout it introduced
    calls: Callable[[Release], list[Call]]

    def releases(self) -> list[Release]:
        return sorted((RELEASES[name] for name in self.changes), key=lambda r: r.key)

    def cites_for(self, r: Release) -> list[Cite]:
        """The lines of the layout in force at r: those of every release up to r that changed it, each at the
        release that introduced it (or printed it anew)."""
        return [c for name, cites in sorted(self.cites.items(), key=lambda kv: RELEASES[kv[0]].key)
                if RELEASES[name].key <= r.key for c in cites]


def _ata_dev(r: Release) -> str:
    """Linux named ATA disks /dev/hdX until libata (smartctl reaches them as /dev/sdX from 5.36 on)."""
    return "/dev/sda" if r.at_least("5.36") else "/dev/hda"


def _live_text(r: Release) -> bool:
    """Whether ssdwear reads this release's text itself: it has -x and -n (5.39) and no --json (before 7.0)."""
    return r.at_least("5.39") and not r.at_least("7.0")


def _refused(r: Release, argv: list[str]) -> list[Call]:
    """The --json call ssdwear makes first, as a release without --json answers it (when ssdwear reads it)."""
    if not _live_text(r):
        return []
    out, rc = json_refusal(r)
    return [(argv, out, rc)]


def _ata_info(r: Release) -> list[Call]:
    dev = _ata_dev(r)
    return [*_refused(r, ["--json=c", "-i", dev]), (["-i", dev], ata.info(r), 0)]


def _ata_health(r: Release) -> list[Call]:
    out, rc = ata.health(r)
    flags = ["-ic"] if not r.at_least("5.1.1") else ["-i", "-H"]  # 5.0: -i info, -c check SMART
    return [([*flags, _ata_dev(r)], out, rc)]


def _ata_attributes(r: Release) -> list[Call]:
    dev = _ata_dev(r)
    calls: list[Call] = [(["-v" if not r.at_least("5.1.1") else "-A", dev], ata.attributes(r), 0)]
    if r.at_least("5.41"):
        calls.append((["-A", "-f", "brief", dev], ata.attributes(r, brief=True), 0))
    return calls


_POWER_ON_ARGS = {"minutes": "9,minutes", "seconds": "9,seconds", "halfminutes": "9,halfminutes",
                  "msec24hour32": "9,msec24hour32,Power_On_Hours_and_Msec"}


def _ata_power_on(r: Release) -> list[Call]:
    dev = _ata_dev(r)
    if not r.at_least("5.1.1"):
        return [(["-vm", dev], ata.power_on(r, "minutes-5.0"), 0)]  # 5.0: -v attributes, -m 9 is minutes
    kinds = {"5.1.2": ["minutes"], "5.1.8": ["seconds"], "5.40": ["msec24hour32"]}.get(
        r.name, ["minutes", "seconds", "halfminutes", "msec24hour32"])
    return [(["-A", "-v", _POWER_ON_ARGS[k], dev], ata.power_on(r, k), 0) for k in kinds]


def _ata_devstat(r: Release) -> list[Call]:
    return [(["-l", "devstat", "/dev/sda"], ata.devstat(r), 0)]


def _scsi_info(r: Release) -> list[Call]:
    return [(["-i", "/dev/sda" if not r.at_least("5.1.1") else "/dev/sdb"], scsi.info(r), 0)]


def _scsi(builder: Callable[[Release], str], *flags: str) -> Callable[[Release], list[Call]]:
    """The call on the SAS drive (/dev/sda in 5.0: its first SCSI disk; 5.0's -H was -c)."""
    def calls(r: Release) -> list[Call]:
        old = not r.at_least("5.1.1")
        argv = ["-c"] if old and flags == ("-H",) else list(flags)
        return [([*argv, "/dev/sda" if old else "/dev/sdb"], builder(r), 0)]
    return calls


def _nvme_info(r: Release) -> list[Call]:
    return [(["-i", "-d", "nvme", "/dev/nvme0"], nvme.info(r), 0)]


def _nvme_health(r: Release) -> list[Call]:
    return [(["-A", "-d", "nvme", "/dev/nvme0"], nvme.health(r), 0)]


def _nvmelog(r: Release) -> list[Call]:
    """A machine ssdwear reads: the drive's -x (JSON from 7.0, else refused and read as text) and the 0xCA dump;
    from 7.4 also the saved --json=co output of both, the dump's lines in smartctl.output."""
    read = ["-x", "-n", "standby", "-d", "nvme", "/dev/nvme0"]
    log = ["-l", "nvmelog,0xca,0x200", "-d", "nvme", "/dev/nvme0"]
    calls: list[Call] = [(log, nvme.log_call(r), 0)]
    if not r.at_least("7.0"):
        out, rc = json_refusal(r)
        return [(["--json=c", *read], out, rc), (read, nvme.x_text(r), 0), *calls]
    calls.insert(0, (["--json=c", *read], jsondocs.dumps(jsondocs.nvme(r, ["--json=c", *read])), 0))
    if r.at_least("7.4"):
        saved = ["--json=co", "-x", *log]
        lines = (nvme.info_lines(r) + nvme.health_lines(r) + nvme.dump(r, nvme.drive_page())).splitlines()
        calls.append((saved, jsondocs.dumps(jsondocs.nvme(r, saved, output=lines)), 0))
    return calls


def _json(kind: str) -> Callable[[Release], list[Call]]:
    """The -x read; on the Intel NVMe drive also the 0xCA page ssdwear reads after it."""
    builder = {"ata": jsondocs.ata, "nvme": jsondocs.nvme, "scsi": jsondocs.scsi}[kind]
    device = {"ata": ["-d", "sat", "/dev/sda"], "nvme": ["-d", "nvme", "/dev/nvme0"],
              "scsi": ["-d", "scsi", "/dev/sdb"]}
    argv = ["--json=c", "-x", "-n", "standby", *device[kind]]
    log = ["-l", "nvmelog,0xca,0x200", *device[kind]]
    return lambda r: [(argv, jsondocs.dumps(builder(r, argv)), 0),
                      *([(log, nvme.log_call(r), 0)] if kind == "nvme" else [])]


def _scan(r: Release) -> list[Call]:
    if r.at_least("7.0"):
        return [(["--scan-open", "--json=c"], scan.json_text(r), 0)]
    out, rc = scan.refusal(r)
    return [(["--scan-open", "--json=c"], out, rc), (["--scan-open"], scan.text(r), 0)]


def _merged(*tables: dict[str, list[Cite]]) -> dict[str, list[Cite]]:
    """The cited lines of outputs a folder holds together (a machine's -x read and its log page)."""
    return {name: [c for t in tables for c in t.get(name, [])] for name in sorted({n for t in tables for n in t})}


_TEXT = "parsed as a saved output (`ssdwear analyze FILE`: ssdwear.run.saved.load)"
_LIVE = ("on 5.39-6.6 also replayed as ssdwear reads a drive itself: `--json` refused, then the text "
         "(ssdwear.smartctl.calls)")

OUTPUTS = (
    Output("ata-info", "the ATA information section (`smartctl -i`)", f"{_TEXT}; {_LIVE}", {
        "5.0": "the first release: 'Device: MODEL  Supports ATA Version N', Serial Number, Firmware Version, 'Drive "
               "supports S.M.A.R.T. and is enabled', and no banner (only with -p): nothing says the output is "
               "smartctl's, and ssdwear refuses it",
        "5.0.2": "the banner 'smartctl version 5.0-2 Copyright (C) 2002 Bruce Allen' on every run",
        "5.0.8": "Device Model; 'SMART support is: Enabled'",
        "5.0.11": "the section headers; 'SMART support is: Available - device has SMART capability.' and 'Enabled'",
        "5.1.1": "Local Time is, without a time zone (ctime)", "5.1.2": "Local Time is with the time zone",
        "5.19": "the banner's version as PACKAGE_VERSION ('5.19', not '5.1-18')",
        "5.33": "User Capacity (bytes, with thousands separators); the banner names the build host",
        "5.36": "Model Family", "5.39": "the banner of 5.39 on: version, date, SVN revision, platform",
        "5.41": "LU WWN Device Id, User Capacity with [GB], Sector Sizes", "6.0": "Rotation Rate",
        "7.5": "no change to the lines ssdwear reads since 6.0", "current": "the banner's version 'pre-8.0-549'",
    }, ata.INFO_CITES, _ata_info),
    Output("ata-health", "the ATA health line (`smartctl -i -H`; 5.0: `-ic`)", _TEXT, {
        "5.0.8": "the first 'SMART overall-health self-assessment test result: PASSED'",
        "5.0.11": "the READ SMART DATA section; the marginal attributes after PASSED",
        "5.40": "UNKNOWN! when neither the status nor the attributes can be read",
        "7.5": "no change since 5.40", "current": "no change since 7.5",
    }, ata.HEALTH_CITES, _ata_health),
    Output("ata-attributes", "the ATA SMART attribute table (`smartctl -A`, `-A -f brief`; 5.0: `-v`)", _TEXT, {
        "5.0": "the first table: 'Attribute Flag Value Worst Threshold Raw Value', names as '(  9)Power On Hours' "
               "(and no banner: ssdwear knows the output by the table's header)",
        "5.0.2": "the banner (the table is 5.0's)",
        "5.0.11": "the table of today: ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE WHEN_FAILED RAW_VALUE",
        "5.1.14": "the UPDATED column (Always/Offline) after TYPE",
        "5.41": "`-f brief` (the format `-x` prints): FLAGS as letters, FAIL as -, NOW or Past",
        "7.5": "no change since 5.41", "current": "no change since 7.5",
    }, ata.ATTRIBUTE_CITES, _ata_attributes),
    Output("ata-power-on", "attribute 9's power-on time formats (`smartctl -A -v 9,FORMAT`; 5.0: `-vm`)", _TEXT, {
        "5.0.8": "-m: minutes printed as 'H h + M m' (in 5.0's table)", "5.0.11": "-m in the table of 5.0.11",
        "5.1.2": "9,minutes: Power_On_Minutes as 'Hh+MMm'",
        "5.1.8": "9,seconds: Power_On_Seconds as 'Hh+MMm+SSs'",
        "5.40": "9,msec24hour32: hours and milliseconds as 'Hh+MMm+SS.mmms'; 9,halfminutes as 'Hh+MMm'",
        "7.5": "no change since 5.40 (all four formats)", "current": "no change since 7.5 (all four formats)",
    }, ata.POWER_ON_CITES, _ata_power_on),
    Output("ata-devstat", "ATA Device Statistics (`smartctl -l devstat`)", _TEXT, {
        "5.42": "the first Device Statistics: decimal page, size, value, '~' after a normalized value",
        "6.4": "hexadecimal page numbers and a Flags column (N, D, C) before the description",
        "7.5": "no change since 6.4",
        "current": "'[N.NN TB]' after Logical Sectors Written/Read (commit e5ea4868b, 2026)",
    }, ata.DEVSTAT_CITES, _ata_devstat),
    Output("scsi-info", "the SCSI/SAS identity (`smartctl -i`)", _TEXT, {
        "5.0": "the first release: 'Device: VENDOR PRODUCT Version: REV', and no banner (only with -p): refused as "
               "ata-info/5.0", "5.0.2": "the banner", "5.1.10": "Serial number, Local Time is",
        "5.24": "Transport protocol",
        "5.41": "Vendor, Product, Revision, User Capacity, Logical block size, Logical Unit id on lines of their own",
        "6.1": "the section header, Physical block size, Rotation Rate, SMART support",
        "7.5": "no change since 6.1", "current": "no change since 7.5",
    }, scsi.INFO_CITES, _scsi_info),
    Output("scsi-health", "the SCSI health line (`smartctl -H`; 5.0: `-c`)", _TEXT, {
        "5.0": "the first: 'S.M.A.R.T. Sense: Okay!', and no banner (refused as ata-info/5.0)",
        "5.0.2": "'S.M.A.R.T. Sense: Ok!' after the banner", "5.1.10": "SMART Sense: Ok!",
        "5.1.13": "SMART Health Status: OK",
        "6.1": "the READ SMART DATA section header", "7.5": "no change since 6.1", "current": "no change since 7.5",
    }, scsi.HEALTH_CITES, _scsi(scsi.health, "-H")),
    Output("scsi-attributes", "the SCSI attributes (`smartctl -A`): grown defects, power-on time", _TEXT, {
        "5.36": "Elements in grown defect list", "6.1": "the section header",
        "7.2": "Accumulated power on time, hours:minutes H:MM (from the background scan log)",
        "7.5": "no change since 7.2", "current": "no change since 7.5",
    }, scsi.ATTRIBUTE_CITES, _scsi(scsi.attributes, "-A")),
    Output("scsi-background", "the SCSI background scan log's power-on time (`smartctl -l background`)", _TEXT, {
        "5.37": "Accumulated power on time, hours:minutes H:MM [M minutes]",
        "7.5": "no change since 5.37", "current": "no change since 7.5",
    }, scsi.BACKGROUND_CITES, _scsi(scsi.background, "-l", "background")),
    Output("scsi-ssd", "the SCSI solid state media log (`smartctl -l ssd`)", _TEXT, {
        "5.42": "SS Media used endurance indicator: N%", "6.3": "Percentage used endurance indicator: N%",
        "7.5": "no change since 6.3", "current": "no change since 7.5",
    }, scsi.SSD_CITES, _scsi(scsi.ssd, "-l", "ssd")),
    Output("scsi-errlog", "the SCSI error counter log (`smartctl -l error`)", _TEXT, {
        "5.1.10": "the first error counter log (its header's 'delay:' line has a colon)",
        "5.33": "the header 'Errors Corrected by ... ECC fast | delayed' (spelt EEC in 5.33)",
        "7.5": "no change since 5.36", "current": "no change since 7.5",
    }, scsi.ERRLOG_CITES, _scsi(scsi.errlog, "-l", "error")),
    Output("nvme-info", "the NVMe identity (`smartctl -i -d nvme`)", _TEXT, {
        "6.5": "the first NVMe output: Model Number, Serial Number, Total NVM Capacity, Namespace 1 lines",
        "7.2": "NVMe Version", "7.5": "no change since 7.2", "current": "no change since 7.5",
    }, nvme.INFO_CITES, _nvme_info),
    Output("nvme-health", "the NVMe SMART/Health Information block (`smartctl -A -d nvme`)", _TEXT, {
        "6.5": "the first block; its header names the device's NSID",
        "7.0": "the header without the NSID (the log is read with the broadcast NSID)",
        "7.5": "the header names the NSID again: 'SMART/Health Information (NVMe Log 0x02, NSID 0xffffffff)'",
        "current": "no change since 7.5",
    }, nvme.HEALTH_CITES, _nvme_health),
    Output("nvmelog", "Intel/Solidigm vendor log 0xCA as smartctl dumps it (`smartctl -l nvmelog,0xca,0x200`)",
           "replayed as ssdwear reads the drive (ssdwear.smartctl.calls.read_drive: the -x read, then the log page); "
           "from 7.4 the saved `--json=co` document too", {
               "6.5": "the first dump: 'NVMe Log 0xca (0x0200 bytes)', dStrHex's lines cut after their last "
                      "non-blank character",
               "7.4": "dStrHex prints every full line's 76 columns (trailing blanks of the ASCII column kept)",
               "7.5": "'NVMe Log 0xca (NSID 0xffffffff, 0x0200 bytes)'", "current": "no change since 7.5",
           }, _merged(nvme.DUMP_CITES, nvme.INFO_CITES, nvme.HEALTH_CITES, jsondocs.NVME_CITES), _nvmelog),
    Output("json-ata", "an ATA drive's `--json=c -x` document", "replayed as ssdwear reads the drive "
           "(ssdwear.smartctl.calls.read_drive)", {
               "7.0": "the first JSON", "7.3": "local_time always, smart_support", "7.4": "smartctl.pre_release",
               "7.5": "endurance_used (not read by ssdwear)",
               "current": "version_info and git_revision; a string beside Device Statistics values; host_writes",
           }, jsondocs.ATA_CITES, _json("ata")),
    Output("json-nvme", "an NVMe drive's `--json=c -x` document", "replayed as ssdwear reads the drive "
           "(ssdwear.smartctl.calls.read_drive)", {
               "7.0": "the first JSON", "7.2": "nvme_version", "7.3": "local_time always, smart_support",
               "7.5": "nvme_smart_health_information_log.nsid, spare_available, endurance_used",
               "current": "host_reads and host_writes objects; version_info",
           }, _merged(jsondocs.NVME_CITES, nvme.DUMP_CITES), _json("nvme")),
    Output("json-scsi", "a SCSI/SAS drive's `--json=c -x` document", "replayed as ssdwear reads the drive "
           "(ssdwear.smartctl.calls.read_drive)", {
               "7.0": "the first JSON: vendor, product, model_name, revision; scsi_grown_defect_list holds the "
                      "list's length in bytes",
               "7.2": "scsi_grown_defect_list is the number of elements (commit ab07de4d2)",
               "7.3": "scsi_vendor, scsi_product, scsi_model_name, scsi_revision; no model_name; logical_unit_id",
               "7.5": "model_name again (beside scsi_model_name)", "current": "no change since 7.5",
           }, jsondocs.SCSI_CITES, _json("scsi")),
    Output("scan", "`smartctl --scan-open` (text before 7.0, `--json=c` from 7.0)", "replayed as ssdwear scans "
           "(ssdwear.smartctl.calls.scan: `--scan-open --json=c`, the text when --json is refused)", {
               "5.40": "the first --scan-open: 'INFO -d TYPE [PROTOCOL] (opened)' / '(open failed: ...)'",
               "5.41": "'NAME -d TYPE # INFO, PROTOCOL device'; a device that did not open as '# ... open failed'",
               "7.0": "--json=c: devices[] with name, info_name, type, protocol, open_error",
               "7.5": "no change since 7.0", "current": "no change since 7.5",
           }, scan.CITES, _scan),
)
BY_NAME = {o.name: o for o in OUTPUTS}


def cites(output: Output, r: Release, calls: list[Call]) -> list[Cite]:
    """Every source line a fixture reproduces: the output's layout, the banner, the refusal of --json."""
    from .releases import banner_cites
    found = list(output.cites_for(r))
    if any(out.startswith(banner(r)) for _, out, _ in calls):
        found += banner_cites(r)
    if any(rc == 1 for _, _, rc in calls):
        found += REFUSAL_CITES
    return found
