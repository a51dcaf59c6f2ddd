#!/bin/sh
# package.consumer: installs the build into a temporary prefix, builds tools/examples/consumer
# against it with find_package(redlab), and runs its tests (one with a fault).
#   consumer_test.sh BUILD_DIR EXAMPLE_DIR WORK_DIR
set -eu
build=$1 example=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" --component dev --strip >"$work/install.log"
# Nothing from the source tree: the installed headers and archives only.
test -f "$prefix/include/redlab/testing.h"
! grep -rn '#include "\(server\|client\)/' "$prefix/include" || exit 1
cmake -S "$example" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_BUILD_TYPE=Release >"$work/configure.log"
cmake --build "$work/build" -j2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/build/consumer_test"
# pkg-config finds the same installation: a program built with its flags alone starts a node and
# talks to it with the client.
cat >"$work/pkg_config_user.cc" <<'PROGRAM'
#include <redlab/client.h>
#include <redlab/node.h>
int main() {
  auto node = redlab::server::Node::Start({.port = 0, .loglevel = "warning"});
  redlab::Client client(redlab::Config::SingleServer("redis://127.0.0.1:" +
                                                     std::to_string(node->port())));
  return client.Execute({"PING"}).str == "PONG" ? 0 : 1;
}
PROGRAM
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs redlab-client redlab-server)
c++ -o "$work/pkg_config_user" "$work/pkg_config_user.cc" $flags
"$work/pkg_config_user"
echo "pkg-config: $flags"
