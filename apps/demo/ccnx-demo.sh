#!/usr/bin/env bash
# The demonstration behind `make demo`: the ccnb tools at work on the
# messages the CCNx 0.8.2 reference produced (tests/vectors/ccnx082),
# then a private ccnd with traffic, ccnpoke/ccnpeek and a file transfer.
set -euo pipefail
bin=${1:-build/bin}
here=$(cd "$(dirname "$0")/../.." && pwd)
vectors=${CCNX_VECTORS:-$here/tests/vectors/ccnx082}
if [[ ! -d $vectors ]]; then
  echo "ccnx-demo: reference vectors not found at $vectors (set CCNX_VECTORS)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "An Interest made by the reference, as readable XML (ccn_ccnbtoxml -i)"
"$bin/ccn_ccnbtoxml" -i -x "$vectors/int_all_fields.ccnb"

say "The reference's compact hex form (ccn_ccnbtoxml -x), byte-identical to its own decoder"
"$bin/ccn_ccnbtoxml" -x "$vectors/co_data_fresh.ccnb" > "$work/hello.xml"
cut -c1-160 "$work/hello.xml"; echo "..."
if cmp -s "$work/hello.xml" "$vectors/co_data_fresh.xml"; then
  echo "identical to the reference decode: yes"
else
  echo "identical to the reference decode: NO" >&2; exit 1
fi

say "Back to ccnb (ccn_xmltoccnb) gives the original bytes"
"$bin/ccn_xmltoccnb" -w - < "$work/hello.xml" > "$work/hello.ccnb"
cmp "$work/hello.ccnb" "$vectors/co_data_fresh.ccnb" && echo "round trip: $(stat -c %s "$work/hello.ccnb") bytes, identical"

