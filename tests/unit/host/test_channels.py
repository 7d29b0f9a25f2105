"""notify's channels at their real surfaces (issue 28 item 5): webhooks, Alertmanager, ntfy and the ping against a
real HTTP server on loopback, mail through a fake sendmail, the journal through a datagram socket of the native
protocol, programs with the event on stdin."""

from __future__ import annotations

import email
import email.policy
import json
import os
import socket
import struct
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from support.clock import T0
from support.http import serve

from ssdwear.assess.alerts import DriveFacts, Rules
from ssdwear.assess.transitions import EMPTY, Observed, evaluate
from ssdwear.host.channels import (
    Channel,
    DeliveryFailed,
    alertmanager_alert,
    deliver,
    journal_datagram,
    key_hash,
    ping,
    post_alerts,
)
from ssdwear.render.documents import envelope, event_doc

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the trust rules apply to root (CI runs as root)")
DRIVE = DriveFacts("SAMSUNG MZQLB1T9HAJR-00007|S436NA0M000001", "SAMSUNG MZQLB1T9HAJR-00007", "S436NA0M000001",
                   "5002538e00000001", "/dev/nvme0", "db1", used_percent=85.0, used_source="nvme_percentage_used",
                   projected=True, method="history:nvme_percentage_used",
                   wears_out_at=T0 + timedelta(days=400), wears_out_low_at=T0 + timedelta(days=120), verdict="watch",
                   verdict_reason="wear used 85 % of rated endurance")


def events(*subjects: DriveFacts, state: Any = EMPTY, at: Any = T0) -> tuple[list[dict[str, Any]], Any]:
    outcome = evaluate(Observed(list(subjects)), state, Rules(resolve_after_minutes=1), at)
    docs = [envelope("live", at.isoformat(timespec="seconds"), "0.2.0", event_doc(t)) for t in outcome.transitions]
    return docs, outcome.state


@pytest.fixture
def doc() -> dict[str, Any]:
    return events(DRIVE)[0][0]


def test_a_webhook_gets_the_event_json_with_the_configured_headers(doc: dict[str, Any]) -> None:
    with serve() as server:
        hook = Channel("webhook", f"{server.url}/hook", headers=(("Authorization", "Bearer s3cret"),))
        deliver(hook, doc, 5, T0)
    (request,) = server.requests
    assert (request.method, request.path) == ("POST", "/hook")
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["Authorization"] == "Bearer s3cret"
    assert json.loads(request.body) == doc


def test_a_failing_webhook_is_one_line_and_a_redirect_is_not_followed(doc: dict[str, Any]) -> None:
    with serve() as server, serve() as elsewhere:
        server.status = 503
        with pytest.raises(DeliveryFailed, match=r"^HTTP 503 Service Unavailable$"):
            deliver(Channel("webhook", server.url), doc, 5, T0)
        server.status, server.location = 302, f"{elsewhere.url}/steal"
        hook = Channel("webhook", server.url, headers=(("Authorization", "Bearer s3cret"),))
        with pytest.raises(DeliveryFailed, match=r"redirected to http://127\.0\.0\.1:\d+/\.\.\. \(redirects are not"):
            deliver(hook, doc, 5, T0)
    assert elsewhere.requests == []  # the token never went where the redirect pointed


def test_a_webhook_that_does_not_answer_is_given_up_on_after_the_timeout(doc: dict[str, Any]) -> None:
    import threading

    with serve() as server:
        server.hold = threading.Event()
        started = time.monotonic()
        with pytest.raises(DeliveryFailed, match=r"timed out|no answer within 1 s"):
            deliver(Channel("webhook", server.url), doc, 1, T0)
        assert time.monotonic() - started < 5
        server.hold.set()


