#!/usr/bin/python3
"""bagscope-cli.exe (cross-compiled with MinGW-w64, the windows-cli preset) run under Wine.

The truth is the same as on Linux: the fixtures' expectations, the Linux bagscope-cli's
exports byte for byte (which the export test checks against Open3D, PCL, pandas), and
python3-rosbag reading back what the Windows build wrote. Paths are given as a Windows user
types them: drive letters (Wine maps Z: to /), backslashes, non-Latin folder names, and
\\\\?\\ paths longer than 260 characters. Run by CTest (label `windows`):

    /usr/bin/python3 tests/windows/test_windows_cli.py --exe build/windows-cli/bin/bagscope-cli.exe \\
        --linux-cli build/release/bin/bagscope-cli --data tests/data --wineprefix build/release/wine
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import rosbag

ARGS = None

# Every ROS 1 and ROS 2 fixture: (recording under tests/data, its expectation or None for no
# messages, its exit code). Damaged files (exit code 3) match the first lines of their expectation.
FIXTURES = [
    ('ros1/demo_uncompressed.bag', 'ros1/demo', 0),
    ('ros1/demo_bz2.bag', 'ros1/demo', 0),
    ('ros1/demo_lz4.bag', 'ros1/demo', 0),
    ('ros1/demo_truncated.bag', 'ros1/demo', 3),
    ('ros1/demo_crashed.bag', 'ros1/demo', 3),
    ('ros1/empty.bag', None, 0),
    ('ros2/demo.mcap', 'ros2/demo', 0),
    ('ros2/demo_lz4.mcap', 'ros2/demo', 0),
    ('ros2/demo_zstd.mcap', 'ros2/demo', 0),
    ('ros2/demo_nosummary.mcap', 'ros2/demo', 0),
    ('ros2/demo_truncated.mcap', 'ros2/demo', 3),
    ('ros2/demo_db3', 'ros2/demo', 0),
    ('ros2/demo_db3_split', 'ros2/demo', 0),
    ('ros2/demo_mcap_bag', 'ros2/demo', 0),
    ('ros2/cases/split_mcap', 'ros2/cases/split_mcap', 0),
    ('ros2/cases/service_event', 'ros2/cases/service_event', 0),
    ('ros2/cases/idl_mcap', 'ros2/cases/idl_mcap', 0),
    ('mcap_foreign/protobuf.mcap', 'mcap_foreign/protobuf', 0),
    ('mcap_foreign/json.mcap', 'mcap_foreign/json', 0),
]


def windows_path(path):
    """An absolute Linux path as Windows sees it under Wine: Z:\\ is the Linux root."""
    return 'Z:' + str(Path(path).resolve()).replace('/', '\\')


def wine_env():
    env = dict(os.environ, WINEPREFIX=ARGS.wineprefix, WINEDEBUG='-all', LANG='C.UTF-8', LC_ALL='C.UTF-8')
    env.pop('DISPLAY', None)  # nothing here opens a window
    return env


def run_windows(*args, cwd=None):
    return subprocess.run([ARGS.wine, ARGS.exe, *args], capture_output=True, env=wine_env(), cwd=cwd, timeout=300)


def run_linux(*args, cwd=None):
    return subprocess.run([ARGS.linux_cli, *args], capture_output=True, cwd=cwd, timeout=300)


def data(rel):
    return os.path.join(ARGS.data, rel)


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def same_json(a, b):
    """Equal as the C++ tests compare (QJsonValue): numbers by value, exactly; the rest by type and value."""
    number = (int, float)
    if isinstance(a, number) and isinstance(b, number) and not isinstance(a, bool) and not isinstance(b, bool):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b


def tree_digest(folder):
    """{relative path: sha256} of every file beneath `folder`."""
    folder = Path(folder)
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob('*')) if p.is_file()}


class WindowsCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # The first run makes the Wine prefix (a few seconds); its chatter is not the program's.
        Path(ARGS.wineprefix).mkdir(parents=True, exist_ok=True)
        first = run_windows('--version')
        assert first.returncode == 0 and b'Windows' in first.stdout, first
        cls.tmp = tempfile.TemporaryDirectory(prefix='bagscope-windows-')

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()
        subprocess.run(['wineserver', '-k'], env=wine_env(), capture_output=True)

    def folder(self, name):
        path = Path(self.tmp.name) / name
        path.mkdir(parents=True)
        return path

    def assertSameRun(self, win, lin, what):
        self.assertEqual(win.returncode, lin.returncode, f'{what}: exit code\n{win.stderr.decode(errors="replace")}')
        self.assertEqual(win.stdout, lin.stdout, f'{what}: standard output differs from Linux')

    def test_cat_digest_of_every_fixture_is_its_expectation(self):
        for bag, expectation, code in FIXTURES:
            with self.subTest(bag=bag):
                win = run_windows('cat', windows_path(data(bag)), '--bytes', 'digest')
                self.assertEqual(win.returncode, code, win.stderr.decode(errors='replace'))
                self.assertNotIn(b'\r', win.stdout, 'text mode: \\n written as \\r\\n')
                ours = json_lines(win.stdout.decode())
                expected = json_lines(Path(data(expectation + '.expected.jsonl')).read_text()) if expectation else []
                if code == 0:
                    self.assertEqual(len(ours), len(expected))
                else:
                    self.assertGreater(len(ours), 0)
                    expected = expected[:len(ours)]
                for i, (a, b) in enumerate(zip(ours, expected)):
                    self.assertTrue(same_json(a, b), f'line {i + 1}: {json.dumps(a)[:300]} != {json.dumps(b)[:300]}')
                # and what Linux prints, to the byte (stderr names the file as it was given)
                lin = run_linux('cat', data(bag), '--bytes', 'digest')
                self.assertSameRun(win, lin, bag)

    def test_exports_are_the_linux_exports_byte_for_byte(self):
        bag = data('ros1/demo_lz4.bag')
        for fmt, extra in [('pcd', ['--pcd-encoding', 'binary']), ('pcd', ['--pcd-encoding', 'ascii']),
                           ('ply', []), ('bin', []), ('csv', []), ('npy', [])]:
            with self.subTest(format=fmt, options=extra):
                w, l = self.folder(f'w_{fmt}_{len(extra)}_{extra[-1] if extra else ""}'), \
                    self.folder(f'l_{fmt}_{len(extra)}_{extra[-1] if extra else ""}')
                win = run_windows('export', windows_path(bag), '--format', fmt, '--out', windows_path(w), '--quiet', *extra)
                lin = run_linux('export', bag, '--format', fmt, '--out', str(l), '--quiet', *extra)
                self.assertEqual(win.returncode, 0, win.stderr.decode(errors='replace'))
                self.assertEqual(lin.returncode, 0, lin.stderr.decode(errors='replace'))
                theirs, ours = tree_digest(l), tree_digest(w)
                self.assertGreater(len(theirs), 0)
                self.assertEqual(ours, theirs)

    def test_images_say_they_are_not_in_this_build(self):
        # OpenCV is not built for the Windows CLI here (README): an image that needs it is
        # skipped with that reason and exit code 3; a PNG stored as such is written as it is.
        out = self.folder('png')
        win = run_windows('export', windows_path(data('ros1/demo_lz4.bag')), '--format', 'png', '--out',
                          windows_path(out), '--quiet')
        said = win.stderr.decode(errors='replace')
        self.assertEqual(win.returncode, 3, said)
        self.assertIn('/camera/image_raw message 0: images and video are not in this build of Bagscope', said)
        self.assertEqual(list((out / 'camera_image_raw').iterdir()), [])
        lin = self.folder('png_linux')
        run_linux('export', data('ros1/demo_lz4.bag'), '--format', 'png', '--out', str(lin), '--quiet')
        self.assertEqual(tree_digest(out / 'camera_png_compressed'), tree_digest(lin / 'camera_png_compressed'))
        self.assertEqual(len(tree_digest(out / 'camera_png_compressed')), 5)

    def test_bag_to_mcap_to_bag_keeps_every_message_byte_for_byte(self):
        src = data('ros1/demo_lz4.bag')
        work = self.folder('convert')
        r = run_windows('convert', windows_path(src), '-o', windows_path(work / 'a.mcap'))
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors='replace'))
        r = run_windows('convert', windows_path(work / 'a.mcap'), '-o', windows_path(work / 'b.bag'))
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors='replace'))

        def messages(path):
            with rosbag.Bag(str(path)) as b:
                return [(t, m[1], stamp.to_nsec(), m[0]) for t, m, stamp in b.read_messages(raw=True)]

        theirs, ours = messages(src), messages(work / 'b.bag')
        self.assertEqual(len(ours), len(theirs))
        self.assertGreater(len(ours), 700)
        # topic, bytes, time and type of every message, in order (python3-rosbag reads both)
        self.assertEqual(ours, theirs)

    def test_folders_named_in_japanese_chinese_and_accented_latin(self):
        deep = self.folder('データ/数据/Café déjà vu')
        shutil.copy(data('ros1/demo_lz4.bag'), deep / 'prueba ñ.bag')
        bag = windows_path(deep / 'prueba ñ.bag')
        info = run_windows('info', bag)
        self.assertEqual(info.returncode, 0, info.stderr.decode(errors='replace'))
        self.assertIn(('path:         ' + bag).encode(), info.stdout)
        out = deep / '出力'
        r = run_windows('export', bag, '--format', 'csv', '--topic', '/imu', '--out', windows_path(out), '--quiet')
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors='replace'))
        ref = self.folder('unicode_ref')
        run_linux('export', str(deep / 'prueba ñ.bag'), '--format', 'csv', '--topic', '/imu', '--out', str(ref), '--quiet')
        self.assertEqual(tree_digest(out), tree_digest(ref))
        self.assertEqual(list(tree_digest(out)), ['manifest.json', 'prueba ñ_imu.csv'])

    def test_backslashes_drive_letters_and_long_paths(self):
        root = self.folder('paths')
        shutil.copy(data('ros1/demo_lz4.bag'), root / 'demo.bag')
        expected = run_linux('cat', str(root / 'demo.bag'), '--bytes', 'digest').stdout
        # relative, with backslashes, from the folder above
        r = run_windows('cat', 'paths\\demo.bag', '--bytes', 'digest', cwd=self.tmp.name)
        self.assertEqual((r.returncode, r.stdout), (0, expected), r.stderr.decode(errors='replace'))
        # drive letter and backslashes
        r = run_windows('cat', windows_path(root / 'demo.bag'), '--bytes', 'digest')
        self.assertEqual((r.returncode, r.stdout), (0, expected), r.stderr.decode(errors='replace'))
        # \\?\ over 260 characters, for the input and an export's output folder
        long = root
        while len(str(long)) < 300:
            long = long / ('a_long_folder_name_' + str(len(str(long))))
        long.mkdir(parents=True)
        shutil.copy(root / 'demo.bag', long / 'demo.bag')
        bag = '\\\\?\\' + windows_path(long / 'demo.bag')
        self.assertGreater(len(bag), 260)
        r = run_windows('cat', bag, '--bytes', 'digest')
        self.assertEqual((r.returncode, r.stdout), (0, expected), r.stderr.decode(errors='replace'))
        r = run_windows('export', bag, '--format', 'csv', '--topic', '/imu', '--out', '\\\\?\\' + windows_path(long / 'out'),
                        '--quiet')
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors='replace'))
        self.assertEqual(sorted(p.name for p in (long / 'out').iterdir()), ['demo_imu.csv', 'manifest.json'])

    def test_exit_codes_and_error_texts_are_the_linux_ones(self):
        work = self.folder('errors')
        shutil.copy(data('ros1/demo_lz4.bag'), work / 'demo.bag')
        (work / 'taken.mcap').write_bytes(b'mine')
        (work / 'not_a_bag.bag').write_bytes(b'hello, this is not a recording\n' * 10)
        cases = [
            ['info', '{w}/missing.bag'],
            ['info', '{w}/no_folder/missing.bag'],
            ['info', '{w}/not_a_bag.bag'],
            ['cat', '{w}/demo.bag', '--bytes', 'hex'],
            ['cat', '{w}/demo.bag', '--topic'],
            ['frobnicate'],
            ['convert', '{w}/demo.bag', '-o', '{w}/taken.mcap'],
            ['export', '{w}/demo.bag', '--format', 'tiff', '--out', '{w}/out'],
            ['cat', data('ros1/demo_truncated.bag').replace(ARGS.data, '{d}'), '--topic', '/imu'],
        ]
        for case in cases:
            with self.subTest(case=' '.join(case)):
                lin_args = [a.replace('{w}', str(work)).replace('{d}', ARGS.data) for a in case]
                win_args = [windows_path(a) if a.startswith((str(work), ARGS.data)) else a for a in lin_args]
                lin, win = run_linux(*lin_args), run_windows(*win_args)
                self.assertEqual(win.returncode, lin.returncode, win.stderr.decode(errors='replace'))
                self.assertEqual(win.stdout, lin.stdout)
                # the same words, the file named as each system names it
                said = win.stderr.decode()
                for w, l in zip(win_args, lin_args):
                    said = said.replace(w, l)
                self.assertEqual(said, lin.stderr.decode())
        self.assertEqual((work / 'taken.mcap').read_bytes(), b'mine')


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument('--exe', required=True)
    parser.add_argument('--linux-cli', required=True)
    parser.add_argument('--data', required=True)
    parser.add_argument('--wineprefix', required=True)
    parser.add_argument('--wine', default='wine')
    ARGS, rest = parser.parse_known_args()
    ARGS.data = str(Path(ARGS.data).resolve())
    ARGS.exe, ARGS.linux_cli = str(Path(ARGS.exe).resolve()), str(Path(ARGS.linux_cli).resolve())
    for what, path in [('--exe', ARGS.exe), ('--linux-cli', ARGS.linux_cli)]:
        if not Path(path).is_file():
            sys.exit(f'FAIL: {what} {path} does not exist (scripts/check-windows.sh builds it)')
    if not shutil.which(ARGS.wine):
        sys.exit(f'FAIL: {ARGS.wine} not found (scripts/setup.sh --windows installs it)')
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)


if __name__ == '__main__':
    main()
