"""Every real output in fixtures/corpus reports the figures it reported before the drive knowledge became one table
of families (issue 27): tests/cli/corpus_figures.tsv was written from main before that change (tools/corpus_figures.py),
and every later tree is held to it cell by cell. A change made on purpose is listed in CHANGES with the value before,
the value after and why; any other difference fails."""

from __future__ import annotations

from tools.corpus_figures import COLUMNS, TABLE, figures, read_table

# (file, column) -> (before, after, why)
CHANGES: dict[tuple[str, str], tuple[str, str, str]] = {}


def changed(why: str, files: dict[str, dict[str, tuple[str, str]]]) -> None:
    """Changes made on purpose, for one reason: {file: {column: (before, after)}}."""
    for name, columns in files.items():
        for column, (before, after) in columns.items():
            assert (name, column) not in CHANGES, (name, column)
            CHANGES[name, column] = (before, after, why)


def _samsung_dc(wa: str, nand: str) -> dict[str, tuple[str, str]]:
    return {"write_amplification": ("-", wa), "nand_bytes_written": ("-", nand),
            "counter": ("average_erase_count", "nand_bytes_written"),
            "fine_source": ("average_erase_count", "nand_bytes_written"),
            "window": ("-", "timed-workload:not valid")}


changed("issue 27.6: Samsung's data-centre SATA row reads 251 NAND_Writes (512-byte sectors: the write amplification, "
        "and the NAND bytes as the finest wear counter) and 245-247 as Intel's timed workload (held at 65535: a "
        "window not valid)", {
            "linuxhw-EnterpriseDrive__samsung-mz7lm240hmhq-00005__1.txt": _samsung_dc("1.94", "1375153204363264"),
            "linuxhw-EnterpriseDrive__samsung-mz7lh960hajr-00005__1.txt": _samsung_dc("1.82", "150128877207552"),
            "linuxhw-EnterpriseDrive__samsung-mz7km480hmhq-00005__1.txt": _samsung_dc("2.22", "1935748409065472"),
            "smartctl_exporter__samsung-mz7l3240hchq-00a07__1.json": _samsung_dc("1.52", "508833595392")})


def test_every_corpus_file_reports_the_figures_it_reported_before_the_family_table() -> None:
    before = {row["file"]: row for row in read_table(TABLE.read_text(encoding="utf-8"))}
    now = {row["file"]: row for row in figures()}
    assert sorted(now) == sorted(before)
    differ = []
    for name, row in now.items():
        for column in COLUMNS[1:]:
            old, expected = before[name][column], before[name][column]
            if (name, column) in CHANGES:
                was, expected, _why = CHANGES[name, column]
                assert old == was, f"CHANGES says {name} {column} was {was}, the table says {old}"
            if row[column] != expected:
                differ.append(f"{name} {column}: {old} -> {row[column]}")
    assert differ == []


def test_the_listed_changes_name_real_files_and_columns() -> None:
    files = {row["file"] for row in read_table(TABLE.read_text(encoding="utf-8"))}
    assert all(name in files and column in COLUMNS[1:] and why for (name, column), (_, _, why) in CHANGES.items())
changed("issue 27.6: SanDisk CloudSpeed's row reads 178 SSD_LifeLeft(0.01%), life left in 0.01 % steps: 9224 is "
        "7.76 % used, the finer reading of Device Statistics' 7 %, which it sharpens", {
            "linuxhw-EnterpriseDrive__sandisk-sdlf1dar-480g-1ha1__1.txt": {
                "used_percent": ("7.0", "7.76"),
                "used_source": ("ata_devstat_percentage_used", "sandisk_178_life_left")}})
changed("issue 27.8: the Samsung PM851 OEM row reads only 177's normalised value: its raw copies it (98/98, then "
        "95/95 on the same drive), so it is no average erase count (the rows were added from the tree before that "
        "row)", {
            f"linuxhw-EnterpriseDrive__samsung-mz7te256hmhp-00000__{n}.txt": {
                "fine_source": ("average_erase_count", "-"), "counter": ("average_erase_count", "host_bytes_written")}
            for n in (1, 2)})
changed("issue 27.6: the Silicon Motion row reads 245 TLC_Writes_32MiB (+ 246 SLC) as NAND writes, a unit drivedb.h "
        "doubts on some members, used where it agrees with the indicator (143 full writes at 4 % used)", {
            "smartctl_exporter__transcend-ts32gmts400__1.json": {
                "write_amplification": ("-", "4.52"), "nand_bytes_written": ("-", "4587998150656")}})
changed("issue 27.6: the Seagate BarraCuda / IronWolf 125 row reads 233 Flash_Writes_GiB (the NAND writes, the finest "
        "wear counter: write amplification 1.55) and 173's middle word as the average erase count (the row was added "
        "from the tree before that row)", {
            "linuxhw-EnterpriseDrive__seagate-ironwolf-za500nm10002-2zg101__1.txt": {
                "fine_source": ("-", "nand_bytes_written"), "write_amplification": ("-", "1.55"),
                "nand_bytes_written": ("-", "26661009489920"),
                "counter": ("host_bytes_written", "nand_bytes_written")}})
changed("issue 27.6: the SK hynix client / Gold S31 row reads the S31's 177 Wear_Leveling_Count (149, between its 168 "
        "minimum 116 and 169 maximum 180 erase counts) as its average erase count", {
            "linuxhw-EnterpriseDrive__sk-hynix-shgs31-1000gs-2__1.txt": {
                "fine_source": ("-", "average_erase_count"), "counter": ("host_bytes_written", "average_erase_count")}})
changed("issue 27.6: the SSSTC ERX row reads no host counter whose unit no source gives (241 read as sectors made 581 "
        "kB in 1,829 hours and a write amplification of 1,355,566; the row was added from the tree before that row)", {
            "linuxhw-EnterpriseDrive__ssstc-er2-gd480__1.txt": {
                "write_amplification": ("1355566.5", "-"), "host_bytes_written": ("580608", "-")}})
