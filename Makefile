# The two commands a newcomer needs: `make run` (a redlab-server on port 6379) and
# `make test` (install dependencies, build, run every test). Both install what they need.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
PORT ?= 6379
# `make fuzz`: seconds per fuzz target (make test runs each for 30).
FUZZ_SECONDS ?= 600

.PHONY: all deps configure build test run bench lab deb deb-check fuzz clean

all: build

deps:
	./tools/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

build: configure
	cmake --build $(BUILD_DIR) -j$(JOBS)

# Every test, then the sanitizer runs (tools/sanitizers.sh: the server's tests under ASan+UBSan
# and a bounded run of each fuzz target when clang is there, the client's under TSan).
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j$(JOBS)
	JOBS=$(JOBS) ./tools/sanitizers.sh

run: build
	$(BUILD_DIR)/bin/redlab-server --port $(PORT)

bench: build
	$(BUILD_DIR)/bin/redlab-bench

# The failover lab's whole catalogue on embedded nodes: the verdict table (exit 1 when a verdict
# is not the documented one).
lab: configure
	cmake --build $(BUILD_DIR) -j$(JOBS) --target redlab
	$(BUILD_DIR)/bin/redlab lab run

# Debian packages in $(BUILD_DIR)/deb/: redlab (the binaries, man pages) and redlab-dev (headers,
# libraries, the CMake package); `apt install ./build/deb/redlab_*.deb`.
deb: build
	cd $(BUILD_DIR) && cpack -G DEB

# The runtime package installed by apt on a bare Debian (debootstrap into $(BUILD_DIR)/deb-root),
# then used: redlab-server answers, redlab takes a lock. Needs root and Debian's mirror.
deb-check: deb
	./tools/package/deb_install_check.sh $(BUILD_DIR)/deb/redlab_*_$$(dpkg --print-architecture).deb \
	  $(BUILD_DIR)/deb-root

# The libFuzzer targets (tools/fuzz/), FUZZ_SECONDS each; needs clang.
fuzz: deps
	cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
	  -DCMAKE_CXX_COMPILER=clang++ -DREDLAB_FUZZ=ON
	cmake --build build-fuzz -j$(JOBS) --target fuzz_targets
	./tools/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD_DIR)
