# `make deb` (cpack -G DEB in the build directory): redlab_<version>_<arch>.deb with the
# binaries and their man pages, whose Depends dpkg-shlibdeps derives from the libraries they
# link (the versions of this machine's packages); and redlab-dev_<version>_<arch>.deb with the
# headers, archives, CMake package and pkg-config files, depending on the -dev packages of those
# libraries at this machine's versions or later.
set(CPACK_PACKAGE_NAME redlab)
set(CPACK_PACKAGE_VENDOR redlab)
set(CPACK_PACKAGE_CONTACT "redlab maintainers <redlab@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Redis 7.0-compatible test server with fault injection, and a Redisson-compatible lock client")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/deb)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/redlab/redlab")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME redlab)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
  "Redis 7.0-compatible test server with fault injection
 redlab-server is an in-memory, Redis 7.0-compatible server (RESP2/RESP3, Lua scripting,
 replication, Sentinel) with fault injection: replication lag, held or cut links, crashes,
 clock jumps, stalls, slow or lost replies. redlab runs commands under Redisson-compatible
 distributed locks, a fault proxy for real Redis, a script benchmark and a failover lab.")

# The -dev packages of what the archives link, at this machine's versions or later.
set(dev_depends)
foreach(pkg libuv1-dev libhiredis-dev liblua5.1-0-dev lua-cjson-dev lua-bitop-dev libssl-dev
    libfmt-dev liblzf-dev pkg-config)
  execute_process(COMMAND dpkg-query -W -f=\${Version} ${pkg}
    OUTPUT_VARIABLE version RESULT_VARIABLE rc ERROR_QUIET)
  if(rc EQUAL 0 AND version)
    list(APPEND dev_depends "${pkg} (>= ${version})")
  else()
    list(APPEND dev_depends "${pkg}")
  endif()
endforeach()
list(PREPEND dev_depends "redlab (= ${PROJECT_VERSION})")
list(JOIN dev_depends ", " CPACK_DEBIAN_DEV_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME redlab-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION
  "redlab's lock client and in-process server for C++ (development files)
 Static libraries, headers (redlab/client.h, node.h, topology.h and testing.h, a GoogleTest
 fixture giving each test fresh nodes), a CMake package (find_package(redlab)) and
 pkg-config files.")
include(CPack)
