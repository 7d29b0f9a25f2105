"""What ssdwear knows about drive families, as data and small rules: the table of families (families.py, its rows
in intel.py and vendors.py, the names every family shares in named.py), what a row's attributes say (indicators,
counters, fine, timed, naming), and the sourced endurance ratings (ratings.yaml, with ratings.json its checked
copy)."""