say "Every signed object in the vectors, verified with the reference's public keys (ccnverify)"
keys=()
for k in "$vectors"/*_pubkey.pem; do keys+=(-k "$k"); done
"$bin/ccnverify" "${keys[@]}" "$vectors"/co_*.ccnb "$vectors"/ctl_*_reply.ccnb | cut -c1-110

say "A tampered copy is refused"
cat "$vectors/co_data_fresh.ccnb" > "$work/tampered.ccnb"  # writable whatever the source mode
printf 'J' | dd of="$work/tampered.ccnb" bs=1 seek=$(( $(stat -c %s "$work/tampered.ccnb") - 10 )) conv=notrunc status=none
"$bin/ccnverify" "$work/tampered.ccnb" || echo "(exit status $?: rejected as expected)"

say "A fresh user keystore (ccninitkeystore), in a scratch CCNX_DIR"
CCNX_DIR="$work/ccnx" "$bin/ccninitkeystore"
ls -la "$work/ccnx"

say "A private ccnd (ccndstart), with its own port, socket and keystore"
port=$(( 13450 + $$ % 50 ))
export CCN_LOCAL_PORT=$port CCN_LOCAL_SOCKNAME="$work/ccnd.sock" CCNX_DIR="$work/ccnx"
export CCND_KEYSTORE_DIRECTORY="$work/ccnd" CCND_LOG="$work/ccnd.log"
mkdir -p "$CCND_KEYSTORE_DIRECTORY"
PATH="$bin:$PATH" "$bin/ccndstart"
started=()
stop_all() {
  for p in "${started[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  PATH="$bin:$PATH" "$bin/ccndstop" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop_all EXIT
echo "status page: http://localhost:$port/  (also ?f=xml, ?f=json)"

say "Traffic through it: a producer and consumers (ccnd-bench), one second each"
"$bin/ccnd-bench" -s "$CCN_LOCAL_SOCKNAME.$port" -c 2 -w 8 -t 1 -N 20000 -b 100 exchange
"$bin/ccnd-bench" -s "$CCN_LOCAL_SOCKNAME.$port" -c 2 -w 8 -t 1 -N 2000 -b 1024 cs

say "One line published with ccnpoke, read back with ccnpeek"
line="hello from ccnpoke, $(date +%T)"
echo "$line" | "$bin/ccnpoke" -w 10 ccnx:/demo/hello &
started+=($!)
echo "poked:  $line"
# An Interest that reaches ccnd before ccnpoke has registered goes nowhere:
# ask again (short lifetimes) until it is answered.
got=""
for _ in 1 2 3 4 5; do
  if got=$("$bin/ccnpeek" -c -l 0.5 -w 0.5 ccnx:/demo/hello 2>/dev/null); then break; fi
done
[[ $got == "$line" ]] || { echo "ccnpeek got '$got', not what ccnpoke published" >&2; exit 1; }
echo "peeked: $got"

say "A file: README.md served by ccnputfile, listed by ccnls, fetched by ccngetfile"
"$bin/ccnputfile" -r -x 60 -v ccnx:/demo/README.md "$here/README.md" 2> "$work/put.err" &
started+=($!)
for _ in $(seq 100); do grep -q publishing "$work/put.err" && break; sleep 0.1; done
sed 's/^/  /' "$work/put.err"
echo "ccnls ccnx:/demo/README.md (the versions it has):"
"$bin/ccnls" ccnx:/demo/README.md | sed 's/^/  /'
"$bin/ccngetfile" ccnx:/demo/README.md "$work/README.md"
if cmp -s "$here/README.md" "$work/README.md"; then
  echo "identical to README.md: yes ($(stat -c %s "$work/README.md") bytes)"
else
  echo "identical to README.md: NO" >&2; exit 1
fi

say "What ccnd forwarded (ccndstatus)"
"$bin/ccndstatus" | grep -E "^(Content items|Interest totals|Tables):"

say "A repository (ccnr): README.md stored in it by ccnputfile"
for p in "${started[@]}"; do kill "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
started=()
export CCNR_DIRECTORY="$work/repo" CCNR_DEBUG=INFO
mkdir -p "$CCNR_DIRECTORY"
start_ccnr() {
  "$bin/ccnr" 2>> "$work/ccnr.log" &
  ccnr_pid=$!
  started+=($ccnr_pid)
  local want=$(( $(grep -c serving "$work/ccnr.log" 2>/dev/null || true) + 1 ))
  for _ in $(seq 100); do
    [ "$(grep -c serving "$work/ccnr.log")" -ge "$want" ] && return 0
    sleep 0.1
  done
  echo "ccnr did not start:" >&2; cat "$work/ccnr.log" >&2; exit 1
}
: > "$work/ccnr.log"
start_ccnr
"$bin/ccnputfile" -v ccnx:/demo/repo/README.md "$here/README.md" 2>&1 | sed 's/^/  /'

say "Both restarted (ccnr, and ccnd with its cache): the repository still has it"
kill "$ccnr_pid"; wait "$ccnr_pid" 2>/dev/null || true
PATH="$bin:$PATH" "$bin/ccndstop"
PATH="$bin:$PATH" "$bin/ccndstart"
start_ccnr
sed -n 's/^ccnr: INFO: /  ccnr: /p' "$work/ccnr.log"
echo "ccnls ccnx:/demo/repo (the repository's name enumeration):"
"$bin/ccnls" ccnx:/demo/repo | sed 's/^/  /'
"$bin/ccngetfile" ccnx:/demo/repo/README.md "$work/README-repo.md"
if cmp -s "$here/README.md" "$work/README-repo.md"; then
  echo "identical to README.md: yes"
else
  echo "identical to README.md: NO" >&2; exit 1
fi

plugin_dir="$bin/../lib/gstreamer-1.0"
check="$bin/../tests/ccngst_check"
if [[ -f $plugin_dir/libgstccnx.so && -x $check ]] && command -v gst-launch-1.0 >/dev/null; then
  vlc_dir="$bin/../lib/vlc/plugins" vlc_check="$bin/../tests/ccnv_check" vlc_viewer=
  [[ -f $vlc_dir/access/libccnx_plugin.so && -x $vlc_check ]] && vlc_viewer=yes
  say "A live video stream (ccnsink) through ccnd to two viewers (ccnsrc)${vlc_viewer:+ and VLC}, decoded"
  export GST_PLUGIN_PATH="$plugin_dir" GST_REGISTRY="$work/gst-registry.bin"
  echo "  sender:  videotestsrc is-live=true ! vp8enc ! webmmux streamable=true ! ccnsink location=ccnx:/demo/video"
  echo "  viewers: ccnsrc location=ccnx:/demo/video ! matroskademux ! vp8dec ! fakesink"
  [[ -z $vlc_viewer ]] || echo "           vlc ccnx:/demo/video (here libvlc, pictures counted, nothing on screen)"
  gst-launch-1.0 -m videotestsrc is-live=true num-buffers=150 \
    ! video/x-raw,width=320,height=240,framerate=30/1 ! vp8enc deadline=1 keyframe-max-dist=30 \
    ! webmmux streamable=true ! ccnsink location=ccnx:/demo/video live-window=3000 linger=2 \
    > "$work/sender.log" 2>&1 &
  sender=$!
  started+=($sender)
  for _ in $(seq 100); do "$bin/ccnpeek" -w 0.2 ccnx:/demo/video >/dev/null 2>&1 && break; done
  viewers=()
  for v in 1 2; do
    "$check" count "ccnsrc location=ccnx:/demo/video ! matroskademux ! vp8dec ! appsink name=out sync=false" \
      > "$work/viewer$v.out" 2> "$work/viewer$v.err" &
    viewers+=($!)
  done
  if [[ -n $vlc_viewer ]]; then
    VLC_PLUGIN_PATH="$vlc_dir" "$vlc_check" -n 60 -t 30 ccnx:///demo/video \
      > "$work/vlc.out" 2> "$work/vlc.err" &
    vlc_pid=$!
  fi
  for v in 1 2; do
    wait "${viewers[$((v - 1))]}" || { echo "viewer $v failed:" >&2; cat "$work/viewer$v.err" >&2; exit 1; }
    read -r _ frames _ errors _ _ _ first < "$work/viewer$v.out"
    echo "  viewer $v: $frames frames decoded, $errors errors, first frame after $first ms"
  done
  if [[ -n $vlc_viewer ]]; then
    wait "$vlc_pid" || { echo "the VLC viewer failed: $(cat "$work/vlc.out")" >&2; grep -i error "$work/vlc.err" >&2; exit 1; }
    read -r frames first _ <<< "$(sed 's/[a-z_]*=//g' "$work/vlc.out")"
    echo "  VLC: $frames pictures shown, the first $first ms after opening"
    echo "       (it opened with the stream's first keyframe: VLC's Matroska demuxer shows a"
    echo "       keyframe's pictures once the next one, a second later here, has come; a viewer"
    echo "       tuning in later starts at the keyframe before the newest and sees one at once)"
  fi
  wait "$sender" || true
  stats=$(grep "ccnsink-stats" "$work/sender.log" | tail -n 1)
  made=$(sed -n 's/.*segments=(guint64)\([0-9]*\).*/\1/p' <<< "$stats")
  sent=$(sed -n 's/.*objects-sent=(guint64)\([0-9]*\).*/\1/p' <<< "$stats")
  echo "  the sender made $made segments and sent $sent: the other viewers came from ccnd's store"
fi

say "Stopping what we started (ccnr, then ccndstop)"
for p in "${started[@]}"; do kill "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
started=()
PATH="$bin:$PATH" "$bin/ccndstop"

say "Done"
