"""A drive's identity and its name in words, one home each (issues 18.2 and 27.4): DriveId is who a drive is (model +
serial, else WWN; the history's key), carried by every record that names a drive, and its label 'MODEL [SERIAL]'
names it in every view and message. The copies disagreed: the report, check, retire-check and plan named a drive
without a serial by its model alone, the history and start by its WWN; a history chart of such a drive read
'M [None]'; then start and status dropped the WWN report shows, notify's channels, `import smartd`, the group and
stagger views and the report's lines under its table each spelled a drive their own way."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from support.clock import T0

from ssdwear.assess.nagios import evaluate
from ssdwear.assess.plan import Measured
from ssdwear.assess.thresholds import DEFAULT_THRESHOLDS
from ssdwear.assess.verdict import judge
from ssdwear.model.records import DriveId, DriveReport, Sample, StoredDrive
from ssdwear.render.history import history_chart
from ssdwear.render.report import report_view, verdict_text

WWN = "5000c500a1b2c3d4"
NO_SERIAL = DriveReport(device="/dev/sdq", model="ACME SSD 1TB", wwn=WWN, interface="ata", kind="ssd",
                        used_percent=3.0, used_source="ata_devstat_percentage_used")


def test_identity_is_model_and_serial_else_the_wwn_never_the_device() -> None:
    assert DriveId("M", "S1", WWN).key == "M|S1" and DriveId("M", None, WWN).key == f"wwn:{WWN}"
    assert DriveId("M", None, None).key is None
    assert DriveId("M", "S1", interface="nvme") == DriveId("M", "S1", interface="ata")  # the interface is no identity
    assert DriveId.of(NO_SERIAL) == DriveId("ACME SSD 1TB", None, WWN)


def test_the_label() -> None:
    assert DriveId("M", "S1").label == "M [S1]" and DriveId(None, "S1").label == "[S1]" and DriveId().label == ""
    assert DriveId("M", None, WWN).label == f"M [{WWN}]" and DriveId("M", "S1", WWN).label == "M [S1]"


def test_every_view_names_a_drive_without_a_serial_by_its_wwn() -> None:
    from rich.console import Console

    label = f"ACME SSD 1TB [{WWN}]"
    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(report_view([NO_SERIAL], 200))
    assert label in console.export_text().replace("\u00a0", " ")
    assert label in evaluate([NO_SERIAL], DEFAULT_THRESHOLDS)[1]
    assert label in verdict_text(judge(NO_SERIAL), NO_SERIAL)
    assert Measured(NO_SERIAL, "/dev/sdq").label == label
    stored = StoredDrive(DriveId.of(NO_SERIAL), f"wwn:{WWN}")
    assert history_chart(stored, []).startswith(f"{label}: no samples")
    samples = [Sample(at=T0 + timedelta(days=d), power_on_hours=100 + 24 * d, used_percent=3) for d in range(2)]
    assert history_chart(stored, samples).startswith(f"{label}: 2 samples")


def _printed(renderable: object) -> str:
    from rich.console import Console

    console = Console(width=200, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text().replace("\u00a0", " ")


def test_start_status_and_the_alerts_name_a_drive_without_a_serial_by_its_wwn() -> None:
    """Issue 27.4: start and status carried model and serial only (the WWN report shows was lost); notify's channels
    and events, `import smartd` and the group views spelled the label by hand."""
    from ssdwear.assess.status import StatusRow
    from ssdwear.host.channels import _subject
    from ssdwear.model.groups import GroupMember
    from ssdwear.render.alerts import event_line
    from ssdwear.render.documents import start_doc, status_doc
    from ssdwear.render.groups import who
    from ssdwear.render.timed import start_view, status_view
    from ssdwear.run.reset import StartResult

    label, drive = f"ACME SSD 1TB [{WWN}]", DriveId.of(NO_SERIAL)
    started = StartResult("/dev/sdq", "baseline", "counter window started", drive)
    row = StatusRow("/dev/sdq", drive=drive, reason="no timed-workload attributes")
    assert label in _printed(start_view([started], 200)) and label in _printed(status_view([row], 200))
    documents: list[Any] = [start_doc([started])["results"], status_doc([row])["drives"]]
    assert [doc[0]["wwn"] for doc in documents] == [WWN, WWN]
    event = {"event": "firing", "rule": "used_percent", "drive": {"model": "ACME SSD 1TB", "serial": None, "wwn": WWN,
                                                                 "device": "/dev/sdq"}}
    assert label in event_line(event) and label in _subject(event)
    assert who(GroupMember("/dev/sdq", "ONLINE", True, NO_SERIAL)).replace("\u00a0", " ") == f"{label} /dev/sdq"
