"""What the storage tools say about redundancy groups, beside what smartctl says about drives: each tool's calls
(argv) and the parsing of its output (zpool, mdadm, lvm, btrfs, lsblk), and discover.py, which makes the calls
through a Runner per tool in order. No process is started here (host/tools.py runs them; replay answers them)."""
