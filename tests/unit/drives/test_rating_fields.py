"""One field table for ratings (issue 27.4): the config's `ratings` and the catalogue (ratings.yaml) are read by the
same fields (drives/ratings.py RATING_FIELDS: the config's keys and the catalogue's for each Rating attribute, with
its kind and limits) and held to the same rules (rating_problem). The two readers validated twice, with two sets of
keys: the config took a tbw beside a dwpd (using the tbw) where the catalogue refused the entry, and the catalogue
took figures outside the limits the config enforces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ssdwear.drives.ratings import CATALOGUE_JSON, RATING_FIELDS, CatalogueError, _entries
from ssdwear.host import config as config_mod
from ssdwear.model.errors import ConfigError


def _config(tmp_path: Path, entry: str) -> config_mod.Config:
    path = tmp_path / "c.yaml"
    path.write_text(f"ratings:\n  - {entry}\n")
    path.chmod(0o600)
    return config_mod.load([path])


def _catalogue(entry: dict[str, Any]) -> Any:
    doc = json.loads(CATALOGUE_JSON.read_text(encoding="utf-8"))
    return _entries({**doc, "ratings": [entry], "unrated": []}, check_patterns=True)[0]


SOURCE = {"title": "a made-up source", "url": "https://example.com", "date": "n/d", "kind": "vendor-doc"}


def test_both_readers_read_every_field_by_the_table(tmp_path: Path) -> None:
    from_config = _config(tmp_path, "{model: ACME 1, tbw: 1.5 PB, capacity: 1.92 TB, nand: 2 TiB, "
                                    "workload: 4k-random}").ratings[0]
    from_catalogue = _catalogue({"model": "ACME 1", "tbw_bytes": 1.5e15, "capacity_bytes": 1.92e12,
                                 "nand_bytes": 2**41, "workload": "4 KB random writes", "vendor": "ACME",
                                 "family": "One", "source": SOURCE})
    shared = [f.attr for f in RATING_FIELDS if f.config and f.catalogue]
    assert {"model", "bytes", "nominal_capacity_bytes", "nand_bytes", "workload"} <= set(shared)
    for attr in shared:
        assert getattr(from_config, attr) == getattr(from_catalogue, attr), attr
    assert all(hasattr(from_config, f.attr) for f in RATING_FIELDS)


@pytest.mark.parametrize("config,catalogue,said", [
    ("{model: X, tbw: 1 PB, dwpd: 3, warranty_years: 5}", {"tbw_bytes": 1e15, "dwpd": 3, "warranty_years": 5},
     "needs '{tbw}' (e.g. 1.5 PB), both 'dwpd' and 'warranty_years'"),
    ("{model: X, dwpd: 3}", {"dwpd": 3}, "both 'dwpd' and 'warranty_years'"),
    ("{model: X, tbw_low: 60 TB, tbw_high: 5 TB}", {"tbw_bytes_range": {"low": 6e13, "high": 5e12, "scope": "s"}},
     "must be below {tbw_high}"),
    ("{model: X, tbw: 1 PB, capacity: 200 GB, nand: 100 GB}", {"tbw_bytes": 1e15, "capacity_bytes": 2e11,
                                                              "nand_bytes": 1e11}, "more NAND than capacity"),
])
def test_the_config_and_the_catalogue_are_held_to_the_same_rules(tmp_path: Path, config: str,
                                                                 catalogue: dict[str, Any], said: str) -> None:
    with pytest.raises(ConfigError) as from_config:
        _config(tmp_path, config)
    keys = {"tbw": "tbw", "tbw_high": "tbw_high"}
    assert said.format(**keys) in str(from_config.value)
    with pytest.raises(CatalogueError) as from_catalogue:
        _catalogue({"model": "X", "vendor": "ACME", "family": "One", "source": SOURCE, **catalogue})
    catalogue_keys = {"tbw": "tbw_bytes", "tbw_high": "tbw_bytes_range.high"}
    assert said.format(**catalogue_keys).replace("'capacity'", "'capacity_bytes'") in str(from_catalogue.value)


def test_the_catalogue_is_held_to_the_configs_limits() -> None:
    with pytest.raises(CatalogueError, match="a rating in bytes written"):
        _catalogue({"model": "X", "vendor": "ACME", "family": "One", "source": SOURCE, "tbw_bytes": 5e9})
