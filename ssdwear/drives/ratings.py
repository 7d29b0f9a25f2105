"""Rated write endurance (TBW) per model: the catalogue shipped in ratings.yaml, and the config entries that extend
it. TB and PB are decimal.

One table serves two uses:
- `report` attaches a rating to a drive (find_rating): the config's entries first, then the catalogue's entries
  whose model pattern was checked against a real model string (`model_verified`), whose pattern matches the
  whole model string and whose capacity the drive does not exceed. An entry built from a part number only
  never attaches to a drive: a wrong pattern would put a wrong rating on it.
- `plan` weighs every entry as a candidate, verified or not, rated or not (unrated ones are shown as such).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, NamedTuple

from ssdwear.model.records import Snapshot
from ssdwear.model.units import (
    CAPACITY,
    DWPD,
    NAND,
    RATED_WRITES,
    YEARS,
    Limits,
    bytes_span,
    bytes_text,
    capacity_text,
)

CATALOGUE_FILE = Path(__file__).resolve().parent / "ratings.yaml"  # the catalogue people edit, with its sources
# ... and what a run reads: the same data as JSON, written by `python3 -m ssdwear.drives.ratings` (a test keeps the two
# equal). Parsing the YAML would cost every report about 80 ms; this costs about 1.
CATALOGUE_JSON = CATALOGUE_FILE.with_suffix(".json")
# A drive reports slightly more than its nominal (IDEMA) capacity: 200,049,647,616 bytes for "200 GB".
CAPACITY_SLACK = 1.02
# A drive whose user capacity is at most this share of its model's nominal capacity shows extra spare area.
SPARE_AREA_CAPACITY_SHARE = 0.85
# 2: a rating may be a published range (tbw_bytes_range), for families that publish no per-capacity figure.
CATALOGUE_SCHEMA = 2
SOURCE_KINDS = ("vendor-doc", "vendor-release", "oem-doc", "review", "compilation", "integrator")
# The workloads a rating may be stated on, as `plan` compares them (workload_kind): a rating's bytes are bytes of its
# own workload, so years from bytes of another workload are not comparable as computed. A config entry names one.
WORKLOAD_KINDS = {"4k-random": "4 KB random writes", "jedec-client": "the JEDEC client workload (JESD219)",
                  "jedec-enterprise": "the JEDEC enterprise workload (JESD219)"}


def workload_kind(workload: str | None, drive_class: str | None = None) -> str | None:
    """Which of WORKLOAD_KINDS a rating's stated workload is, from the source's words as the catalogue quotes them
    ('4 KB random writes (Intel figure as quoted)', 'client (JESD218)'): JESD218, the endurance standard, rates a
    client or an enterprise drive on JESD219's workload of its class. None where the words state none ('not
    stated', 'client' alone, a footnote not captured)."""
    text = (workload or "").lower()
    if not text or "not stated" in text or "not captured" in text:
        return None
    if re.search(r"4 ?kb random", text):
        return "4k-random"
    if re.search(r"jesd21[89]|jedec", text):
        for kind in ("enterprise", "client"):
            if kind in text:
                return f"jedec-{kind}"
        return {"datacenter": "jedec-enterprise", "client": "jedec-client"}.get(drive_class or "")
    return None


@dataclass(frozen=True)
class Source:
    """Where a catalogue figure comes from."""

    title: str
    url: str
    date: str  # publication or document revision; 'n/d' when the source shows none
    kind: str  # one of SOURCE_KINDS


