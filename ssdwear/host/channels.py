"""Where `ssdwear notify` delivers an event (the config's `notify: channels:`): a program (`command:`, the event's
JSON on stdin), a webhook (the JSON, or Alertmanager's v2 API), mail through sendmail, the systemd journal (its
native protocol: structured fields in one datagram), ntfy; and the `ping:` after a run. `stdout` is the caller's
(it prints). Every delivery is bounded by a timeout and raises DeliveryFailed with one line, never anything else.

HTTP is the standard library's urllib, never following a redirect (it would carry the headers, tokens among them,
to wherever it points). Programs run through host/runner.py, as root only when they pass the trust rule smartctl
passes (trust.trusted_program), and never an interpreter that would run the event as a script. Secrets (headers,
tokens, a password in a URL) come from the config file and never reach a command line or a message.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ssdwear.model.errors import SsdwearError
from ssdwear.model.escape import visible
from ssdwear.model.records import DriveId
from ssdwear.model.version import __version__

from .trust import UntrustedFile, check_event_program, trusted_program

KINDS = ("stdout", "command", "webhook", "mail", "journald", "ntfy")
WEBHOOK_FORMATS = ("json", "alertmanager")
SENDMAIL = "/usr/sbin/sendmail"
JOURNAL_SOCKET = "/run/systemd/journal/socket"
ALERTMANAGER_PATH = "/api/v2/alerts"
MAX_RESPONSE_BYTES = 65_536  # of an answer, read (to let the connection close cleanly) and dropped


class DeliveryFailed(SsdwearError):
    "A channel could not deliver an event; it stays pending and is sent at the next run."


@dataclass(frozen=True)
class Channel:
    """One entry of `notify: channels:`."""

    kind: str  # one of KINDS
    target: str | None = None  # command: the program; webhook, ntfy: the URL; mail: the address; journald: the socket
    format: str = "json"  # webhook: json or alertmanager
    # webhook: extra request headers; ntfy: an access token. Secrets, from the config only, and kept out of reprs.
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    token: str | None = field(default=None, repr=False)
    sendmail: str = SENDMAIL  # mail: the sendmail program
    hold_minutes: float = 180.0  # alertmanager: a firing alert's endsAt lies this far after each run

    @property
    def id(self) -> str:
        """Stable over runs and over a changed secret: the kind and a hash of where it delivers."""
        where = json.dumps([self.kind, self.target, self.format, self.sendmail])
        return f"{self.kind}:{hashlib.sha256(where.encode()).hexdigest()[:16]}"

    @property
    def name(self) -> str:
        """The channel in messages: an address shown without what may be secret (a URL's path and query)."""
        if self.kind in ("webhook", "ntfy") and self.target:
            return f"{self.kind} {public_url(self.target)}"
        if self.kind == "journald":
            return "journald" if self.target in (None, JOURNAL_SOCKET) else f"journald {visible(self.target or '')}"
        return f"{self.kind} {visible(self.target)}" if self.target else self.kind


def public_url(url: str) -> str:
    """A URL as messages show it: scheme and host only (a webhook's path or an ntfy topic may be its secret)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or "?"
    return visible(f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}/...")


def key_hash(key: str) -> str:
    """An event key as an identifier made of hex digits (ntfy's sequence id, mail's thread)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _text(value: object) -> str:
    return visible(str(value))


def _ascii(value: object) -> str:
    """A header value HTTP can carry: control characters escaped, anything beyond ASCII too."""
    return _text(value).encode("ascii", "backslashreplace").decode("ascii")


# -- HTTP ------------------------------------------------------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any,
                         newurl: str) -> urllib.request.Request | None:
        raise DeliveryFailed(f"HTTP {code}: redirected to {public_url(newurl)} (redirects are not followed: put "
                             "the final address in the config)")


_OPENER = urllib.request.build_opener(_NoRedirect)


