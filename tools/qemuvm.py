"""Boot a small QEMU VM with emulated NVMe, SATA and SCSI drives and run a shell script inside it.

A reusable harness, imported by ``tests/system/test_qemuvm.py``, by the VM tests of ssdwear and by
``tools/record_qemu.py``. It is not a test file itself.

How it works:

* ``build_image()`` builds, once, a kernel + initramfs into a cache directory outside the repository
  (``$SSDWEAR_QEMU_CACHE``, default ``~/.cache/ssdwear/qemu``): Debian's kernel package (the versioned
  ``linux-image-6.1.0-*-amd64`` that ``linux-image-amd64`` depends on, fetched with ``apt-get download``),
  the disk, virtio and 9p modules with their dependencies from ``modules.dep``, a static busybox,
  ``/usr/sbin/smartctl`` with the libraries ``ldd`` lists, smartctl's drive database and an ``/init``.
  The image is keyed on the kernel package + version, the hashes of smartctl, busybox and the drive
  database, and the hash of the init script and module list: change any of them and it is rebuilt.
* ``run_vm(drives, script)`` boots that kernel under pure software emulation (TCG; KVM is never used)
  with the given drives backed by sparse raw files. The guest shares the host's ``/`` read-only over 9p,
  puts a RAM-backed overlay on top of it (so every path is writable and writes vanish at power-off),
  mounts fresh (empty) tmpfs on ``/run`` and ssdwear's state and config directories
  (``/var/lib/ssdwear``, ``/etc/ssdwear``, ``~root/.config/ssdwear``, ``~root/.local/share/ssdwear``),
  bind-mounts ``/proc``, ``/sys`` and ``/dev`` and runs the caller's script with ``/bin/sh`` inside
  ``chroot`` of that tree: the host's python3, its installed packages (``pip install -e .``) and its
  smartctl run in the guest against real device nodes. A writable host directory
  (``VmResult.outdir``) is mounted at ``/vmout`` in the guest (``$SSDWEAR_VM_OUT``) for results, and
  what the guest changed in the host's tree (the overlay's upper directory) is shown read-only at
  ``$SSDWEAR_VM_CHANGES``: a test can install a package in the guest and see exactly what it left. The
  script's stdout and stderr go to the serial console (``VmResult.console``).

Example::

    from qemuvm import Drive, qemu_available, run_vm

    if (reason := qemu_available()) is not None:
        pytest.skip(reason)
    vm = run_vm([Drive.nvme("NVME0001"), Drive.sata("AHCI0001", model="INTEL SSDSC2BA200G3")],
                'smartctl -x /dev/nvme0 > "$SSDWEAR_VM_OUT/nvme0.txt"')
    assert vm.returncode == 0, vm.console
    text = (vm.outdir / "nvme0.txt").read_text()

A boot with five drives and a dozen smartctl calls takes about 15-30 s of wall time on 2 cores.

Disk drivers are loaded one at a time (nvme, then ahci, then ata_piix, then virtio_scsi), the init
waits for each driver's disks before loading the next one, and since nvme and sd probe devices
asynchronously, /init turns automatic driver binding off and binds the devices one by one in bus
order. So the names are stable: NVMe drives are ``/dev/nvme0``, ``/dev/nvme1``, … in the order given,
SATA disks are ``/dev/sda``, ``/dev/sdb``, … in the order given, and virtio-scsi disks follow the SATA
disks. Identify drives by serial anyway where it matters.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import gzip
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

__all__ = [
    "GUEST_CHANGES",
    "GUEST_OUT",
    "Drive",
    "Image",
    "QemuUnavailable",
    "VmError",
    "VmResult",
    "VmTimeout",
    "build_image",
    "default_cache_dir",
    "qemu_available",
    "run_vm",
]

QEMU = "qemu-system-x86_64"
SMARTCTL = Path("/usr/sbin/smartctl")
DRIVEDB = Path("/var/lib/smartmontools/drivedb/drivedb.h")  # Debian's postinst copies it from:
DRIVEDB_PACKAGED = Path("/usr/share/smartmontools/drivedb.h")
KERNEL_META_PACKAGE = "linux-image-amd64"
# Where the writable results directory is mounted inside the guest's chroot.
GUEST_OUT = "/vmout"
# Where the guest sees, read-only, what it changed in the host's tree (the overlay's upper directory).
GUEST_CHANGES = "/run/ssdwear-vm/changes"
# Directories that start empty in the guest (a tmpfs each), whatever the host has there: ssdwear's
# history and configuration places for root, so that the host's never leak into a VM test. The rest of
# the host's tree is seen as it is, writable through a RAM overlay. (/root itself cannot be a fresh
# tmpfs: the host's Python may live there, e.g. under pyenv.)
FRESH_DIRS: tuple[str, ...] = (
    "/var/lib/ssdwear",
    "/etc/ssdwear",
    "/root/.config/ssdwear",
    "/root/.local/share/ssdwear",
)

# Modules to load, in this order. Dependencies come from the kernel's modules.dep.
# overlay gives the guest a writable (RAM-backed) view of the read-only host tree.
MODULES: tuple[str, ...] = (
    "sd_mod",
    "sg",
    "nvme",
    "ahci",
    "ata_piix",
    "virtio_pci",
    "virtio_scsi",
    "9pnet_virtio",
    "9p",
    "overlay",
)
# Modules in the image that /init loads only when a run asks for them (run_vm(modules=...)), in this order, after
# the disk drivers: what the storage stacks ssdwear finds redundancy groups on need (md RAID 1/5/6/10, LVM's dm-raid,
# LUKS's dm-crypt with aes-xts-plain64 (xts(aes) is built on ecb(aes)) and the kernel crypto API cryptsetup uses,
# btrfs). crc32c_generic comes first: libcrc32c
# asks the crypto API for crc32c when it loads, and the initramfs has no modprobe to load it on demand.
ON_DEMAND_MODULES: tuple[str, ...] = (
    "crc32c_generic",
    "md_mod",
    "raid0",
    "raid1",
    "raid10",
    "raid456",
    "dm_mod",
    "dm_raid",
    "ecb",
    "xts",
    "algif_skcipher",
    "algif_hash",
    "dm_crypt",
    "btrfs",
)
# What they are for, by name: run_vm(modules=POOL_MODULES) makes md, LVM raid, LUKS and btrfs usable in the guest.
POOL_MODULES = ON_DEMAND_MODULES
# Module parameters passed to insmod (kmod is not in the initramfs, so /proc/cmdline is not consulted).
# SCSI hosts are not scanned by themselves: /init scans the virtio-scsi targets that hold disks
# (libata adds its disks directly, in port order, whatever this setting).
MODULE_PARAMS: dict[str, str] = {"scsi_mod": "scan=manual"}

# Bump to force a rebuild of every cached image after changing how images are assembled.
IMAGE_FORMAT = "1"

INIT_SCRIPT = r"""#!/bin/busybox sh
# /init of the ssdwear test VM (generated by tools/qemuvm.py).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys

