"""What every layer may ask about the running process: whether it runs as root (the trust rules, the default paths
and the words for a device that refused to open depend on it)."""

from __future__ import annotations

import os


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0
