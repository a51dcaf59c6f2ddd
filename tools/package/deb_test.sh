#!/bin/sh
# package.deb: builds the Debian packages (make deb) from the build tree and inspects them: the
# files each holds and the Depends of each.
#   deb_test.sh BUILD_DIR
set -eu
build=$1
rm -rf "$build/deb"
(cd "$build" && cpack -G DEB >/dev/null)
version=$(sed -n 's/^set(CPACK_PACKAGE_VERSION "\(.*\)")$/\1/p' "$build/CPackConfig.cmake")
arch=$(dpkg --print-architecture)
runtime="$build/deb/redlab_${version}_${arch}.deb"
dev="$build/deb/redlab-dev_${version}_${arch}.deb"
fail() { echo "FAIL: $*"; exit 1; }
files() { dpkg-deb -c "$1" | awk '{print $6}'; }
has() { files "$1" | grep -qx "$2" || fail "$1 lacks $2"; }

has "$runtime" ./usr/bin/redlab-server
has "$runtime" ./usr/bin/redlab
has "$runtime" ./usr/share/man/man1/redlab-server.1
has "$runtime" ./usr/share/man/man1/redlab.1
! files "$runtime" | grep -q '^./usr/include' || fail "the runtime package holds headers"
for f in ./usr/include/redlab/client.h ./usr/include/redlab/node.h ./usr/include/redlab/topology.h \
         ./usr/include/redlab/testing.h ./usr/lib/libredlab_client.a ./usr/lib/libredlab_server.a \
         ./usr/lib/cmake/redlab/redlab-config.cmake ./usr/lib/pkgconfig/redlab-server.pc; do
  has "$dev" "$f"
done

# Depends: dpkg-shlibdeps's, from the libraries the binaries link, at this machine's versions.
depends=$(dpkg-deb -f "$runtime" Depends)
echo "redlab Depends: $depends"
for lib in libc6 libstdc++6 libuv1 libssl3 libfmt9 liblua5.1-0 lua-cjson lua-bitop liblzf1 \
           libhiredis0.14; do
  echo "$depends" | grep -q "\(^\|, \)$lib\( \|,\|$\)" || fail "redlab does not depend on $lib"
done
dev_depends=$(dpkg-deb -f "$dev" Depends)
echo "redlab-dev Depends: $dev_depends"
echo "$dev_depends" | grep -q "^redlab (= $version), libuv1-dev (>= " || fail "redlab-dev Depends"
uv=$(dpkg-query -W -f='${Version}' libuv1-dev)
echo "$dev_depends" | grep -qF "libuv1-dev (>= $uv)" || fail "libuv1-dev not at this machine's $uv"

# The binaries in the package run (stripped, from the package's own tree).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$runtime" "$tmp"
"$tmp/usr/bin/redlab-server" --version | grep -q "^Redis server v=7.0.15 "
"$tmp/usr/bin/redlab" --help >/dev/null
ls -l "$runtime" "$dev" | awk '{print $5, $9}'
dpkg-deb -I "$runtime" | grep "Installed-Size"
dpkg-deb -I "$dev" | grep "Installed-Size"
