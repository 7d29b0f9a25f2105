"""smartd's attribute logs on this machine: where they are, which file is whose, and reading one, streaming and
bounded (the format is smartctl/smartd.py's).

- Where: the config's `smartd_attrlog` (a directory, or a prefix as smartd's `-A PREFIX` takes it), else the
  platform's default (Debian's and upstream's `--with-attributelog=yes`: /var/lib/smartmontools/attrlog.).
- Which: a drive's log is the file smartd names after its model and serial; the name only nominates it (the
  contents are checked against the live drive: run/smartd.py).
- Reading: a symbolic link is never followed (the file itself, and the directory entries as the trust rules say:
  as root every entry on the way must be root's alone, host/trust.py); as root the file must be root's, written
  by nobody else. It is read in chunks (memory stays bounded whatever its size), at most MAX_READ_BYTES from its
  end; every line is checked against smartd's format, and the ones that fail are counted, never used.
- Time: smartd 7.1 and later write their timestamps in the host's local time (time_to_tm_local), so they are read
  in this process's time zone (TZ, else /etc/localtime): the same rules smartd applied when it wrote them; smartd
  7.0 and older wrote UTC (gmtime), read as UTC where the caller says so (run/smartd.py decides which).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ssdwear.model.errors import SsdwearError
from ssdwear.model.escape import display_path
from ssdwear.model.process import is_root
from ssdwear.model.records import Snapshot
from ssdwear.smartctl.smartd import (
    CHUNK_FORMS,
    MAX_LINE_BYTES,
    STAMP_LENGTH,
    LogKind,
    nvme_namespace_stem,
    stamp_problem,
    stems,
)

from .platforms import facts
from .trust import UntrustedFile, open_trusted

CHUNK_BYTES = 1 << 18
# A log is read from at most this far before its end: ~5 years of lines at smartd's 10-second minimum interval,
# centuries at its default 30 minutes. Older lines of a larger file are not read (and the report says so).
MAX_READ_BYTES = 256 << 20
_NOFOLLOW = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


class AttrlogError(SsdwearError):
    "A smartd attribute log that cannot be read (refused, gone, not a file): one line saying which and why."


def prefixes(configured: str | None, platform: str | None = None) -> list[str]:
    """Where to look: the configured place, else the platform's default prefix (none where smartd has none)."""
    if configured:
        return [configured]
    default = facts(platform).smartd_attrlog
    return [default] if default else []


def _split(place: str) -> tuple[Path, str]:
    """(directory, name prefix) of a place given as smartd's -A takes it; a directory, or a link to one (as with a
    trailing '/': the trust rules judge the way there when a file is opened), is every name in it."""
    path = Path(place)
    if place.endswith("/") or path.is_dir():
        return path, ""
    return path.parent, path.name


@dataclass(frozen=True)
class Found:
    path: Path
    kind: LogKind
    note: str | None = None  # why a file that bears the name was not taken (a link, not a file)


def find(place: str, snap: Snapshot) -> list[Found]:
    """The files in `place` that bear this drive's name as smartd writes it (a directory: any prefix; a prefix:
    exactly it). Entries are looked at without following a link; a link or non-file under the name is returned
    with a note and no kind use."""
    directory, prefix = _split(place)
    wanted = stems(snap)
    if not wanted:
        return []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    out = []
    for entry in entries:
        name = entry.name
        if not name.startswith(prefix):
            continue
        rest = nvme_namespace_stem(name[len(prefix):])
        match = next((w for w in wanted if rest == w or (not prefix and rest.endswith(w)
                                                          and not rest[: -len(w)][-1:].isalnum())), None)
        if match is None:
            continue
        kind: LogKind = "ata" if match.endswith(".ata.csv") else "scsi" if match.endswith(".scsi.csv") else "nvme"
        path = directory / name
        if entry.is_symlink():
            out.append(Found(path, kind, f"{display_path(path)} is a symbolic link: not followed"))
        elif not entry.is_file(follow_symlinks=False):
            out.append(Found(path, kind, f"{display_path(path)} is not a regular file"))
        else:
            out.append(Found(path, kind))
    return sorted(out, key=lambda f: (f.note is not None, f.path.name))


def listing(place: str) -> list[Path]:
    """Every attribute log file in `place` (for `history`), links and non-files left out."""
    directory, prefix = _split(place)
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    return sorted(directory / e.name for e in entries if e.name.startswith(prefix) and e.name.endswith(
        (".ata.csv", ".scsi.csv", ".nvme.csv")) and e.is_file(follow_symlinks=False))


