"""What ssdwear asks smartctl (and nvme-cli) and how it reads the answers: each call through a Runner, its exit
status read as the bitmask it is (exit_status.py), its output parsed (parse/), a failure turned into the DriveError
that says why. No process is started here (host/runner.py does that).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

from ssdwear.drives import families, fine, vendor_logs
from ssdwear.model.errors import DriveError, ParseError, SsdwearError
from ssdwear.model.escape import visible
from ssdwear.model.process import is_root
from ssdwear.model.records import PciId, ScanEntry, Snapshot, passed_given_status

from .argv import (
    SCAN_ARGS,
    SCAN_ARGS_TEXT,
    identity_args,
    log_page_args,
    nvme_identify_args,
    nvme_log_args,
    nvme_reset_args,
    read_args,
    reset_args,
)
from .exit_status import BIT_CMDLINE, BIT_COMMAND, BIT_OPEN, describe_status
from .parse import parse_output, parse_scan_entries
from .parse.nvmecli import identify_controller, log_page
from .runner import DEFAULT_WORKERS, CallResult, Runner


def _said(result: CallResult) -> str:
    """What smartctl said about the failure: its JSON messages, else its text lines (never the argv)."""
    try:
        messages = list(parse_output(result.stdout, source="smartctl").messages)
    except ParseError:
        messages = []
    if not messages:
        text = (result.stdout + b"\n" + result.stderr).decode("utf-8", "replace")
        messages = [line.strip() for line in text.splitlines()
                    if line.strip() and not line.startswith(("smartctl ", "Copyright", "{", "Use smartctl -h"))]
    return visible("; ".join(dict.fromkeys(messages))[:300])


# What smartctl says when a name is a RAID controller's volume (os_linux.cpp; fixtures/raid/README.md).
RAID_HINTS = ("megaraid controller", "requires option '-d cciss", "please try adding '-d megaraid")


def says_raid_volume(said: str) -> bool:
    """Whether smartctl's words about a device name it as a RAID controller's volume (a call's failure, or the
    open error `--scan-open` lists)."""
    return any(hint in said.lower() for hint in RAID_HINTS)


def _raid_hint(device: str, said: str) -> DriveError | None:
    if says_raid_volume(said):
        return DriveError(device, f"smartctl: {said}", kind="raid-volume")  # RaidVolume.note says the rest
    return None


def _open_failure(device: str, result: CallResult) -> DriveError:
    said = _said(result)
    lower = said.lower()
    volume = _raid_hint(device, said)
    if volume is not None:
        return volume
    if "standby" in lower or "sleep mode" in lower or "idle mode" in lower or "low-power" in lower:
        return DriveError(device, "drive is in standby and was not woken (smartctl -n standby); "
                                  "use --wake to spin it up and read it anyway", kind="standby")
    if "permission denied" in lower or "operation not permitted" in lower:
        if is_root():
            return DriveError(device, "permission denied although ssdwear runs as root: the device refused to be "
                                      "opened (a disk of a VM, a container without device access, or a USB "
                                      "bridge that needs -d sat?)", kind="permission")
        return DriveError(device, "permission denied opening the device: it takes root (or a user allowed to "
                                  "open it)", kind="permission")
    if "no such device" in lower or "no such file" in lower or "does not exist" in lower:
        return DriveError(device, "no such device (it vanished, or the name is wrong; see ssdwear scan)",
                          kind="missing")
    return DriveError(device, f"smartctl could not open the device: {said or 'no reason given'}", kind="read")


def _command_line_failure(device: str, result: CallResult) -> DriveError:
    said = _said(result)
    volume = _raid_hint(device, said)
    if volume is not None:
        return volume
    if "unable to detect device type" in said.lower():
        return DriveError(device, f"smartctl cannot tell what kind of device this is ({said}): check the name "
                                  "(ssdwear scan lists the drives) or give its type with -d", kind="missing")
    return DriveError(device, f"smartctl rejected the command line: {said or 'no reason given'}", kind="read")


def read_drive(runner: Runner, device: str, device_type: str | None = None, wake: bool = False,
               nvme: Runner | None = None, pci: Callable[[str], PciId | None] | None = None) -> Snapshot:
    """One smartctl process per drive: `--json=c -x`; text `-x` only for smartctl older than 7.0. On the drives
    whose timed workload lives in a vendor log page (Intel/Solidigm data-centre NVMe), or whose row documents a
    vendor log for smartctl to read (fine.smartctl_log_pages), one more each: that page. On an NVMe drive whose
    PCI IDs `pci` gives (host/pci.py) and a vendor's table lists (vendor_logs.pci_logs), that vendor's log (after
    the Supported Log Pages log where the reader checks it first). On
    NVMe drives reached directly, with nvme-cli (`nvme`), the endurance logs their controller or family documents
    (nvme_logs)."""
    snap = families.known(_read(runner, device, device_type,
                                lambda json: read_args(device, device_type, json=json, wake=wake)))
    for page in fine.smartctl_log_pages(snap):
        snap = _with_log_page(runner, snap, device, device_type, page)
    if snap.interface == "nvme":
        snap = _with_pci_logs(runner, replace(snap, pci_id=pci(device) if pci else None), device, device_type)
    if nvme is not None and device_type in (None, "nvme"):
        snap = nvme_logs(nvme, snap, device)
    return snap


def nvme_logs(nvme: Runner, snap: Snapshot, device: str) -> Snapshot:
    """The snapshot with the NVMe logs that count media writes, read with nvme-cli: the Endurance Group
    Information log (09h) where Identify Controller says the controller has one endurance group (CTRATT bit 4,
    ENDGIDMAX 1; asked only of NVMe 1.4+ controllers), and the OCP SMART log (C0h) on the families that implement
    it (fine.ocp_family; its GUID is checked when it is read). One call each, reads only; a call that fails or hangs
    is a note and the reading stands."""
    notes: list[str] = []
    pages = dict(snap.nvme_logs)
    if fine.endurance_log_possible(snap):
        result = _nvme_call(nvme, nvme_identify_args(device), "Identify Controller", notes)
        ctrl = identify_controller(result.stdout) if result is not None else None
        if result is not None and ctrl is None:
            notes.append("nvme id-ctrl printed no Identify Controller document: the Endurance Group log was not read")
        elif ctrl is not None and ctrl.endgidmax > 1 and ctrl.endurance_groups:
            notes.append(f"the controller has {ctrl.endgidmax} endurance groups: which one holds the drive's "
                         "namespaces is not read, so the Endurance Group log is not used")
        elif ctrl is not None and ctrl.endurance_groups:
            _nvme_page(nvme, device, fine.ENDURANCE_GROUP_LOG, 1, "Endurance Group Information log", pages, notes)
    family = fine.ocp_family(snap)
    if family is not None:
        _nvme_page(nvme, device, fine.OCP_SMART_LOG, None, "OCP SMART log (C0h)", pages, notes)
        if fine.OCP_SMART_LOG in pages and fine.ocp_smart(pages[fine.OCP_SMART_LOG]) is None:
            notes.append(f"log C0h of this {family} drive does not carry the OCP GUID: its layout is not OCP's, so it "
                         "is not read")
            del pages[fine.OCP_SMART_LOG]
    if pages == snap.nvme_logs and not notes:
        return snap
    return replace(snap, nvme_logs=pages, parse_notes=(*snap.parse_notes, *notes))


def _nvme_call(nvme: Runner, args: list[str], what: str, notes: list[str]) -> CallResult | None:
    """One nvme-cli read; None, and a note saying why, when it could not be made or failed (exit status not 0)."""
    try:
        result = nvme.run(args)
    except DriveError as exc:
        notes.append(f"{what} not read with nvme-cli: {exc.message}")
        return None
    except SsdwearError as exc:
        notes.append(f"{what} not read: {exc}")
        return None
    if result.status != 0:
        said = visible(" ".join(result.stderr.decode("utf-8", "replace").split()))[:200] or \
            f"exit status {result.status}"
        notes.append(f"{what} could not be read (nvme {args[0]}: {said})")
        return None
    return result


def _nvme_page(nvme: Runner, device: str, log_id: int, lsi: int | None, what: str, pages: dict[int, bytes],
               notes: list[str]) -> None:
    result = _nvme_call(nvme, nvme_log_args(device, log_id, lsi), what, notes)
    if result is None:
        return
    page = log_page(result.stdout, fine.LOG_BYTES)
    if page is None:
        notes.append(f"{what}: nvme get-log printed {len(result.stdout):,} bytes, not the {fine.LOG_BYTES}-byte page; "
                     "not used")
        return
    pages[log_id] = page


def _with_pci_logs(runner: Runner, snap: Snapshot, device: str, device_type: str | None) -> Snapshot:
    """The snapshot with the vendor logs its PCI IDs pick (a note where none may be asked for); a log whose reader
    checks the Supported Log Pages log first is asked for only when that log lists it."""
    notes: list[str] = []
    for log in vendor_logs.pci_logs(snap, notes):
        if log.listed:
            if vendor_logs.SUPPORTED_LOG_PAGES not in snap.nvme_logs:
                snap = _with_log_page(runner, snap, device, device_type, vendor_logs.SUPPORTED_LOG_PAGES,
                                      vendor_logs.SUPPORTED_LOG_BYTES)
            listing = snap.nvme_logs.get(vendor_logs.SUPPORTED_LOG_PAGES)
            if listing is None or not vendor_logs.lists(listing, log.log_id):
                notes.append(f"{log.name} not asked for: the drive's Supported Log Pages log (00h) "
                             f"{'could not be read' if listing is None else 'does not list it'}")
                continue
        snap = _with_log_page(runner, snap, device, device_type, log.log_id, log.size)
    return replace(snap, parse_notes=(*snap.parse_notes, *notes)) if notes else snap


def _with_log_page(runner: Runner, snap: Snapshot, device: str, device_type: str | None, page: int,
                   size: int = 0x200) -> Snapshot:
    """The snapshot with the log page added; when it cannot be read, with a note saying why: the drive's other
    figures stand, whether the call failed or hung until it was killed at the timeout."""
    try:
        result = runner.run(log_page_args(device, device_type, page, size))
    except DriveError as exc:
        return _without_page(snap, page, exc.message)
    dump: bytes | None = None
    if not result.status & (BIT_CMDLINE | BIT_OPEN):
        try:
            dump = parse_output(result.stdout, source=device, device=device).nvme_logs.get(page)
        except ParseError:
            dump = None
    if dump is None:
        return _without_page(snap, page, _said(result) or f"smartctl exit status {result.status}")
    return replace(snap, nvme_logs={**snap.nvme_logs, page: dump})


def _without_page(snap: Snapshot, page: int, why: str) -> Snapshot:
    timed = families.family_of(snap).timed
    lost = "no timed-workload window" if timed is not None and timed.log_page == page else "its counters are not read"
    return replace(snap, parse_notes=(*snap.parse_notes, f"vendor log page 0x{page:02x} could not be read ({why}): "
                                      f"{lost}"))


def identify(runner: Runner, device: str, device_type: str | None = None) -> Snapshot:
    """The drive's identity only (`smartctl -i`): read again just before a vendor command, to be sure the
    drive behind the name is still the one the guard looked at."""
    return _read(runner, device, device_type, lambda json: identity_args(device, device_type, json=json))


def _read(runner: Runner, device: str, device_type: str | None, make_args: Callable[[bool], list[str]]
          ) -> Snapshot:
    result = runner.run(make_args(True))
    if result.status & BIT_CMDLINE and b"UNRECOGNIZED OPTION" in result.stdout + result.stderr:
        result = runner.run(make_args(False))  # smartctl < 7.0 has no --json
    if result.status & BIT_CMDLINE:
        raise _command_line_failure(device, result)
    if result.status & BIT_OPEN:
        raise _open_failure(device, result)
    try:
        snap = parse_output(result.stdout, source=device, device=device, device_type=device_type)
    except ParseError as exc:
        raise DriveError(device, f"unreadable smartctl output ({exc})", kind="read") from None
    notes = [f"smartctl exit status {result.status} (0x{result.status:02x}): "
             f"{'; '.join(describe_status(result.status))}"] if result.status else []
    if not snap.has_data:
        what = "a SMART command failed and no data came back" if result.status & BIT_COMMAND \
            else "smartctl printed no drive data"
        raise DriveError(device, f"{what}: {_said(result) or 'see smartctl -x ' + device}", kind="read")
    return replace(snap, exit_status=result.status, smart_passed=passed_given_status(snap.smart_passed, result.status),
                   parse_notes=snap.parse_notes + tuple(notes))


def scan(runner: Runner) -> list[ScanEntry]:
    """Every device `smartctl --scan-open` lists, with the open error of those it could not open."""
    result = runner.run(SCAN_ARGS)
    if result.status & BIT_CMDLINE:
        result = runner.run(SCAN_ARGS_TEXT)  # smartctl < 7.0 has no --json
    try:
        return parse_scan_entries(result.stdout)
    except ParseError:
        return []


def reset_timer(runner: Runner, device: str, device_type: str | None) -> CallResult:
    """Send SMART EXECUTE OFF-LINE IMMEDIATE subcommand 40h (`smartctl -t vendor,0x40`). The caller guards."""
    result = runner.run(reset_args(device, device_type))
    if result.status & BIT_OPEN:
        raise _open_failure(device, result)
    if result.status & (BIT_CMDLINE | BIT_COMMAND):
        detail = _said(result) or "; ".join(describe_status(result.status))
        raise DriveError(device, f"the drive rejected the timer reset (smartctl exit status {result.status}: "
                         f"{detail})", kind="rejected")
    return result


def reset_nvme_timer(runner: Runner, device: str) -> CallResult:
    """Send Set Features 0xD5 value 1 with nvme-cli. The caller guards (documented families only)."""
    result = runner.run(nvme_reset_args(device))
    if result.status == 0:
        return result
    lines = [line.strip() for line in result.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    said = visible(next((line for line in lines if line.startswith("NVMe status")), lines[0] if lines else
                        f"exit status {result.status}"))[:300]
    if any(word in said.lower() for word in ("no such file", "no such device", "permission denied")):
        raise DriveError(device, f"nvme-cli could not open the device: {said}", kind="missing")
    raise DriveError(device, f"the drive rejected the timer reset (nvme set-feature -f 0xd5 -v 1: {said})",
                     kind="rejected")


Outcome = Snapshot | DriveError


def read_many(runner: Runner, devices: Sequence[tuple[str, str | None]], workers: int = DEFAULT_WORKERS,
              wake: bool = False, reader: Callable[..., Snapshot] | None = None,
              nvme: Runner | None = None) -> list[Outcome]:
    """Read drives in parallel with a bounded pool; a drive that fails is returned as its DriveError. `nvme`
    (nvme-cli) reads the NVMe endurance logs where they are documented."""
    read = reader or read_drive

    def one(item: tuple[str, str | None]) -> Outcome:
        try:
            if nvme is not None:
                return read(runner, item[0], item[1], wake, nvme=nvme)
            return read(runner, item[0], item[1], wake)
        except DriveError as exc:
            exc.device_type = exc.device_type or item[1]  # drives behind one path differ by their type alone
            return exc

    if len(devices) <= 1 or workers <= 1:
        return [one(item) for item in devices]
    pool = ThreadPoolExecutor(max_workers=min(workers, len(devices)))
    try:
        outcomes = list(pool.map(one, devices))
    except BaseException:  # ^C: the drives not started are not; the calls under way are the caller's to stop
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return outcomes
