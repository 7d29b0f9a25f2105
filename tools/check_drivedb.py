"""Check the drive table against smartmontools' drive database: `python3 -m tools.check_drivedb DRIVEDB_H`.

DRIVEDB_H is a copy of drivedb/drivedb.h at the revision the table cites (f1d0da9ce; github.com/smartmontools/
smartmontools). Its entries are read as smartctl reads them (family, model regex, firmware regex, warning, presets;
C string literals, adjacent ones joined), and the table is held to them:

- every entry a row's or a reset's source cites by name and line stands at that line, under that name;
- the timed-workload resets (drives/intel.py SATA_RESETS) are exactly the entries whose presets' comments say
  "226,227,228 can be reset by 'smartctl -t vendor,0x40'", each with that entry's model and firmware expressions
  (the one reset documented elsewhere, the DC S3710's datasheet, uses the model expression of the entry it cites);
- every model string an Intel entry's comments say it was "tested with" gets the reset from ssdwear exactly when the
  first entry that matches it (drivedb.h's own first-match rule, on the tested firmware where the comment gives one)
  carries the reset note.

Prints what it checked and every disagreement; exits 1 on any. The database is GPL-licensed and is not copied into
this repository: the tests check the parser on made-up entries (tests/unit/drives/test_check_drivedb.py).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

RESET_NOTE = "226,227,228 can be reset by 'smartctl -t vendor,0x40'"


@dataclass(frozen=True)
class Entry:
    line: int  # where its '{' stands (1-based)
    family: str
    model: str
    firmware: str
    presets: str
    comments: str  # every // comment inside the entry, joined


def _literal(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _fields(body: str) -> tuple[list[str], str]:
    """The entry's fields (adjacent string literals joined) and its comments."""
    fields, comments, current, i = [""], [], [], 0
    while i < len(body):
        c = body[i]
        if body.startswith("//", i):
            end = body.find("\n", i)
            end = len(body) if end < 0 else end
            comments.append(body[i + 2:end].strip())
            i = end
        elif body.startswith("/*", i):
            end = body.find("*/", i)
            i = len(body) if end < 0 else end + 2
        elif c == '"':
            j = i + 1
            while body[j] != '"':
                j += 2 if body[j] == "\\" else 1
            current.append(_literal(body[i + 1:j]))
            i = j + 1
        elif c == ",":
            fields[-1] = "".join(current)
            fields.append("")
            current = []
            i += 1
        else:
            i += 1
    fields[-1] = "".join(current) if current else fields[-1]
    return fields, " ".join(comments)


def entries(text: str) -> list[Entry]:
    """The database's entries in order (the DEFAULT and VERSION pseudo-entries included, USB ones too)."""
    found = []
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        if re.match(r"\s*\{ \"", lines[i]):
            start = i
            while not re.match(r"\s*\},?\s*(//.*)?$", lines[i]):
                i += 1
            body = "".join(lines[start:i + 1]).strip()
            fields, comments = _fields(body[1:body.rindex("}")])
            fields += [""] * (5 - len(fields))
            found.append(Entry(start + 1, fields[0], fields[1], fields[2], fields[4], comments))
        i += 1
    return found


def first_match(db: list[Entry], model: str, firmware: str) -> Entry | None:
    """The entry smartctl uses for a drive: the first whose model (and firmware, if it has one) match whole."""
    for e in db:
        if e.family.startswith(("USB:", "$", "VERSION", "DEFAULT")) or e.model in ("", "-"):
            continue
        if re.fullmatch(e.model, model) and (not e.firmware or re.fullmatch(e.firmware, firmware)):
            return e
    return None


_CITED = re.compile(r"'([^']+)'(?: \([^)]*\))?, line (\d+)|'([^']+)' \(line (\d+)\)")


def cited(source: str) -> list[tuple[str, int]]:
    """The (entry name, line) pairs a row's or a reset's source cites."""
    return [(m.group(1) or m.group(3), int(m.group(2) or m.group(4))) for m in _CITED.finditer(source)]


def _tested(entry: Entry) -> list[tuple[str, str]]:
    """(model, firmware) pairs the entry's comments say it was tested with: 'INTEL SSDSA2CT040G3/4PC10362'."""
    pairs = []
    for item in re.split(r",|\btested with\b|\band\b|;", entry.comments):
        m = re.fullmatch(r"\s*((?:INTEL |SOLIDIGM )?[A-Z0-9][A-Z0-9 .-]*?)(?:/(\S+))?\s*(\(.*)?", item.strip())
        if not m or not re.search(r"\d", m.group(1)):
            continue
        for model in (m.group(1).strip(), f"INTEL {m.group(1).strip()}"):  # comments often drop the prefix
            if re.fullmatch(entry.model, model):
                pairs.append((model, m.group(2) or ""))
                break
    return pairs


def check(db: list[Entry]) -> list[str]:
    from ssdwear.drives import families, intel, timed
    from ssdwear.model.records import Snapshot

    wrong: list[str] = []
    at = {e.line: e for e in db}
    rows = [*families.FAMILIES, families.GENERIC]
    sources = [r.source for r in rows] + [reset.source for reset in intel.SATA_RESETS]
    for name, line in (pair for source in sources for pair in cited(source)):
        entry = at.get(line)
        if entry is None or not entry.family.startswith(name.rstrip(".")):
            wrong.append(f"cited '{name}', line {line}: that line holds {entry.family if entry else 'no entry'}")
    noted = {e.line: e for e in db if RESET_NOTE in e.comments}
    documented = {}
    for reset in intel.SATA_RESETS:
        (name, line), *_ = cited(reset.source) or [("", 0)]
        entry = at.get(line)
        if entry is None:
            wrong.append(f"reset {reset.name!r} cites no entry")
            continue
        if entry.model != reset.model or (entry.firmware or None) != reset.firmware:
            wrong.append(f"reset {reset.name!r}: /{reset.model}/ fw /{reset.firmware}/ is not line {line}'s "
                         f"/{entry.model}/ fw /{entry.firmware}/")
        if line in noted:
            documented[line] = reset
        elif "datasheet" not in reset.source:
            wrong.append(f"reset {reset.name!r}: line {line}'s entry has no reset note")
    wrong += [f"line {line} ({e.family}) has the reset note, but no reset of the table is it"
              for line, e in noted.items() if line not in documented]
    tried = 0
    for entry in (e for e in db if "Intel" in e.family or "Solidigm" in e.family):
        for model, firmware in _tested(entry):
            tried += 1
            first = first_match(db, model, firmware)
            expected = first is not None and RESET_NOTE in first.comments
            snap = families.known(Snapshot(source=model, interface="ata", model=model, firmware=firmware or None,
                                           rotation_rate=0))
            if (timed.documented_reset(snap) is not None) != expected:
                wrong.append(f"{model}/{firmware}: drivedb.h's first match is {first.family if first else None!r} "
                             f"(reset note: {expected}), ssdwear's guard says the opposite")
    print(f"{len(db)} entries; {len(noted)} with the reset note; {len(sources)} sources checked; {tried} tested "
          "model strings of Intel entries matched both ways")
    return wrong


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m tools.check_drivedb DRIVEDB_H", file=sys.stderr)
        return 2
    wrong = check(entries(Path(argv[0]).read_text(encoding="utf-8", errors="replace")))
    for line in wrong:
        print(line)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
