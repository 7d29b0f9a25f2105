"""smartd's attribute log format (issue 20.5): the bytes as smartmontools' src/smartd.cpp writes them, and the file
names it gives them. The golden lines below are built with smartd.cpp's own printf formats (write_dev_attrlog,
write_ata_attrlog, write_scsi_attrlog, write_nvme_attrlog: the same in RELEASE_7_3, RELEASE_7_5 and master);
fixtures/smartd-qemu holds files the real smartd 7.3 wrote in the QEMU VM (tests/system/test_qemu.py reads more)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.paths import FIXTURES

from ssdwear.model.records import Attribute, Snapshot
from ssdwear.smartctl import smartd as fmt


def c_printf_ata(stamp: tuple[int, ...], attrs: list[tuple[int, int, int]]) -> bytes:
    """"%d-%02d-%02d %02d:%02d:%02d;" then "\\t%d;%d;%" PRIu64 ";" per attribute, then "\\n"."""
    # smartd.cpp's own format strings, kept in C's printf form on purpose
    line = "%d-%02d-%02d %02d:%02d:%02d;" % stamp + "".join("\t%d;%d;%d;" % a for a in attrs) + "\n"  # noqa: UP031
    return line.encode("ascii")


def test_an_ata_line_as_smartd_writes_it_is_read_exactly() -> None:
    raw = c_printf_ata((2026, 3, 29, 1, 59, 59), [(1, 100, 0), (9, 98, 12132), (194, 64, 0x002C0014001E),
                                                    (241, 99, (1 << 48) - 1)])
    assert raw == b"2026-03-29 01:59:59;\t1;100;0;\t9;98;12132;\t194;64;188979871774;\t241;99;281474976710655;\n"
    line = fmt.parse_line(raw.rstrip(b"\n"), "ata")
    assert isinstance(line, fmt.Line)
    assert line.stamp == "2026-03-29 01:59:59"
    assert line.ata == ((1, 100, 0), (9, 98, 12132), (194, 64, 188979871774), (241, 99, (1 << 48) - 1))


def test_a_line_without_attributes_is_a_line_with_none() -> None:
    line = fmt.parse_line(b"2026-03-29 01:59:59;", "ata")
    assert isinstance(line, fmt.Line) and line.ata == ()


def test_nvme_lines_of_smartmontools_7_5_map_to_the_smart_health_log() -> None:
    # write_nvme_attrlog: "\tcritical-warning;%d;\ttemperature;%d;..." with le128_to_uint64 values
    raw = (b"2025-05-01 10:00:00;\tcritical-warning;0;\ttemperature;-273;\tavailable-spare;100;"
           b"\tavailable-spare-threshold;10;\tpercentage-used;3;\tdata-units-read;900;\tdata-units-written;400;"
           b"\thost-reads;3600;\thost-writes;1600;\tcontroller-busy-time;12;\tpower-cycles;21;"
           b"\tpower-on-hours;20006;\tunsafe-shutdowns;5;\tmedia-errors;0;\tnum-err-log-entries;0;")
    line = fmt.parse_line(raw, "nvme")
    assert isinstance(line, fmt.Line)
    live = Snapshot(source="x", interface="nvme", model="M", serial="S")
    seen = fmt.line_snapshot(live, line, "nvme", fmt.line_hours(line, "nvme", None), "log")
    assert seen.nvme is not None and seen.power_on_hours == 20006
    assert (seen.nvme.percentage_used, seen.nvme.data_units_written, seen.nvme.temperature_celsius) == (3, 400, -273)


def test_scsi_lines_give_bytes_processed_and_no_clock() -> None:
    raw = (b"2025-05-01 10:00:00;\tread-corr-by-ecc-fast;0;\tread-corr-by-ecc-delayed;0;\tread-corr-by-retry;0;"
           b"\tread-total-err-corrected;0;\tread-corr-algorithm-invocations;0;\tread-gb-processed;1234.567;"
           b"\tread-total-unc-errors;0;\twrite-gb-processed;89.125;\twrite-total-unc-errors;2;\ttemperature;35;")
    line = fmt.parse_line(raw, "scsi")
    assert isinstance(line, fmt.Line)
    seen = fmt.line_snapshot(Snapshot(source="x", interface="scsi"), line, "scsi", None, "log")
    assert seen.scsi is not None and seen.scsi.bytes_written == 89_125_000_000 and seen.scsi.uncorrected_errors == 2
    assert fmt.line_hours(line, "scsi", None) is None


@pytest.mark.parametrize("raw, why", [
    (b"2026-03-29 01:59:59;\t1;100;0;\t9;98;12", "not in smartd's format"),  # cut mid-field
    (b"2026-03-29 01:59:59;\t1;100;0;\t9;982026-03-29 02:29:59;\t1;100;0;", "not in smartd's format"),  # glued
    (b"2026-13-29 01:59:59;\t1;100;0;", "impossible date"),
    (b"2026-03-29 01:59:59;\t1;100;0;\t1;99;0;", "an ID twice"),
    (b"2026-03-29 01:59:59;\t256;100;0;", "out of range"),
    (b"\x1b[2J2026-03-29 01:59:59;", "not in smartd's format"),
])
def test_lines_smartd_never_writes_are_refused_with_why(raw: bytes, why: str) -> None:
    result = fmt.parse_line(raw, "ata")
    assert isinstance(result, str) and why in result


def test_file_names_are_smartds_with_its_underscores() -> None:
    # not_allowed_in_filename: every byte but 0-9 A-Z a-z; ata_format_id_string trims the blanks around
    ata = Snapshot(source="x", interface="ata", model=" WDC  WDS500G2B0A-00SM50 ", serial="19010A80-0123")
    assert fmt.stems(ata) == ["WDC__WDS500G2B0A_00SM50-19010A80_0123.ata.csv"]
    assert fmt.name_part("Ünï") == "__n__"  # UTF-8 bytes, one '_' each, as smartd's char loop does
    nvme = Snapshot(source="x", interface="nvme", model="SAMSUNG MZQLB1T9HAJR-00007", serial="S436NA0M000777")
    assert fmt.stems(nvme) == ["SAMSUNG_MZQLB1T9HAJR_00007-S436NA0M000777.nvme.csv"]
    assert fmt.nvme_namespace_stem("M-S-n1.nvme.csv") == "M-S.nvme.csv"
    scsi = Snapshot(source="x", interface="scsi", model="SEAGATE ST4000NM0023", serial="Z1Z0ABCD")
    assert fmt.stems(scsi) == ["SEAGATE-ST4000NM0023-Z1Z0ABCD.scsi.csv"]
    assert fmt.stems(replace(ata, serial=None)) == []
    assert fmt.parse_name("attrlog.Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777A.ata.csv") == \
        fmt.LogName("ata", "Samsung_SSD_860_EVO_1TB", "S3Z9NB0K000777A")
    assert fmt.parse_name("attrlog.SEAGATE-ST4000NM0023-Z1Z0ABCD.scsi.csv") == \
        fmt.LogName("scsi", "SEAGATE_ST4000NM0023", "Z1Z0ABCD")


def _attr9(raw: int, string: str) -> Snapshot:
    return Snapshot(source="x", interface="ata", power_on_hours=12345.0,
                    attributes={9: Attribute(9, "Power_On_Hours", 98, 98, 0, raw, string)})


def test_attribute_9_is_decoded_as_the_live_drive_shows_it() -> None:
    assert fmt.poh_decoder(_attr9(12345, "12345"))[0] == "hours"  # type: ignore[index]
    msec = (432 << 32) | 12345  # smartctl -v 9,msec24hour32: hours in the low 32 bits
    name, decode = fmt.poh_decoder(_attr9(msec, "12345h+00m+00.432s"))  # type: ignore[misc]
    assert name.startswith("hours in the low 32 bits") and decode(msec + 7) == 12352
    assert fmt.poh_decoder(_attr9(12345 * 60, "12345"))[0] == "minutes"  # type: ignore[index]
    assert fmt.poh_decoder(_attr9(99, "99")) is None  # no layout gives the drive's hours: no clock


def test_the_real_smartd_73_wrote_what_the_parser_reads() -> None:
    """Files smartd 7.3 wrote in the QEMU VM (recorded by tests/system/test_qemu.py's run, copied here)."""
    logs = sorted((FIXTURES / "smartd-qemu").glob("*.ata.csv"))
    assert logs, "fixtures/smartd-qemu holds no attribute log"
    for path in logs:
        lines = path.read_bytes().split(b"\n")
        assert lines[-1] == b"" and len(lines) > 2
        for raw in lines[:-1]:
            line = fmt.parse_line(raw, "ata")
            assert isinstance(line, fmt.Line), (path.name, raw)
            assert 9 in {i for i, _, _ in line.ata}


def in_order(hours: list[float]) -> tuple[list[float], list[float]]:
    order: fmt.InOrder[float] = fmt.InOrder()
    kept = [h for x in hours for h in order.offer(x, x)]
    return kept + order.close(), order.dropped


def test_power_on_hours_that_leave_their_order_and_come_back_are_dropped() -> None:
    """Issue 26.2: down and back up (0 h between lines of 12,000 h), up and back down (a run of 50,000 h); a drive
    replaced (down, never back) is a break and is kept, as are hours that stay put for a while."""
    assert in_order([12_000, 12_001, 0, 0, 0, 12_002, 12_003]) == ([12_000, 12_001, 12_002, 12_003], [0, 0, 0])
    assert in_order([12_000, 50_000, 50_000, 12_001, 12_001]) == ([12_000, 12_001, 12_001], [50_000, 50_000])
    assert in_order([30_000, 30_001, 100, 101, 102]) == ([30_000, 30_001, 100, 101, 102], [])
    assert in_order([100, 100, 100, 101, 101]) == ([100, 100, 100, 101, 101], [])
    # at the end of a log the drive's reading now is the last word: offered, it drops a glitch before it
    assert in_order([12_000, 12_001, 0, 0, 12_132]) == ([12_000, 12_001, 12_132], [0, 0])
    long_run: list[float] = [12_000, *[0] * (fmt.GLITCH_LINES + 1), 12_001]  # longer than a glitch: a break, kept
    assert in_order(long_run)[1] == []


def test_power_on_hours_no_drive_can_have_are_the_live_parsers_rule() -> None:
    assert fmt.hours_problem(12_000) is None and fmt.hours_problem(0) is None
    for hours in (0xFFFFFFFFFFFF, 18_000_000, 9_000_000, -1):
        assert fmt.hours_problem(hours) == "power-on hours no drive can have"


def test_which_smartd_wrote_utc() -> None:
    """smartd's attribute logs: UTC up to 7.0, local time from 7.1 (e9d93a4be); an unknown release: not known."""
    assert [fmt.stamps_in_utc(v) for v in ("5.40", "6.6", "7.0", "7.1", "7.3", "7.5", "10.0")] == \
        [True, True, True, False, False, False, False]
    assert [fmt.stamps_in_utc(v) for v in (None, "pre-7.1", "pre-7.5", "7")] == [None] * 4


def test_a_control_character_is_one_underscore_as_smartd_writes_it() -> None:
    """smartd replaces the byte itself; the parser shows it as '\\x1b' (and a literal backslash is not escaped, so
    that text may be the drive's own: both names are candidates, the contents decide)."""
    assert fmt.name_parts("Samsung\\x1bSSD") == ["Samsung_SSD", "Samsung_x1bSSD"]
    assert fmt.name_parts("A\\u2028B") == ["A___B", "A_u2028B"]  # a character of 3 UTF-8 bytes
    assert fmt.name_parts("WDC WDS500G2B0A") == ["WDC_WDS500G2B0A"]
    ata = Snapshot(source="x", interface="ata", model="M\\x1b1", serial="S")
    assert fmt.stems(ata) == ["M_1-S.ata.csv", "M_x1b1-S.ata.csv"]
