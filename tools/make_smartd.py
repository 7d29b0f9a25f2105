#!/usr/bin/env python3
"""Write the HAND-MADE fixture machine fixtures/smartd/: a host whose smartd has logged its two drives for a year.

No emulator ages a drive for a year, so the attribute logs are written by this script, line by line in the format
smartmontools' src/smartd.cpp writes (write_dev_attrlog: `YYYY-MM-DD HH:MM:SS;` in the host's local time, then
`\\tID;NORMALISED;RAW;` per ATA attribute, or, from smartmontools 7.5 on, `\\tNAME;VALUE;` per NVMe SMART/Health
field, then `\\n`; file names `attrlog.MODEL-SERIAL.ata.csv` / `.nvme.csv` with every character but letters and
digits as `_`), and the drives' readings now in smartctl 7.3's `--json=c -x` layout (tools/make_handwritten.py's).
The local time is Europe/Berlin (tests set TZ=Europe/Berlin): the log crosses both DST changes of 2026.

  /dev/sda    Samsung SSD 860 EVO 1TB [S3Z9NB0K000777A], a workstation: on 08:00-20:00 local on weekdays only,
              smartd every 30 minutes (its default) while it runs. 177 Wear_Leveling_Count 90 -> 88 (10 -> 12 %
              used) and 241 Total_LBAs_Written +40 GB a working day over the year; Device Statistics say 12 %.
  /dev/nvme0  SAMSUNG MZQLB1T9HAJR-00007 [S436NA0M000777], a server: always on, smartd 7.5 with `-i 21600`
              (every 6 hours). Percentage Used 8 -> 9, Data Units Written +1,000,000 a day.

The readings "now" are at NOW (2026-12-01 07:35 UTC, 08:35 in Berlin): the logs' last lines are minutes older.
The config.yaml beside them is what a test writes with the absolute path of attrlog/ (`smartd_attrlog: DIR`).

Run: python3 -m tools.make_smartd   (rewrites fixtures/smartd deterministically; a test checks it is current)
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from tools.make_handwritten import ata_json, attr, dumps, nvme_json, read_args, scan_json, write

ROOT = Path(__file__).resolve().parents[1] / "fixtures"
ZONE = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 12, 1, 7, 35, tzinfo=timezone.utc)
START = datetime(2025, 12, 1, 0, 0, tzinfo=ZONE)
SDA = ("Samsung SSD 860 EVO 1TB", "S3Z9NB0K000777A")
NVME = ("SAMSUNG MZQLB1T9HAJR-00007", "S436NA0M000777")
SDA_POH0, NVME_POH0 = 9_000.0, 20_000.0
SECTORS0 = 60 * 10**12 // 512  # 60 TB written before the log starts
GB_PER_HOUR = 40e9 / 12  # 40 GB a working day of 12 hours


# The README opens with what the folder holds; the details are the docstring's paragraphs after its first.
README_HEAD = """# fixtures/smartd: a year of smartd attribute logs of two drives, and their readings now, hand-made

HAND-MADE, not recorded: a host whose smartd has logged its two drives for a year, its attribute logs
(attrlog/) in the format smartd writes and the drives' `smartctl --json=c -x` readings now, written by
tools/make_smartd.py.

"""


def name_part(text: str) -> str:
    """smartd's file-name characters: every byte but ASCII letters and digits becomes '_'."""
    return "".join(c if c.isascii() and c.isalnum() else "_" for c in text.strip())


def stamp(when: datetime) -> str:
    return when.astimezone(ZONE).strftime("%Y-%m-%d %H:%M:%S")


def workstation() -> Iterator[tuple[datetime, float]]:
    """(UTC time, power-on hours) of every check cycle: each half hour from 08:00 to 19:30 local on weekdays."""
    poh, day = SDA_POH0, START
    while day.date() <= NOW.astimezone(ZONE).date():
        if day.weekday() < 5:
            for half in range(24):
                at = datetime(day.year, day.month, day.day, 8, 0, tzinfo=ZONE) + timedelta(minutes=30 * half)
                if at.astimezone(timezone.utc) >= NOW - timedelta(minutes=4):
                    return
                yield at.astimezone(timezone.utc), poh + half * 0.5
            poh += 12.0
        day += timedelta(days=1)


