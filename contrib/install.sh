#!/bin/sh
# Install ssdwear from this checkout the way a Debian/Ubuntu server wants it: in a virtual environment of its
# own (the system Python refuses `pip install` since Debian 12, PEP 668 "externally-managed-environment"), with
# the command linked into /usr/local/bin, where contrib/cron.d-ssdwear and contrib/systemd expect it, the man
# page in /usr/local/share/man, the shell completions put where bash-completion, zsh and fish look for them, and
# smartd's mail script (05ssdwear) where Debian's smartd-runner runs it.
#
#   sh contrib/install.sh              as root (or through sudo): /opt/ssdwear + /usr/local/bin/ssdwear
#   sh contrib/install.sh --uninstall  remove every file it wrote and every directory it made, with the same settings
#
# Settings (environment): PREFIX (the venv, default /opt/ssdwear), BINDIR (default /usr/local/bin), PYTHON
# (default /usr/bin/python3, else python3 on PATH), MANDIR (default /usr/local/share/man: man-db's manpath for
# /usr/local/bin), COMPLETIONS=no to skip the completions, and BASH_COMPLETION_DIR,
# ZSH_COMPLETION_DIR, FISH_COMPLETION_DIR to put them elsewhere, SMARTD_RUN_D (default /etc/smartmontools/run.d:
# where Debian's smartd-runner runs its mail scripts; the script goes there only when that directory exists) or
# SMARTD_RUN_D=no to leave it out. Running it again upgrades in place. Every
# directory setting must be an absolute path. The package is built from a clean copy of this checkout, and the
# command is run once, through the link, before "installed" is said. What it wrote and the directories it made
# are listed in PREFIX/installed-files, which --uninstall reads (with the paths the settings name). A file that a
# Debian package owns (the ssdwear package installs the smartd script and the bash and fish completions at the
# same paths) is never written or removed: install.sh says so and leaves it to the package.
set -eu

case "${1:-}" in
    "") action=install ;;
    --uninstall) action=uninstall ;;
    *) echo "install.sh: unknown argument '$1': give none to install or upgrade, or --uninstall" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/opt/ssdwear}
BINDIR=${BINDIR:-/usr/local/bin}
MANDIR=${MANDIR:-/usr/local/share/man}
if [ -z "${PYTHON:-}" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
# A relative directory would be taken from wherever install.sh was started, and the link in BINDIR would point
# nowhere (a symbolic link's relative target is read from the link's own directory): refused, as autoconf's
# configure refuses a relative --prefix, rather than guessed.
for setting in PREFIX BINDIR MANDIR BASH_COMPLETION_DIR ZSH_COMPLETION_DIR FISH_COMPLETION_DIR SMARTD_RUN_D; do
    eval "value=\${$setting:-}"
    case "$value" in
        ""|/*) ;;
        no) [ "$setting" = SMARTD_RUN_D ] || { echo "install.sh: $setting must be an absolute path, got 'no'" >&2; exit 1; } ;;
        *) echo "install.sh: $setting must be an absolute path, got '$value': the command, cron and systemd must not depend on the directory install.sh ran in (e.g. $setting=$(pwd)/$value)" >&2
           exit 1;;
    esac
done
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
# Only where the target is not the user's own (a test installs into a temporary folder without sudo).
as_owner() { if [ -w "$(dirname "$1")" ] || [ -w "$1" ]; then shift; "$@"; else shift; $sudo "$@"; fi; }

BASH_DIR=${BASH_COMPLETION_DIR:-/usr/share/bash-completion/completions}
ZSH_DIR=${ZSH_COMPLETION_DIR:-/usr/local/share/zsh/site-functions}
FISH_DIR=${FISH_COMPLETION_DIR:-/usr/share/fish/vendor_completions.d}
SMARTD_RUN_D=${SMARTD_RUN_D:-/etc/smartmontools/run.d}
RECORD=$PREFIX/installed-files
made=""  # "file PATH" and "dir PATH" lines: what this run wrote and made, added to RECORD at the end

package_of() {  # PATH: the Debian package that owns it, if any (dpkg's own answer)
    command -v dpkg-query >/dev/null 2>&1 || return 0
    dpkg-query -S "$1" 2>/dev/null | sed -n '/^diversion by /d; s/: .*//p' | head -n 1
}

