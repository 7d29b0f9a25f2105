"""The smartctl releases of the matrix: their tags and commits, the banner each prints, and what a release that
lacks `--json` answers when ssdwear asks for it.

The banner is the first thing of every text output and the parser reads the version from it, so it is
reproduced per release from the lines that print it (cited in ``BANNER_CITES``). Versions from 5.39 on print the
SVN revision and date the release was tagged at (the tag's ``git-svn-id``, ``tags/RELEASE_X_Y@REV``; smartctl 7.3
of Debian 12 prints r5338, its tag's revision, as fixtures/qemu shows); the current source prints the version
description src/getversion.sh makes, ``pre-8.0-NNN`` (NNN: commits since 7.5's base revision).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cite:
    """A line of smartmontools' source at a release (``at``, a name of RELEASES): the file, the line number and a
    piece of the line's text (``make_formats.py --verify-source`` checks every citation against a clone)."""

    at: str
    path: str
    line: int
    text: str

    def render(self) -> str:
        r = RELEASES[self.at]
        where = r.tag if r.name != "current" else "the current source"
        return f"`{self.path}` line {self.line} at {where} ({r.commit[:12]}): `{self.text}`"


@dataclass(frozen=True)
class Release:
    name: str  # the folder name: "5.0.11", "7.5", "current"
    version: str  # as the banner prints it: "5.0-11", "5.19", "7.5", "pre-8.0-549"
    tag: str  # the git ref: RELEASE_X_Y, or the commit of the current source
    commit: str
    date: str  # the commit date of the tag (the date smartctl prints from 5.39 on)
    svn: int | None  # SVN revision of the tag, printed as rNNNN from 5.39 to 7.5
    platform: str  # what the banner prints in brackets (5.33 on)

    @property
    def key(self) -> tuple[int, ...]:
        """Sort key: the version numbers (the current source sorts last)."""
        if self.name == "current":
            return (99,)
        return tuple(int(p) for p in self.name.split("."))

    def at_least(self, name: str) -> bool:
        """Whether this release is the named one or newer (any version, in the matrix or not: "5.38")."""
        return self.key >= _version_key(name)


