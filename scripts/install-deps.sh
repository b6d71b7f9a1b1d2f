#!/bin/sh
# Install what pccbench needs to build, test and run, with apt-get.
# Idempotent: installs only the packages that are missing, and calls
# nothing (no apt, no network) when all are there, so `make check` runs
# as is in a chroot that has them (sbuild).  Uses sudo when not root.
# Exits non-zero (with the reason) when a package cannot be had.
set -eu

# to build (debian/control's Build-Depends say the same)
pkgs="gcc make pkg-config libxml2-dev libpci-dev libreadline-dev \
libjson-c-dev libmicrohttpd-dev libnlopt-dev libyaml-dev libcrypt-dev"
# to run and test: cmocka, gnuplot, mstflint's mstreg, tmux (repl.sh),
# Prometheus' promtool and server, node_exporter and curl (metrics.sh),
# GNU parallel and Slurm (sweep_shard.sh), binutils' readelf (doca.sh), tshark
# (sim2_trace.sh reads the simulator's pcap with Wireshark's dissectors;
# without it an awk reader checks the capture), ansible-core and
# systemd's systemd-analyze (rollout.sh: contrib/ansible and
# contrib/systemd), openssl and apache2-utils's htpasswd (serve.sh: a
# throwaway certificate and a bcrypt hash)
pkgs="$pkgs libcmocka-dev gnuplot-nox mstflint tmux prometheus \
prometheus-node-exporter curl parallel binutils tshark slurm-wlm \
ansible-core systemd openssl apache2-utils"
[ "${WITH_CLANG:-0}" = 1 ] && pkgs="$pkgs clang"
# make deb: the Debian packaging tools
[ "${WITH_DEB:-0}" = 1 ] && pkgs="$pkgs dpkg-dev debhelper lintian fakeroot"

missing=""
for p in $pkgs; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: apt-get not found; install:$missing" >&2
	exit 1
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=sudo
	else
		echo "install-deps: not root and no sudo; install:$missing" >&2
		exit 1
	fi
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
