#!/usr/bin/env bash
# CI: the macOS rule checked here. Apple's toolchain is clang with LLVM's libc++ (19 in
# current Xcode) and no experimental library, so every translation unit of core/, app/,
# widgets/ and tests/ must compile with clang++-19 -stdlib=libc++ and no
# -fexperimental-library. Compile-only (-fsyntax-only): Debian's Qt, VTK, OpenCV, yaml-cpp …
# are built against libstdc++, so nothing here can be linked against libc++; the hosted
# workflow's macOS job builds and runs the tests. The commands are the release preset's
# (build/release/compile_commands.json, with its generated and moc'ed sources), the compiler
# swapped.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh --libcxx
commands=build/release/compile_commands.json
[ -f "$commands" ] || { cmake --preset release && cmake --build --preset release; }
exec python3 - "$commands" <<'EOF'
import json, os, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

root = os.getcwd()
entries = json.load(open(sys.argv[1]))
dropped = {"-Wno-restrict", "-Wno-maybe-uninitialized", "-Werror"}  # GCC's own, or fatal here

def command(entry):
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = ["clang++-19", "-stdlib=libc++", "-fsyntax-only", "-Wno-unknown-warning-option"], False
    for a in args[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a in ("-c", "-MD", "-MMD") or a in dropped:
            continue
        else:
            out.append(a)
    return out

ours = [e for e in entries
        if os.path.relpath(e["file"], root).split(os.sep)[0] in ("core", "app", "widgets", "tests")
        or "/build/" in e["file"] and "_autogen" in e["file"]]

def check(entry):
    p = subprocess.run(command(entry), cwd=entry["directory"], capture_output=True, text=True)
    return entry["file"], p.returncode, p.stderr

failed = 0
with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    for name, rc, err in pool.map(check, ours):
        if rc != 0:
            failed += 1
            print(f"check-libcxx: {os.path.relpath(name, root)} does not compile with libc++ 19:", file=sys.stderr)
            print("\n".join(err.splitlines()[:12]), file=sys.stderr)
print(f"check-libcxx: {len(ours) - failed} of {len(ours)} translation units compile with clang++-19 -stdlib=libc++")
sys.exit(1 if failed else 0)
EOF
