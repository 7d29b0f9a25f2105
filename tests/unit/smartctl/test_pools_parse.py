"""What the storage tools print, parsed: the recordings of real md, LVM, LUKS and btrfs layouts (fixtures/pools/,
recorded in the QEMU VM) and the hand-written ZFS machines (zpool's JSON of 2.3 and text of 2.1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.paths import FIXTURES

from ssdwear.model.errors import ParseError
from ssdwear.smartctl.pools import btrfs, lsblk, lvm, mdadm, zpool
from ssdwear.smartctl.replay import fixture_name

POOLS = FIXTURES / "pools"


def recorded(machine: str, program: str, args: tuple[str, ...] | list[str]) -> str:
    return (POOLS / machine / f"{fixture_name(args, program)}.out").read_text()


def members(group) -> list[str]:
    return [m.name for m in group.members]


@pytest.mark.parametrize(("machine", "device", "level", "tolerates", "devices"), [
    ("md-raid1", "/dev/md0", "raid1", 1, ["/dev/nvme0n1", "/dev/nvme1n1"]),
    ("md-raid5", "/dev/md5", "raid5", 1, ["/dev/sda", "/dev/sdb", "/dev/sdc"]),
    ("md-raid10", "/dev/md10", "raid10", 1, ["/dev/nvme0n1", "/dev/nvme1n1", "/dev/nvme2n1", "/dev/nvme3n1"]),
    ("luks-md-raid1", "/dev/md1", "raid1", 1, ["/dev/dm-0", "/dev/dm-1"]),
])
def test_mdadm_scan_then_export_of_each_array(machine: str, device: str, level: str, tolerates: int,
                                              devices: list[str]) -> None:
    arrays, notes = mdadm.parse_scan(recorded(machine, "mdadm", mdadm.SCAN_ARGS))
    assert arrays == [device] and notes == []
    group = mdadm.parse_detail(recorded(machine, "mdadm", mdadm.detail_args(device)), device)
    assert group is not None
    assert (group.kind, group.name, group.level, group.tolerates, group.missing) == (
        "md", device.removeprefix("/dev/"), level, tolerates, 0)
    assert members(group) == devices  # in slot order
    assert group.uuid and len(group.uuid.split(":")) == 4
    assert any("two copies" in n for n in group.notes) == (level == "raid10")


def test_mdadm_a_failed_member_leaves_its_slot_missing() -> None:
    """mdadm 4.2 gives a failed member no slot (ROLE=spare), as recorded after `mdadm --fail` in the VM."""
    text = ("MD_LEVEL=raid5\nMD_DEVICES=3\nMD_METADATA=1.2\nMD_UUID=af3cc70d:8684d496:b2caf0c0:196ed5e0\n"
            "MD_NAME=vm:r5\nMD_DEVICE_dev_sde_ROLE=spare\nMD_DEVICE_dev_sde_DEV=/dev/sde\nMD_DEVICE_dev_sdc_ROLE=0\n"
            "MD_DEVICE_dev_sdc_DEV=/dev/sdc\nMD_DEVICE_dev_sdd_ROLE=1\nMD_DEVICE_dev_sdd_DEV=/dev/sdd\n")
    group = mdadm.parse_detail(text, "/dev/md5")
    assert group is not None and members(group) == ["/dev/sdc", "/dev/sdd"] and group.missing == 1
    assert "not in a slot (spare, or failed): /dev/sde" in group.notes
    assert mdadm.parse_detail("MD_LEVEL=container\n", "/dev/md127") is None
    with pytest.raises(ParseError):
        mdadm.parse_detail("mdadm: cannot open /dev/md9\n", "/dev/md9")
    assert mdadm.parse_scan("INACTIVE-ARRAY /dev/md126 metadata=1.2\n") == (
        [], ["md array /dev/md126 is not running (mdadm --detail --scan): not judged"])


def test_lvm_raid1_lv_from_json_and_from_text_alike() -> None:
    """The raid LV's images lead to the physical volumes; the linear LV beside it is no group."""
    from_json = lvm.parse_json(recorded("lvm-raid1", "lvm", lvm.JSON_ARGS))
    from_text = lvm.parse_text(recorded("lvm-raid1", "lvm", lvm.TEXT_ARGS))
    assert [(g.name, g.level, g.tolerates, members(g)) for g in from_json] == [
        ("vg0/data", "raid1", 1, ["/dev/sda2", "/dev/sdb2"])]
    assert from_text == from_json


