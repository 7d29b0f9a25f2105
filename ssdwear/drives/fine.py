"""Wear counters finer than a drive's whole-percent indicator: the attributes and log fields that count writes to the
flash (NAND bytes or pages), average erase cycles, or host writes, read as the drive's family row (Family.fine) and
their drive-database names (named.NAMED_FINE) say, in their units, with the drive's own rating where it reports one
(a rated erase count, an endurance estimate).

A counter that sees the flash (`media`, `erase`) counts wear: the wear per unit is near constant over a drive's life
(on Intel drives whose E2h counts wear in 1/1024 % steps, wear per NAND byte in a months-long window stayed within
2 % of its lifetime value for 80 % of windows; bench/calibrate.py). Host writes (`host`) do not see write
amplification: their wear per byte drifts with the workload.

Everything here is evaluated from a Snapshot, so it works for every reading of the same data: a smartctl output, or
ATA attributes as id -> (normalised, raw) from any other log (`attribute_reading` builds the snapshot; names are
optional: entries whose family spans controllers that use an ID differently need the drive-database name, which a
live reading of the same drive supplies). NVMe log pages are the bytes of the page, by log id
(Snapshot.nvme_logs), whoever read them (smartctl's `-l nvmelog` dump, or nvme-cli's `get-log -b`).

Sources:
- smartmontools drivedb.h (drivedb/drivedb.h at f1d0da9ce), cited beside the rows and names that hold them: the
  attribute names and raw formats of the entries "Crucial/Micron Client SSDs" (173 Ave_Block-Erase_Count, 247
  Host_Program_Page_Count, 248 FTL_Program_Page_Count),
  "Micron 5100 / 52x0 / 5300 / 5400 SSDs" (173 Avg_Block-Erase_Count, 247, 248 Bckgnd_Program_Page_Cnt),
  "Samsung based SSDs" (177 Wear_Leveling_Count kept at smartctl's default name, raw = average erase cycles),
  "WD Blue / Red / Green SSDs" (173 Average_PE_Cycles_TLC, 233 NAND_GB_Written_TLC),
  "Marvell based SanDisk SSDs" (173 Avg_Write/Erase_Count), "Phison Driven SSDs" (244 Average_Erase_Count),
  "Seagate Nytro SATA SSD" (173 Avg_Program/Erase_Ct), "SandForce Driven SSDs" (173 Average_PE_Cycles),
  "Silicon Motion based SSDs" (167 Average_Erase_Count, 168 Max_Erase_Count_of_Spec: the rated count),
  "Indilinx Barefoot 3 based SSDs" (208 Average_Erase_Count, 205 Max_Rated_PE_Count) and "Indilinx
  Barefoot_2/Everest/Martini based SSDs" (205 Max_PE_Count_Spec). NAND byte counters: counters.py (the rows'
  nand_written: Intel 243/249, and 233/243/249 wherever the drive-database name says NAND or flash and its unit).
- NVMe Endurance Group Information log (LID 09h, NVMe 1.4+): libnvme src/nvme/types.h `struct
  nvme_endurance_group_log` (v1.3): byte 5 Percentage Used, 32-47 Endurance Estimate, 48-63 Data Units Read,
  64-79 Data Units Written, 80-95 Media Units Written, 128-bit little-endian, in units of 10^9 bytes (NVMe base
  specification 2.0, Endurance Group Information log: "in billions"); the Endurance Estimate assumes a write
  amplification of 1, so it is a budget of media writes.
- OCP SMART / Health Information Extended log (LID C0h, OCP Datacenter NVMe SSD specification 2.0): nvme-cli
  plugins/ocp/ocp-nvme.c (v2.3) SMART_CLOUD_ATTRIBUTE_OFFSETS: 0-15 physical media units written, 176-191
  endurance estimate, 496-511 the log page GUID (bytes C5 AF 10 28 EA BF F2 A4 9C 4F 6F 7C C9 14 D5 AF, which
  nvme-cli checks before trusting the layout: other vendors' C0h pages differ).
- Intel/Solidigm log 0xCA: nvme-cli plugins/intel/intel-nvme.c (v2.3) `struct nvme_additional_smart_log`: key ADh
  wear levelling count (raw: min, max, avg erase cycles, 16 bits each), F4h NAND bytes written, F5h host bytes
  written. Their unit is not published by Intel (Solidigm's endurance_profiler counts 32 MiB); it is settled per
  drive against the NVMe Data Units Written (exact: 512,000 bytes) in `ca_unit`, and unused otherwise.
  Other vendors' 0xCA in the same layout (drives/nvme_vendors.py: nvme-cli's dapustor, scaleflux, memblaze, ymtc,
  shannon and ssstc plugins) is read the same way where their row documents it, its first keys checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

from ssdwear.model.family import CounterKind, FineCounter, LogSource
from ssdwear.model.records import NVME_DATA_UNIT_BYTES, Attribute, CounterReading, Snapshot

from . import counters
from .families import family_of, known, matches_whole
from .indicators import RATED_ERASE_RANGE
from .named import NAMED_FINE
from .timed import log_entries, timed_log_page
from .vendor_logs import vendor_log_counters

MiB = 1 << 20

# A counter that sees the flash counts wear; host writes do not see write amplification.
WEAR_KINDS: tuple[CounterKind, ...] = ("media", "erase")


def _named(attr: Attribute, names: str, any_name: bool) -> bool:
    return bool(re.match(names, attr.name)) if attr.name else any_name


def _copy_of_normalised(attrs: Sequence[Attribute], spec: FineCounter, warnings: list[str]) -> bool:
    """Whether the counter's raw is its attribute's normalised value copied (FineCounter.raw_may_copy_normalised),
    said in a warning."""
    copied = [a for a in attrs if spec.raw_may_copy_normalised and a.value is not None and a.raw == a.value]
    for a in copied:
        warnings.append(f"attribute {a.id} {a.name or '(unnamed)'} raw {a.raw} equals its normalised value: a copy "
                        f"of the wear indicator, not an average erase count (read as one it would fall as the drive "
                        f"wears, as on Samsung's PM851 OEM firmwares); {spec.source} is not used")
    return bool(copied)


_RAW16 = re.compile(r"(\d+) (\d+) (\d+)")


def _raw_count(attr: Attribute, raw16_average: bool) -> int:
    """The attribute's raw, or the average of the three erase counts a raw16 packs (FineCounter.raw16_average): the
    words smartctl printed for the format, else those of the 48-bit number it printed for a drive it did not know."""
    if not raw16_average:
        return attr.raw or 0
    printed = _RAW16.fullmatch(attr.raw_string.strip())
    words = [int(w) for w in printed.groups()] if printed else [((attr.raw or 0) >> s) & 0xFFFF for s in (32, 16, 0)]
    return sorted(words)[1]


def _ata_counter(snap: Snapshot, spec: FineCounter, warnings: list[str]) -> CounterReading | None:
    attrs = [snap.attr(i) for i in spec.ids]
    if any(a is None or a.raw is None or not _named(a, spec.names, spec.any_name) for a in attrs):
        return None
    present = [a for a in attrs if a is not None]
    if _copy_of_normalised(present, spec, warnings):
        return None
    value = sum(_raw_count(a, spec.raw16_average) for a in present)
    detail = " + ".join(f"{a.id} {a.name or '(unnamed)'}" for a in present)
    if spec.raw16_average:
        detail += " (of its three 16-bit counts, the one between the other two)"
    detail = f"attribute{'s' if len(present) > 1 else ''} {detail} = {value:,} ({spec.unit}s)"
    if spec.between is not None:
        low, high = (b.raw if (b := snap.attr(i)) is not None else None for i in spec.between)
        if low is None or high is None or not low <= value <= high:
            return None
        detail += f", between attribute {spec.between[0]}'s {low:,} and {spec.between[1]}'s {high:,}"
    rated, rated_detail = None, ""
    if spec.rated_id is not None:
        r = snap.attr(spec.rated_id)
        if r is None or r.raw is None or not r.name or not re.match(spec.rated_names, r.name) \
                or not RATED_ERASE_RANGE[0] <= r.raw <= RATED_ERASE_RANGE[1]:
            return None
        rated, rated_detail = r.raw, f"attribute {r.id} {r.name} = {r.raw:,} rated erase cycles"
    return CounterReading(spec.source, spec.kind, value, spec.unit, None, detail, rated, rated_detail)


def _nand_bytes(snap: Snapshot) -> CounterReading | None:
    count = counters.ata_nand_written(snap)
    if count is None:
        return None
    unit = count.source.rsplit(" x ", 1)[-1] if " x " in count.source else "byte"
    return CounterReading("nand_bytes_written", "media", count.bytes, "byte", 1, count.source + f" ({unit} units)")


def ata_counters(snap: Snapshot, warnings: list[str] | None = None) -> list[CounterReading]:
    """The finer counters an ATA reading offers: NAND writes (bytes, else pages), an average erase count (rated
    where the drive says so), host writes; at most one of each source. A counter the reading shows to be no count
    is left out, with a warning."""
    said: list[str] = warnings if warnings is not None else []
    found: dict[str, CounterReading] = {}
    nand = _nand_bytes(snap)
    if nand is not None:
        found[nand.source] = nand
    for spec in (*family_of(snap).fine, *NAMED_FINE):
        if spec.source in found or (spec.source == "nand_pages_written" and nand is not None):
            continue
        reading = _ata_counter(snap, spec, said)
        if reading is not None:
            found[spec.source] = reading
    host = counters.ata_host_written(snap)
    if host is not None:
        found["host_bytes_written"] = CounterReading("host_bytes_written", "host", host.bytes, "byte", 1,
                                                     host.source)
    return list(found.values())


# --------------------------------------------------------------------------------------------
# NVMe logs

ENDURANCE_GROUP_LOG = 0x09
OCP_SMART_LOG = 0xC0
OCP_SMART_GUID = bytes((0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4, 0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF))
LOG_BYTES = 512
BILLION = 1_000_000_000


def _u128(page: bytes, at: int) -> int:
    return int.from_bytes(page[at:at + 16], "little")


class EnduranceGroup(NamedTuple):
    percent_used: int
    endurance_estimate: int  # units of 10^9 bytes of media writes (0: not reported)
    data_units_written: int  # units of 10^9 bytes of host writes
    media_units_written: int  # units of 10^9 bytes


def endurance_group(page: bytes | None) -> EnduranceGroup | None:
    """The Endurance Group Information log's wear fields, or None for no page (or one too short to be it)."""
    if page is None or len(page) < 96:
        return None
    return EnduranceGroup(page[5], _u128(page, 32), _u128(page, 64), _u128(page, 80))


