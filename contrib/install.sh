#!/bin/sh
# Install ssdwear from this checkout the way a Debian/Ubuntu server wants it: in a virtual environment of its
# own (the system Python refuses `pip install` since Debian 12, PEP 668 "externally-managed-environment"), with
# the command linked into /usr/local/bin, where contrib/cron.d-ssdwear and contrib/systemd expect it, and the
# shell completions put where bash-completion, zsh and fish look for them.
#
#   sh contrib/install.sh          as root (or through sudo): /opt/ssdwear + /usr/local/bin/ssdwear
#
# Settings (environment): PREFIX (the venv, default /opt/ssdwear), BINDIR (default /usr/local/bin), PYTHON
# (default /usr/bin/python3, else python3 on PATH), COMPLETIONS=no to skip them, and BASH_COMPLETION_DIR,
# ZSH_COMPLETION_DIR, FISH_COMPLETION_DIR to put them elsewhere. Running it again upgrades in place.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${PREFIX:-/opt/ssdwear}
BINDIR=${BINDIR:-/usr/local/bin}
if [ -z "${PYTHON:-}" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
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
as_owner "$PREFIX" "$PREFIX/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade "$here"
as_owner "$BINDIR" mkdir -p "$BINDIR"
as_owner "$BINDIR/ssdwear" ln -sf "$PREFIX/bin/ssdwear" "$BINDIR/ssdwear"
echo "installed: $BINDIR/ssdwear -> $PREFIX/bin/ssdwear ($("$PREFIX/bin/ssdwear" --version))"

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
