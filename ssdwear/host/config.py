"""The configuration file (YAML): /etc/ssdwear/config.yaml, then the user's, then --config FILE.

Later files override earlier ones key by key (thresholds per threshold; ratings are added in front).
Every problem is reported as `FILE:LINE: KEY: what is wrong`, never as a traceback.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ssdwear.assess.thresholds import DEFAULT_THRESHOLDS, THRESHOLD_NAMES, Threshold
from ssdwear.drives.ratings import CONFIG_KEYS, RATING_FIELDS, WORKLOAD_KINDS, Rating, RatingField, rating_problem
from ssdwear.model.errors import ConfigError
from ssdwear.model.units import (
    LOCK_WAIT,
    THRESHOLDS,
    WORKERS,
    Limits,
    bytes_span,
    bytes_text,
    parse_bytes,
    parse_deadline_seconds,
    parse_duration_minutes,
    parse_seconds,
)
from ssdwear.smartctl.runner import DEFAULT_TIMEOUT_S, DEFAULT_WORKERS
from ssdwear.wear.forecast import DEFAULT_LEVEL, LEVELS

from .store.lock import DEFAULT_LOCK_WAIT_S

if TYPE_CHECKING:
    from yaml.nodes import Node

    from ssdwear.assess.context import Context

    from .notify_config import NotifySettings

T = TypeVar("T")


@dataclass(frozen=True)
class DeviceSpec:
    device: str
    type: str | None = None


@dataclass(frozen=True)
class Config:
    smartctl: str | None = None
    smartctl_timeout: float | None = None  # every call; None: 20 s, 10 s behind a USB bridge (smartctl/bounds.py)
    smartctl_options: tuple[str, ...] = ()
    workers: int = DEFAULT_WORKERS
    wake: bool = False
    devices: tuple[DeviceSpec, ...] = ()
    db: str | None = None
    textfile_dir: str | None = None
    history_window_minutes: float = 30 * 1440
    smartd_attrlog: str | None = None  # smartd's attribute logs: a directory or -A prefix (None: the default)
    read_attrlog: bool = True  # `smartd_attrlog: false` turns reading them off
    represents_minutes: float | None = None
    interval_level: float = DEFAULT_LEVEL  # the level prediction intervals are stated at
    record: bool = False  # `report` also stores samples (as --record)
    groups: bool = False  # `report` and `sample`'s textfile also give the redundancy groups (as report --groups)
    thresholds: dict[str, Threshold] = field(default_factory=lambda: dict(DEFAULT_THRESHOLDS))
    ratings: tuple[Rating, ...] = ()
    notify: NotifySettings | None = None  # `notify:`: the rules and channels; None: sample does not notify
    run_deadline: float | None = None  # seconds (inf: none); None: the command's own (cli/app.py, DEFAULT_DEADLINES)
    run_lock_wait: float = DEFAULT_LOCK_WAIT_S  # how long a run waits for another to end (host/store/lock.py)
    files: tuple[str, ...] = ()  # the files that were read

    @property
    def call_timeout(self) -> float:
        """The timeout of a call whose device is not known (nvme-cli, the storage tools)."""
        return DEFAULT_TIMEOUT_S if self.smartctl_timeout is None else self.smartctl_timeout

    def context(self, now: datetime, represents_minutes: float | None = None) -> Context:
        """What assess needs from the configuration, for readings that are not live (saved outputs)."""
        from ssdwear.assess.context import Context

        return Context(now=now, represents_minutes=represents_minutes or self.represents_minutes,
                       ratings=self.ratings, interval_level=self.interval_level)


KNOWN_KEYS = ("smartctl", "smartctl_timeout", "smartctl_options", "workers", "wake", "devices", "db", "textfile_dir",
              "history_window", "represents", "interval_level", "record", "thresholds", "ratings", "smartd_attrlog",
              "notify", "groups", "run_deadline", "run_lock_wait")


def load(paths: Sequence[Path], required: Path | None = None) -> Config:
    """Read and merge the config files that exist; `required` (from --config) must exist."""
    config = Config()
    for path in paths:
        found = _read(path)
        if found is None:
            if required is not None and path == required:
                raise ConfigError(f"{path}: no such config file")
            continue
        text, mode = found
        before = config.notify.secrets if config.notify else ()
        config = _merge(config, path, text)
        _check_secrets(path, mode, [s for s in (config.notify.secrets if config.notify else ()) if s not in before])
    return config


def _check_secrets(path: Path, mode: int, secrets: Sequence[str]) -> None:
    """As root, a config file that holds a secret (notify's headers, tokens, a password in a URL) must be readable by
    root alone: mode 0600 (the trust rule already made it root's and writable by root alone)."""
    import stat

    from ssdwear.model.process import is_root

    if secrets and is_root() and stat.S_IMODE(mode) & 0o077:
        raise ConfigError(f"{secrets[0]}: holds a secret, but {path} is readable by others than root (mode "
                          f"{stat.S_IMODE(mode):04o}): chmod 600 {path}")


def _read(path: Path) -> tuple[str, int] | None:
    """The text of a config file and its mode, None when there is none. A config file names the smartctl that root
    runs and the database root writes: as root it is read from a descriptor judged by trust.open_trusted."""
    from .trust import open_trusted

    try:
        fd, _ = open_trusted(path, "config file", "chown root and chmod go-w it, or move it away")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "rb") as handle:
            return handle.read().decode("utf-8"), os.fstat(handle.fileno()).st_mode
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc})") from None


