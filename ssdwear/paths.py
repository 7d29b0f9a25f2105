"""Where ssdwear keeps its history and looks for its configuration."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

ENV_DB = "SSDWEAR_DB"
ENV_CONFIG = "SSDWEAR_CONFIG"
ENV_SMARTCTL = "SSDWEAR_SMARTCTL"
SYSTEM_DB = Path("/var/lib/ssdwear/history.db")
SYSTEM_CONFIG = Path("/etc/ssdwear/config.yaml")


def default_db_path() -> Path:
    """/var/lib/ssdwear/history.db for root, else $XDG_DATA_HOME/ssdwear/history.db."""
    from .trust import is_root

    if is_root():
        return SYSTEM_DB
    data_home = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data_home) / "ssdwear" / "history.db"


def db_path(explicit: Optional[str], configured: Optional[str], disabled: bool = False, replaying: bool = False
            ) -> Optional[Path]:
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


def config_paths(explicit: Optional[str] = None) -> list[Path]:
    """The config files read, later ones overriding earlier ones: system, user, then --config/SSDWEAR_CONFIG."""
    paths = [Path(os.environ.get("SSDWEAR_SYSTEM_CONFIG") or SYSTEM_CONFIG), user_config_path()]
    extra = explicit or os.environ.get(ENV_CONFIG)
    if extra:
        paths.append(Path(extra))
    return paths
