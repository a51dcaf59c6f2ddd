# Every dependency is a Debian package (tools/install-deps.sh); nothing is downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(OpenSSL REQUIRED)
pkg_check_modules(LIBUV REQUIRED IMPORTED_TARGET libuv)