log() { echo "ssdwear-vm: $*"; }
die() {
    log "FATAL: $*"
    echo "SSDWEAR-VM-FAILED $*"
    poweroff -f
}

NVME=0 ATA=0 SCSI=0 SCRIPT= DEBUG=0 EXTRA=
for arg in $(cat /proc/cmdline); do
    case "$arg" in
        ssdwear.modules=*) EXTRA=${arg#*=} ;;
        ssdwear.nvme=*) NVME=${arg#*=} ;;
        ssdwear.ata=*) ATA=${arg#*=} ;;
        ssdwear.scsi=*) SCSI=${arg#*=} ;;
        ssdwear.script=*) SCRIPT=${arg#*=} ;;
        ssdwear.debug=*) DEBUG=${arg#*=} ;;
    esac
done

load() {
    [ "$DEBUG" = 1 ] && log "$(cut -d' ' -f1 /proc/uptime) s: loading $1"
    while read -r ko params; do
        name=${ko%.ko}
        name=$(echo "$name" | tr - _)
        [ -d "/sys/module/$name" ] && continue
        # shellcheck disable=SC2086
        insmod "/modules/$ko" $params || die "insmod $ko failed"
    done < "/modules/$1.list"
}

# count PATTERN: how many paths match the glob
count() {
    n=0
    for p in $1; do [ -e "$p" ] && n=$((n + 1)); done
    echo "$n"
}

# wait_for N PATTERN: wait until at least N paths match the glob (30 s at most)
wait_for() {
    i=0
    while [ "$(count "$2")" -lt "$1" ]; do
        i=$((i + 1))
        [ "$i" -gt 300 ] && die "timed out waiting for $1 x $2 (have $(count "$2"))"
        sleep 0.1
    done
}

# nvme and sd probe their devices asynchronously, so the kernel's names (nvme0, sda, ...) would depend
# on timing. Automatic binding is switched off and each device is bound by hand, in bus order, which
# makes the names follow the order of the -device options.
load sd_mod
load sg
echo 0 > /sys/bus/scsi/drivers_autoprobe
echo 0 > /sys/bus/pci/drivers_autoprobe
load nvme
for d in $(ls /sys/bus/pci/devices); do
    [ "$(cat "/sys/bus/pci/devices/$d/class")" = 0x010802 ] || continue
    echo "$d" > /sys/bus/pci/drivers/nvme/bind || die "cannot bind $d to nvme"
    wait_for 1 "/sys/bus/pci/devices/$d/nvme/nvme*"
done
echo 1 > /sys/bus/pci/drivers_autoprobe
wait_for "$NVME" "/dev/nvme[0-9]*n1"
SDEVS="/sys/bus/scsi/devices/[0-9]*:[0-9]*:[0-9]*:[0-9]*"
load ahci
wait_for "$ATA" "$SDEVS"
load ata_piix
load virtio_pci
load virtio_scsi
# SCSI scanning is manual (scsi_mod scan=manual): a full scan of a virtio-scsi bus probes 256 targets,
# which takes ~8 s under TCG. The harness puts the disks at targets 0..SCSI-1, LUN 0.
# (libata adds its disks itself, whatever the scan mode.)
if [ "$SCSI" -gt 0 ]; then
    for h in /sys/class/scsi_host/host*; do
        [ "$(cat "$h/proc_name")" = virtio_scsi ] || continue
        t=0
        while [ "$t" -lt "$SCSI" ]; do
            echo "0 $t 0" > "$h/scan"
            t=$((t + 1))
        done
    done
fi
wait_for "$((ATA + SCSI))" "$SDEVS"
SORTED=$(ls /sys/bus/scsi/devices | grep -E '^[0-9]+:[0-9]+:[0-9]+:[0-9]+$' \
    | sort -t: -n -k1,1 -k2,2 -k3,3 -k4,4)
for d in $SORTED; do
    [ "$(cat "/sys/bus/scsi/devices/$d/type")" = 0 ] || continue
    echo "$d" > /sys/bus/scsi/drivers/sd/bind || die "cannot bind $d to sd"
done
echo 1 > /sys/bus/scsi/drivers_autoprobe
wait_for "$((ATA + SCSI))" "/dev/sd[a-z]"
load 9pnet_virtio
load 9p
load overlay
for m in $(echo "$EXTRA" | tr , ' '); do load "$m"; done
[ "$DEBUG" = 1 ] && { ls -l /dev/nvme* /dev/sd* /dev/sg* 2>/dev/null; cat /proc/partitions; }

P9="trans=virtio,version=9p2000.L,msize=262144"
mount -t 9p -o "$P9,ro,cache=loose" host /lower || die "cannot mount the host's / (9p tag host)"
mount -t tmpfs -o mode=0755 tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /host \
    || die "cannot mount the overlay on /host"
for d in proc sys dev; do mount --bind "/$d" "/host/$d" || die "cannot bind /$d"; done
mount -t tmpfs -o mode=0755 tmpfs /host/run
mkdir -p /host/dev/pts /host/dev/shm /host/vmout /host/run/ssdwear-vm
mount -t devpts devpts /host/dev/pts
mount -t tmpfs -o mode=1777 tmpfs /host/dev/shm
mount -t 9p -o "$P9" out /host/vmout || die "cannot mount the results directory (9p tag out)"
# What the guest changed in the host's tree: the overlay's upper directory, read-only, at $SSDWEAR_VM_CHANGES
# (a file written or replaced is there, a file deleted is a whiteout: a character device 0/0).
mkdir -p /host/run/ssdwear-vm/changes
mount --bind /rw/upper /host/run/ssdwear-vm/changes && mount -o remount,bind,ro /host/run/ssdwear-vm/changes \
    || die "cannot show the overlay's changes at /run/ssdwear-vm/changes"

[ -n "$SCRIPT" ] || die "no ssdwear.script= on the kernel command line"
cp "/lower$SCRIPT" /host/run/ssdwear-vm/guest.sh || die "cannot copy the guest script $SCRIPT"
log "$(cut -d' ' -f1 /proc/uptime) s: running the guest script"
chroot /host /bin/sh /run/ssdwear-vm/guest.sh </dev/null
rc=$?
log "$(cut -d' ' -f1 /proc/uptime) s: the guest script exited with status $rc"
echo "$rc" > /host/vmout/.ssdwear-vm-exit-status
sync
echo "SSDWEAR-VM-EXIT $rc"
poweroff -f
"""


class VmError(Exception):
    """The VM could not be booted or did not finish its script."""


class VmTimeout(VmError):
    """The guest did not power off in time."""


class QemuUnavailable(VmError):
    """QEMU, a kernel or another ingredient of the VM cannot be had on this machine."""


@dataclasses.dataclass(frozen=True)
class Drive:
    """One emulated drive. Use the ``nvme``, ``sata`` and ``scsi`` constructors."""

    kind: str  # "nvme" | "sata" | "scsi"
    serial: str
    size_mib: int = 1024  # size of the sparse backing file
    model: str | None = None  # SATA only: ATA model string (QEMU's default is "QEMU HARDDISK")
    rotation_rate: int | None = None  # SATA only: 1 = non-rotating (SSD)
    smart_critical_warning: int | None = None  # NVMe only: bits of the SMART critical warning byte

    @classmethod
    def nvme(cls, serial: str, *, size_mib: int = 1024, smart_critical_warning: int | None = None) -> Drive:
        return cls("nvme", serial, size_mib, smart_critical_warning=smart_critical_warning)

    @classmethod
    def sata(
        cls,
        serial: str,
        *,
        size_mib: int = 1024,
        model: str | None = None,
        rotation_rate: int | None = None,
    ) -> Drive:
        return cls("sata", serial, size_mib, model=model, rotation_rate=rotation_rate)

    @classmethod
    def scsi(cls, serial: str, *, size_mib: int = 1024) -> Drive:
        return cls("scsi", serial, size_mib)

    def __post_init__(self) -> None:
        if self.kind not in ("nvme", "sata", "scsi"):
            raise ValueError(f"unknown drive kind {self.kind!r}")
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,20}", self.serial):
            raise ValueError(f"serial {self.serial!r}: use 1-20 characters from A-Z a-z 0-9 _ . -")
        if self.model is not None and ("," in self.model or len(self.model) > 40):
            raise ValueError(f"model {self.model!r}: at most 40 characters and no comma")
        if self.kind != "sata" and (self.model is not None or self.rotation_rate is not None):
            raise ValueError("model and rotation_rate apply to SATA drives only")
        if self.kind != "nvme" and self.smart_critical_warning is not None:
            raise ValueError("smart_critical_warning applies to NVMe drives only")


@dataclasses.dataclass(frozen=True)
class Image:
    """A bootable kernel + initramfs in the cache."""

    kernel: Path
    initrd: Path
    kernel_version: str  # uname -r of the guest, e.g. 6.1.0-57-amd64
    kernel_package: str  # e.g. linux-image-6.1.0-57-amd64=6.1.192-3
    key: str
    directory: Path


@dataclasses.dataclass(frozen=True)
class VmResult:
    """What a VM run left behind."""

    returncode: int  # exit status of the guest script
    console: str  # text of the serial console (kernel messages, init log, the script's output)
    outdir: Path  # host directory that the guest saw at /vmout ($SSDWEAR_VM_OUT)
    seconds: float  # wall time from starting QEMU to its exit
    workdir: Path  # host directory holding console.log, guest.sh and outdir
    argv: tuple[str, ...]  # the QEMU command line


def default_cache_dir() -> Path:
    """Where images are cached: $SSDWEAR_QEMU_CACHE, default ~/.cache/ssdwear/qemu."""
    env = os.environ.get("SSDWEAR_QEMU_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "ssdwear" / "qemu"


# ---------------------------------------------------------------------------------------------------------
# availability


@functools.cache
def qemu_available() -> str | None:
    """None when a VM can be booted here; otherwise the reason why not.

    Builds (or finds in the cache) the image, since having no kernel package is one of the reasons.
    The answer is computed once per process.
    """
    try:
        _check_tools()
        build_image()
    except QemuUnavailable as e:
        return str(e)
    return None


def _check_tools() -> None:
    if shutil.which(QEMU) is None:
        raise QemuUnavailable(f"{QEMU} is not installed (Debian package qemu-system-x86)")
    out = _run([QEMU, "-device", "help"]).stdout
    for dev in ("nvme", "ich9-ahci", "virtio-scsi-pci", "virtio-9p-pci"):
        if f'name "{dev}"' not in out:
            raise QemuUnavailable(f"{QEMU} lacks the device {dev}")
    if not SMARTCTL.exists():
        raise QemuUnavailable(f"{SMARTCTL} is missing (Debian package smartmontools)")
    _busybox()
    for tool in ("dpkg-deb", "ldd"):
        if shutil.which(tool) is None:
            raise QemuUnavailable(f"{tool} is not installed")


def _busybox() -> Path:
    for cand in ("/bin/busybox", "/usr/bin/busybox", shutil.which("busybox") or ""):
        if cand and Path(cand).is_file():
            path = Path(cand)
            ldd = subprocess.run(["ldd", str(path)], capture_output=True, text=True)
            if "not a dynamic executable" in ldd.stdout + ldd.stderr or "statically linked" in ldd.stdout:
                return path
    raise QemuUnavailable("no static busybox (Debian package busybox-static)")


def _run(argv: Sequence[str], **kw: object) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, check=True, **kw)  # type: ignore[call-overload]
    except FileNotFoundError as e:
        raise QemuUnavailable(f"{argv[0]} is not installed") from e
    except subprocess.CalledProcessError as e:
        raise QemuUnavailable(
            f"{shlex.join(argv)} failed with status {e.returncode}: {(e.stderr or '').strip()[-500:]}"
        ) from e


# ---------------------------------------------------------------------------------------------------------
# image


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@contextlib.contextmanager
def _locked(cache: Path) -> Iterator[None]:
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _kernel_package() -> tuple[str, str] | None:
    """(versioned package, version) that linux-image-amd64 depends on, or None when apt knows none."""
    try:
        deps = subprocess.run(
            ["apt-cache", "depends", KERNEL_META_PACKAGE], capture_output=True, text=True, timeout=60
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(r"Depends:\s*(linux-image-\d[^\s:]*-amd64)\b", deps)
    if not m:
        return None
    pkg = m.group(1)
    show = subprocess.run(
        ["apt-cache", "show", "--no-all-versions", pkg], capture_output=True, text=True, timeout=60
    ).stdout
    v = re.search(r"^Version:\s*(\S+)", show, re.M)
    return (pkg, v.group(1)) if v else None


def _module_closure(modroot: Path, version: str) -> tuple[dict[str, list[str]], set[Path]]:
    """For each module in MODULES and ON_DEMAND_MODULES, its .ko files in load order (dependencies first), from
    modules.dep."""
    moddir = modroot / "lib" / "modules" / version
    deps: dict[str, list[str]] = {}
    for line in (moddir / "modules.dep").read_text().splitlines():
        if ":" not in line:
            continue
        mod, rest = line.split(":", 1)
        deps[mod] = rest.split()
    by_name = {_mod_name(m): m for m in deps}
    lists: dict[str, list[str]] = {}
    files: set[Path] = set()
    for name in (*MODULES, *ON_DEMAND_MODULES):
        if name not in by_name:
            raise QemuUnavailable(f"kernel {version} has no module {name} (built in?)")
        order: list[str] = []
        _visit(by_name[name], deps, order, ())
        lists[name] = order
        files.update(moddir / m for m in order)
    return lists, files


def _visit(mod: str, deps: dict[str, list[str]], order: list[str], stack: tuple[str, ...]) -> None:
    """Append ``mod`` to ``order`` after its dependencies (depth first)."""
    if mod in order:
        return
    if mod in stack:
        raise QemuUnavailable(f"dependency cycle through {mod} in modules.dep")
    for d in deps.get(mod, []):
        _visit(d, deps, order, (*stack, mod))
    order.append(mod)


def _mod_name(relpath: str) -> str:
    base = relpath.rsplit("/", 1)[-1]
    for ext in (".ko.xz", ".ko.zst", ".ko.gz", ".ko"):
        if base.endswith(ext):
            base = base[: -len(ext)]
            break
    return base.replace("-", "_")


def _modules_key() -> str:
    """A short hash of the modules a kernel's cache directory holds: a directory unpacked for another list is
    another directory (one with fewer modules is never taken for this one, nor replaced under a VM using it)."""
    return hashlib.sha256(json.dumps([MODULES, ON_DEMAND_MODULES]).encode()).hexdigest()[:8]


def _has_modules(kdir: Path) -> bool:
    modules = json.loads((kdir / "meta.json").read_text()).get("modules", {})
    return all(name in modules for name in (*MODULES, *ON_DEMAND_MODULES))


def _newest_cached_kernel(cache: Path) -> Path | None:
    cached = sorted(
        (p for p in cache.glob("kernel-*") if (p / "meta.json").exists() and _has_modules(p)),
        key=lambda p: p.stat().st_mtime,
    )
    return cached[-1] if cached else None


def _prepare_kernel(cache: Path) -> Path:
    """The kernel's cache dir (vmlinuz, modules/, meta.json), downloading and unpacking it the first time.

    Without apt lists, or when the download fails, the newest kernel already in the cache is used.
    """
    pkg = _kernel_package()
    if pkg is None:
        cached = _newest_cached_kernel(cache)
        if cached:
            return cached
        raise QemuUnavailable(
            f"no kernel package obtainable: apt-cache knows no versioned dependency of {KERNEL_META_PACKAGE}"
            " (run apt-get update)"
        )
    name, version = pkg
    kdir = cache / f"kernel-{name.removeprefix('linux-image-')}_{version}-{_modules_key()}"
    if (kdir / "meta.json").exists():
        return kdir
    try:
        return _unpack_kernel(cache, kdir, name, version)
    except QemuUnavailable:
        cached = _newest_cached_kernel(cache)
        if cached:
            return cached
        raise


def _unpack_kernel(cache: Path, kdir: Path, name: str, version: str) -> Path:
    uname = name.removeprefix("linux-image-")
    with tempfile.TemporaryDirectory(prefix="kernel-", dir=cache) as tmp_s:
        tmp = Path(tmp_s)
        try:
            subprocess.run(
                ["apt-get", "download", f"{name}={version}"],
                cwd=tmp,
                capture_output=True,
                text=True,
                check=True,
                timeout=600,
            )
        except (OSError, subprocess.SubprocessError) as e:
            detail = getattr(e, "stderr", "") or str(e)
            raise QemuUnavailable(f"no kernel package obtainable: apt-get download {name}: {detail}") from e
        deb = next(tmp.glob("*.deb"))
        root = tmp / "root"
        _run(["dpkg-deb", "-x", str(deb), str(root)])
        deb.unlink()
        _run([str(_busybox()), "depmod", "-b", str(root), uname])
        lists, files = _module_closure(root, uname)
        stage = tmp / "kernel"
        (stage / "modules").mkdir(parents=True)
        shutil.copy2(root / "boot" / f"vmlinuz-{uname}", stage / "vmlinuz")
        for f in files:
            shutil.copy2(f, stage / "modules" / f.name)
        meta = {
            "package": name,
            "version": version,
            "uname": uname,
            "modules": {k: [p.rsplit("/", 1)[-1] for p in v] for k, v in lists.items()},
        }
        (stage / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        if kdir.exists():
            shutil.rmtree(kdir)
        stage.rename(kdir)
    return kdir


def build_image(cache_dir: Path | None = None) -> Image:
    """Build (or find in the cache) the kernel + initramfs. Raises QemuUnavailable when it cannot.

    ``cache_dir`` defaults to ``default_cache_dir()`` ($SSDWEAR_QEMU_CACHE or ~/.cache/ssdwear/qemu).
    """
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    with _locked(cache):
        kdir = _prepare_kernel(cache)
        meta = json.loads((kdir / "meta.json").read_text())
        if not SMARTCTL.exists():
            raise QemuUnavailable(f"{SMARTCTL} is missing (Debian package smartmontools)")
        busybox = _busybox()
        drivedb = next((p for p in (DRIVEDB, DRIVEDB_PACKAGED) if p.exists()), None)
        key_src = {
            "format": IMAGE_FORMAT,
            "kernel": f"{meta['package']}={meta['version']}",
            "smartctl": _sha256(SMARTCTL),
            "busybox": _sha256(busybox),
            "drivedb": _sha256(drivedb) if drivedb else None,
            "init": hashlib.sha256(INIT_SCRIPT.encode()).hexdigest(),
            "modules": [MODULES, ON_DEMAND_MODULES, sorted(MODULE_PARAMS.items())],
        }
        key = hashlib.sha256(json.dumps(key_src, sort_keys=True).encode()).hexdigest()[:16]
        idir = cache / f"image-{key}"
        image = Image(
            kernel=kdir / "vmlinuz",
            initrd=idir / "initrd.gz",
            kernel_version=meta["uname"],
            kernel_package=f"{meta['package']}={meta['version']}",
            key=key,
            directory=idir,
        )
        if (idir / "key.json").exists():
            os.utime(idir / "key.json")  # marks it used, for _prune
            return image
        _prune(cache)
        with tempfile.TemporaryDirectory(prefix="image-", dir=cache) as tmp_s:
            tmp = Path(tmp_s)
            _assemble_initramfs(tmp / "root", kdir, meta, busybox, drivedb)
            out = tmp / "image"
            out.mkdir()
            _pack_cpio(tmp / "root", out / "initrd.gz", busybox)
            (out / "key.json").write_text(json.dumps(key_src, indent=1, sort_keys=True) + "\n")
            if idir.exists():
                shutil.rmtree(idir)
            out.rename(idir)
        return image


def _prune(cache: Path, max_age_s: float = 30 * 86400) -> None:
    """Delete cached images not used for ``max_age_s`` (each change of input leaves one behind)."""
    now = time.time()
    for idir in cache.glob("image-*"):
        key = idir / "key.json"
        with contextlib.suppress(OSError):
            if not key.exists() or now - key.stat().st_mtime > max_age_s:
                shutil.rmtree(idir)


def _assemble_initramfs(
    root: Path, kdir: Path, meta: dict[str, object], busybox: Path, drivedb: Path | None
) -> None:
    for d in ("bin", "sbin", "usr/bin", "usr/sbin", "dev", "proc", "sys", "lower", "rw", "host", "modules"):
        (root / d).mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(PermissionError, OSError):
        os.mknod(root / "dev" / "console", 0o600 | 0o020000, os.makedev(5, 1))
    shutil.copy2(busybox, root / "bin" / "busybox")
    applets = _run([str(busybox), "--list-full"]).stdout.split()
    for applet in applets:
        link = root / applet
        if link.exists() or link.name == "busybox":
            continue
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to("/bin/busybox")
    # smartctl and its shared libraries, at the paths ldd names
    _copy_into(SMARTCTL, root)
    for lib in _ldd(SMARTCTL):
        _copy_into(lib, root)
    if drivedb is not None:
        dest = root / str(DRIVEDB).lstrip("/")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(drivedb, dest)
    modules = meta["modules"]
    assert isinstance(modules, dict)
    for name, kos in modules.items():
        lines = []
        for ko in kos:
            params = MODULE_PARAMS.get(_mod_name(ko), "")
            lines.append(f"{ko} {params}".rstrip())
            shutil.copy2(kdir / "modules" / ko, root / "modules" / ko)
        (root / "modules" / f"{name}.list").write_text("\n".join(lines) + "\n")
    init = root / "init"
    init.write_text(INIT_SCRIPT)
    init.chmod(0o755)


def _ldd(binary: Path) -> list[Path]:
    libs = []
    for line in _run(["ldd", str(binary)]).stdout.splitlines():
        m = re.search(r"(/\S+)\s+\(0x", line)
        if m:
            libs.append(Path(m.group(1)))
    return libs


def _copy_into(path: Path, root: Path) -> None:
    dest = root / str(path).lstrip("/")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path.resolve(), dest)


def _pack_cpio(root: Path, dest: Path, busybox: Path) -> None:
    names = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    listing = "".join(f"{n}\n" for n in [".", *(f"./{n}" for n in names)])
    cpio = subprocess.run(
        [str(busybox), "cpio", "-o", "-H", "newc"],
        cwd=root,
        input=listing.encode(),
        capture_output=True,
        check=False,
    )
    if cpio.returncode != 0:
        raise QemuUnavailable(f"busybox cpio failed: {cpio.stderr.decode(errors='replace')}")
    with gzip.open(dest, "wb", compresslevel=1) as f:
        f.write(cpio.stdout)


# ---------------------------------------------------------------------------------------------------------
# running


def _drive_args(drives: Sequence[Drive], disks: Path) -> list[str]:
    args: list[str] = []
    have_ahci = have_vs = False
    ata_port = 0
    scsi_target = 0
    for i, d in enumerate(drives):
        img = disks / f"disk{i}-{d.serial}.img"
        with img.open("wb") as f:
            f.truncate(d.size_mib * 1024 * 1024)
        node = f"drv{i}"
        args += ["-drive", f"file={img},format=raw,if=none,id={node},cache=unsafe"]
        if d.kind == "nvme":
            dev = f"nvme,serial={d.serial},drive={node}"
            if d.smart_critical_warning is not None:
                dev += f",smart_critical_warning={d.smart_critical_warning}"
        elif d.kind == "sata":
            if not have_ahci:
                args += ["-device", "ahci,id=ahci"]
                have_ahci = True
            if ata_port > 5:
                raise ValueError("at most 6 SATA drives (one AHCI controller)")
            dev = f"ide-hd,drive={node},bus=ahci.{ata_port},serial={d.serial}"
            ata_port += 1
            if d.model is not None:
                dev += f",model={d.model}"
            if d.rotation_rate is not None:
                dev += f",rotation_rate={d.rotation_rate}"
        else:
            if not have_vs:
                args += ["-device", "virtio-scsi-pci,id=vs"]
                have_vs = True
            dev = f"scsi-hd,drive={node},bus=vs.0,channel=0,scsi-id={scsi_target},lun=0,serial={d.serial}"
            scsi_target += 1
        args += ["-device", dev]
    return args


_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _guest_script(script: str, env: Mapping[str, str], fresh_dirs: Sequence[str]) -> str:
    lines = ["# generated by tools/qemuvm.py: environment, fresh directories, then the caller's script"]
    for k, v in env.items():
        if not _ENV_NAME.fullmatch(k):
            raise ValueError(f"bad environment variable name {k!r}")
        lines.append(f"export {k}={shlex.quote(v)}")
    for d in fresh_dirs:
        if not d.startswith("/") or d.rstrip("/") in ("", "/proc", "/sys", "/dev", GUEST_OUT):
            raise ValueError(f"fresh_dirs: {d!r} is not an absolute path that can take a tmpfs")
        q = shlex.quote(d)
        lines.append(f"mkdir -p {q} && mount -t tmpfs -o mode=0755 tmpfs {q} || exit 98")
    lines.append("cd / || exit 99")
    return "\n".join(lines) + "\n" + script + "\n"


def run_vm(
    drives: Sequence[Drive],
    guest_script: str,
    timeout_s: float = 240,
    *,
    image: Image | None = None,
    env: Mapping[str, str] | None = None,
    workdir: Path | None = None,
    fresh_dirs: Sequence[str] = FRESH_DIRS,
    memory_mib: int = 1024,
    smp: int = 2,
    debug: bool = False,
    modules: Sequence[str] = (),
) -> VmResult:
    """Boot a VM with ``drives``, run ``guest_script`` with /bin/sh in the guest, power off.

    ``guest_script`` runs as root in ``chroot`` of the host's ``/`` (read-only, with a RAM overlay), with
    ``cwd=/``, stdin from /dev/null, and stdout/stderr on the console. Its environment is
    PATH (the host's), HOME=/root, LANG=C.UTF-8, TERM=dumb, SSDWEAR_VM_OUT=/vmout,
    SSDWEAR_VM_CHANGES=/run/ssdwear-vm/changes (what the guest changed in the host's tree, read-only: the
    overlay's upper directory, where a deleted file is a whiteout, a character device 0/0), plus ``env``.
    ``/run`` and each of ``fresh_dirs`` start empty (``/tmp`` is the host's, through the overlay, so a
    checkout or virtualenv under /tmp works in the guest). Files it writes under /vmout appear in
    ``VmResult.outdir`` on the host; files put into ``workdir/out`` before the call are visible there too.

    ``workdir`` (default: a new temporary directory, left in place for the caller) receives
    ``console.log``, ``guest.sh`` and ``out/``; the disk images are deleted after the run. Its path
    must not contain spaces (it goes on the kernel command line).

    The drives appear as /dev/nvme0, /dev/nvme1, ... (NVMe, in the order given) and /dev/sda, /dev/sdb,
    ... (SATA in the order given, then virtio-scsi in the order given).

    ``modules``: kernel modules of ON_DEMAND_MODULES that /init loads after the disk drivers (in that list's
    order as given), e.g. ``POOL_MODULES`` for md RAID, LVM raid, LUKS and btrfs. No udev runs in the guest: a
    script using device-mapper sets ``DM_DISABLE_UDEV=1`` (libdevmapper then makes the /dev/mapper nodes itself).

    Raises VmTimeout (after killing QEMU) when the guest does not power off within ``timeout_s``,
    VmError when QEMU fails or the guest's init fails, QemuUnavailable when no image can be built.
    """
    if not drives:
        raise ValueError("give at least one drive")
    unknown = [m for m in modules if m not in ON_DEMAND_MODULES]
    if unknown:
        raise ValueError(f"modules {unknown} are not in the image (ON_DEMAND_MODULES lists those it holds)")
    serials = [d.serial for d in drives]
    if len(set(serials)) != len(serials):
        raise ValueError(f"serials must be unique: {serials}")
    image = image or build_image()
    qemu = shutil.which(QEMU)
    if qemu is None:
        raise QemuUnavailable(f"{QEMU} is not installed (Debian package qemu-system-x86)")
    wd = Path(workdir) if workdir is not None else Path(tempfile.mkdtemp(prefix="ssdwear-vm-"))
    wd = wd.resolve()
    if " " in str(wd):
        raise ValueError(f"workdir must not contain spaces: {wd}")
    outdir = wd / "out"
    disks = wd / "disks"
    outdir.mkdir(parents=True, exist_ok=True)
    disks.mkdir(exist_ok=True)
    console_log = wd / "console.log"
    console_log.unlink(missing_ok=True)
    status_file = outdir / ".ssdwear-vm-exit-status"
    status_file.unlink(missing_ok=True)
    script_file = wd / "guest.sh"
    genv = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"),
        "HOME": "/root",
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "SSDWEAR_VM_OUT": GUEST_OUT,
        "SSDWEAR_VM_CHANGES": GUEST_CHANGES,
    }
    genv.update(env or {})
    script_file.write_text(_guest_script(guest_script, genv, fresh_dirs))

    n_nvme = sum(d.kind == "nvme" for d in drives)
    n_ata = sum(d.kind == "sata" for d in drives)
    n_scsi = sum(d.kind == "scsi" for d in drives)
    cmdline = (
        "console=ttyS0 panic=-1 oops=panic"
        + ("" if debug else " quiet loglevel=3")
        + f" ssdwear.nvme={n_nvme} ssdwear.ata={n_ata} ssdwear.scsi={n_scsi}"
        + f" ssdwear.script={script_file} ssdwear.debug={int(debug)}"
        + (f" ssdwear.modules={','.join(modules)}" if modules else "")
    )
    argv = [
        qemu,
        "-nodefaults",
        "-accel", "tcg,thread=multi",
        "-cpu", "max",
        "-smp", str(smp),
        "-m", str(memory_mib),
        "-kernel", str(image.kernel),
        "-initrd", str(image.initrd),
        "-append", cmdline,
        "-display", "none",
        "-monitor", "none",
        "-no-reboot",
        "-serial", f"file:{console_log}",
        "-virtfs", "local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap",
        "-virtfs", f"local,path={outdir},mount_tag=out,security_model=none,multidevs=remap",
        *_drive_args(drives, disks),
    ]  # fmt: skip
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            qemu_out, _ = proc.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            _kill(proc)
            seconds = time.monotonic() - start
            raise VmTimeout(
                f"the guest did not power off within {timeout_s:.0f} s (QEMU killed after {seconds:.0f} s);"
                f" console tail:\n{_tail(console_log)}"
            ) from None
        except BaseException:
            _kill(proc)
            raise
        seconds = time.monotonic() - start
    finally:
        shutil.rmtree(disks, ignore_errors=True)
    console = console_log.read_text(errors="replace") if console_log.exists() else ""
    qemu_text = qemu_out.decode(errors="replace").strip()
    if proc.returncode != 0:
        raise VmError(
            f"QEMU exited with status {proc.returncode}: {qemu_text[-2000:]}\nconsole tail:\n{_tail(console_log)}"
        )
    if not status_file.exists():
        raise VmError(f"the guest powered off without finishing its script; console tail:\n{_tail(console_log)}")
    returncode = int(status_file.read_text().strip())
    status_file.unlink()
    return VmResult(
        returncode=returncode,
        console=console,
        outdir=outdir,
        seconds=seconds,
        workdir=wd,
        argv=tuple(argv),
    )


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _tail(path: Path, lines: int = 40) -> str:
    if not path.exists():
        return "(no console output)"
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