@dataclass(frozen=True)
class Rating:
    """Rated endurance of a model (regex on the model string) or of one drive (serial).

    Either `bytes` (TBW), or `dwpd` + `warranty_years`, which Intel's formula turns into bytes for the
    drive's capacity: TBW = DWPD x capacity x 365 x warranty years, or a published range `bytes_low`-`bytes_high`
    where a source gives only its family's range and no per-capacity figure (the Intel SSD 320's 5-60 TB): `plan`
    shows years over the range; a range never attaches a rated TBW to a drive in `report`. Catalogue entries also
    say what the drive is, where the figure comes from and, where a source states them, its raw NAND and
    published spare-area rating.
    """

    bytes: int | None
    note: str
    model: str | None = None  # regular expression searched in the model string (case-insensitive)
    serial: str | None = None  # exact serial number
    nominal_capacity_bytes: int | None = None  # marketed capacity, to recognise extra spare area
    spare_area_bytes: int | None = None  # published rating with part of the user capacity left unused
    dwpd: float | None = None  # drive writes per day over the warranty
    warranty_years: float | None = None
    spare_area_percent: float | None = None  # share of the user capacity left unused for spare_area_bytes
    spare_area_wording: str | None = None  # how the source words it ('w/ +20% Spare Area')
    vendor: str | None = None
    family: str | None = None
    nand_bytes: int | None = None  # raw NAND on the board (binary units, as teardowns count it)
    reserved_bytes: int | None = None  # NAND holding parity: neither user data nor spare for garbage collection
    interface: str | None = None  # 'sata', 'nvme', 'sas'
    drive_class: str | None = None  # 'datacenter' or 'client'
    workload: str | None = None  # what the rating assumes, as far as the source says
    source: Source | None = None
    verified: bool = False  # the model pattern was checked against a real model string: it may attach to drives
    missing: str | None = None  # an entry without a rating: what was looked for and not found
    origin: str = "config"  # 'config' or 'built-in' (the catalogue)
    bytes_low: int | None = None  # a published range, where no single figure is published (both or neither)
    bytes_high: int | None = None
    range_scope: str | None = None  # what the range covers ('the SSD 320 family, 80-600 GB')

    @property
    def workload_kind(self) -> str | None:
        """The workload the rating is stated on (WORKLOAD_KINDS), or None where the source states none."""
        return workload_kind(self.workload, self.drive_class)

    def bytes_for(self, capacity_bytes: int | None) -> int | None:
        if self.bytes is not None:
            return self.bytes
        capacity = self.nominal_capacity_bytes or capacity_bytes
        if self.dwpd is not None and self.warranty_years is not None and capacity:
            return int(self.dwpd * capacity * 365 * self.warranty_years)
        return None

    @property
    def rated(self) -> bool:
        return self.bytes is not None or (self.dwpd is not None and self.warranty_years is not None) \
            or self.bytes_range is not None

    @property
    def bytes_range(self) -> tuple[int, int] | None:
        """(low, high) of a published range rating, else None."""
        return None if self.bytes_low is None or self.bytes_high is None else (self.bytes_low, self.bytes_high)

    @property
    def name(self) -> str:
        """'Intel SSD 710 200 GB': vendor, family (without its parenthesis) and capacity; a config entry by its note
        and pattern."""
        if self.origin == "config":
            return f"{self.note} [config: /{self.model or self.serial}/]"
        family = re.sub(r"\s*\(.*\)\s*$", "", self.family or "").strip()
        parts = [self.vendor or "", family, capacity_text(self.nominal_capacity_bytes)]
        return " ".join(p for p in parts if p) or self.note

    def figure(self) -> str:
        """The rating as it is stated: '1.0 PB', '10 DWPD x 5 y' (drive writes per day over 5 years), or
        'rating unknown'."""
        if self.bytes is not None:
            return bytes_text(self.bytes)
        if self.dwpd is not None and self.warranty_years is not None:
            return f"{self.dwpd:g} DWPD x {self.warranty_years:g} y"
        if self.bytes_range is not None:
            return bytes_span(*self.bytes_range)
        return "rating unknown"


class RatingField(NamedTuple):
    """One field of a rating: the Rating attribute, its key in the config's `ratings` and in the catalogue
    (ratings.yaml; a dotted key is a key inside a mapping) (None: that source does not give it), what it holds and
    the range its figure must lie in. Both readers read every field by this table and check it by rating_problem."""

    attr: str
    config: str | None
    catalogue: str | None
    kind: Literal["pattern", "text", "bytes", "number"]  # bytes: the config takes '1.5 PB'; the catalogue, bytes
    limits: Limits | None = None


