"""Verdicts and figures on real drives never seen here (issue 26, items 9-16): each case an edited copy of a corpus
output (fixtures/edited/, made by tools/make_edited.py; every folder's README names the source, its licence and
the edit), run through the commands."""

from __future__ import annotations

from support.edited import EDITED, analyze

from ssdwear.smartctl.parse import parse_output

# ------------------------------------------------------------------------------------------------
# 26.13: a whole last row is whole


def test_a_whole_last_row_without_a_line_end_is_read_and_not_called_cut_off() -> None:
    for name in ("intel-ssdsc2kb480g8-ends-after-243.txt", "intel-ssdsc2kb480g8-ends-after-243-newline.txt"):
        path = EDITED / "last-row" / name
        snap = parse_output(path.read_bytes(), name)
        assert not snap.truncated and snap.parse_notes == (), snap.parse_notes
        a243 = snap.attr(243)
        assert a243 is not None and a243.raw == 57989
        drive = analyze(path)[0]
        assert not any("cut off" in w for w in drive["warnings"]), drive["warnings"]
        # 243 NAND_Writes_32MiB: 57,989 x 32 MiB, the NAND writes beside 241's 7,154 x 32 MiB of host writes
        assert drive["writes"]["nand_bytes_written"] == 57989 * 32 * 2**20
        assert drive["writes"]["write_amplification"] == round(57989 / 7154, 2)
        assert drive["window"]["valid"], drive["window"]  # whole rows: the timed window stands


def test_a_brief_table_without_its_legend_keeps_its_whole_last_row_but_is_cut_off() -> None:
    drive = analyze(EDITED / "last-row" / "mx500-ends-after-248.txt")[0]
    assert not any("no line end" in n for n in drive["notes"]), drive["notes"]
    assert any("output ends inside the SMART attribute table" in n for n in drive["notes"])
    pages = next(c for c in drive["counters"] if c["source"] == "nand_pages_written")
    assert pages["value"] == 14668320527 + 27569058731  # 247 + 248 FTL_Program_Page_Count, kept


def test_a_last_row_cut_inside_its_columns_or_its_brackets_is_still_dropped() -> None:
    source = (EDITED / "last-row" / "mx500-ends-after-248.txt").read_text(encoding="utf-8")
    head = source[:source.index("194 Temperature_Celsius")]
    for cut in ("194 Temperature_Celsius     -O---K   062   034   000    -    38 (Min/Max 0/6",
                "194 Temperature_Celsius     -O---K   062   0"):
        snap = parse_output(head + cut, "cut.txt")
        assert snap.truncated and snap.attr(194) is None
        assert any("cut mid-row; the row was dropped" in n for n in snap.parse_notes)
