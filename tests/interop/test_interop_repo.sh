#!/bin/bash
# Repositories both ways: the reference's tools (ccnseqwriter -r, the Java
# ccnputfile) store into our ccnr on our ccnd A, ours (ccnputfile,
# ccnseqwriter -r) into the reference's ccnr on its ccnd B; everything is
# read back by the other side's consumers (ccncat, ccngetfile, the Java
# ccngetfile); ccnls lists both repositories [verified] (ours on the
# reference's, the reference's on ours); the Java ccnlsrepo lists ours;
# and `ccnr import` takes the reference's repository file whole.
set -u
INTEROP_TAG=interop-repo
INTEROP_PORT_BASE=18200
. "$(dirname "$0")/interop_lib.sh"
JAVA=1
have_java || { JAVA=0; echo "SKIP case: the Java ccnputfile, ccngetfile and ccnlsrepo (no Java runtime)"; }

start_ccnd A ours
start_ccnd B ref
for i in 1 2 3 4 5; do head -c $((150000 + i * 33333)) /dev/urandom >"$T/f$i"; done
mkdir -p "$T/our-repo" "$T/ref-repo"

bg our-ccnr env CCN_LOCAL_PORT="$PORT_A" CCN_LOCAL_SOCKNAME="$T/A.sock" CCNX_DIR="$T/our-user" \
    CCNR_DIRECTORY="$T/our-repo" CCNR_DEBUG=INFO "$B/ccnr"
wait_for 30 grep -q "ccnr: INFO: serving" "$T/our-ccnr.log" || fail "our ccnr did not start"
bg ref-ccnr env CCN_LOCAL_PORT="$PORT_B" CCN_LOCAL_SOCKNAME="$T/B.sock" CCNX_DIR="$T/ref-user" \
    CCNR_DIRECTORY="$T/ref-repo" CCNR_DEBUG=INFO "$REF/bin/ccnr"
REF_CCNR=$BG_PID
wait_for 30 grep -q "Adding listener for policy" "$T/ref-ccnr.log" || fail "the reference's ccnr did not start"

# same FILE_A FILE_B: the two hold the same bytes
same() { cmp -s "$1" "$2" || fail "$3: $(stat -c %s "$2") bytes, not the $(stat -c %s "$1") stored"; }

# ---- the reference's tools into our ccnr ----
on A ref ccnseqwriter -r ccnx:/ir/our/seq <"$T/f1" 2>"$T/refseq.err" ||
    fail "the reference's ccnseqwriter -r into our ccnr: exit $?"
wait_for 30 grep -q "stored ccnx:/ir/our/seq" "$T/our-ccnr.log" ||
    fail "our ccnr did not store what the reference's ccnseqwriter sent"
on A ref ccncat ccnx:/ir/our/seq >"$T/out" || fail "ccncat from our ccnr"
same "$T/f1" "$T/out" "the reference's ccncat of its ccnseqwriter -r stream in our ccnr"
rm -f "$T/out"
on A ours ccngetfile ccnx:/ir/our/seq "$T/out" 2>/dev/null || fail "our ccngetfile from our ccnr"
same "$T/f1" "$T/out" "our ccngetfile of the reference's stream in our ccnr"
ok "the reference's ccnseqwriter -r stored into our ccnr; read back by its ccncat and our ccngetfile"

if [ "$JAVA" = 1 ]; then
    TOOL_TIMEOUT=120 on A ref ccnputfile ccnx:/ir/our/java "$T/f2" >"$T/jput.log" 2>&1 ||
        fail "the Java ccnputfile into our ccnr: exit $?"
    grep -q "Inserted file" "$T/jput.log" || fail "the Java ccnputfile did not confirm the insert"
    rm -f "$T/out"
    on A ours ccngetfile ccnx:/ir/our/java "$T/out" 2>"$T/get.err" || fail "our ccngetfile of the Java file: $(tail -n 3 "$T/get.err")"
    same "$T/f2" "$T/out" "our ccngetfile of the Java ccnputfile's file in our ccnr"
    rm -f "$T/out"
    TOOL_TIMEOUT=120 on A ref ccngetfile ccnx:/ir/our/seq "$T/out" >"$T/jget.log" 2>&1 ||
        fail "the Java ccngetfile from our ccnr: exit $?"
    same "$T/f1" "$T/out" "the Java ccngetfile from our ccnr"
    TOOL_TIMEOUT=120 on A ref ccnlsrepo ccnx:/ir/our >"$T/lsrepo.log" 2>&1 ||
        fail "the Java ccnlsrepo of our ccnr: exit $?"
    grep -q "^java" "$T/lsrepo.log" && grep -q "^seq" "$T/lsrepo.log" ||
        fail "the Java ccnlsrepo does not list our ccnr's names: $(cat "$T/lsrepo.log")"
    ok "the Java ccnputfile stored into our ccnr; the Java ccngetfile and ccnlsrepo read it"
