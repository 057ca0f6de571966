#!/usr/bin/env python3
"""The install tree of `cmake --install`, checked with the tools a Linux desktop uses.

Installs the build into a temporary prefix, then: every file a desktop needs is there; the
installed bagscope-cli runs and reads a fixture; the installed app finds its translations
beside itself; the .desktop file passes desktop-file-validate and the AppStream file
appstreamcli; shared-mime-info (through GIO) sees the fixtures as our MIME types and names
Bagscope as their application; every icon opens in Pillow at the size its folder says,
and the Windows .ico and macOS .icns hold the sizes those systems ask for.
"""
import argparse
import os
import pathlib
import plistlib
import subprocess
import sys
import tempfile

from PIL import Image

APP_ID = "io.github.bagscope.Bagscope"
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(cmd, env=None, timeout=120):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True, type=pathlib.Path)
    ap.add_argument("--data", required=True, type=pathlib.Path)
    ap.add_argument("--version", required=True)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bagscope-install-") as tmp:
        prefix = pathlib.Path(tmp) / "usr"
        rc, out = run(["cmake", "--install", args.build, "--prefix", prefix])
        check(rc == 0, "cmake --install into a temporary prefix" + ("" if rc == 0 else ":\n" + out))
        share = prefix / "share"
        expected = [
            "bin/bagscope", "bin/bagscope-cli", "lib/bagscope/modules/bagscope-opencv.so",
            "lib/bagscope/modules/bagscope-media.so",
            "share/bagscope/samples/demo.bag",
            "share/bagscope/translations/bagscope_zh_CN.qm", "share/bagscope/translations/bagscope_ja_JP.qm",
            "share/bagscope/translations/bagscope_en.qm",
            f"share/applications/{APP_ID}.desktop", f"share/mime/packages/{APP_ID}.xml",
            f"share/metainfo/{APP_ID}.metainfo.xml", f"share/icons/hicolor/scalable/apps/{APP_ID}.svg",
            "share/doc/bagscope/LICENSE", "share/doc/bagscope/copyright",
            "share/doc/bagscope/ros2-interfaces/LICENSE", "share/doc/bagscope/changelog.gz",
            "share/man/man1/bagscope.1.gz", "share/man/man1/bagscope-cli.1.gz",
        ] + [f"share/icons/hicolor/{s}x{s}/apps/{APP_ID}.png" for s in (16, 22, 24, 32, 48, 64, 128, 256, 512)]
        for rel in expected:
            f = prefix / rel
            check(f.is_file() and f.stat().st_size > 0, f"installed: {rel}")
        check("Apache License" in (share / "doc/bagscope/ros2-interfaces/LICENSE").read_text(errors="replace"),
              "the ROS 2 definitions' licence is the Apache License text")
        check("GNU GENERAL PUBLIC LICENSE" in (share / "doc/bagscope/LICENSE").read_text(errors="replace"),
              "Bagscope's licence is the GPL text")

        # The installed programs, from the installed paths.
        rc, out = run([prefix / "bin/bagscope-cli", "--version"])
        check(rc == 0 and out.splitlines()[0] == f"bagscope-cli {args.version}", f"bagscope-cli --version: {out.strip()!r}")
        rc, out = run([prefix / "bin/bagscope-cli", "info", args.data / "ros1/demo_lz4.bag"])
        check(rc == 0 and "/imu" in out and "sensor_msgs/Imu" in out, "installed bagscope-cli info reads a ROS 1 bag")
        # Pixels go through the OpenCV module, found from the installed program's folder.
        out_dir = pathlib.Path(tmp) / "frames"
        rc, out = run([prefix / "bin/bagscope-cli", "export", args.data / "ros1/demo_lz4.bag", "--topic", "/camera/image_bgr",
                       "--format", "png", "--out", out_dir, "--quiet"])
        pngs = sorted(out_dir.rglob("*.png")) if out_dir.is_dir() else []
        check(rc == 0 and len(pngs) == 5 and all(p.read_bytes().startswith(b"\x89PNG") for p in pngs),
              f"installed bagscope-cli writes PNG frames through its OpenCV module ({len(pngs)} files): {out.strip()!r}")
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        rc, out = run([prefix / "bin/bagscope", "--language", "zh_CN", "--help"], env=env)
        check(rc == 0 and "无需 ROS 即可打开 ROS 录制文件" in out,
              "installed bagscope finds its translations beside itself (--help in Chinese)")

        # Manual pages render without troff warnings.
        for page in ("bagscope.1.gz", "bagscope-cli.1.gz"):
            p = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", str(prefix / "share/man/man1" / page)],
                               capture_output=True, text=True, env=dict(os.environ, MANWIDTH="80"))
            check(p.returncode == 0 and "NAME" in p.stdout and not p.stderr.strip(),
                  f"man {page} renders without warnings {p.stderr.strip()[:200]}")

        # Desktop entry and AppStream file, as distributions check them.
        rc, out = run(["desktop-file-validate", share / f"applications/{APP_ID}.desktop"])
        check(rc == 0 and not out.strip(), "desktop-file-validate: " + (out.strip() or "clean"))
        rc, out = run(["appstreamcli", "validate", "--no-net", share / f"metainfo/{APP_ID}.metainfo.xml"])
        check(rc == 0, "appstreamcli validate" + ("" if rc == 0 else ":\n" + out))

        # MIME: build the caches a package's triggers build, then ask GIO (shared-mime-info).
        run(["update-mime-database", share / "mime"])
        run(["update-desktop-database", share / "applications"])
        home = pathlib.Path(tmp) / "home"
        home.mkdir()
        # PATH: the desktop file's TryExec must find the installed bagscope.
        env = dict(os.environ, PATH=f"{prefix / 'bin'}:{os.environ['PATH']}",
                   XDG_DATA_DIRS=f"{share}:/usr/share", XDG_DATA_HOME=str(home / "data"),
                   XDG_CONFIG_HOME=str(home / "config"), HOME=str(home))
        for fixture, mime in (("ros1/demo_lz4.bag", "application/x-rosbag"),
                              ("ros2/demo.mcap", "application/vnd.mcap"),
                              ("ros2/demo_db3/demo_db3_0.db3", "application/x-rosbag2-sqlite3")):
            rc, out = run(["gio", "info", "-a", "standard::content-type", args.data / fixture], env=env)
            check(f"standard::content-type: {mime}" in out, f"{fixture} is {mime} (gio: {out.strip().splitlines()[-1:]})")
            rc, out = run(["gio", "mime", mime], env=env)
            check(f"Default application for “{mime}”: {APP_ID}.desktop" in out, f"{mime} opens with {APP_ID}.desktop")

    # The file associations of every system come from one list (cmake/RecordingTypes.cmake):
    # macOS's Info.plist (made on every system) declares the same types GIO detected above.
    with open(args.build / "packaging/Info.plist.in", "rb") as f:
        plist = plistlib.load(f)
    declared = {(t["UTTypeTagSpecification"]["public.filename-extension"][0], t["UTTypeTagSpecification"]["public.mime-type"][0])
                for t in plist["UTExportedTypeDeclarations"]}
    check(declared == {("bag", "application/x-rosbag"), ("mcap", "application/vnd.mcap"), ("db3", "application/x-rosbag2-sqlite3")},
          f"Info.plist declares the recording types: {sorted(declared)}")
    opened = plist["CFBundleDocumentTypes"][0]["LSItemContentTypes"]
    check(sorted(opened) == sorted(t["UTTypeIdentifier"] for t in plist["UTExportedTypeDeclarations"]),
          f"Bagscope.app opens every declared type: {opened}")

    # Icons: the theme's PNGs, and the Windows / macOS containers the build draws for those systems.
    icons = args.build / "share/icons"
    for png in sorted((icons / "hicolor").glob("*/apps/*.png")):
        size = int(png.parent.parent.name.split("x")[0])
        with Image.open(png) as im:
            check(im.size == (size, size) and im.mode == "RGBA", f"{png.relative_to(icons)} is {size}x{size} RGBA")
    with Image.open(icons / "bagscope.ico") as ico:
        check({16, 32, 48, 256} <= {w for w, h in ico.info["sizes"]}, f"bagscope.ico sizes {sorted(ico.info['sizes'])}")
    with Image.open(icons / "bagscope.icns") as icns:
        sizes = set(icns.info["sizes"])
        check({(16, 16, 1), (32, 32, 1), (128, 128, 1), (256, 256, 1), (512, 512, 1), (512, 512, 2)} <= sizes,
              f"bagscope.icns sizes {sorted(sizes)}")
        icns.size = (512, 512, 2)
        icns.load()
        check(icns.im.size == (1024, 1024), "bagscope.icns holds the 1024 px image")

    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
