"""The rows of the NVMe vendors whose log 0xCA is Intel's layout (drives/nvme_vendors.py): each matches its vendor's
model strings and no neighbour's, documents the page for smartctl to read, and forbids the timer reset."""

from __future__ import annotations

from dataclasses import replace

import pytest
from support.builders import ata, nvme

from ssdwear.drives import families, fine, nvme_vendors
from ssdwear.drives.timed import reset_forbidden, reset_refusal


@pytest.mark.parametrize("model,name", [
    ("DAPUSTOR H3200 3.2TB", "DapuStor NVMe"),
    ("ScaleFlux CSD 3000", "ScaleFlux NVMe"),
    ("MEMBLAZE P7936DT0640M00", "Memblaze NVMe (Intel-layout models)"),  # memblaze-nvme.c's own example
    ("PBlaze5 910", "Memblaze NVMe (Intel-layout models)"),  # 'PB' sorts after 'P5920': Intel's format
    ("YMTC PE511 1.92TB", "YMTC NVMe"),
    ("SHANNON DIRECT-IO G6", "Shannon Systems NVMe"),
    ("SSSTC PJ1-GW3840", "SSSTC NVMe"),
])
def test_each_vendor_row_matches_its_models_and_documents_0xca_for_smartctl(model: str, name: str) -> None:
    snap = families.known(replace(nvme(10), model=model))
    assert snap.family is not None and snap.family.name == name
    assert fine.smartctl_log_pages(snap) == (0xCA,)
    assert reset_forbidden(snap) is not None and "never sent a timer reset" in (reset_refusal(snap) or "")


@pytest.mark.parametrize("model", [
    "P5510 3.84TB",  # a Memblaze model nvme-cli reads in Memblaze's older layout (before 'P5920')
    "Samsung SSD 980 PRO 1TB", "WDC PC SN720 SDAPNTW-1T00", "Micron_7450_MTFDKCC1T9TFR",
    "INTEL SSDPEKNW010T8",  # Intel's client NVMe: not a data-centre row either
    "XDAPUSTOR H3200",  # matched whole: the vendor's name first
])
def test_no_other_nvme_drive_is_asked_for_0xca(model: str) -> None:
    snap = families.known(replace(nvme(10), model=model))
    assert snap.family not in nvme_vendors.FAMILIES and fine.smartctl_log_pages(snap) == ()


def test_an_ssstc_sata_drive_is_not_its_nvme_row() -> None:
    snap = families.known(ata("SSSTC ER3-GD240", []))
    assert snap.family is not None and snap.family.name != "SSSTC NVMe"
