#!/usr/bin/env bash
# The core and bagscope-cli compiled for Windows (MinGW-w64 g++, -fsyntax-only): the Windows
# branches (file reading through CreateFileW/ReadFile, _isatty, paths as UTF-16) must compile,
# and nothing POSIX-only may slip into shared code. Third-party headers come from Debian's
# packages (only headers are read). Any diagnostic fails the check.
# usage: check_windows_compile.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
cxx=x86_64-w64-mingw32-g++-posix
command -v "$cxx" >/dev/null || { echo "FAIL: $cxx not found (scripts/setup.sh installs g++-mingw-w64-x86-64-posix)"; exit 1; }
inc=$(mktemp -d)
trap 'rm -rf "$inc"' EXIT
for h in lz4.h lz4frame.h lz4hc.h zstd.h zstd_errors.h bzlib.h zlib.h zconf.h libdeflate.h sqlite3.h SQLiteCpp yaml-cpp nlohmann google muParser.h muParserBase.h muParserBytecode.h muParserCallback.h muParserDef.h muParserError.h muParserFixes.h muParserTemplateMagic.h muParserToken.h muParserTokenReader.h fast_float xxhash.h jpeglib.h jmorecfg.h jerror.h png.h pngconf.h pnglibconf.h; do
  ln -s "/usr/include/$h" "$inc/$h"
done
ln -s /usr/include/opencv4/opencv2 "$inc/opencv2"
ln -s "/usr/include/$(gcc -print-multiarch)/jconfig.h" "$inc/jconfig.h"  # libjpeg (the OpenCV module)
for lib in libavcodec libavformat libavutil libswscale; do  # FFmpeg's headers (the video module)
  ln -s "/usr/include/$(gcc -print-multiarch)/$lib" "$inc/$lib"
done
files=$( (cd "$src" && find core app/cli -name '*.cpp' | sort); echo "$build/core/builtin_type_table.cpp")
echo "$(echo "$files" | wc -l) files, $($cxx --version | head -1)"
log=$(mktemp)
echo "$files" | (cd "$src" && xargs -P "$(nproc)" -I{} sh -c \
  "$cxx -std=c++20 -fsyntax-only -Wall -Wextra -DBAGSCOPE_OPENCV_MODULE_FILE=\\\"bagscope-opencv.dll\\\" -DBAGSCOPE_MEDIA_MODULE_FILE=\\\"bagscope-media.dll\\\" -I. -I'$build/generated' -isystem '$inc' {} 2>&1 || echo 'FAILED: {}'") >"$log"
if [ -s "$log" ]; then
  cat "$log"
  echo "FAIL: diagnostics when compiling for Windows"
  exit 1
fi
echo "ok: no diagnostics"
