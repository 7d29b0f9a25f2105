"""What ssdwear knows about drive families, as data and small rules: the vendor profiles (wear attribute, write
counters and their units, the timed workload and its documented reset, quirks), the write counters in bytes, and
the sourced endurance ratings (ratings.yaml, with ratings.json its checked copy)."""
