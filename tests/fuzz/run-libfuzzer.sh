#!/usr/bin/env bash
# Runs every libFuzzer binary in FOLDER for SECONDS each, seeded with its
# checked-in corpus and the reference vectors. New inputs go to a scratch
# corpus so the checkout stays clean. Exit status is non-zero on any crash.
set -euo pipefail
dir=${1:?usage: run-libfuzzer.sh FOLDER SECONDS}
secs=${2:-15}
src=$(cd "$(dirname "$0")" && pwd)
vectors=${CCNX_VECTORS:-$src/../vectors/ccnx082}
found=0
for bin in "$dir"/fuzz_*; do
  [[ -x $bin && $bin != *_replay ]] || continue
  name=$(basename "$bin")
  found=1
  scratch=$(mktemp -d)
  seeds=("$scratch")
  [[ -d $src/corpus/$name ]] && seeds+=("$src/corpus/$name")
  [[ -d $vectors ]] && seeds+=("$vectors")
  echo "== $name: ${secs}s"
  status=0
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$scratch/" "${seeds[@]}" >"$scratch/log" 2>&1 || status=$?
  tail -n 4 "$scratch/log"
  if [[ $status -ne 0 ]]; then
    echo "$name failed; crashing input kept in $scratch" >&2
    exit 1
  fi
  rm -rf "$scratch"
done
[[ $found -eq 1 ]] || { echo "no fuzz binaries in $dir" >&2; exit 1; }
