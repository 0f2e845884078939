#!/bin/bash
# ccnputfile and ccngetfile through a private ccnd: a 100 MB random file with
# 4 KB and 8 KB segments arrives byte-identical, again from ccnd's cache once
# the publisher is gone; a failed, interrupted or unwritable (file size
# limit) fetch leaves neither FILE nor a temporary file; ccncat prints a
# small file, and with -c chunks named as ccnsendchunks names them; an
# empty file arrives empty; the newest of two versions is fetched; a
# reader started before its publisher gets the file while the publisher
# still waits for a repository, and so does a reader of a 100 MB file,
# signed in full Merkle batches.
set -u
B=${CCNX_BIN:?}
T=$(mktemp -d /tmp/filetransfer-XXXXXX)
export CCN_LOCAL_PORT=$((13000 + $$ % 200))
export CCN_LOCAL_SOCKNAME="$T/sock"
export CCNX_DIR="$T/user"
export CCND_KEYSTORE_DIRECTORY="$T"
export CCND_LOG="$T/ccnd.log"
unset CCN_LOCAL_TRANSPORT
PUBLISHERS=()
cleanup() {
    for p in "${PUBLISHERS[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    "$B/ccndstop" >/dev/null 2>&1
    rm -rf "$T"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -n 5 "$T"/*.err 2>/dev/null; exit 1; }

# serve TAG URI FILE [options]: ccnputfile serving FILE in the background
# (at most 120 s); returns once it has registered, sets PUB_PID and PUB_URI
# (the versioned name).
serve() {
    local tag=$1 uri=$2 file=$3
    shift 3
    timeout 150 "$B/ccnputfile" -r -x 120 -v "$@" "$uri" "$file" 2>"$T/$tag.put.err" &
    PUB_PID=$!
    PUBLISHERS+=("$PUB_PID")
    for _ in $(seq 200); do
        PUB_URI=$(sed -n 's/^ccnputfile: publishing .* as //p' "$T/$tag.put.err")
        [ -n "$PUB_URI" ] && return 0
        kill -0 "$PUB_PID" 2>/dev/null || break
        sleep 0.1
    done
    fail "$tag: ccnputfile did not start serving"
}
stop_publisher() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

# getfile TAG URI FILE [options]: ccngetfile bounded to 120 s; prints its
# goodput line and fails the test unless it exits 0.
getfile() {
    local tag=$1 uri=$2 file=$3
    shift 3
    timeout 120 "$B/ccngetfile" -v "$@" "$uri" "$file" 2>"$T/$tag.get.err"
    local rc=$?
    [ "$rc" = 0 ] || fail "$tag: ccngetfile exit $rc"
    grep -m1 'MB/s' "$T/$tag.get.err" | sed "s/^/  $tag: /"
}

mkdir -p "$CCNX_DIR"
timeout 30 "$B/ccndstart" >/dev/null 2>"$T/ccndstart.err" || fail "ccndstart"
head -c $((100 << 20)) /dev/urandom >"$T/big" || fail "cannot make the 100 MB file"

# 4 KB segments (the default), then from the cache with the publisher gone.
serve b4 ccnx:/ft/big4 "$T/big" -b 4096
getfile b4 ccnx:/ft/big4 "$T/got4"
cmp -s "$T/big" "$T/got4" || fail "4 KB segments: the fetched file differs"
grep -q "$PUB_URI: 25600 segments" "$T/b4.get.err" || fail "4 KB: not 25600 segments of $PUB_URI"
stop_publisher "$PUB_PID"
getfile cache ccnx:/ft/big4 "$T/cached"
cmp -s "$T/big" "$T/cached" || fail "refetch from the cache differs"
rm -f "$T/got4" "$T/cached"

serve b8 ccnx:/ft/big8 "$T/big" -b 8192
getfile b8 ccnx:/ft/big8 "$T/got8"
cmp -s "$T/big" "$T/got8" || fail "8 KB segments: the fetched file differs"
grep -q "$PUB_URI: 12800 segments" "$T/b8.get.err" || fail "8 KB: not 12800 segments of $PUB_URI"
stop_publisher "$PUB_PID"
rm -f "$T/got8"

# Nothing serves the name: exit 1, a message naming it, no file left.
mkdir "$T/dest"
timeout 30 "$B/ccngetfile" -t 1000 ccnx:/ft/nobody "$T/dest/out" 2>"$T/none.err"
rc=$?
[ "$rc" = 1 ] || fail "fetch of an unserved name: exit $rc"
grep -q 'no content found under ccnx:/ft/nobody' "$T/none.err" || fail "unserved name: message"
[ -z "$(ls -A "$T/dest")" ] || fail "unserved name: left $(ls -A "$T/dest")"

# The publisher disappears in the middle of a transfer (one Interest in
# flight keeps it slow enough to catch): exit 1, nothing left behind.
serve mid ccnx:/ft/mid "$T/big"
timeout 60 "$B/ccngetfile" -p 1 -t 1000 ccnx:/ft/mid "$T/dest/out" 2>"$T/mid.get.err" &
getter=$!
for _ in $(seq 1000); do
    part=$(find "$T/dest" -name '.out.*' -size +1M)
    [ -n "$part" ] && break
    sleep 0.01
done
[ -n "$part" ] || fail "mid-transfer: no growing temporary file"
stop_publisher "$PUB_PID"
wait "$getter"
rc=$?
[ "$rc" = 1 ] || fail "fetch cut off by the publisher: exit $rc"
grep -q 'timeout' "$T/mid.get.err" || fail "cut-off fetch: no timeout message"
[ -z "$(ls -A "$T/dest")" ] || fail "cut-off fetch: left $(ls -A "$T/dest")"

# Interrupted (SIGTERM) while fetching from the cache: nothing left either.
timeout 60 "$B/ccngetfile" -p 1 ccnx:/ft/big4 "$T/dest/out" 2>"$T/term.get.err" &
getter=$!
for _ in $(seq 1000); do
    part=$(find "$T/dest" -name '.out.*' -size +1M)
    [ -n "$part" ] && break
    sleep 0.01
done
[ -n "$part" ] || fail "interrupted fetch: no growing temporary file"
kill -TERM "$getter"
wait "$getter"
rc=$?
[ "$rc" -gt 128 ] || fail "interrupted fetch: exit $rc, not killed by the signal"
[ -z "$(ls -A "$T/dest")" ] || fail "interrupted fetch: left $(ls -A "$T/dest")"

# ccncat of a small file.
head -c 20000 /dev/urandom >"$T/small"
serve small ccnx:/ft/small "$T/small"
timeout 30 "$B/ccncat" ccnx:/ft/small >"$T/small.out" 2>"$T/small.cat.err" || fail "ccncat"
cmp -s "$T/small" "$T/small.out" || fail "ccncat output differs from the file"
stop_publisher "$PUB_PID"

# ccncat -c and ccngetfile -c: chunks named in decimal text with no version,
# the final one's text in FinalBlockID, as the reference's ccnsendchunks
# names them (three objects put straight into ccnd's store).
printf 'chunk zero ' | timeout 10 "$B/ccnpoke" -f ccnx:/ft/chunks/0 || fail "ccnpoke chunk 0"
printf 'chunk one ' | timeout 10 "$B/ccnpoke" -f ccnx:/ft/chunks/1 || fail "ccnpoke chunk 1"
printf 'chunk two' | timeout 10 "$B/ccnpoke" -f -l ccnx:/ft/chunks/2 || fail "ccnpoke chunk 2"
timeout 30 "$B/ccncat" -c ccnx:/ft/chunks >"$T/chunks.out" 2>"$T/chunks.err" ||
    fail "ccncat -c: $(cat "$T/chunks.err")"
[ "$(cat "$T/chunks.out")" = "chunk zero chunk one chunk two" ] || fail "ccncat -c: $(cat "$T/chunks.out")"
timeout 30 "$B/ccngetfile" -q -c ccnx:/ft/chunks "$T/chunks.got" 2>"$T/chunks.err" ||
    fail "ccngetfile -c: $(cat "$T/chunks.err")"
cmp -s "$T/chunks.out" "$T/chunks.got" || fail "ccngetfile -c wrote something else"

# Write errors (the file size limit, reached on the writer thread): exit 1,
# the message, nothing left behind. In the middle of the 100 MB from the
# cache, and in the last, partial buffer of the small file.
write_error() { # TAG LIMIT_KB URI
    (ulimit -f "$2" && exec timeout 60 "$B/ccngetfile" "$3" "$T/dest/out") 2>"$T/$1.get.err"
    local rc=$?
    [ "$rc" = 1 ] || fail "$1: write error: exit $rc"
    grep -q "cannot write $T/dest/out: File too large" "$T/$1.get.err" || fail "$1: message"
    [ -z "$(ls -A "$T/dest")" ] || fail "$1: write error left $(ls -A "$T/dest")"
}
write_error fsize-mid 2048 ccnx:/ft/big4
write_error fsize-end 8 ccnx:/ft/small

# An empty file: one empty segment, an empty FILE.
: >"$T/empty"
serve empty ccnx:/ft/empty "$T/empty"
getfile empty ccnx:/ft/empty "$T/empty.out"
[ -f "$T/empty.out" ] && [ ! -s "$T/empty.out" ] || fail "empty file: not an empty FILE"
grep -q ': 1 segments' "$T/empty.get.err" || fail "empty file: not 1 segment"
stop_publisher "$PUB_PID"

# Two versions of one name: the first fetched (so ccnd caches it) and its
# publisher gone, the second served: the newest is fetched, not the cached.
echo "first version" >"$T/v1"
echo "second version" >"$T/v2"
serve v1 ccnx:/ft/doc "$T/v1"
v1=$PUB_URI
getfile ver1 ccnx:/ft/doc "$T/doc"
cmp -s "$T/v1" "$T/doc" || fail "first version: got '$(cat "$T/doc")'"
stop_publisher "$PUB_PID"
serve v2 ccnx:/ft/doc "$T/v2"
v2=$PUB_URI
[ "$v1" != "$v2" ] || fail "two publications got the same version $v1"
getfile ver2 ccnx:/ft/doc "$T/doc"
cmp -s "$T/v2" "$T/doc" || fail "version discovery: got '$(cat "$T/doc")', not the newest"
grep -q "$v2: 1 segments" "$T/ver2.get.err" || fail "version discovery: not $v2"
# A reader started before its publisher: ccngetfile asks again soon, and
# ccnputfile answers while it still waits (10 s here) for a repository, so
# the file arrives before that wait is over.
head -c 100000 /dev/urandom >"$T/small"
timeout 60 "$B/ccngetfile" -v ccnx:/ft/together "$T/together" 2>"$T/together.get.err" &
GET_PID=$!
timeout 60 "$B/ccnputfile" -w 10 -x 20 ccnx:/ft/together "$T/small" 2>"$T/together.put.err" &
PUBLISHERS+=($!)
wait "$GET_PID" || fail "put and get together: ccngetfile exit $?"
cmp -s "$T/small" "$T/together" || fail "put and get together: the file differs"
grep -q "no repository answered" "$T/together.put.err" &&
    fail "put and get together: the file came only after ccnputfile's wait for a repository"
grep -q "version found in [0-9]* ms" "$T/together.get.err" || fail "-v: no discovery time"
stop_publisher "${PUBLISHERS[-1]}"

# A reader of a file larger than what ccnputfile reads ahead (16 MiB)
# started as soon as ccnputfile answers, while it still waits (60 s here)
# for a repository: the file arrives whole before that wait is over (the
# publisher reads on as the reader fetches), signed in full Merkle batches
# (25600 segments, 25 signatures). Interrupted then, the publisher says so,
# with its summary, and exits 1.
timeout 120 "$B/ccnputfile" -v -w 60 ccnx:/ft/asking "$T/big" 2>"$T/asking.put.err" &
ASKING_PID=$!
PUBLISHERS+=("$ASKING_PID")
timeout 60 "$B/ccnpeek" -w 30 ccnx:/ft/asking >/dev/null || fail "ccnputfile -w 60 does not answer"
getfile asking ccnx:/ft/asking "$T/asking"
cmp -s "$T/big" "$T/asking" || fail "fetched during the wait for a repository: the file differs"
kill -INT "$ASKING_PID"
wait "$ASKING_PID"
rc=$?
[ "$rc" = 1 ] || fail "ccnputfile interrupted while asking for a repository: exit $rc"
grep -q "interrupted while waiting for a repository" "$T/asking.put.err" ||
    fail "ccnputfile interrupted while asking: $(cat "$T/asking.put.err")"
grep -q "25600 segments (25 signatures), 25600 fetched" "$T/asking.put.err" ||
    fail "not 25 full Merkle batches: $(grep served "$T/asking.put.err")"
rm -f "$T/asking"

# In a sanitizer build, reports from ccnd (its log, once stopped) or from a
# background publisher would otherwise go unnoticed.
timeout 30 "$B/ccndstop" >/dev/null 2>&1 || fail "ccndstop"
bad=$(grep -l -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$T"/*.err "$T"/*.log 2>/dev/null)
[ -z "$bad" ] || fail "sanitizer reports in $bad"
echo PASS
