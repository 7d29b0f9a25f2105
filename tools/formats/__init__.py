"""The smartctl format-version matrix (tools/make_formats.py writes it into fixtures/formats/).

Every output ssdwear parses, as each smartctl release that changed it prints it: made from smartmontools' own
source at the release tags (RELEASE_X_Y on github.com/smartmontools/smartmontools) and its NEWS, never recorded.
One module per kind of output: ``ata`` (the ATA text sections), ``scsi`` (the SCSI/SAS text), ``nvme`` (the
NVMe text and the ``-l nvmelog`` hex dump), ``jsondocs`` (the ``--json`` documents), ``scan`` (``--scan-open``);
``releases`` holds the releases, their banners and the refusals of options they lack; ``matrix`` the list of
(output, release) fixtures with the source lines each one reproduces. The printed layouts are reproduced from the
printf formats at the cited lines; no smartmontools code is copied."""
