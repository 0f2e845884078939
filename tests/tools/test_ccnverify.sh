#!/bin/bash
# ccnverify over the reference vectors: every signed object verifies with the
# right keys; tampered copies, missing keys and broken files are BAD (exit 1).
set -u
V=${CCNX_VECTORS:?}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() { "$CCNX_BIN/ccnverify" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
rc() { cat "$T/rc"; }
flip_byte() { # file offset
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "\\x$(printf %02x $((b ^ 1)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

KEYS=(-k "$V/user_pubkey.pem" -k "$V/ccnd_a_pubkey.pem" -k "$V/ccnd_b_pubkey.pem" -k "$V/ccnr_pubkey.pem")

# Every vector file, all keys: all OK.
run "${KEYS[@]}" "$V"/*.ccnb
[ "$(rc)" = 0 ] || { cat "$T/out" "$T/err"; fail "all vectors: exit $(rc)"; }
grep -q '^BAD' "$T/out" && fail "all vectors: BAD lines: $(grep '^BAD' "$T/out")"
[ "$(grep -c '^OK ccnx:/' "$T/out")" = 35 ] || fail "expected 35 OK lines, got $(grep -c '^OK' "$T/out")"
grep -qx 'OK ccnx:/example/vec/data/hello' "$T/out" || fail "no OK line for data/hello"
grep -qx 'OK ccnx:/example/vec/data/keyname' "$T/out" || fail "no OK line for the KeyName object"
grep -qx 'OK ccnx:/example/vec/remote/big' "$T/out" || fail "datagram object not verified"

# The key carried in KeyLocator is enough for objects that carry one.
run "$V/co_data_fresh.ccnb" "$V/co_key.ccnb"
[ "$(rc)" = 0 ] || fail "self-keyed objects: exit $(rc)"
[ "$(grep -c '^OK' "$T/out")" = 2 ] || fail "self-keyed objects: $(cat "$T/out")"

# Only one key for forwarder A's replies: the user-signed objects need theirs.
run -k "$V/ccnd_a_pubkey.pem" "$V/stream_tcp_ccnd_to_ccndc.ccnb"
[ "$(rc)" = 0 ] || fail "ccnd stream with ccnd key: exit $(rc)"
[ "$(grep -c '^OK' "$T/out")" = 3 ] || fail "ccnd stream: $(cat "$T/out")"

# Missing key: a KeyName locator and no -k.
run "$V/co_keyname_locator.ccnb"
[ "$(rc)" = 1 ] || fail "missing key: exit $(rc)"
grep -qx 'BAD ccnx:/example/vec/data/keyname: no key for publisher 5faa76fdb1eed250dadad76193c57547c5a79152ed03b0a6c43ada91262b9bfc' "$T/out" ||
    fail "missing key line: $(cat "$T/out")"
# A key of someone else does not help.
run -k "$V/ccnr_pubkey.pem" "$V/co_keyname_locator.ccnb"
[ "$(rc)" = 1 ] || fail "wrong key: exit $(rc)"

# Tampered copy: last byte of the Content value (before two closers).
cp "$V/co_data_fresh.ccnb" "$T/tampered.ccnb"
chmod u+w "$T/tampered.ccnb"
size=$(stat -c %s "$T/tampered.ccnb")
flip_byte "$T/tampered.ccnb" $((size - 3))
run "${KEYS[@]}" "$V/co_data_empty.ccnb" "$T/tampered.ccnb"
[ "$(rc)" = 1 ] || fail "tampered: exit $(rc)"
grep -qx 'OK ccnx:/example/vec/data/empty' "$T/out" || fail "good object before the tampered one"
grep -qx 'BAD ccnx:/example/vec/data/hello: signature does not verify' "$T/out" ||
    fail "tampered line: $(cat "$T/out")"

# Interests only: nothing to check, success.
run "$V/int_all_fields.ccnb" "$V/stream_unix_consumer_to_ccnd.ccnb"
[ "$(rc)" = 0 ] || fail "interests: exit $(rc)"
[ -s "$T/out" ] && fail "interests printed: $(cat "$T/out")"

# A CCNProtocolDataUnit wrapper, read from standard input.
{ printf '\x43\x43\x4e\x82'; cat "$V/co_data_fresh.ccnb" "$V/co_gone.ccnb"; printf '\x00'; } >"$T/pdu.ccnb"
"$CCNX_BIN/ccnverify" <"$T/pdu.ccnb" >"$T/out" || fail "PDU on stdin: exit $?"
[ "$(cat "$T/out")" = "OK ccnx:/example/vec/data/hello
OK ccnx:/example/vec/data/removed" ] || fail "PDU output: $(cat "$T/out")"

# Truncated and garbage input.
head -c 200 "$V/co_data_fresh.ccnb" >"$T/short.ccnb"
run "$T/short.ccnb"
[ "$(rc)" = 1 ] || fail "truncated: exit $(rc)"
grep -q "^BAD $T/short.ccnb: .*truncated" "$T/out" || fail "truncated line: $(cat "$T/out")"
printf '\x00\x01\x02' >"$T/junk.ccnb"
run "$T/junk.ccnb"
[ "$(rc)" = 1 ] || fail "garbage: exit $(rc)"
grep -q "^BAD $T/junk.ccnb: malformed" "$T/out" || fail "garbage line: $(cat "$T/out")"

# Usage and input errors.
run --help
[ "$(rc)" = 0 ] && grep -q -- '-k KEY.pem' "$T/out" || fail "--help"
run -x "$V/co_gone.ccnb"
[ "$(rc)" = 2 ] || fail "unknown option: exit $(rc)"
run -k
[ "$(rc)" = 2 ] || fail "-k without file: exit $(rc)"
run -k "$T/nokey.pem" "$V/co_gone.ccnb"
[ "$(rc)" = 1 ] && grep -q "nokey.pem" "$T/err" || fail "missing key file"
run "$T/nofile.ccnb"
[ "$(rc)" = 1 ] && grep -q "nofile.ccnb" "$T/err" || fail "missing input file"
echo PASS
