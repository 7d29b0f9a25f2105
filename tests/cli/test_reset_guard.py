"""The timed-workload reset goes exactly to the drives smartctl's drive database documents it for (issue 27.2): the
drivedb.h entries (at f1d0da9ce) whose comment says "226,227,228 can be reset by 'smartctl -t vendor,0x40'", under
each entry's model and firmware expressions, and the DC S3710 by Intel's datasheet. Every case goes through the
real `start` against fixtures/intel's 710 with its identity edited (model, firmware, the family smartctl prints:
None where Debian 12's smartctl 7.3 has no entry for the drive), and the argv log says whether the command went."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import ssdwear_cli
from support.clock import T0
from support.edited import edited_machine

from ssdwear.cli.app import App
from ssdwear.smartctl.replay import ReplayRunner

RESET = ("-t", "vendor,0x40", "-d", "sat", "/dev/sda")
G2 = "Intel X18-M/X25-M/X25-V G2 SSDs"
S3700 = "Intel 730 and DC S35x0/3610/3700 Series SSDs"

# (model, firmware, the family smartctl prints, where the tested model string comes from)
DOCUMENTED = [
    ("INTEL SSDMAESC020G2", "2CV102M5", None, "311 mSATA; drivedb.h line 1597 'tested with'; not in smartctl 7.3"),
    ("INTEL SSDMAESC020G2", "2CV102M5", "Intel 311/313 Series SSDs", "311 mSATA, smartctl with the newest drivedb"),
    ("INTEL SSDSC2BB480H4", "D2010380", S3700, "DC S3500 (H4), drivedb.h line 1839"),
    ("INTEL SSDSC1NA200G3", "5DV10250", S3700, "DC S3700 1.8-inch (1NA), the entry's SSDSC(1N|[12]B) expression"),
    ("VK000480GWSXF", "HPG2", S3700, "HPE's DC S3500, drivedb.h line 1844"),
    ("VK000480GWSXF", "HPG2", None, "HPE's DC S3500 under smartctl 7.3, which lacks the VK000 expression"),
    ("INTEL SSDSCKKF512G8 SATA 512GB", "LHFD05N", "Intel 545s Series SSDs", "545s, drivedb.h line 1807"),
    ("INTEL SSDSA2M080G2GC", "2CV102J8", G2, "X25-M G2 on the fixed firmware, drivedb.h line 1566"),
    ("INTEL SSDSA2M080G2GC", "2CV102M3", G2, "X25-M G2 on a later firmware ([K-Z]. after 2CV102)"),
    ("INTEL SSDSC2BA400G4", "G2010150", S3700, "DC S3710 (its datasheet; its model also matches the 730 entry)"),
    ("INTEL SSDSC2BA200G4X", "G2010150", "Intel 3710 Series SSDs", "DC S3710 by the datasheet alone"),
    ("INTEL SSDSA2BZ200G3", "6PB10362", "Intel 710 Series SSDs", "710, the fixture as recorded"),
    ("SSDSCKJB240G7R", "N201DL43", "Dell Certified Intel S3520 Series SSDs", "Dell S3520 M.2"),
]
UNDOCUMENTED = [
    ("INTEL SSDSA2M080G2GC", "2CV102HD", G2, "X25-M G2 on the buggy firmware: drivedb.h's second G2 entry has no note"),
    ("INTEL SSDSA2M080G2GC", None, None, "X25-M G2 whose firmware is not printed: not the fixed one for sure"),
    ("INTEL SSDSC2CW120A3", "400i", "Intel 520 Series SSDs", "520 (SandForce): its entry names 226-228, no note"),
    ("INTEL SSDSC2KW120H6", "LSF036C", "Intel 540 Series SSDs", "540s: its entry names 226-228, no note"),
    ("SSDSC2BB120G4R", "D201DL13", None, "a Dell DC S3500 without the INTEL prefix: no entry matches it"),
    ("KINGSTON SSDNow 40GB", "2CV102J8", "Kingston branded X25-V SSDs", "Intel's X25-V as Kingston's: no note"),
]


def _identity(model: str, firmware: str | None, family: str | None) -> Any:
    def edit(doc: dict[str, Any]) -> None:
        doc["model_name"] = model
        doc.pop("model_family", None)
        doc.pop("firmware_version", None)
        if family is not None:
            doc["model_family"] = family
        if firmware is not None:
            doc["firmware_version"] = firmware
    return edit


def start(tmp_path: Path, model: str, firmware: str | None, family: str | None) -> tuple[dict[str, Any], list[Any]]:
    folder = edited_machine(tmp_path, edits={"/dev/sda": _identity(model, firmware, family)})
    runner = ReplayRunner(folder)
    result = ssdwear_cli(["--db", str(tmp_path / "h.db"), "start", "/dev/sda", "-d", "sat", "--format", "json"],
                         App(runner=runner, clock=lambda: T0))
    (entry,) = json.loads(result.stdout)["results"]
    return entry, runner.calls


@pytest.mark.parametrize("model,firmware,family,why", DOCUMENTED, ids=[c[3] for c in DOCUMENTED])
def test_the_reset_goes_to_every_drive_drivedb_documents_it_for(tmp_path: Path, model: str, firmware: str,
                                                                family: str | None, why: str) -> None:
    entry, calls = start(tmp_path, model, firmware, family)
    assert entry["status"] == "reset", entry
    assert calls.count(RESET) == 1


@pytest.mark.parametrize("model,firmware,family,why", UNDOCUMENTED, ids=[c[3] for c in UNDOCUMENTED])
def test_a_drive_drivedb_does_not_document_it_for_is_never_sent_it(tmp_path: Path, model: str, firmware: str | None,
                                                                   family: str | None, why: str) -> None:
    entry, calls = start(tmp_path, model, firmware, family)
    assert entry["status"] == "baseline" and "nothing was sent to the drive" in entry["message"], entry
    assert not any("vendor,0x40" in c for c in calls)
    to_drive = [c for c in calls if c[-1] == "/dev/sda"]
    assert to_drive and all(c[:2] in (("--json=c", "-x"), ("--json=c", "-i")) for c in to_drive), to_drive
