"""Conclusions, pure (the clock is passed in): one snapshot -> a report (report.py, with the timed window's one rule
in timed_window.py and what the caller knows in context.py), saved readings and stored samples -> windowed
projections (series.py, history.py), keep/watch/retire (verdict.py, thresholds.py), the Nagios levels (nagios.py),
which drive lasts (plan.py), the timed window so far (status.py)."""
