"""analyze joins saved outputs into one drive's series only when their identity proves it (serial or WWN) or the
user says so (--same-drive); masked files are otherwise reported alone, saying why (issue 17.9)."""

from __future__ import annotations

import json
from dataclasses import replace

from click.testing import CliRunner
from support.paths import CORPUS

import ssdwear
from ssdwear.cli.main import cli

S3510 = "linuxhw-EnterpriseDrive__intel-ssdsc2bb480g6__{}.txt"  # __1, __2: drive E6FE382A0259; __4: 2BC2C9DCF421


def analyze(*args: str):
    result = CliRunner().invoke(cli, ["analyze", "--format", "json", *args])
    assert "Traceback" not in result.output + result.stderr
    return result


def test_two_different_drives_with_masked_serials_are_not_one_drive() -> None:
    # Two DC S3510s of one model, firmware and capacity, masked serials (linuxhw drive ids 2BC2C9DCF421 and
    # E6FE382A0259, MANIFEST.md): the first at 40,718 h, the second at 44,179 h with counters that are all
    # higher. Counters that only grow do not make them one drive.
    result = analyze(str(CORPUS / S3510.format(4)), str(CORPUS / S3510.format(2)))
    assert result.exit_code == 0
    drives = json.loads(result.stdout)["drives"]
    assert len(drives) == 2 and all(d["readings"] == 1 for d in drives)
    assert all(d["window"] is None or d["window"]["kind"] != "readings" for d in drives)
    for d in drives:
        assert any(n.startswith("serial masked: reported alone") and "--same-drive" in n for n in d["notes"])


def test_same_drive_joins_masked_readings_the_user_vouches_for() -> None:
    files = [str(CORPUS / S3510.format(n)) for n in (1, 2)]
    alone = json.loads(analyze(*files).stdout)["drives"]
    assert len(alone) == 2
    (joined,) = json.loads(analyze("--same-drive", *files).stdout)["drives"]
    assert joined["readings"] == 2 and joined["window"]["kind"] == "readings" and joined["window"]["valid"]
    assert joined["projection"]["method"].startswith("readings:")
    assert any("--same-drive said so" in n for n in joined["notes"])
    [api] = ssdwear.analyze_files(files, same_drive=True)
    again = ssdwear.analyze_files(files, same_drive=True)[0].projection
    assert api.projection is not None and again is not None
    # dated from each run's own clock: the rest is the same
    assert api.readings == 2 and replace(api.projection, wears_out_at=None, wears_out_low_at=None) == \
        replace(again, wears_out_at=None, wears_out_low_at=None)


def test_a_serial_still_joins_files_without_being_asked() -> None:
    (drive,) = json.loads(analyze(str(CORPUS / "pySMART__toshiba-kbg30zmv256g__2.txt"),
                                  str(CORPUS / "pySMART__toshiba-kbg30zmv256g__3.txt")).stdout)["drives"]
    assert drive["readings"] == 2 and drive["serial"] == "68APC048P12P"


def test_a_single_masked_file_gets_no_note_about_joining() -> None:
    (drive,) = json.loads(analyze(str(CORPUS / S3510.format(4))).stdout)["drives"]
    assert not any("reported alone" in n for n in drive["notes"])


def test_same_drive_refuses_files_whose_serials_prove_two_drives() -> None:
    result = analyze("--same-drive", str(CORPUS / "pySMART__toshiba-kbg30zmv256g__2.txt"),
                     str(CORPUS / "pySMART__wds200t1x0e-00afy0__2.txt"))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--same-drive: the files hold different drives" in result.stderr


def test_each_and_same_drive_contradict() -> None:
    result = analyze("--each", "--same-drive", str(CORPUS / S3510.format(1)))
    assert result.exit_code == 2 and "give one" in result.stderr