class OcpSmart(NamedTuple):
    physical_media_units_written: int  # bytes
    endurance_estimate: int  # bytes


def ocp_smart(page: bytes | None) -> OcpSmart | None:
    """The OCP SMART / Health Information Extended log's wear fields, only where the page carries the OCP GUID."""
    if page is None or len(page) < LOG_BYTES or page[496:512] != OCP_SMART_GUID:
        return None
    return OcpSmart(_u128(page, 0), _u128(page, 176))


def nvme_at_least(version: str | None, major: int, minor: int) -> bool:
    """Whether an NVMe version string ('1.4', '1.2.1') is `major.minor` or later."""
    parts = (version or "").split(".")
    if len(parts) < 2 or not all(p.isdigit() for p in parts):
        return False
    return (int(parts[0]), int(parts[1])) >= (major, minor)


def endurance_log_possible(snap: Snapshot) -> bool:
    """Whether the controller may have the Endurance Group log (NVMe 1.4 or later): its Identify Controller data
    (CTRATT bit 4, ENDGIDMAX) then says whether it has endurance groups."""
    return snap.interface == "nvme" and nvme_at_least(snap.nvme_version, 1, 4)


def documented_logs(snap: Snapshot) -> tuple[LogSource, ...]:
    """The NVMe logs this drive's row documents for its model: the only vendor logs ever asked of it."""
    if snap.interface != "nvme":
        return ()
    return tuple(log for log in family_of(snap).nvme_logs if log.model is None or matches_whole(log.model, snap.model))