def test_alertmanager_gets_its_v2_shape_with_labels_from_the_key_and_endsat_on_resolve() -> None:
    fired, _ = events(DRIVE)
    with serve() as server:
        manager = Channel("webhook", server.url, format="alertmanager", hold_minutes=180)
        for d in fired:
            deliver(manager, d, 5, T0)
        later = T0 + timedelta(hours=2)
        post_alerts(manager, fired, 5, later)  # the refresh every run makes
    first = json.loads(server.requests[0].body)
    assert server.requests[0].path == "/api/v2/alerts" and isinstance(first, list) and len(first) == 1
    alert = first[0]
    assert alert["labels"] == {"alertname": "ssdwear_wears_out_within", "rule": "wears_out_within",
                               "model": DRIVE.model, "serial": DRIVE.serial, "wwn": DRIVE.wwn, "host": "db1"}
    assert alert["annotations"]["summary"] == fired[0]["message"]
    assert alert["annotations"]["key"] == f"{DRIVE.identity}/wears_out_within"
    assert alert["startsAt"] == T0.isoformat(timespec="seconds")
    assert alert["endsAt"] == (T0 + timedelta(minutes=180)).isoformat(timespec="seconds")
    refreshed = json.loads(server.requests[-1].body)
    assert len(refreshed) == len(fired) and refreshed[0]["endsAt"] == (later + timedelta(minutes=180)).isoformat(
        timespec="seconds")
    done = alertmanager_alert({**fired[1], "event": "resolved", "generated_at": later.isoformat()}, later, 180)
    assert done["endsAt"] == later.isoformat() and done["labels"]["rule"] == "verdict"


def test_ntfy_gets_the_message_with_title_priority_tags_token_and_the_key_as_sequence_id(doc: dict[str, Any]) -> None:
    with serve() as server:
        deliver(Channel("ntfy", f"{server.url}/disks-db1", token="tk_s3cret"), doc, 5, T0)
    (request,) = server.requests
    assert request.path == "/disks-db1" and request.body.decode() == doc["message"]
    assert request.headers["Title"] == ("FIRING wears_out_within: SAMSUNG MZQLB1T9HAJR-00007 [S436NA0M000001] "
                                        "on db1")
    assert (request.headers["Priority"], request.headers["Tags"]) == ("high", "warning")
    assert request.headers["X-Sequence-ID"] == key_hash(doc["key"])
    assert request.headers["Authorization"] == "Bearer tk_s3cret"


def test_the_ping_is_a_get_of_the_url_or_of_url_fail() -> None:
    with serve() as server:
        ping(f"{server.url}/ping/uuid", False, 5)
        ping(f"{server.url}/ping/uuid/", True, 5)
    assert [(r.method, r.path) for r in server.requests] == [("GET", "/ping/uuid"), ("GET", "/ping/uuid/fail")]


