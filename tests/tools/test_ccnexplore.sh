#!/bin/bash
# ccnexplore over one ccnd with two repositories and a producer: --list
# prints the expected tree (two repositories' names merged, versions
# collapsed with their size, the producer's and the cache's names; a
# header under a version does not pass for its last segment); then
# the screen through tmux: expand, details with a verified signature,
# filter, preview, fetch (compared), put (found after the refresh), copy,
# keys that still act while a prefix never answers, and a resize.
set -u
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
CCNR_TEST_TAG=ccnexplore
CCNR_TEST_PORT_BASE=16150
CCNR_TEST_PORT_SPAN=50
. "$(dirname "$0")/ccnr_lib.sh" || exit 1
export LANG=C.UTF-8 TZ=UTC
OTHER_PIDS=()
extra_cleanup() {
    tmux -S "$T/tmux.sock" kill-server 2>/dev/null
    for p in "${OTHER_PIDS[@]}"; do kill "$p" 2>/dev/null; done
}

mkdir -p "$T/r1" "$T/r2"
start_ccnd
# Repository 1 holds a.txt and two versions of docs/big.bin; it is
# stopped while repository 2 stores b.txt, then both serve.
CCNR_DIRECTORY="$T/r1" start_ccnr r1.log
printf 'hello text\n' >"$T/a.txt"
printf 'b text\n' >"$T/b.txt"
head -c 100000 /dev/urandom >"$T/big.bin"
put() { timeout 60 "$B/ccnputfile" "$1" "$2" >/dev/null 2>>"$T/put.err" || fail "ccnputfile $1"; }
put ccnx:/test/a.txt "$T/a.txt"
put ccnx:/test/docs/big.bin "$T/big.bin"
put ccnx:/test/docs/big.bin "$T/big.bin"
stop_ccnr
CCNR_DIRECTORY="$T/r2" start_ccnr r2.log
OTHER_PIDS+=("$CCNR_PID")
put ccnx:/test/b.txt "$T/b.txt"
CCNR_DIRECTORY="$T/r1" start_ccnr r1.log
OTHER_PIDS+=("$CCNR_PID")
# The producer answers under ccnx:/test (so walks of ccnx:/test reach it).
printf 'live\n' | timeout 120 "$B/ccnpoke" -p 1 ccnx:/test/live/now 2>"$T/poke.err" &
OTHER_PIDS+=($!)
for _ in $(seq 300); do
    "$B/ccndstatus" 2>/dev/null | grep -q "ccnx:/test " && break
    sleep 0.1
done

# ---- --list ----
timeout 120 "$B/ccnexplore" --list --depth 2 --wait 2000 ccnx:/test >"$T/list.out" 2>"$T/list.err" ||
    fail "ccnexplore --list: $(cat "$T/list.err")"
sed -E 's/newest [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}/newest DATE/' "$T/list.out" >"$T/list.txt"
cat >"$T/expected.txt" <<'END'
ccnx:/test
  docs  [repo cache]
    big.bin  2 versions, newest DATE, 25 segments, 100.0 kB  [repo cache]
  live  [producer]
    now  [cache]
  a.txt  1 version, newest DATE, 11 B  [repo cache]
  b.txt  1 version, newest DATE, 7 B  [repo cache]
END
diff -u "$T/expected.txt" "$T/list.txt" || fail "--list printed something else"
[ -s "$T/list.err" ] && fail "--list complained: $(cat "$T/list.err")"
# An object deeper under a version (the reference's Java files keep a
# header under <version>/%C1.META.M) is not the content's last segment: the
# size stays the file's.
timeout 30 "$B/ccncat" -v ccnx:/test/docs/big.bin >/dev/null 2>"$T/cat.err" || fail "ccncat big.bin"
V=$(sed -n 's|^ccncat: [^ ]* (\(ccnx:/test/docs/big.bin/[^)]*\)).*|\1|p' "$T/cat.err")
[ -n "$V" ] || fail "no version in: $(cat "$T/cat.err")"
printf '%066d' 0 | timeout 10 "$B/ccnpoke" -f -l "$V/%C1.META.M/.header/%FD%01/%00" ||
    fail "ccnpoke of a header"
timeout 120 "$B/ccnexplore" --list --depth 2 --wait 2000 ccnx:/test >"$T/list2.out" 2>"$T/list2.err" ||
    fail "ccnexplore --list: $(cat "$T/list2.err")"
grep -q "^    big.bin  2 versions, newest .*, 25 segments, 100.0 kB  \[repo cache\]$" "$T/list2.out" ||
    fail "a header under the version changed the size: $(grep big.bin "$T/list2.out")"
"$B/ccnexplore" --list 'ccnx:/%zz' >/dev/null 2>"$T/bad.err" && fail "a bad URI was accepted"
grep -q "ccnx:/%zz" "$T/bad.err" || fail "no clear message for a bad URI: $(cat "$T/bad.err")"

# Bad input: a listing that is not a Collection is reported, not fatal; an
# object whose key cannot be found is listed (and fails in the details).
K=$(printf '%%C1.M.K%%00'; for _ in $(seq 32); do printf '%%AB'; done)
echo garbage | timeout 10 "$B/ccnpoke" -f -l "ccnx:/bad/%C1.E.be/$K/%FD%06%B1%12%1E%0C%EA/%00" ||
    fail "ccnpoke of a bad listing"