def sda_values(poh: float) -> tuple[int, int, int]:
    """(percent used, 177 raw, sectors written) at these power-on hours (on 3,132 hours of the log: 2 %)."""
    worked = poh - SDA_POH0
    used = 10 + worked / 1566
    return int(used), round(used * 6), SECTORS0 + round(worked * GB_PER_HOUR / 512)


def sda_line(at: datetime, poh: float) -> str:
    used, wear_raw, sectors = sda_values(poh)
    fields = [(5, 100, 0), (9, 98, int(poh)), (12, 99, 41), (177, 100 - used, wear_raw), (179, 100, 0),
              (190, 70, 30 + (int(poh) % 5)), (241, 99, sectors)]
    return stamp(at) + ";" + "".join(f"\t{i};{n};{r};" for i, n, r in fields) + "\n"


def nvme_values(days: float) -> tuple[int, int, int]:
    """(percentage used, data units written, read) after this many days of the log."""
    return 8 + int(days / 200), 400_000_000 + round(1_000_000 * days), 900_000_000 + round(3_000_000 * days)


def nvme_line(at: datetime, days: float) -> str:
    used, written, read = nvme_values(days)
    poh = int(NVME_POH0 + days * 24)
    fields = [("critical-warning", 0), ("temperature", 38), ("available-spare", 100), ("available-spare-threshold", 10),
              ("percentage-used", used), ("data-units-read", read), ("data-units-written", written),
              ("host-reads", read * 4), ("host-writes", written * 4), ("controller-busy-time", 1200 + int(days)),
              ("power-cycles", 21), ("power-on-hours", poh), ("unsafe-shutdowns", 5), ("media-errors", 0),
              ("num-err-log-entries", 0)]
    return stamp(at) + ";" + "".join(f"\t{k};{v};" for k, v in fields) + "\n"


def logs(folder: Path) -> tuple[float, float]:
    """Write both logs; return the power-on hours the drives have NOW."""
    logdir = folder / "attrlog"
    logdir.mkdir()
    last = SDA_POH0
    with (logdir / f"attrlog.{name_part(SDA[0])}-{name_part(SDA[1])}.ata.csv").open("w", newline="\n") as f:
        for at, poh in workstation():
            f.write(sda_line(at, poh))
            last = poh
    start = START.astimezone(timezone.utc)
    days = 0.0
    with (logdir / f"attrlog.{name_part(NVME[0])}-{name_part(NVME[1])}.nvme.csv").open("w", newline="\n") as f:
        at = start
        while at < NOW - timedelta(minutes=4):
            days = (at - start).total_seconds() / 86400
            f.write(nvme_line(at, days))
            at += timedelta(hours=6)
    return last + 5 / 60, NVME_POH0 + (NOW - start).total_seconds() / 3600


def main(folder: Path = ROOT / "smartd") -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    sda_poh, nvme_poh = logs(folder)
    write(["--scan-open", "--json=c"], scan_json([("/dev/nvme0", "nvme", "NVMe"), ("/dev/sda", "sat", "ATA")]),
          folder=folder)
    args = ["--json=c", "-x", "-n", "standby", "-d", "nvme", "/dev/nvme0"]
    days = (NOW - START).total_seconds() / 86400
    used, written, read = nvme_values(days)
    write(args, dumps(nvme_json("/dev/nvme0", NVME[0], NVME[1], 1_920_383_410_176, int(nvme_poh), used, written,
                                read, args)), folder=folder)
    args = read_args("/dev/sda")
    used, wear_raw, sectors = sda_values(sda_poh)
    attrs = [attr(5, "Reallocated_Sector_Ct", 100, 0, thresh=10, flags=51), attr(9, "Power_On_Hours", 98, int(sda_poh)),
             attr(12, "Power_Cycle_Count", 99, 41), attr(177, "Wear_Leveling_Count", 100 - used, wear_raw, flags=51),
             attr(179, "Used_Rsvd_Blk_Cnt_Tot", 100, 0, thresh=10, flags=51),
             attr(190, "Airflow_Temperature_Cel", 70, 30), attr(241, "Total_LBAs_Written", 99, sectors)]
    write(args, dumps(ata_json("/dev/sda", "Samsung based SSDs", SDA[0], SDA[1], 0x0000860777, "RVT03B6Q",
                               1_000_204_886_016, int(sda_poh), attrs, used, args, oui=0x002538,
                               sectors_written=sectors)), folder=folder)
    (folder / "README.md").write_text(README_HEAD + (__doc__ or "").split("\n\n", 1)[1])
    print(f"wrote {folder}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "smartd")