def ocp_family(snap: Snapshot) -> str | None:
    """The family of this NVMe drive when its row documents the OCP log C0h for its model (drives/intel.py), else
    None: log C0h is read from those only."""
    documented = any(log.log_id == OCP_SMART_LOG and log.layout == "ocp-c0" for log in documented_logs(snap))
    return family_of(snap).name if documented else None


def smartctl_log_pages(snap: Snapshot) -> tuple[int, ...]:
    """The vendor log pages to read with smartctl (`-l nvmelog`) for this drive, one call each: its timed
    workload's page (Intel/Solidigm data-centre NVMe) and the pages its row documents for smartctl to read (another
    vendor's 0xCA in Intel's layout: drives/nvme_vendors.py). None for every other drive."""
    page = timed_log_page(snap)
    pages = [*([page] if page is not None else []), *(log.log_id for log in documented_logs(snap)
                                                     if log.reader == "smartctl")]
    return tuple(dict.fromkeys(pages))


def _eg_counter(snap: Snapshot) -> CounterReading | None:
    eg = endurance_group(snap.nvme_logs.get(ENDURANCE_GROUP_LOG))
    if eg is None or eg.media_units_written <= 0:
        return None
    rated = eg.endurance_estimate or None
    return CounterReading(
        "nvme_media_units_written", "media", eg.media_units_written, "10^9 bytes", BILLION,
        f"NVMe Endurance Group Information log: Media Units Written = {eg.media_units_written:,} (10^9 bytes); "
        f"group Percentage Used {eg.percent_used} %", rated,
        f"Endurance Estimate = {eg.endurance_estimate:,} (10^9 bytes of media writes)" if rated else "")


