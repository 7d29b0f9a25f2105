"""Builders of Snapshot objects for tests of the layers above the parser."""

from __future__ import annotations

from ssdwear.model.records import DEVSTAT_PERCENT_USED, Attribute, DevStat, NvmeHealth, Snapshot


def attr(attr_id: int, raw: int, value: int = 100, name: str = "") -> Attribute:
    return Attribute(id=attr_id, name=name or f"Attr_{attr_id}", value=value, worst=value, thresh=0, raw=raw,
                     raw_string=str(raw))


def ata(model: str, attrs: list[Attribute], poh: float | None = 1000, devstat_used: int | None = None,
        serial: str = "SERIAL1", device: str = "/dev/sda", rotation: int = 0, family: str | None = None,
        **extra) -> Snapshot:
    devstats = {}
    if devstat_used is not None:
        devstats[DEVSTAT_PERCENT_USED] = DevStat(7, 8, "Percentage Used Endurance Indicator", devstat_used)
    return Snapshot(source=device, device=device, interface="ata", model=model, serial=serial, rotation_rate=rotation,
                    power_on_hours=poh, attributes={a.id: a for a in attrs}, devstats=devstats, model_family=family,
                    smart_passed=True, **extra)


def intel(e2: int, e3: int, e4: int, poh: float = 1000, mwi: int = 100, model: str = "INTEL SSDSA2BZ200G3",
          **kw) -> Snapshot:
    names = {226: "Workld_Media_Wear_Indic", 227: "Workld_Host_Reads_Perc", 228: "Workload_Minutes",
             233: "Media_Wearout_Indicator"}
    attrs = [attr(226, e2, name=names[226]), attr(227, e3, name=names[227]), attr(228, e4, name=names[228]),
             attr(233, 0, value=mwi, name=names[233]), attr(9, int(poh), name="Power_On_Hours")]
    return ata(model, attrs, poh=poh, **kw)


def nvme(percentage_used: int, spare: int = 100, threshold: int = 10, warning: int = 0, poh: int = 1000,
         written_units: int = 1000, serial: str = "NVME1") -> Snapshot:
    return Snapshot(source="/dev/nvme0", device="/dev/nvme0", interface="nvme", model="Example NVMe",
                    serial=serial, rotation_rate=0, power_on_hours=poh, smart_passed=warning == 0,
                    nvme=NvmeHealth(critical_warning=warning, percentage_used=percentage_used, available_spare=spare,
                                    available_spare_threshold=threshold, data_units_written=written_units,
                                    data_units_read=written_units, media_errors=0, power_on_hours=poh))
