#!/bin/bash
# ccninitkeystore: where the keystore goes, permissions, no silent overwrite,
# the printed digest, and files other PKCS#12 readers accept.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PW='Th1s1sn0t8g00dp8ssw0rd.'
INIT="$CCNX_BIN/ccninitkeystore"
unset CCNX_DIR CCNX_KEYSTORE_PASSWORD
mkdir "$T/home"
export HOME="$T/home"
KS="$HOME/.ccnx/.ccnx_keystore"

# Digest of the public key in a keystore, computed by the openssl tool.
openssl_digest() { # file password
    openssl pkcs12 -in "$1" -nokeys -passin "pass:$2" 2>/dev/null |
        openssl x509 -pubkey -noout | openssl pkey -pubin -outform DER | sha256sum | cut -c1-64
}

d1=$("$INIT" -l 1024 2>"$T/err") || fail "first run: exit $?"
[[ "$d1" =~ ^[0-9a-f]{64}$ ]] || fail "digest output: '$d1'"
grep -q "created $KS" "$T/err" || fail "no 'created' message: $(cat "$T/err")"
[ "$(stat -c %a "$KS")" = 600 ] || fail "keystore mode $(stat -c %a "$KS")"
[ "$(stat -c %a "$HOME/.ccnx")" = 700 ] || fail "directory mode $(stat -c %a "$HOME/.ccnx")"

# No overwrite without -f.
sum=$(sha256sum <"$KS")
"$INIT" -l 1024 >/dev/null 2>"$T/err"
[ $? = 1 ] || fail "second run should fail with 1"
grep -q "already exists; use -f" "$T/err" || fail "overwrite message: $(cat "$T/err")"
[ "$(sha256sum <"$KS")" = "$sum" ] || fail "keystore changed without -f"
d2=$("$INIT" -f -l 1024 2>/dev/null) || fail "-f run: exit $?"
[ "$d2" != "$d1" ] || fail "-f kept the old key"
[ "$(stat -c %a "$KS")" = 600 ] || fail "mode after -f"

if command -v openssl >/dev/null; then
    # Readable by OpenSSL without the legacy provider, under the reference's
    # password and friendly name, holding the key whose digest was printed.
    [ "$(openssl_digest "$KS" "$PW")" = "$d2" ] || fail "openssl sees another key"
    openssl pkcs12 -in "$KS" -info -noout -passin "pass:$PW" 2>&1 | grep -q "pbeWithSHA1And3-KeyTripleDES-CBC" ||
        fail "unexpected PKCS#12 algorithms"
    openssl pkcs12 -in "$KS" -nokeys -passin "pass:$PW" 2>/dev/null | grep -q "friendlyName: ccnxuser" ||
        fail "friendly name"
fi

# A DIRECTORY argument, a subject, a password.
mkdir "$T/d"
d3=$("$INIT" -l 1024 -u alice -p s3cret "$T/d" 2>/dev/null) || fail "directory run: exit $?"
[ -f "$T/d/.ccnx/.ccnx_keystore" ] || fail "no keystore in DIRECTORY/.ccnx"
if command -v openssl >/dev/null; then
    [ "$(openssl_digest "$T/d/.ccnx/.ccnx_keystore" s3cret)" = "$d3" ] || fail "password -p"
    openssl pkcs12 -in "$T/d/.ccnx/.ccnx_keystore" -nokeys -passin pass:s3cret 2>/dev/null |
        grep -q "subject=CN *= *alice" || fail "subject -u"
fi

# CCNX_DIR names the keystore's directory itself.
CCNX_DIR="$T/cdir" "$INIT" -l 1024 >/dev/null 2>&1 || fail "CCNX_DIR run"
[ -f "$T/cdir/.ccnx_keystore" ] || fail "no keystore in CCNX_DIR"

# Usage errors.
"$INIT" --help >"$T/out" 2>&1 || fail "--help exit"
grep -q "Usage: ccninitkeystore" "$T/out" || fail "--help text"
"$INIT" -l 100 "$T/d" >/dev/null 2>&1
[ $? = 2 ] || fail "-l 100 should be a usage error"
"$INIT" -x >/dev/null 2>&1
[ $? = 2 ] || fail "unknown option"
"$INIT" "$T/d" "$T/d" >/dev/null 2>&1
[ $? = 2 ] || fail "two directories"
touch "$T/file"
"$INIT" "$T/file" >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "not a directory" "$T/err" || fail "file as directory"
"$INIT" "$T/missing" >/dev/null 2>"$T/err"
[ $? = 1 ] && grep -q "$T/missing" "$T/err" || fail "missing directory"
echo PASS