def _ocp_counter(snap: Snapshot) -> CounterReading | None:
    ocp = ocp_smart(snap.nvme_logs.get(OCP_SMART_LOG))
    if ocp is None or ocp.physical_media_units_written <= 0:
        return None
    rated = ocp.endurance_estimate or None
    return CounterReading(
        "ocp_physical_media_units_written", "media", ocp.physical_media_units_written, "byte", 1,
        f"OCP SMART / Health Information Extended log (GUID checked): Physical Media Units Written = "
        f"{ocp.physical_media_units_written:,} bytes", rated,
        f"Endurance Estimate = {ocp.endurance_estimate:,} bytes" if rated else "")


# The units Intel's 0xCA host and NAND counters may count in: 32 MiB (Solidigm's endurance_profiler) or 32 MB.
CA_UNITS = ((32 * MiB, "32 MiB"), (32_000_000, "32 MB"))
CA_MIN_UNITS = 1000  # below this the counter's own rounding blurs the 4.9 % between the two units
CA_TOLERANCE = 0.01  # F5h x unit must lie this close to Data Units Written (read moments apart)


def ca_unit(host_units: int, data_units_written: int | None) -> tuple[tuple[int, str] | None, str]:
    """The unit of log 0xCA's F5h host writes, settled against the NVMe Data Units Written (exact): the one unit
    that puts F5h within 1 % of it; None (and why) when no unit, or both, do."""
    if data_units_written is None or data_units_written <= 0:
        return None, "no Data Units Written to settle it against"
    if host_units < CA_MIN_UNITS:
        return None, f"F5h = {host_units:,} is too small to tell 32 MiB from 32 MB units"
    exact = data_units_written * NVME_DATA_UNIT_BYTES
    fits = [(unit, label) for unit, label in CA_UNITS if abs(host_units * unit / exact - 1) <= CA_TOLERANCE]
    if len(fits) != 1:
        shown = ", ".join(f"{host_units * u / exact - 1:+.1%} at {label}" for u, label in CA_UNITS)
        return None, f"F5h = {host_units:,} matches Data Units Written ({exact:,} B) in no single unit ({shown})"
    return fits[0], f"F5h = {host_units:,} x {fits[0][1]} is within 1 % of Data Units Written ({exact:,} B)"


