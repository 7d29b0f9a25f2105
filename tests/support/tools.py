"""External tools some tests need (promtool, node_exporter, VictoriaMetrics, qemu). CI installs them and sets
SSDWEAR_REQUIRE_TOOLS=1, which turns a missing tool into a failure instead of a skip."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


def require_qemu() -> None:
    """Skip (fail under SSDWEAR_REQUIRE_TOOLS) where tools/qemuvm.py cannot boot its VM here."""
    from tools import qemuvm

    reason = qemuvm.qemu_available()
    if reason is None:
        return
    if os.environ.get("SSDWEAR_REQUIRE_TOOLS"):
        pytest.fail(f"QEMU cannot run here: {reason}")
    pytest.skip(f"QEMU cannot run here: {reason}")


def optional(name: str) -> str | None:
    return shutil.which(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def first_answer(proc: subprocess.Popen[bytes], url: str, name: str) -> str:
    """The body of the first answer a server we started gives at `url`, within 30 s; fails when it exits first."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return bytes(response.read()).decode()
        except OSError:
            if proc.poll() is not None:
                stderr = proc.stderr.read().decode() if proc.stderr else ""
                raise AssertionError(f"{name} exited: {stderr[-2000:]}") from None
            assert time.monotonic() < deadline, f"{name} did not answer in 30 s"
            time.sleep(0.2)


def scrape_textfile(textfile_dir: Path) -> tuple[str, str]:
    """(instance, /metrics body) of a real node_exporter serving the textfile collector directory
    textfile_dir, scraped once; fails when node_exporter reports a textfile scrape error."""
    exporter = require("prometheus-node-exporter", "node_exporter")
    port = free_port()
    proc = subprocess.Popen([exporter, f"--web.listen-address=127.0.0.1:{port}", "--collector.disable-defaults",
                             "--collector.textfile", f"--collector.textfile.directory={textfile_dir}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        body = first_answer(proc, f"http://127.0.0.1:{port}/metrics", "node_exporter")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert "node_textfile_scrape_error 0" in body
    return f"127.0.0.1:{port}", body


@contextmanager
def victoria_metrics(data: Path) -> Iterator[str]:
    """A real single-node VictoriaMetrics on loopback (Debian's victoria-metrics), storing in `data`; yields its URL
    and stops it afterwards. Queries see what was just written (-search.latencyOffset=0s)."""
    server = require("victoria-metrics")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([server, f"-httpListenAddr=127.0.0.1:{port}", f"-storageDataPath={data}",
                             "-search.latencyOffset=0s", "-retentionPeriod=1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert first_answer(proc, f"{url}/health", "victoria-metrics").strip() == "OK"
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)
