"""The one version of ssdwear (pyproject.toml reads it; `ssdwear --version` and the documents' `ssdwear` key print it).
0.2: JSON schema 2."""

__version__ = "0.2.0"