# The first entries of Intel's SMART attribute log, in every vendor's reuse of it (nvme-cli's intel, dapustor,
# scaleflux, memblaze, ymtc, shannon and ssstc plugins): program fail, erase fail and wear levelling counts.
CA_FIRST_KEYS = (0xAB, 0xAC, 0xAD)


def intel_ca_layout(page: bytes) -> bool:
    """Whether a 0xCA page's first entries are the layout's (ABh, ACh, ADh at 12-byte strides)."""
    return len(page) >= 36 and tuple(page[12 * i] for i in range(3)) == CA_FIRST_KEYS


def _ca_page(snap: Snapshot, notes: list[str]) -> bytes | None:
    """Log 0xCA where this drive's row reads it in Intel's layout: its timed workload's page (the entries found by
    key: another vendor's 0xCA has no E2h), or a vendor's page the row documents (its first keys checked)."""
    page = snap.nvme_logs.get(0xCA)
    timed = family_of(snap).timed
    if page is None:
        return None
    if timed is not None and timed.log_page == 0xCA:
        return page if 0xE2 in log_entries(page) else None
    if not any(log.log_id == 0xCA and log.layout == "intel-ca" for log in documented_logs(snap)):
        return None
    if not intel_ca_layout(page):
        notes.append(f"log 0xCA of this {family_of(snap).name} drive does not begin with the entries ABh, ACh, ADh: "
                     "its layout is not Intel's, so it is not read")
        return None
    return page


def _ca_counters(snap: Snapshot, notes: list[str]) -> list[CounterReading]:
    page = _ca_page(snap, notes)
    entries = log_entries(page) if page else {}
    if not entries:
        return []
    out = []
    raw_ad = _ca_raw(page or b"", 0xAD)
    if raw_ad is not None and int.from_bytes(raw_ad[4:6], "little") > 0:
        avg = int.from_bytes(raw_ad[4:6], "little")
        out.append(CounterReading("average_erase_count", "erase", avg, "erase cycle", None,
                                  f"log 0xCA ADh wear levelling count: average {avg:,} erase cycles (min "
                                  f"{int.from_bytes(raw_ad[0:2], 'little'):,}, max "
                                  f"{int.from_bytes(raw_ad[2:4], 'little'):,})"))
    if 0xF4 in entries and 0xF5 in entries and entries[0xF4] > 0:
        unit, why = ca_unit(entries[0xF5], snap.nvme.data_units_written if snap.nvme else None)
        if unit is None:
            notes.append(f"log 0xCA F4h NAND writes not used: their unit is not published and could not be settled "
                         f"on this drive ({why})")
        else:
            out.insert(0, CounterReading("nand_bytes_written", "media", entries[0xF4] * unit[0], "byte", 1,
                                         f"log 0xCA F4h NAND writes = {entries[0xF4]:,} x {unit[1]} (unit settled: "
                                         f"{why})"))
    return out


def _ca_raw(page: bytes, key: int) -> bytes | None:
    """The 6 raw bytes of a 0xCA entry, by key (the first entry of a key)."""
    for at in range(0, len(page) - 11, 12):
        if page[at] == key:
            return page[at + 5:at + 11]
    return None


