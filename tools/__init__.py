"""What makes the recorded fixtures: the generators of the hand-made and edited fixture folders (make_*.py), the
QEMU recorder (record_qemu.py, run as `python3 -m tools.record_qemu`) and its VM harness (qemuvm.py, which the
QEMU tests use too), the RAID controller emulator (raid_emu/). Each fixture folder's README names the tool that
writes it."""
