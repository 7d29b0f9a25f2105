"""The values inside smartctl output, read from untrusted text: decoding, numbers, identifiers and times.

Everything here is a small pure function shared by the text and JSON readers. Input is untrusted (a file
mailed in from elsewhere, read as root): text is decoded with every control character made visible, numbers
longer than :data:`MAX_DIGITS` digits are refused, and strings that go into error messages are put on one line.
"""

from __future__ import annotations

import codecs
import math
import re
from datetime import datetime, timedelta, timezone
from typing import Any

from ssdwear.model.escape import visible, visible_text
from ssdwear.model.records import Attribute

# The largest real smartctl output seen is about 40 KB; anything past this is not one drive's output, and the
# cap keeps the memory a hostile file can take small.
MAX_INPUT_BYTES = 4 * 1024 * 1024
# Numbers longer than this are garbage (and would trip Python's int-from-str digit limit).
MAX_DIGITS = 40
# Redaction placeholders seen in published captures (prometheus-community/smartctl_exporter's redact script).
_PLACEHOLDER_LU_IDS = frozenset({"1234567890abcdef", "0"})

HINT_TEXT = "save the output of 'smartctl -x' or 'smartctl --json -x'"
HINT_JSON = "save the complete output of 'smartctl --json -x'"


# --------------------------------------------------------------------------------------------------
# Decoding


def _latin1_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: a byte that is not UTF-8 is read as Latin-1 (Windows captures use 0xA0 NBSP)."""
    if isinstance(exc, UnicodeDecodeError):
        return exc.object[exc.start : exc.end].decode("latin-1"), exc.end
    raise exc


_ERRORS_HANDLER = "ssdwear.latin1"
codecs.register_error(_ERRORS_HANDLER, _latin1_fallback)


def decode(data: bytes | str) -> str:
    """Bytes -> text, with every control character but tab and line ends made visible (an ESC in a model
    string must never reach a terminal)."""
    text = data if isinstance(data, str) else bytes(data).decode("utf-8", errors=_ERRORS_HANDLER)
    if text.startswith("\ufeff"):
        text = text[1:]
    return visible_text(text)


def one_line(text: str) -> str:
    return " ".join(text.split())


def source_name(source: str) -> str:
    """The input's name as it goes into a ParseError message: one line, control characters visible."""
    return visible(one_line(str(source))) or "<input>"


# --------------------------------------------------------------------------------------------------
# Numbers

# Thousands separators smartctl's locale-aware printing produces: ',', '.', apostrophes, U+202F, NBSP, space.
_SEP_CHARS = ",.'’\u202f\u00a0 "
_LEAD_NUM_RE = re.compile(r"[0-9]+(?:[,.'’\u202f\u00a0 ][0-9]+)*")
_SEP_SPLIT_RE = re.compile(r"[,.'’\u202f\u00a0 ]")
_LEAD_RAW_RE = re.compile(r"(0[xX][0-9a-fA-F]+|[0-9]+)")
_HEX_RE = re.compile(r"0[xX]([0-9a-fA-F]+)")
_GB_RE = re.compile(r"([0-9][0-9,.'’\u202f\u00a0]*)")


def grouped_int(text: str) -> int | None:
    """The leading integer of ``text``, whatever thousands separator it was printed with.

    '2,603,733,369 [1.33 PB]' -> 2603733369, '5.809' -> 5809, '12 000 138 625 024 bytes' -> 12000138625024,
    '18850 (8 107 0)' -> 18850, '9558 2344 9558' -> 9558 (groups after the first must have three digits).
    """
    m = _LEAD_NUM_RE.match(text.strip())
    if m is None:
        return None
    parts = _SEP_SPLIT_RE.split(m.group())
    digits = parts[0]
    if len(parts) > 1 and len(digits) <= 3:
        for part in parts[1:]:
            if len(part) != 3:
                break
            digits += part
    if len(digits) > MAX_DIGITS:
        return None
    return int(digits)


def hex_or_int(text: str) -> int | None:
    """'0x04' -> 4, '12' -> 12, '1,356' -> 1356."""
    s = text.strip()
    m = _HEX_RE.match(s)
    if m is not None:
        if len(m.group(1)) > MAX_DIGITS:
            return None
        return int(m.group(1), 16)
    return grouped_int(s)


def raw_int(text: str) -> int | None:
    """Leading number of an attribute RAW_VALUE: decimal, or hex when it starts with 0x (no separators)."""
    m = _LEAD_RAW_RE.match(text.strip())
    if m is None:
        return None
    token = m.group(1)
    if len(token) > MAX_DIGITS:
        return None
    if token[:2] in ("0x", "0X"):
        return int(token[2:], 16)
    return int(token)


