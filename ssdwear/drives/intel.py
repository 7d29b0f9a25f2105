"""Intel's and Solidigm's drive families (rows of the table in families.py, in its order: NVMe, then the narrow SATA
rows, then the broad one), and the drives their timed-workload reset is documented for.

Sources: smartmontools drivedb.h at f1d0da9ce (github.com/smartmontools/smartmontools, drivedb/drivedb.h; the lines
cited are that revision's), the Intel DC S3700/S3710 datasheets (SMART attribute tables; SMART EXECUTE OFF-LINE
IMMEDIATE subcommand 40h), SPDK's nvme_intel.h and Solidigm's endurance_profiler (NVMe log 0xCA, Set Features 0xD5),
nvme-cli's solidigm plugin (the OCP log C0h), and the real outputs in fixtures/corpus (values read by hand in its
MANIFEST.md). `python3 -m tools.check_drivedb DRIVEDB_H` checks every cited entry against a copy of that file.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ssdwear.model.family import Counter, Family, LogSource, Reset, TimedWorkload, WearAttribute

MiB = 1 << 20
GiB = 1 << 30

DRIVEDB = "drivedb.h at f1d0da9ce"

# The Intel and Solidigm families smartctl's drive database names (every Intel entry's name starts so; Dell's
# certified drives are Intel's too). Where smartctl printed a family, it decides: an 'INTEL ...' model string in a
# 'Samsung based SSDs' family is not an Intel drive.
INTEL_FAMILY = r"(?:Dell Certified )?Intel\b.*|Solidigm\b.*"

# Intel's SATA timed-workload reset: exactly the drivedb.h entries whose comment says "226,227,228 can be reset by
# 'smartctl -t vendor,0x40'", under each entry's model and firmware regular expressions (drivedb.h matches the whole
# strings); and the DC S3710 by Intel's datasheet (its own drivedb.h entry, "Intel 3710 Series SSDs" at line 1928,
# carries no reset note, though most S3710 models first match the 730/S3700 entry, which does).
SATA_RESETS = (
    Reset("X25-M/X18-M/X25-V G2 on firmware 2CV102J8 or later", r"INTEL SSDSA[12]M(040|080|120|160)G2.*",
          f"{DRIVEDB} 'Intel X18-M/X25-M/X25-V G2 SSDs' (fixed firmware), line 1565", r"2CV102(J[89A-Z]|[K-Z].)"),
    Reset("311/313", r"INTEL SSD(SA2VP|MAE[SX]C)(020|024)G[23]H?", f"{DRIVEDB} 'Intel 311/313 Series SSDs', line 1596"),
    Reset("320", r"INTEL SSDSA[12][BCN][WT](040|080|120|160|300|600)G3[ADHL]?",
          f"{DRIVEDB} 'Intel 320 Series SSDs', line 1622"),
    Reset("710", r"INTEL SSDSA2BZ(100|200|300)G3", f"{DRIVEDB} 'Intel 710 Series SSDs', line 1652"),
    Reset("545s", r"INTEL SSDSC[2K]K[WF](128G|256G|512G|010T)8.*", f"{DRIVEDB} 'Intel 545s Series SSDs', line 1805"),
    Reset("730, DC S3500/S3510/S3610/S3700 (and HPE's VK000...GWSXF)",
          r"INTEL SSDSC(1N|[12]B)[ABGPX]((080|100|120|150|160|200|240|300|400|480|600|800)[GH][3467][CERT]?|"
          r"(012|016)T[46])|VK000(120|240|480)GWSXF",
          f"{DRIVEDB} 'Intel 730 and DC S35x0/3610/3700 Series SSDs', line 1836"),
    Reset("DC S3710", r"INTEL SSDSC2BA(200G|400G|800G|012T)4.?",
          "Intel DC S3710 datasheet (SMART EXECUTE OFF-LINE IMMEDIATE, subcommand 40h); model numbers as drivedb.h's "
          "'Intel 3710 Series SSDs', line 1928"),
    Reset("DC S3520", r"INTEL SSDSC(2|K)(J|B)B(240G|480G|960G|150G|760G|800G|012T|016T)7.?",
          f"{DRIVEDB} 'Intel S3520 Series SSDs', line 1945"),
    Reset("Dell-certified DC S3520", r"SSDSC(2|K)(J|B)B(240G|480G|960G|120G|760G|800G|012T|016T)7R.?",
          f"{DRIVEDB} 'Dell Certified Intel S3520 Series SSDs', line 1975"),
    Reset("DC S4500/S4600, D3-S4510/S4610/S4520/S4620", r"(INTEL|SOLIDIGM) SSDSC(2K|KK)(B|G)(240G|480G|960G|019T|038T|"
          r"076T)[78Z].?", f"{DRIVEDB} 'Intel/Solidigm S46x0/S45x0 Series SSDs', line 1992"),
    Reset("Dell-certified DC S4x00/D3-S4x10", r"SSDSC(2K|KK)(B|G)(240G|480G|960G|019T|038T)(7R|8R).?",
          f"{DRIVEDB} 'Dell Certified Intel S4x00/D3-S4x10 Series SSDs', line 2026"),
)
SATA_TIMED = TimedWorkload(
    resets=SATA_RESETS,
    # E2h = 102400 (exactly 100 %) with E4h in the hundreds of millions of minutes is seen on real
    # S3510/S3520/S3610 and Dell OEM drives; neither value can be true.
    impossible=(102400, 100_000_000))

# Intel counts host I/O in 32 MiB units whatever name smartctl prints; 249 NAND_Writes_1GiB (320/520/53x/
# 540s/545s), 243 NAND_Writes_32MiB (S3510/S3610/S3520/S4x00): the IDs mean the same on every Intel SATA SSD.
NAND = (Counter(249, GiB, "1 GiB"), Counter(243, 32 * MiB, "32 MiB"))
HOST_WRITTEN = (Counter(241, 32 * MiB, "32 MiB"), Counter(225, 32 * MiB, "32 MiB"), Counter(246))
HOST_READ = (Counter(242, 32 * MiB, "32 MiB"),)
# Intel 233 Media_Wearout_Indicator "decreases from 100 to 1 as the average erase cycle count increases from 0 to the
# maximum rated cycles" (DC S3700 datasheet): 100 -> 1 spans the rated life, used = (100 - v) / 0.99.
WEAROUT_233 = WearAttribute(233, "intel_233_media_wearout", "Media_Wearout_Indicator", divisor=0.99)

# Intel and Solidigm model numbers, whole: 'INTEL SSDSA2BZ200G3', 'INTEL SSDSC2KF256H6 SATA 256GB' (drivedb.h's
# Pro 5400s and 545s entries), OEM variants without the prefix ('SSDSCKJB240G7R'), the X25-E's prefix last
# ('SSDSA2SH032G1GN INTEL'), and HPE's VK000...GWSXF (an HPE INTEL SSDSC2BB480G4, drivedb.h line 1844).
MODEL = r"(?i)(?:INTEL|SOLIDIGM)\s+SSD[A-Z0-9]+(?: SATA \d+[GT]B)?|SSD(?:SA|SC|MC|MA|PE|PF|PB)[A-Z0-9]+(?:\s+INTEL)?|" \
        r"VK000(?:120|240|480)GWSXF"
# Dell-certified Intel drives (model ending in 'R', e.g. SSDSC2KB480G7R, SSDSCKJB240G7R, INTEL SSDSC1BG200G4R): their
# drive-database entries redefine 233 (Total_LBAs_Written on the S3520) and add 245 Percent_Life_Remaining and 202
# End_of_Life.
DELL_MODEL = r"(?i)(?:INTEL\s+)?SSDSC[A-Z0-9]*[GT]\dR"
# Intel's SandForce SF-2281 drives: 520 (SSDSC2CW), 330/335 (SSDSC2CT), 525 (SSDMCEAC), 530/535 and Pro 1500/2500
# (SSDSC2BW, SSDSC2BF, SSDMCEAW, SSDSCKGW/KHW), by drive-database family or model number.
SANDFORCE_FAMILY = r"Intel (?:520|525|330/335|53x and Pro 1500/2500) Series.*"
SANDFORCE_MODEL = r"(?i)INTEL\s+SSD(?:SC2C[WT]|SC2B[WF]|MCEA[CW]|SCK[GH]W)\d[A-Z0-9]*|" \
                  r"SSD(?:SC2C[WT]|SC2B[WF]|MCEA[CW]|SCK[GH]W)\d[A-Z0-9]*(?:\s+INTEL)?"

# Intel/Solidigm data-centre NVMe families whose vendor log 0xCA carries the timed workload and whose reset (Set
# Features, feature 0xD5, value 1) is published: SPDK's nvme_intel.h (from the Intel SSD DC P3700 specification: log
# 0xCA "SMART attributes", 12-byte entries; feature 0xD5 "reset timed workload counters"), Solidigm's own
# endurance_profiler (reads E2h-E4h from 0xCA and resets with `nvme set-feature -f 0xd5 -v 1` on Intel/Solidigm
# data-centre NVMe SSDs) and nvme-cli's intel and solidigm plugins (smart-log-add reads 0xCA). Client drives share the
# INTEL/SOLIDIGM prefix (SSDPEK*, SSDPFK*) and are not in these rows; nor are Optane (SSDPE21K*). A model number is
# whole: an optional 'INTEL '/'SOLIDIGM ' prefix, an OEM suffix of up to four letters or digits.
NVME_DOCUMENTED = ("SPDK nvme_intel.h (log 0xCA, feature 0xD5); Solidigm endurance_profiler; nvme-cli intel/solidigm "
                   "plugins")
_NVME_FORM = r"(?i)(?:INTEL\s+|SOLIDIGM\s+)?(?:{})[A-Z0-9]{{0,4}}(?:\s+INTEL)?"


_NVME_NUMBERS = (
    ("DC P3500/P3520/P3600/P3700/P3608", r"SSDPE(2M|DM)[DEX]\d{3}[GT]\d|SSDPECME\d{3}[GT]\d"),
    ("DC P4500/P4510/P4600/P4610", r"SSDPE(2K|DK)[XE]\d{3}[GT]\d"),
    ("D7-P5510/P5520/P5620, D5-P5316", r"SSDPF2(K[XE]|NV)\d{3}[GT]"),
)
NVME_MODEL = _NVME_FORM.format("|".join(numbers for _, numbers in _NVME_NUMBERS))
NVME_RESETS = tuple(Reset(name, _NVME_FORM.format(numbers), NVME_DOCUMENTED) for name, numbers in _NVME_NUMBERS)
NVME_TIMED = TimedWorkload(log_page=0xCA, resets=NVME_RESETS, reset_command="Set Features 0xD5",
                           impossible=SATA_TIMED.impossible)  # the SATA families' broken-counter pattern, same lineage
# Solidigm D7-P5520 and D7-P5620 implement the OCP Datacenter NVMe SSD specification's log C0h: nvme-cli's Solidigm
# plugin serves their `smart-cloud` command with the OCP plugin's smart-add-log (plugins/solidigm/solidigm-nvme.c) and
# names log C0h "OCP SMART / Health Information Extended" in its log page directory (solidigm-log-page-dir.c). The
# page's GUID is checked before its layout is trusted (fine.ocp_smart), so a firmware that serves another C0h is never
# read as OCP's.
OCP_LOG = LogSource(0xC0, "OCP SMART / Health Information Extended", "nvme-cli plugins/solidigm (solidigm-nvme.c, "
                    "solidigm-log-page-dir.c) for the D7-P5520/P5620", model=_NVME_FORM.format(r"SSDPF2K[XE]\d{3}T1"))


def _sata(name: str, source: str, **row: Any) -> Family:
    """An Intel SATA row: Intel's counters and timed workload, gated by a printed family (INTEL_FAMILY)."""
    return replace(Family(name, source, family=INTEL_FAMILY, wear=(WEAROUT_233,), host_written=HOST_WRITTEN,
                          host_read=HOST_READ, nand_written=NAND, timed=SATA_TIMED), **row)