@pytest.fixture
def recorder(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A program that writes its arguments and its stdin to files, and exits as EXIT says (default 0)."""
    program = tmp_path / "bin" / "record"
    program.parent.mkdir()
    out = tmp_path / "recorded"
    program.write_text(f'#!/bin/sh\necho "$@" > {out}.argv\ncat > {out}.stdin\nexit "${{EXIT:-0}}"\n')
    program.chmod(0o755)
    yield program, out


def test_a_mail_goes_through_sendmail_threaded_on_the_key(doc: dict[str, Any], recorder: tuple[Path, Path]) -> None:
    program, out = recorder
    deliver(Channel("mail", "root@example.org", sendmail=str(program)), doc, 5, T0)
    assert Path(f"{out}.argv").read_text().split() == ["-t", "-oi"]  # the address goes in the message, not argv
    msg = email.message_from_bytes(Path(f"{out}.stdin").read_bytes(), policy=email.policy.default)
    assert msg["To"] == "root@example.org"
    assert msg["Subject"] == "[ssdwear] FIRING wears_out_within: SAMSUNG MZQLB1T9HAJR-00007 [S436NA0M000001] on db1"
    assert msg["Message-ID"] == f"<ssdwear.{doc['id']}@db1>"
    assert msg["References"] == msg["In-Reply-To"] == f"<ssdwear.{key_hash(doc['key'])}@db1>"
    body = msg.get_content()
    assert body.startswith(doc["message"] + "\n") and "drive.serial: S436NA0M000001" in body
    assert json.loads(body[body.index("{"):]) == doc


def test_a_command_gets_the_event_on_stdin_and_a_failure_is_one_line(doc: dict[str, Any],
                                                                     recorder: tuple[Path, Path],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    program, out = recorder
    deliver(Channel("command", str(program)), doc, 5, T0)
    assert json.loads(Path(f"{out}.stdin").read_text()) == doc and Path(f"{out}.argv").read_text() == "\n"
    monkeypatch.setenv("EXIT", "7")
    with pytest.raises(DeliveryFailed, match=f"^{program} exited 7$"):
        deliver(Channel("command", str(program)), doc, 5, T0)


def test_a_command_that_hangs_is_killed_with_what_it_started(doc: dict[str, Any], tmp_path: Path) -> None:
    program = tmp_path / "hang"
    program.write_text(f"#!/bin/sh\nsleep 300 &\necho $! > {tmp_path}/child\nsleep 300\n")
    program.chmod(0o755)
    started = time.monotonic()
    with pytest.raises(DeliveryFailed, match="did not finish within 1 s and was killed"):
        deliver(Channel("command", str(program)), doc, 1, T0)
    assert time.monotonic() - started < 10
    child = int((tmp_path / "child").read_text())
    time.sleep(0.2)
    assert not alive(child)


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie no reaper has collected yet is dead)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@as_root
def test_as_root_a_command_must_be_roots_alone_and_no_interpreter(doc: dict[str, Any], tmp_path: Path,
                                                                 recorder: tuple[Path, Path]) -> None:
    program, _ = recorder
    program.chmod(0o777)
    with pytest.raises(DeliveryFailed, match=f"refusing notify command {program}: writable by group and others"):
        deliver(Channel("command", str(program)), doc, 5, T0)
    with pytest.raises(DeliveryFailed, match="an interpreter that would run the event it is handed on stdin"):
        deliver(Channel("command", "/bin/sh"), doc, 5, T0)


def journal_fields_of(datagram: bytes) -> dict[str, str]:
    """The native protocol read back (systemd.io/JOURNAL_NATIVE_PROTOCOL): NAME=value lines, or NAME, newline,
    a 64-bit little-endian length, the value and a newline."""
    fields, at = {}, 0
    while at < len(datagram):
        end = datagram.index(b"\n", at)
        line = datagram[at:end]
        if b"=" in line:
            name, _, value = line.partition(b"=")
            at = end + 1
        else:
            name, (size,) = line, struct.unpack("<Q", datagram[end + 1:end + 9])
            value = datagram[end + 9:end + 9 + size]
            assert datagram[end + 9 + size:end + 10 + size] == b"\n"
            at = end + 10 + size
        fields[name.decode()] = value.decode()
    return fields


def test_the_journal_gets_structured_fields_in_one_datagram(doc: dict[str, Any], tmp_path: Path) -> None:
    path = str(tmp_path / "journal.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        deliver(Channel("journald", path), doc, 5, T0)
        fields = journal_fields_of(sock.recv(65536))
    assert fields["SYSLOG_IDENTIFIER"] == "ssdwear" and fields["PRIORITY"] == "4"
    assert fields["MESSAGE"] == ("FIRING wears_out_within: SAMSUNG MZQLB1T9HAJR-00007 [S436NA0M000001] on db1: "
                                 + doc["message"])
    assert (fields["SSDWEAR_EVENT"], fields["SSDWEAR_RULE"], fields["SSDWEAR_KEY"]) == (
        "firing", "wears_out_within", doc["key"])
    assert fields["SSDWEAR_DRIVE_SERIAL"] == "S436NA0M000001" and fields["SSDWEAR_WEARS_OUT_DATE_LOW"] == "2027-03-30"
    assert journal_fields_of(journal_datagram([("MESSAGE", "two\nlines")])) == {"MESSAGE": "two\nlines"}
    with pytest.raises(DeliveryFailed, match=r"no journal socket at .*missing\.sock \(is systemd-journald running"):
        deliver(Channel("journald", str(tmp_path / "missing.sock")), doc, 5, T0)
