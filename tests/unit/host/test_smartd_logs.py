"""smartd's attribute logs on this machine (issue 20.2): found by smartd's names, never through a link, as root only
root's files, read streaming and bounded, every line checked and the bad ones counted; timestamps in local time."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.clock import in_time_zone
from support.paths import FIXTURES

from ssdwear.host import smartd as logs
from ssdwear.model.process import is_root
from ssdwear.model.records import Snapshot
from ssdwear.smartctl import smartd as fmt
from ssdwear.smartctl.parse import parse_output

DRIVE = Snapshot(source="/dev/sda", interface="ata", model="Samsung SSD 860 EVO 1TB", serial="S3Z9NB0K000777A")
NAME = "Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777A.ata.csv"
GOOD = b"2026-11-30 08:00:00;\t9;98;12000;\t177;88;72;\n"


@pytest.fixture
def berlin() -> Iterator[None]:
    with in_time_zone("Europe/Berlin"):
        yield


def read(path: Path) -> tuple[list[bytes], logs.Stats]:
    fd = logs.open_log(path)
    stats = logs.Stats()
    try:
        return list(logs.lines(fd, stats, "ata")), stats
    finally:
        os.close(fd)


def test_bad_lines_are_skipped_and_counted_by_why(tmp_path: Path) -> None:
    path = tmp_path / f"attrlog.{NAME}"
    cut = b"2026-11-30 08:30:00;\t9;98;12000;\t177;8"  # smartd stopped mid-line ...
    path.write_bytes(GOOD + cut + GOOD + b"\n" + b"garbage\n" + b"2026-11-30 09:00:00;\t9;98;12001;\t177;88;7")
    got, stats = read(path)
    assert got == [GOOD.rstrip(b"\n")]  # ... and the next line was glued on: both skipped, never guessed at
    assert (stats.lines, stats.bad, stats.cut) == (1, 4, True)
    assert stats.reasons == {"not in smartd's format": 2, "an empty line": 1,
                             "the last line is cut off (no line end)": 1}
    assert (stats.first, stats.last) == ("2026-11-30 08:00:00", "2026-11-30 08:00:00")


@pytest.mark.parametrize("stamp", [b"2026-02-31 08:30:00", b"2026-13-01 08:30:00", b"0000-01-01 00:00:00",
                                   b"9999-12-31 23:59:59", b"2026-11-30 24:00:00"])
def test_a_date_that_does_not_exist_is_skipped_and_is_not_the_logs_last(tmp_path: Path, stamp: bytes) -> None:
    """In the last place it was the span's end, turned into a date: ValueError, and the drive 'could not be read'."""
    path = tmp_path / NAME
    path.write_bytes(GOOD + stamp + b";\t9;98;12000;\n")
    got, stats = read(path)
    assert got == [GOOD.rstrip(b"\n")] and stats.reasons == {"impossible date": 1}
    assert stats.last == "2026-11-30 08:00:00"
    assert fmt.parse_line(stamp + b";\t9;98;12000;", "ata") == f"impossible date {stamp.decode()}"


def test_a_line_longer_than_smartd_writes_is_skipped_and_reading_goes_on(tmp_path: Path) -> None:
    path = tmp_path / NAME
    path.write_bytes(GOOD + b"2026-11-30 08:30:00;" + b"\t1;100;0;" * 4000 + b"\n" + GOOD)
    got, stats = read(path)
    assert got == [GOOD.rstrip(b"\n")] * 2 and stats.reasons == {"a line longer than smartd writes": 1}


def test_only_the_end_of_a_huge_log_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_READ_BYTES", 10 * len(GOOD) + 5)
    path = tmp_path / NAME
    path.write_bytes(GOOD * 100)
    got, stats = read(path)
    assert len(got) == 10 and stats.bad == 0  # the partial first line of the part read is dropped, not counted
    assert stats.skipped_bytes == 90 * len(GOOD) - 5


def test_a_link_is_never_followed(tmp_path: Path) -> None:
    real = tmp_path / "elsewhere.csv"
    real.write_bytes(GOOD)
    (tmp_path / f"attrlog.{NAME}").symlink_to(real)
    [found] = logs.find(str(tmp_path / "attrlog."), DRIVE)
    assert found.note is not None and "symbolic link: not followed" in found.note
    with pytest.raises(logs.AttrlogError, match="symbolic link: not followed"):
        logs.open_log(tmp_path / f"attrlog.{NAME}")


def test_a_fifo_under_the_name_is_not_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / NAME)
    [found] = logs.find(str(tmp_path), DRIVE)
    assert found.note is not None and "not a regular file" in found.note


@pytest.mark.skipif(not is_root(), reason="the root-only trust rule")
def test_as_root_a_log_someone_else_owns_is_refused(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    path = tmp_path / NAME
    path.write_bytes(GOOD)
    os.chown(path, 65534, 65534)
    with pytest.raises(logs.AttrlogError, match=r"refusing smartd attribute log .*owned by"):
        logs.open_log(path)
    os.chown(path, 0, 0)
    path.chmod(0o666)
    with pytest.raises(logs.AttrlogError, match="writable by"):
        logs.open_log(path)


def test_a_directory_or_a_prefix_finds_smartds_name_only(tmp_path: Path) -> None:
    for name in (f"attrlog.{NAME}", f"other.{NAME}", "attrlog.Samsung_SSD_860_EVO_1TB-S3Z9NB0K000777B.ata.csv",
                 f"xattrlog.X{NAME}"):
        (tmp_path / name).write_bytes(GOOD)
    prefix = [f.path.name for f in logs.find(str(tmp_path / "attrlog."), DRIVE)]
    assert prefix == [f"attrlog.{NAME}"]
    directory = sorted(f.path.name for f in logs.find(str(tmp_path), DRIVE))
    assert directory == [f"attrlog.{NAME}", f"other.{NAME}"]  # any prefix, but not one glued to the model


def test_the_default_place_is_debians(tmp_path: Path) -> None:
    assert logs.prefixes(None, "linux") == ["/var/lib/smartmontools/attrlog."]
    assert logs.prefixes(None, "freebsd14") == []  # the port builds smartd without a default attribute log
    assert logs.prefixes("/var/log/smartd/", "linux") == ["/var/log/smartd/"]


def test_timestamps_are_read_in_the_hosts_time_zone(berlin: None) -> None:
    """smartd writes time_to_tm_local(): summer and winter time in Berlin are UTC+2 and UTC+1."""
    assert logs.local_time("2026-07-01 12:00:00") == datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)
    assert logs.local_time("2026-12-01 12:00:00") == datetime(2026, 12, 1, 11, 0, tzinfo=timezone.utc)
    assert logs.local_stamp(datetime(2026, 7, 1, 10, 0, tzinfo=timezone.utc)) == "2026-07-01 12:00:00"


