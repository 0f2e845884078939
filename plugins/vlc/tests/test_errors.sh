#!/bin/bash
# Errors a user understands, each provoked and its message checked in VLC's
# log and its error dialog: no ccnd (which socket was tried, how to start
# one), a ccnx: MRL without a name, nothing under the name, a segment whose
# signature does not verify (which one), a producer that goes silent
# mid-stream (an error after ccnx-timeout, not a hang); and VLC closing the
# stream while it waits on a silent producer stops it at once.
set -u
VLC_TEST_TAG=vlc-errors
VLC_TEST_PORT_BASE=16650
. "$(dirname "$0")/lib.sh" || exit 1

# expect_error TAG TEXT MRL [OPTION...]: VLC cannot play MRL, and both its
# log and its error dialog say TEXT
expect_error() {
    local tag=$1 text=$2
    shift 2
    check -t 60 "$@" >"$T/$tag.out" 2>"$T/$tag.log" && fail "$tag: it played: $(cat "$T/$tag.out")"
    grep "vlc ccnx error" "$T/$tag.log" | grep -qF -- "$text" ||
        fail "$tag: no '$text' in VLC's log: $(cat "$T/$tag.log")"
    grep "vlc dialog: CCNx" "$T/$tag.log" | grep -qF -- "$text" ||
        fail "$tag: no '$text' in an error dialog: $(cat "$T/$tag.log")"
}

# (a) no ccnd: the socket that was tried and how to start ccnd
expect_error noccnd "no ccnd at $CCN_LOCAL_SOCKNAME" ccnx:///vt/x
grep -q "ccndstart" "$T/noccnd.log" || fail "noccnd: the message does not say how to start ccnd"
echo "ok: no ccnd"

start_ccnd
# (b) no name
expect_error noname 'is not a ccnx: URI with at least one component' ccnx:///
echo "ok: no name"

# (c) nothing under the name
expect_error nothing "nothing under ccnx:/vt/nothing" ccnx:///vt/nothing :ccnx-timeout=1
echo "ok: nothing under the name"

# (d) a segment that does not verify: a stream whose segment 1 was altered,
# served by a repository that stores without checking
head -c 10000 /dev/urandom >"$T/file"
serve put "$B/ccnputfile" -r -x 30 ccnx:/vt/bad "$T/file"
wait_published ccnx:/vt/bad
NAME=$(timeout 10 "$B/ccnls" ccnx:/vt/bad 2>/dev/null | awk 'NR == 1 { print $1 }')
[ -n "$NAME" ] || fail "cannot list the version of ccnx:/vt/bad"
for s in 0 1 2; do # segment n is %00 and then n's bytes
    comp=%00$([ $s -gt 0 ] && printf '%%%02X' $s)
    timeout 10 "$B/ccnpeek" "ccnx:/vt/bad/$NAME/$comp" >"$T/seg$s.ccnb" 2>/dev/null ||
        fail "cannot fetch segment $s"
done
kill "${BG_PIDS[-1]}"
wait "${BG_PIDS[-1]}" 2>/dev/null
OFF=$(($(stat -c %s "$T/seg1.ccnb") - 600)) # inside segment 1's content
cp "$T/seg1.ccnb" "$T/seg1.orig"
printf '\x5a' | dd of="$T/seg1.ccnb" bs=1 seek=$OFF conv=notrunc status=none
cmp -s "$T/seg1.ccnb" "$T/seg1.orig" && fail "the byte was not altered"
cat "$T/seg0.ccnb" "$T/seg1.ccnb" "$T/seg2.ccnb" >"$T/stream.ccnb"
"$B/ccndstop" >/dev/null 2>&1 # ccnd's store still holds the good segments
start_ccnd
export CCNR_DIRECTORY="$T/repo"
mkdir -p "$CCNR_DIRECTORY"
CCNR_VERIFY=0 timeout 60 "$B/ccnr" import "$T/stream.ccnb" >"$T/import.log" 2>&1 ||
    fail "ccnr import: $(cat "$T/import.log")"
CCNR_DEBUG=INFO timeout 120 "$B/ccnr" 2>"$T/ccnr.log" &
BG_PIDS+=($!)
while ! grep -q "ccnr: INFO: serving" "$T/ccnr.log"; do
    kill -0 "${BG_PIDS[-1]}" 2>/dev/null || fail "ccnr did not start: $(cat "$T/ccnr.log")"
    sleep 0.05
done
check -t 60 "ccnx:///vt/bad/$NAME" >"$T/badsig.out" 2>"$T/badsig.log"
# (at open when the early fetch meets it, or while playing)
grep "vlc dialog: CCNx: " "$T/badsig.log" | grep -qF "ccnx:/vt/bad/$NAME/%00%01" ||
    fail "badsig: no dialog naming segment 1: $(cat "$T/badsig.log")"
grep "vlc ccnx error" "$T/badsig.log" | grep -qi "verif" ||
    fail "badsig: the log does not say the signature failed: $(cat "$T/badsig.log")"
echo "ok: a segment that does not verify"

# (e) a producer that goes silent: 100 KB, then nothing (its input stays open)
mkfifo "$T/feed"
serve seq sh -c "\"$B/ccnseqwriter\" ccnx:/vt/silent <\"$T/feed\""
exec 3>"$T/feed"
head -c 100000 /dev/urandom >&3
wait_published ccnx:/vt/silent
start=$SECONDS
check -t 60 ccnx:///vt/silent :ccnx-timeout=2 >"$T/silent.out" 2>"$T/silent.log"
grep "vlc dialog: CCNx: The stream stopped" "$T/silent.log" | grep -q "timeout" ||
    fail "silent: no dialog saying the producer timed out: $(cat "$T/silent.log")"
[ $((SECONDS - start)) -lt 30 ] || fail "silent: the error took $((SECONDS - start)) s"
echo "ok: a producer gone silent ($((SECONDS - start)) s)"

# (f) closing while the module waits on that producer (ccnx-timeout 60 s):
# ccnv_check stops the player after 2 s, and the module lets go at once
start=$SECONDS
check -t 2 ccnx:///vt/silent :ccnx-timeout=60 >"$T/close.out" 2>"$T/close.log" &&
    fail "close: the stream ended: $(cat "$T/close.out")"
[ $((SECONDS - start)) -lt 15 ] || fail "close: stopping took $((SECONDS - start)) s"
exec 3>&-
echo "ok: closing while waiting ($((SECONDS - start)) s)"
echo "PASS"