def small_int(text: str) -> int | None:
    """VALUE/WORST/THRESH: '096' -> 96, '---' -> None."""
    return int(text) if text.isdigit() and len(text) <= 3 else None


def gigabytes_to_bytes(value: str) -> int | None:
    """SCSI 'Gigabytes processed [10^9 bytes]': '10311,154', '27805.729', '0.016' -> bytes.

    smartctl prints this with '%.3f' (the decimal mark follows the locale, no grouping), so the
    last '.' or ',' is the decimal mark.
    """
    m = _GB_RE.match(value.strip())
    if m is None:
        return None
    s = m.group(1).rstrip(_SEP_CHARS)
    cut = max(s.rfind("."), s.rfind(","))
    whole, frac = (s[:cut], s[cut + 1 :]) if cut >= 0 and len(s) - cut - 1 <= 3 else (s, "")
    whole_digits = "".join(ch for ch in whole if "0" <= ch <= "9") or "0"
    frac_digits = ("".join(ch for ch in frac if "0" <= ch <= "9") + "000")[:3]
    if len(whole_digits) > MAX_DIGITS:
        return None
    return int(whole_digits) * 1_000_000_000 + int(frac_digits) * 1_000_000


# --------------------------------------------------------------------------------------------------
# Identity

_MASKED_EXACT = frozenset({"", "-", "--", "---", "redacted", "[no information found]", "n/a", "none", "unknown"})
_X_RUN_RE = re.compile(r"X{6,}")
_ALL_MASK_RE = re.compile(r"[Xx*0\-_.]+")


def clean_id(value: str | None) -> str | None:
    """Serial numbers (and redacted firmware strings): None when absent or masked."""
    if value is None:
        return None
    v = value.strip()
    if v.lower() in _MASKED_EXACT or _ALL_MASK_RE.fullmatch(v) or _X_RUN_RE.search(v):
        return None
    return v


_NVME_VERSION = re.compile(r"\d{1,2}\.\d{1,2}(\.\d{1,2})?")


def nvme_version(value: object) -> str | None:
    """The NVMe version a controller reports ('1.4', '1.2.1'); None for anything else ('<1.2' included)."""
    if not isinstance(value, str):
        return None
    v = value.strip()
    return v if _NVME_VERSION.fullmatch(v) else None


def clean_str(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    v = value.strip()
    return v or None


def text_wwn(value: str) -> str | None:
    """'5 5cd2e4 04ba3c1f2' -> '55cd2e404ba3c1f2'; None when truncated ('5 001517 ...') or malformed."""
    tokens = value.split()
    if len(tokens) != 3:
        return None
    joined = "".join(tokens).lower()
    if len(tokens[0]) != 1 or len(tokens[1]) != 6 or len(tokens[2]) != 9:
        return None
    if not all(c in "0123456789abcdef" for c in joined):
        return None
    return joined


def lu_id(value: str) -> str | None:
    """SCSI 'Logical Unit id: 0x5002538b1184df60' -> '5002538b1184df60'."""
    v = value.strip().split()[0] if value.strip() else ""
    if v[:2] in ("0x", "0X"):
        v = v[2:]
    v = v.lower()
    if not v or len(v) > 32 or not all(c in "0123456789abcdef" for c in v):
        return None
    if v in _PLACEHOLDER_LU_IDS or set(v) == {"0"}:
        return None
    return v


# --------------------------------------------------------------------------------------------------
# Time

_MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, start=1)}
_WEEKDAYS = {d: i for i, d in enumerate(("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"))}
_ASCTIME_RE = re.compile(
    r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+([0-9]{1,2})\s+"
    r"([0-9]{1,2}):([0-9]{2}):([0-9]{2})\s+([0-9]{4})(?:\s+(\S+))?\s*$"
)
_NUM_TZ_RE = re.compile(r"([+-])([0-9]{2}):?([0-9]{2})?")
# Unambiguous zone abbreviations (minutes east of UTC).
# CST, IST, AST and the Windows 'RTZ' names are ambiguous and deliberately absent.
_TZ_MINUTES = {
    "UTC": 0, "UT": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 60, "BST": 60, "CET": 60, "CEST": 120, "MET": 60,
    "MEST": 120, "EET": 120, "EEST": 180, "MSK": 180, "SAMT": 240, "YEKT": 300, "OMST": 360, "KRAT": 420,
    "IRKT": 480, "YAKT": 540, "VLAT": 600, "MAGT": 660, "PETT": 720, "EST": -300, "EDT": -240, "CDT": -300,
    "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "AKST": -540, "AKDT": -480, "HST": -600, "JST": 540,
    "KST": 540, "HKT": 480, "SGT": 480, "AWST": 480, "ACST": 570, "ACDT": 630, "AEST": 600, "AEDT": 660,
    "NZST": 720, "NZDT": 780, "WIB": 420, "ICT": 420, "PHT": 480, "SAST": 120, "CAT": 120, "EAT": 180,
    "WAT": 60, "BRT": -180, "ART": -180, "UYT": -180, "NST": -210, "NDT": -150, "PKT": 300,
}  # fmt: skip