CURRENT_COMMIT = "f1d0da9ce840f9eac637bb89e11aa2980fa2419d"
_LINUX_2_4 = "i686-pc-linux-gnu"
_TABLE = (
    # name, version, commit, date, svn, platform
    ("5.0", "5.0", "d901f4d73a21dfb234aa02746bd9157e99c049af", "2002-10-10", None, ""),
    ("5.0.2", "5.0-2", "4c78ebd96ac65babbb5db20703f807945134aeec", "2002-10-11", None, ""),
    ("5.0.8", "5.0-8", "2d198512233f259baccf438cd64ecaa9874a37bf", "2002-10-14", None, ""),
    ("5.0.11", "5.0-11", "163bf460492bb7a59fdd335f7a58c5ff4fb04322", "2002-10-24", None, ""),
    ("5.1.1", "5.1-1", "a25af72f3be4443358d279ab7828dd96e85d8046", "2003-01-12", None, ""),
    ("5.1.2", "5.1-2", "e2d9d2f5c505f8fd68ae90cfdef51e082598c0ef", "2003-01-16", None, ""),
    ("5.1.8", "5.1-8", "8fbeabfdaee6b048cb123d5db885137e9d0a3aff", "2003-03-06", None, ""),
    ("5.1.10", "5.1-10", "8906eb2266cb75ebdd68ef7bebbb0cab11964364", "2003-04-21", None, ""),
    ("5.1.13", "5.1-13", "1e7a9f5edd95be8cacd887f16c001537a17dbd9d", "2003-06-12", None, ""),
    ("5.1.14", "5.1-14", "fcaee5a6292c6864cabec5cc8b1f27c3ca549cf3", "2003-06-16", None, ""),
    ("5.19", "5.19", "c0b2c1f1ac324cf8ad68e3fc2012566ee4db700e", "2003-10-03", None, ""),
    ("5.24", "5.24", "633ad5d98a91335ca56da4950e4e773b46ff225e", "2003-11-19", None, ""),
    ("5.33", "5.33", "86e9613d163b2ecea2b91e444a0ba9c002e3ea3c", "2004-09-10", None, _LINUX_2_4),
    ("5.36", "5.36", "d926fea36ea87659d71e8134c7a6019f099e2933", "2006-04-12", None, "x86_64-unknown-linux-gnu"),
    ("5.37", "5.37", "ab974ef1862f4b3eb1f71fbacde509377472d65f", "2006-12-20", None, "x86_64-unknown-linux-gnu"),
    ("5.39", "5.39", "f9e0edca7c9d0f45ce416d3e2827f1864e2a483c", "2009-12-09", 2995, "x86_64-unknown-linux-gnu"),
    ("5.40", "5.40", "28742c2f847b8935f00e17829c3669504464f99e", "2010-10-16", 3189, "x86_64-linux-2.6.32-5-amd64"),
    ("5.41", "5.41", "a2fcbaef7e9e8c1491e3e852f805770addbfaf6f", "2011-06-09", 3365, "x86_64-linux-2.6.32-5-amd64"),
    ("5.42", "5.42", "201a5ce73ccbd7dd2d1e7bc277bb688278bc8e1d", "2011-10-20", 3458, "x86_64-linux-2.6.32-5-amd64"),
    ("6.0", "6.0", "d568cbed54f7ddce3c78962e6ea8cda14b970683", "2012-10-10", 3643, "x86_64-linux-3.2.0-4-amd64"),
    ("6.1", "6.1", "1b8fd3a0e0cac8dc0038f610dc874745760679ae", "2013-03-16", 3800, "x86_64-linux-3.2.0-4-amd64"),
    ("6.3", "6.3", "5f49c7fd5a01bd11f5252b6cbf114ee5674abde7", "2014-07-26", 3976, "x86_64-linux-3.2.0-4-amd64"),
    ("6.4", "6.4", "89688b08354a69673027a78a3b758fe932712e75", "2015-06-04", 4109, "x86_64-linux-3.16.0-4-amd64"),
    ("6.5", "6.5", "db4904e09dd9b814e50b806e5e6eab45d1106d21", "2016-05-07", 4318, "x86_64-linux-4.9.0-8-amd64"),
    ("7.0", "7.0", "51e8d5e8ffb4039e0ef4b4f72323b87c7ef5217a", "2018-12-30", 4883, "x86_64-linux-4.19.0-6-amd64"),
    ("7.2", "7.2", "59efad4c0000cf40e3441acdc8b0ee58adac7a11", "2020-12-30", 5155, "x86_64-linux-5.10.0-9-amd64"),
    ("7.3", "7.3", "ade59e8d9460e5e2b057855c6858d557dd4935ad", "2022-02-28", 5338, "x86_64-linux-6.1.0-57-amd64"),
    ("7.4", "7.4", "0c0bada5eedb759c9d7bb50ff54959cf0809c5a9", "2023-08-01", 5530, "x86_64-linux-6.1.0-57-amd64"),
    ("7.5", "7.5", "f276b249fdc84019403491303479485030ac7c80", "2025-04-30", 5714, "x86_64-linux-6.1.0-57-amd64"),
    ("current", "pre-8.0-549", CURRENT_COMMIT, "2026-08-19", None, "x86_64-linux-6.1.0-57-amd64"),
)
RELEASES = {name: Release(name, version, ("RELEASE_" + name.replace(".", "_")) if name != "current" else commit,
                          commit, date, svn, platform)
            for name, version, commit, date, svn, platform in _TABLE}

