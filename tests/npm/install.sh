#!/usr/bin/env bash
# Installs the tests' JavaScript readers (package.json beside this script) into DIR, once:
# again only when package.json has changed. Run by the CTest fixture npm_modules, so that the
# tests using them never install concurrently.
#   install.sh DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dir="$1"
mkdir -p "$dir"
if [ -d "$dir/node_modules" ] && cmp -s "$here/package.json" "$dir/package.json"; then
  echo "npm modules in $dir are up to date"
  exit 0
fi
cp "$here/package.json" "$dir/package.json"
rm -f "$dir/package-lock.json"
npm install --no-audit --no-fund --prefix "$dir"
