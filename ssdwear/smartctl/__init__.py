"""What smartctl and nvme-cli say, and no process: the calls ssdwear makes (argv.py, also the recordings' names),
smartctl's exit status (exit_status.py), the Runner seam (runner.py), the calls and how their answers are read
(calls.py), any smartctl output into one Snapshot (parse/), and the recordings that answer instead of the programs
(replay.py)."""
