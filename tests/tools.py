"""External tools some tests need (promtool, node_exporter, qemu). CI installs them and sets
SSDWEAR_REQUIRE_TOOLS=1, which turns a missing tool into a failure instead of a skip."""

from __future__ import annotations

import os
import shutil
from typing import Optional

import pytest


def require(name: str, *alternatives: str) -> str:
    for candidate in (name, *alternatives):
        path = shutil.which(candidate) or next((p for p in (f"/usr/sbin/{candidate}", f"/usr/bin/{candidate}")
                                                if os.access(p, os.X_OK)), None)
        if path:
            return path
    message = f"{name} is not installed (contrib/install-deps.sh --test installs it)"
    if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
        pytest.fail(message)
    pytest.skip(message)
    raise AssertionError("unreachable")


def optional(name: str) -> Optional[str]:
    return shutil.which(name)
