#!/usr/bin/env bash
# Windows core + CLI, built and run here: the libraries from Debian's source packages
# (scripts/build-windows-deps.sh, cached in build/windows-deps), bagscope-cli.exe with the
# windows-cli preset (MinGW-w64), then CTest's `windows` label runs it under Wine beside the
# Linux bagscope-cli of the release preset (tests/windows/test_windows_cli.py).
set -euo pipefail
cd "$(dirname "$0")/.."
step() {
  local started=$SECONDS
  "$@"
  echo "check-windows: '$*' took $((SECONDS - started)) s"
}
./scripts/setup.sh --windows
step ./scripts/build-windows-deps.sh
step cmake --preset windows-cli
step cmake --build --preset windows-cli
step cmake --preset release -DBAGSCOPE_WINDOWS_CLI="$PWD/build/windows-cli/bin/bagscope-cli.exe"
step cmake --build --preset release --target bagscope-cli
step ctest --preset release -L windows
