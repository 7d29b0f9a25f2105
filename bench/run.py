#!/usr/bin/env python3
"""ssdwear's benchmark: process counts, parallel reads, start-up, fleet-scale history, and the naive path.

    python3 bench/run.py            full run (about 80 s; plus about 20 s once, to generate the history)
    python3 bench/run.py --quick    fewer repeats, no per-Device naive run (under 2 minutes)

Prints a table of measured values, targets and ratios (measured / target: <= 1.00 passes), a summary block
for bench/README.md's latest figures, and writes the same figures to bench/out/latest.json. Exits 1 when a target
is missed and names it. Everything is measured in this one run on this machine; see bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import fleet  # bench/ is the script's directory, first on sys.path
import history

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

SLEEP = 0.1  # seconds each fake smartctl call takes in the parallel and naive benchmarks
DRIVES = 64
FLEET_DRIVES = 60
FLEET_YEARS = 10.0


# -- results -------------------------------------------------------------------------------------------------------


@dataclass
class Row:
    key: str
    section: str
    name: str
    value: float | None
    unit: str
    limit: float | None = None  # a target: value <= limit (value == limit when exact)
    exact: bool = False
    ref: float | None = None  # no target, but show value / ref as the ratio (e.g. against a target above)
    note: str = ""

    @property
    def is_target(self) -> bool:
        return self.limit is not None

    @property
    def ok(self) -> bool | None:
        if self.limit is None:
            return None
        if self.value is None:
            return False
        return self.value == self.limit if self.exact else self.value <= self.limit

    @property
    def ratio(self) -> float | None:
        base = self.limit if self.limit is not None else self.ref
        if base is None or self.value is None or base == 0:
            return None
        return self.value / base


ROWS: list[Row] = []
FACTS: dict[str, Any] = {}


def row(key: str, section: str, name: str, value: float | None, unit: str, limit: float | None = None,
        exact: bool = False, ref: float | None = None, note: str = "") -> Row:
    r = Row(key, section, name, value, unit, limit, exact, ref, note)
    ROWS.append(r)
    shown = fmt(value, unit)
    if r.is_target:
        shown += f"  (target {'=' if exact else '<='} {fmt(limit, unit)}: {'ok' if r.ok else 'MISSED'})"
    elif r.ratio is not None:
        shown += f"  ({r.ratio:.2f} of {fmt(ref, unit)})"
    say(f"    {name}: {shown}{'  - ' + note if note else ''}")
    return r


def get(key: str) -> Row | None:
    return next((r for r in ROWS if r.key == key), None)


def fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "s":
        return f"{value:.3f} s"
    if unit == "ms":
        return f"{value:.3f} ms" if value < 1 else f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"
    if unit in ("MB", "MiB"):
        return f"{value:.1f} {unit}"
    if unit == "x":
        return f"{value:.1f}x"
    if float(value).is_integer():
        return f"{int(value):,}{(' ' + unit) if unit else ''}"
    return f"{value:.2f}{(' ' + unit) if unit else ''}"


def say(text: str) -> None:
    print(text, flush=True)


# -- running commands ----------------------------------------------------------------------------------------------


@dataclass
class Run:
    wall: float
    rc: int
    stdout: bytes
    stderr: bytes
    maxrss_kib: int
    cpu: float


def run(cmd: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT) -> Run:
    """One fresh process: its wall time and, through wait4, its peak RSS and CPU time."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(wall, proc.returncode, out.read(), err.read(), usage.ru_maxrss, usage.ru_utime + usage.ru_stime)


def repeat(cmd: list[str], times: int, env: dict[str, str] | None = None,
           ok: Callable[[Run], bool] = lambda r: r.rc == 0) -> list[Run]:
    runs = []
    for _ in range(times):
        r = run(cmd, env)
        if not ok(r):
            raise RuntimeError(f"{' '.join(cmd)} failed (exit {r.rc}): {r.stderr.decode(errors='replace')[-800:]}")
        runs.append(r)
    return runs


def median(runs: list[Run]) -> float:
    return statistics.median(r.wall for r in runs)


def ssdwear_cmd(module: bool = False) -> list[str]:
    """The console script pip installed beside this interpreter, else (or with --module) `python -m ssdwear`, run
    from this checkout (commands run with cwd = the checkout, so its ssdwear/ comes first on sys.path)."""
    script = Path(sys.executable).with_name("ssdwear")
    if not module and script.is_file() and os.access(script, os.X_OK):
        return [str(script)]
    return [sys.executable, "-m", "ssdwear"]


def base_env(tmp: Path) -> dict[str, str]:
    """A clean environment: no user or system config, a throw-away history, no colour."""
    env = dict(os.environ)
    for name in ("SSDWEAR_SMARTCTL", "SSDWEAR_CONFIG", "SSDWEAR_DEBUG", "SSDWEAR_DB", "FAKE_SMARTCTL_LOG",
                 "FAKE_SMARTCTL_SLEEP", "FAKE_SMARTCTL_HANG", "FAKE_SMARTCTL_DIR"):
        env.pop(name, None)
    env.update({"SSDWEAR_DB": str(tmp / "unused-history.db"), "SSDWEAR_SYSTEM_CONFIG": str(tmp / "no-config.yaml"),
                "XDG_CONFIG_HOME": str(tmp / "xdg-config"), "XDG_DATA_HOME": str(tmp / "xdg-data"),
                "TERM": "dumb", "NO_COLOR": "1", "COLUMNS": "200"})
    return env


