#!/usr/bin/env bash
# A fuzzing round: each named target for 10 M executions or an hour, whichever comes first, one
# fuzzer per queue (run two queues on a two-core machine). Builds once, then runs copies of the
# binaries, so edits to the sources during the round do not rebuild or change what is fuzzed.
# New inputs go to fuzz/work/<target>/ (ignored by git); the checked-in seeds are read only.
#
#   scripts/fuzz_campaign.sh LOGDIR target[:max_len] ...
#   e.g. scripts/fuzz_campaign.sh /tmp/fuzz move_entropy move_index archive_reader:65536
#
# SANITIZER (default none: the library is safe Rust, and without ASan a target runs 4-8x faster),
# RUNS (default 10000000), SECONDS_MAX (default 3600), NICE (default 10: builds keep priority).
set -euo pipefail
cd "$(dirname "$0")/.."
logdir="$1"; shift
mkdir -p "$logdir/bin"
sanitizer="${SANITIZER:-none}"
cargo +nightly fuzz build -s "$sanitizer" >"$logdir/build.log" 2>&1
for spec in "$@"; do
  target="${spec%%:*}"
  cp "fuzz/target/x86_64-unknown-linux-gnu/release/$target" "$logdir/bin/$target"
done
for spec in "$@"; do
  target="${spec%%:*}"
  max_len=1024
  [[ "$spec" == *:* ]] && max_len="${spec##*:}"
  mkdir -p "fuzz/work/$target"
  start=$(date +%s)
  echo "$target start $(date -u +%FT%TZ) max_len=$max_len sanitizer=$sanitizer" >>"$logdir/summary.txt"
  status=0
  nice -n "${NICE:-10}" "$logdir/bin/$target" "fuzz/work/$target" "fuzz/corpus/$target" \
    -runs="${RUNS:-10000000}" -max_total_time="${SECONDS_MAX:-3600}" -max_len="$max_len" \
    -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$logdir/" -print_final_stats=1 \
    >"$logdir/$target.log" 2>&1 || status=$?
  end=$(date +%s)
  echo "$target exit=$status seconds=$((end - start)) $(grep -E '^#[0-9]+' "$logdir/$target.log" | tail -n 1)" >>"$logdir/summary.txt"
  grep -E 'stat::number_of_executed_units' "$logdir/$target.log" >>"$logdir/summary.txt" || true
done
