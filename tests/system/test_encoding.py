"""No output crashes on encoding: the real CLI in a subprocess under non-UTF-8 locales, reading a drive whose
model and serial hold characters beyond Latin-1 (a copy of fixtures/intel edited in the test's directory).

JSON and YAML stay valid documents that decode to the same strings (ASCII, with their own escapes); the
Prometheus exposition is UTF-8 whatever the locale (its format); tables and text get ASCII spellings (`>=` for
`≥`, `+`/`-`/`|` boxes, `#` chart bars) for what the stream cannot encode."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support.docs import section
from support.paths import FIXTURES, ROOT

SERIAL = "S3Z9NB0K\u4e2d\u2265X"  # a CJK character and '≥': neither is in Latin-1
MODEL = "Samsung SSD 860 EVO 1TB \u2014\u00e9"  # an em dash (not Latin-1) and an e acute (Latin-1)
LOCALES = {
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
    "ascii": {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"},
    "iso-8859-1 locale": {"LANG": "en_US.ISO-8859-1", "LC_ALL": "en_US.ISO-8859-1"},
}


@pytest.fixture
def machine(tmp_path: Path) -> Path:
    """fixtures/intel with /dev/sdd's model and serial replaced (its -i and -x recordings)."""
    folder = tmp_path / "intel"
    shutil.copytree(FIXTURES / "intel", folder)
    for path in folder.glob("*_dev_sdd*.out"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("S3Z9NB0K000000X", SERIAL).replace("Samsung SSD 860 EVO 1TB", MODEL),
                        encoding="utf-8")
    assert SERIAL in (folder / "smartctl --json=c -x -n standby -d sat _dev_sdd.out").read_text(encoding="utf-8")
    return folder


def ssdwear(args: list[str], locale: dict[str, str], columns: str | None = "200") -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG", "COLUMNS")}
    env.update(locale, PYTHONPATH=str(ROOT))
    if columns:
        env["COLUMNS"] = columns
    proc = subprocess.run([sys.executable, "-m", "ssdwear", *args], capture_output=True, timeout=60, env=env)
    err = proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err and "Encode" not in err, err
    return proc


def encoding_of(locale: dict[str, str]) -> str:
    code = "import sys; print(sys.stdout.encoding)"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANG")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**env, **locale},
                          check=True).stdout.strip()


@pytest.mark.parametrize("name", sorted(LOCALES))
def test_documents_stay_valid_and_lossless(machine: Path, name: str) -> None:
    locale = LOCALES[name]
    for fmt, load in (("json", json.loads), ("yaml", yaml.safe_load)):
        proc = ssdwear(["--replay", str(machine), "report", "--format", fmt], locale)
        assert proc.returncode == 0, proc.stderr
        encoding = encoding_of(locale)
        text = proc.stdout.decode("ascii") if not encoding.startswith("utf") else proc.stdout.decode("utf-8")
        drives = {d["device"]: d for d in load(text)["drives"]}
        assert drives["/dev/sdd"]["serial"] == SERIAL and drives["/dev/sdd"]["model"] == MODEL
    proc = ssdwear(["--replay", str(machine), "report", "--format", "prometheus"], locale)
    assert proc.returncode == 0 and f'serial="{SERIAL}"' in proc.stdout.decode("utf-8")


