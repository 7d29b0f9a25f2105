"""The data every layer passes and the rules on it that need nothing else: the records (Snapshot -> DriveReport),
the drive's JSON schema, errors, units, the clock, the escaping of untrusted text, the version. Imports no other
ssdwear package."""
