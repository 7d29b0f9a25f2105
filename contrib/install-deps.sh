#!/bin/sh
# Install ssdwear's system dependencies with the machine's package manager.
#   contrib/install-deps.sh          smartmontools (what ssdwear itself needs), nvme-cli (the timer reset
#                                    of Intel/Solidigm NVMe drives) and, on Debian/Ubuntu, python3-venv
#                                    (contrib/install.sh installs ssdwear into a venv)
#   contrib/install-deps.sh --test   also what the test suite needs: QEMU and busybox (emulated drives),
#                                    zsh, fish and bash-completion (the completion scripts are loaded),
#                                    Prometheus's node_exporter and promtool, VictoriaMetrics (its server
#                                    and vmalert check the fleet rules and the push), and for the packages:
#                                    debhelper and dh-python (the .deb is built), lintian (it is checked),
#                                    man-db and groff (the man page is rendered), systemd (systemd-analyze
#                                    verifies the units), and mdadm, lvm2, cryptsetup-bin and btrfs-progs
#                                    (redundancy groups are built in the QEMU VM, which runs the host's tools)
# Runs the package manager through sudo when not root. Installs only what is missing.
set -eu

want="smartctl:smartmontools nvme:nvme-cli"
if [ "${1:-}" = "--test" ]; then
    want="$want qemu-system-x86_64:qemu-system-x86 busybox:busybox-static"
    want="$want prometheus-node-exporter:prometheus-node-exporter promtool:prometheus zsh:zsh fish:fish"
    want="$want vmalert:victoria-metrics curl:curl"
    want="$want dh:debhelper dh_python3:dh-python lintian:lintian man:man-db groff:groff-base"
    want="$want systemd-analyze:systemd"
    want="$want mdadm:mdadm lvm:lvm2 cryptsetup:cryptsetup-bin btrfs:btrfs-progs"
fi

if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
if [ "${1:-}" = "--test" ] && command -v apt-get >/dev/null 2>&1 \
        && ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
    # The QEMU tests download a Debian kernel package with `apt-get download`: that needs package lists.
    $sudo apt-get update -qq
fi

missing=""
# Debian's python3 makes virtual environments only with python3-venv (contrib/install.sh needs one).
if command -v apt-get >/dev/null 2>&1 && [ -x /usr/bin/python3 ] \
        && ! /usr/bin/python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    missing="$missing python3-venv"
fi
if [ "${1:-}" = "--test" ] && command -v apt-get >/dev/null 2>&1 \
        && [ ! -f /usr/share/bash-completion/bash_completion ]; then
    missing="$missing bash-completion"
fi
for pair in $want; do
    cmd=${pair%%:*}
    pkg=${pair#*:}
    if ! command -v "$cmd" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$cmd" ] && [ ! -x "/sbin/$cmd" ]; then
        missing="$missing $pkg"
    fi
done
[ -n "$missing" ] || exit 0

echo "installing:$missing" >&2
if command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # --no-install-recommends keeps the Prometheus server's web assets and the like out
    # shellcheck disable=SC2086
    $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
elif command -v dnf >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    $sudo dnf install -y $(echo "$missing" | sed 's/qemu-system-x86/qemu-system-x86-core/; s/busybox-static/busybox/; s/cryptsetup-bin/cryptsetup/')
else
    echo "install these packages with your package manager:$missing" >&2
    exit 1
fi