FAMILIES: tuple[Family, ...] = (
    # Intel/Solidigm data-centre NVMe: the timed workload in vendor log 0xCA (wear: the standard health log).
    Family("Intel/Solidigm data-centre NVMe", NVME_DOCUMENTED, model=NVME_MODEL,
           interfaces=("nvme",), timed=NVME_TIMED, nvme_logs=(OCP_LOG,)),
    # Dell-certified Intel: 245 Percent_Life_Remaining; host counters in Intel's 32 MiB (drivedb.h "Dell Certified
    # Intel S3520 Series SSDs" names 225 Host_Writes_32MiB; the corpus SSDSCKJB240G7R prints 241 as the default
    # Total_LBAs_Written with 225's raw, 129,493: 4.3 TB, not the 66 MB of 512-byte sectors).
    _sata("Dell-certified Intel", f"{DRIVEDB} 'Dell Certified Intel S3520 Series SSDs' (line 1975), 'Dell Certified "
          "Intel S4x00/D3-S4x10 Series SSDs' (line 2026); corpus SSDSCKJB240G7R, SSDSC1BG200G4R",
          model=DELL_MODEL, family_alone=r"Dell Certified Intel.*",
          wear=(WearAttribute(245, "dell_245_percent_life_remaining", "Percent_Life_Remaining", floor=0),)),
    # Intel's SandForce SF-2281 drives: Intel's attributes, and SandForce's 255 for a Device Statistic not valid.
    _sata("Intel SandForce (520/525/330/335/53x/Pro 1500/2500)", f"{DRIVEDB} 'Intel 520 Series SSDs' (line 1692), "
          "'Intel 525 Series SSDs' (line 1716), 'Intel 53x and Pro 1500/2500 Series SSDs' (line 1742), "
          "'Intel 330/335 Series SSDs' (line 1772)",
          model=SANDFORCE_MODEL, family_alone=SANDFORCE_FAMILY, controller="SandForce"),
    _sata("Intel/Solidigm", f"{DRIVEDB} Intel entries (lines 1532-2083); Intel DC S3700 datasheet",
          model=MODEL, family_alone=INTEL_FAMILY),
)
