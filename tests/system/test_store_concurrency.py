"""The history store under concurrency and crashes: nothing committed is ever lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from support.paths import ROOT
from support.store import count_samples

from ssdwear.host.store.queries import Store

SAMPLER = textwrap.dedent("""
    import sys
    from datetime import datetime, timezone
    from ssdwear.model.records import DriveId, Sample
    from ssdwear.host.store.queries import Store

    db, count, who = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    store = Store.open(db)
    for i in range(count):
        # both samplers write the same drive at the same instants: keys collide on purpose
        at = datetime.fromtimestamp(1_790_000_000 + i, tz=timezone.utc)
        store.add_sample(DriveId("MODEL", "SERIAL1", None, "nvme"),
                         Sample(at=at, power_on_hours=float(i), used_percent=1.0, used_source=who,
                                host_bytes_written=i), "/dev/nvme0")
        print(i + 1, flush=True)
""")


def sampler(db: Path, count: int, who: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", SAMPLER, str(db), str(count), who], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def test_two_concurrent_samplers_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "history.db"
    procs = [sampler(db, 1000, "a"), sampler(db, 1000, "b")]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        assert out.split()[-1] == "1000"
    with Store.open(db) as store:
        assert count_samples(store) == 2000
        sources = store.db.execute("SELECT src.name, count(*) FROM samples s JOIN sources src "
                                   "ON src.id = s.used_src GROUP BY src.name").fetchall()
        assert dict(sources) == {"a": 1000, "b": 1000}
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_kill_9_during_writes_keeps_every_committed_sample(tmp_path: Path) -> None:
    for trial, stop_after in enumerate((50, 333, 777)):
        db = tmp_path / f"history-{trial}.db"
        proc = sampler(db, 100_000, "k")
        committed = 0
        assert proc.stdout is not None
        for line in proc.stdout:
            committed = int(line)
            if committed >= stop_after:
                break
        os.kill(proc.pid, signal.SIGKILL)  # mid-write: the loop is inside one of its transactions
        proc.wait(timeout=30)
        rest = proc.stdout.read().split()  # what it reported committed before it died
        committed = int(rest[-1]) if rest else committed
        with Store.open(db) as store:
            assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = count_samples(store)
        # every sample reported committed is there; at most the one committed but not yet reported is extra
        assert committed <= stored <= committed + 1, (committed, stored)
