#!/usr/bin/env bash
# CI: the libFuzzer targets build with the toolchain `setup.sh --fuzz` installs (clang,
# ASan, UBSan), and each runs on its seeds (tests/fuzz/seeds) for BAGSCOPE_FUZZ_SECONDS
# (60) with a fixed seed, so that neither the build nor a parser can silently break.
# A crash, leak, sanitizer report or timeout fails this script; the input that caused it
# is kept (its path is printed) to become a regression test in tests/core/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --fuzz
cmake --preset fuzz
cmake --build --preset fuzz

seconds=${BAGSCOPE_FUZZ_SECONDS:-60}
work=$(mktemp -d -t bagscope-fuzz.XXXXXX)
seeds=tests/fuzz/seeds
failed=0

# fuzz TARGET MAX_LEN SEED_FILE...: the seeds are copied, so the tree is never written.
fuzz() {
  local target=$1 max_len=$2
  shift 2
  mkdir -p "$work/$target/corpus"
  cp "$@" "$work/$target/corpus/"
  echo "check-fuzz: $target for ${seconds} s on $# seeds"
  if ! build/fuzz/bin/"$target" "$work/$target/corpus" -seed=1 -max_total_time="$seconds" \
      -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/$target/" \
      -print_final_stats=1 >"$work/$target/log" 2>&1; then
    echo "check-fuzz: $target FAILED; log and input in $work/$target/" >&2
    tail -40 "$work/$target/log" >&2
    failed=1
  else
    grep -E '^stat::number_of_executed_units' "$work/$target/log" || true
  fi
}

fuzz fuzz_ros1 65536 "$seeds"/*.bag
fuzz fuzz_decode 8192 "$seeds"/decode/*
fuzz fuzz_mcap 65536 "$seeds"/mcap/*
export BAGSCOPE_FUZZ_DB3="$seeds/rosbag2/small.db3"
fuzz fuzz_rosbag2 131072 "$seeds"/rosbag2/*
fuzz fuzz_write 65536 "$seeds"/*.bag "$seeds"/mcap/*
fuzz fuzz_image 16384 "$seeds"/image/*

[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
