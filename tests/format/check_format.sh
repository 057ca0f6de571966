#!/usr/bin/env bash
# Every C++ file of the tree is as clang-format writes it (.clang-format; Debian 12's
# clang-format 14, which scripts/setup.sh installs). Lists the files that are not and says
# how to fix them.
# usage: check_format.sh SOURCE_DIR
set -euo pipefail
cd "$1"
command -v clang-format >/dev/null || { echo "FAIL: clang-format not found (scripts/setup.sh installs it)"; exit 1; }
mapfile -t files < <(find core widgets app tests bench resources -name '*.cpp' -o -name '*.hpp' -o -name '*.h' | grep -v '^tests/data/' | sort)
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
echo "${#files[@]} files, $(clang-format --version | head -1)"
if [ ${#bad[@]} -gt 0 ]; then
  printf 'not formatted: %s\n' "${bad[@]}"
  echo "FAIL: run clang-format -i on them"
  exit 1
fi
echo "ok: all formatted"