def test_a_link_to_a_directory_is_the_directory_with_or_without_its_slash(tmp_path: Path) -> None:
    """Issue 26.7: `import smartd DIR` where DIR is a link to a directory, without a trailing '/', was taken as a
    file-name prefix (files named 'DIR...' beside the link): nothing found."""
    real = tmp_path / "smartmontools"
    real.mkdir()
    (real / f"attrlog.{NAME}").write_bytes(GOOD)
    (tmp_path / "logs").symlink_to(real)
    for place in (str(tmp_path / "logs"), f"{tmp_path / 'logs'}/"):
        assert [f.path for f in logs.find(place, DRIVE)] == [tmp_path / "logs" / f"attrlog.{NAME}"]
        assert logs.listing(place) == [tmp_path / "logs" / f"attrlog.{NAME}"]
    assert logs.find(str(tmp_path / "logs" / "attrlog."), DRIVE) != []  # a prefix inside it still is one


def test_a_control_character_in_the_model_finds_the_log_smartd_named(tmp_path: Path) -> None:
    """Issue 26.7: smartd writes one '_' for the control byte itself (smartd.cpp, not_allowed_in_filename); ssdwear
    made '_x1b' of the '\\x1b' the parser shows it as, and never found the log."""
    document = json.loads((FIXTURES / "smartd" / "smartctl --json=c -x -n standby -d sat _dev_sda.out").read_text())
    document["model_name"] = "Samsung SSD\u001b860"  # as smartctl's JSON prints an ESC in the drive's string
    document["serial_number"] = "S3Z9\u0007NB0K"
    snap = parse_output(json.dumps(document).encode(), "/dev/sda")
    assert (snap.model, snap.serial) == ("Samsung SSD\\x1b860", "S3Z9\\x07NB0K")  # shown escaped, never raw
    name = "attrlog.Samsung_SSD_860-S3Z9_NB0K.ata.csv"  # the name smartd gives it
    (tmp_path / name).write_bytes(GOOD)
    assert [f.path.name for f in logs.find(str(tmp_path / "attrlog."), snap)] == [name]


PIECES = [b"", b"x", GOOD.rstrip(b"\n"), b"2026-11-30 08:00:00;", b"2026-02-31 08:00:00;\t9;1;1;", b"garbage",
          b"2026-11-30 08:00:00;\t9;98;1:2;", b"2026-11-30 08:00:00;\t9;98;12000", b"\x1b[2J", b"a" * 16_385,
          b"2026-11-30 08:00:00;" + b"\t1;100;0;" * 255, b"2026-11-30 08:00:00;" + b"\t1;100;0;" * 256, b"b" * 40_000,
          b"2026-11-30 24:00:00;\t9;98;12000;", b"2026-11-30 08:00:00;\tpower-on-hours;1;"]


def line_by_line(data: bytes) -> tuple[list[bytes], dict[str, int]]:
    """What reading the log line by line gives (the rule as written, one line at a time)."""
    *whole, last = data.split(b"\n")
    kept, why = [], []
    for raw in whole:
        if len(raw) > fmt.MAX_LINE_BYTES:
            why.append("a line longer than smartd writes")
        elif not raw:
            why.append("an empty line")
        elif not fmt.LINE_FORMS["ata"].fullmatch(raw) or raw.count(b"\t") > 255:
            why.append("not in smartd's format")
        elif (problem := fmt.stamp_problem(raw[:fmt.STAMP_LENGTH].decode())) is not None:
            why.append(problem)
        else:
            kept.append(raw)
    if last:
        why.append("a line longer than smartd writes" if len(last) > fmt.MAX_LINE_BYTES else
                   "the last line is cut off (no line end)")
    return kept, {w: why.count(w) for w in set(why)}


@pytest.mark.parametrize("seed", range(40))
def test_a_log_searched_a_chunk_at_a_time_reads_as_line_by_line(tmp_path: Path, seed: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26.7: 64 MiB of junk lines cost a check 20-30 s, a Python iteration per line; the chunks are now
    searched whole. Whatever the chunk size, the lines kept and the skipped ones counted by why are those of
    reading line by line."""
    rng = random.Random(seed)
    data = b"\n".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30))) + rng.choice([b"", b"\n", b"\n\n"])
    path = tmp_path / NAME
    path.write_bytes(data)
    want = line_by_line(data)
    for chunk in (7, 64, 4096, 1 << 20):
        monkeypatch.setattr(logs, "CHUNK_BYTES", chunk)
        got, stats = read(path)
        assert (got, stats.reasons) == want, chunk
        assert stats.lines == len(got) and stats.bad == sum(want[1].values())
