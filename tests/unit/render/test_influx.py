"""The line protocol ssdwear writes (render/influx.py), read back by a parser written from the protocol's grammar
(support/lineprotocol.py): untrusted drive strings in tags and string fields, typed fields, the timestamp."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest
from support.builders import nvme
from support.lineprotocol import LineProtocolError, parse

from ssdwear.assess.report import assess, failed
from ssdwear.model.escape import visible
from ssdwear.render.influx import FIELD_TYPES, line_protocol

NOW = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=timezone.utc)
HOSTILE = 'Evil, SSD=1 "quoted" back\\slash\nnewline\x1b[2J end\\'


def test_a_drive_is_one_point_with_typed_fields_and_a_nanosecond_timestamp() -> None:
    [p] = parse(line_protocol([assess(nvme(10))], NOW, "db1"))
    assert p.measurement == "ssdwear"
    assert p.tags == {"device": "/dev/nvme0", "host": "db1", "model": "Example NVMe", "serial": "NVME1"}
    assert p.timestamp == 1772366400123456000  # exact to the microsecond the clock gives
    assert p.fields["read_ok"] == 1 and p.fields["used_percent"] == 10.0 and p.fields["smart_passed"] is True
    assert p.fields["used_source"] == "nvme_percentage_used"
    for name, value in p.fields.items():
        kind = {"float": float, "int": int, "bool": bool, "string": str}[FIELD_TYPES[name]]
        assert type(value) is kind, (name, value)


def test_untrusted_drive_strings_cannot_break_the_line() -> None:
    """A model, serial and device with every character the protocol treats specially, and an error message with
    quotes, backslashes and a newline: one line, and each string reads back as ssdwear shows it (visible())."""
    drive = replace(assess(nvme(10)), model=HOSTILE, serial="\\", device="/dev/disk/by-id/a b,c=d")
    broken = failed("/dev/sd\\z", 'smartctl said "no"\\ \nand more')
    text = line_protocol([drive, broken], NOW, "host with space")
    assert text.count("\n") == 2
    ok, bad = parse(text)
    assert ok.tags["model"] == visible(HOSTILE.replace("\\", "\\x5c"))
    assert ok.tags["serial"] == "\\x5c" and ok.tags["device"] == "/dev/disk/by-id/a b,c=d"
    assert ok.tags["host"] == "host with space"
    assert bad.tags == {"device": "/dev/sd\\x5cz", "host": "host with space"}
    assert bad.fields == {"read_ok": 0, "error": visible('smartctl said "no"\\ \nand more')}


def test_the_parser_refuses_what_the_protocol_forbids() -> None:
    """The parser the tests trust is strict: these are not line protocol."""
    for line in ("m,t=a\\ b", "m f=1 x", "m,t= f=1", "m f=\"open", "m f=1i,g=bad", "m,t=\x01 f=1", "m,t=v\\ f=1"):
        with pytest.raises(LineProtocolError):
            parse(line)
    assert parse('m,t=a\\ b\\,c\\=d f="q\\"\\\\",g=1u,h=-2i,i=1.5e3,j=T 12')[0].tags == {"t": "a b,c=d"}


def test_a_run_without_drives_writes_nothing() -> None:
    assert line_protocol([], NOW, "db1") == ""