settings_files() {  # the files the settings name: what an install writes (beside the venv)
    printf '%s\n' "$BINDIR/ssdwear" "$MANDIR/man1/ssdwear.1" "$BASH_DIR/ssdwear" "$ZSH_DIR/_ssdwear" \
        "$FISH_DIR/ssdwear.fish"
    [ "$SMARTD_RUN_D" = no ] || printf '%s\n' "$SMARTD_RUN_D/05ssdwear"
}

make_dir() {  # DIR: mkdir -p, remembering each directory it creates
    d=$1
    while [ ! -e "$d" ] && [ ! -L "$d" ] && [ "$d" != / ]; do
        made="$made
dir $d"
        d=$(dirname "$d")
    done
    as_owner "$1" mkdir -p "$1"
}

put() {  # SOURCE TARGET [MODE]: copy one file into place, unless a Debian package owns that path
    owner=$(package_of "$2")
    if [ -n "$owner" ]; then
        echo "install.sh: warning: $2 belongs to the Debian package $owner: left as the package has it" >&2
        return 1
    fi
    make_dir "$(dirname "$2")"
    as_owner "$2" cp "$1" "$2"
    [ -z "${3:-}" ] || as_owner "$2" chmod "$3" "$2"
    made="$made
file $2"
}

uninstall() {
    if [ -d "$PREFIX" ] && [ ! -f "$PREFIX/pyvenv.cfg" ]; then
        echo "install.sh: $PREFIX is not a virtual environment (no pyvenv.cfg): nothing removed; set PREFIX to the one install.sh made" >&2
        exit 1
    fi
    listed=$(mktemp "${TMPDIR:-/tmp}/ssdwear-uninstall.XXXXXX")
    trap 'rm -f "$listed" "$listed.done"' EXIT
    { [ ! -f "$RECORD" ] || cat "$RECORD"; settings_files | sed 's/^/file /'; } | sort -u > "$listed"
    : > "$listed.done"
    gone() { echo "removed: $1" | tee -a "$listed.done"; }
    sed -n 's/^file //p' "$listed" | while IFS= read -r path; do
        [ -e "$path" ] || [ -L "$path" ] || continue
        owner=$(package_of "$path")
        if [ -n "$owner" ]; then
            echo "left: $path (the Debian package $owner's)"
        elif [ "$path" = "$BINDIR/ssdwear" ] && [ "$(readlink "$path" || true)" != "$PREFIX/bin/ssdwear" ]; then
            echo "left: $path (not the link to $PREFIX/bin/ssdwear that install.sh makes)"
        else
            as_owner "$path" rm -f "$path"
            gone "$path"
        fi
    done
    if [ -d "$PREFIX" ]; then as_owner "$PREFIX" rm -rf "$PREFIX"; gone "$PREFIX"; fi
    # the directories it made, deepest first, where nothing else has been put since
    sed -n 's/^dir //p' "$listed" | sort -r | while IFS= read -r dir; do
        if [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ]; then as_owner "$dir" rmdir "$dir"; gone "$dir/"; fi
    done
    for unit in /etc/cron.d/ssdwear /etc/systemd/system/ssdwear-sample.service; do
        if [ -f "$unit" ] && [ -z "$(package_of "$unit")" ] && grep -q "$BINDIR/ssdwear" "$unit"; then
            echo "left: $unit (copied by hand; it runs $BINDIR/ssdwear only while that is there: remove it too)"
        fi
    done
    if [ -s "$listed.done" ]; then
        echo "uninstalled; kept: the history and the config ssdwear itself wrote (/var/lib/ssdwear, /etc/ssdwear)"
    else
        echo "install.sh: nothing of ssdwear's to remove (PREFIX=$PREFIX, BINDIR=$BINDIR)"
    fi
}

if [ "$action" = uninstall ]; then
    uninstall
    exit 0
fi
if [ -n "$(package_of /usr/bin/ssdwear)" ]; then
    echo "install.sh: warning: the Debian package ssdwear is installed too: $BINDIR/ssdwear and /usr/bin/ssdwear are two installs; the package keeps the files at the paths both use (the smartd mail script, the completions); keep one (apt-get purge ssdwear, or sh contrib/install.sh --uninstall)" >&2
fi

if ! "$PYTHON" -c "import sys; sys.exit(sys.version_info < (3, 10))" 2>/dev/null; then
    echo "install.sh: ssdwear needs Python 3.10 or later; $PYTHON is $("$PYTHON" -V 2>/dev/null || echo "not found"): set PYTHON (e.g. PYTHON=python3.11)" >&2
    exit 1
