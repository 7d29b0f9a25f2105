#!/bin/sh
# Install ssdwear from this checkout the way a Debian/Ubuntu server wants it: in a virtual environment of its
# own (the system Python refuses `pip install` since Debian 12, PEP 668 "externally-managed-environment"), with
# the command linked into /usr/local/bin, where contrib/cron.d-ssdwear and contrib/systemd expect it, the man
# page in /usr/local/share/man, and the shell completions put where bash-completion, zsh and fish look for them.
#
#   sh contrib/install.sh          as root (or through sudo): /opt/ssdwear + /usr/local/bin/ssdwear
#
# Settings (environment): PREFIX (the venv, default /opt/ssdwear), BINDIR (default /usr/local/bin), PYTHON
# (default /usr/bin/python3, else python3 on PATH), MANDIR (default /usr/local/share/man: man-db's manpath for
# /usr/local/bin), COMPLETIONS=no to skip the completions, and BASH_COMPLETION_DIR,
# ZSH_COMPLETION_DIR, FISH_COMPLETION_DIR to put them elsewhere, SMARTD_RUN_D (default /etc/smartmontools/run.d:
# where Debian's smartd-runner runs its mail scripts; the script goes there only when that directory exists) or
# SMARTD_RUN_D=no to leave it out. Running it again upgrades in place. Every
# directory setting must be an absolute path. The package is built from a clean copy of this checkout, and the
# command is run once, through the link, before "installed" is said.
set -eu

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

if ! "$PYTHON" -c "import sys; sys.exit(sys.version_info < (3, 10))" 2>/dev/null; then
    echo "install.sh: ssdwear needs Python 3.10 or later; $PYTHON is $("$PYTHON" -V 2>/dev/null || echo "not found"): set PYTHON (e.g. PYTHON=python3.11)" >&2
    exit 1
fi
if ! "$PYTHON" -c "import venv, ensurepip" 2>/dev/null; then
    echo "install.sh: $PYTHON cannot make a virtual environment: install python3-venv (sh contrib/install-deps.sh does)" >&2
    exit 1
fi
mkdir -p "$(dirname "$PREFIX")" 2>/dev/null || $sudo mkdir -p "$(dirname "$PREFIX")"
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

as_owner "$BINDIR" mkdir -p "$BINDIR"
as_owner "$BINDIR/ssdwear" ln -sf "$PREFIX/bin/ssdwear" "$BINDIR/ssdwear"
if ! version=$("$BINDIR/ssdwear" --version 2>&1) || [ "$(readlink "$BINDIR/ssdwear")" != "$PREFIX/bin/ssdwear" ]; then
    echo "install.sh: $BINDIR/ssdwear does not run the command installed in $PREFIX/bin/ssdwear ($version): see that it is a link to it (a directory or file in its place?)" >&2
    exit 1
fi
echo "installed: $BINDIR/ssdwear -> $PREFIX/bin/ssdwear ($version)"

# The man page the wheel carries (its data files are under the venv's share/, where man does not look).
as_owner "$MANDIR/man1" mkdir -p "$MANDIR/man1"
as_owner "$MANDIR/man1/ssdwear.1" cp "$PREFIX/share/man/man1/ssdwear.1" "$MANDIR/man1/ssdwear.1"
echo "man page: $MANDIR/man1/ssdwear.1"

install_completion() {  # SHELL DIR FILE NAME EXPLICIT: when that shell is installed or its DIR was given
    if command -v "$1" >/dev/null 2>&1 || [ -n "$5" ]; then
        as_owner "$2" mkdir -p "$2"
        as_owner "$2/$4" cp "$here/completions/$3" "$2/$4"
        echo "completion for $1: $2/$4"
    fi
}
if [ "${COMPLETIONS:-yes}" != "no" ]; then
    # bash: the directory bash-completion loads from on demand (without that package, source the file from
    # ~/.bashrc instead); zsh: a directory in Debian's default $fpath; fish: its vendor directory.
    install_completion bash "${BASH_COMPLETION_DIR:-/usr/share/bash-completion/completions}" ssdwear.bash ssdwear \
        "${BASH_COMPLETION_DIR:-}"
    install_completion zsh "${ZSH_COMPLETION_DIR:-/usr/local/share/zsh/site-functions}" _ssdwear _ssdwear \
        "${ZSH_COMPLETION_DIR:-}"
    install_completion fish "${FISH_COMPLETION_DIR:-/usr/share/fish/vendor_completions.d}" ssdwear.fish \
        ssdwear.fish "${FISH_COMPLETION_DIR:-}"
fi

# smartd's mails (Debian, Ubuntu: smartd-runner runs /etc/smartmontools/run.d/*): ssdwear's verdict appended, by a
# script named to run before 10mail sends the message. Only where the directory exists (smartmontools installed).
SMARTD_RUN_D=${SMARTD_RUN_D:-/etc/smartmontools/run.d}
if [ "$SMARTD_RUN_D" != no ] && [ -d "$SMARTD_RUN_D" ]; then
    as_owner "$SMARTD_RUN_D/05ssdwear" cp "$here/contrib/smartd/run.d-ssdwear" "$SMARTD_RUN_D/05ssdwear"
    as_owner "$SMARTD_RUN_D/05ssdwear" chmod 755 "$SMARTD_RUN_D/05ssdwear"
    echo "smartd mail script: $SMARTD_RUN_D/05ssdwear (chmod -x it to turn it off)"
fi
