# Thin wrapper over CMake: the README's two commands and a few conveniences.
#   make demo   install dependencies, build, run the demonstration
#   make test   install dependencies, build, run every test (also under ASan+UBSan)

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
PACKAGE_BUILD ?= build-package
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 15
CMAKE_FLAGS ?=

# Debian 12 packages the build and the tests need.
DEBIAN_PACKAGES = build-essential cmake ninja-build pkg-config libssl-dev openssl \
                  libexpat1-dev libcmocka-dev clang libclang-rt-14-dev clang-format clang-tidy \
                  liblmdb-dev wireshark-dev tshark iproute2 \
                  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools \
                  gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
                  libncurses-dev tmux groff-base \
                  libvlccore-dev libvlc-dev vlc-bin vlc-plugin-base lintian adduser

# With a CCNx 0.8.2 reference build at hand (CCNX_REF, default
# ../shared/ccnx-0.8.2), the interop tests also run its Java programs.
CCNX_REF ?= $(abspath ../shared/ccnx-0.8.2)
REF_PACKAGES = $(if $(wildcard $(CCNX_REF)/lib/ccn.jar),default-jre-headless)

GENERATOR = $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all deps build test test-release tidy test-asan fuzz-run format format-check demo install clean \
        package test-package \
        stress-test

all: build

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES) $(REF_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi; \
	  $$SUDO apt-get update -q && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

$(BUILD)/build.ninja $(BUILD)/Makefile:
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

test: deps format-check test-release tidy test-asan fuzz-run test-package

test-release:
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCCNX_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# Debian packages (cmake/Package.cmake), from a build of their own installed
# under /usr: $(PACKAGE_BUILD)/packages/*.deb.
package: deps
	cmake -S . -B $(PACKAGE_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
	  -DCCNX_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build $(PACKAGE_BUILD) -j $(JOBS)
	cd $(PACKAGE_BUILD) && cpack
	@ls -1 $(PACKAGE_BUILD)/packages/*.deb

# The packages' tests: unpacked into a scratch root, then (as root, on a
# machine that may be changed) installed with apt-get, run and removed.
test-package: package
	bash tests/package/test_package_unpacked.sh $(PACKAGE_BUILD)/packages
	bash tests/package/test_package_install.sh $(PACKAGE_BUILD)/packages

# clang-tidy's checks (.clang-tidy: function size, bugprone and cert) on
# every product source, with the release build's compile commands.
TIDY_FILES = $(CURDIR)/(core|ccnd|apps|plugins/[a-z]+/src)/
tidy:
	cmake -S . -B $(BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCCNX_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	run-clang-tidy -quiet -p $(BUILD) -j $(JOBS) '$(TIDY_FILES)' >$(BUILD)/tidy.log 2>&1 || \
	  { grep -E 'warning:|error:' $(BUILD)/tidy.log | sort -u; echo "tidy: failed (run 'make tidy')"; exit 1; }
	@echo "tidy: ok"

# The whole suite again with AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan:
	cmake -S . -B $(ASAN_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DCCNX_SANITIZE=ON -DCCNX_WERROR=ON $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

# A short coverage-guided run of every fuzz target (clang's libFuzzer), seeded
# with the checked-in corpus and the reference vectors; skipped without clang.
fuzz-run:
	@if ! command -v clang >/dev/null 2>&1; then echo "clang not found: libFuzzer run skipped"; exit 0; fi; \
	CC=clang cmake -S . -B $(FUZZ_BUILD) $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCCNX_LIBFUZZER=ON -DCCNX_TESTS=ON >/dev/null && \
	cmake --build $(FUZZ_BUILD) -j $(JOBS) && \
	tests/fuzz/run-libfuzzer.sh $(FUZZ_BUILD)/fuzz $(FUZZ_SECONDS)

# The suite five times in a row beside busy loops on every core, as a
# check for races (tests/stress.sh; STRESS_TARGET=test-asan for the ASan suite).
STRESS_TARGET ?= test-release
STRESS_RUNS   ?= 5
stress-test: deps
	tests/stress.sh -n $(STRESS_RUNS) $(STRESS_TARGET)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

format-check:
	@bad=$$(for f in $$(git ls-files '*.c' '*.h'); do \
	  clang-format --dry-run --Werror "$$f" >/dev/null 2>&1 || echo "$$f"; done); \
	if [ -n "$$bad" ]; then echo "Not formatted (run 'make format'):"; echo "$$bad"; exit 1; fi; \
	echo "format-check: ok"

demo: build
	apps/demo/ccnx-demo.sh $(BUILD)/bin

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