RATING_FIELDS = (
    RatingField("model", "model", "model", "pattern"),
    RatingField("serial", "serial", None, "text"),
    RatingField("bytes", "tbw", "tbw_bytes", "bytes", RATED_WRITES),
    RatingField("bytes_low", "tbw_low", "tbw_bytes_range.low", "bytes", RATED_WRITES),
    RatingField("bytes_high", "tbw_high", "tbw_bytes_range.high", "bytes", RATED_WRITES),
    RatingField("range_scope", None, "tbw_bytes_range.scope", "text"),
    RatingField("dwpd", "dwpd", "dwpd", "number", DWPD),
    RatingField("warranty_years", "warranty_years", "warranty_years", "number", YEARS),
    RatingField("nominal_capacity_bytes", "capacity", "capacity_bytes", "bytes", CAPACITY),
    RatingField("nand_bytes", "nand", "nand_bytes", "bytes", NAND),
    RatingField("reserved_bytes", None, "reserved_bytes", "bytes", NAND),
    RatingField("workload", "workload", "workload", "text"),  # the config: a WORKLOAD_KINDS key; the catalogue: words
    RatingField("note", "note", None, "text"),
    RatingField("vendor", None, "vendor", "text"),
    RatingField("family", None, "family", "text"),
    RatingField("interface", None, "interface", "text"),
    RatingField("drive_class", None, "class", "text"),
    RatingField("missing", None, "missing", "text"),
)


def rating_problem(values: Mapping[str, Any], key: Callable[[str], str | None], rated: bool = True
                   ) -> tuple[str | None, str] | None:
    """What is wrong with a rating as a whole (its fields read: Rating attribute -> value), as (the attribute it is
    about, or None for the whole entry; what to do), in the names `key` gives the attributes (the config's or the
    catalogue's); None when nothing is. `rated`: it must carry a rating (the catalogue's `unrated` need not)."""
    def q(attr: str) -> str:
        return f"'{key(attr)}'"

    low, high, dwpd = values.get("bytes_low"), values.get("bytes_high"), values.get("dwpd")
    if not values.get("model") and not values.get("serial"):
        return None, f"needs {q('model')} (a regular expression)" + (f" or {q('serial')}" if key("serial") else "")
    if (low is None) != (high is None) or (low is not None and (values.get("bytes") is not None or dwpd is not None)):
        return None, f"a range needs both {q('bytes_low')} and {q('bytes_high')}, and neither {q('bytes')} nor " \
                     f"{q('dwpd')}"
    if low is not None and low >= high:
        return "bytes_low", f"must be below {key('bytes_high')}"
    forms = [values.get("bytes"), dwpd, low].count(None)
    if (rated and forms != 2) or forms < 2 or (dwpd is not None and values.get("warranty_years") is None):
        return None, (f"needs {q('bytes')} (e.g. 1.5 PB), both {q('dwpd')} and {q('warranty_years')}, or a range "
                      f"{q('bytes_low')} and {q('bytes_high')}")
    nand, capacity = values.get("nand_bytes"), values.get("nominal_capacity_bytes")
    if nand is not None and (capacity is None or nand <= capacity):
        return "nand_bytes", (f"needs {q('nominal_capacity_bytes')} too, and more NAND than capacity (e.g. "
                              "capacity: 200 GB, nand: 320 GiB)")
    return None


@dataclass(frozen=True)
class AppliedRating:
    bytes: int
    source: str


def required_literals(pattern: str) -> tuple[str, ...]:
    """Pieces of text every match of `pattern` must contain, lower-cased (only those outside groups, classes,
    escapes and optional or repeated characters, of three or more characters; none when the pattern has a top-level
    alternation). A cheap test before the regular expression: a run compiles only the patterns it needs."""
    chunks: list[str] = []
    current = ""
    depth = i = 0
    while i < len(pattern):
        c = pattern[i]
        if depth == 0 and c == "|":
            return ()
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif (depth == 0 and c.isalnum()) or (depth == 0 and c in " _-"):
            current += c
            i += 1
            continue
        elif depth == 0 and c in "?*{":
            current = current[:-1]  # the character before is optional
        if c in "[{":  # a class or a repeat count: skip to its end
            end = pattern.find("]" if c == "[" else "}", i + 2 if c == "[" else i + 1)
            i = end if end >= 0 else len(pattern)
        elif c == "\\":
            i += 1
        chunks.append(current)
        current = ""
        i += 1
    chunks.append(current)
    return tuple(chunk.lower() for chunk in chunks if len(chunk) >= 3)