def with_fake(env: dict[str, str], folder: Path, log: Path | None = None, sleep: float = 0.0) -> dict[str, str]:
    out = dict(env)
    out["FAKE_SMARTCTL_DIR"] = str(folder)
    out.pop("FAKE_SMARTCTL_LOG", None)
    out.pop("FAKE_SMARTCTL_SLEEP", None)
    if log is not None:
        out["FAKE_SMARTCTL_LOG"] = str(log)
    if sleep:
        out["FAKE_SMARTCTL_SLEEP"] = f"{sleep:g}"
    return out


def read_log(log: Path) -> list[list[str]]:
    return [line.split() for line in log.read_text().splitlines() if line.strip()] if log.exists() else []


def classify(calls: list[list[str]], devices: list[str]) -> dict[str, Any]:
    """Per-device call counts, scans and anything else."""
    per_device: Counter[str] = Counter()
    scans = other = 0
    for args in calls:
        if "--scan-open" in args:
            scans += 1
        elif args and args[-1] in devices:
            per_device[args[-1]] += 1
        else:
            other += 1
    counts = [per_device.get(d, 0) for d in devices]
    return {"total": len(calls), "scans": scans, "other": other, "min": min(counts), "max": max(counts),
            "kinds": Counter(" ".join(a[:-1]) for a in calls if a and a[-1] in devices).most_common(4)}


def has_command(ctx: Context, name: str) -> bool:
    return run([*ctx.ssdwear, name, "--help"], ctx.env).rc == 0


# -- 1. one smartctl process per drive -----------------------------------------------------------------------------


def count_calls(ctx: Context, what: str, args: list[str]) -> None:
    log = ctx.tmp / f"argv-{what}.log"
    r = run([*ctx.ssdwear, "--smartctl", str(ctx.pyfake), *args], with_fake(ctx.env, ctx.machine, log))
    c = classify(read_log(log), ctx.devices)
    FACTS[f"processes_{what}"] = c
    uneven = c["min"] != c["max"]
    note = f"{c['total']} calls: {c['scans']} scan + {c['total'] - c['scans'] - c['other']} reads, exit {r.rc}"
    if uneven:
        note += f"; per drive between {c['min']} and {c['max']}"
    # An uneven count never equals the target.
    row(f"{what}_per_drive", "processes", f"{what}: smartctl calls per drive", c["max"] + (0.5 if uneven else 0), "",
        limit=1, exact=True, note=note)
    row(f"{what}_other", "processes", f"{what}: other calls (the scan)", c["scans"] + c["other"], "", limit=1,
        exact=True)
    if what == "report" and r.rc in (0, 3):
        drives = json.loads(r.stdout)["drives"]
        good = [d for d in drives if not d.get("error")]
        row("report_drives", "processes", "report: drives reported, distinct serials, no error",
            min(len(good), len({d.get("serial") for d in good})), "", limit=DRIVES, exact=True)


def bench_processes(ctx: Context) -> None:
    say(f"\n[1] smartctl processes per drive (argv-logging tests/support/fake_smartctl.py, {DRIVES} drives)")
    count_calls(ctx, "report", ["--no-history", "report", "--format", "json"])
    if not has_command(ctx, "sample"):
        say("    sample: `ssdwear sample --help` failed: no sample command yet; skipped")
        FACTS["processes_sample"] = "skipped: no sample command"
        return
    count_calls(ctx, "sample", ["--db", str(ctx.tmp / "sample-count.db"), "sample"])


# -- 2. parallel reads ---------------------------------------------------------------------------------------------


def per_call_ms(cmd: list[str], env: dict[str, str], n: int) -> float:
    """Mean wall time of one call, calls run one after another."""
    started = time.perf_counter()
    for _ in range(n):
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return (time.perf_counter() - started) / n * 1000


def bare_parallel_calls(fake: Path, env: dict[str, str], devices: list[str], workers: int) -> float:
    """The floor: the fake's read calls from a thread pool, nothing else (no ssdwear, no parsing)."""
    def one(device: str) -> None:
        subprocess.run([str(fake), *fleet.read_args(device)], capture_output=True, env=env, check=False)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(one, devices))
    return time.perf_counter() - started


