"""The ratings catalogue (ssdwear/ratings.yaml) and the spare-area model, which `plan` rests on."""

from __future__ import annotations

import math
import random
import re

import pytest
import yaml
from conftest import CORPUS, ROOT

from ssdwear import spare
from ssdwear.ratings import (
    CATALOGUE_FILE,
    SOURCE_KINDS,
    CatalogueError,
    Rating,
    catalogue,
    find_rating,
    load_catalogue,
)
from ssdwear.records import Snapshot

# -- the catalogue --------------------------------------------------------------------------------------------


RAW = yaml.safe_load(CATALOGUE_FILE.read_text(encoding="utf-8"))


def entries() -> list[dict]:
    return RAW["ratings"] + RAW["unrated"]


def test_the_catalogue_counts() -> None:
    rated, unrated = RAW["ratings"], RAW["unrated"]
    assert (len(rated), len(unrated)) == (79, 6)
    assert sum(1 for e in rated if e["model_verified"]) == 44
    assert len(catalogue()) == 85 and sum(1 for r in catalogue() if r.verified) == 50


@pytest.mark.parametrize("entry", entries(), ids=lambda e: e["model"])
def test_every_entry_is_sourced_anchored_and_positive(entry: dict) -> None:
    source = entry["source"]
    assert source["title"] and source["date"] and source["kind"] in SOURCE_KINDS
    assert re.match(r"https?://", source["url"])
    pattern = entry["model"]
    re.compile(pattern)
    assert pattern.startswith("^") and pattern.endswith("$"), "match the whole model string"
    assert entry["capacity_bytes"] > 0 and entry["vendor"] and entry["family"]
    assert entry["interface"] in ("sata", "nvme", "sas") and entry["class"] in ("datacenter", "client")
    assert isinstance(entry["model_verified"], bool)
    if entry in RAW["ratings"]:
        assert ("tbw_bytes" in entry) != ("dwpd" in entry)
        assert entry.get("tbw_bytes", 1) > 0 and entry.get("dwpd", 1) > 0
        if "dwpd" in entry:
            assert entry["warranty_years"] > 0
        assert entry["workload"] and entry["figure"]
    else:
        assert "tbw_bytes" not in entry and "dwpd" not in entry and "not found" in entry["missing"]
    if "nand_bytes" in entry:
        assert entry["nand_bytes"] > entry["capacity_bytes"] + entry.get("reserved_bytes", 0)
    if "spare_area" in entry:
        assert entry["spare_area"]["tbw_bytes"] > entry["tbw_bytes"] and 0 < entry["spare_area"]["percent"] < 100


def test_model_patterns_overlap_nowhere() -> None:
    """Each entry's own part number is matched by that entry alone."""
    def sample(pattern: str) -> str:
        rx = pattern.lstrip("^").rstrip("$")
        rx = re.sub(r"\[A-Z0-9\]\{0,4\}|\(-\[0-9A-Z\][^)]*\)\?", "", rx)  # OEM suffixes
        rx = re.sub(r"\(([^()|]*)\|[^()]*\)\??", r"\1", rx)  # the first alternative
        rx = re.sub(r"\([^()]*\)\?", "", rx)  # optional groups
        rx = re.sub(r"\[([^\]])[^\]]*\]", r"\1", rx)  # a class's first character
        return rx.replace(" +", " ").replace(" ?", " ").replace("/?", "/").replace("\\", "")

    patterns = [e["model"] for e in entries()]
    for pattern in patterns:
        text = sample(pattern)
        hits = [p for p in patterns if re.search(p, text, re.I)]
        assert hits == [pattern], (text, hits)


def test_models_seen_in_real_outputs_match_their_entry() -> None:
    from ssdwear.analyze import load

    seen = [e for e in entries() if "model_seen" in e]
    assert len(seen) == 15
    for e in seen:
        assert e["model_verified"] is True
        snap = load(ROOT / e["model_seen"])
        assert re.search(e["model"], snap.model, re.I), (e["model"], snap.model)
        assert snap.capacity_bytes <= e["capacity_bytes"] * 1.02


def test_no_rating_attaches_to_a_corpus_drive_it_does_not_fit() -> None:
    """Across the real outputs: every rating that attaches comes from a verified entry of at least the drive's
    capacity, and no unverified pattern matches a real drive of another capacity."""
    from ssdwear.analyze import load

    by_model = {r.model: r for r in catalogue()}
    for path in sorted(CORPUS.glob("*")):
        if path.suffix == ".md":
            continue
        try:
            snap = load(path)
        except Exception:
            continue
        for r in catalogue():
            if r.model and re.search(r.model, snap.model or "", re.I) and snap.capacity_bytes:
                assert snap.capacity_bytes <= (r.nominal_capacity_bytes or 0) * 1.02, (path.name, r.model)
        found = find_rating(snap)
        if found is not None:
            assert found.source.startswith("built-in: ")
            assert any(r.verified and found.source == f"built-in: {r.note}" for r in by_model.values()), found


def test_unverified_entries_never_attach_to_a_drive() -> None:
    p4500 = Snapshot(source="x", model="INTEL SSDPE2KX010T7", capacity_bytes=1_000_204_886_016)
    assert find_rating(p4500) is None
    assert any(r.model and re.search(r.model, "INTEL SSDPE2KX010T7") and not r.verified for r in catalogue())