# The copyright line of the banner, by the first release that printed it (5.39 on: lib/utility.cpp,
# format_version_info; before: smartctl.c printslogan).
_COPYRIGHT = (
    ("5.0", "2002"), ("5.1.9", "2002-3"), ("5.27", "2002-4"), ("5.36", "2002-6"), ("5.38", "2002-8"),
    ("5.39", "2002-9 by Bruce Allen, http://smartmontools.sourceforge.net"),
    ("5.40", "2002-10 by Bruce Allen, http://smartmontools.sourceforge.net"),
    ("5.41", "2002-11 by Bruce Allen, http://smartmontools.sourceforge.net"),
    ("6.0", "2002-12, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("6.1", "2002-13, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("6.3", "2002-14, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("6.4", "2002-15, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("6.5", "2002-16, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("7.0", "2002-18, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("7.2", "2002-20, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("7.3", "2002-22, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("7.4", "2002-23, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("7.5", "2002-25, Bruce Allen, Christian Franke, www.smartmontools.org"),
    ("current", "2002-26, Bruce Allen, Christian Franke, www.smartmontools.org"),
)
_HOME = "http://smartmontools.sourceforge.net/"


def _version_key(name: str) -> tuple[int, ...]:
    return (99,) if name == "current" else tuple(int(p) for p in name.split("."))


def copyright_years(r: Release) -> str:
    return [text for first, text in _COPYRIGHT if _version_key(first) <= r.key][-1]


def banner(r: Release) -> str:
    """The lines every text output starts with, up to and including the blank line after them (5.0 printed them
    for -p only: nothing)."""
    if not r.at_least("5.0.2"):
        return ""
    years = copyright_years(r)
    if r.at_least("5.39"):
        when = f"{r.date} r{r.svn}" if r.svn is not None else r.date
        return f"smartctl {r.version} {when} [{r.platform}] (local build)\nCopyright (C) {years}\n\n"
    host = f" [{r.platform}]" if r.at_least("5.33") else ""
    home = "Home page is" if r.at_least("5.0.11") else "Home page of smartctl is" if r.at_least("5.0.8") else \
        "Home page of project is"
    return f"smartctl version {r.version}{host} Copyright (C) {years} Bruce Allen\n{home} {_HOME}\n\n"


# The lines that print the banner, by the first release of each layout.
BANNER_CITES = {
    "5.0": [Cite("5.0", "sm5/smartctl.c", 228, "smartctl version %d.%d Copyright (C) 2002 Bruce Allen")],
    "5.0.2": [Cite("5.0.2", "sm5/smartctl.c", 217, "smartctl version %d.%d-%d Copyright (C) 2002 Bruce Allen"),
              Cite("5.0.2", "sm5/smartctl.c", 218, "Home page of project is %s")],
    "5.0.8": [Cite("5.0.8", "sm5/smartctl.c", 212, "smartctl version %d.%d-%d Copyright (C) 2002 Bruce Allen"),
              Cite("5.0.8", "sm5/smartctl.c", 213, "Home page of smartctl is %s")],
    "5.0.11": [Cite("5.0.11", "sm5/smartctl.c", 71, "smartctl version %d.%d-%d Copyright (C) 2002 Bruce Allen"),
               Cite("5.0.11", "sm5/smartctl.c", 72, "Home page is %s")],
    "5.19": [Cite("5.19", "sm5/smartctl.c", 57, "smartctl version %s Copyright (C) 2002-3 Bruce Allen")],
    "5.33": [Cite("5.33", "sm5/smartctl.c", 68, "smartctl version %s [%s] Copyright (C) 2002-4 Bruce Allen")],
    "5.39": [Cite("5.39", "smartmontools/utility.cpp", 91, '"%s "PACKAGE_VERSION" "SMARTMONTOOLS_SVN_DATE" r"'),
             Cite("5.39", "smartmontools/smartctl.cpp", 68,
                  'pout("%s\\n", format_version_info("smartctl").c_str());')],
    "7.4": [Cite("7.4", "smartmontools/utility.cpp", 94, "PACKAGE_VERSION"),
            Cite("7.4", "smartmontools/utility.cpp", 106, "Copyright (C) 2002-23, Bruce Allen, Christian Franke")],
    "current": [Cite("current", "lib/utility.cpp", 141, '"%s " SMARTMONTOOLS_GIT_VER_DESC " "'),
                Cite("current", "src/getversion.sh", 194, 'ver_desc="pre-$ver${pre_revs3:+-}$pre_revs3$modified"')],
}


def banner_cites(r: Release) -> list[Cite]:
    """The source lines of the banner layout in force at this release."""
    return [cites for first, cites in BANNER_CITES.items() if _version_key(first) <= r.key][-1]


def json_refusal(r: Release, option: str = "json=c") -> tuple[str, int]:
    """What smartctl 5.39-6.6 prints for an option it does not have (`--json=c`), exit status 1 (bit 0): the
    banner, the "=======> UNRECOGNIZED OPTION" line and the usage hint (smartctl.cpp's option parser; glibc's
    getopt also says "unrecognized option" on stderr, which the replay does not need)."""
    return banner(r) + f"=======> UNRECOGNIZED OPTION: {option}\n\nUse smartctl -h to get a usage summary\n\n", 1


REFUSAL_CITES = [Cite("5.41", "smartmontools/smartctl.cpp", 754, "=======> UNRECOGNIZED OPTION: %s"),
                 Cite("5.41", "smartmontools/smartctl.cpp", 72, "Use smartctl -h to get a usage summary")]

# asctime() of the moment every fixture is "read", in UTC (an hour before the tests' T0)
LOCAL_TIME = "Mon Nov 30 11:00:00 2026"
LOCAL_TIME_T = 1796036400