def http_request(url: str, body: bytes | None, headers: Mapping[str, str], timeout_s: float,
                 method: str = "POST") -> None:
    """One request, answered 2xx within about `timeout_s` (each wait on the network is bounded by it, and so is
    reading the answer), else DeliveryFailed."""
    request = urllib.request.Request(url, data=body, method=method,
                                     headers={"User-Agent": f"ssdwear/{__version__}", **headers})
    deadline = time.monotonic() + timeout_s
    try:
        with _OPENER.open(request, timeout=timeout_s) as response:
            read = 0
            while read < MAX_RESPONSE_BYTES and time.monotonic() < deadline:
                chunk = response.read(4096)
                if not chunk:
                    break
                read += len(chunk)
    except urllib.error.HTTPError as exc:
        raise DeliveryFailed(f"HTTP {exc.code} {_text(exc.reason)}") from None
    except urllib.error.URLError as exc:
        raise DeliveryFailed(_text(exc.reason)) from None
    except TimeoutError:
        raise DeliveryFailed(f"no answer within {timeout_s:g} s") from None
    except (OSError, http.client.HTTPException, ValueError) as exc:
        raise DeliveryFailed(_text(exc) or type(exc).__name__) from None


# -- what each channel sends -------------------------------------------------------------------------------------


def _drive(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    drive = doc.get("drive")
    return drive if isinstance(drive, Mapping) else {}


def _subject(doc: Mapping[str, Any]) -> str:
    group = doc.get("group")
    if isinstance(group, Mapping):
        return _text(group.get("name") or "?")
    d = _drive(doc)
    name = _text(DriveId(d.get("model"), d.get("serial"), d.get("wwn")).label)
    return name or _text(d.get("device") or "?")


def title(doc: Mapping[str, Any]) -> str:
    """One line naming the event: 'FIRING used_percent: SAMSUNG MZ7LH960 [S45NNA0M000001] on db1'."""
    host = next((part["host"] for part in (doc.get("drive"), doc.get("group"))
                 if isinstance(part, Mapping) and part.get("host")), None)
    where = f" on {_text(host)}" if host else ""
    return f"{str(doc.get('event', '?')).upper()} {_text(doc.get('rule', '?'))}: {_subject(doc)}{where}"


def alertmanager_alert(doc: Mapping[str, Any], now: datetime, hold_minutes: float) -> dict[str, Any]:
    """The event as Alertmanager's v2 API takes an alert: labels from its key (the rule and who), the figures as
    annotations; endsAt the time it resolved, else `hold_minutes` after now (each run says it again)."""
    labels = {"alertname": f"ssdwear_{doc.get('rule')}", "rule": str(doc.get("rule"))}
    drive, group = _drive(doc), doc.get("group")
    for name in ("model", "serial", "wwn", "host"):
        if drive.get(name):
            labels[name] = str(drive[name])
    if isinstance(group, Mapping):
        labels.update({"group": str(group.get("name")), "group_kind": str(group.get("kind"))})
        if group.get("host"):
            labels["host"] = str(group["host"])
    annotations = {"summary": str(doc.get("message", "")), "key": str(doc.get("key", "")),
                   "event": str(doc.get("event", ""))}
    for name in ("used_percent", "wears_out_date", "wears_out_date_low", "verdict", "source", "threshold"):
        if doc.get(name) is not None:
            annotations[name] = str(doc[name])
    if drive.get("device"):
        annotations["device"] = str(drive["device"])
    ended = doc.get("event") == "resolved"
    at = str(doc.get("generated_at") or now.isoformat(timespec="seconds"))
    ends = at if ended else (now + timedelta(minutes=hold_minutes)).isoformat(timespec="seconds")
    return {"labels": labels, "annotations": annotations, "startsAt": str(doc.get("since") or at), "endsAt": ends}


def mail_message(doc: Mapping[str, Any], address: str) -> bytes:
    """The event as a mail: threaded on its key (References), its Message-ID made from the event's id (a mail sent
    again is the same mail), the message, the figures and the JSON document."""
    from email.message import EmailMessage
    from email.policy import default

    host = _drive(doc).get("host")
    domain = "".join(c for c in str(host or "") if c.isalnum() or c in ".-") or "ssdwear.invalid"
    msg = EmailMessage(policy=default)
    msg["To"] = address
    msg["Subject"] = f"[ssdwear] {title(doc)}"
    msg["Message-ID"] = f"<ssdwear.{_hex(doc.get('id'))}@{domain}>"
    thread = f"<ssdwear.{key_hash(str(doc.get('key', '')))}@{domain}>"
    msg["In-Reply-To"] = thread
    msg["References"] = thread
    msg["Auto-Submitted"] = "auto-generated"
    lines = [_text(doc.get("message", "")), ""]
    for name in ("event", "rule", "key", "threshold", "used_percent", "wears_out_date", "wears_out_date_low",
                 "verdict", "source", "since"):
        if doc.get(name) is not None:
            lines.append(f"{name}: {_text(doc[name])}")
    for name, value in _drive(doc).items():
        if value is not None:
            lines.append(f"drive.{name}: {_text(value)}")
    lines += ["", json.dumps(doc, indent=2, ensure_ascii=True)]
    msg.set_content("\n".join(lines) + "\n")
    return msg.as_bytes()


def _hex(value: object) -> str:
    text = str(value or "")
    return text if text and all(c in "0123456789abcdef" for c in text) else key_hash(text)


_PRIORITY = {"firing": 4, "worse": 4, "reminder": 4, "resolved": 5, "acknowledged": 5}  # syslog: warning, notice


def journal_fields(doc: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The event as structured journal fields: MESSAGE, PRIORITY, SYSLOG_IDENTIFIER, and SSDWEAR_* for the rest."""
    out = [("MESSAGE", f"{title(doc)}: {doc.get('message', '')}"),
           ("PRIORITY", str(_PRIORITY.get(str(doc.get("event")), 5))), ("SYSLOG_IDENTIFIER", "ssdwear")]
    for name in ("event", "rule", "key", "id", "threshold", "used_percent", "wears_out_date", "wears_out_date_low",
                 "verdict", "source", "since"):
        if doc.get(name) is not None:
            out.append((f"SSDWEAR_{name.upper()}", str(doc[name])))
    for name, value in _drive(doc).items():
        if value is not None:
            out.append((f"SSDWEAR_DRIVE_{name.upper()}", str(value)))
    return out


def journal_datagram(pairs: Sequence[tuple[str, str]]) -> bytes:
    """journald's native protocol: `NAME=value\\n`, or for a value holding a newline `NAME\\n`, its length as a
    little-endian 64-bit number, the value and `\\n` (systemd's "Native Journal Protocol")."""
    out = bytearray()
    for name, value in pairs:
        data = value.encode("utf-8", "surrogateescape")
        if b"\n" in data:
            out += name.encode() + b"\n" + struct.pack("<Q", len(data)) + data + b"\n"
        else:
            out += name.encode() + b"=" + data + b"\n"
    return bytes(out)


_NTFY_PRIORITY = {"firing": "high", "worse": "high", "reminder": "default", "resolved": "low", "acknowledged": "low"}
_NTFY_TAGS = {"firing": "warning", "worse": "warning", "reminder": "hourglass", "resolved": "white_check_mark",
              "acknowledged": "zipper_mouth_face"}


def ntfy_request(doc: Mapping[str, Any], token: str | None) -> tuple[bytes, dict[str, str]]:
    """ntfy's publish: the message as the body; title, priority, tags; the key as the sequence id (ntfy 2.16 and
    later update the notification in place; older servers ignore it)."""
    event = str(doc.get("event"))
    headers = {"Title": _ascii(title(doc)), "Priority": _NTFY_PRIORITY.get(event, "default"),
               "Tags": _NTFY_TAGS.get(event, "warning"), "X-Sequence-ID": key_hash(str(doc.get("key", "")))}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return str(doc.get("message", "")).encode(), headers


# -- delivering -------------------------------------------------------------------------------------------------


def _program(path: str, what: str, event_program: bool) -> str:
    fix = "chown root and chmod go-w it and its directory, or name another program"
    try:
        if event_program:
            check_event_program(path, what, fix)
            return path
        return trusted_program(path, what, fix)
    except UntrustedFile as exc:
        raise DeliveryFailed(str(exc)) from None
    except OSError as exc:
        raise DeliveryFailed(f"{what} {visible(path)}: {exc.strerror}") from None


def _run(command: Sequence[str], data: bytes, timeout_s: float) -> None:
    from .runner import run_with_input

    try:
        code, err = run_with_input(command, data, timeout_s)
    except TimeoutError as exc:
        raise DeliveryFailed(f"{visible(command[0])} {exc}") from None
    except OSError as exc:
        raise DeliveryFailed(f"cannot run {visible(command[0])}: {exc.strerror}") from None
    if code != 0:
        said = err.decode("utf-8", "replace").strip().splitlines()
        raise DeliveryFailed(f"{visible(command[0])} exited {code}" + (f": {visible(said[0])}" if said else ""))


def _journal(socket_path: str, doc: Mapping[str, Any]) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        try:
            sock.sendto(journal_datagram(journal_fields(doc)), socket_path)
        except FileNotFoundError:
            raise DeliveryFailed(f"no journal socket at {visible(socket_path)} (is systemd-journald running?)") \
                from None
        except OSError as exc:
            raise DeliveryFailed(f"journal socket {visible(socket_path)}: {exc.strerror}") from None


def deliver(channel: Channel, doc: Mapping[str, Any], timeout_s: float, now: datetime) -> None:
    """Send one event through `channel` (not stdout: the caller prints), or raise DeliveryFailed."""
    target = channel.target or ""
    body = (json.dumps(doc, ensure_ascii=False) + "\n").encode()
    if channel.kind == "command":
        _run([_program(target, "notify command", event_program=True)], body, timeout_s)
    elif channel.kind == "webhook" and channel.format == "alertmanager":
        post_alerts(channel, [doc], timeout_s, now)
    elif channel.kind == "webhook":
        http_request(target, body, {"Content-Type": "application/json", **dict(channel.headers)}, timeout_s)
    elif channel.kind == "mail":
        sendmail = _program(channel.sendmail, "sendmail", event_program=False)
        _run([sendmail, "-t", "-oi"], mail_message(doc, target), timeout_s)
    elif channel.kind == "journald":
        _journal(channel.target or JOURNAL_SOCKET, doc)
    elif channel.kind == "ntfy":
        data, headers = ntfy_request(doc, channel.token)
        http_request(target, data, headers, timeout_s)
    else:
        raise DeliveryFailed(f"no way to deliver to a {channel.kind} channel here")


def alertmanager_url(url: str) -> str:
    """Alertmanager's address as given, or with /api/v2/alerts appended when it names the server only."""
    return url if url.rstrip("/").endswith(ALERTMANAGER_PATH) else url.rstrip("/") + ALERTMANAGER_PATH


def post_alerts(channel: Channel, docs: Sequence[Mapping[str, Any]], timeout_s: float, now: datetime) -> None:
    """Events (or the firing alerts' last events, again) to Alertmanager, in one request."""
    alerts = [alertmanager_alert(doc, now, channel.hold_minutes) for doc in docs]
    http_request(alertmanager_url(channel.target or ""), json.dumps(alerts).encode(),
                 {"Content-Type": "application/json", **dict(channel.headers)}, timeout_s)


def ping(url: str, failed: bool, timeout_s: float) -> None:
    """The `ping:` after a run: a GET of the URL, of URL/fail after a run that exited non-zero (healthchecks.io's
    convention), or DeliveryFailed."""
    http_request(url.rstrip("/") + "/fail" if failed else url, None, {}, timeout_s, method="GET")


__all__ = ["KINDS", "Channel", "DeliveryFailed", "deliver", "ping"]
