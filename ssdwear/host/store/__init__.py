"""The history store: SQLite, one file (files.py: finding, creating and trusting it), append-only named migrations
(migrations.py), the reads and writes (queries.py: Store).

- Drives are keyed by identity (model + serial, else WWN), never by /dev name.
- WAL journal and a busy timeout: concurrent samplers wait for each other and lose nothing; every
  write is one transaction, so a crash (kill -9) loses at most the sample being written.
- A file that is not an ssdwear database (not SQLite, corrupt, or another program's SQLite file) is
  reported and never written to, truncated or replaced. A damaged database is reported with what to do
  (every sqlite3.DatabaseError becomes a StoreError naming the file), never retried in a loop.
- The path is never followed through a symbolic link (a link planted in /tmp would make root overwrite
  another file); a new database is created with O_CREAT|O_EXCL|O_NOFOLLOW, mode 0640, in directories made
  without following links. As root, the file and the way to it must be root's alone, its directory writable by
  root alone, sticky or not (host/trust.py), and that is checked before anything is created. A -journal, -wal or
  -shm beside it (SQLite plays them back, even for a reader) must be the database owner's regular file.
- Samples are compact rows in a WITHOUT ROWID table clustered on (drive, time): years of hourly
  samples for a 60-drive server stay well under 500 MB and a drive's last month is one range scan.
"""
