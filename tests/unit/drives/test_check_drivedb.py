"""tools/check_drivedb.py, which holds the drive table to smartmontools' drivedb.h (the file is GPL and not in this
repository: these entries are made up in its format, to check that the tool reads it as smartctl does)."""

from __future__ import annotations

from tools.check_drivedb import RESET_NOTE, cited, entries, first_match

MADE_UP = f'''
const drive_settings builtin_knowndrives[] = {{
 */
  {{ "DEFAULT",
    "-", "-",
    "Default settings",
    "-v 1,raw48,Raw_Read_Error_Rate "
  }},
  {{ "Acme Fixed Series SSDs", // fixed firmware
      // tested with ACME SSD100G2/2CV1J8
    "ACME SSD(100|200)G2.*",
    "2CV1(J[89]|[K-Z].)", // >= "2CV1J8"
    "",
    "-v 226,raw48,Workld_Media_Wear_Indic "
    "-v 228,raw48,Workload_Minutes " // {RESET_NOTE}
  }},
  {{ "Acme Fixed Series SSDs", // buggy firmware
    "ACME SSD(100|200)G2.*",
    "",
    "This drive may require a firmware update to\\n"
    "fix possible drive hangs.",
    "-v 226,raw48,Workld_Media_Wear_Indic"
  }},
  {{ "Acme \\"Quoted\\" SSDs",
    "ACME Q\\\\.1|" // a dot, escaped twice in C
    "ACME Q2",
    "", "", ""
  }}
}};
'''


def test_entries_are_read_as_smartctl_reads_them() -> None:
    db = entries(MADE_UP)
    assert [e.family for e in db] == ["DEFAULT", "Acme Fixed Series SSDs", "Acme Fixed Series SSDs",
                                      'Acme "Quoted" SSDs']
    fixed, buggy, quoted = db[1:]
    assert (fixed.line, fixed.model, fixed.firmware) == (9, "ACME SSD(100|200)G2.*", "2CV1(J[89]|[K-Z].)")
    assert RESET_NOTE in fixed.comments and RESET_NOTE not in buggy.comments
    assert fixed.presets == "-v 226,raw48,Workld_Media_Wear_Indic -v 228,raw48,Workload_Minutes "
    assert quoted.model == r"ACME Q\.1|ACME Q2"


def test_the_first_entry_that_matches_the_whole_strings_is_the_drives() -> None:
    db = entries(MADE_UP)
    assert first_match(db, "ACME SSD100G2GC", "2CV1J8") is db[1]
    assert first_match(db, "ACME SSD100G2GC", "2CV1HD") is db[2]
    assert first_match(db, "ACME Q.1", "") is db[3] and first_match(db, "ACME Qx1", "") is None
    assert first_match(db, "XACME SSD100G2", "2CV1J8") is None  # whole strings only


def test_a_source_cites_entries_by_name_and_line() -> None:
    assert cited("drivedb.h at f1d0da9ce 'Intel 710 Series SSDs', line 1652") == [("Intel 710 Series SSDs", 1652)]
    assert cited("'Intel 520 Series SSDs' (line 1692), 'Intel 525' (1716)") == [("Intel 520 Series SSDs", 1692)]