fi

on A ref ccnls ccnx:/ir/our >"$T/ls.out" 2>"$T/ls.err" || fail "the reference's ccnls on our ccnr"
grep -qx "seq \[verified\]" "$T/ls.out" || fail "the reference's ccnls of our ccnr: $(cat "$T/ls.out")"
ok "the reference's ccnls lists our ccnr [verified]"

# ---- our tools into the reference's ccnr ----
on B ours ccnputfile ccnx:/ir/ref/put "$T/f3" 2>"$T/put.err" ||
    fail "our ccnputfile into the reference's ccnr: $(tail -n 2 "$T/put.err")"
on B ours ccnseqwriter -r ccnx:/ir/ref/seq <"$T/f4" 2>"$T/seq.err" ||
    fail "our ccnseqwriter -r into the reference's ccnr: $(tail -n 2 "$T/seq.err")"
on B ref ccncat ccnx:/ir/ref/put >"$T/out" || fail "the reference's ccncat from its ccnr"
same "$T/f3" "$T/out" "the reference's ccncat of our ccnputfile's file in its ccnr"
on B ref ccncat ccnx:/ir/ref/seq >"$T/out" || fail "the reference's ccncat from its ccnr"
same "$T/f4" "$T/out" "the reference's ccncat of our ccnseqwriter stream in its ccnr"
if [ "$JAVA" = 1 ]; then
    rm -f "$T/out"
    TOOL_TIMEOUT=120 on B ref ccngetfile ccnx:/ir/ref/put "$T/out" >"$T/jget.log" 2>&1 ||
        fail "the Java ccngetfile from the reference's ccnr: exit $?"
    same "$T/f3" "$T/out" "the Java ccngetfile of our file in the reference's ccnr"
    TOOL_TIMEOUT=120 on B ref ccnputfile ccnx:/ir/ref/java "$T/f5" >"$T/jput.log" 2>&1 ||
        fail "the Java ccnputfile into the reference's ccnr: exit $?"
fi
on B ours ccnls ccnx:/ir/ref >"$T/ls.out" 2>"$T/ls.err" || fail "our ccnls on the reference's ccnr"
for n in put seq; do
    grep -qx "$n \[verified\]" "$T/ls.out" ||
        fail "our ccnls of the reference's ccnr: $(cat "$T/ls.out") $(cat "$T/ls.err")"
done
ok "our ccnputfile and ccnseqwriter -r stored into the reference's ccnr; its ccncat (and the Java ccngetfile) read them; our ccnls lists them [verified]"

# ---- ccnr import of the reference's repository file ----
stop_bg "$REF_CCNR"
[ -s "$T/ref-repo/repoFile1" ] || fail "the reference's ccnr left no repoFile1"
CCNR_DIRECTORY="$T/our-repo" on A ours ccnr import "$T/ref-repo/repoFile1" 2>"$T/import.err" ||
    fail "ccnr import of the reference's repoFile1: $(tail -n 3 "$T/import.err")"
rm -f "$T/out"
on A ours ccngetfile ccnx:/ir/ref/seq "$T/out" 2>/dev/null || fail "ccngetfile of an imported stream"
same "$T/f4" "$T/out" "ccngetfile, through our ccnd, of what our ccnr imported"
if [ "$JAVA" = 1 ]; then
    rm -f "$T/out"
    on A ours ccngetfile ccnx:/ir/ref/java "$T/out" 2>/dev/null || fail "ccngetfile of the imported Java file"
    same "$T/f5" "$T/out" "ccngetfile of the Java file imported from the reference's repository"
fi
ok "ccnr import took the reference's repoFile1; its files read back through our ccnd"
echo "all repository interop checks passed"
