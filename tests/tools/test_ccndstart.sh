#!/bin/bash
# ccndstart and ccndstop with a private port, socket and settings folder:
# start with ccndrc and ccnd.conf applied, refuse a second start, stop
# (process gone, socket removed), clear messages when nothing runs, and a
# repository started when CCNR_GLOBAL_PREFIX asks for one.
set -u
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/ccndstart-XXXXXX)
export CCN_LOCAL_PORT=$((28000 + $$ % 1000)) # a range of its own (docs/testing.md)
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
unset CCN_LOCAL_TRANSPORT CCND_LOG
SOCK="$T/sock.$CCN_LOCAL_PORT"
RPID=
cleanup() {
    [ -n "$RPID" ] && kill "$RPID" 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; cat "$T/out" "$T/err" 2>/dev/null; exit 1; }
# Alive and not a zombie (an exited ccnd may wait for a parent that never reaps).
alive() { local s; s=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null); [ -n "$s" ] && [ "$s" != Z ]; }
run() { "$B/$1" "${@:2}" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc() { cat "$T/rc"; }

mkdir -p "$CCNX_DIR"
cat >"$CCNX_DIR/ccndrc" <<RC
# settings for ccnd
CCND_DEBUG=0
export CCND_LOG="$T/ccnd.log"
RC
cat >"$CCNX_DIR/ccnd.conf" <<CONF
# applied once ccnd answers
setstrategy ccnx:/started parallel   # a comment
CONF

run ccndstop
[ "$(rc)" = 1 ] || fail "ccndstop without ccnd: exit $(rc)"
grep -q "no ccnd at $SOCK" "$T/err" || fail "ccndstop without ccnd: message"

run ccndstart -v
[ "$(rc)" = 0 ] || fail "ccndstart: exit $(rc)"
[ -S "$SOCK" ] || fail "no socket at $SOCK"
[ -f "$T/ccnd.log" ] || fail "CCND_LOG from ccndrc not honoured"
grep -q 'Strategy at ccnx:/started is parallel' "$T/out" || fail "ccnd.conf not applied"
pid=$(sed -n 's/^started ccnd (pid \([0-9]*\)).*/\1/p' "$T/out")
[ -n "$pid" ] && alive "$pid" || fail "no ccnd process"
run ccndc getstrategy ccnx:/started/x
grep -q 'is parallel' "$T/out" || fail "strategy from ccnd.conf missing"

run ccndstart
[ "$(rc)" = 1 ] || fail "second ccndstart: exit $(rc)"
grep -q "ccnd is already running (pid $pid) on $SOCK; ccndstop stops it" "$T/err" ||
    fail "second ccndstart: message"
alive "$pid" || fail "second ccndstart stopped the running ccnd"

run ccndstop -v
[ "$(rc)" = 0 ] || fail "ccndstop: exit $(rc)"
alive "$pid" && fail "ccnd still running"
[ -e "$SOCK" ] && fail "socket left behind"

# A bad ccnd.conf line: ccnd runs, the failure is reported.
echo "add ccnx:/x udp" >"$CCNX_DIR/ccnd.conf"
run ccndstart
[ "$(rc)" = 1 ] || fail "bad ccnd.conf: exit $(rc)"
grep -q "ccnd.conf:1:" "$T/err" || fail "bad ccnd.conf: no line number"
run ccndstop
[ "$(rc)" = 0 ] || fail "ccndstop after bad conf: exit $(rc)"

# Removing the socket file stops ccnd (the reference's way to stop it).
: >"$CCNX_DIR/ccnd.conf"
run ccndstart -v
[ "$(rc)" = 0 ] || fail "ccndstart again: exit $(rc)"
pid=$(sed -n 's/^started ccnd (pid \([0-9]*\)).*/\1/p' "$T/out")
[ -n "$pid" ] || fail "ccndstart -v did not say which ccnd it started"
rm -f "$SOCK"
for _ in $(seq 30); do alive "$pid" || break; sleep 0.1; done
alive "$pid" && fail "ccnd kept running after its socket was removed"
run ccndstart
[ "$(rc)" = 0 ] || fail "ccndstart after the socket was removed: exit $(rc)"
run ccndstop
[ "$(rc)" = 0 ] || fail "ccndstop at the end: exit $(rc)"

# CCNR_GLOBAL_PREFIX in ccndrc: a repository is started too, in
# $CCNX_DIR/repository, its messages appended to the log there.
printf 'CCNR_GLOBAL_PREFIX=ccnx:/test/repo\nCCNR_DEBUG=INFO\n' >>"$CCNX_DIR/ccndrc"
run ccndstart -v
[ "$(rc)" = 0 ] || fail "ccndstart with a repository: exit $(rc)"
RPID=$(sed -n 's/^started ccnr (pid \([0-9]*\)) in .*/\1/p' "$T/out")
[ -n "$RPID" ] || fail "ccndstart -v did not say it started ccnr"
RLOG="$CCNX_DIR/repository/log"
while alive "$RPID" && ! grep -q "serving $CCNX_DIR/repository" "$RLOG" 2>/dev/null; do sleep 0.05; done
grep -q "serving $CCNX_DIR/repository (ccnx:/test/repo)" "$RLOG" ||
    fail "ccnr did not start serving: $(cat "$RLOG" 2>&1)"
kill "$RPID"
for _ in $(seq 50); do alive "$RPID" || break; sleep 0.1; done
alive "$RPID" && fail "ccnr did not stop on SIGTERM"
RPID=
run ccndstop
[ "$(rc)" = 0 ] || fail "ccndstop after the repository: exit $(rc)"
sed -i '/^CCNR_/d' "$CCNX_DIR/ccndrc"

run ccndstart --help
[ "$(rc)" = 0 ] || fail "ccndstart --help"
run ccndstop bogus
[ "$(rc)" = 2 ] || fail "ccndstop bogus: exit $(rc)"
echo PASS
