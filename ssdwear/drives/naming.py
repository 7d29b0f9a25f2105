"""A reading as smartctl would print it with the newest drive database: the attribute names of a family's
drivedb.h entry (Family.names) where an older smartctl, or one whose database lacks the drive, printed its
default names. Every rule keyed by a name (units in names, erase counts, 169 Remaining_Lifetime_Perc, ...) then
reads them as that entry names them."""

from __future__ import annotations

from dataclasses import replace

from ssdwear.model.records import Snapshot

from .families import family_of

# smartctl's own names for attributes its drive database does not name (drivedb.h "DEFAULT": 25-174 and 243-249
# Unknown_Attribute, the HDD-only ones Unknown_SSD_Attribute on an SSD, and these): a name a family may replace.
_UNNAMED = ("", "Unknown_Attribute", "Unknown_SSD_Attribute", "Unknown_HDD_Attribute")
_DEFAULT_NAMES = {177: "Wear_Leveling_Count", 232: "Available_Reservd_Space", 233: "Media_Wearout_Indicator",
                  241: "Total_LBAs_Written", 242: "Total_LBAs_Read"}


def family_named(snap: Snapshot) -> Snapshot:
    """The reading with its family's drive-database names (Family.names) where smartctl printed its
    defaults: what a smartctl that knew the drive would have printed. A note names the entry."""
    fam = family_of(snap)
    renamed = {i: replace(a, name=fam.names[i]) for i, a in snap.attributes.items()
               if i in fam.names and a.name != fam.names[i] and (a.name in _UNNAMED or a.name == _DEFAULT_NAMES.get(i))}
    if not renamed:
        return snap
    shown = ", ".join(f"{i} {a.name}" for i, a in sorted(renamed.items()))
    note = f"attributes read by the names of {fam.names_from} ({shown}): the smartctl that printed them did not know " \
           "the drive"
    return replace(snap, attributes={**snap.attributes, **renamed}, parse_notes=(*snap.parse_notes, note))
