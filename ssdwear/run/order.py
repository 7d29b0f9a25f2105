"""The order a run reads its drives in (issue 29.3): the slowest at their last read first, longest processing time
first. With N workers a straggler read in the last round holds the run for the rounds before it plus its timeout
(28.4 s for a 64 s straggler among 90 idle disks at 1.65 s with 16 workers); started in the first round it ends
within its timeout, and the others fill the other workers meanwhile (20.5 s).

- first the places whose last read did not finish, the longest first: killed at its timeout, or cut or left unread
  by the deadline. A drive the deadline left unread goes first at the next run, so that the quick drives last in
  this order are not the ones a deadline leaves unread run after run;
- then the places never read (no record yet): one of them may be slow;
- then the others, the longest first.
Ties, and a run without history, keep the order given (the scan's, or the command line's). The order is only the
reading's: every output lists the drives as given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ssdwear.host.store.read_times import LastRead
from ssdwear.model.records import DriveReport, location

Target = tuple[str, str | None]  # a device and the -d type it is read with
UNFINISHED = ("timeout", "deadline")  # the error reasons of a read that did not finish


def slowest_first(targets: Sequence[Target], last: Mapping[str, LastRead]) -> list[Target]:
    """`targets` in the order to start their reads, from each place's last read (`last`, by location)."""
    def rank(item: tuple[int, Target]) -> tuple[int, float, int]:
        index, target = item
        read = last.get(location(*target))
        if read is None:
            return 1, 0.0, index
        return (0 if read.unfinished else 2), -(read.seconds or 0.0), index

    return [target for _, target in sorted(enumerate(targets), key=rank)]


def reads_of(reports: Sequence[DriveReport], before: Mapping[str, LastRead]) -> dict[str, LastRead]:
    """This run's reads as the history keeps them, by place. A drive the deadline left unread keeps its last time and
    is marked unfinished; one not read for another reason without a time (another run resetting it) is left out."""
    out: dict[str, LastRead] = {}
    for r in reports:
        unfinished = r.error_reason in UNFINISHED
        seconds = r.read_seconds
        if seconds is None and not unfinished:
            continue
        if seconds is None:
            seconds = before[r.where].seconds if r.where in before else None
        out[r.where] = LastRead(seconds, unfinished)
    return out
