"""The snapshot builder every reader fills in, and the checks that run before it becomes a Snapshot.

A reader (text or JSON) sets the builder's fields and fills its tables as it meets them; :meth:`Builder.build`
then drops values no drive can report (each with a line in ``Snapshot.problems``), decides whether the
power-on hours can be trusted, and makes the frozen :class:`~ssdwear.model.records.Snapshot`. The NVMe and SCSI health
records are made from the ``nvme`` and ``scsi`` tables, whose keys are the records' field names: each reader's
field map (smartctl key -> record field) fills them.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from ssdwear.model.records import (
    DEVSTAT_PERCENT_USED,
    DEVSTAT_POWER_ON_HOURS,
    Attribute,
    DevStat,
    NvmeHealth,
    ScsiHealth,
    Snapshot,
    passed_given_status,
)

from .values import one_line

# Power-on hours above this are not real (SandForce firmwares print e.g. 970208h+52m+55.300s).
MAX_SANE_POWER_ON_HOURS = 200_000


def plausible_hours(hours: float) -> bool:
    """Power-on hours a drive can have (from any source): not negative, not beyond MAX_SANE_POWER_ON_HOURS."""
    return 0 <= hours <= MAX_SANE_POWER_ON_HOURS


# Attribute 9 and Device Statistics 'Power-on Hours' may differ by this share before we distrust attribute 9.
POWER_ON_HOURS_TOLERANCE = 0.10
# ... and always by this many hours (counters tick at different moments on a young drive).
POWER_ON_HOURS_SLACK = 2.0
# smartctl never prints more than a handful of messages; keep a flood from garbage input bounded.
_MAX_MESSAGES = 100
# The largest count or byte total any layer stores (SQLite's INTEGER is signed 64-bit).
_MAX_COUNT = (1 << 63) - 1
# Device Statistics page 0x05 (Temperature Statistics) holds signed degrees Celsius beside its minute counts;
# every other page counts.
_DEVSTAT_TEMPERATURE_PAGE = 0x05
# Ranges of the NVMe SMART/Health fields that are not plain counts (NVMe base specification, log page 02h).
_NVME_RANGES = {
    "critical_warning": (0, 255),
    "available_spare": (0, 100),  # normalized percentage, 0 to 100
    "available_spare_threshold": (0, 100),
    "percentage_used": (0, 255),  # may exceed 100; 255 means 255 or more
    "temperature_celsius": (-273, 1000),
}


class Builder:
    def __init__(self, source: str) -> None:
        self.source = source
        self.interface = "unknown"
        self.device: str | None = None
        self.device_type: str | None = None
        self.model: str | None = None
        self.model_family: str | None = None
        self.serial: str | None = None
        self.wwn: str | None = None
        self.firmware: str | None = None
        self.capacity_bytes: int | None = None
        self.logical_sector_size: int | None = None
        self.rotation_rate: int | None = None
        self.smartctl_version: str | None = None
        self.smart_available: bool | None = None
        self.smart_enabled: bool | None = None
        self.smart_passed: bool | None = None
        self.power_on_hours: float | None = None
        self.power_cycles: int | None = None
        self.local_time: datetime | None = None
        self.attributes: dict[int, Attribute] = {}
        self.devstats: dict[tuple[int, int], DevStat] = {}
        self.nvme: dict[str, int] = {}  # NvmeHealth field -> value
        self.scsi: dict[str, int] = {}  # ScsiHealth field -> value
        self.nvme_logs: dict[int, bytes] = {}  # NVMe log pages smartctl dumped, by log id
        self.nvme_version: str | None = None
        self.pci_vendor: int | None = None
        self.exit_status: int | None = None
        self.messages: list[str] = []
        self._seen_messages: set[str] = set()
        self._messages_dropped = False
        self.notes: list[str] = []
        self.truncated = False
        self.problems: list[str] = []

    def add_message(self, text: str) -> None:
        msg = one_line(text)
        if not msg or msg in self._seen_messages:
            return
        if len(self.messages) < _MAX_MESSAGES:
            self._seen_messages.add(msg)
            self.messages.append(msg)
        elif not self._messages_dropped:
            self._messages_dropped = True
            self.notes.append(f"more than {_MAX_MESSAGES} smartctl messages; the rest were dropped")

    def _check_ranges(self) -> None:
        """Drop values no drive can report (a percentage of 2^64, a negative error count), each with a problem
        line; what survives is in range for every layer above (SQLite integers, Prometheus floats)."""
        problems = self.problems

        def bad(what: str, value: object) -> None:
            problems.append(f"impossible value ignored: {what} = {value}")

        for name, value in list(self.nvme.items()):
            low, high = _NVME_RANGES.get(name, (0, _MAX_COUNT))
            if not low <= value <= high:
                bad(f"NVMe {name.replace('_', ' ')}", value)
                del self.nvme[name]
        for name, value in list(self.scsi.items()):
            high = 255 if name == "percentage_used" else _MAX_COUNT
            if not 0 <= value <= high:
                bad(f"SCSI {name.replace('_', ' ')}", value)
                del self.scsi[name]
        for key, entry in list(self.devstats.items()):
            low, high = (-128 if key[0] == _DEVSTAT_TEMPERATURE_PAGE else 0), _MAX_COUNT
            if key == DEVSTAT_PERCENT_USED:
                high = 255
            if entry.value is not None and not low <= entry.value <= high:
                bad(f"Device Statistics '{entry.name or key}'", entry.value)
                self.devstats[key] = replace(entry, value=None, valid=False)
        for attr_id, a in list(self.attributes.items()):
            changes: dict[str, Any] = {}
            for column in ("value", "worst", "thresh"):
                number = getattr(a, column)
                if number is not None and not 0 <= number <= 255:
                    bad(f"attribute {attr_id} {column}", number)
                    changes[column] = None
            if a.raw is not None and not 0 <= a.raw < 1 << 64:
                bad(f"attribute {attr_id} raw value", a.raw)
                changes["raw"] = None
            if changes:
                self.attributes[attr_id] = replace(a, **changes)
        if self.capacity_bytes is not None and not 0 < self.capacity_bytes <= _MAX_COUNT:
            bad("capacity", self.capacity_bytes)
            self.capacity_bytes = None
        if self.power_cycles is not None and not 0 <= self.power_cycles <= _MAX_COUNT:
            bad("power cycles", self.power_cycles)
            self.power_cycles = None

    def _power_on_hours(self) -> tuple[float | None, bool]:
        """The power-on hours to keep, and whether they can be trusted. One plausibility rule (plausible_hours)
        for every source: attribute 9 in all its forms, NVMe, SCSI, JSON's power_on_time, and Device Statistics
        'Power-on Hours' (a standard statistic), which replaces a value that is implausible or disagrees with it,
        but only when it is plausible itself."""
        poh = self.power_on_hours
        ds = self.devstats.get(DEVSTAT_POWER_ON_HOURS)
        ds_hours = float(ds.value) if ds is not None and ds.valid and ds.value is not None else None
        ds_ok = ds_hours is not None and plausible_hours(ds_hours)
        ds_text = f"Device Statistics Power-on Hours {ds_hours:,.0f}" if ds_hours is not None else ""
        if poh is None:
            if ds_hours is not None and not ds_ok:
                self.notes.append(f"{ds_text} are not plausible; not used as a clock")
            return ds_hours, ds_ok or ds_hours is None
        if not plausible_hours(poh):
            if ds_ok:
                self.notes.append(f"power-on hours {poh:,.0f} are not plausible (firmware counter format?); "
                                  "using Device Statistics Power-on Hours")
                return ds_hours, True
            neither = f", nor are {ds_text}" if ds_hours is not None else ""
            self.notes.append(f"power-on hours {poh:,.0f} are not plausible (firmware counter format?){neither}; "
                              "value kept, not trusted")
            return poh, False
        if ds_hours is not None and not ds_ok:
            self.notes.append(f"{ds_text} are not plausible; the drive's other power-on hours are used")
        elif ds_hours is not None and abs(poh - ds_hours) > max(POWER_ON_HOURS_TOLERANCE * ds_hours,
                                                                POWER_ON_HOURS_SLACK):
            self.notes.append(f"power-on hours {poh:,.0f} disagree with {ds_text}; using Device Statistics")
            return ds_hours, True
        return poh, True

    def build(self, device: str | None, device_type: str | None) -> Snapshot:
        self._check_ranges()
        poh, trusted = self._power_on_hours()
        nvme = NvmeHealth(**self.nvme) if self.nvme else None
        scsi = ScsiHealth(**self.scsi) if self.interface == "scsi" else None
        rotation = self.rotation_rate
        if self.interface == "nvme" and rotation is None:
            rotation = 0
        return Snapshot(
            source=self.source,
            interface=self.interface,
            device=device if device is not None else self.device,
            device_type=device_type if device_type is not None else self.device_type,
            model=self.model,
            model_family=self.model_family,
            serial=self.serial,
            wwn=self.wwn,
            firmware=self.firmware,
            capacity_bytes=self.capacity_bytes,
            logical_sector_size=self.logical_sector_size,
            rotation_rate=rotation,
            smartctl_version=self.smartctl_version,
            smart_available=self.smart_available,
            smart_enabled=self.smart_enabled,
            smart_passed=passed_given_status(self.smart_passed, self.exit_status),
            power_on_hours=poh,
            power_on_hours_trusted=trusted,
            power_cycles=self.power_cycles,
            local_time=self.local_time,
            attributes=self.attributes,
            devstats=self.devstats,
            nvme=nvme,
            nvme_logs=self.nvme_logs,
            nvme_version=self.nvme_version,
            pci_vendor=self.pci_vendor,
            scsi=scsi,
            exit_status=self.exit_status,
            messages=tuple(self.messages),
            parse_notes=tuple(self.notes),
            truncated=self.truncated,
            problems=tuple(self.problems),
        )
