"""Output, and the only importer of rich: one module per view for people (report, plan, history, timed, scan), laid
out by layout.py (wrapping, widths, tables that never cut a word); every document for scripts (documents.py: JSON,
YAML, CSV); the Prometheus exposition (prometheus.py); the one writer to stdout and stderr, safe under any locale
(streams.py)."""