fi
if ! "$PYTHON" -c "import venv, ensurepip" 2>/dev/null; then
    echo "install.sh: $PYTHON cannot make a virtual environment: install python3-venv (sh contrib/install-deps.sh does)" >&2
    exit 1
fi
make_dir "$(dirname "$PREFIX")"
as_owner "$PREFIX" "$PYTHON" -m venv "$PREFIX"

# pip builds in the source folder, where a build/ left by an earlier `pip install .` would add removed modules and
# older copies of changed files to the package: the wheel is built from a copy of the checkout as it is (local
# changes included) without build/, dist/, *.egg-info, .git and .venv, by this user, in a folder of its own.
work=$(mktemp -d "${TMPDIR:-/tmp}/ssdwear-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/src" "$work/wheel"
(cd "$here" && tar -cf - --exclude=./build --exclude=./dist --exclude=./.git --exclude=./.venv \
    --exclude='*.egg-info' --exclude=__pycache__ .) | tar -xf - -C "$work/src"
"$PREFIX/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$work/wheel" "$work/src"
wheel=$(ls "$work"/wheel/ssdwear-*.whl)
# The dependencies, then exactly this wheel: pip keeps an installed ssdwear of the same version otherwise.
as_owner "$PREFIX" "$PREFIX/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$wheel"
as_owner "$PREFIX" "$PREFIX/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps "$wheel"

make_dir "$BINDIR"
as_owner "$BINDIR/ssdwear" ln -sf "$PREFIX/bin/ssdwear" "$BINDIR/ssdwear"
made="$made
file $BINDIR/ssdwear"
if ! version=$("$BINDIR/ssdwear" --version 2>&1) || [ "$(readlink "$BINDIR/ssdwear")" != "$PREFIX/bin/ssdwear" ]; then
    echo "install.sh: $BINDIR/ssdwear does not run the command installed in $PREFIX/bin/ssdwear ($version): see that it is a link to it (a directory or file in its place?)" >&2
    exit 1
fi
echo "installed: $BINDIR/ssdwear -> $PREFIX/bin/ssdwear ($version)"

# The man page the wheel carries (its data files are under the venv's share/, where man does not look).
put "$PREFIX/share/man/man1/ssdwear.1" "$MANDIR/man1/ssdwear.1" && echo "man page: $MANDIR/man1/ssdwear.1"

install_completion() {  # SHELL DIR FILE NAME EXPLICIT: when that shell is installed or its DIR was given
    if command -v "$1" >/dev/null 2>&1 || [ -n "$5" ]; then
        if put "$here/completions/$3" "$2/$4"; then echo "completion for $1: $2/$4"; fi
    fi
}
if [ "${COMPLETIONS:-yes}" != "no" ]; then
    # bash: the directory bash-completion loads from on demand (without that package, source the file from
    # ~/.bashrc instead); zsh: a directory in Debian's default $fpath; fish: its vendor directory.
    install_completion bash "$BASH_DIR" ssdwear.bash ssdwear "${BASH_COMPLETION_DIR:-}"
    install_completion zsh "$ZSH_DIR" _ssdwear _ssdwear "${ZSH_COMPLETION_DIR:-}"
    install_completion fish "$FISH_DIR" ssdwear.fish ssdwear.fish "${FISH_COMPLETION_DIR:-}"
fi

# smartd's mails (Debian, Ubuntu: smartd-runner runs /etc/smartmontools/run.d/*): ssdwear's verdict appended, by a
# script named to run before 10mail sends the message. Only where the directory exists (smartmontools installed).
if [ "$SMARTD_RUN_D" != no ] && [ -d "$SMARTD_RUN_D" ]; then
    if put "$here/contrib/smartd/run.d-ssdwear" "$SMARTD_RUN_D/05ssdwear" 755; then
        echo "smartd mail script: $SMARTD_RUN_D/05ssdwear (chmod -x it to turn it off)"
    fi
fi

# What was written and made, for --uninstall: kept across upgrades (a directory made by the first install is
# listed by it), read before the venv is removed.
{ [ ! -f "$RECORD" ] || cat "$RECORD"; printf '%s\n' "$made" | sed '/^$/d'; } | sort -u > "$work/installed-files"
as_owner "$RECORD" cp "$work/installed-files" "$RECORD"
echo "to remove it: sh contrib/install.sh --uninstall (with the same settings)"
