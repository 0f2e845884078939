#!/bin/bash
# A program outside the tree builds against the *installed* library: the
# build is installed into a scratch root (DESTDIR), and examples/ is built
# from there twice, through pkg-config (libccnx.pc, examples/Makefile) and
# through the CMake package (find_package(ccnx), examples/CMakeLists.txt).
# Each build's producer and consumer then talk through a private ccnd, and
# each binary loads libccnx from the scratch root, not from the build.
set -u
B=${CCNX_BIN:?}
SRC=${CCNX_SRC:?}
BUILD=$(cd "$B/.." && pwd)
T=$(mktemp -d /tmp/examples-XXXXXX)
export CCN_LOCAL_PORT=$((16750 + $$ % 50)) # a range of its own (docs/testing.md)
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX PKG_CONFIG_PATH CMAKE_PREFIX_PATH
mkdir -p "$CCNX_DIR"
PIDS=()
cleanup() {
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$T"/*.log; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}

DESTDIR="$T/root" cmake --install "$BUILD" >"$T/install.log" 2>&1 || fail "cmake --install"
pc=$(find "$T/root" -name libccnx.pc | head -n 1)
config=$(find "$T/root" -name ccnxConfig.cmake | head -n 1)
[ -n "$pc" ] && [ -n "$config" ] || fail "libccnx.pc or ccnxConfig.cmake not installed"
LIBDIR=$(dirname "$(dirname "$pc")")
PREFIX=$T/root$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
[ -e "$LIBDIR/libccnx.so" ] || fail "no libccnx.so beside libccnx.pc"
echo "ok: installed: $(realpath --relative-to="$T/root" "$pc"), $(realpath --relative-to="$T/root" "$config")"

# A sanitized library needs the sanitizer runtimes first in any program.
PRELOAD=
if ldd "$LIBDIR/libccnx.so" | grep -q libasan; then
    PRELOAD=$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi

# through pkg-config, its paths under the scratch root
cp -r "$SRC/examples" "$T/ex-pc"
PKG_CONFIG_PATH="$LIBDIR/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$T/root" \
    make -C "$T/ex-pc" CFLAGS="-O2 -Wall -Wextra -Werror" >"$T/make.log" 2>&1 || fail "make with pkg-config"
grep -q -- "-I$T/root" "$T/make.log" || fail "pkg-config did not give the installed headers: $(cat "$T/make.log")"
echo "ok: built with pkg-config"

# through the CMake package
cmake -S "$SRC/examples" -B "$T/ex-cmake" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" \
    >"$T/cmake.log" 2>&1 || fail "cmake with find_package(ccnx)"
grep -q "ccnx_DIR:PATH=$T/root" "$T/ex-cmake/CMakeCache.txt" || fail "find_package(ccnx) found another package"
cmake --build "$T/ex-cmake" >>"$T/cmake.log" 2>&1 || fail "cmake --build"
echo "ok: built with find_package(ccnx)"

timeout 30 "$B/ccndstart" >/dev/null 2>"$T/ccndstart.log" || fail "ccndstart"
for dir in ex-pc ex-cmake; do
    for prog in hello_producer hello_consumer; do
        lib=$(LD_LIBRARY_PATH="$LIBDIR" ldd "$T/$dir/$prog" | awk '/libccnx\.so/ { print $3 }')
        [ "$lib" = "$LIBDIR/libccnx.so.0" ] || fail "$dir/$prog loads libccnx from ${lib:-nowhere}"
    done
    run() { LD_LIBRARY_PATH="$LIBDIR" LD_PRELOAD="$PRELOAD" timeout 60 "$T/$dir/$1" "${@:2}"; }
    run hello_producer "ccnx:/example/$dir" "Hello from $dir" >"$T/producer.log" 2>&1 &
    PIDS+=($!)
    out=$(run hello_consumer "ccnx:/example/$dir" 2>"$T/consumer.log") || fail "$dir: the consumer failed"
    [ "$out" = "Hello from $dir" ] || fail "$dir: the consumer printed '$out'"
    wait "${PIDS[-1]}" || fail "$dir: the producer failed"
    echo "ok: $dir: the consumer read the producer's message"
done
echo "PASS"
