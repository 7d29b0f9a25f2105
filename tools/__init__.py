"""The project's tools, run from the checkout: the generators of the hand-made and edited fixture folders
(make_*.py), the QEMU recorders (record_qemu.py, run as `python3 -m tools.record_qemu`; record_nvme_cli.py, nvme-cli's
answers to the endurance-log reads) and their VM harness (qemuvm.py, which the QEMU tests use too), the RAID
controller emulator (raid_emu/), the man page generator (make_manpage.py) and the build scripts of the zipapp and
the Debian package (build_zipapp.py, build_deb.py). Each fixture folder's README names the tool that writes it."""