def _import_yaml() -> Any:
    import yaml

    return yaml


def _merge(config: Config, path: Path, text: str) -> Config:
    yaml = _import_yaml()
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{where}: not valid YAML: {problem}") from None
    if node is None:
        return config
    reader = _Reader(path)
    top = reader.mapping(node, "(top level)")
    updates: dict[str, Any] = {"files": (*config.files, str(path))}
    for key, (key_node, value) in top.items():
        if key not in KNOWN_KEYS:
            raise reader.error(key_node, key, f"unknown key; known keys: {', '.join(KNOWN_KEYS)}")
        if key in ("db", "textfile_dir"):
            updates[key] = reader.string(value, key)
        elif key == "smartctl":
            updates[key] = reader.absolute_path(value, key)
        elif key == "smartctl_options":
            updates[key] = reader.smartctl_options(value, key)
        elif key == "smartctl_timeout":
            updates[key] = reader.convert(value, key, parse_seconds)
        elif key == "workers":
            updates[key] = int(reader.number(value, key, WORKERS, integer=True))
        elif key in ("wake", "record", "groups"):
            updates[key] = reader.boolean(value, key)
        elif key == "devices":
            updates[key] = tuple(reader.device(item, f"devices[{i}]") for i, item in
                                 enumerate(reader.sequence(value, key)))
        elif key == "smartd_attrlog":
            updates.update(reader.attrlog_place(value, key))
        elif key == "run_deadline":
            updates[key] = reader.convert(value, key, parse_deadline_seconds)
        elif key == "run_lock_wait":
            updates[key] = reader.convert(value, key, lambda text: parse_duration_minutes(text, LOCK_WAIT) * 60)
        elif key == "history_window":
            updates["history_window_minutes"] = reader.convert(value, key, parse_duration_minutes)
        elif key == "represents":
            updates["represents_minutes"] = reader.convert(value, key, parse_duration_minutes)
        elif key == "interval_level":
            level = reader.number(value, key)
            if level not in LEVELS:
                raise reader.error(value, key, f"must be one of {', '.join(map(str, LEVELS))} (the levels "
                                               f"the intervals are calibrated for), got {level:g}")
            updates[key] = level
        elif key == "thresholds":
            updates[key] = reader.thresholds(value, dict(config.thresholds))
        elif key == "notify":
            from .notify_config import parse as parse_notify

            updates[key] = parse_notify(reader, value, config.notify)
        elif key == "ratings":
            new = tuple(reader.rating(item, f"ratings[{i}]") for i, item in enumerate(reader.sequence(value, key)))
            updates[key] = new + config.ratings
    return Config(**{**config.__dict__, **updates})


