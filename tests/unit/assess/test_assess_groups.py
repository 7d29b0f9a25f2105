"""Redundancy groups concluded (assess/groups.py): members resolved to drives, what a group tolerates now, the date
its redundancy is lost (the (k+1)-th member's wear-out, central and pessimistic), lockstep; and plan --stagger's
schedule (assess/stagger.py)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from support.clock import T0

from ssdwear.assess.groups import assess_groups, lockstep_reasons, member
from ssdwear.assess.stagger import CannotStagger, quarter, stagger
from ssdwear.model.groups import BlockDevice, Discovery, FoundGroup, FoundMember
from ssdwear.model.records import DriveReport, Projection, Writes

YEAR = timedelta(days=365)


def drive(serial: str, years_low: float | None, years: float | None, device: str = "/dev/sda",
          years_high: float | None = 40.0, model: str = "Samsung SSD 860 EVO 1TB", firmware: str = "RVT04B6Q",
          poh: float = 26_000, wwn: str | None = None, rate_high: float = 30.0) -> DriveReport:
    """A drive projected from T0, always on: its wear-out dates are T0 + its years."""
    at = None if years is None else T0 + years * YEAR
    low_at = None if years_low is None else T0 + years_low * YEAR
    p = Projection("lifetime-average", "test", 10.0, 8.0, rate_high, years, years_low, years_high, 10.0, 8.0, 12.0,
                   0.8, duty_cycle=1.0, wears_out_at=at, wears_out_low_at=low_at)
    return DriveReport(device=device, model=model, serial=serial, wwn=wwn, firmware=firmware, interface="ata",
                       kind="ssd", power_on_hours=poh, used_percent=38, projection=p, capacity_bytes=10**12,
                       writes=Writes(host_bytes_written=200 * 10**12, rated_bytes=600 * 10**12))


def found(*devices: str, tolerates: int = 1, missing: int = 0, working: tuple[bool, ...] = ()) -> FoundGroup:
    states = working or (True,) * len(devices)
    return FoundGroup("md", "md0", "raid1", tolerates,
                      tuple(FoundMember((d,), "active", w) for d, w in zip(devices, states, strict=True)),
                      missing=missing)


def group_of(reports: list[DriveReport], tolerates: int = 1, **kw):
    devices = [r.device or "?" for r in reports]
    return assess_groups(Discovery((found(*devices, tolerates=tolerates, **kw),), None), reports, T0)[0]


def test_redundancy_is_lost_at_the_k_plus_first_members_date() -> None:
    a = drive("A", 2.0, 5.0, "/dev/sda")
    b = drive("B", 3.0, 4.0, "/dev/sdb")
    c = drive("C", 1.0, 6.0, "/dev/sdc")
    g = group_of([a, b, c], tolerates=1)  # a 3-way... raid surviving one: lost at the second wear-out
    assert g.redundancy_lost_at == T0 + 5.0 * YEAR  # central: 4, 5, 6 -> the second is 5
    assert g.redundancy_lost_low_at == T0 + 2.0 * YEAR  # pessimistic: 1, 2, 3 -> 2
    assert group_of([a, b, c], tolerates=2).redundancy_lost_low_at == T0 + 3.0 * YEAR
    assert group_of([a, b, c], tolerates=0).redundancy_lost_low_at == T0 + 1.0 * YEAR


def test_a_missing_or_failed_member_lowers_what_it_tolerates() -> None:
    a, b = drive("A", 2.0, 5.0, "/dev/sda"), drive("B", 3.0, 4.0, "/dev/sdb")
    degraded = group_of([a, b], tolerates=1, missing=1)  # a 3-way mirror... missing one of three: md's MD_DEVICES
    assert (degraded.tolerates, degraded.missing) == (0, 1)
    assert degraded.redundancy_lost_low_at == T0 + 2.0 * YEAR  # the first working member's
    failed = assess_groups(Discovery((found("/dev/sda", "/dev/sdb", working=(True, False)),), None), [a, b], T0)[0]
    assert (failed.tolerates, failed.missing) == (0, 1) and failed.redundancy_lost_low_at == T0 + 2.0 * YEAR
    lost = group_of([a, b], tolerates=1, missing=2)
    assert lost.tolerates == 0 and lost.redundancy_lost_low_at is None
    assert any("more than the 1 it survives" in n for n in lost.notes)


def test_no_date_when_a_member_has_no_projection_and_none_beyond_the_calendar() -> None:
    a, b = drive("A", 2.0, 5.0, "/dev/sda"), drive("B", None, None, "/dev/sdb")
    b = DriveReport(device="/dev/sdb", serial="B", model="M")  # read, but nothing projected
    g = group_of([a, b])
    assert g.redundancy_lost_at is None and g.redundancy_lost_low_at is None
    assert "no redundancy-lost date: no projected wear-out date for /dev/sdb" in g.notes
    never = drive("N", 60.0, None, "/dev/sdb")  # central rate 0: no end in sight
    g = group_of([a, never])
    assert g.redundancy_lost_at is None and g.redundancy_lost_low_at == T0 + 60.0 * YEAR


def test_lockstep_needs_all_four_conditions() -> None:
    a = drive("A", 2.0, 5.0, "/dev/sda", poh=26_280)
    b = drive("B", 2.2, 5.1, "/dev/sdb", poh=26_190)
    g = group_of([a, b])
    assert g.lockstep and len(g.lockstep_reasons) == 4
    assert g.lockstep_reasons[2] == "power-on hours within 10 % (26,190 to 26,280 h)"
    assert g.lockstep_reasons[3].startswith("wear-out intervals overlap (")
    for other, lost in ((drive("B", 2.2, 5.1, "/dev/sdb", model="CT1000MX500SSD1"), "same model"),
                        (drive("B", 2.2, 5.1, "/dev/sdb", firmware="RVT03B6Q"), "same firmware"),
                        (drive("B", 2.2, 5.1, "/dev/sdb", poh=20_000), "power-on hours"),
                        (drive("B", 45.0, 50.0, "/dev/sdb", years_high=60.0), "wear-out intervals")):
        g = group_of([a, other])
        assert not g.lockstep and not any(r.startswith(lost) for r in g.lockstep_reasons), lost
        assert len(g.lockstep_reasons) == 3
    assert lockstep_reasons([]) == []


def test_members_reach_their_drives_through_lsblk_by_wwn_serial_or_device() -> None:
    devices = (BlockDevice("sda1", "sda1", "/dev/sda1", "part", below=("sda",)),
               BlockDevice("sda", "sda", "/dev/sda", "disk", wwn="0x5002538e40a1b2c3"),
               BlockDevice("dm-0", "crypta", "/dev/mapper/crypta", "crypt", below=("sdb1",)),
               BlockDevice("sdb1", "sdb1", "/dev/sdb1", "part", below=("sdb",)),
               BlockDevice("sdb", "sdb", "/dev/sdb", "disk", serial="S2"),
               BlockDevice("nvme0n1", "nvme0n1", "/dev/nvme0n1", "disk"),
               BlockDevice("sdc", "sdc", "/dev/sdc", "disk", serial="OTHER"))
    by_wwn = drive("S1", 2.0, 5.0, "/dev/sdz", wwn="5002538e40a1b2c3")  # moved: the WWN decides
    by_serial = drive("S2", 2.0, 5.0, "/dev/sdy")
    by_device = drive("S3", 2.0, 5.0, "/dev/nvme0")
    reports = [by_wwn, by_serial, by_device, drive("S4", 2.0, 5.0, "/dev/sdc")]
    got = {name: member((name,), None, True, devices, reports, T0) for name in
           ("/dev/sda1", "/dev/dm-0", "/dev/mapper/crypta", "/dev/nvme0n1", "/dev/sdc")}
    assert (got["/dev/sda1"].report, got["/dev/sda1"].matched_by) == (by_wwn, "wwn")
    assert (got["/dev/dm-0"].report, got["/dev/dm-0"].matched_by) == (by_serial, "serial")
    assert got["/dev/mapper/crypta"].report is by_serial
    assert (got["/dev/nvme0n1"].report, got["/dev/nvme0n1"].matched_by) == (by_device, "device")
    assert got["/dev/sdc"].report is None and "no drive" in (got["/dev/sdc"].note or "")  # serials disagree
    assert got["/dev/sda1"].wears_out_high_at == T0 + 40.0 * YEAR


def test_members_without_lsblk_by_id_links_and_a_member_over_two_drives() -> None:
    a, b = drive("S3Z9NB0K100001A", 2.0, 5.0, "/dev/sda"), drive("S2", 2.0, 5.0, "/dev/sdb", wwn="5002538e40a1b2c3")
    reports = [a, b]
    assert member(("/dev/sda1",), None, True, None, reports, T0).report is a  # partition number taken off
    link = "/dev/disk/by-id/ata-Samsung_SSD_860_EVO_1TB_S3Z9NB0K100001A-part1"
    assert member((link,), None, True, None, reports, T0).matched_by == "by-id"
    assert member(("/dev/disk/by-id/wwn-0x5002538e40a1b2c3",), None, True, None, reports, T0).report is b
    spread = member(("/dev/sda1", "/dev/sdb1"), None, True, None, reports, T0)
    assert spread.report is None and "lies on 2 drives" in (spread.note or "")
    unreadable = [DriveReport(device="/dev/sda", error="no such device")]
    assert member(("/dev/sda",), None, True, None, unreadable, T0).report is not None  # member() takes any report
    g = assess_groups(Discovery((found("/dev/sda"),), None), unreadable, T0)[0]
    assert g.members[0].report is None  # a drive that could not be read is no member's drive


def test_notify_judges_a_group_only_when_it_knows_every_working_member() -> None:
    """The group rules' record of a group (run/notify.group_facts): a working member whose drive was not read, or
    more members gone than the group survives, leaves it unjudged (its alerts hold), never clear."""
    from ssdwear.run.notify import group_facts

    a, b = drive("A", 2.0, 5.0, "/dev/sda"), drive("B", 2.1, 5.0, "/dev/sdb")
    whole = group_facts(group_of([a, b]), "db1")
    assert (whole.identity, whole.members, whole.projected, whole.lockstep, whole.error) == (
        "group:md:md0", ("A", "B"), True, True, None)
    assert whole.redundancy_lost_low_at == T0 + 2.1 * YEAR
    unread = group_facts(assess_groups(Discovery((found("/dev/sda", "/dev/sdb"),), None), [a], T0)[0], "db1")
    assert unread.error == "/dev/sdb: no drive that smartctl read was found under it" and not unread.projected
    assert not group_of([a, b], working=(True, False)).failed  # one of two gone: it survives that
    dead = group_facts(group_of([a, b, drive("C", 3.0, 5.0, "/dev/sdc")], working=(True, False, False)), None)
    assert dead.error == "2 members missing or failed: more than it survives"


def test_group_keys_are_stable() -> None:
    g = group_of([drive("A", 2.0, 5.0, "/dev/sda"), drive("B", 2.0, 5.0, "/dev/sdb")])
    assert g.key == "md:md0"


# -- plan --stagger -------------------------------------------------------------------------------------------


def test_stagger_replaces_all_but_the_last_of_a_shared_quarter() -> None:
    a = drive("A", 2.00, 5.0, "/dev/sda")
    b = drive("B", 2.02, 5.0, "/dev/sdb")
    plan = stagger(group_of([a, b]), T0)
    assert plan.fits
    keep, replace = sorted(plan.steps, key=lambda s: s.replace)
    assert keep.member.report is b and replace.member.report is a  # the earlier one goes
    assert replace.replace_by == a.projection.wears_out_low_at  # no later than its own pessimistic wear-out
    assert replace.replace_from == T0  # any time from now: its new drive's quarter is free all the way
    life = replace.new_wears_out_low_at - replace.replace_by
    assert life == timedelta(days=(100 - 1e12 / 600e12 * 100) / 30.0 * 365)  # the rebuild's capacity counted
    assert replace.new_wears_out_low_at is not None and b.projection and b.projection.wears_out_low_at
    assert quarter(replace.new_wears_out_low_at) != quarter(b.projection.wears_out_low_at)
    assert replace.rebuild_basis == "its capacity against its rated endurance"


def test_stagger_needs_nothing_when_the_quarters_differ_and_fails_when_life_is_too_short() -> None:
    plan = stagger(group_of([drive("A", 2.0, 5.0, "/dev/sda"), drive("B", 2.5, 5.0, "/dev/sdb")]), T0)
    assert plan.fits and not any(s.replace for s in plan.steps) and "no replacement needed" in plan.notes[0]
    # five drives wearing out within the month, at a rate whose new drives all land in one or two quarters
    worn = [drive(f"D{i}", 0.05 + i / 365, 1.0, f"/dev/sd{x}", rate_high=25.0) for i, x in enumerate("abcde")]
    plan = stagger(group_of(worn, tolerates=2), T0)
    assert not plan.fits
    assert [s.replace_by is None for s in plan.steps if s.replace].count(True) >= 1
    assert sum(not s.replace for s in plan.steps) == 1


def test_stagger_refuses_unknown_dates() -> None:
    b = DriveReport(device="/dev/sdb", serial="B", model="M")
    with pytest.raises(CannotStagger, match="no pessimistic wear-out date for /dev/sdb"):
        stagger(group_of([drive("A", 2.0, 5.0, "/dev/sda"), b]), T0)
    with pytest.raises(CannotStagger, match="fewer than two working members"):
        stagger(group_of([drive("A", 2.0, 5.0, "/dev/sda")]), T0)


def test_stagger_when_the_wear_out_has_passed_replace_now() -> None:
    past = drive("A", -0.1, 0.2, "/dev/sda")
    plan = stagger(group_of([past, drive("B", -0.09, 0.3, "/dev/sdb")]), T0)
    (step,) = [s for s in plan.steps if s.replace]
    assert step.replace_from == step.replace_by == T0 and plan.fits


def test_quarters() -> None:
    assert quarter(datetime(2026, 3, 31, tzinfo=timezone.utc)) != quarter(datetime(2026, 4, 1, tzinfo=timezone.utc))
    assert quarter(datetime(2026, 1, 1, tzinfo=timezone.utc)) == quarter(datetime(2026, 3, 31, tzinfo=timezone.utc))