echo signed | timeout 10 "$B/ccnpoke" -f -k ccnx:/nokey ccnx:/bad/unverified || fail "ccnpoke -k"
timeout 60 "$B/ccnexplore" --list ccnx:/bad >"$T/bad.out" 2>"$T/bad.err" ||
    fail "ccnexplore --list of a bad listing: $(cat "$T/bad.err")"
grep -q "a repository's listing is malformed (0 names read) under ccnx:/bad" "$T/bad.err" ||
    fail "no message for a malformed listing: $(cat "$T/bad.err")"
grep -q "^  unverified  \[cache\]$" "$T/bad.out" || fail "the unverified object is not listed"

# ---- the screen ----
S="$T/tmux.sock"
mkdir -p "$T/dl"
screen() { tmux -S "$S" capture-pane -p -t "$1"; }
keys() {
    local w=$1
    shift
    tmux -S "$S" send-keys -t "$w" "$@"
}
# wait_screen WINDOW TEXT: until the screen shows TEXT (at most 30 s).
wait_screen() {
    for _ in $(seq 300); do
        screen "$1" | grep -qF -- "$2" && return 0
        sleep 0.1
    done
    fail "the screen never showed '$2':
$(screen "$1")"
}
tmux -S "$S" new-session -d -x 120 -y 30 -n main \
    "cd '$T/dl' && timeout --foreground 300 '$B/ccnexplore' --wait 1500 ccnx:/test; echo EXITED \$?; sleep 60"
wait_screen main "a.txt"
wait_screen main "[repo cache]"
screen main | tail -n 1 | grep -q "p preview" || fail "no key bar"
screen main | head -n 1 | grep -q "ccnd .* connected" || fail "status line: $(screen main | head -n 1)"

# Expand docs, select big.bin: its details, signature checked.
keys main Down Right
wait_screen main "big.bin"
keys main Down
wait_screen main "URI: ccnx:/test/docs/big.bin"
wait_screen main "Signature: verified"
wait_screen main "2 versions, newest"

# Filter to a.txt, preview it, fetch it.
keys main / a.txt Enter
wait_screen main 'filter "a.txt"'
screen main | grep -q "b.txt" && fail "the filter left b.txt"
keys main Down
wait_screen main "URI: ccnx:/test/a.txt"
keys main p
wait_screen main "hello text"
keys main Escape f
wait_screen main "Fetch to file: a.txt"
keys main Enter
wait_screen main "fetched 11 B to a.txt"
cmp "$T/a.txt" "$T/dl/a.txt" || fail "the fetched file differs"
# Play hands the URI to gst-launch-1.0 playbin. Text is no media: the
# player ends with an error, which the message line reports (waited for,
# so that it cannot overwrite a later message).
if command -v gst-launch-1.0 >/dev/null; then
    keys main g
    wait_screen main "the player ended with status"
fi
keys main Escape

# Put a file below the prefix, find it after the refresh.
printf 'put by the explorer\n' >"$T/put.txt"
keys main Home u "$T/put.txt" Enter
wait_screen main "stored; refreshing"
wait_screen main "put.txt"
# the repository that stored it lists it (not only the walk of the network)
for _ in $(seq 300); do
    screen main | grep -q "put.txt .*\[repo" && break
    sleep 0.1
done
screen main | grep -q "put.txt .*\[repo" || fail "put.txt is not listed by a repository:
$(screen main)"

# A prefix that never answers (routed to a UDP port where nobody listens):
# the keys still act while its requests are in flight.
"$B/ccndc" add ccnx:/slow udp 127.0.0.1 9 >/dev/null 2>&1 || fail "ccndc add"
tmux -S "$S" new-window -n slow \
    "timeout --foreground 300 '$B/ccnexplore' --wait 20000 ccnx:/slow; echo EXITED \$?; sleep 60"
wait_screen slow "in flight"
screen slow | head -n 1 | grep -q " 0 in flight" && fail "nothing in flight for the slow prefix"
keys slow "?"
wait_screen slow "Any key closes this help"
keys slow x
for _ in $(seq 300); do
    screen slow | grep -q "Any key closes" || break
    sleep 0.1
done
screen slow | grep -q "Any key closes" && fail "the help did not close"
# A resize: narrow screens put the details below the tree.
tmux -S "$S" resize-window -t slow -x 70 -y 20
wait_screen slow "──────"
screen slow | tail -n 1 | grep -q "move" || fail "no key bar after the resize"
keys slow q
wait_screen slow "EXITED 0"

# An object whose signature cannot be checked: the details say why.
tmux -S "$S" new-window -n bad \
    "timeout --foreground 300 '$B/ccnexplore' ccnx:/bad; echo EXITED \$?; sleep 60"
wait_screen bad "unverified"
keys bad Down
wait_screen bad "URI: ccnx:/bad/unverified"
wait_screen bad "Signature: FAILED"
wait_screen bad "malformed"
keys bad q
wait_screen bad "EXITED 0"

# ccnd goes away: the status line says so, and the keys still act.
"$B/ccndstop" >/dev/null 2>&1
wait_screen main "NOT CONNECTED (retrying)"
# Copy the URI; it is printed when the explorer ends.
keys main c q
wait_screen main "EXITED 0"
screen main | grep -q "^ccnx:/test" || fail "the copied URI was not printed"
echo "ok"