def open_log(path: Path) -> int:
    """The log opened for reading (a descriptor the caller closes): never through a link at the file itself; as
    root by the trust rules (root's alone, and so is the way there). AttrlogError says why not."""
    fix = "it must be root's and writable by root alone, as smartd makes it"
    try:
        if is_root():
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                raise AttrlogError(f"smartd attribute log {display_path(path)} is a symbolic link: not followed")
            fd, _ = open_trusted(path, "smartd attribute log", fix)
            return fd
        fd = os.open(path, _NOFOLLOW)
    except UntrustedFile as exc:
        raise AttrlogError(str(exc)) from None
    except OSError as exc:
        why = "is a symbolic link: not followed" if exc.errno == 40 else f"cannot be read ({exc.strerror})"
        raise AttrlogError(f"smartd attribute log {display_path(path)} {why}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise AttrlogError(f"smartd attribute log {display_path(path)} is not a regular file")
    return fd


@dataclass
class Stats:
    """What reading a log met: lines in smartd's format, lines skipped (by reason), bytes not read."""

    lines: int = 0
    bad: int = 0
    cut: bool = False  # the last line ends without '\n' (smartd, or the machine, stopped mid-line)
    skipped_bytes: int = 0  # the part before MAX_READ_BYTES from the end, not read
    reasons: dict[str, int] = field(default_factory=dict)
    _first: bytes = b""
    _last: bytes = b""

    def skip(self, why: str, count: int = 1) -> None:
        if count:
            self.bad += count
            self.reasons[why] = self.reasons.get(why, 0) + count

    @property
    def first(self) -> str | None:
        """The first line's timestamp, as written (local time)."""
        return self._first.decode("ascii") if self._first else None

    @property
    def last(self) -> str | None:
        return self._last.decode("ascii") if self._last else None


def _long_lines(body: bytes) -> int:
    """How many of the whole lines in `body` are longer than smartd writes: each such line holds one of the points
    half that length apart, so only the lines at those points are looked at."""
    count, done, step = 0, -1, MAX_LINE_BYTES // 2
    for point in range(0, len(body), step):
        if point > done:
            start, done = body.rfind(b"\n", 0, point) + 1, body.find(b"\n", point)
            count += done - start > MAX_LINE_BYTES
    return count


def _shaped(body: bytes, kind: LogKind, stats: Stats) -> list[bytes]:
    """The lines of `body` (whole lines) in smartd's format for this kind of log with a date that exists (found in
    the whole chunk at once: CHUNK_FORMS); the others counted by why, from the chunk, not line by line."""
    framed = b"\n" + body
    while b"\n\n" in framed:  # runs of empty lines folded (in C): each line end taken out is an empty line's
        framed = framed.replace(b"\n\n", b"\n")
    empty, long = len(body) + 1 - len(framed), _long_lines(body)
    found = CHUNK_FORMS[kind].findall(framed)
    for why, count in (("an empty line", empty), ("a line longer than smartd writes", long),
                       ("not in smartd's format", body.count(b"\n") - len(found) - empty - long)):
        stats.skip(why, count)
    out = []
    for raw in found:
        problem = stamp_problem(raw[:STAMP_LENGTH].decode("ascii"))
        if problem is not None:
            stats.skip(problem)
        else:
            out.append(raw)
    return out


def lines(fd: int, stats: Stats, kind: LogKind) -> Iterator[bytes]:
    """The lines of the log in smartd's format for its kind (without '\\n'), each with a date that exists; every
    other line is counted in `stats` and skipped. (The lines a projection uses are then read in full:
    smartd.parse_line.) Reads at most MAX_READ_BYTES from the end (the first, partial line of that part is dropped,
    not counted), in chunks of whole lines."""
    size = os.fstat(fd).st_size
    drop_first = size > MAX_READ_BYTES
    if drop_first:
        stats.skipped_bytes = size - MAX_READ_BYTES
        os.lseek(fd, stats.skipped_bytes, os.SEEK_SET)
    partial = b""
    while chunk := os.read(fd, CHUNK_BYTES):
        data = partial + chunk
        if drop_first:  # within a line dropped whole (the part read begins in it, or it is too long): to its end
            cut = data.find(b"\n")
            data, drop_first = (b"", True) if cut < 0 else (data[cut + 1:], False)
        end = data.rfind(b"\n") + 1
        body, partial = data[:end], data[end:]
        if len(partial) > MAX_LINE_BYTES:  # no line end for longer than any line smartd writes: skip to the next
            stats.skip("a line longer than smartd writes")
            partial, drop_first = b"", True
        found = _shaped(body, kind, stats) if body else []
        if found:
            if not stats.lines:
                stats._first = found[0][:STAMP_LENGTH]
            stats.lines += len(found)
            stats._last = found[-1][:STAMP_LENGTH]
            yield from found
    if partial and not drop_first:
        stats.cut = True
        stats.skip("the last line is cut off (no line end)")


def local_time(stamp: str, utc: bool = False) -> datetime:
    """A timestamp smartd wrote ('YYYY-MM-DD HH:MM:SS', the host's local time; with `utc`, UTC, as smartd 7.0 and
    older wrote it) as UTC. A time that does not exist locally (the hour a DST change skips) or exists twice is
    taken as the C library's mktime takes it."""
    naive = datetime(int(stamp[0:4]), int(stamp[5:7]), int(stamp[8:10]), int(stamp[11:13]), int(stamp[14:16]),
                     min(int(stamp[17:19]), 59))
    return naive.replace(tzinfo=timezone.utc) if utc else naive.astimezone(timezone.utc)


def local_stamp(when: datetime, utc: bool = False) -> str:
    """`when` as smartd would have written it on this host (for comparing with the logs' timestamps as text)."""
    return (when.astimezone(timezone.utc) if utc else when.astimezone()).strftime("%Y-%m-%d %H:%M:%S")
