"""Where the tests find the repository, its recorded fixtures and the fake smartctl."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
FAKE_SMARTCTL = Path(__file__).resolve().parent / "fake_smartctl.py"
# Real smartctl outputs with their hand-read values (MANIFEST.md) and origins (SOURCES.md), kept in the
# repository so that the suite runs from any clone. A missing corpus fails the tests that read it.
CORPUS = FIXTURES / "corpus"
CORPUS_MANIFEST = CORPUS / "MANIFEST.md"
