"""The NVMe endurance logs read with nvme-cli (issue 19.1): only where documented (the Endurance Group log where
Identify Controller says the controller has one endurance group, asked only of NVMe 1.4+ controllers; OCP's C0h on
the families that implement it, its GUID checked), one call each, reads only, and a call that fails or hangs is a
note: the reading stands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from support.builders import nvme
from support.paths import FIXTURES

from ssdwear.drives import fine
from ssdwear.model.errors import DriveError, SmartctlNotFound
from ssdwear.model.records import Snapshot
from ssdwear.smartctl.calls import nvme_logs
from ssdwear.smartctl.parse import parse_output
from ssdwear.smartctl.parse.nvmecli import log_page
from ssdwear.smartctl.replay import ReplayRunner
from ssdwear.smartctl.runner import CallResult, LazyRunner

EG_ARGS = ("get-log", "/dev/nvme0", "--log-id=0x09", "--lsi=1", "--log-len=512", "-b")
OCP_ARGS = ("get-log", "/dev/nvme0", "--log-id=0xc0", "--log-len=512", "-b")
ID_ARGS = ("id-ctrl", "/dev/nvme0", "-o", "json")


class Answers:
    """nvme-cli answering from a dict of argv -> (stdout, status, stderr); anything else raises as a missing
    recording would. Every call is logged."""

    def __init__(self, answers: dict[tuple[str, ...], tuple[bytes, int, bytes]]) -> None:
        self.answers = answers
        self.calls: list[tuple[str, ...]] = []

    def run(self, args: Sequence[str]) -> CallResult:
        self.calls.append(tuple(args))
        if tuple(args) not in self.answers:
            raise DriveError(args[1], f"no recording of 'nvme {' '.join(args)}'")
        out, status, err = self.answers[tuple(args)]
        return CallResult(tuple(args), out, status, err)


def identify(ctratt: int, endgidmax: int) -> tuple[bytes, int, bytes]:
    return json.dumps({"vid": 6966, "ver": 66560, "ctratt": ctratt, "endgidmax": endgidmax}).encode(), 0, b""


def eg_page(media_units: int = 861, estimate: int = 7000) -> bytes:
    page = bytearray(512)
    page[5] = 12
    page[32:48] = estimate.to_bytes(16, "little")
    page[80:96] = media_units.to_bytes(16, "little")
    return bytes(page)


def drive(version: str | None = "1.4", model: str = "Example NVMe") -> Snapshot:
    return replace(nvme(12), nvme_version=version, model=model)


def test_the_endurance_group_log_is_read_only_when_the_controller_has_one_group() -> None:
    with_group = Answers({ID_ARGS: identify(0x10, 1), EG_ARGS: (eg_page(), 0, b"")})
    snap = nvme_logs(with_group, drive(), "/dev/nvme0")
    assert with_group.calls == [ID_ARGS, EG_ARGS]
    assert fine.endurance_group(snap.nvme_logs[0x09]).media_units_written == 861
    without = Answers({ID_ARGS: identify(0x00, 0)})
    assert nvme_logs(without, drive(), "/dev/nvme0").nvme_logs == {} and without.calls == [ID_ARGS]
    several = Answers({ID_ARGS: identify(0x10, 4)})
    snap = nvme_logs(several, drive(), "/dev/nvme0")
    assert several.calls == [ID_ARGS] and "4 endurance groups" in " ".join(snap.parse_notes)


def test_controllers_older_than_nvme_1_4_are_not_asked_at_all() -> None:
    for version in ("1.3", "1.2.1", None):
        runner = Answers({})
        assert nvme_logs(runner, drive(version), "/dev/nvme0") == drive(version)
        assert runner.calls == []


def test_a_failed_or_hung_call_is_a_note_and_the_reading_stands() -> None:
    said = b"NVMe status: Invalid Log Page: The log page indicated is invalid(0x4109)\n"
    refused = Answers({ID_ARGS: identify(0x10, 1), EG_ARGS: (b"", 1, said)})
    snap = nvme_logs(refused, drive(), "/dev/nvme0")
    assert snap.nvme == drive().nvme and snap.nvme_logs == {}
    assert any("Endurance Group Information log could not be read" in n and "0x4109" in n for n in snap.parse_notes)

    class Hung(Answers):
        def run(self, args: Sequence[str]) -> CallResult:
            self.calls.append(tuple(args))
            raise DriveError(args[1], "nvme-cli did not answer within 2 s and was killed (hung device?)", "timeout")

    snap = nvme_logs(Hung({}), drive(), "/dev/nvme0")
    assert any("did not answer within 2 s" in n for n in snap.parse_notes) and snap.nvme == drive().nvme
    short = Answers({ID_ARGS: identify(0x10, 1), EG_ARGS: (b"\x00" * 100, 0, b"")})
    assert "not the 512-byte page" in " ".join(nvme_logs(short, drive(), "/dev/nvme0").parse_notes)


def test_without_nvme_cli_one_note_says_so() -> None:
    def missing() -> Answers:
        raise SmartctlNotFound("nvme-cli not found (the NVMe timer reset needs it): apt-get install nvme-cli")

    snap = nvme_logs(LazyRunner(missing), drive(), "/dev/nvme0")
    assert snap.parse_notes == ("Identify Controller not read: nvme-cli not found (the NVMe timer reset needs it): "
                                "apt-get install nvme-cli",)


def test_the_ocp_log_is_asked_only_of_ocp_families_and_kept_only_with_its_guid() -> None:
    page = bytearray(512)
    page[496:512] = fine.OCP_SMART_GUID
    page[0:16] = (10**15).to_bytes(16, "little")
    p5520 = drive("1.3", "SSDPF2KX076T1")
    good = Answers({OCP_ARGS: (bytes(page), 0, b"")})
    assert nvme_logs(good, p5520, "/dev/nvme0").nvme_logs == {0xC0: bytes(page)} and good.calls == [OCP_ARGS]
    page[500] ^= 1
    other = nvme_logs(Answers({OCP_ARGS: (bytes(page), 0, b"")}), p5520, "/dev/nvme0")
    assert other.nvme_logs == {} and "does not carry the OCP GUID" in " ".join(other.parse_notes)
    p5510 = Answers({})  # SSDPF2KX076TZ: a D7-P5510, not listed
    assert nvme_logs(p5510, drive("1.3", "SSDPF2KX076TZ"), "/dev/nvme0").nvme_logs == {} and p5510.calls == []


# -- what QEMU's emulated drive and nvme-cli 2.3 really answered (fixtures/nvmelog, tools/record_nvme_cli.py) ------


def test_qemus_drive_reports_no_endurance_groups_so_nothing_more_is_asked() -> None:
    replay = ReplayRunner(FIXTURES / "nvmelog", program="nvme")
    qemu = snapshot_of(FIXTURES / "qemu" / "smartctl --json=c -x -n standby -d nvme _dev_nvme0.out")
    assert qemu.nvme_version == "1.4"
    assert nvme_logs(replay, qemu, "/dev/nvme0") == qemu and replay.calls == [ID_ARGS]


def test_qemus_refusals_of_the_endurance_logs_are_notes() -> None:
    qemu = snapshot_of(FIXTURES / "qemu" / "smartctl --json=c -x -n standby -d nvme _dev_nvme0.out")
    # a controller that said it has an endurance group, answered by QEMU's refusal of the page
    runner = Answers({ID_ARGS: identify(0x10, 1)})
    replay = ReplayRunner(FIXTURES / "nvmelog", program="nvme")
    runner.answers[EG_ARGS] = (lambda r: (r.stdout, r.status, r.stderr))(replay.run(list(EG_ARGS)))
    snap = nvme_logs(runner, qemu, "/dev/nvme0")
    assert snap.nvme_logs == {} and any("Invalid Field in Command" in n and "0x4002" in n for n in snap.parse_notes)
    ocp = replace(qemu, model="SSDPF2KX076T1")  # as if it were an OCP family's drive
    snap = nvme_logs(ReplayRunner(FIXTURES / "nvmelog", program="nvme"), ocp, "/dev/nvme0")
    assert snap.nvme_logs == {} and any("OCP SMART log (C0h) could not be read" in n and "0x4002" in n
                                        for n in snap.parse_notes)


def test_a_raw_page_is_the_pages_bytes() -> None:
    raw = (FIXTURES / "nvmelog" / "nvme get-log _dev_nvme0 --log-id=0x02 --log-len=512 -b.out").read_bytes()
    assert log_page(raw, 512) == raw and log_page(raw[:-1], 512) is None
    assert int.from_bytes(raw[3:4], "little") == 0  # Available Spare of QEMU's drive: 0 % (its smartctl log says so)


def snapshot_of(path: Path) -> Snapshot:
    return parse_output(path.read_bytes(), source=str(path), device="/dev/nvme0", device_type="nvme")