def bench_parallel(ctx: Context) -> None:
    from ssdwear.host.config import Config

    default = Config().workers
    FACTS["default_workers"] = default
    say(f"\n[2] parallel reads: {DRIVES} drives, every smartctl call takes {SLEEP * 1000:.0f} ms "
        f"(default workers: {default})")
    fake = ctx.fastfake
    kind = "compiled fake" if fake != ctx.pyfake else "Python fake: no C compiler"
    reps = ctx.reps_parallel
    named = ["-d", "sat", "--format", "json", *ctx.devices]
    base = [*ctx.ssdwear, "--smartctl", str(fake), "--no-history"]
    nosleep = with_fake(ctx.env, ctx.machine)
    slow = with_fake(ctx.env, ctx.machine, sleep=SLEEP)

    startup = median(repeat([*base, "report", "-d", "sat", "--format", "json", ctx.devices[0]], reps + 2, nosleep))
    limit = 1.3 * (startup + SLEEP)
    row("parallel_startup", "parallel", f"start-up: report over 1 drive, no sleep ({kind})", startup, "s")
    runs = repeat([*base, "report", *named], reps, slow)
    row("parallel_default", "parallel", f"report, {DRIVES} named drives x {SLEEP * 1000:.0f} ms, default workers "
        f"({default})", median(runs), "s", limit=limit,
        note=f"target 1.3 x (start-up + {SLEEP * 1000:.0f} ms); peak RSS "
             f"{max(r.maxrss_kib for r in runs) / 1024:.0f} MiB")
    sweep = {default: (median(runs), max(r.maxrss_kib for r in runs) / 1024)}
    for workers in ctx.worker_sweep:
        runs = repeat([*base, "--workers", str(workers), "report", *named], reps, slow)
        sweep[workers] = (median(runs), max(r.maxrss_kib for r in runs) / 1024)
        row(f"parallel_w{workers}", "parallel", f"  the same, --workers {workers}", sweep[workers][0], "s", ref=limit,
            note=f"ssdwear peak RSS {sweep[workers][1]:.0f} MiB")
    FACTS["parallel_sweep"] = {str(k): {"wall": v[0], "peak_rss_mib": v[1]} for k, v in sorted(sweep.items())}
    needed = next((w for w in sorted(sweep) if sweep[w][0] <= limit), None)
    FACTS["parallel_workers_needed"] = needed
    FACTS["parallel_target_s"] = limit
    say(f"    smallest worker count of {sorted(sweep)} that meets the target: {needed or 'none'}")

    runs = repeat([*base, "--workers", "64", "report", "--format", "json"], reps, slow)
    row("parallel_scan64", "parallel", "  scan + reads (the scan takes 100 ms too), --workers 64", median(runs), "s",
        ref=limit, note=f"the scan is one more serial call: 1.3 x (start-up + 200 ms) = "
                        f"{1.3 * (startup + 2 * SLEEP):.3f} s")
    floor = statistics.median(bare_parallel_calls(fake, slow, ctx.devices, 64) for _ in range(reps))
    row("parallel_floor", "parallel", "  floor: the 64 fake calls alone from 64 threads (no ssdwear)", floor, "s")

    # The same with tests/support/fake_smartctl.py, whose start-up costs about what real smartctl's does here.
    pybase = [*ctx.ssdwear, "--smartctl", str(ctx.pyfake), "--no-history"]
    py_startup = median(repeat([*pybase, "report", "-d", "sat", "--format", "json", ctx.devices[0]], reps, nosleep))
    py64 = median(repeat([*pybase, "--workers", "64", "report", *named], reps, slow))
    py_floor = statistics.median(bare_parallel_calls(ctx.pyfake, slow, ctx.devices, 64) for _ in range(reps))
    row("parallel_py_startup", "parallel", "  Python fake: start-up (1 drive)", py_startup, "s")
    row("parallel_py64", "parallel", "  Python fake: 64 named drives, --workers 64", py64, "s",
        ref=1.3 * (py_startup + SLEEP), note=f"floor (fake calls alone) {py_floor:.3f} s")
    costs = [("compiled fake", [str(fake), *fleet.read_args("/dev/sda")], nosleep),
             ("tests/support/fake_smartctl.py (python -S)", [str(ctx.pyfake), *fleet.read_args("/dev/sda")], nosleep)]
    real = shutil.which("smartctl") or next((p for p in ("/usr/sbin/smartctl", "/sbin/smartctl")
                                             if os.path.exists(p)), None)
    if real:
        costs.append(("real smartctl --json=c -x /dev/null", [real, "--json=c", "-x", "-d", "sat", "/dev/null"],
                      ctx.env))
    for i, (label, cmd, env) in enumerate(costs):
        row(f"call_ms_{i}", "parallel", f"  one call, alone: {label}", per_call_ms(cmd, env, 20), "ms")

    # Threads vs. processes: the same reads through ssdwear.smartctl.calls in a thread pool and in a process pool.
    probe = []
    for mode, workers in ctx.pool_probes:
        r = run([sys.executable, str(BENCH / "pool_probe.py"), mode, str(workers), str(fake), *ctx.devices], slow)
        if r.rc != 0:
            say(f"    pool probe {mode} {workers} failed: {r.stderr.decode(errors='replace')[-300:]}")
            continue
        p = json.loads(r.stdout)
        probe.append(p)
        extra = (f"; the {workers} worker processes: RSS {p['workers_rss_kib'] / 1024:.0f} MiB, "
                 f"PSS {p['workers_pss_kib'] / 1024:.0f} MiB" if mode == "process" else "")
        row(f"pool_{mode}_{workers}", "parallel", f"  64 reads in a pool of {workers} {mode}"
            f"{'es' if mode == 'process' else 's'} (no start-up)", p["wall"], "s",
            note=f"parent peak RSS {p['self_peak_rss_kib'] / 1024:.0f} MiB{extra}")
    FACTS["pool_probe"] = probe


# -- 3. start-up ---------------------------------------------------------------------------------------------------


