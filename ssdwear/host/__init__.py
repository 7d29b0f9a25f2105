"""This machine: the programs ssdwear runs (runner.py, the only pySMART importer), what it trusts as root (trust.py),
where its files are (paths.py), its configuration (config.py) and its history database (store/)."""
