"""A drive family as one row of data: how a drive is recognised as one of its members, the way the entries of
smartmontools' drive database (drivedb/drivedb.h) recognise theirs (regular expressions the whole model string and
firmware revision must match, and the family name smartctl prints), and what its attributes and logs mean (which
one counts wear and how, the finer counters and their units, the host and NAND write counters, the timed workload
and the drives it may be reset on). The rows are the table in drives/families.py; a reading carries the row it was
matched to (Snapshot.family), so that every layer reads the same row. Nothing here decides anything: drives/ does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

# What a finer counter counts: writes to the flash (media) or its average erase cycles (erase) see the drive's write
# amplification and count wear; host writes do not.
CounterKind = Literal["media", "erase", "host"]


@dataclass(frozen=True)
class WearAttribute:
    """A normalized value that counts life *remaining* from 100 down: used = (100 - value) / divisor.

    `floor` is where it saturates (the true wear is that or more); `wraps_past_100` is the Crucial MX500
    quirk: the normalized value jumps to 255 once wear passes 100 % while the raw value (percent used on
    those firmwares) keeps counting.
    """

    id: int
    source: str  # stable identifier in reports and the history, e.g. 'samsung_177_wear_leveling_count'
    label: str
    floor: int = 1
    divisor: float = 1.0  # Intel 233 runs 100 -> 1 over the rated life: 0.99
    wraps_past_100: bool = False


@dataclass(frozen=True)
class Counter:
    """A byte counter in an attribute: a fixed unit whatever name smartctl prints, or the unit its
    drive-database name carries (_32MiB, _1GiB, _GB), or logical sectors when the name is one of
    `lba_names` (or whatever the name, with `sectors_as`: the label to print)."""

    id: int
    unit: int | None = None  # bytes in one count
    unit_label: str = ""
    lba_names: tuple[str, ...] = ()
    sectors_as: str | None = None
    name_must_match: str | None = None  # a regex the name must match before its unit is believed
    # Attributes in the same unit added to it where the drive has them (Silicon Motion's 246 SLC writes to 245's TLC).
    plus: tuple[int, ...] = ()
    # Where the drive database's own comments doubt the unit on some members (what they say): the count is then
    # used only where it agrees with the drive's wear indicator (drives/counters.py doubted_unit), a host counter with
    # Device Statistics where the drive prints them (doubted_host).
    unit_doubted: str = ""


@dataclass(frozen=True)
class FineCounter:
    """Attributes (summed) that count media writes or average erase cycles, with the drive-database names they carry.
    `any_name`: a reading without names (an attribute log) is read too (a family whose IDs mean one thing on every
    member); the others need the name."""

    source: str  # the counter's stable identifier: 'average_erase_count', 'nand_pages_written', ...
    kind: CounterKind
    ids: tuple[int, ...]
    names: str  # a regex every attribute's name must match (where the reading carries names)
    unit: str  # one count, for people: 'erase cycle', 'NAND page'
    any_name: bool = False
    rated_id: int | None = None  # the attribute whose raw is the drive's rated count
    rated_names: str = ""
    # Some firmwares print the attribute's normalised value as its raw too (Samsung's PM851 OEM drives, 177): a raw
    # equal to the normalised value is then a copy of the wear indicator, not a count (read as one it would fall as
    # the drive wears): a warning, and no figure.
    raw_may_copy_normalised: bool = False
    # The raw packs a minimum, an average and a maximum erase count in three 16-bit words (smartctl's raw16; the
    # entries' names disagree on their order: Seagate's 173 Max/Avg/Min_Erase_Ct, Lenovo's Erase_Cycles_Avg_Max_Mn):
    # the average is the one between the other two.
    raw16_average: bool = False
    # The attributes of the drive's minimum and maximum erase counts an average must lie between (both printed) to
    # be read as one (SK hynix's 168/169: its 177 kept at smartctl's default name is the average only between them).
    between: tuple[int, int] | None = None


@dataclass(frozen=True)
class RawRemaining:
    """An attribute whose raw value is the percent of life remaining, by ID and drive-database name (None: whatever
    the name, on the family whose row holds it), in steps of `step` percent (1: whole percent; 0.01: SanDisk's
    SSD_LifeLeft(0.01%))."""

    id: int
    name: str | None
    source: str  # stable identifier in reports and the history
    step: float = 1.0


@dataclass(frozen=True)
class Reset:
    """The drives a family's timed-workload reset is documented for: the documentation's model and firmware regular
    expressions (a drivedb.h entry's, whose comment says "226,227,228 can be reset by 'smartctl -t vendor,0x40'", or a
    datasheet's model numbers), matched against the whole strings as drivedb.h matches them."""

    name: str  # the documented family, in refusals and `start`'s messages
    model: str
    source: str  # where the reset is documented: the drivedb.h entry and its line, the datasheet
    firmware: str | None = None


@dataclass(frozen=True)
class TimedWorkload:
    """Intel's timed-workload trio: E2h media wear (1/1024 %), E3h host reads (%), E4h minutes.

    On SATA drives they are SMART attributes 226-228, reset with `smartctl -t vendor,0x40`; on Intel/Solidigm
    data-centre NVMe drives they are the entries with keys E2h-E4h of vendor log page 0xCA (`log_page`), reset
    with Set Features 0xD5, value 1 (nvme-cli). The keys are the same numbers as the attribute IDs. Another family
    may keep the same trio under other IDs (Samsung's data-centre SATA drives: 245-247, `ids`), said by `labels`.
    """

    ids: tuple[int, int, int] = (226, 227, 228)  # the attributes (or log keys) of E2h, E3h and E4h, in that order
    labels: tuple[str, str, str] = ("E2h", "E3h", "E4h")  # how the trio is named in what ssdwear says
    span: str = "E2h-E4h"  # the three together
    lifetime_source: str = "intel_e2h_since_manufacture"  # the used_source of E2h read as the drive's whole life
    log_page: int | None = None  # NVMe: the vendor log page that carries them
    # The drives whose reset is documented (any other member of the family is refused, unless forced) and how.
    resets: tuple[Reset, ...] = ()
    reset_command: str = "vendor subcommand 0x40"
    # (E2h, E4h at least): a pattern of broken firmware counters, not a measurement.
    impossible: tuple[int, int] | None = None


# How a documented NVMe log page is laid out: the OCP SMART / Health Information Extended log (C0h, its GUID checked),
# or Intel's SMART attribute log (0xCA's 12-byte keyed entries) that other vendors' firmwares reuse.
# WDC's D0h SMART log and Micron's E1h extended SMART log (drives/nvme_vendors.py) are read from the drives whose PCI
# IDs their nvme-cli plugins list.
LogLayout = Literal["ocp-c0", "intel-ca", "wdc-d0", "micron-e1"]
# What reads it: nvme-cli (`nvme get-log -b`) or smartctl (`-l nvmelog`, no other tool needed).
LogReader = Literal["nvme-cli", "smartctl"]


@dataclass(frozen=True)
class LogSource:
    """An NVMe log page a family documents, read on the drives of the family whose whole model string matches
    `model` (None: every one of them), by `reader`, in `layout`; no other drive is ever asked for it. A log whose
    documented reader picks drives by their PCI vendor and device IDs (`pci_ids`, non-empty) is read only from a
    drive whose IDs this host read and are among them, whatever its row; `listed`: and only when the drive's
    Supported Log Pages log (00h, read first) lists it."""

    log_id: int
    name: str
    source: str  # where the log and its layout are documented
    model: str | None = None
    layout: LogLayout = "ocp-c0"
    reader: LogReader = "nvme-cli"
    size: int = 0x200  # bytes read
    pci_ids: frozenset[tuple[int, int]] = frozenset()  # (vendor, device): the drives the reader documents it for
    listed: bool = False


Interface = Literal["ata", "nvme", "scsi", "unknown"]


@dataclass(frozen=True)
class Family:
    """One drive family: its matchers (drivedb.h's way: the whole model string, and firmware, against regular
    expressions; the drive-database family smartctl printed, where it printed one), what its attributes mean, and
    the source of every fact in the row.

    A row matches a reading of one of its `interfaces` (and, `solid_state`, not a drive that reports a rotation
    rate) when smartctl printed a family matching `family_alone`, whatever the model; otherwise when the model (and
    `firmware`, if given) match, unless smartctl printed a family that `family` does not match. The table is read
    first match first (drives/families.py: narrow rows before broad ones).
    """

    name: str
    source: str  # where the row's facts come from: drivedb.h entries (name and line), datasheets, real outputs
    model: str | None = None  # the whole model string must match (None: the row matches by `family_alone` only)
    firmware: str | None = None  # the whole firmware revision must match
    family: str | None = None  # a drive-database family smartctl printed must match, or the row does not apply
    family_alone: str | None = None  # a printed family matching this names the row whatever the model
    interfaces: tuple[Interface, ...] = ("ata",)
    solid_state: bool = True  # never a drive with a rotation rate
    wear: tuple[WearAttribute, ...] = ()  # lifetime wear attributes, beside the standard Device Statistics
    remaining: tuple[RawRemaining, ...] = ()  # raw "% remaining" attributes of the family (beside those by name)
    fine: tuple[FineCounter, ...] = ()  # finer wear counters the family's IDs fix (beside those known by name)
    # Host and NAND byte counters, tried in order (the first that reads wins); None: what every family's attributes
    # say by their drive-database names (drives/families.py GENERIC).
    host_written: tuple[Counter, ...] | None = None
    host_read: tuple[Counter, ...] | None = None
    nand_written: tuple[Counter, ...] | None = None
    timed: TimedWorkload | None = None
    # Device Statistics host counters kept in 32 bits of sectors (they wrap every 2 TiB): a decrease below
    # that size is not proof of another drive.
    host_counters_wrap_at: int | None = None
    # The attribute names of the family's drive-database entry (the newest drivedb.h) or datasheet, for outputs
    # of a smartctl that did not know the drive and printed its defaults ('Unknown_Attribute', 241
    # 'Total_LBAs_Written'): every rule keyed by a name then reads them as that entry names them (drives/naming.py).
    names: Mapping[int, str] = field(default_factory=dict)
    names_from: str = ""  # where the names come from, for the note
    controller: str | None = None  # 'SandForce': its firmwares print 255 for a Device Statistic that is not valid
    nvme_logs: tuple[LogSource, ...] = ()  # NVMe logs the family documents (the OCP log C0h, a vendor's 0xCA)
    # Why the timed-workload reset (Set Features 0xD5, vendor subcommand 0x40) is never sent to this family, even
    # with --force: its vendor's own commands are documented and that one is not among them.
    no_timer_reset: str | None = None
    volume: bool = False  # a RAID controller's logical volume: not a drive (its drives are read through it)
