"""One run of ssdwear against drives or files: the session (find, read in parallel, assess, remember, reset behind
the guard), the measure loop, saved outputs read from files, and the Python API."""
