"""Generated fleet history: D drives x hourly samples x Y years in an ssdwear history database.

Each drive is one of the fixtures/intel templates (Intel 710, 320, DC S3700, Samsung 860 EVO) with its own
serial, and writes at its own pace: a daily rhythm plus noise, so host bytes written grow a little every hour,
the wear indicator (integer percent, as drives report it) steps up every few weeks or months, power-on hours
grow by one an hour (a server that never sleeps), and Intel drives carry their timed-workload counters
since manufacture (E4h = power-on minutes, E2h = wear in 1/1024 %).

The database is written with `Store.add_sample` (the first sample of each drive, which registers it) and
`_bulk_insert` (the rest, straight into the samples table),
then cached as bench/out/history-<key>.db with a .json beside it
holding the per-drive parameters. The key covers the generator's VERSION, the size and ssdwear's migrations.
`fixture_states` extends each drive's series to the present, so the replayed readings continue the history
however old the cache is (a cache older than MAX_AGE_DAYS is regenerated: the report only looks back 30 days).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from fleet import TEMPLATES, DriveState, clone, serial_for, template

VERSION = "history-v3"
HOURS_PER_YEAR = 8760
MAX_AGE_DAYS = 7.0
# Rated endurance (TBW) assumed for each template, to turn bytes written into percent used.
TBW = (1.0e15, 15e12, 3.65e15, 600e12)  # Intel 710 200 GB, 320 120 GB, DC S3700 200 GB, Samsung 860 EVO 1 TB


def cache_key(drives: int, years: float) -> str:
    from ssdwear.host.store.migrations import MIGRATIONS

    migrations = ",".join(name for name, _ in MIGRATIONS)
    digest = hashlib.sha1(f"{VERSION}|{drives}|{years}|{migrations}".encode()).hexdigest()[:10]
    return f"{drives}d-{years:g}y-{digest}"


def paths(out: Path, drives: int, years: float) -> tuple[Path, Path]:
    key = cache_key(drives, years)
    return out / f"history-{key}.db", out / f"history-{key}.json"


def _drive_params(index: int, hours: int) -> dict[str, Any]:
    rng = random.Random(f"ssdwear-bench-{index}")
    tpl = index % len(TEMPLATES)
    used_end = rng.uniform(4.0, 70.0)  # percent of rated endurance used after the whole history
    per_hour = used_end / 100 * TBW[tpl] / hours  # mean host bytes written per hour
    return {"index": index, "template": tpl, "poh0": rng.randint(0, 300), "per_hour": per_hour,
            "reads_percent": rng.randint(20, 75), "phase": rng.uniform(0, 24), "seed": rng.getrandbits(32)}


def _series(p: dict[str, Any], hours: int, t0_ms: int, src_id: int | None, intel: bool,
            spare: int | None, media: int | None) -> Any:
    """Rows for the samples table (without drive_id), hour 0 .. hours-1; also leaves the last state in p."""
    rng = random.Random(p["seed"])
    tbw = TBW[p["template"]]
    per_hour, phase, reads = p["per_hour"], p["phase"], p["reads_percent"]
    read_factor = reads / max(1, 100 - reads)
    poh0 = p["poh0"]
    written = 0.0
    shape = [1 + 0.6 * math.sin(2 * math.pi * (h + phase) / 24) for h in range(24)]
    for k in range(hours):
        written += per_hour * shape[k % 24] * rng.uniform(0.7, 1.3)
        w = int(written)
        exact = written / tbw * 100
        poh = poh0 + k
        if intel:
            yield (t0_ms + k * 3_600_000, float(poh), float(math.floor(exact)), src_id, w, int(w * read_factor), None,
                   int(exact * 1024), reads, poh * 60, spare, media)
        else:
            yield (t0_ms + k * 3_600_000, float(poh), float(math.floor(exact)), src_id, w, int(w * read_factor), None,
                   None, None, None, spare, media)
    p["last_written"] = int(written)
    p["last_poh"] = poh0 + hours - 1


def _final_sample_shape() -> dict[int, Any]:
    """Which optional sample fields ssdwear fills for each template (read through ssdwear itself)."""
    import tempfile

    from fleet import make_machine

    from ssdwear.assess import report as assess
    from ssdwear.run.session import sample_of
    from ssdwear.smartctl.calls import read_drive
    from ssdwear.smartctl.replay import ReplayRunner

    shapes = {}
    with tempfile.TemporaryDirectory() as tmp:
        make_machine(Path(tmp), len(TEMPLATES))
        runner = ReplayRunner(Path(tmp))
        now = datetime.now(timezone.utc)
        for i in range(len(TEMPLATES)):
            snap = read_drive(runner, f"/dev/sd{'abcd'[i]}", "sat")
            report = assess.assess(snap, assess.Context(now=now))
            s = sample_of(snap, report, now)
            shapes[i] = {"used_source": s.used_source, "spare": s.available_spare, "media": s.media_errors,
                         "intel": s.e4h is not None, "model": snap.model, "interface": snap.interface}
    return shapes


def generate(db_path: Path, meta_path: Path, drives: int, years: float, log: Any = print) -> dict[str, Any]:
    """Write the database and its parameters; return the parameters (with generation time and size)."""
    from ssdwear.host.store.queries import Store
    from ssdwear.model.records import DriveId, Sample

    for p in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm"), meta_path):
        if p.exists():
            p.unlink()
    db_path.parent.mkdir(parents=True, exist_ok=True)
    hours = round(years * HOURS_PER_YEAR)
    started = time.monotonic()
    shapes = _final_sample_shape()
    end = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0)
    t0 = end - timedelta(hours=hours - 1)
    t0_ms = int(t0.timestamp() * 1000)
    docs = [template(i) for i in range(len(TEMPLATES))]
    params = []
    store = Store.open(db_path)
    try:
        for index in range(drives):
            p = _drive_params(index, hours)
            shape = shapes[p["template"]]
            doc = clone(docs[p["template"]], index)
            serial, model, device = doc["serial_number"], doc["model_name"], doc["device"]["name"]
            key = DriveId(model, serial, None).key
            assert key is not None
            rows = list(_series(p, hours, t0_ms, None, shape["intel"], shape["spare"], shape["media"]))

            def sample(row: tuple[Any, ...], shape: dict[str, Any] = shape) -> Sample:
                named = dict(zip(ROW_FIELDS, row, strict=True))
                return Sample(**{**named, "at": datetime.fromtimestamp(named["at"] / 1000, tz=timezone.utc),
                                 "used_source": shape["used_source"]})

            # The first and the last sample go through add_sample (which registers the drive, its device path
            # and last_seen); the 87,598 in between through the bulk path.
            store.add_sample(DriveId(model, serial, None, shape["interface"]), sample(rows[0]), device)
            src = store.db.execute("SELECT id FROM sources WHERE name = ?", (shape["used_source"],)).fetchone()
            src_id = src[0] if src else None
            _bulk_insert(store, key, ((r[0], r[1], r[2], src_id, *r[4:]) for r in rows[1:-1]))
            store.add_sample(DriveId(model, serial, None, shape["interface"]), sample(rows[-1]), device)
            del rows
            params.append({**p, "serial": serial, "model": model, "device": device, "key": key})
            if log and (index + 1) % 10 == 0:
                log(f"  history: {index + 1}/{drives} drives, {time.monotonic() - started:.0f} s")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        store.close()
    seconds = time.monotonic() - started
    size = db_path.stat().st_size + sum(Path(f"{db_path}{s}").stat().st_size for s in ("-wal", "-shm")
                                        if Path(f"{db_path}{s}").exists())
    meta = {"version": VERSION, "drives": drives, "years": years, "hours": hours, "samples": drives * hours,
            "generated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "last_sample_ms": t0_ms + (hours - 1) * 3_600_000, "generation_seconds": round(seconds, 1),
            "size_bytes": size, "params": params}
    meta_path.write_text(json.dumps(meta, indent=1))
    return meta


def load_or_generate(out: Path, drives: int, years: float, log: Any = print, force: bool = False
                     ) -> tuple[Path, dict[str, Any], bool]:
    """The cached database and its parameters; generated when missing, stale or forced. Returns (db, meta,
    generated_now)."""
    db_path, meta_path = paths(out, drives, years)
    if not force and db_path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        age_days = (time.time() * 1000 - meta["last_sample_ms"]) / 86_400_000
        if meta.get("version") == VERSION and age_days <= MAX_AGE_DAYS:
            return db_path, meta, False
        log(f"  history cache {db_path.name} is {age_days:.1f} days old: regenerating")
    log(f"  generating {drives} drives x {years:g} years of hourly samples into {db_path} ...")
    meta = generate(db_path, meta_path, drives, years, log)
    return db_path, meta, True


def fixture_states(meta: dict[str, Any], now: datetime, just_reset: bool = False) -> list[DriveState | None]:
    """Each drive's reading at `now`: its history continued at its mean pace since the last sample.

    just_reset: Intel drives show a timer reset a moment ago (E2h-E4h read 65535), so that no drive has a valid
    timed-workload window and every drive's projection comes from its history (the report's worst case)."""
    elapsed_h = max(0.0, (now.timestamp() * 1000 - meta["last_sample_ms"]) / 3_600_000)
    states: list[DriveState | None] = []
    for p in meta["params"]:
        tbw = TBW[p["template"]]
        written = int(p["last_written"] + p["per_hour"] * elapsed_h)
        poh = int(p["last_poh"] + round(elapsed_h))
        exact = written / tbw * 100
        intel = p["template"] != 3
        if intel and just_reset:
            e2, e3, e4 = 65535, 4294967295, 65535
        elif intel:
            e2, e3, e4 = int(exact * 1024), p["reads_percent"], poh * 60
        else:
            e2 = e3 = e4 = None
        states.append(DriveState(power_on_hours=poh, used_percent=math.floor(exact), host_bytes_written=written,
                                 e2h=e2, e3h=e3, e4h=e4))
    return states


def fixture_serials(meta: dict[str, Any]) -> list[str]:
    return [p["serial"] for p in meta["params"]]


def check_serials(meta: dict[str, Any]) -> None:
    """The cached parameters and fleet.py agree on serial numbers (else regenerate with --regenerate)."""
    docs = [template(i) for i in range(len(TEMPLATES))]
    for p in meta["params"]:
        expected = serial_for(p["index"], docs[p["template"]]["serial_number"])
        if expected != p["serial"]:
            raise RuntimeError(f"cached history serial {p['serial']} != {expected}: rerun with --regenerate")


# The fields of the raw rows _series yields (and _bulk_insert writes), by the samples table's field table.
ROW_FIELDS = ("at", "power_on_hours", "used_percent", "used_source", "host_bytes_written", "host_bytes_read",
              "nand_bytes_written", "e2h", "e3h", "e4h", "available_spare", "media_errors")


def _bulk_insert(store: Any, key: str, rows: Any) -> None:
    """Generated history the fast way: raw sample-table rows (ROW_FIELDS: ms, numbers, the used source's id) for a
    drive add_sample registered."""
    from ssdwear.host.store.columns import SAMPLE_COLUMNS

    column = {c.field: c.column for c in SAMPLE_COLUMNS}
    (drive_id,) = store.db.execute("SELECT id FROM drives WHERE key = ?", (key,)).fetchone()
    store.db.execute("BEGIN IMMEDIATE")
    try:
        store.db.executemany(f"INSERT INTO samples (drive_id, {', '.join(column[f] for f in ROW_FIELDS)}) "
                             f"VALUES ({', '.join('?' * (len(ROW_FIELDS) + 1))})",
                             ((drive_id, *row) for row in rows))
        store.db.execute("COMMIT")
    except BaseException:
        store.db.execute("ROLLBACK")
        raise