def nvme_counters(snap: Snapshot, notes: list[str] | None = None) -> list[CounterReading]:
    """The finer counters an NVMe reading offers: media writes from the Endurance Group log or the OCP log (with
    the drive's endurance estimate), Intel's 0xCA NAND writes and erase counts, WDC's D0h NAND writes and Micron's
    E1h total erase count (drives/vendor_logs.py), host writes (Data Units Written)."""
    said: list[str] = notes if notes is not None else []
    found: dict[str, CounterReading] = {}
    for reading in (_eg_counter(snap), _ocp_counter(snap), *_ca_counters(snap, said),
                    *vendor_log_counters(snap, said)):
        if reading is not None and reading.source not in found:
            found[reading.source] = reading
    duw = snap.nvme.data_units_written if snap.nvme else None
    if duw is not None:
        found["host_bytes_written"] = CounterReading("host_bytes_written", "host", duw * NVME_DATA_UNIT_BYTES,
                                                     "byte", 1, f"NVMe Data Units Written = {duw:,} x 512,000 B")
    return list(found.values())


def storable(found: Sequence[CounterReading], warnings: list[str] | None = None) -> list[CounterReading]:
    """The counters as every layer can hold them (the history's signed 64-bit integers, counters.MAX_BYTES): no
    drive counts 2^63 of its units, so a count beyond is not the drive's wear (an Endurance Group's or OCP's 128-bit
    field of all ones, an Endurance Estimate of 2^63) and is dropped, a rating beyond is dropped from its counter,
    each with a warning. Applied where the counters are made, so that report, check, the exposition, `sample` and
    `start`'s baseline all see the same counters (the store refused the whole sample before)."""
    said = warnings if warnings is not None else []
    out = []
    for c in found:
        if not 0 <= c.value <= counters.MAX_BYTES:
            said.append(f"{c.detail}: more than any drive counts (at least 2^63 units: a field of all ones?); this "
                        "counter is not used")
            continue
        if c.rated is not None and not 0 < c.rated <= counters.MAX_BYTES:
            said.append(f"{c.rated_detail}: more than any drive is rated for (at least 2^63 units); {c.source} is "
                        "used without it")
            c = replace(c, rated=None, rated_detail="")
        out.append(c)
    return out


def finer_counters(snap: Snapshot, notes: list[str] | None = None, warnings: list[str] | None = None
                   ) -> list[CounterReading]:
    """Every finer counter of this reading that every layer can hold (storable), the ones that count wear first
    (rated, then media, then erase), host writes last."""
    found = nvme_counters(snap, notes) if snap.interface == "nvme" else \
        ata_counters(snap, warnings) if snap.interface == "ata" else []
    order = {"media": 1, "erase": 2, "host": 3}
    return sorted(storable(found, warnings), key=lambda c: (c.rated is None, order[c.kind]))


def attribute_reading(model: str | None, values: Mapping[int, tuple[int | None, int | None]],
                      names: Mapping[int, str] = {}, family: str | None = None,
                      power_on_hours: float | None = None) -> Snapshot:
    """ATA attributes read from anywhere (id -> (normalised, raw)) as a Snapshot the drive table evaluates: the
    drive-database names, where known (a live reading of the same drive), let the name-keyed counters count."""
    attrs = {i: Attribute(i, names.get(i, ""), norm, None, None, raw, "" if raw is None else str(raw))
             for i, (norm, raw) in values.items()}
    return known(Snapshot(source=model or "attributes", interface="ata", model=model, model_family=family,
                          rotation_rate=0, power_on_hours=power_on_hours, attributes=attrs))


def by_source(readings: Sequence[CounterReading], source: str) -> CounterReading | None:
    return next((r for r in readings if r.source == source), None)


# What each counter counts (the samples keep only its source and count).
SOURCE_KINDS: dict[str, CounterKind] = {
    "nand_bytes_written": "media", "nand_pages_written": "media", "average_erase_count": "erase",
    "nvme_media_units_written": "media", "ocp_physical_media_units_written": "media", "host_bytes_written": "host",
    "total_erase_count": "erase",
}


def stored_counter(source: str | None, value: int | None, rated: int | None) -> CounterReading | None:
    """A stored sample's counter as a reading of it (`plan --from SERIAL`: a drive known from its samples alone)."""
    kind = SOURCE_KINDS.get(source or "")
    if source is None or value is None or kind is None:
        return None
    return CounterReading(source, kind, value, "unit", None, f"{source} = {value:,} (stored sample)", rated)