@functools.cache
def _literals(pattern: str) -> tuple[str, ...]:
    return required_literals(pattern)


def model_matches(rating: Rating, model: str) -> bool:
    if not rating.model:
        return False
    lower = model.lower()
    if not all(piece in lower for piece in _literals(rating.model)):
        return False
    return re.search(str(rating.model), model, re.I) is not None


def capacity_fits(rating: Rating, capacity_bytes: int | None) -> bool:
    """A drive is not larger than its model's nominal capacity (the pattern would be wrong); smaller is fine
    (part of it may be left unused, or hidden by a host protected area)."""
    if not capacity_bytes or not rating.nominal_capacity_bytes:
        return True
    return capacity_bytes <= rating.nominal_capacity_bytes * CAPACITY_SLACK


def attaches(rating: Rating, snap: Snapshot) -> bool:
    """Whether a catalogue entry describes this drive: a verified pattern, the whole model string, a fitting
    capacity."""
    return rating.verified and capacity_fits(rating, snap.capacity_bytes) and model_matches(rating, snap.model or "")


def find_rating(snap: Snapshot, configured: Sequence[Rating] = ()) -> AppliedRating | None:
    """The rating for this drive: a configured serial first, then configured models, then the catalogue."""
    model = snap.model or ""
    by_serial = [(r, f"serial {r.serial}") for r in configured if r.serial and r.serial == snap.serial]
    by_model = [(r, f"model /{r.model}/") for r in configured
                if r.model and not r.serial and re.search(r.model, model, re.I)]
    for rating, where in by_serial + by_model:
        value = rating.bytes_for(snap.capacity_bytes)
        if value:
            return AppliedRating(value, f"config ({where}): {rating.note}")
    for rating in catalogue():
        if not rating.rated or not attaches(rating, snap):
            continue
        value = rating.bytes_for(snap.capacity_bytes)
        if value is None:
            continue
        if (rating.spare_area_bytes and rating.nominal_capacity_bytes and snap.capacity_bytes
                and snap.capacity_bytes <= SPARE_AREA_CAPACITY_SHARE * rating.nominal_capacity_bytes):
            return AppliedRating(rating.spare_area_bytes,
                                 f"built-in: {rating.note}; user capacity shows the extra spare area")
        return AppliedRating(value, f"built-in: {rating.note}")
    return None


# ------------------------------------------------------------------------------------------------
# The catalogue file


class CatalogueError(ValueError):
    """ratings.yaml does not hold what ssdwear expects (a packaging bug: the tests validate the file)."""


@functools.lru_cache(maxsize=1)
def catalogue() -> tuple[Rating, ...]:
    """Every entry of the shipped catalogue, rated first, then the unrated ones (read once). Read as package
    data (importlib.resources), so it is found inside a zipapp too, where there is no file to open."""
    import json
    from importlib import resources

    text = resources.files(__package__).joinpath(CATALOGUE_JSON.name).read_text(encoding="utf-8")
    return _entries(json.loads(text), check_patterns=False)


def catalogue_doc(text: str) -> Any:
    """ratings.yaml as plain data (anchors resolved), what ratings.json holds."""
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # a safe loader


def load_catalogue(text: str) -> tuple[Rating, ...]:
    """ratings.yaml's entries, every check made (its patterns compiled too)."""
    return _entries(catalogue_doc(text), check_patterns=True)


def _entries(doc: Any, check_patterns: bool) -> tuple[Rating, ...]:
    if not isinstance(doc, dict) or doc.get("schema") != CATALOGUE_SCHEMA:
        raise CatalogueError(f"ratings catalogue: expected a mapping with 'schema: {CATALOGUE_SCHEMA}'")
    entries = [(e, True) for e in doc.get("ratings") or []] + [(e, False) for e in doc.get("unrated") or []]
    return tuple(_entry(e, rated, i, check_patterns) for i, (e, rated) in enumerate(entries))


CONFIG_KEYS = {f.attr: f.config for f in RATING_FIELDS if f.config}
CATALOGUE_KEYS = {f.attr: f.catalogue for f in RATING_FIELDS if f.catalogue}


def _given(e: Mapping[str, Any], key: str) -> Any:
    """The value at a (dotted) catalogue key, None where there is none."""
    for part in key.split("."):
        e = e.get(part) if isinstance(e, Mapping) else None  # type: ignore[assignment]
    return e


