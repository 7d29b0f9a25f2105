"""Every command's JSON/YAML document is built in render/documents.py (each drive's entry in model/schema.py, which
DriveReport.to_dict() needs below render), with one rounding, schema.rounded (issue 18.2: plan and status had their
own)."""

from __future__ import annotations

import ast
import math

from support.paths import ROOT

from ssdwear.model.schema import rounded

HOMES = {"ssdwear/model/schema.py", "ssdwear/render/documents.py"}
# Named like builders but not ones: the record's delegate to schema, writing a document out, reading input data.
NOT_BUILDERS = {"ssdwear/model/records.py to_dict", "ssdwear/cli/app.py emit_doc",
                "ssdwear/drives/ratings.py catalogue_doc", "ssdwear/wear/forecast.py from_dict"}


def test_rounded() -> None:
    assert rounded(None, 2) is None and rounded(math.nan, 2) is None and rounded(math.inf, 0) is None
    assert rounded(2.345678, 2) == 2.35 and isinstance(rounded(3.0, 2), float)
    whole = rounded(2.0**60 + 0.4, 0)  # bytes: an integer at any size
    assert isinstance(whole, int) and whole == 2**60


def test_documents_are_built_in_their_two_homes_only() -> None:
    """No function outside them is named as a document builder (*_dict, *_doc, to_dict)."""
    builders = []
    for path in sorted((ROOT / "ssdwear").rglob("*.py")):
        name = str(path.relative_to(ROOT))
        if name in HOMES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and (node.name.endswith(("_dict", "_doc")) or node.name == "to_dict"):
                builders.append(f"{name} {node.name}")
    assert set(builders) == NOT_BUILDERS, builders
