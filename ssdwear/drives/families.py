"""The drive families: one row each (model/family.py's Family), read first match first, and the one lookup.

A reading is matched to its row once (`known`, when it is read or loaded) and carries it (Snapshot.family): every
rule that needs family knowledge reads that row, never a name. The order is the table's: Intel's and Solidigm's
NVMe and SATA rows (drives/intel.py: the narrow OEM rows before the broad one), then the other vendors' (the narrow
rows of a vendor before its broad one: drives/vendors.py), the RAID controllers' logical volumes apart; a drive no
row matches is GENERIC's, whose counters are what every family's attributes say by their drive-database names.

Model strings are matched whole (as drivedb.h matches them), never as substrings: 'Samsung SSD 860 EVO (INTEL
SSDSA2BZ200G3)' or 'Micron_5200 INTEL-SSDSC2KB480G7' are not Intel drives. Attributes are identified by ID *and*
family: smartctl's attribute names count only where they come from a drive-database entry that knows the family
(names like 'NAND_Writes_1GiB' or 'Remaining_Lifetime_Perc' are never smartctl's defaults); default names such as
226 'Load-in_Time' or 233 'Media_Wearout_Indicator' are printed for drives smartctl does not know and prove nothing.

How to add a family: docs/development.md ("How to add a drive family"): one row here (or in the vendor's module),
with its source, and one fixture of its smartctl output.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from ssdwear.model.family import Counter, Family
from ssdwear.model.records import Snapshot

from . import intel, nvme_vendors, vendors
from .named import GENERIC as GENERIC  # the row of a drive no family is (re-exported: lookup returns it)

# RAID controllers' logical volumes, by the INQUIRY vendor and product smartctl prints for them (real outputs,
# fixtures/raid/README.md): MegaRAID and Dell PERC, Broadcom/LSI/IBM/Supermicro MegaRAID OEMs, LSI IR volumes,
# HPE Smart Array, Adaptec, Areca, Dell BOSS. Not drives: their drives are read through the controller.
VOLUMES = Family(
    "RAID controller's logical volume", "fixtures/raid (smartctl 7.3 against the controllers' real INQUIRY strings)",
    model=r"(?i)(?:DELL\s+PERC|PERC\s|MegaRAID|(?:AVAGO|LSI|Broadcom)\s+(?:MR\d|SMC\d|MegaRAID)|LSI\s+Logical Volume|"
          r"IBM\s+ServeRAID|Lenovo\s+RAID|HPE?\s+LOGICAL VOLUME|Adaptec\s+(?:RAID|LOGICAL VOLUME)|Areca\s+\S*-VOL#|"
          r"(?:ATA\s+)?DELLBOSS VD).*",
    interfaces=("scsi", "unknown"), solid_state=False, volume=True)

FAMILIES: tuple[Family, ...] = (VOLUMES, *intel.FAMILIES, *nvme_vendors.FAMILIES, *vendors.FAMILIES)

@functools.cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


def matches_whole(pattern: str | None, text: str | None) -> bool:
    """Whether the whole string (stripped) matches the regular expression, as drivedb.h matches its entries."""
    return pattern is not None and text is not None and _pattern(pattern).fullmatch(text.strip()) is not None


def matches(row: Family, snap: Snapshot) -> bool:
    """Whether the reading is one of the row's drives (model/family.py's Family says how a row matches)."""
    if snap.interface not in row.interfaces or (row.solid_state and snap.is_solid_state is False):
        return False
    printed = (snap.model_family or "").strip() or None
    if printed is not None and matches_whole(row.family_alone, printed):
        return True
    if printed is not None and row.family is not None and not matches_whole(row.family, printed):
        return False
    return matches_whole(row.model, snap.model) and (row.firmware is None or matches_whole(row.firmware, snap.firmware))


def lookup(snap: Snapshot) -> Family:
    """The first row whose family this drive is; GENERIC when none is. Made once per reading (known)."""
    return next((row for row in FAMILIES if matches(row, snap)), GENERIC)


def known(snap: Snapshot) -> Snapshot:
    """The reading with its family's row: matched now, unless it carries one already."""
    return snap if snap.family is not None else replace(snap, family=lookup(snap))


def family_of(snap: Snapshot) -> Family:
    """The row this reading was matched to (looked up for a reading that was never matched, as tests build)."""
    return snap.family if snap.family is not None else lookup(snap)


def host_written(row: Family) -> tuple[Counter, ...]:
    return row.host_written if row.host_written is not None else GENERIC.host_written or ()


def host_read(row: Family) -> tuple[Counter, ...]:
    return row.host_read if row.host_read is not None else GENERIC.host_read or ()


def nand_written(row: Family) -> tuple[Counter, ...]:
    return row.nand_written if row.nand_written is not None else GENERIC.nand_written or ()


def volume(snap: Snapshot) -> str | None:
    """The controller's name when this 'drive' is a RAID controller's logical volume, else None."""
    return (snap.model or "").strip() if family_of(snap).volume else None
