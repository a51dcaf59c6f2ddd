#!/bin/sh
# `make deb-check`: installs the runtime package with apt on a bare Debian (a debootstrap
# minbase, which has none of redlab's libraries) and uses what it installed: redlab-server starts
# on a free port and answers, `redlab lock` takes a lock on it, the man pages are there.
# Needs root, debootstrap and Debian's mirror (the only network it uses); not part of
# `make test`, since it downloads a base system (about 30 s here) and the package's Depends.
#   deb_install_check.sh DEB [ROOT_DIR]   (ROOT_DIR is kept and reused: default build/deb-root)
set -eu
deb=$(realpath "$1")
root=${2:-build/deb-root}
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}
fail() { echo "FAIL: $*"; exit 1; }

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "deb-check: debootstrap --variant=minbase $suite $root"
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >/dev/null
fi
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$@"; }
cp /etc/resolv.conf "$root/etc/resolv.conf"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'pkill -f "^redlab-server --port 0 --port-file /tmp/port" || true;
      umount "$root/proc" 2>/dev/null || true' EXIT

# A bare system first: none of the libraries redlab links is there.
in_root dpkg-query -W libuv1 >/dev/null 2>&1 && fail "$root already has libuv1: not a bare system"
cp "$deb" "$root/tmp/"
in_root apt-get update -qq
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "/tmp/$(basename "$deb")" >/dev/null
in_root dpkg-query -W redlab libuv1 liblua5.1-0

# What it installed works: the server on a free port, a PING, a lock held around a command.
rm -f "$root/tmp/port"
in_root sh -c 'redlab-server --port 0 --port-file /tmp/port --loglevel warning >/tmp/server.log 2>&1 &'
for _ in $(seq 1 100); do [ -s "$root/tmp/port" ] && break; sleep 0.1; done
port=$(head -n1 "$root/tmp/port" 2>/dev/null) || true
[ -n "$port" ] || fail "redlab-server did not write its port: $(cat "$root/tmp/server.log")"
held=$(in_root redlab lock --server "redis://127.0.0.1:$port" deb-check -- sh -c 'echo held')
[ "$held" = "held" ] || fail "redlab lock printed '$held'"
in_root test -f /usr/share/man/man1/redlab-server.1.gz -o -f /usr/share/man/man1/redlab-server.1 \
  || fail "no redlab-server(1)"
version=$(in_root redlab-server --version)
echo "deb-check: ok: apt installed $(basename "$deb") on a bare $suite; $version answered on" \
  "port $port and redlab lock ran a command under a lock"