@pytest.mark.parametrize("name", ["latin-1", "ascii"])
def test_text_falls_back_to_ascii_spellings(machine: Path, name: str, tmp_path: Path) -> None:
    locale = LOCALES[name]
    encoding = "latin-1" if name == "latin-1" else "ascii"
    assert encoding_of(locale) in ("iso8859-1", "ascii")
    shown = "S3Z9NB0K\\u4e2d>=X"  # the serial as printed: an escape for the CJK character, >= for ≥
    model = "Samsung SSD 860 EVO 1TB -" + ("\u00e9" if name == "latin-1" else "\\xe9")
    for columns in ("200", None):  # the table, and the blocks of cron mail
        proc = ssdwear(["--replay", str(machine), "report"], locale, columns)
        out = proc.stdout.decode(encoding)
        assert proc.returncode == 0 and shown in out and model in out
        if columns:
            assert out.startswith("+---") and "| Drive " in out
    verdict = ssdwear(["--replay", str(machine), "retire-check", "/dev/sdd", "-d", "sat"], locale)
    assert verdict.returncode == 0 and verdict.stdout.decode(encoding).startswith(f"KEEP: {model} [{shown}]")
    check = ssdwear(["--replay", str(machine), "check"], locale)
    assert check.returncode == 2 and shown in check.stdout.decode(encoding)
    db = str(tmp_path / "h.db")
    assert ssdwear(["--replay", str(machine), "--db", db, "sample"], {}).returncode == 0
    chart = ssdwear(["--db", db, "history", "/dev/sdd"], locale)
    out = chart.stdout.decode(encoding)
    assert chart.returncode == 0 and out.startswith(f"{model} [{shown}]: 1 sample") and " |#" in out and " +---" in out
    failed = ssdwear(["--replay", str(machine), "history", SERIAL], locale)  # a message on stderr
    assert failed.returncode != 0 and failed.stderr.decode(encoding).startswith("ssdwear: ")


def test_utf8_output_is_unchanged(machine: Path) -> None:
    """Under UTF-8 every character is printed as it is (the docs' example outputs pin the rest)."""
    locale = {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
    doc = ssdwear(["--replay", str(machine), "report", "--format", "json"], locale).stdout.decode("utf-8")
    assert f'"serial": "{SERIAL}"' in doc
    table = ssdwear(["--replay", str(machine), "report"], locale).stdout.decode("utf-8")
    assert SERIAL in table and MODEL in table and table.startswith("┏━")


def test_every_character_ssdwear_prints_has_an_ascii_spelling() -> None:
    """What ssdwear itself writes beyond ASCII (its sources and its catalogue) reads as ASCII, never as escapes."""
    from ssdwear.render.streams import ASCII_SPELLINGS, fit

    package = ROOT / "ssdwear"
    text = "".join(p.read_text(encoding="utf-8") for p in [*package.rglob("*.py"), package / "drives" / "ratings.yaml"])
    beyond = sorted({c for c in text if ord(c) > 127})
    assert beyond and [c for c in beyond if c not in ASCII_SPELLINGS] == []

    class Ascii:
        encoding = "ascii"

    assert fit("≥ 255 % – █│└─ 中", Ascii()) == ">= 255 % - #|+- \\u4e2d"


def test_under_lc_all_c_python_writes_utf8_unless_told_not_to(machine: Path) -> None:
    """docs/reports.md's 'Any locale': under LC_ALL=C (and POSIX, and a locale that is not installed) Python 3.7+
    runs in UTF-8 mode, so the table is printed in UTF-8 as under a UTF-8 locale; PYTHONUTF8=0 gets the C locale's
    ASCII, and ASCII spellings. The page says both."""
    for locale in ({"LC_ALL": "C"}, {"LC_ALL": "POSIX"}, {"LANG": "xx_NO.NOT-INSTALLED"}):
        assert encoding_of(locale) == "utf-8", locale
        table = ssdwear(["--replay", str(machine), "report"], locale).stdout.decode("utf-8")
        assert table.startswith("┏━") and SERIAL in table and "≥" in table, locale
    ascii_ = {"LC_ALL": "C", "PYTHONUTF8": "0"}
    assert encoding_of(ascii_) == "ascii"
    table = ssdwear(["--replay", str(machine), "report"], ascii_).stdout.decode("ascii")
    assert table.startswith("+---") and "S3Z9NB0K\\u4e2d>=X" in table
    said = " ".join(section(ROOT / "docs" / "reports.md", "Any locale").split())
    assert "under `LC_ALL=C` or `POSIX`" in said and "runs in its UTF-8 mode and writes UTF-8" in said
    assert "`PYTHONUTF8=0` gets the C locale's ASCII" in said and "`LC_ALL=C` with ASCII" not in said
