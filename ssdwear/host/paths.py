"""Where ssdwear keeps its history and looks for its configuration, and what a command-line argument that names a
drive or a saved output is."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Literal

from .platforms import facts

ENV_DB = "SSDWEAR_DB"
ENV_CONFIG = "SSDWEAR_CONFIG"
ENV_SMARTCTL = "SSDWEAR_SMARTCTL"


def default_db_path(platform: str | None = None) -> Path:
    """The system's history database for root (/var/lib/ssdwear/history.db; FreeBSD: /var/db/ssdwear/history.db),
    else $XDG_DATA_HOME/ssdwear/history.db."""
    from ssdwear.model.process import is_root

    if is_root():
        return facts(platform).system_db
    data_home = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data_home) / "ssdwear" / "history.db"


def db_path(explicit: str | None, configured: str | None, disabled: bool = False, replaying: bool = False
            ) -> Path | None:
    """The history database: --db, else SSDWEAR_DB, else the config's `db`, else the default. None when disabled
    (--no-history), and for replayed runs unless a database is named (recorded drives stay out of this
    machine's history). The one place SSDWEAR_DB is read."""
    named = explicit or os.environ.get(ENV_DB)
    if disabled or (replaying and not named):
        return None
    return Path(named or configured or default_db_path())


def user_config_path() -> Path:
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(config_home) / "ssdwear" / "config.yaml"


def config_paths(explicit: str | None = None, platform: str | None = None) -> list[Path]:
    """The config files read, later ones overriding earlier ones: system (/etc/ssdwear/config.yaml; FreeBSD:
    /usr/local/etc/ssdwear/config.yaml), user, then --config/SSDWEAR_CONFIG."""
    paths = [Path(os.environ.get("SSDWEAR_SYSTEM_CONFIG") or facts(platform).system_config), user_config_path()]
    extra = explicit or os.environ.get(ENV_CONFIG)
    if extra:
        paths.append(Path(extra))
    return paths


# What an argument naming a drive or a saved smartctl output is (classify).
ArgumentKind = Literal["device", "file", "missing-file", "name"]
# How saved smartctl outputs are usually named (sdb.txt, sda-smartctl-x.json, nvme0.out).
_SAVED_OUTPUT = re.compile(r"\.(?:txt|json|out|log|smart|smartctl|text|dump)$", re.I)
DEVICE_FORMS = facts().device_forms  # how to name a drive on this machine, for messages


def classify(text: str, platform: str | None = None) -> tuple[ArgumentKind, str]:
    """What `text` names, decided the same way for every command, and the name to use for it:

    - 'device': a /dev/ path, a device node elsewhere, or a kernel device name without /dev/ (Linux: 'sda',
      'nvme0', 'nvme0n1'; FreeBSD: 'ada0', 'da0', 'nvme0', 'nda0', 'nvd0'; the name to use is its /dev/ path);
    - 'file': anything else that exists (a saved output; a directory or FIFO is refused when it is read);
    - 'missing-file': nothing by that name, but it is a path or is named like a saved output ('sdb.txt');
    - 'name': anything else (a serial, WWN or model: plan --from looks it up in the history).

    An existing file wins over a kernel name: `sda` in a directory holding a file `sda` is that file.
    """
    if text.startswith("/dev/"):
        return "device", text
    try:
        mode: int | None = os.stat(text).st_mode
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in the name
        mode = None
    except OSError:  # it exists but cannot be looked at: reading it says why
        return "file", text
    if mode is not None:
        return ("device", text) if stat.S_ISBLK(mode) or stat.S_ISCHR(mode) else ("file", text)
    if facts(platform).device_name.fullmatch(text):
        return "device", f"/dev/{text}"
    if "/" in text or _SAVED_OUTPUT.search(text):
        return "missing-file", text
    return "name", text


def md_arrays(sys_root: Path = Path("/sys")) -> list[str]:
    """The md arrays the kernel runs (/sys/block/mdN/md), by name: mdadm's list is checked against them."""
    try:
        return sorted(p.parent.name for p in (sys_root / "block").glob("md*/md") if p.is_dir())
    except OSError:
        return []