def naive_asctime(text: str) -> tuple[datetime, str | None] | None:
    m = _ASCTIME_RE.match(text.strip())
    if m is None:
        return None
    wd, mon, day, hh, mm, ss, year, zone = m.groups()
    try:
        dt = datetime(int(year), _MONTHS[mon], int(day), int(hh), int(mm), int(ss))
    except ValueError:
        return None
    if dt.weekday() != _WEEKDAYS[wd]:
        return None
    return dt, zone


def _zone(zone: str | None) -> timezone | None:
    if zone is None:
        return None
    minutes = _TZ_MINUTES.get(zone.upper())
    if minutes is None:
        m = _NUM_TZ_RE.fullmatch(zone)
        if m is None:
            return None
        minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
        if minutes >= 24 * 60:
            return None
        if m.group(1) == "-":
            minutes = -minutes
    return timezone(timedelta(minutes=minutes))


def parse_local_time(text: str, notes: list[str]) -> datetime | None:
    """'Wed Mar 16 10:11:12 2022 UTC' -> aware datetime; None when masked ('--', 'Sun May ... 2022 +07')."""
    parsed = naive_asctime(text)
    if parsed is None:
        return None
    dt, zone = parsed
    tz = _zone(zone)
    if tz is None:
        notes.append(f"local time {one_line(text)!r}: time zone unknown or ambiguous; time not used")
        return None
    return dt.replace(tzinfo=tz)


# --------------------------------------------------------------------------------------------------
# Power-on hours

# '18924h+45m+31.870s', '740745h+05m' (5.1.2 on); smartctl 5.0's -m printed minutes as '12345 h +  5 m'
_HMS_RE = re.compile(r"([0-9]{1,15})\s*h(?:\s*\+\s*([0-9]{1,6})\s*m)?(?:\+([0-9]{1,9}(?:\.[0-9]{0,9})?)s)?")


def attr9_hours(attr: Attribute) -> float | None:
    """Hours from attribute 9: '55419', '18850 (8 107 0)', '18924h+45m+31.870s', minute/second variants (and 5.0's
    '12345 h + 45 m')."""
    m = _HMS_RE.match(attr.raw_string.strip())
    if m is not None:
        hours = float(m.group(1))
        if m.group(2):
            hours += int(m.group(2)) / 60
        if m.group(3):
            hours += float(m.group(3)) / 3600
        return hours
    if attr.raw is None:
        return None
    name = attr.name.lower()
    if "half_min" in name:
        return attr.raw / 120
    if "minute" in name:
        return attr.raw / 60
    if "second" in name:
        return attr.raw / 3600
    return float(attr.raw)


# --------------------------------------------------------------------------------------------------
# Decoded JSON: every reader of it takes what has the expected type and ignores the rest


def jdict(v: object) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def jlist(v: object) -> list[Any]:
    return v if isinstance(v, list) else []


def pci_vendor(value: object) -> int | None:
    """A PCI vendor ID smartctl printed: JSON nvme_pci_vendor.id (a number), text 'PCI Vendor/Subsystem ID:
    0x1b96' (the vendor; smartctl prints the subsystem vendor after a slash when it differs); None unless 0-0xffff."""
    if isinstance(value, str):
        m = re.fullmatch(r"\s*0x([0-9a-fA-F]{1,4})(?:\s*/\s*0x[0-9a-fA-F]{1,4})?\s*", value)
        return int(m.group(1), 16) if m else None
    v = jint(value)
    return v if v is not None and 0 <= v <= 0xFFFF else None


def jint(v: object) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and math.isfinite(v) and v.is_integer():
        return int(v)
    return None


def jpos(v: object) -> int | None:
    n = jint(v)
    return n if n is not None and n > 0 else None


def jbool(v: object) -> bool | None:
    return v if isinstance(v, bool) else None


def visible_json(value: Any) -> Any:
    """Every string in decoded JSON (keys too) with control characters made visible ('\\u001b' decodes to ESC)."""
    if isinstance(value, str):
        return visible(value)
    if isinstance(value, dict):
        return {visible(k): visible_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [visible_json(v) for v in value]
    return value
