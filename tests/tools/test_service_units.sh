#!/bin/bash
# The systemd service units (ccnd/systemd, apps/ccnr/ccnr.service.in):
# systemd-analyze verify finds nothing to say about them, and their commands,
# run as systemd runs them (service_lib.sh: environment, state folders,
# readiness, stop), give a ccnd that reads the system's ccndrc and ccnd.conf
# (here under a scratch /etc and /var/lib), is itself the main process,
# says READY=1 once it listens and STOPPING=1 on SIGTERM, and stops within
# the unit's stop time; a ccnr beside it that keeps what it stored across a
# restart; and the user unit reading ~/.ccnx.
set -u
B=${CCNX_BIN:?}
TESTS_BIN=${CCNX_TESTS_BIN:?}
BUILD=$(cd "$B/.." && pwd)
UNITS=$BUILD/systemd
T=$(mktemp -d /tmp/units-XXXXXX)
PORT=$((16800 + $$ % 50)) # a range of its own (docs/testing.md)
unset CCN_LOCAL_TRANSPORT CCNR_GLOBAL_PREFIX CCNX_DIR CCND_KEYSTORE_DIRECTORY CCND_LOG
export CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/sock"
UNIT_PID=
UNIT_LISTENER=
cleanup() {
    [ -n "$UNIT_PID" ] && kill "$UNIT_PID" 2>/dev/null
    [ -n "$UNIT_LISTENER" ] && kill "$UNIT_LISTENER" 2>/dev/null
    pkill -f "$T/" 2>/dev/null
    wait 2>/dev/null
    rm -rf "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$T"/*.log "$T"/notify.*.out; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}
ok() { echo "ok: $*"; }
. "$(dirname "$0")/service_lib.sh"

# the units as a host would have them: /etc and /var/lib under $T
local_unit() {
    sed -e "s|/etc/ccnx|$T/etc|g" -e "s|/var/lib/|$T/var/lib/|g" "$1" >"$T/$2"
}

# --- systemd-analyze verify: no finding on any unit
if command -v systemd-analyze >/dev/null 2>&1; then
    for u in "$UNITS"/build/system/*.service; do
        out=$(systemd-analyze verify --man=no "$u" 2>&1) && [ -z "$out" ] ||
            fail "systemd-analyze verify $(basename "$u"): $out"
    done
    mkdir -m 0700 "$T/xdg"
    out=$(XDG_RUNTIME_DIR=$T/xdg systemd-analyze --user verify --man=no \
        "$UNITS/build/user/ccnd.service" 2>&1) && [ -z "$out" ] ||
        fail "systemd-analyze --user verify ccnd.service: $out"
    ok "systemd-analyze verify: ccnd.service, ccnr.service, the user's ccnd.service"
else
    echo "SKIP case: systemd-analyze verify (systemd is not installed)"
fi
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
for u in system/ccnd.service system/ccnr.service user/ccnd.service; do
    grep -q "^ExecStart=$prefix/bin/" "$UNITS/install/$u" ||
        fail "the installed $u does not run $prefix/bin's programs: $(grep ExecStart "$UNITS/install/$u")"
done

# --- ccnd.service: the system's ccndrc and ccnd.conf
mkdir -p "$T/etc"
printf '# as an administrator writes it\nexport CCN_LOCAL_PORT=%s\nCCN_LOCAL_SOCKNAME="%s"\n' \
    "$PORT" "$T/sock" >"$T/etc/ccndrc"
echo "add ccnx:/units/from-conf udp 127.0.0.1 9" >"$T/etc/ccnd.conf"
unset CCN_LOCAL_PORT CCN_LOCAL_SOCKNAME # the unit must find them in ccndrc
local_unit "$UNITS/build/system/ccnd.service" ccnd.service
unit_start "$T/ccnd.service" "$T/var/lib"
CCND_PID=$UNIT_PID
CCND_LISTENER=$UNIT_LISTENER
[ "$(cat "/proc/$CCND_PID/comm")" = ccnd ] ||
    fail "the main process is $(cat "/proc/$CCND_PID/comm"), not ccnd"
export CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME="$T/sock" CCNX_DIR="$T/user"
"$B/ccndstatus" >"$T/status.txt" 2>&1 || fail "ccndstatus: $(cat "$T/status.txt")"
grep -q "ccnx:/units/from-conf" "$T/status.txt" || fail "ccnd.conf was not applied: $(cat "$T/status.txt")"
[ -e "$T/var/lib/ccnx/.ccnd_keystore_$PORT" ] ||
    fail "ccnd's key is not in its state folder: $(ls -a "$T/var/lib/ccnx")"
ok "ccnd.service: ccnd is the main process, READY=1 once it listens, ccndrc's port, ccnd.conf's route, its key in /var/lib/ccnx"

# --- ccnr.service beside it: stores, stops, starts again with what it had
echo "CCNR_GLOBAL_PREFIX=ccnx:/units/repo" >"$T/etc/ccnrc"
local_unit "$UNITS/build/system/ccnr.service" ccnr.service
sed -i "s|^Environment=|Environment=CCN_LOCAL_PORT=$PORT CCN_LOCAL_SOCKNAME=$T/sock |" "$T/ccnr.service"
unit_start "$T/ccnr.service" "$T/var/lib"
head -c 300000 /dev/urandom >"$T/file"
timeout 60 "$B/ccnputfile" ccnx:/units/repo/file "$T/file" >"$T/put.log" 2>&1 || fail "ccnputfile into the repository"
unit_stop
grep -q "^STOPPING=1" "$UNIT_NOTIFY.out" || fail "ccnr did not say STOPPING=1"
ok "ccnr.service: READY=1, stored a file, stopped on SIGTERM in ${UNIT_STOP_MS} ms (limit $(unit_get "$T/ccnr.service" TimeoutStopSec) s)"
unit_start "$T/ccnr.service" "$T/var/lib"
timeout 60 "$B/ccngetfile" ccnx:/units/repo/file "$T/back" >"$T/get.log" 2>&1 || fail "ccngetfile after the restart"
cmp -s "$T/file" "$T/back" || fail "the file read back differs"
unit_stop
ok "ccnr.service: after a restart the file is served from /var/lib/ccnr"

# --- stopping ccnd
UNIT_FILE=$T/ccnd.service UNIT_PID=$CCND_PID UNIT_LISTENER=$CCND_LISTENER
UNIT_NOTIFY="$T/notify.ccnd.service"
unit_stop
grep -q "^STOPPING=1" "$UNIT_NOTIFY.out" || fail "ccnd did not say STOPPING=1"
ok "ccnd.service: SIGTERM stopped ccnd in ${UNIT_STOP_MS} ms (limit $(unit_get "$T/ccnd.service" TimeoutStopSec) s)"
UNIT_PID=

# --- the user unit: ~/.ccnx, as ccndstart reads it
mkdir -p "$T/home/.ccnx"
printf 'CCN_LOCAL_PORT=%s\nCCN_LOCAL_SOCKNAME=%s\n' "$PORT" "$T/sock" >"$T/home/.ccnx/ccndrc"
echo "add ccnx:/units/from-home udp 127.0.0.1 9" >"$T/home/.ccnx/ccnd.conf"
cp "$UNITS/build/user/ccnd.service" "$T/user-ccnd.service"
sed -i "s|^Type=notify|Type=notify\nEnvironment=HOME=$T/home|" "$T/user-ccnd.service"
unset CCNX_DIR
unit_start "$T/user-ccnd.service" "$T/var/lib"
"$B/ccndstatus" >"$T/status.txt" 2>&1 || fail "ccndstatus: $(cat "$T/status.txt")"
grep -q "ccnx:/units/from-home" "$T/status.txt" || fail "~/.ccnx/ccnd.conf was not applied: $(cat "$T/status.txt")"
unit_stop
UNIT_PID=
ok "the user's ccnd.service: ~/.ccnx/ccndrc and ccnd.conf, stopped in ${UNIT_STOP_MS} ms"
echo "all service unit checks passed"
