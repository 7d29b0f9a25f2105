"""ssdwear: SMART wear monitor for SSDs (Intel timed workload, ATA, NVMe, SCSI)."""

__version__ = "0.1.0"