def importtime(cmd: list[str], env: dict[str, str]) -> list[tuple[int, int, int, str]]:
    """(self us, cumulative us, depth, module) for every import of `python -X importtime CMD`."""
    r = run([sys.executable, "-X", "importtime", *cmd], env)
    out = []
    for line in r.stderr.decode(errors="replace").splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if m:
            out.append((int(m.group(1)), int(m.group(2)), (len(m.group(3)) - 1) // 2, m.group(4)))
    return out


def _children(imports: list[tuple[int, int, int, str]], parent: str) -> list[tuple[int, str]]:
    """Direct children of a top-level module, heaviest first (importtime lists children before the parent)."""
    out: list[tuple[int, str]] = []
    pending: list[tuple[int, str]] = []
    for _, cumulative, depth, module in imports:
        if depth == 1:
            pending.append((cumulative, module))
        elif depth == 0:
            if module == parent:
                out = sorted(pending, reverse=True)[:4]
            pending = []
    return out


def bench_startup(ctx: Context) -> None:
    say("\n[3] start-up (fresh processes, median)")
    reps = ctx.reps_startup
    intel = str(ROOT / "fixtures" / "intel")
    help_cmd = [*ctx.ssdwear, "--help"]
    replay = [*ctx.ssdwear, "--no-history", "--replay", intel, "report", "--format", "json"]
    row("startup_help", "startup", "ssdwear --help", median(repeat(help_cmd, reps, ctx.env)), "s", limit=0.25)
    row("startup_replay", "startup", "ssdwear --no-history --replay fixtures/intel report --format json",
        median(repeat(replay, reps, ctx.env)), "s", limit=0.25)
    row("startup_table", "startup", "  the same as a table (rich)",
        median(repeat([*ctx.ssdwear, "--no-history", "--replay", intel, "report"], reps, ctx.env)), "s")
    # With compiled bytecode cached, as after `pip install` (this sandbox sets PYTHONDONTWRITEBYTECODE=1, so most
    # of ssdwear/ is compiled from source at every start). The cache goes to a temporary folder, not ssdwear/.
    warm = dict(ctx.env, PYTHONPYCACHEPREFIX=str(ctx.tmp / "pycache"))
    warm.pop("PYTHONDONTWRITEBYTECODE", None)
    run(replay, warm)
    run([*ctx.ssdwear, "--no-history", "--replay", intel, "report"], warm)
    row("startup_help_warm", "startup", "  --help, bytecode cached", median(repeat(help_cmd, reps, warm)), "s")
    row("startup_replay_warm", "startup", "  replay JSON report, bytecode cached", median(repeat(replay, reps, warm)),
        "s")
    row("startup_python", "startup", "  python3 -c pass (the interpreter and its site)",
        median(repeat([sys.executable, "-c", "pass"], reps, ctx.env)), "s")
    # What typing `ssdwear` finds first on PATH when it is not the script beside the interpreter (a pyenv shim).
    here = Path(ctx.ssdwear[0]).resolve()
    others = [Path(d) / "ssdwear" for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    shim = next((str(p) for p in others if p.is_file() and os.access(p, os.X_OK) and p.resolve() != here
                 and p.parent.resolve() != here.parent), None)
    if shim:
        row("startup_shim", "startup", f"  `ssdwear --help` through {shim}",
            median(repeat([shim, "--help"], max(3, reps // 2), ctx.env)), "s",
            note="what the wrapper in front of the interpreter adds is not ssdwear's")

    heavy = ("pySMART", "rich", "yaml", "sqlite3", "click", "chardet")
    for label, cmd in (("--help", ["-m", "ssdwear", "--help"]),
                       ("replay JSON report", ["-m", "ssdwear", "--no-history", "--replay", intel, "report",
                                               "--format", "json"]),
                       ("replay table report", ["-m", "ssdwear", "--no-history", "--replay", intel, "report"])):
        imports = importtime(cmd, ctx.env)
        total = sum(s for s, _, _, _ in imports) / 1000
        top_level = sorted(((c, m) for _, c, d, m in imports if d == 0), reverse=True)[:8]
        by_self = sorted(((s, m) for s, _, _, m in imports), reverse=True)[:8]
        loaded = {h: any(m == h or m.startswith(h + ".") for _, _, _, m in imports) for h in heavy}
        in_site = _children(imports, "site")
        FACTS[f"imports {label}"] = {"total_ms": total, "top_level_ms": [(m, c / 1000) for c, m in top_level],
                                     "top_self_ms": [(m, s / 1000) for s, m in by_self], "loaded": loaded,
                                     "site_children_ms": [(m, c / 1000) for c, m in in_site]}
        say(f"    -X importtime {label}: {total:.0f} ms of imports; loaded: "
            + ", ".join(f"{h} {'yes' if v else 'no'}" for h, v in loaded.items()))
        say("      top level (cumulative ms): " + ", ".join(f"{m} {c / 1000:.1f}" for c, m in top_level))
        say("      heaviest modules (self ms): " + ", ".join(f"{m} {s / 1000:.1f}" for s, m in by_self))
        if in_site:
            say("      of which in site (.pth files of this environment, not ssdwear): "
                + ", ".join(f"{m} {c / 1000:.1f}" for c, m in in_site))


# -- 4. history at fleet scale -------------------------------------------------------------------------------------


def bench_history(ctx: Context) -> None:
    say(f"\n[4] history: {FLEET_DRIVES} drives x hourly samples x {FLEET_YEARS:g} years")
    db, meta, fresh = history.load_or_generate(ctx.out, FLEET_DRIVES, FLEET_YEARS, log=say, force=ctx.regenerate)
    history.check_serials(meta)
    FACTS["history"] = {**{k: v for k, v in meta.items() if k != "params"}, "generated_in_this_run": fresh,
                        "file": str(db)}
    row("history_samples", "history", f"samples in the database ({'generated in this run' if fresh else 'cached'})",
        meta["samples"], "")
    row("history_generation", "history", "generation time (add_sample + a bulk insert)",
        meta["generation_seconds"], "s", note="in this run" if fresh else f"cached, made {meta['generated_at']}")
    size = db.stat().st_size + sum(Path(f"{db}{s}").stat().st_size for s in ("-wal", "-shm")
                                   if Path(f"{db}{s}").exists())
    row("history_size", "history", "database size", size / 1e6, "MB", limit=500,
        note=f"{size / meta['samples']:.1f} bytes per sample")

    work = ctx.tmp / "history.db"  # this run's writes go to a copy; the cache stays as generated
    started = time.perf_counter()
    shutil.copyfile(db, work)
    say(f"    (copied the database for this run's writes in {time.perf_counter() - started:.1f} s)")

    from ssdwear.host.store.queries import Store
    from ssdwear.model.records import DriveId, Sample

    params = meta["params"]
    now = datetime.now(timezone.utc)
    store = Store.open(work)
    try:
        mode = store.db.execute("PRAGMA journal_mode").fetchone()[0]
        sync = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(store.db.execute("PRAGMA synchronous").fetchone()[0])
        p = params[0]
        times = []
        for i in range(ctx.reps_append):
            s = Sample(at=now - timedelta(minutes=30) + timedelta(seconds=i), power_on_hours=float(p["last_poh"] + 1),
                       used_percent=10.0, used_source="ata_devstat_percentage_used",
                       host_bytes_written=p["last_written"] + i, host_bytes_read=p["last_written"] // 2)
            t = time.perf_counter()
            store.add_sample(DriveId(p["model"], p["serial"], None, "ata"), s, p["device"])
            times.append((time.perf_counter() - t) * 1000)
        row("history_append", "history", f"one add_sample (own transaction, journal {mode}, synchronous {sync})",
            statistics.median(times), "ms", limit=50, note=f"median of {len(times)}; max {max(times):.2f} ms")
        batch = []
        for i in range(max(3, ctx.reps_append // 4)):
            rows = [(q["key"], q["model"], q["serial"], None, "ata",
                     Sample(at=now - timedelta(minutes=20) + timedelta(seconds=i),
                            power_on_hours=float(q["last_poh"] + 1), used_percent=10.0,
                            used_source="ata_devstat_percentage_used", host_bytes_written=q["last_written"] + 1),
                     q["device"]) for q in params]
            t = time.perf_counter()
            store.add_samples(rows)
            batch.append((time.perf_counter() - t) * 1000)
        row("history_append60", "history", f"add_samples of {len(params)} drives in one transaction (a `sample` run)",
            statistics.median(batch), "ms")
        reads = []
        for q in params:
            t = time.perf_counter()
            got = store.samples(q["key"], since=now - timedelta(days=30))
            reads.append((time.perf_counter() - t) * 1000)
        row("history_read30", "history", "Store.samples(drive, last 30 days)", statistics.median(reads), "ms",
            note=f"{len(got)} samples; all {len(params)} drives: {sum(reads):.0f} ms")
        t = time.perf_counter()
        whole = store.samples(params[0]["key"])
        row("history_read_all", "history", f"Store.samples(drive), all {FLEET_YEARS:g} years",
            (time.perf_counter() - t) * 1000, "ms", note=f"{len(whole):,} samples (what `ssdwear history` reads)")
    finally:
        store.close()

    folder, worst = ctx.tmp / "fleet60", ctx.tmp / "fleet60-reset"
    fleet.make_machine(folder, FLEET_DRIVES, history.fixture_states(meta, now))
    fleet.make_machine(worst, FLEET_DRIVES, history.fixture_states(meta, now, just_reset=True))
    reps = ctx.reps_history

    def ok(r: Run) -> bool:
        return r.rc in (0, 3)

    def methods(r: Run) -> str:
        doc = json.loads(r.stdout)
        found = Counter((d.get("projection") or {}).get("method") for d in doc["drives"])
        return ", ".join(f"{n} {m}" for m, n in found.most_common())

    db_args = [*ctx.ssdwear, "--db", str(work)]
    for key, label, fixture, extra, target in (
            ("history_report", "report (table), 60 drives with 10 years of history", folder, [], True),
            ("history_report_worst", "report (table), worst case: every drive reads and fits its history", worst, [],
             True),
            ("history_report_worst_json", "  the same, --format json", worst, ["--format", "json"], False)):
        runs = repeat([*db_args, "--replay", str(fixture), "report", *extra], reps, ctx.env, ok=ok)
        shown = run([*db_args, "--replay", str(fixture), "report", "--format", "json"], ctx.env)
        row(key, "history", label, median(runs), "s", limit=1.0 if target else None,
            note=f"exit {runs[-1].rc}; projections: {methods(shown)}")
    nohist = repeat([*ctx.ssdwear, "--no-history", "--replay", str(worst), "report"], reps, ctx.env, ok=ok)
    row("history_report_nohistory", "history", "  the worst case with --no-history (no history read)", median(nohist),
        "s", note="the history's cost is the difference")
    if has_command(ctx, "sample"):
        runs = repeat([*db_args, "--replay", str(folder), "sample"], reps, ctx.env, ok=ok)
        row("history_sample", "history", "ssdwear sample (60 drives read + 60 samples stored)", median(runs), "s",
            note=f"exit {runs[-1].rc}")
    else:
        say("    ssdwear sample: no sample command yet; skipped")


# -- 5. the naive path ---------------------------------------------------------------------------------------------


# Hostile inputs for `analyze`: each a file at (or just under) the input cap, built to cost the most memory.
WORST_INPUTS = {
    "largest real output (corpus, for scale)": None,
    "4 MiB of 'Warning:' lines (message flood)": lambda cap: b"smartctl 7.3 2022-02-28 r5338\n" + b"".join(
        b"Warning: message %d\n" % i for i in range(cap // 22)),
    "4 MiB of attribute rows": lambda cap: b"smartctl 7.3 2022-02-28 r5338\nID# ATTRIBUTE_NAME FLAGS VALUE WORST "
        b"THRESH FAIL RAW_VALUE\n" + b"  9 Power_On_Hours -O--CK 100 100 000 - 12345\n" * (cap // 47),
    "4 MiB JSON of empty arrays (refused by count)": lambda cap: b'{"smartctl":{},"x":[' + b"[]," * (cap // 3 - 10)
        + b"[]]}",
    "4 MiB JSON just under the container limit": lambda cap: b'{"smartctl":{},"x":[' + b'"' + b"x" * (cap - 600_100)
        + b'",' + b"[]," * 99_990 + b"[]]}",
    "64 MiB file (read stops at the cap)": lambda cap: b"smartctl 7.3\n" + b"x" * (64 * 1024 * 1024),
    "4 MiB of NVMe log dump headers": lambda cap: b"smartctl 7.3 2022-02-28 r5338\n" + b"NVMe Log 0xca (0x4000 bytes)\n"
        * (cap // 30),
    "4 MiB JSON of NVMe log dump headers (--json=co lines)": lambda cap: b'{"smartctl":{"output":['
        + b'"NVMe Log 0xca (0x4000 bytes)",' * (cap // 31 - 10) + b'""]}}',
}
# docs/security.md (drive strings and saved outputs) promises that the worst inputs stay under this.
INPUT_LIMIT_MIB = 45


def bench_input(ctx: Context) -> None:
    """Peak memory of `ssdwear analyze` on the worst inputs a mailed-in file can be, each in a fresh process."""
    from ssdwear.smartctl.parse import MAX_INPUT_BYTES

    corpus = ROOT / "fixtures" / "corpus"
    real = max((p for p in corpus.iterdir() if p.suffix in (".txt", ".json")), key=lambda p: p.stat().st_size,
               default=None) if corpus.is_dir() else None
    folder = ctx.tmp / "inputs"
    folder.mkdir(exist_ok=True)
    peak_file = folder / "peak"

    def peak(*args: str) -> tuple[float, Run]:
        r = run([sys.executable, str(BENCH / "peakmem.py"), str(peak_file), "-m", "ssdwear", *args], ctx.env)
        return int(peak_file.read_text()) / 1024, r

    row("input_baseline", "input", "ssdwear --help (the interpreter and ssdwear's imports)", peak("--help")[0], "MiB")
    for i, (label, make) in enumerate(WORST_INPUTS.items()):
        if make is None:
            if real is None:
                continue
            path = real
            label = f"{label}: {real.name} ({real.stat().st_size / 1024:.0f} KiB)"
        else:
            path = folder / f"worst{i}"
            path.write_bytes(make(MAX_INPUT_BYTES))
        mib, r = peak("analyze", "--format", "json", str(path))
        row(f"input_{i}", "input", f"analyze: {label}", mib, "MiB", limit=INPUT_LIMIT_MIB,
            note=f"exit {r.rc}, {r.wall:.2f} s")


def bench_naive(ctx: Context) -> None:
    say(f"\n[5] naive path: pySMART, sequential, {DRIVES} drives x {SLEEP * 1000:.0f} ms per call "
        "(tests/support/fake_smartctl.py for both sides)")
    base = [*ctx.ssdwear, "--smartctl", str(ctx.pyfake), "--no-history"]
    env = with_fake(ctx.env, ctx.machine, sleep=SLEEP)
    default = FACTS.get("default_workers", "default")
    ours = median(repeat([*base, "report", "--format", "json"], ctx.reps_parallel, env))
    ours64 = median(repeat([*base, "--workers", "64", "report", "--format", "json"], ctx.reps_parallel, env))
    row("naive_ours", "naive", f"ssdwear report (scan + 1 call per drive), {default} workers", ours, "s")
    row("naive_ours64", "naive", "ssdwear report (scan + 1 call per drive), --workers 64", ours64, "s")
    modes = [("devicelist", [])] + ([("device", ctx.devices)] if ctx.naive_device else [])
    results = {}
    for mode, names in modes:
        log = ctx.tmp / f"argv-naive-{mode}.log"
        r = run([sys.executable, str(BENCH / "naive.py"), str(ctx.pyfake), mode, *names],
                with_fake(ctx.env, ctx.machine, log, SLEEP))
        if r.rc != 0:
            raise RuntimeError(f"naive {mode} failed: {r.stderr.decode(errors='replace')[-800:]}")
        info = json.loads(r.stdout)
        c = classify(read_log(log), ctx.devices)
        results[mode] = {"wall": r.wall, "calls": c, "drives": info["drives"], "read_seconds": info["read_seconds"]}
        label = "pySMART.DeviceList()" if mode == "devicelist" else "one pySMART.Device(name) per drive"
        per_drive = (c["total"] - c["scans"] - c["other"]) / DRIVES
        row(f"naive_{mode}", "naive", label, r.wall, "s", ref=ours,
            note=f"{info['drives']} drives; {c['total']} calls = {per_drive:g} per drive + {c['scans']} scan: "
                 + "; ".join(f"'{k} DEV' x{n}" for k, n in c["kinds"]))
        row(f"naive_{mode}_calls", "naive", f"  {label}: smartctl calls per drive", per_drive, "")
        row(f"naive_{mode}_ratio64", "naive", f"  {label} / ssdwear --workers 64", r.wall / ours64, "x")
    if not ctx.naive_device:
        say("    one pySMART.Device per drive: skipped with --quick (about twice the DeviceList time)")
    FACTS["naive"] = results


# -- the run -------------------------------------------------------------------------------------------------------


@dataclass
class Context:
    tmp: Path
    out: Path
    env: dict[str, str]
    ssdwear: list[str]
    machine: Path
    devices: list[str]
    pyfake: Path
    fastfake: Path
    quick: bool
    regenerate: bool
    reps_startup: int
    reps_parallel: int
    reps_history: int
    reps_append: int
    worker_sweep: tuple[int, ...]
    pool_probes: tuple[tuple[str, int], ...]
    naive_device: bool


def compile_fast_fake(dest: Path) -> Path | None:
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        return None
    r = subprocess.run([cc, "-O2", "-o", str(dest), str(BENCH / "fake_smartctl_fast.c")], capture_output=True,
                       check=False)
    return dest if r.returncode == 0 else None


def machine_facts(ctx: Context) -> dict[str, Any]:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    return {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "host": platform.node(),
            "cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
            "load_before": os.getloadavg(), "commit": git("rev-parse", "--short", "HEAD"),
            "ssdwear_dirty": bool(git("status", "--porcelain", "--", "ssdwear")),
            "mode": "quick" if ctx.quick else "full", "ssdwear": " ".join(ctx.ssdwear), "fast_fake": str(ctx.fastfake)}


def print_table() -> None:
    width = 124
    say("\n" + "=" * width)
    say(f"{'benchmark':<72} {'measured':>13} {'target':>13} {'ratio':>8}  result")
    say("-" * width)
    section = None
    for r in ROWS:
        if r.section != section:
            section = r.section
            say(f"[{section}]")
        target = "" if r.limit is None else ("= " if r.exact else "<= ") + fmt(r.limit, r.unit)
        ratio = "" if r.ratio is None else f"{r.ratio:.2f}"
        result = "" if r.ok is None else ("ok" if r.ok else "MISSED")
        say(f"{r.name[:72]:<72} {fmt(r.value, r.unit):>13} {target:>13} {ratio:>8}  {result}")
    say("=" * width)
    say("ratio = measured / target (<= 1.00 passes); on rows without a target, measured / the reference named in the "
        "log above")


def summary(facts: dict[str, Any]) -> str:
    def v(key: str) -> str:
        r = get(key)
        return "n/a" if r is None else fmt(r.value, r.unit)

    def t(key: str) -> str:
        r = get(key)
        if r is None:
            return "not measured"
        ratio = "" if r.exact or r.ratio is None else f", {r.ratio:.2g} of the target"
        return f"{fmt(r.value, r.unit)} ({'ok' if r.ok else 'MISSED'}{ratio})"

    load = facts["load_before"][0], facts.get("load_after", [0])[0]
    lines = [f"Latest figures on this machine ({facts['date'][:10]}, {facts['cpus']} cores, load average "
             f"{load[0]:.1f} before / {load[1]:.1f} after, Python {facts['python']}, commit {facts['commit']}"
             f"{' + uncommitted ssdwear/ changes' if facts['ssdwear_dirty'] else ''}; `python3 bench/run.py"
             f"{' --quick' if facts['mode'] == 'quick' else ''}`, {facts['elapsed_seconds']:.0f} s):", ""]
    if get("report_per_drive"):
        sample = (f"; `sample`: {t('sample_per_drive')} + {v('sample_other')} scan" if get("sample_per_drive")
                  else "; `sample`: not available")
        lines.append(f"- smartctl processes per drive (target: exactly 1), counted with an argv-logging fake over "
                     f"{DRIVES} drives: `report`: {t('report_per_drive')} + {v('report_other')} scan{sample}")
    if get("parallel_default"):
        needed = FACTS.get("parallel_workers_needed")
        sweep = ", ".join(f"{w}: {d['wall']:.3f} s" for w, d in FACTS.get("parallel_sweep", {}).items())
        lines.append(f"- parallel reads, {DRIVES} drives x 100 ms: target 1.3 x (start-up {v('parallel_startup')} "
                     f"+ 100 ms) = {fmt(FACTS.get('parallel_target_s'), 's')}; default {FACTS.get('default_workers')} "
                     f"workers {t('parallel_default')}; by --workers {sweep}; "
                     f"{'met from --workers ' + str(needed) if needed else 'not met by any worker count tried'}")
        lines.append(f"- the same with tests/support/fake_smartctl.py (a Python start per call): 64 workers "
                     f"{v('parallel_py64')} vs start-up {v('parallel_py_startup')}; one call alone: compiled fake "
                     f"{v('call_ms_0')}, Python fake {v('call_ms_1')}, real smartctl {v('call_ms_2')}")
    if get("startup_help"):
        lines.append(f"- start-up: `ssdwear --help` {t('startup_help')}, replayed JSON report {t('startup_replay')} "
                     f"(target 0.25 s); with bytecode cached {v('startup_help_warm')} / {v('startup_replay_warm')}")
    imports = [(label, FACTS[f"imports {label}"]) for label in ("--help", "replay JSON report", "replay table report")
               if f"imports {label}" in FACTS]
    if imports:
        lines.append("- imports (`python3 -X importtime`): " + "; ".join(
            f"{label} {d['total_ms']:.0f} ms, loads " + (", ".join(h for h, on in d["loaded"].items() if on) or "-")
            for label, d in imports))
    if get("history_size"):
        lines.append(f"- history, {FLEET_DRIVES} drives x hourly x {FLEET_YEARS:g} years = {v('history_samples')} "
                     f"samples (generated in {v('history_generation')}): database {t('history_size')}, one "
                     f"add_sample {t('history_append')}, report {t('history_report')}, worst case (every drive "
                     f"fits its history) {t('history_report_worst')}; `sample` {v('history_sample')}")
    if get("naive_devicelist"):
        device = (f"; one Device per drive {v('naive_device')} ({v('naive_device_calls')} calls per drive)"
                  if get("naive_device") else "")
        lines.append(f"- naive path (pySMART, sequential): DeviceList {v('naive_devicelist')} "
                     f"({v('naive_devicelist_calls')} call per drive + scan){device}; ssdwear report "
                     f"{v('naive_ours')} ({FACTS.get('default_workers')} workers), {v('naive_ours64')} (64 workers): "
                     f"DeviceList is {v('naive_devicelist_ratio64')} slower than ssdwear with 64 workers"
                     + (f", one Device per drive {v('naive_device_ratio64')}" if get("naive_device") else ""))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, no per-Device naive run (< 2 min)")
    parser.add_argument("--out", type=Path, default=BENCH / "out", help="results and the history cache "
                        "(default bench/out, git-ignored)")
    parser.add_argument("--regenerate", action="store_true", help="regenerate the cached history database")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (fake machines, argv logs)")
    parser.add_argument("--module", action="store_true", help="run `python3 -m ssdwear` from this checkout instead "
                        "of the installed console script (to measure a scratch copy of the repository)")
    parser.add_argument("--only", metavar="LIST", help="comma-separated subset of: processes,parallel,startup,"
                        "history,input,naive")
    args = parser.parse_args()
    started = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="ssdwear-bench-"))
    try:
        machine = tmp / "machine64"
        docs = fleet.make_machine(machine, DRIVES, pysmart=True)
        pyfake = fleet.write_wrapper(tmp / "bin" / "smartctl")
        (tmp / "fastbin").mkdir()  # called smartctl: as root ssdwear runs no program of another name (host/trust.py)
        fast = compile_fast_fake(tmp / "fastbin" / "smartctl") or pyfake
        quick = args.quick
        ctx = Context(tmp=tmp, out=args.out, env=base_env(tmp), ssdwear=ssdwear_cmd(args.module), machine=machine,
                      devices=[d["device"]["name"] for d in docs], pyfake=pyfake, fastfake=fast, quick=quick,
                      regenerate=args.regenerate, reps_startup=5 if quick else 11, reps_parallel=3 if quick else 5,
                      reps_history=3 if quick else 5, reps_append=12 if quick else 40,
                      worker_sweep=(16, 32, 64) if quick else (16, 32, 48, 64, 96),
                      pool_probes=(("thread", 8), ("thread", 64), ("process", 64)) if quick else
                      (("thread", 8), ("thread", 64), ("process", 8), ("process", 64)), naive_device=not quick)
        facts = machine_facts(ctx)
        dirty = " + uncommitted ssdwear/ changes" if facts["ssdwear_dirty"] else ""
        say(f"ssdwear benchmark ({facts['mode']}): {facts['cpus']} cores, load {facts['load_before'][0]:.2f}, "
            f"Python {facts['python']}, commit {facts['commit']}{dirty}")
        say(f"  ssdwear = {facts['ssdwear']}; fakes: {pyfake} (tests/support/fake_smartctl.py), {fast}; temp {tmp}")
        only = set(args.only.split(",")) if args.only else None
        sections = (("processes", bench_processes), ("parallel", bench_parallel), ("startup", bench_startup),
                    ("history", bench_history), ("input", bench_input), ("naive", bench_naive))
        durations = {}
        for name, fn in sections:
            if only and name not in only:
                continue
            t = time.perf_counter()
            fn(ctx)
            durations[name] = round(time.perf_counter() - t, 1)
        facts["load_after"] = os.getloadavg()
        facts["section_seconds"] = durations
        facts["elapsed_seconds"] = round(time.perf_counter() - started, 1)
        print_table()
        text = summary(facts)
        say("\n" + text)
        missed = [r for r in ROWS if r.is_target and not r.ok]
        (args.out / "latest.json").write_text(json.dumps(
            {"machine": facts, "rows": [{**asdict(r), "ok": r.ok, "ratio": r.ratio} for r in ROWS],
             "facts": FACTS, "summary": text, "missed": [r.name for r in missed]}, indent=1, default=str) + "\n")
        say(f"\nwrote {args.out / 'latest.json'}; {facts['elapsed_seconds']:.0f} s "
            f"({', '.join(f'{k} {v:.0f} s' for k, v in durations.items())})")
        if missed:
            say("\nTARGETS MISSED:")
            for r in missed:
                say(f"  - {r.name}: {fmt(r.value, r.unit)}, target {'=' if r.exact else '<='} {fmt(r.limit, r.unit)}"
                    + (f" (ratio {r.ratio:.2f})" if r.ratio is not None and not r.exact else ""))
            return 1
        say("\nall targets met")
        return 0
    finally:
        if args.keep:
            say(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
