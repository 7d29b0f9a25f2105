"""The replay's answer to a call it has no recording of: where the same call was recorded with another -d type (or
none), it says which and what to give (issue 25.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ssdwear.model.errors import DriveError
from ssdwear.smartctl.replay import ReplayRunner


def _said(folder: Path, args: list[str]) -> str:
    with pytest.raises(DriveError) as raised:
        ReplayRunner(folder).run(args)
    return raised.value.message


@pytest.mark.parametrize("recorded,args,advice", [
    (["-d sat"], ["-x", "/dev/sdb"], ": it was recorded with -d sat: add -d sat"),
    (["-d sat"], ["-x", "-d", "nvme", "/dev/sdb"], ": it was recorded with -d sat: give -d sat"),
    ([""], ["-x", "-d", "sat", "/dev/sdb"], ": it was recorded with no -d: drop -d sat"),
    (["-d sat", "-d scsi"], ["-x", "/dev/sdb"], ": it was recorded with -d sat or -d scsi: add -d sat"),
    (["-d sat"], ["-x", "/dev/sdc"], ""),  # another drive's recording says nothing of this one
    (["-d sat"], ["-i", "/dev/sdb"], ""),  # nor another call's
], ids=["add", "give", "drop", "two", "other-drive", "other-call"])
def test_a_missing_recording_names_the_device_type_it_was_recorded_with(tmp_path: Path, recorded: list[str],
                                                                        args: list[str], advice: str) -> None:
    for typ in recorded:
        (tmp_path / f"smartctl -x {typ + ' ' if typ else ''}_dev_sdb.out").write_text("recorded")
        (tmp_path / f"smartctl -x {typ + ' ' if typ else ''}_dev_sdb@2.out").write_text("recorded later")
    name = "smartctl " + " ".join(args).replace("/", "_")
    assert _said(tmp_path, args) == f"no recording of '{name}' in {tmp_path}{advice}"
