#!/usr/bin/env bash
# Proves the README's two commands on a machine state nobody prepared by
# hand: a clean Debian 12 root made by debootstrap from Debian's packages,
# where a clean clone of this repository's HEAD runs scripts/test.sh and
# scripts/demo.sh (chroot). Only what the README lists as given is added:
# the CUDA Toolkit, bind-mounted read-only from this machine with the
# ld.so.conf entry its installer writes. This sandbox reaches the registries
# through an egress proxy, so its CA certificates (/usr/local/share/
# ca-certificates) are trusted inside too and PIP_CERT is passed; nothing else
# of this machine's state (pip.conf, PIP_FIND_LINKS, installed packages,
# /tmp) is visible inside.
#
# Usage: scripts/fresh-machine-check.sh [ROOT] [COMMAND...]
#   ROOT     where the Debian root is made (default /var/tmp/porta-fresh-root;
#            a new one each run: it is removed first)
#   COMMAND  what runs in the clone (default: scripts/test.sh && scripts/demo.sh)
# Needs root, debootstrap (installed if missing) and the network. Takes about
# as long as the commands themselves plus 5 minutes; its log is ROOT.log.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
root=${1:-/var/tmp/porta-fresh-root}
shift || true
command=${*:-"scripts/test.sh && scripts/demo.sh"}
cuda=$(readlink -f /usr/local/cuda)
log=$root.log

[ "$(id -u)" -eq 0 ] || { echo "fresh-machine-check: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
bind() {  # bind <host path> <path in root> [ro]
  mkdir -p "$root$2"
  mount --bind "$1" "$root$2"
  [ "${3:-}" != ro ] || mount -o remount,bind,ro "$root$2"
  mounted+=("$root$2")
}

# Anything still mounted under an old root (a run killed before its cleanup)
# is unmounted first: removing the root must never reach the host's /dev.
mounts_under_root() { awk -v r="$root" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/mounts | sort -r; }
for m in $(mounts_under_root); do umount -l "$m"; done
if [ -n "$(mounts_under_root)" ]; then echo "fresh-machine-check: mounts remain under $root; not removing it" >&2; exit 1; fi

exec > >(tee "$log") 2>&1
echo "== $(date -u +%FT%TZ) debootstrap bookworm into $root"
rm -rf --one-file-system "$root"
mkdir -p "$root"
bind "$root" ""  # the root a mount point, as / is on a machine (unshare --mount needs that)
debootstrap --variant=minbase --include=ca-certificates bookworm "$root" http://deb.debian.org/debian >/dev/null
cp /etc/resolv.conf "$root/etc/resolv.conf"
# what Debian's installer writes and debootstrap does not: localhost resolves (the tests' TCP store uses it)
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
chroot "$root" update-ca-certificates >/dev/null

echo "== the CUDA Toolkit ($cuda) as its installer leaves it: /usr/local/cuda and an ld.so.conf entry"
bind "$cuda" "$cuda" ro
ln -sfn "$cuda" "$root/usr/local/cuda"
echo "$cuda/lib" > "$root/etc/ld.so.conf.d/zz-cuda.conf"
chroot "$root" ldconfig
for d in /proc /sys /dev /dev/pts; do bind "$d" "$d"; done

echo "== a clean clone of $(git rev-parse --short HEAD)"
git clone -q --no-hardlinks "$repo" "$root/work/porta"

echo "== in the fresh root: $command"
start=$SECONDS
chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
  PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
  /bin/bash -c "cd /work/porta && $command"
echo "== passed in the fresh root in $((SECONDS - start)) s ($(date -u +%FT%TZ))"