def test_lvm_levels_and_a_lost_physical_volume() -> None:
    rows = [{"vg_name": "vg", "lv_name": "r6", "segtype": "raid6_zr", "stripes": "5", "lv_uuid": "u",
             "devices": "r6_rimage_0(0),r6_rimage_1(0)", "lv_health_status": "partial"},
            {"vg_name": "vg", "lv_name": "[r6_rimage_0]", "segtype": "linear", "devices": "/dev/sdb1(1),/dev/sdc1(0)"},
            {"vg_name": "vg", "lv_name": "[r6_rimage_1]", "segtype": "linear", "devices": "[unknown](1)"},
            {"vg_name": "vg", "lv_name": "thin", "segtype": "thin-pool", "stripes": "1", "devices": "thin_tdata(0)"}]
    (group,) = lvm.groups_of(rows)
    assert (group.level, group.tolerates, group.state) == ("raid6", 2, "partial")
    assert [(m.devices, m.working) for m in group.members] == [(("/dev/sdb1", "/dev/sdc1"), True),
                                                              (("[unknown]",), False)]
    assert lvm.level_of("raid5_ls", 3) == ("raid5", 1) and lvm.level_of("mirror", 3) == ("mirror", 2)
    assert lvm.level_of("striped", 2) is None
    with pytest.raises(ParseError):
        lvm.parse_json("  WARNING: Running as a non-root user.\n")


def test_btrfs_show_and_the_mounted_filesystems_profiles() -> None:
    (fs,) = btrfs.parse_show(recorded("btrfs-raid1", "btrfs", btrfs.SHOW_ARGS))
    assert fs.label == "pool" and [p for p, _ in fs.devices] == ["/dev/sda", "/dev/sdb", "/dev/sdc"]
    profiles = btrfs.parse_df(recorded("btrfs-raid1", "btrfs", btrfs.df_args("/srv/pool")))
    assert profiles == {"Data": "raid1", "System": "raid1c3", "Metadata": "raid1c3"}
    group = btrfs.group_of(fs, profiles, "/srv/pool")
    assert (group.name, group.level, group.tolerates, group.missing) == ("pool", "raid1", 1, 0)
    assert any(n.startswith("profiles differ") and "; it survives 1 device failure, its least redundant" in n
               for n in group.notes), group.notes
    unmounted = btrfs.group_of(fs, None, None)
    assert (unmounted.level, unmounted.tolerates) == ("unknown", None) and "not mounted" in unmounted.notes[0]


def test_btrfs_devices_missing() -> None:
    text = ("Label: none  uuid: 9bc1b9e5-f823-4f54-b803-b1b792b03d43\n\tTotal devices 2 FS bytes used 147456\n"
            "\tdevid    1 size 1073741824 used 223084544 path /dev/sdc\n\t*** Some devices missing\n\n")
    (fs,) = btrfs.parse_show(text)
    group = btrfs.group_of(fs, {"Data": "raid1", "Metadata": "raid1"}, "/mnt")
    assert (group.name, group.missing, group.state) == ("/mnt", 1, "degraded")


def test_lsblk_follows_luks_and_partitions_down_to_the_disk() -> None:
    devices = {d.kname: d for d in lsblk.parse(recorded("luks-md-raid1", "lsblk", lsblk.ARGS))}
    assert devices["md1"].below == ("dm-0", "dm-1")
    assert devices["dm-0"].name == "crypta" and devices["dm-0"].path == "/dev/mapper/crypta"
    assert devices["dm-0"].below == ("sda1",) and devices["sda1"].below == ("sda",)
    assert devices["sda"].below == () and devices["sda"].model == "Samsung SSD 860"  # sysfs's 16, blanks cut
    assert devices["sda"].serial is None  # no udev in the VM: no serial for a SATA disk
    nvme = {d.kname: d for d in lsblk.parse(recorded("md-raid1", "lsblk", lsblk.ARGS))}
    assert nvme["nvme0n1"].serial == "NVMEA001"  # sysfs gives an NVMe namespace's
    with pytest.raises(ParseError):
        lsblk.parse("lsblk: unknown column: PATH\n")


