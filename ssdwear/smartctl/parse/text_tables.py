"""The rows of the tables in smartctl's text output: SMART attributes (``-x`` brief and ``-a`` old format),
Device Statistics (``-l devstat``) and the SCSI error counter log.

Each reader takes one stripped line, stores what it holds, and returns False when the line is not a row of
its table (the text reader then ends the table). A row whose key was already read is not read again: the first
table smartctl printed wins.
"""

from __future__ import annotations

import re

from ssdwear.model.records import Attribute, DevStat

from .builder import Builder
from .values import MAX_DIGITS, gigabytes_to_bytes, grouped_int, raw_int, small_int

# `-x` brief format: ID# ATTRIBUTE_NAME FLAGS VALUE WORST THRESH FAIL RAW_VALUE
_ATTR_BRIEF_RE = re.compile(
    r"([0-9]{1,3})\s+(\S+)\s+([A-Za-z-]{6})\+?\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+"
    r"(-|NOW|Past|now|past)\s+(\S.*)"
)
# `-a` / `-f old`: ID# ATTRIBUTE_NAME FLAG VALUE WORST THRESH TYPE UPDATED WHEN_FAILED RAW_VALUE (UPDATED from
# smartctl 5.1.14 on; 5.0.11-5.1.13 print TYPE, then WHEN_FAILED)
_ATTR_OLD_RE = re.compile(
    r"([0-9]{1,3})\s+(\S+)\s+0x[0-9a-fA-F]{4}\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+([0-9]{1,3}|---)\s+"
    r"(Pre-fail|Old_age)\s+(?:(?:Always|Offline)\s+)?(\S+)\s+(\S.*)"
)
# Device Statistics, 6.4 on: `0x01  0x010  4   12345  ---  Power-on Hours`, flags N(ormalized) D(SN) C(ondition)
# and '+' for reserved ones; the current source adds an informal ' [50.5 TB]' after some names
# smartctl 5.0-5.0.10: `(  9)Power On Hours          0x0032   100   100   000       12345`, names with blanks
_ATTR_5_0_RE = re.compile(
    r"\(\s*([0-9]{1,3})\)(\S.*?)\s+0x([0-9a-fA-F]{4})\s+([0-9]{1,3})\s+([0-9]{1,3})\s+([0-9]{1,3})\s+(\S.*)"
)
_DEVSTAT_RE = re.compile(r"0x([0-9a-fA-F]{2})\s+0x([0-9a-fA-F]{3})\s+[0-9]+\s+(-?[0-9]+|-)\s+([A-Z-]{3}\+?)\s+(\S.*)")
# 5.42-6.3: `  1  0x010  4            12345  Power-on Hours`: decimal page, '+' after the size for unknown flags,
# '~' after a normalized value (smartmontools ataprint.cpp `%3d  0x%03x  %d%c %15s%c %s`)
_DEVSTAT_OLD_RE = re.compile(r"([0-9]{1,3})\s+0x([0-9a-fA-F]{3})\s+[0-9]+\+?\s+(-?[0-9]+|-)(~?)\s+(\S.*)")
_DEVSTAT_INFO_RE = re.compile(r"\s+\[[^\]]*\]$")
_ERRLOG_ROW_RE = re.compile(r"(read|write|verify):\s*(.*)")
# Split table columns on ASCII blanks only: U+202F and NBSP are thousands separators, not column gaps.
_ASCII_WS_RE = re.compile(r"[ \t]+")
_FAIL_TEXT = {
    "-": "",
    "NOW": "FAILING_NOW",
    "now": "FAILING_NOW",
    "Past": "In_the_past",
    "past": "In_the_past",
}


def attribute_row(b: Builder, s: str) -> bool:
    m = _ATTR_BRIEF_RE.fullmatch(s)
    if m is not None:
        aid, name, flags, value, worst, thresh, fail, raw = m.groups()
        prefail = flags[0] == "P"
        when_failed = _FAIL_TEXT.get(fail, "")
    elif (m := _ATTR_OLD_RE.fullmatch(s)) is not None:
        aid, name, value, worst, thresh, kind, fail, raw = m.groups()
        prefail = kind == "Pre-fail"
        when_failed = "" if fail == "-" else fail
    elif (m := _ATTR_5_0_RE.fullmatch(s)) is not None:  # no TYPE, no WHEN_FAILED: the flags say pre-fail
        aid, spaced, flags_hex, value, worst, thresh, raw = m.groups()
        name, prefail, when_failed = "_".join(spaced.split()), bool(int(flags_hex, 16) & 1), ""
    else:
        return False
    attr_id = int(aid)
    if not 0 < attr_id < 256:
        return False
    raw = raw.rstrip()
    if attr_id not in b.attributes:
        b.attributes[attr_id] = Attribute(
            id=attr_id,
            name=name,
            value=small_int(value),
            worst=small_int(worst),
            thresh=small_int(thresh),
            raw=raw_int(raw),
            raw_string=raw,
            when_failed=when_failed,
            prefailure=prefail,
        )
    return True


def whole_attribute_row(s: str) -> bool:
    """A line that is an attribute row with every field, in either format, and no bracket of its raw value left
    open ('38 (Min/Max 0/6' is cut; a raw value cut between its digits cannot be told from a shorter one)."""
    m = _ATTR_BRIEF_RE.fullmatch(s) or _ATTR_OLD_RE.fullmatch(s)
    return m is not None and m.group(m.lastindex or 0).count("(") == m.group(m.lastindex or 0).count(")")


def devstat_row(b: Builder, s: str) -> bool:
    m = _DEVSTAT_RE.fullmatch(s)
    if m is not None:
        page_s, offset_s, value_s, flags, name = m.groups()
        page, normalized = int(page_s, 16), "N" in flags
    else:
        m = _DEVSTAT_OLD_RE.fullmatch(s)
        if m is None:
            return False
        page_s, offset_s, value_s, tilde, name = m.groups()
        page, normalized = int(page_s), tilde == "~"
    offset = int(offset_s, 16)
    name = _DEVSTAT_INFO_RE.sub("", name)  # 'Logical Sectors Written [50.5 TB]': the name is JSON's
    valid = value_s != "-" and len(value_s) <= MAX_DIGITS
    key = (page, offset)
    if key not in b.devstats:
        b.devstats[key] = DevStat(
            page=page,
            offset=offset,
            name=name.strip(),
            value=int(value_s) if valid else None,
            valid=valid,
            normalized=normalized,
        )
    return True


def errlog_row(gigabytes: dict[str, int], uncorrected: dict[str, int], s: str) -> bool:
    """'read: ... 27805.729  0': the last two columns are gigabytes processed and total uncorrected errors,
    stored by row name ('read', 'write', 'verify')."""
    m = _ERRLOG_ROW_RE.fullmatch(s)
    if m is None:
        return False
    kind, rest = m.groups()
    tokens = [t for t in _ASCII_WS_RE.split(rest.strip()) if t]
    if len(tokens) >= 2:
        gb = gigabytes_to_bytes(tokens[-2])
        unc = grouped_int(tokens[-1]) if tokens[-1].isdigit() else None
        if gb is not None:
            gigabytes.setdefault(kind, gb)
        if unc is not None:
            uncorrected.setdefault(kind, unc)
    return True
