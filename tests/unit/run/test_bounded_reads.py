"""The field's latencies replayed through the real session (tools/latency.py, as bench/bounded.py does), scaled down
four times so that the suite stays quick: a 90-drive JBOD of idle disks (0.41 s each here, 1.65 s in the field)
with 16 workers is read and assessed within 1.5 x its ideal (6 rounds), and a hung drive (16 s here, 64 s in the
field) among them is killed at its timeout (5 s here, 20 s by default) without holding the others: the run ends
within the timeout plus one round. The full-scale figures are bench/bounded.py's (bench/README.md). (Scaled further,
ssdwear's own work, 1-2 ms a drive to parse and assess, and the machine's load would be what is measured.)"""

from __future__ import annotations

import pytest

from tools.latency import devices, replay

SCALE = 4
HDD, HUNG, TIMEOUT = 1.65 / SCALE, 64 / SCALE, 20 / SCALE
WORKERS = 16

pytestmark = pytest.mark.slow


def test_a_90_drive_jbod_is_read_within_one_and_a_half_times_its_ideal() -> None:
    ran = replay({d: HDD for d in devices(90)}, WORKERS)
    ideal = 6 * HDD  # ceil(90 / 16) rounds
    assert ran.seconds <= 1.5 * ideal, (ran.seconds, ideal)
    assert len(ran.reports) == 90 and not any(r.error for r in ran.reports)
    assert all(r.read_seconds is not None and HDD <= r.read_seconds < HDD * 1.5 for r in ran.reports)


def test_a_hung_drive_is_killed_at_its_timeout_and_the_run_ends_one_round_later() -> None:
    names = devices(90)
    ran = replay({d: HUNG if d == names[0] else HDD for d in names}, WORKERS, timeout_s=TIMEOUT)
    assert ran.seconds <= TIMEOUT + HDD, ran.seconds
    hung = [r for r in ran.reports if r.error]
    assert [(r.device, r.error_reason) for r in hung] == [(names[0], "timeout")]
    assert f"did not answer within {TIMEOUT:g} s" in (hung[0].error or "")
    assert hung[0].read_seconds is not None and TIMEOUT <= hung[0].read_seconds < TIMEOUT + HDD


def test_the_deadline_ends_the_reading_and_names_the_drives_it_left() -> None:
    names = devices(90)
    deadline = 4 * HDD + HDD / 2  # half-way through the fifth round
    ran = replay({d: HUNG if d == names[-1] else HDD for d in names}, WORKERS, timeout_s=TIMEOUT,
                 deadline_s=deadline)
    assert ran.seconds <= deadline + HDD, ran.seconds
    unread = [r for r in ran.reports if r.error]
    assert {r.error_reason for r in unread} == {"deadline"} and len(ran.reports) == 90
    assert names[-1] in {r.device for r in unread} and len(ran.reports) - len(unread) >= 3 * WORKERS
    cut = [r for r in unread if "still reading it" in (r.error or "")]
    never = [r for r in unread if "passed before its turn" in (r.error or "")]
    assert len(cut) + len(never) == len(unread) and 1 <= len(cut) <= WORKERS and len(never) >= 90 - 5 * WORKERS
    assert all(r.read_seconds is None for r in never)  # never started: no time
    assert all(r.read_seconds is not None and r.read_seconds <= deadline for r in cut)