def zfs(machine: str) -> list:
    text = recorded(machine, "zpool", zpool.JSON_ARGS)
    return zpool.parse_json(text) if text else zpool.parse_text(recorded(machine, "zpool", zpool.TEXT_ARGS))


def test_zpool_json_mirror_is_the_pool() -> None:
    (group,) = zfs("zfs-mirror")
    assert (group.kind, group.name, group.level, group.tolerates, group.role) == ("zfs", "tank", "mirror", 1, "data")
    assert members(group) == ["/dev/sda1", "/dev/sdb1"] and group.uuid


def test_zpool_text_of_zfs_21_with_a_missing_disk_and_a_spare_in_use() -> None:
    raidz1, raidz2 = zfs("zfs-raidz")
    assert (raidz1.name, raidz1.level, raidz1.tolerates) == ("backup/raidz1-0", "raidz1", 1)
    assert [(m.name, m.state, m.working) for m in raidz1.members] == [
        ("/dev/sda1", "ONLINE", True), ("/dev/sdb1", "ONLINE", True), ("/dev/sdc1", "UNAVAIL", False)]
    assert (raidz2.name, raidz2.level, raidz2.tolerates) == ("backup/raidz2-1", "raidz2", 2)
    assert members(raidz2) == ["/dev/sdd1", "/dev/sde1", "/dev/sdf1", "/dev/sdi1", "/dev/sdh1"]  # the spare stands in
    assert raidz2.members[3].state == "ONLINE (spare-3)" and raidz2.uuid is None  # the text has no guids
    assert not any("hot spares" in n for n in raidz2.notes)  # the one spare is in use


def test_zpool_json_draid_with_special_log_cache_and_a_distributed_spare() -> None:
    groups = zfs("zfs-draid")
    assert [(g.name, g.level, g.tolerates, g.role, len(g.members)) for g in groups] == [
        ("data/draid2:4d:7c:1s-0", "draid2", 2, "data", 7),
        ("data/mirror-1", "mirror", 1, "special", 2),
        ("data/mirror-2", "mirror", 1, "log", 2)]  # the cache is no group; draid2-0-0 is no drive
    assert all(not g.notes for g in groups)


def test_zpool_text_classes_and_a_single_disk_vdev() -> None:
    """A pool of a plain disk and a special mirror: two groups, so each is POOL/VDEV; the root line is the pool."""
    text = ("  pool: fast\n state: ONLINE\nconfig:\n\n"
            "\tNAME              STATE     READ WRITE CKSUM\n"
            "\tfast              ONLINE       0     0     0\n"
            "\t  /dev/nvme0n1p1  ONLINE       0     0     0\n"
            "\tspecial\t\n"
            "\t  mirror-1        ONLINE       0     0     0\n"
            "\t    /dev/sda1     ONLINE       0     0     0\n"
            "\t    /dev/sdb1     ONLINE       0     0     0\n"
            "\tcache\n"
            "\t  /dev/sdc1       ONLINE       0     0     0\n"
            "\tspares\n"
            "\t  /dev/sdd1       AVAIL   \n\nerrors: No known data errors\n")
    disk, special = zpool.parse_text(text)
    assert (disk.name, disk.level, disk.tolerates, members(disk)) == ("fast/nvme0n1p1", "disk", 0,
                                                                     ["/dev/nvme0n1p1"])
    assert (special.name, special.role, members(special)) == ("fast/mirror-1", "special", ["/dev/sda1", "/dev/sdb1"])
    assert special.notes == ("the pool's hot spares (not counted as members): /dev/sdd1",)
    with pytest.raises(ParseError):
        zpool.parse_json("invalid option 'j'\n")


def test_every_recorded_pool_folder_has_a_readme(tmp_path: Path) -> None:
    folders = sorted(p for p in POOLS.iterdir() if p.is_dir())
    assert {p.name for p in folders} >= {"md-raid1", "md-raid5", "md-raid10", "lvm-raid1", "luks-md-raid1",
                                         "btrfs-raid1", "zfs-mirror", "zfs-raidz", "zfs-draid"}
    for folder in folders:
        readme = (folder / "README.md").read_text()
        assert ("HAND-WRITTEN" in readme) == folder.name.startswith("zfs-"), folder
        assert "RECORDED" in readme or folder.name.startswith("zfs-")
