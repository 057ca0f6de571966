#!/usr/bin/env bash
# Builds the Linux packages and checks the .deb the way a user meets it: lists its contents,
# installs it into this machine with apt-get (dependencies from the archive), runs the
# installed bagscope-cli (--version, info on a fixture), starts the installed app under Xvfb on
# a fixture and on its bundled sample and waits for their windows, then removes the package.
# usage: scripts/check-package.sh   (after ./scripts/setup.sh; uses sudo when not root)
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

cmake --workflow --preset package
deb=$(ls build/release/bagscope_*_*.deb)
echo "== $deb"
dpkg-deb --info "$deb"
dpkg-deb --contents "$deb"
lintian --fail-on error,warning "$deb"  # Debian's own package checks

DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "./$deb"
trap 'DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -q bagscope >/dev/null' EXIT

echo "== installed bagscope-cli"
test "$(command -v bagscope-cli)" = /usr/bin/bagscope-cli
/usr/bin/bagscope-cli --version
/usr/bin/bagscope-cli info tests/data/ros1/demo_lz4.bag | tee /tmp/bagscope-info.txt
grep -q "sensor_msgs/Imu" /tmp/bagscope-info.txt

echo "== installed Python module"
fixture="$PWD/tests/data/ros1/demo_lz4.bag"  # from /tmp: the installed module, not the build tree
(cd /tmp && /usr/bin/python3 -c "import bagscope, sys; r = bagscope.open(sys.argv[1]); assert any(t['name'] == '/imu' for t in r.topics); print(bagscope.__file__)" "$fixture")

echo "== MIME and desktop entry registered by the package's triggers"
gio info -a standard::content-type tests/data/ros2/demo.mcap | grep "application/vnd.mcap" >/dev/null  # not -q: pipefail would see gio's SIGPIPE
gio mime application/x-rosbag | grep "io.github.bagscope.Bagscope.desktop" >/dev/null
echo "ok"

# The installed app under Xvfb: its window must appear with the file's name in the title.
wait_for_window() {  # title, then the app's arguments
  local title=$1
  shift
  xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
    title=$1; shift
    /usr/bin/bagscope "$@" >/tmp/bagscope-gui.log 2>&1 & pid=$!
    for i in $(seq 1 60); do
      if xwininfo -root -tree | grep -qF "$title"; then echo "ok: window \"$title\""; kill $pid; wait $pid 2>/dev/null; exit 0; fi
      kill -0 $pid 2>/dev/null || { echo "FAIL: bagscope exited"; cat /tmp/bagscope-gui.log; exit 1; }
      sleep 0.5
    done
    echo "FAIL: no window \"$title\" after 30 s"; cat /tmp/bagscope-gui.log; kill $pid; exit 1' sh "$title" "$@"
}
echo "== installed bagscope under Xvfb"
wait_for_window "demo_lz4.bag — Bagscope" "$PWD/tests/data/ros1/demo_lz4.bag"
wait_for_window "demo.bag — Bagscope"  # the bundled sample, found beside the installed binary
echo "check-package: all checks passed"
