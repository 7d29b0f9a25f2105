"""A finer counter no drive can count (issue 26.4): an Endurance Group (09h) or OCP C0h field is 128 bits wide, and
one of all ones (Media Units Written), or an Endurance Estimate of 2^63, reached the history, which refused the whole
sample ("a counter does not fit in a 64-bit integer"): `sample` exited 3 every hour, the history stopped and `start`
said "no baseline stored", while `report` on the same reading had already set the counter aside. The counter (or its
rating) is dropped where the counters are made, with a warning, and the sample is stored."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.paths import FIXTURES

from ssdwear.cli.app import App
from ssdwear.model.errors import DriveError
from ssdwear.smartctl.replay import ReplayRunner
from ssdwear.smartctl.runner import CallResult

NVME_X = "smartctl --json=c -x -n standby -d nvme _dev_nvme0"
ID_ARGS = ("id-ctrl", "/dev/nvme0", "-o", "json")
EG_ARGS = ("get-log", "/dev/nvme0", "--log-id=0x09", "--lsi=1", "--log-len=512", "-b")


class NvmeCli:
    """nvme-cli answering Identify Controller (one endurance group) and the Endurance Group log with `page`."""

    def __init__(self, page: bytes) -> None:
        ctrl = json.dumps({"vid": 5197, "ver": 66560, "ctratt": 0x10, "endgidmax": 1}).encode()
        self.answers = {ID_ARGS: ctrl, EG_ARGS: page}

    def run(self, args: Sequence[str]) -> CallResult:
        if tuple(args) not in self.answers:
            raise DriveError(args[1], f"no answer to 'nvme {' '.join(args)}'")
        return CallResult(tuple(args), self.answers[tuple(args)], 0, b"")


def endurance_log(media_units: int, estimate: int) -> bytes:
    """Log 09h (libnvme's struct nvme_endurance_group_log): byte 5 Percentage Used, 32-47 Endurance Estimate,
    80-95 Media Units Written, 128-bit little-endian, units of 10^9 bytes."""
    page = bytearray(512)
    page[5] = 10
    page[32:48] = estimate.to_bytes(16, "little")
    page[80:96] = media_units.to_bytes(16, "little")
    return bytes(page)


def machine(tmp_path: Path) -> Path:
    """fixtures/fleet's Samsung NVMe drive, its controller saying NVMe 1.4 (so that its Endurance Group log is read:
    the recording's 1.2 controller is never asked for one)."""
    folder = tmp_path / "machine"
    folder.mkdir()
    doc = json.loads((FIXTURES / "fleet" / f"{NVME_X}.out").read_text())
    doc["nvme_version"] = {"string": "1.4", "value": 0x10400}
    (folder / f"{NVME_X}.out").write_text(json.dumps(doc))
    shutil.copy(FIXTURES / "fleet" / f"{NVME_X}.rc", folder)
    return folder


@pytest.mark.parametrize("media_units, estimate, warning", [
    ((1 << 128) - 1, 7_000, "Media Units Written = 340,282,366,920,938,463,463,374,607,431,768,211,455 (10^9 bytes); "
                            "group Percentage Used 10 %: more than any drive counts"),
    (861, 1 << 63, "Endurance Estimate = 9,223,372,036,854,775,808 (10^9 bytes of media writes): more than any drive "
                   "is rated for (at least 2^63 units); nvme_media_units_written is used without it"),
])
def test_a_count_beyond_64_bits_is_dropped_with_a_warning_and_the_sample_stored(
        tmp_path: Path, media_units: int, estimate: int, warning: str) -> None:
    folder, db = machine(tmp_path), tmp_path / "history.db"

    def cli(*args: str) -> tuple[int, str, str]:
        app = App(runner=ReplayRunner(folder), nvme_runner=NvmeCli(endurance_log(media_units, estimate)),
                  db=str(db), clock=lambda: T0)
        result = ssdwear_cli([*args], app)
        return result.exit_code, result.stdout, result.stderr

    code, out, err = cli("sample", "/dev/nvme0", "-d", "nvme")
    assert code == 0, err
    with sqlite3.connect(db) as con:
        [(stored, fine, rated)] = con.execute("SELECT count(*), max(fine), max(fine_rated) FROM samples").fetchall()
    assert stored == 1 and rated is None and fine in (861, 400_000_000 * 512_000)
    code, out, err = cli("start", "/dev/nvme0", "-d", "nvme", "--format", "json")
    [started] = json.loads(out)["results"]
    assert code == 0 and started["status"] == "baseline", started["message"]
    code, out, err = cli("report", "/dev/nvme0", "-d", "nvme", "--format", "json")
    drive = json.loads(out)["drives"][0]
    assert code == 0 and any(warning in w for w in drive["warnings"])
    assert all(c["value"] < 1 << 63 and (c["rated"] or 0) < 1 << 63 for c in drive["counters"])
