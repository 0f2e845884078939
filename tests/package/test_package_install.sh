#!/bin/bash
# The packages installed on this machine with apt-get, as a user installs
# them on a second host: the ccnx user is made, the units pass
# systemd-analyze verify where the programs now are, ccnd.service and
# ccnr.service start (through systemctl where systemd runs; elsewhere their
# commands are run as systemd would, as the ccnx user, by
# tests/tools/service_lib.sh), ccnpoke and ccnpeek talk through the
# service's ccnd as another user, and apt-get purge leaves nothing behind.
# It changes the machine: it runs only as root, where none of these
# packages is installed already (CI's disposable machine), and says SKIP
# otherwise.
set -u
DIR=${1:?usage: test_package_install.sh PACKAGES_DIR}
DIR=$(cd "$DIR" && pwd)
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PKGS="ccnx libccnx0 libccnx-dev gstreamer1.0-ccnx wireshark-plugin-ccnx vlc-plugin-ccnx"
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "SKIP: installing the packages needs root and apt-get"
    exit 0
fi
for p in $PKGS; do
    if dpkg -s "$p" >/dev/null 2>&1; then
        echo "SKIP: $p is installed already on this machine; this test installs and purges its own"
        exit 0
    fi
done
[ -e /etc/ccnx ] && { echo "SKIP: /etc/ccnx exists already; this test writes and removes its own"; exit 0; }
T=$(mktemp -d /tmp/package-install-XXXXXX)
chmod 0755 "$T"
PORT=$((16875 + $$ % 25)) # a range of its own (docs/testing.md)
TESTS_BIN=$T/bin
SYSTEMD=0
[ -d /run/systemd/system ] && SYSTEMD=1
UNIT_PID='' UNIT_LISTENER='' CCND_PID='' CCND_LISTENER=''
cleanup() {
    if [ "$SYSTEMD" = 1 ]; then
        systemctl stop ccnr.service ccnd.service >/dev/null 2>&1
    fi
    for p in $UNIT_PID $CCND_PID $UNIT_LISTENER $CCND_LISTENER; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $PKGS >/dev/null 2>&1
    rm -rf /etc/ccnx "$T"
}
trap cleanup EXIT
fail() {
    echo "FAIL: $*"
    for f in "$T"/*.log "$T"/notify.*.out; do [ -s "$f" ] && { echo "== $f"; tail -n 8 "$f"; }; done
    exit 1
}
ok() { echo "ok: $*"; }
. "$SRC/tests/tools/service_lib.sh"

debs=()
for p in $PKGS; do debs+=("$(ls "$DIR"/"$p"_*.deb | head -n 1)"); done
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${debs[@]}" >"$T/apt.log" 2>&1 ||
    fail "apt-get install: $(tail -n 5 "$T/apt.log")"
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 || fail "$p is not installed"; done
getent passwd ccnx >/dev/null || fail "the package did not make the ccnx user"
ok "apt-get install of the six packages; the ccnx user exists"

if command -v systemd-analyze >/dev/null; then
    out=$(systemd-analyze verify --man=no ccnd.service ccnr.service 2>&1) && [ -z "$out" ] ||
        fail "systemd-analyze verify: $out"
    ok "systemd-analyze verify ccnd.service ccnr.service"
fi
[ "$(command -v ccnd)" = /usr/bin/ccnd ] || fail "ccnd is not /usr/bin/ccnd: $(command -v ccnd)"

# the host's settings, as an administrator writes them: a port of the
# test's own, a route from ccnd.conf, a repository prefix
mkdir -p /etc/ccnx
echo "CCN_LOCAL_PORT=$PORT" >/etc/ccnx/ccndrc
echo "add ccnx:/installed/route udp 127.0.0.1 9" >/etc/ccnx/ccnd.conf
echo "CCNR_GLOBAL_PREFIX=ccnx:/installed/repo" >/etc/ccnx/ccnrc
echo "CCN_LOCAL_PORT=$PORT" >>/etc/ccnx/ccnrc
if [ "$SYSTEMD" = 1 ]; then
    systemctl start ccnd.service ccnr.service || fail "systemctl start: $(journalctl -u ccnd -u ccnr -n 10)"
    ok "systemctl start ccnd.service ccnr.service"
else
    echo "note: systemd is not running here; the units' commands are run as systemd would"
    cc -O1 -o "$T/notify_listen" "$SRC/tests/util/notify_listen.c" 2>"$T/cc.log" ||
        fail "building notify_listen: $(cat "$T/cc.log")"
    mkdir -p "$TESTS_BIN" && mv "$T/notify_listen" "$TESTS_BIN/"
    unit_start /lib/systemd/system/ccnd.service /var/lib
    CCND_PID=$UNIT_PID CCND_LISTENER=$UNIT_LISTENER
    [ "$(stat -c %U "/proc/$CCND_PID")" = ccnx ] || fail "ccnd runs as $(stat -c %U "/proc/$CCND_PID"), not ccnx"
    unit_start /lib/systemd/system/ccnr.service /var/lib
    ok "ccnd.service and ccnr.service started (READY=1), as the ccnx user"
fi

# a user of the host: ccnpoke and ccnpeek through the service's ccnd
U=$T/user
mkdir -p "$U" && chown nobody "$U"
as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$U" CCNX_DIR="$U/.ccnx" CCN_LOCAL_PORT=$PORT "$@"; }
as_user ccndstatus >"$T/status.log" 2>&1 || fail "ccndstatus"
grep -q "ccnx:/installed/route" "$T/status.log" || fail "/etc/ccnx/ccnd.conf was not applied"
echo "through the installed service" >"$T/in"
chmod 0644 "$T/in"
as_user timeout 20 ccnpoke -x 5 ccnx:/installed/hello <"$T/in" >"$T/poke.log" 2>&1 &
POKE=$!
as_user timeout 20 ccnpeek -c -w 10 ccnx:/installed/hello >"$T/out" 2>"$T/peek.log" || fail "ccnpeek"
wait "$POKE" 2>/dev/null
cmp -s "$T/in" "$T/out" || fail "ccnpeek read: $(cat "$T/out")"
head -c 100000 /dev/urandom >"$T/file" && chmod 0644 "$T/file"
as_user timeout 60 ccnputfile ccnx:/installed/repo/file "$T/file" >"$T/put.log" 2>&1 || fail "ccnputfile into the service's ccnr"
as_user timeout 60 ccncat ccnx:/installed/repo/file >"$T/back" 2>"$T/cat.log" || fail "ccncat"
cmp -s "$T/file" "$T/back" || fail "the repository's file differs"
ok "as the user nobody: ccnpoke/ccnpeek through the service's ccnd, ccnputfile into its ccnr and back"

if [ "$SYSTEMD" = 1 ]; then
    systemctl stop ccnr.service ccnd.service || fail "systemctl stop"
else
    unit_stop
    UNIT_FILE=/lib/systemd/system/ccnd.service UNIT_PID=$CCND_PID UNIT_LISTENER=$CCND_LISTENER
    unit_stop
    CCND_PID='' UNIT_PID=''
fi
ok "the services stopped"

DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $PKGS >"$T/purge.log" 2>&1 || fail "apt-get purge: $(tail -n 5 "$T/purge.log")"
for p in $PKGS; do dpkg -s "$p" >/dev/null 2>&1 && fail "$p is still installed"; done
for f in /usr/bin/ccnd /lib/systemd/system/ccnd.service /usr/lib/x86_64-linux-gnu/libccnx.so.0 \
    /var/lib/ccnx /var/lib/ccnr; do
    [ -e "$f" ] && fail "$f is left after purge"
done
getent passwd ccnx >/dev/null && fail "the ccnx user is left after purge"
ok "apt-get purge: no package, file, state folder or user left"
echo "all installed-package checks passed"