class _Reader:
    """Turns YAML nodes into checked values; every error names file, line and key."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def error(self, node: Node | None, key: str, problem: str) -> ConfigError:
        line = node.start_mark.line + 1 if node is not None else 0
        return ConfigError(f"{self.path}:{line}: {key}: {problem}")

    def _scalar(self, node: Node, key: str) -> object:
        yaml = _import_yaml()
        if not isinstance(node, yaml.ScalarNode):
            raise self.error(node, key, "expected a single value")
        try:
            return yaml.constructor.SafeConstructor().construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            raise self.error(node, key, f"unreadable value: {exc}") from None

    def mapping(self, node: Node, key: str) -> dict[str, tuple[Node, Node]]:
        yaml = _import_yaml()
        if not isinstance(node, yaml.MappingNode):
            raise self.error(node, key, "expected a mapping (key: value lines)")
        out: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            name = str(key_node.value)
            if name in out:
                raise self.error(key_node, name, "given twice")
            out[name] = (key_node, value_node)
        return out

    def sequence(self, node: Node, key: str) -> list[Node]:
        yaml = _import_yaml()
        if not isinstance(node, yaml.SequenceNode):
            raise self.error(node, key, "expected a list")
        return list(node.value)

    def string(self, node: Node, key: str) -> str:
        value = self._scalar(node, key)
        if value is None or isinstance(value, (bool, dict, list)) or str(value).strip() == "":
            raise self.error(node, key, "expected a non-empty string")
        return str(value)

    def absolute_path(self, node: Node, key: str) -> str:
        value = self.string(node, key)
        if not value.startswith("/"):
            raise self.error(node, key, f"must be an absolute path (e.g. /usr/sbin/smartctl), got {value!r}: a "
                                        "relative one would depend on the directory ssdwear is started from")
        return value

    def attrlog_place(self, node: Node, key: str) -> dict[str, Any]:
        """`false` (do not read smartd's attribute logs), or where they are: an absolute directory, or a prefix as
        smartd's -A takes it (/var/lib/smartmontools/attrlog.)."""
        if isinstance(self._scalar(node, key), bool):
            if self._scalar(node, key):
                raise self.error(node, key, "true is the default: give a directory or -A prefix, or false")
            return {"read_attrlog": False}
        value = self.string(node, key)
        if not value.startswith("/"):
            raise self.error(node, key, f"must be an absolute path (a directory, or a prefix as smartd's -A takes it, "
                                        f"e.g. /var/lib/smartmontools/attrlog.), got {value!r}")
        return {"smartd_attrlog": value, "read_attrlog": True}

    def smartctl_options(self, node: Node, key: str) -> tuple[str, ...]:
        from .trust import allowed_smartctl_options, drive_database_refusal, smartctl_option_problem

        options = tuple(self.string(item, f"{key}[{i}]") for i, item in enumerate(self.sequence(node, key)))
        problem = smartctl_option_problem(options)
        if problem is not None:
            raise self.error(node, key, f"{problem}: only options that change how smartctl reads are passed "
                                        f"through ({allowed_smartctl_options()}); never ones that send commands "
                                        "to the drive")
        refused = drive_database_refusal(options)  # checked again when smartctl is about to run (host/runner.py)
        if refused is not None:
            raise self.error(node, key, refused)
        return options

    def number(self, node: Node, key: str, limits: Limits | None = None, integer: bool = False) -> float:
        """A number (finite, and within `limits`); a problem names the value as written in the file."""
        value = self._scalar(node, key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
            raise self.error(node, key, f"expected {'a whole number' if integer else 'a number'}, got {value!r}")
        if not math.isfinite(value):
            raise self.error(node, key, f"expected a finite number, got '{node.value}'")
        if limits is not None:
            try:
                limits.check(float(value), node.value)
            except ValueError as exc:
                raise self.error(node, key, str(exc)) from None
        return float(value)

    def boolean(self, node: Node, key: str) -> bool:
        value = self._scalar(node, key)
        if not isinstance(value, bool):
            raise self.error(node, key, f"expected true or false, got {value!r}")
        return value

    def convert(self, node: Node, key: str, fn: Callable[[str], T]) -> T:
        """`fn` of the value as written in the file (so that its messages quote what the user typed)."""
        self._scalar(node, key)
        try:
            return fn(node.value)
        except (ValueError, TypeError) as exc:
            raise self.error(node, key, str(exc)) from None

    def size(self, node: Node, key: str, limits: Limits) -> int:
        return int(self.convert(node, key, lambda text: parse_bytes(text, limits)))

    def device(self, node: Node, key: str) -> DeviceSpec:
        yaml = _import_yaml()
        if isinstance(node, yaml.ScalarNode):
            return DeviceSpec(self.device_name(node, key))
        fields = self.mapping(node, key)
        unknown = set(fields) - {"device", "type"}
        if unknown:
            name = sorted(unknown)[0]
            raise self.error(fields[name][0], f"{key}.{name}", "unknown key; use device and type")
        if "device" not in fields:
            raise self.error(node, key, "needs 'device' (e.g. /dev/sda or /dev/bus/0)")
        dtype = self.device_name(fields["type"][1], f"{key}.type") if "type" in fields else None
        return DeviceSpec(self.device_name(fields["device"][1], f"{key}.device"), dtype)

    def device_name(self, node: Node, key: str) -> str:
        from .trust import device_problem

        value = self.string(node, key)
        problem = device_problem(value)
        if problem is not None:
            raise self.error(node, key, f"{value!r} cannot be passed to smartctl: {problem}")
        return value

    def thresholds(self, node: Node, current: dict[str, Threshold]) -> dict[str, Threshold]:
        for name, (key_node, value) in self.mapping(node, "thresholds").items():
            if name not in THRESHOLD_NAMES:
                raise self.error(key_node, f"thresholds.{name}",
                                 f"unknown threshold; known: {', '.join(THRESHOLD_NAMES)}")
            levels = self.mapping(value, f"thresholds.{name}")
            values = dict(current.get(name, Threshold()).__dict__)
            for level, (level_key, level_value) in levels.items():
                if level not in ("warning", "critical"):
                    raise self.error(level_key, f"thresholds.{name}.{level}", "use warning and critical")
                values[level] = self.number(level_value, f"thresholds.{name}.{level}", THRESHOLDS[name])
            current[name] = Threshold(**values)
        return current

    def rating(self, node: Node, key: str) -> Rating:
        """One of the config's ratings, read and checked by the fields' table (drives/ratings.py RATING_FIELDS,
        its config keys) and the rules every rating is held to (rating_problem)."""
        fields = self.mapping(node, key)
        by_key = {f.config: f for f in RATING_FIELDS if f.config}
        for name, (key_node, _) in fields.items():
            if name not in by_key:
                raise self.error(key_node, f"{key}.{name}", f"unknown key; use {', '.join(sorted(by_key))}")
        values = {by_key[name].attr: self._rating_value(by_key[name], value, f"{key}.{name}")
                  for name, (_, value) in fields.items()}
        problem = rating_problem(values, CONFIG_KEYS.get)
        if problem is not None:
            attr, said = problem
            about = CONFIG_KEYS[attr] if attr is not None else None
            raise self.error(fields[about][1] if about else node, f"{key}.{about}" if about else key, said)
        workload = values.get("workload")
        if workload is not None and workload not in WORKLOAD_KINDS:
            raise self.error(fields["workload"][1], f"{key}.workload", f"use {', '.join(WORKLOAD_KINDS)} (the "
                             "workload the rating is stated on, for plan)")
        tbw, dwpd, years, low, high = (values.get(a) for a in ("bytes", "dwpd", "warranty_years", "bytes_low",
                                                               "bytes_high"))
        note = values.get("note") or (bytes_text(tbw) if tbw else f"{dwpd:g} DWPD x {years:g} years" if dwpd else
                                      bytes_span(low or 0, high or 0))
        return Rating(**{"bytes": None, **values, "note": note,
                         "workload": WORKLOAD_KINDS[workload] if workload else None})

    def _rating_value(self, f: RatingField, node: Node, key: str) -> Any:
        if f.kind == "bytes":
            assert f.limits is not None
            return self.size(node, key, f.limits)
        if f.kind == "number":
            return self.number(node, key, f.limits)
        value = self.string(node, key)
        if f.kind == "pattern":
            import re

            try:
                re.compile(value)
            except re.error as exc:
                raise self.error(node, key, f"not a valid regular expression: {exc}") from None
        return value