def test_find_rating_keeps_its_rules() -> None:
    def snap(model: str, capacity: int | None = None, serial: str = "S") -> Snapshot:
        return Snapshot(source="x", model=model, capacity_bytes=capacity, serial=serial)

    assert find_rating(snap("INTEL SSDSA2BZ200G3", 200_049_647_616)).bytes == 10**15
    shrunk = find_rating(snap("INTEL SSDSA2BZ200G3", 160_000_000_000))  # user capacity shows the spare area
    assert shrunk is not None and shrunk.bytes == 1.5e15 and "extra spare area" in shrunk.source
    assert find_rating(snap("SSDSA2SH032G1GN INTEL")).bytes == 10**15  # the X25-E puts INTEL last
    assert find_rating(snap("Samsung SSD 860 EVO 1TB", 1_000_204_886_016)).bytes == 600e12
    assert find_rating(snap("Samsung SSD 860 EVO 1TB", 2_000_398_934_016)) is None  # larger than the model: wrong
    assert find_rating(snap("Samsung SSD 860 EVO 1TB (INTEL SSDSA2BZ200G3)")) is None  # whole strings only
    assert find_rating(snap("INTEL SSDSC2BA200G3", 200_049_647_616)).bytes == 10 * 200e9 * 365 * 5
    config = (Rating(bytes=7 * 10**15, note="mine", model="SSDSA2BZ200G3"),)
    assert find_rating(snap("INTEL SSDSA2BZ200G3"), config).bytes == 7 * 10**15  # the config wins


def test_a_broken_catalogue_is_refused() -> None:
    good = CATALOGUE_FILE.read_text(encoding="utf-8")
    assert len(load_catalogue(good)) == 85
    for bad in (good.replace("schema: 1", "schema: 2"),
                good.replace("tbw_bytes: 500000000000000\n", "tbw_bytes: -5\n", 1),
                good.replace("model: '^(INTEL )?SSDSA2BZ100G3", "model: '^(INTEL SSDSA2BZ100G3", 1)):
        with pytest.raises(CatalogueError):
            load_catalogue(bad)


# -- the spare-area model -------------------------------------------------------------------------------------


def test_lambert_w() -> None:
    for x in (-math.exp(-1), -0.3678, -0.3, -0.1, -1e-9, 0.0, 1e-9, 0.5, 1.0, math.e, 10.0, 1e6):
        w = spare.lambert_w0(x)
        assert abs(w * math.exp(w) - x) <= 1e-12 * max(1.0, abs(x)) and w >= -1
    assert spare.lambert_w0(1.0) == pytest.approx(0.5671432904097838, abs=1e-15)  # the omega constant
    with pytest.raises(ValueError):
        spare.lambert_w0(-0.5)


def test_write_amplification_published_value_and_shape() -> None:
    """Xiang & Kurkoski (arXiv:1110.4245): over-provisioning factor 0.3 gives WA 2.36 (simulated: 2.35)."""
    assert spare.write_amplification(1.3) == pytest.approx(2.36, abs=0.005)
    was = [spare.write_amplification(1 + i / 40) for i in range(1, 400)]
    assert all(a > b for a, b in zip(was, was[1:]))  # more spare, less write amplification
    assert spare.write_amplification(1.001) > 500 and spare.write_amplification(10) < 1.0002
    with pytest.raises(ValueError):
        spare.write_amplification(1.0)
    assert spare.endurance_gain(1.5, 0.0) == 1.0 and spare.endurance_gain(1.5, 0.5) > spare.endurance_gain(1.5, 0.2)


def simulate_greedy(alpha: float, blocks: int, pages: int, seed: int = 1) -> float:
    """Write amplification of a page-mapped drive with greedy garbage collection under uniform random writes."""
    rng = random.Random(seed)
    user = int(blocks * pages / alpha)
    valid = [0] * blocks
    owner = [[-1] * pages for _ in range(blocks)]
    where = [(-1, -1)] * user
    buckets: list[set[int]] = [set() for _ in range(pages + 1)]
    free = list(range(blocks))
    state = {"open": free.pop(), "fill": 0, "nand": 0}

    def program(lpn: int) -> None:
        if state["fill"] == pages:
            buckets[valid[state["open"]]].add(state["open"])
            state["open"], state["fill"] = free.pop(), 0
        old, slot = where[lpn]
        if old >= 0:
            owner[old][slot] = -1
            if old != state["open"]:
                buckets[valid[old]].discard(old)
                valid[old] -= 1
                buckets[valid[old]].add(old)
            else:
                valid[old] -= 1
        block = state["open"]
        owner[block][state["fill"]] = lpn
        where[lpn] = (block, state["fill"])
        valid[block] += 1
        state["fill"] += 1
        state["nand"] += 1

    def collect() -> None:
        victim = next(iter(buckets[next(v for v in range(pages + 1) if buckets[v])]))
        buckets[valid[victim]].discard(victim)
        live = [lpn for lpn in owner[victim] if lpn >= 0]
        owner[victim], valid[victim] = [-1] * pages, 0
        for lpn in live:
            where[lpn] = (-1, -1)
        free.append(victim)
        for lpn in live:
            program(lpn)

    for lpn in range(user):
        while not free and state["fill"] == pages:
            collect()
        program(lpn)
    start = 0
    for i in range(3 * user):
        if i == 2 * user:
            start = state["nand"]
        while not free:
            collect()
        program(rng.randrange(user))
    return (state["nand"] - start) / user


@pytest.mark.parametrize("alpha", [1.3, 1.718])
def test_write_amplification_against_a_simulation(alpha: float) -> None:
    simulated = simulate_greedy(alpha, blocks=256, pages=128)
    assert simulated == pytest.approx(spare.write_amplification(alpha), rel=0.03)