def _catalogue_value(f: RatingField, value: Any, where: str, check_pattern: bool) -> Any:
    if f.kind in ("pattern", "text"):
        if not isinstance(value, str):
            raise CatalogueError(f"{where}: '{f.catalogue}' missing or not a str")
        if f.kind == "pattern" and check_pattern:  # at build time; a run compiles only the patterns a drive needs
            try:
                re.compile(value)
            except re.error as exc:
                raise CatalogueError(f"{where}: model /{value}/ is not a regular expression: {exc}") from None
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise CatalogueError(f"{where}: '{f.catalogue}' must be a positive number")
    if f.limits is not None:
        try:
            f.limits.check(float(value), str(value))
        except ValueError as exc:
            raise CatalogueError(f"{where}: '{f.catalogue}': {exc}") from None
    return int(value) if f.kind == "bytes" else float(value)


def _entry(e: Any, rated: bool, index: int, check_pattern: bool = True) -> Rating:
    """One catalogue entry, read and checked by the fields' table (RATING_FIELDS) and rating_problem."""
    where = f"ratings catalogue entry {index}"
    if not isinstance(e, dict):
        raise CatalogueError(f"{where}: expected a mapping")
    values = {f.attr: _catalogue_value(f, _given(e, f.catalogue), where, check_pattern) for f in RATING_FIELDS
              if f.catalogue is not None and _given(e, f.catalogue) is not None}
    for attr in ("model", "vendor", "family", *(() if rated else ("missing",))):
        if attr not in values:
            raise CatalogueError(f"{where}: '{CATALOGUE_KEYS[attr]}' missing or not a str")
    if "tbw_bytes_range" in e and (not isinstance(e["tbw_bytes_range"], dict) or "range_scope" not in values):
        raise CatalogueError(f"{where}: tbw_bytes_range needs low, high and scope")
    problem = rating_problem(values, CATALOGUE_KEYS.get, rated)
    if problem is not None:
        raise CatalogueError(f"{where}: {f'{CATALOGUE_KEYS[problem[0]]}: ' if problem[0] else ''}{problem[1]}")
    src = e.get("source")
    if not isinstance(src, dict):
        raise CatalogueError(f"{where}: 'source' missing or not a dict")
    source = Source(str(src.get("title", "")), str(src.get("url", "")), str(src.get("date", "")),
                    str(src.get("kind", "")))
    spare = e.get("spare_area") or {}
    rating = Rating(note="", **{"bytes": None, **values}, source=source, verified=bool(e.get("model_verified")),
                    origin="built-in", spare_area_bytes=int(spare["tbw_bytes"]) if spare else None,
                    spare_area_percent=float(spare["percent"]) if spare else None,
                    spare_area_wording=str(spare.get("wording")) if spare else None)
    return replace(rating, note=_note(rating))


def _note(r: Rating) -> str:
    """'Intel SSD 710 200 GB: 1 PB (1.5 PB w/ +20% Spare Area); AnandTech, ... (2011-09-30)'."""
    figure = r.figure()
    if r.range_scope:
        figure += f" (the published range of {r.range_scope})"
    if r.spare_area_bytes:
        figure += f" ({bytes_text(r.spare_area_bytes)} {r.spare_area_wording})"
    cited = f"; {r.source.title} ({r.source.date})" if r.source else ""
    return f"{r.name}: {figure}{cited}"


def __getattr__(name: str) -> Any:
    if name == "BUILTIN_RATINGS":  # the catalogue's rated entries, under the name earlier versions used
        return tuple(r for r in catalogue() if r.rated)
    raise AttributeError(name)


def build_json() -> str:
    """ratings.json from ratings.yaml, after every check."""
    import json

    text = CATALOGUE_FILE.read_text(encoding="utf-8")
    load_catalogue(text)
    return json.dumps(catalogue_doc(text), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


if __name__ == "__main__":  # python3 -m ssdwear.drives.ratings: rewrite ratings.json after editing ratings.yaml
    CATALOGUE_JSON.write_text(build_json(), encoding="utf-8")
    print(f"wrote {CATALOGUE_JSON}")
