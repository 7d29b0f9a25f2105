"""notify's delivery survives being killed (issue 28.6): a delivery cut off by a real SIGKILL of the process while
its channel blocks is sent again at the next run, with the same key and id (at-least-once), and the state counts the
event once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from support.http import serve
from support.wearing import config, machine


def notify(smartctl: Path, cfg: Path, folder: Path) -> list[str]:
    return [sys.executable, "-m", "ssdwear", "--smartctl", str(smartctl), "--config", str(cfg), "notify"]


@pytest.mark.slow
def test_a_delivery_cut_off_by_sigkill_is_sent_again_with_the_same_key_and_counted_once(
        tmp_path: Path, fake_smartctl: Any) -> None:
    folder = machine(tmp_path / "m", {"/dev/nvme0": "N0001"}, used=85)  # two alerts fire: verdict, used_percent
    smartctl, _ = fake_smartctl(folder)
    db = Path(os.environ["SSDWEAR_DB"])
    with serve() as hook:
        hook.hold = threading.Event()  # the webhook takes the request and does not answer
        cfg = config(tmp_path, f"notify:\n  timeout: 120\n  channels:\n    - webhook: {hook.url}/hook\n")
        proc = subprocess.Popen(notify(smartctl, cfg, folder), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert hook.arrived.wait(120), "the first event never reached the webhook"
            os.kill(proc.pid, signal.SIGKILL)  # while its delivery waits for an answer
        finally:
            proc.wait(60)
        assert proc.returncode == -signal.SIGKILL
        cut = json.loads(hook.requests[0].body)
        with sqlite3.connect(db) as conn:
            assert conn.execute("SELECT count(*), sum(times_sent) FROM alerts WHERE state = 'firing'").fetchone() \
                == (2, 2)
            waiting = [json.loads(e) for (e,) in conn.execute("SELECT event FROM alert_outbox ORDER BY id")]
        assert [e["key"] for e in waiting] == [cut["key"], f"{cut['drive']['model']}|N0001/used_percent"]
        hook.hold.set()  # from now on it answers
        hook.hold = None
        again = subprocess.run(notify(smartctl, cfg, folder), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    resent = [json.loads(r.body) for r in hook.requests[1:]]
    assert resent[0] == cut  # the same document: its key, its id, its time
    assert [e["id"] for e in resent] == [e["id"] for e in waiting]  # each once, and nothing new
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM alert_outbox").fetchone() == (0,)
        assert conn.execute("SELECT sum(times_sent) FROM alerts").fetchone() == (2,)
