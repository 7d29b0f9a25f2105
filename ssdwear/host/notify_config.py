"""The config's `notify:` section: the rules' thresholds, the channels, the ping (host/config.py reads the file and
hands this module the section; every problem names the file, line and key).

`notify:` with no value turns notification on with the defaults (`sample` then notifies by itself); `notify: false`
turns it off again (a user's file over the system's). Keys given in a later file replace the earlier file's, key by
key (`channels` as a whole list). A key that holds a secret (a webhook's `headers`, ntfy's `token`, a password in a
URL) is recorded, so that as root the file holding it must be readable by root alone (config.py checks its mode).
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ssdwear.assess.alerts import RULES, Rules
from ssdwear.model.escape import has_control
from ssdwear.model.units import DURATION, Limits, parse_duration_minutes, parse_seconds

from .channels import KINDS, WEBHOOK_FORMATS, Channel

if TYPE_CHECKING:
    from yaml.nodes import Node

    from .config import _Reader

NOTIFY_KEYS = ("rules", "wears_out_within", "used_percent", "unreadable_runs", "remind", "resolve_after", "timeout",
               "ping", "channels")
CHANNEL_OPTIONS = {"stdout": (), "command": (), "webhook": ("format", "headers", "hold"), "mail": ("sendmail",),
                   "journald": (), "ntfy": ("token",)}
USED_PERCENT = Limits("a wear threshold", 1, 1000, "1 to 1,000 %")
UNREADABLE_RUNS = Limits("a number of runs", 1, 1000, "1 to 1,000")
DELIVERY_TIMEOUT = Limits("a delivery timeout", 1, 600, "1 to 600 seconds")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_ADDRESS = re.compile(r"[^\s@<>()\[\]\",;:\\]+@[^\s@<>()\[\]\",;:\\]+")


@dataclass(frozen=True)
class NotifySettings:
    rules: Rules = field(default_factory=Rules)
    channels: tuple[Channel, ...] = (Channel("stdout"),)
    ping: str | None = None
    timeout_s: float = 10.0  # each delivery, each ping
    secrets: tuple[str, ...] = ()  # the keys that hold a secret, as FILE:LINE: KEY


def parse(reader: _Reader, node: Node, current: NotifySettings | None) -> NotifySettings | None:
    """The section as written, over `current` (an earlier file's); None for `notify: false`."""
    import yaml

    if isinstance(node, yaml.ScalarNode):
        value = yaml.safe_load(node.value) if node.value else None
        if value is False:
            return None
        if value is not None:
            raise reader.error(node, "notify", "expected a mapping of notify's keys, nothing (the defaults) or false")
        return current or NotifySettings()
    settings = current or NotifySettings()
    rules = settings.rules
    for key, (key_node, value) in reader.mapping(node, "notify").items():
        name = f"notify.{key}"
        if key not in NOTIFY_KEYS:
            raise reader.error(key_node, name, f"unknown key; known keys: {', '.join(NOTIFY_KEYS)}")
        if key == "rules":
            rules = replace(rules, enabled=_rule_names(reader, value, name))
        elif key == "wears_out_within":
            within = _list(reader, value, name, lambda n, k: reader.convert(n, k, parse_duration_minutes))
            rules = replace(rules, wears_out_within_minutes=tuple(sorted(set(within), reverse=True)))
        elif key == "used_percent":
            used = _list(reader, value, name, lambda n, k: reader.number(n, k, USED_PERCENT))
            rules = replace(rules, used_percent=tuple(sorted(set(used))))
        elif key == "unreadable_runs":
            rules = replace(rules, unreadable_runs=int(reader.number(value, name, UNREADABLE_RUNS, integer=True)))
        elif key == "remind":
            rules = replace(rules, remind_minutes=reader.convert(value, name, parse_duration_minutes))
        elif key == "resolve_after":
            rules = replace(rules, resolve_after_minutes=reader.convert(value, name, parse_duration_minutes))
        elif key == "timeout":
            settings = replace(settings, timeout_s=reader.convert(
                value, name, lambda text: parse_seconds(text, DELIVERY_TIMEOUT)))
        elif key == "ping":
            url, secret = _url(reader, value, name)
            settings = replace(settings, ping=url, secrets=settings.secrets + secret)
        else:
            channels, secrets = _channels(reader, value, name)
            settings = replace(settings, channels=channels, secrets=settings.secrets + secrets)
    return replace(settings, rules=rules)


def _list(reader: _Reader, node: Node, key: str, convert: Any) -> list[Any]:
    items = reader.sequence(node, key)
    if not items:
        raise reader.error(node, key, "give at least one threshold (or leave the rule out of notify.rules)")
    return [convert(item, f"{key}[{i}]") for i, item in enumerate(items)]


def _rule_names(reader: _Reader, node: Node, key: str) -> tuple[str, ...]:
    names = [reader.string(item, f"{key}[{i}]") for i, item in enumerate(reader.sequence(node, key))]
    for i, name in enumerate(names):
        if name not in RULES:
            raise reader.error(reader.sequence(node, key)[i], f"{key}[{i}]",
                               f"unknown rule {name!r}; the rules: {', '.join(RULES)}")
    return tuple(r for r in RULES if r in names)


def _line(reader: _Reader, node: Node, key: str) -> str:
    return f"{reader.path}:{node.start_mark.line + 1}: {key}"


def _url(reader: _Reader, node: Node, key: str) -> tuple[str, tuple[str, ...]]:
    """An http(s) URL with a host; a password in it is a secret."""
    value = reader.string(node, key)
    parts = urllib.parse.urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or has_control(value) or " " in value:
        shown = value if "@" not in value else f"{parts.scheme}://...@..."  # never a password in a message
        raise reader.error(node, key, f"expected an http:// or https:// URL with a host, got {shown!r}")
    return value, (_line(reader, node, key),) if parts.password else ()


def _channels(reader: _Reader, node: Node, key: str) -> tuple[tuple[Channel, ...], tuple[str, ...]]:
    items = reader.sequence(node, key)
    if not items:
        raise reader.error(node, key, "give at least one channel (stdout prints the events)")
    out: list[Channel] = []
    secrets: tuple[str, ...] = ()
    for i, item in enumerate(items):
        channel, found = _channel(reader, item, f"{key}[{i}]")
        out.append(channel)
        secrets += found
    return tuple(out), secrets


def _channel(reader: _Reader, node: Node, key: str) -> tuple[Channel, tuple[str, ...]]:
    import yaml

    if isinstance(node, yaml.ScalarNode):
        kind = reader.string(node, key)
        if kind not in ("stdout", "journald"):
            raise reader.error(node, key, f"{kind!r}: a channel is stdout, journald, or one of "
                                          f"{', '.join(k for k in KINDS if k not in ('stdout', 'journald'))}: ADDRESS")
        return Channel(kind), ()
    fields = reader.mapping(node, key)
    kinds = [k for k in fields if k in KINDS]
    if len(kinds) != 1:
        raise reader.error(node, key, f"name one channel kind ({', '.join(KINDS)}), got {', '.join(fields) or 'none'}")
    kind = kinds[0]
    for name, (name_node, _) in fields.items():
        if name != kind and name not in CHANNEL_OPTIONS[kind]:
            allowed = ", ".join(CHANNEL_OPTIONS[kind]) or "none"
            raise reader.error(name_node, f"{key}.{name}", f"unknown key for a {kind} channel; its options: {allowed}")
    target_node = fields[kind][1]
    channel = Channel(kind, _target(reader, kind, target_node, f"{key}.{kind}"))
    secrets: tuple[str, ...] = ()
    if kind in ("webhook", "ntfy"):
        secrets = _url(reader, target_node, f"{key}.{kind}")[1]
    return _options(reader, channel, fields, key, secrets)


def _target(reader: _Reader, kind: str, node: Node, key: str) -> str | None:
    import yaml

    if kind == "stdout":
        return None
    if kind == "journald" and isinstance(node, yaml.ScalarNode) and node.value in ("", "~", "null"):
        return None
    if kind in ("command", "journald"):
        return reader.absolute_path(node, key)
    if kind in ("webhook", "ntfy"):
        return _url(reader, node, key)[0]
    address = reader.string(node, key)
    if not _ADDRESS.fullmatch(address) or address.startswith("-"):
        raise reader.error(node, key, f"expected a mail address (user@example.org), got {address!r}")
    return address


def _options(reader: _Reader, channel: Channel, fields: dict[str, tuple[Node, Node]], key: str,
             secrets: tuple[str, ...]) -> tuple[Channel, tuple[str, ...]]:
    for name, (_, value) in fields.items():
        where = f"{key}.{name}"
        if name == "format":
            fmt = reader.string(value, where)
            if fmt not in WEBHOOK_FORMATS:
                raise reader.error(value, where, f"must be one of {', '.join(WEBHOOK_FORMATS)}, got {fmt!r}")
            channel = replace(channel, format=fmt)
        elif name == "hold":
            channel = replace(channel, hold_minutes=reader.convert(value, where,
                                                                   lambda t: parse_duration_minutes(t, DURATION)))
        elif name == "sendmail":
            channel = replace(channel, sendmail=reader.absolute_path(value, where))
        elif name == "token":
            channel = replace(channel, token=_secret_text(reader, value, where))
            secrets += (_line(reader, value, where),)
        elif name == "headers":
            headers = []
            for header, (header_node, header_value) in reader.mapping(value, where).items():
                if not _HEADER_NAME.fullmatch(header):
                    raise reader.error(header_node, f"{where}.{header}", "not an HTTP header name")
                headers.append((header, _secret_text(reader, header_value, f"{where}.{header}")))
            channel = replace(channel, headers=tuple(headers))
            secrets += (_line(reader, value, where),)
    return channel, secrets


def _secret_text(reader: _Reader, node: Node, key: str) -> str:
    value = reader.string(node, key)
    if has_control(value) or value != value.strip():
        raise reader.error(node, key, "may not hold control characters or surrounding spaces")
    return value
