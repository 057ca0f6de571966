#!/usr/bin/env bash
# Installs every Debian/Ubuntu package that building and testing Bagscope needs.
# Idempotent; runs as root or through sudo.
#   scripts/setup.sh          build + test dependencies
#   scripts/setup.sh --bench  also what the native C++ peers build with (bench/run_native.py)
#   scripts/setup.sh --fuzz   also clang and its libFuzzer runtime
#   scripts/setup.sh --windows  also Wine, and Debian's source packages for the Windows libraries
#   scripts/setup.sh --fixtures  accepted for old scripts: what it added is always installed now
set -euo pipefail

packages=(
  # toolchain, and clang-format for the format check (tests/format)
  build-essential cmake ninja-build pkg-config git clang-format
  # core: decompression (lz4's checksums by xxHash, header-only), CRC-32 (libdeflate), rosbag2 storage (SQLite, metadata.yaml), images and video (OpenCV:
  # only core, imgproc, imgcodecs and videoio are linked)
  libbz2-dev liblz4-dev libzstd-dev libxxhash-dev zlib1g-dev libdeflate-dev libsqlitecpp-dev libsqlite3-dev libyaml-cpp-dev libopencv-dev libjpeg-dev libpng-dev
  # MCAP messages in json (nlohmann-json) and protobuf (libprotobuf; protoc makes the tests'
  # descriptor sets)
  nlohmann-json3-dev libprotobuf-dev protobuf-compiler
  # the plot's custom expressions (muparser); exact floating-point parsing everywhere (fast_float,
  # header-only: libc++ before 20 has no floating-point std::from_chars)
  libmuparser-dev libfast-float-dev
  # app and tests: Qt 6 (Widgets, Svg, Test, LinguistTools), QCustomPlot built
  # for Qt 6, VTK 9 (drawn offscreen on a thread by our own adapter, not VTK's Qt 5 module)
  qt6-base-dev qt6-base-dev-tools qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6opengl6-dev
  qt6-svg-dev libqcustomplot-dev libqcustomplot2.1-qt6 libvtk9-dev
  libgl-dev libglx-dev
  # the app's languages: Qt's own translations (dialog buttons) and fonts for 中文 / 日本語
  qt6-translations-l10n fonts-noto-cjk
  # compressed video: FFmpeg's codecs and MP4 muxer (libavcodec, libavformat, libswscale), and ffmpeg itself,
  # which encodes the video test's streams and decodes them for comparison
  libavcodec-dev libavformat-dev libavutil-dev libswscale-dev ffmpeg
  # GUI tests and screenshots under a virtual display
  xvfb xauth x11-utils
  # the Python module (import bagscope) and its pytest suite
  pybind11-dev python3-dev python3-pytest
  # the module on a cluster: Dask's LocalCluster in the pytest suite
  python3-dask python3-distributed
  # the export test's independent readers: the ROS 1 reference, Open3D, PCL, OpenCV, pandas
  python3-rosbag python3-genpy python3-rospy python3-sensor-msgs python3-roslz4 python3-numpy python3-rosgraph-msgs
  python3-open3d pcl-tools python3-opencv python3-pandas
  # ROS 1's standard messages (genpy's classes and md5sums): the translation tests' reference,
  # and what shared/fixtures-gen needs to write the large bags
  python3-genmsg python3-std-msgs python3-geometry-msgs python3-nav-msgs python3-tf2-msgs
  python3-diagnostic-msgs python3-visualization-msgs python3-shape-msgs python3-stereo-msgs
  python3-trajectory-msgs python3-actionlib-msgs
  # the write test's independent readers: rosbags (../shared/peers/rosbags, pure Python) needs
  # these; Foxglove's @mcap/core comes from npm into the build tree (tests/write/README.md)
  python3-lz4 python3-zstandard python3-ruamel.yaml python3-typing-extensions python3-apsw
  # packaging: .deb building (dpkg-shlibdeps), the install-tree test's desktop tools and icon
  # reader, the Windows compile check (MinGW-w64)
  dpkg-dev file lintian man-db desktop-file-utils appstream shared-mime-info libglib2.0-bin python3-pil
  g++-mingw-w64-x86-64-posix
)
windows=0
for arg in "$@"; do
  case "$arg" in
    # the Python and JS peers are above; the native C++ ones (shared/bench-peers/cpp, built by
    # bench/run_native.py) need Debian's librosbag and what its headers include
    --bench) packages+=(librosbag-dev libsensor-msgs-dev pluginlib-dev librcpputils-dev librcutils-dev libament-index-cpp-dev) ;;
    --fuzz) packages+=(clang libclang-rt-dev) ;;
    # the macOS rule (scripts/check-libcxx.sh): clang 19 with LLVM's libc++ 19, as Xcode has
    --libcxx) packages+=(clang-19 libc++-19-dev libc++abi-19-dev) ;;
    # the Windows CLI built here (scripts/check-windows.sh): Wine runs it; tcl makes SQLite's
    # amalgamation; apt-get source needs deb-src lines (added below)
    --windows) packages+=(wine wine64 tcl); windows=1 ;;
    --fixtures) ;;
    *) echo "setup.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done

# Node.js (the write test's MCAP reader, the benchmarks' JS peers) may already come from
# elsewhere with its own npm; Debian's only when there is none.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# Source packages (apt-get source, scripts/build-windows-deps.sh): the deb-src twin of each
# Debian line already configured, once.
if [ "$windows" = 1 ] && [ -z "$(apt-cache showsrc zlib 2>/dev/null)" ]; then
  for f in /etc/apt/sources.list.d/*.sources; do  # deb822 (Debian 12's own)
    [ -f "$f" ] && grep -q "^Types: deb$" "$f" && grep -q "debian" "$f" &&
      sed 's/^Types: deb$/Types: deb-src/' "$f" | $sudo tee "/etc/apt/sources.list.d/bagscope-src-$(basename "$f")" >/dev/null
  done
  if [ -f /etc/apt/sources.list ]; then  # one-line style
    sed -n 's/^deb \(.*debian.*\)/deb-src \1/p' /etc/apt/sources.list | $sudo tee /etc/apt/sources.list.d/bagscope-src.list >/dev/null
  fi
  $sudo apt-get update -qq
  [ -n "$(apt-cache showsrc zlib 2>/dev/null)" ] || { echo "setup.sh: no Debian source packages reachable" >&2; exit 1; }
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
