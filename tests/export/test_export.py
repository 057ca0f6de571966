#!/usr/bin/python3
"""bagscope-cli export, checked with independent readers.

The reference is the ROS 1 fixture as python3-rosbag decodes it (clouds unpacked here with
numpy from each message's own fields, point_step and row_step; images from their raw
bytes). The exports are read back with Open3D, PCL's command line tools, OpenCV, pandas
and numpy. Run by CTest:

    /usr/bin/python3 tests/export/test_export.py --cli build/release/bin/bagscope-cli --data tests/data
"""
import datetime
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import cv2
import numpy as np
import open3d as o3d
import pandas as pd
import genpy
import rosbag

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'common'))
from script_args import parse_script_args  # noqa: E402  (tests/common)

ARGS = None
BAG = 'ros1/demo_uncompressed.bag'
NUMPY_TYPES = {1: 'i1', 2: 'u1', 3: 'i2', 4: 'u2', 5: 'i4', 6: 'u4', 7: 'f4', 8: 'f8'}


def data(rel):
    return os.path.join(ARGS.data, rel)


def cli(*args, check=True):
    p = subprocess.run([ARGS.cli, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f'bagscope-cli {" ".join(args)} -> {p.returncode}\n{p.stderr}')
    return p


def messages(topic, bag=BAG):
    with rosbag.Bag(data(bag)) as b:
        return [(m, t.to_nsec()) for _, m, t in b.read_messages(topics=[topic])]


def read_json(path):
    with open(path) as f:
        return json.load(f)


def reference_cloud(msg):
    """The points of a PointCloud2, decoded from its fields with numpy (row padding skipped)."""
    order = '>' if msg.is_bigendian else '<'
    names, formats, offsets = [], [], []
    for f in msg.fields:
        base = np.dtype(order + NUMPY_TYPES[f.datatype])
        names.append(f.name)
        formats.append(base if f.count == 1 else (base, f.count))
        offsets.append(f.offset)
    dtype = np.dtype({'names': names, 'formats': formats, 'offsets': offsets, 'itemsize': msg.point_step})
    raw = np.frombuffer(msg.data, np.uint8)
    rows = [raw[r * msg.row_step: r * msg.row_step + msg.width * msg.point_step] for r in range(msg.height)]
    return np.concatenate(rows).view(dtype)


def pcl_ascii(path):
    """PCL's own reading of a PCD: converted to ASCII with pcl_convert_pcd_ascii_binary."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'ascii.pcd')
        subprocess.run(['pcl_convert_pcd_ascii_binary', path, out, '0'], check=True, capture_output=True)
        with open(out) as f:
            lines = f.read().splitlines()
    header = {}
    for i, line in enumerate(lines):
        key, _, value = line.partition(' ')
        header[key] = value.split()
        if key == 'DATA':
            body = lines[i + 1:]
            break
    table = np.array([[float(v) for v in line.split()] for line in body if line.strip()])
    return header, table


def read_ply(path):
    """A PLY's vertex properties, parsed here from its header (binary_little_endian or ascii)."""
    types = {'char': 'i1', 'uchar': 'u1', 'short': '<i2', 'ushort': '<u2', 'int': '<i4', 'uint': '<u4',
             'float': '<f4', 'double': '<f8'}
    with open(path, 'rb') as f:
        blob = f.read()
    end = blob.index(b'end_header\n') + len(b'end_header\n')
    props, count, fmt = [], 0, None
    for line in blob[:end].decode().splitlines():
        parts = line.split()
        if parts[0] == 'format':
            fmt = parts[1]
        elif parts[:2] == ['element', 'vertex']:
            count = int(parts[2])
        elif parts[0] == 'property':
            props.append((parts[2], types[parts[1]]))
    dtype = np.dtype(props)
    if fmt == 'ascii':
        rows = np.loadtxt(blob[end:].decode().splitlines(), ndmin=2)
        out = np.zeros(count, dtype)
        for k, (name, _) in enumerate(props):
            out[name] = rows[:, k]
        return out
    return np.frombuffer(blob[end:], dtype, count=count)


def read_bytes(path):
    with open(path, 'rb') as f:
        return f.read()


def files(folder, ext):
    return sorted(os.path.join(r, f) for r, _, fs in os.walk(folder) for f in fs if f.endswith(ext))


def read_las(paths):
    """What loaders.gl's LAS loader (@loaders.gl/las, read_las.mjs) reads from each file."""
    run = subprocess.run(['node', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'read_las.mjs'),
                          os.path.abspath(ARGS.npm_cache), *paths], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f'@loaders.gl/las refused {paths}: {run.stderr}')
    return [json.loads(line) for line in run.stdout.splitlines()]


def las_header_and_gps_times(path):
    """The version, point format and each point's GPS time, read here from the bytes at the
    places the LAS 1.2 specification gives (loaders.gl does not read GPS time)."""
    blob = read_bytes(path)
    offset, = np.frombuffer(blob, '<u4', 1, 96)
    length, = np.frombuffer(blob, '<u2', 1, 105)
    count, = np.frombuffer(blob, '<u4', 1, 107)
    encoding, = np.frombuffer(blob, '<u2', 1, 6)
    records = np.frombuffer(blob, np.uint8, count * length, offset).reshape(count, length)
    gps = records[:, 20:28].copy().view('<f8').ravel()
    day, year = np.frombuffer(blob, '<u2', 2, 90)
    return (blob[24], blob[25]), blob[104], int(encoding), gps, (int(year), int(day))


def adjusted_gps_time(stamp):
    """ROS time (Unix) as adjusted standard GPS time: GPS epoch 1980-01-06, 18 leap seconds."""
    return stamp.secs - 315964800 + 18 - 1e9 + stamp.nsecs / 1e9


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = self.tmp.name

    def tearDown(self):
        leftovers = [f for r, _, fs in os.walk(self.out) for f in fs if '.part-' in f]
        self.assertEqual(leftovers, [], 'temporary files left behind')
        self.tmp.cleanup()

    # ---- clouds ----------------------------------------------------------------------------

    def test_pcd_every_encoding_reads_back_exactly_in_open3d_and_pcl(self):
        for topic in ('/points', '/points_organized'):
            refs = messages(topic)
            for encoding in ('binary', 'ascii', 'binary_compressed'):
                out = os.path.join(self.out, encoding + topic.replace('/', '_'))
                cli('export', data(BAG), '--format', 'pcd', '--topic', topic, '--pcd-encoding', encoding, '--out', out)
                pcds = files(out, '.pcd')
                self.assertEqual(len(pcds), len(refs))
                self.assertEqual(os.path.basename(pcds[3]), 'demo_uncompressed_frame_000003.pcd')
                for path, (msg, _) in zip(pcds, refs):
                    ref = reference_cloud(msg)
                    cloud = o3d.t.io.read_point_cloud(path)
                    pos = cloud.point.positions.numpy()
                    self.assertEqual(pos.shape[0], msg.width * msg.height, path)
                    xyz = np.stack([ref['x'], ref['y'], ref['z']], axis=1).astype(np.float32)
                    np.testing.assert_array_equal(pos, xyz, err_msg=f'{path}: x, y, z (NaN kept for an organized cloud)')
                    np.testing.assert_array_equal(cloud.point.intensity.numpy()[:, 0], ref['intensity'])
                    if topic == '/points':
                        np.testing.assert_array_equal(cloud.point.ring.numpy()[:, 0], ref['ring'])
                        np.testing.assert_array_equal(cloud.point.time.numpy()[:, 0], ref['time'])
                # PCL reads the same file: every field, organized width x height kept.
                header, table = pcl_ascii(pcds[-1])
                ref = reference_cloud(refs[-1][0])
                self.assertEqual(header['WIDTH'], [str(refs[-1][0].width)])
                self.assertEqual(header['HEIGHT'], [str(refs[-1][0].height)])
                for k, name in enumerate(header['FIELDS']):
                    np.testing.assert_allclose(table[:, k], ref[name].astype(np.float64), rtol=1e-6, equal_nan=True,
                                               err_msg=f'PCL reading {name} of {pcds[-1]}')

    def test_axes_remap_moves_every_point_and_is_in_the_manifest(self):
        # --axes z,-y,x: new x = old z, new y = -old y, new z = old x (worked out here from the
        # points python3-rosbag decodes), in the PCD Open3D reads and in the KITTI .bin.
        refs = messages('/points')
        out = os.path.join(self.out, 'axes')
        cli('export', data(BAG), '--format', 'pcd', '--topic', '/points', '--axes', 'z,-y,x', '--out', out)
        pcds = files(out, '.pcd')
        self.assertEqual(len(pcds), len(refs))
        for path, (msg, _) in zip(pcds, refs):
            ref = reference_cloud(msg)
            pos = o3d.t.io.read_point_cloud(path).point.positions.numpy()
            want = np.stack([ref['z'], -ref['y'], ref['x']], axis=1).astype(np.float32)
            np.testing.assert_array_equal(pos, want, err_msg=path)
        self.assertEqual(read_json(os.path.join(out, 'manifest.json'))['axes'], 'z,-y,x')
        bins = os.path.join(self.out, 'axes_bin')
        cli('export', data(BAG), '--format', 'bin', '--topic', '/points', '--axes', '-y,x,z', '--out', bins)
        ref = reference_cloud(refs[0][0])
        finite = np.isfinite(ref['x']) & np.isfinite(ref['y']) & np.isfinite(ref['z'])
        got = np.fromfile(files(bins, '.bin')[0], np.float32).reshape(-1, 4)
        np.testing.assert_array_equal(got[:, 0], -ref['y'][finite])
        np.testing.assert_array_equal(got[:, 1], ref['x'][finite])
        for bad in ('x,y', 'x,x,z', 'x,y,w', 'x,y,z,x'):
            p = cli('export', data(BAG), '--format', 'pcd', '--axes', bad, '--out', out, check=False)
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn('--axes', p.stderr)

    def test_transforms_are_found_by_type_whatever_the_topic(self):
        # tf_old.bag (gen_tf_old.py): tf/tfMessage on /tf and a latched /tf_static,
        # tf2_msgs/TFMessage on /robot/tf. Each cloud at t in {0.5, 1, 1.5} s moves into map by
        # (1, 2, 0) + (t, 0, 0) + (0.5, 0, 1.2).
        out = os.path.join(self.out, 'tf_old')
        cli('export', data('ros1/tf_old.bag'), '--format', 'pcd', '--frame', 'map', '--out', out)
        points = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float64)
        for path, t in zip(files(out, '.pcd'), (0.5, 1.0, 1.5)):
            moved = o3d.t.io.read_point_cloud(path).point.positions.numpy()
            np.testing.assert_allclose(moved, points + [1.5 + t, 2, 1.2], rtol=1e-6, err_msg=path)
        manifest = read_json(os.path.join(out, 'manifest.json'))
        self.assertEqual(manifest['frames']['lidar']['parent'], 'base_link')
        self.assertEqual(manifest['frames']['lidar']['translation'], [0.5, 0.0, 1.2])

    def test_ply_binary_and_ascii_with_renamed_fields_and_normalised_intensity(self):
        msg = messages('/points')[5][0]
        ref = reference_cloud(msg)
        for mode in ([], ['--ascii']):
            out = os.path.join(self.out, 'ply' + ''.join(mode))
            cli('export', data(BAG), '--format', 'ply', '--topic', '/points', '--out', out, *mode,
                '--fields', 'x,y,z,intensity=i,time=t,ring=c', '--normalise-intensity')
            path = files(out, '.ply')[5]
            ply = read_ply(path)
            self.assertEqual(ply.dtype.names, ('x', 'y', 'z', 'i', 't', 'c'))
            self.assertEqual(ply.dtype['c'], np.dtype('<u2'))
            np.testing.assert_array_equal(ply['x'], ref['x'])
            np.testing.assert_array_equal(ply['t'], ref['time'])
            np.testing.assert_array_equal(ply['c'], ref['ring'])
            expected = (ref['intensity'].astype(np.float64) / ref['intensity'].max()).astype(np.float32)
            np.testing.assert_allclose(ply['i'], expected, rtol=1e-6)
            self.assertEqual(ply['i'].max(), 1.0)
            # Open3D reads the positions of the same file.
            pts = np.asarray(o3d.io.read_point_cloud(path).points)
            np.testing.assert_allclose(pts[:, 2], ref['z'], rtol=1e-6)

    def exported_clouds(self, fmt, topic):
        """Each cloud of `topic` exported as `fmt` (one file per message, checked), with its
        message, its reference points and which of them have finite coordinates."""
        refs = messages(topic)
        out = os.path.join(self.out, fmt)
        cli('export', data(BAG), '--format', fmt, '--topic', topic, '--out', out)
        paths = files(out, '.' + fmt)
        self.assertEqual(len(paths), len(refs))
        for path, (msg, _) in zip(paths, refs):
            ref = reference_cloud(msg)
            yield path, msg, ref, np.isfinite(ref['x']) & np.isfinite(ref['y']) & np.isfinite(ref['z'])

    def test_kitti_bin_and_npy_clouds(self):
        refs = messages('/points_organized')
        for path, _, ref, finite in self.exported_clouds('bin', '/points_organized'):
            pts = np.fromfile(path, dtype='<f4').reshape(-1, 4)
            self.assertEqual(len(pts), finite.sum())  # beams without a return are left out
            np.testing.assert_array_equal(pts[:, 0], ref['x'][finite])
            np.testing.assert_array_equal(pts[:, 3], ref['intensity'][finite].astype(np.float32))
        out = os.path.join(self.out, 'npy')
        cli('export', data(BAG), '--format', 'npy', '--topic', '/points_organized', '--out', out)
        arr = np.load(files(out, '.npy')[2])
        ref = reference_cloud(refs[2][0])
        self.assertEqual(arr.shape, (16, 128))  # organized stays rows x columns
        self.assertEqual(arr.dtype['intensity'], np.dtype('u1'))
        np.testing.assert_array_equal(arr['x'].ravel(), ref['x'])
        np.testing.assert_array_equal(arr['intensity'].ravel(), ref['intensity'])

    def test_las_clouds_read_back_in_loaders_gl(self):
        # LAS 1.2 point format 3 (issue #35): positions to the millimetre, intensity, the
        # cloud's stamp as GPS time; only finite points (LAS cannot mark one missing).
        clouds = list(self.exported_clouds('las', '/points'))
        for (path, msg, ref, finite), got in zip(clouds, read_las([c[0] for c in clouds])):
            self.assertEqual(got['pointFormat'], 3)
            self.assertEqual(got['count'], finite.sum())
            xyz = np.array(got['positions']).reshape(-1, 3)
            for k, axis in enumerate('xyz'):
                np.testing.assert_allclose(xyz[:, k], ref[axis][finite], rtol=0, atol=0.0005 + 1e-9)
            np.testing.assert_array_equal(got['intensity'], np.clip(np.round(ref['intensity'][finite]), 0, 65535))
            self.assertEqual(got['colours'][:4], [0, 0, 0, 255])  # no colour in the cloud
            version, point_format, encoding, gps, _ = las_header_and_gps_times(path)
            self.assertEqual((version, point_format, encoding & 1), ((1, 2), 3, 1))
            np.testing.assert_allclose(gps, adjusted_gps_time(msg.header.stamp), rtol=0, atol=1e-6)

        # Colour (a packed rgb), 16-bit intensity and a NaN point, in a bag written here.
        from sensor_msgs.msg import PointCloud2, PointField
        import rospy
        n = 50
        rng = np.random.default_rng(7)
        pts = np.zeros(n, dtype=[('x', '<f4'), ('y', '<f4'), ('z', '<f4'), ('rgb', '<u4'), ('intensity', '<u2')])
        for axis in 'xyz':
            pts[axis] = rng.uniform(-50, 50, n)
        pts['x'][5] = np.nan
        rgb = rng.integers(0, 256, (n, 3))
        pts['rgb'] = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
        pts['intensity'] = rng.integers(0, 65536, n)
        bag = os.path.join(self.out, 'rgb.bag')
        with rosbag.Bag(bag, 'w') as b:
            m = PointCloud2(height=1, width=n, point_step=18, row_step=18 * n, is_dense=False,
                            fields=[PointField(a, 4 * k, 7, 1) for k, a in enumerate('xyz')] +
                                   [PointField('rgb', 12, 7, 1), PointField('intensity', 16, 4, 1)],
                            data=pts.tobytes())
            m.header.stamp = rospy.Time(1800000000, 250000000)
            b.write('/rgb_cloud', m, rospy.Time(1800000000))
        out = os.path.join(self.out, 'las_rgb')
        cli('export', bag, '--format', 'las', '--out', out)
        path, = files(out, '.las')
        got, = read_las([path])
        keep = np.arange(n) != 5
        self.assertEqual(got['count'], n - 1)
        np.testing.assert_array_equal(np.array(got['colours']).reshape(-1, 4)[:, :3], rgb[keep])
        np.testing.assert_array_equal(got['intensity'], pts['intensity'][keep])
        xyz = np.array(got['positions']).reshape(-1, 3)
        np.testing.assert_allclose(xyz[:, 1], pts['y'][keep], rtol=0, atol=0.0005 + 1e-6)
        np.testing.assert_allclose(got['mins'], [pts[a][keep].min() for a in 'xyz'], rtol=0, atol=1e-6)
        np.testing.assert_allclose(got['maxs'], [pts[a][keep].max() for a in 'xyz'], rtol=0, atol=1e-6)
        _, _, _, gps, created = las_header_and_gps_times(path)
        np.testing.assert_allclose(gps, 1800000000.25 - 315964800 + 18 - 1e9, rtol=0, atol=1e-6)
        stamp_date = datetime.datetime.fromtimestamp(1800000000, datetime.timezone.utc)
        self.assertEqual(created, (stamp_date.year, stamp_date.timetuple().tm_yday))  # the cloud's date

    def test_ros2_clouds_agree_between_mcap_and_db3_and_with_the_expected_shape(self):
        with open(data('ros2/demo.expected.jsonl')) as f:
            expected = [json.loads(line) for line in f]
        shapes = [(e['msg']['width'], e['msg']['height']) for e in expected if e['topic'] == '/points_organized']
        outs = []
        for src in ('ros2/demo.mcap', 'ros2/demo_db3'):
            out = os.path.join(self.out, os.path.basename(src))
            cli('export', data(src), '--format', 'pcd', '--topic', '/points_organized', '--out', out, '--name', 'f_{index}.pcd')
            outs.append([read_bytes(p) for p in files(out, '.pcd')])
            for path, (w, h) in zip(files(out, '.pcd'), shapes):
                self.assertEqual(o3d.t.io.read_point_cloud(path).point.positions.shape[0], w * h)
        self.assertEqual(len(outs[0]), len(shapes))
        self.assertEqual(outs[0], outs[1])

    # ---- images and video ------------------------------------------------------------------

    def test_png_is_lossless_in_colour_mono_and_16_bit_depth(self):
        for topic, convert in (('/camera/image_bgr', None), ('/camera/image_raw', cv2.COLOR_RGB2BGR),
                               ('/camera/image_mono', None), ('/camera/depth', None)):
            out = os.path.join(self.out, topic.replace('/', '_'))
            cli('export', data(BAG), '--format', 'png', '--topic', topic, '--out', out)
            pngs = files(out, '.png')
            refs = messages(topic)
            self.assertEqual(len(pngs), len(refs))
            for path, (msg, _) in zip(pngs, refs):
                depth = np.uint16 if msg.encoding in ('16UC1', 'mono16') else np.uint8
                channels = msg.step // msg.width // np.dtype(depth).itemsize
                ref = np.frombuffer(msg.data, depth).reshape(msg.height, msg.width, channels).squeeze()
                if convert is not None:
                    ref = cv2.cvtColor(ref, convert)
                img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
                self.assertEqual(img.dtype, ref.dtype, path)
                np.testing.assert_array_equal(img, ref, err_msg=path)

    def test_compressed_images_keep_their_bytes_and_jpeg_re_encodes_raw_frames(self):
        out = os.path.join(self.out, 'jpeg')
        cli('export', data(BAG), '--format', 'jpeg', '--topic', '/camera/image_raw/compressed', '--out', out)
        jpgs = files(out, '.jpg')
        refs = messages('/camera/image_raw/compressed')
        self.assertEqual([read_bytes(p) for p in jpgs], [bytes(m.data) for m, _ in refs])
        out = os.path.join(self.out, 'raw_jpeg')
        cli('export', data(BAG), '--format', 'jpeg', '--quality', '98', '--topic', '/camera/image_raw', '--out', out)
        msg = messages('/camera/image_raw')[0][0]
        ref = cv2.cvtColor(np.frombuffer(msg.data, np.uint8).reshape(48, 64, 3), cv2.COLOR_RGB2BGR)
        img = cv2.imread(files(out, '.jpg')[0])
        self.assertGreater(cv2.PSNR(img, ref), 30)

    def test_foxglove_protobuf_images_and_clouds_export_like_ros_ones(self):
        # mcap_foreign/foxglove.mcap: written by @mcap/core with protobufjs (its README).
        bag = data('mcap_foreign/foxglove.mcap')
        out = os.path.join(self.out, 'fox')
        cli('export', bag, '--format', 'pcd', '--topic', '/lidar', '--out', os.path.join(out, 'pcd'))
        with open(data('mcap_foreign/foxglove.points.json')) as f:
            expected = json.load(f)
        pcds = files(os.path.join(out, 'pcd'), '.pcd')
        self.assertEqual(len(pcds), len(expected))
        for path, points in zip(pcds, expected):
            cloud = o3d.t.io.read_point_cloud(path)
            ref = np.array(points, dtype=np.float64)
            np.testing.assert_array_equal(cloud.point.positions.numpy(), ref[:, :3].astype(np.float32), err_msg=path)
            np.testing.assert_array_equal(cloud.point.intensity.numpy()[:, 0], ref[:, 3].astype(np.uint8), err_msg=path)
        # The JPEG's bytes as they are; the rgb8 raw image lossless in PNG (BGR on disk).
        cli('export', bag, '--format', 'jpeg', '--topic', '/camera/jpeg', '--out', os.path.join(out, 'jpg'))
        jpgs = files(os.path.join(out, 'jpg'), '.jpg')
        self.assertEqual(len(jpgs), 3)
        self.assertEqual(read_bytes(jpgs[0]), read_bytes(data('mcap_foreign/frame.jpg')))
        cli('export', bag, '--format', 'png', '--topic', '/camera/raw', '--out', os.path.join(out, 'png'))
        pngs = files(os.path.join(out, 'png'), '.png')
        self.assertEqual(len(pngs), 3)
        # {stamp_ns} from the Foxglove timestamp (1700000000 s + i * 0.1 s, make_foreign.mjs)
        cli('export', bag, '--format', 'png', '--topic', '/camera/raw', '--name', '{stamp_ns}.{ext}',
            '--out', os.path.join(out, 'stamped'))
        self.assertEqual([os.path.basename(p) for p in files(os.path.join(out, 'stamped'), '.png')],
                         [f'{1700000000 * 10**9 + i * 10**8}.png' for i in range(3)])
        for i, path in enumerate(pngs):
            rgb = ((np.arange(24) * 10 + i) & 255).astype(np.uint8).reshape(2, 4, 3)
            np.testing.assert_array_equal(cv2.imread(path, cv2.IMREAD_UNCHANGED), rgb[:, :, ::-1], err_msg=path)
        # Clouds moved into a frame of foxglove.FrameTransform messages on /tf (x + i at stamp i).
        cli('export', bag, '--format', 'pcd', '--topic', '/lidar', '--frame', 'map', '--out', os.path.join(out, 'map'))
        for i, path in enumerate(files(os.path.join(out, 'map'), '.pcd')):
            ref = np.array(expected[i], dtype=np.float64)[:, :3] + [i, 0, 1]
            np.testing.assert_allclose(o3d.t.io.read_point_cloud(path).point.positions.numpy(), ref, rtol=1e-6, err_msg=path)

    def test_names_from_a_recording_never_leave_the_output_folder(self):
        # A bag (python3-rosbag) whose topic names are path tricks; and a reserved Windows name.
        from std_msgs.msg import String
        bag_path = os.path.join(self.out, 'tricks.bag')
        with rosbag.Bag(bag_path, 'w') as b:
            for topic in ('////..', '/a/../../escape', '/CON', '/ok'):
                b.write(topic, String(data='x'), genpy.Time(1700000000, 0))
        box = os.path.join(self.out, 'box')
        out = os.path.join(box, 'out')
        cli('export', bag_path, '--format', 'csv', '--out', out)
        written = sorted(os.path.relpath(os.path.join(r, f), box) for r, _, fs in os.walk(box) for f in fs)
        self.assertTrue(all(p.startswith('out' + os.sep) for p in written), written)
        self.assertEqual(sorted(os.listdir(self.out)), ['box', 'tricks.bag'])  # nothing beside box/
        names = sorted(os.listdir(out))
        # {bag}_{topic}.csv: '..' -> '_._' (trailing dot replaced, leading dot prefixed), 'CON' -> '_CON', '/' -> '_'
        self.assertEqual(names, ['manifest.json', 'tricks__._.csv', 'tricks__CON.csv', 'tricks_a_.._.._escape.csv',
                                 'tricks_ok.csv'])
        # A topic as a folder: '..' must not climb out of --out.
        inner = os.path.join(self.out, 'box2', 'out')
        cli('export', bag_path, '--format', 'csv', '--name', '{topic}/{bag}.{ext}', '--out', inner)
        written = [os.path.relpath(os.path.join(r, f), inner) for r, _, fs in os.walk(os.path.dirname(inner)) for f in fs]
        self.assertTrue(all(not p.startswith('..') for p in written), written)
        self.assertIn(os.path.join('_._', 'tricks.csv'), written)
        # Templates that leave the folder are refused before anything is written (exit 2).
        for template in ('/abs/dir/{topic}_{index}.{ext}', '{topic}/../../../x_{index}.{ext}'):
            p = cli('export', bag_path, '--format', 'csv', '--name', template, '--out', os.path.join(self.out, 't'), check=False)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn('output folder', p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, 't')))
        self.assertFalse(os.path.exists('/abs'))

    def test_topics_that_would_share_a_file_name_get_names_of_their_own(self):
        # /imu/data and /imu_data; /tf in two types (tf/tfMessage, tf2_msgs/TFMessage): a bag
        # written by rosbags (python3-rosbag keeps one connection per topic).
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.rosbag1 import Writer
        from rosbags.typesys import Stores, get_typestore, get_types_from_msg
        store = get_typestore(Stores.ROS1_NOETIC)
        for name in ('tf/msg/tfMessage', 'tf2_msgs/msg/TFMessage'):  # the same definition under both names
            store.register(get_types_from_msg('geometry_msgs/TransformStamped[] transforms', name))
        T = store.types
        def tf(type_name, child):
            header = T['std_msgs/msg/Header'](seq=0, stamp=T['builtin_interfaces/msg/Time'](sec=0, nanosec=0),
                                              frame_id='map')
            transform = T['geometry_msgs/msg/Transform'](translation=T['geometry_msgs/msg/Vector3'](x=0, y=0, z=0),
                                                         rotation=T['geometry_msgs/msg/Quaternion'](x=0, y=0, z=0, w=1))
            stamped = T['geometry_msgs/msg/TransformStamped'](header=header, child_frame_id=child, transform=transform)
            return store.serialize_ros1(T[type_name](transforms=[stamped]), type_name)
        bag_path = os.path.join(self.out, 'clash.bag')
        ns = 1700000000 * 10**9
        with Writer(Path(bag_path)) as w:
            a = w.add_connection('/imu/data', 'std_msgs/msg/Int32', typestore=store)
            b = w.add_connection('/imu_data', 'std_msgs/msg/Int32', typestore=store)
            old = w.add_connection('/tf', 'tf/msg/tfMessage', typestore=store)
            new = w.add_connection('/tf', 'tf2_msgs/msg/TFMessage', typestore=store)
            int32 = lambda v: store.serialize_ros1(T['std_msgs/msg/Int32'](data=v), 'std_msgs/msg/Int32')
            for i in range(3):
                w.write(a, ns + i, int32(i))
            for i in range(5):
                w.write(b, ns + 10 + i, int32(100 + i))
            for i in range(2):
                w.write(old, ns + 10**9 + i, tf('tf/msg/tfMessage', f'old{i}'))
            for i in range(4):
                w.write(new, ns + 2 * 10**9 + i, tf('tf2_msgs/msg/TFMessage', f'new{i}'))
        out = os.path.join(self.out, 'clash')
        p = cli('export', bag_path, '--format', 'csv', '--out', out, check=False)
        self.assertEqual(p.returncode, 3, p.stderr)  # as every command, it says the topic has two types
        self.assertIn('topic /tf has different types', p.stderr)
        manifest = read_json(os.path.join(out, 'manifest.json'))
        by_topic = {(f['topic'], f['type']): f['file'] for f in manifest['files']}
        self.assertEqual(len(set(by_topic.values())), 4, by_topic)
        def column(key, name):
            return list(pd.read_csv(os.path.join(out, by_topic[key]), keep_default_na=False, dtype=str)[name])
        self.assertEqual(column(('/imu/data', 'std_msgs/Int32'), 'data'), ['0', '1', '2'])
        self.assertEqual(column(('/imu_data', 'std_msgs/Int32'), 'data'), [str(100 + i) for i in range(5)])
        self.assertEqual(column(('/tf', 'tf/tfMessage'), 'transforms[0].child_frame_id'), ['old0', 'old1'])
        self.assertEqual(column(('/tf', 'tf2_msgs/TFMessage'), 'transforms[0].child_frame_id'),
                         [f'new{i}' for i in range(4)])
        self.assertIn('tf2_msgs-TFMessage', by_topic[('/tf', 'tf2_msgs/TFMessage')])
        # A name template of the user's that gives files one name is refused before anything is
        # written, as a command-line error naming the clash; one that tells them apart is used.
        p = cli('export', bag_path, '--format', 'csv', '--name', '{topic}.{ext}', '--out', os.path.join(self.out, 'x'),
                check=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn('/imu/data (std_msgs/Int32) and /imu_data (std_msgs/Int32)', p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, 'x')))
        timed = os.path.join(self.out, 'timed')
        cli('export', bag_path, '--format', 'csv', '--topic', '/tf', '--name', '{bag}_{topic}_{log_time_ns}.{ext}',
            '--out', timed, check=False)
        self.assertEqual(sorted(os.listdir(timed)), ['clash_tf_1700000001000000000.csv', 'clash_tf_1700000002000000000.csv',
                                                     'manifest.json'])

    def test_a_recording_read_past_damage_is_said_and_exits_3(self):
        # rosbag's .bag.active (a crashed recording, no index): the 500 complete messages are
        # exported, and like info and cat the export says what was recovered and exits 3.
        active = os.path.join(self.out, 'recording.bag.active')
        with open(data('ros1/demo_crashed.bag'), 'rb') as src, open(active, 'wb') as dst:
            dst.write(src.read())
        p = cli('export', active, '--format', 'csv', '--topic', '/imu', '--out', os.path.join(self.out, 'active'),
                check=False)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn('recovered 500 messages by scanning', p.stderr)
        self.assertIn('recording.bag.active', p.stderr)
        with rosbag.Bag(data('ros1/demo_uncompressed.bag')) as b:
            in_crashed = [t.to_nsec() for _, _, t in b.read_messages(topics=['/imu'])]
        imu = pd.read_csv(os.path.join(self.out, 'active', 'recording.bag_imu.csv'))
        self.assertGreater(len(imu), 0)
        self.assertTrue(set(imu['log_time_ns']) <= set(in_crashed))

    def test_stale_temporary_files_of_a_killed_export_are_removed_next_time(self):
        out = os.path.join(self.out, 'again')
        os.makedirs(os.path.join(out, 'sub'))
        stale = os.path.join(out, 'sub', '.demo_frame_000003.part-0123456789ab.pcd')  # as kill -9 leaves one
        fresh = os.path.join(out, '.demo_frame_000004.part-abcdef012345.pcd')       # a concurrent export's
        mine = os.path.join(out, '.notes.part-mine.txt')                              # not our pattern
        for path in (stale, fresh, mine):
            with open(path, 'wb') as f:
                f.write(b'x')
        hour_ago = time.time() - 3600
        os.utime(stale, (hour_ago, hour_ago))
        os.utime(mine, (hour_ago, hour_ago))
        p = cli('export', data(BAG), '--format', 'csv', '--topic', '/imu', '--out', out)
        self.assertFalse(os.path.exists(stale))
        self.assertTrue(os.path.exists(fresh) and os.path.exists(mine))
        self.assertIn('removed 1 unfinished temporary files', p.stderr)
        os.remove(fresh)  # tearDown checks that no part is left
        os.remove(mine)

    def test_a_full_disk_stops_the_export_at_the_first_failed_write(self):
        # A file size limit (RLIMIT_FSIZE, SIGXFSZ ignored) makes writes past 40 kB fail as
        # a full disk does: one error, the rest not attempted, exit 4, no partial file.
        import resource

        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (40000, 40000))
        out = os.path.join(self.out, 'full')
        p = subprocess.run([ARGS.cli, 'export', data(BAG), '--format', 'pcd', '--pcd-encoding', 'ascii', '--topic', '/points',
                            '--jobs', '1', '--out', out], capture_output=True, text=True, preexec_fn=limit)
        self.assertEqual(p.returncode, 4, p.stderr)
        self.assertEqual(p.stderr.count('file cannot be written'), 1, p.stderr)
        self.assertIn('stopped at the first file that could not be written', p.stderr)
        self.assertIn('not written: the export stopped', p.stderr)
        # The error names the file the user asked for, not the hidden temporary one.
        self.assertIn("demo_uncompressed_frame_000000.pcd': writing failed", p.stderr)
        self.assertNotIn('.part-', p.stderr)
        self.assertEqual(files(out, '.pcd'), [], 'a 20,000-point ASCII cloud is over 40 kB: none is complete')

    def test_a_damaged_chunk_is_counted_not_dropped_silently(self):
        # 64 bytes of the lz4 MCAP fixture flipped (a third into the file): the CSV export of
        # every topic still runs, says what it could not read, and exits 3.
        damaged = os.path.join(self.out, 'damaged_lz4.mcap')
        with open(data('ros2/demo_lz4.mcap'), 'rb') as f:
            blob = bytearray(f.read())
        for i in range(len(blob) // 3, len(blob) // 3 + 64):
            blob[i] ^= 0x55
        with open(damaged, 'wb') as f:
            f.write(blob)
        p = cli('export', damaged, '--format', 'csv', '--out', os.path.join(self.out, 'dmg'), check=False)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn('damaged data cannot be read', p.stderr)
        self.assertEqual(p.stderr.count('lz4 stream ends without its end marker'), 1, p.stderr)  # said once

    def test_video_has_every_frame_at_the_topic_rate(self):
        for fmt in ('mp4', 'avi'):
            out = os.path.join(self.out, fmt)
            cli('export', data(BAG), '--format', fmt, '--topic', '/camera/image_raw', '--out', out)
            path = files(out, '.' + fmt)[0]
            self.assertEqual(os.path.basename(path), 'demo_uncompressed_camera_image_raw.' + fmt)
            cap = cv2.VideoCapture(path)
            frames = 0
            while cap.read()[0]:
                frames += 1
            self.assertEqual(frames, 20)
            self.assertAlmostEqual(cap.get(cv2.CAP_PROP_FPS), 10.0, places=3)
            self.assertEqual((cap.get(cv2.CAP_PROP_FRAME_WIDTH), cap.get(cv2.CAP_PROP_FRAME_HEIGHT)), (64, 48))

    # ---- tables ----------------------------------------------------------------------------

    def test_csv_opens_in_pandas_with_the_right_values_and_types(self):
        out = os.path.join(self.out, 'csv')
        cli('export', data(BAG), '--format', 'csv', '--topic', '/imu', '--topic', '/chatter', '--topic', '/number',
            '--topic', '/gps', '--out', out)
        # The file holds every double exactly (shortest round-trip form); pandas' default
        # parser can be one ulp off, its round_trip parser is exact.
        imu = pd.read_csv(os.path.join(out, 'demo_uncompressed_imu.csv'), float_precision='round_trip')
        refs = messages('/imu')
        self.assertEqual(len(imu), len(refs))
        self.assertEqual(imu['log_time_ns'].dtype, np.int64)
        self.assertEqual(imu['header.seq'].dtype, np.int64)
        self.assertEqual(imu['linear_acceleration.z'].dtype, np.float64)
        self.assertEqual(list(imu['log_time_ns']), [t for _, t in refs])
        self.assertEqual(list(imu['stamp_ns']), [m.header.stamp.to_nsec() for m, _ in refs])
        self.assertEqual(list(imu['header.stamp']), [m.header.stamp.to_nsec() for m, _ in refs])
        self.assertEqual(list(imu['linear_acceleration.z']), [m.linear_acceleration.z for m, _ in refs])
        self.assertEqual(list(imu['orientation_covariance[8]']), [m.orientation_covariance[8] for m, _ in refs])
        chatter = pd.read_csv(os.path.join(out, 'demo_uncompressed_chatter.csv'), keep_default_na=False)
        self.assertEqual(list(chatter['data']), [m.data for m, _ in messages('/chatter')])
        self.assertNotIn('stamp_ns', chatter.columns)  # std_msgs/String has no header
        number = pd.read_csv(os.path.join(out, 'demo_uncompressed_number.csv'))
        self.assertEqual(number['data'].dtype, np.int64)
        self.assertEqual(list(number['data']), [m.data for m, _ in messages('/number')])
        gps = pd.read_csv(os.path.join(out, 'demo_uncompressed_gps.csv'))
        self.assertTrue(np.isnan(gps['latitude'][0]))  # the first fix is NaN
        self.assertEqual(list(gps['status.status']), [m.status.status for m, _ in messages('/gps')])

    def test_aligned_table_is_merge_asof_and_interp_of_the_per_topic_tables(self):
        # The per-topic CSVs, and what pandas and numpy make of them on /odom's times.
        per = os.path.join(self.out, 'per_topic')
        cli('export', data(BAG), '--format', 'csv', '--topic', '/odom', '--topic', '/imu', '--topic', '/number',
            '--topic', '/chatter', '--topic', '/gps', '--out', per)
        def table(topic):
            return pd.read_csv(os.path.join(per, f'demo_uncompressed_{topic}.csv'), float_precision='round_trip')
        odom, imu, number, chatter, gps = (table(t) for t in ('odom', 'imu', 'number', 'chatter', 'gps'))
        rows = odom['log_time_ns'].to_numpy()
        joins = [('/imu', imu, ['linear_acceleration.x', 'linear_acceleration.y', 'linear_acceleration.z',
                                'header.seq']),
                 ('/number', number, ['data']), ('/chatter', chatter, ['data']),
                 ('/gps', gps, ['latitude', 'status.status'])]
        args = ['--join', '/odom:pose.pose.position.x', '--join', '/imu:linear_acceleration,header.seq',
                '--join', '/number', '--join', '/chatter', '--join', '/gps:latitude,status.status', '--on', '/odom',
                '--time', 'log']

        def merge_asof(df, cols):
            right = df[['log_time_ns'] + cols]
            m = pd.merge_asof(pd.DataFrame({'log_time_ns': rows}), right, on='log_time_ns', direction='backward')
            m.loc[m['log_time_ns'] > right['log_time_ns'].iloc[-1], cols] = np.nan  # never past the last message
            return m

        out = os.path.join(self.out, 'aligned')
        cli('export', data(BAG), '--format', 'csv', *args, '--out', out)
        got = pd.read_csv(os.path.join(out, 'demo_uncompressed_aligned.csv'), float_precision='round_trip')
        expected_columns = ['log_time_ns', '/odom/pose.pose.position.x'] + \
            [f'{topic}/{c}' for topic, _, cols in joins for c in cols]
        self.assertEqual(list(got.columns), expected_columns)
        np.testing.assert_array_equal(got['log_time_ns'], rows)
        np.testing.assert_array_equal(got['/odom/pose.pose.position.x'], odom['pose.pose.position.x'])
        def same(a, b, what):  # text columns: an empty cell is NaN, which never equals itself in an object array
            if a.dtype == object or b.dtype == object:
                a, b = a.fillna(''), b.fillna('')
            np.testing.assert_array_equal(a.to_numpy(), b.to_numpy(), err_msg=what)
        for topic, df, cols in joins:
            expected = merge_asof(df, cols)
            for c in cols:
                same(got[f'{topic}/{c}'], expected[c], c)
        # Not vacuous: /number ends before /odom does, /gps starts after it, /imu covers it.
        self.assertTrue(got['/number/data'].isna().any() and got['/number/data'].notna().sum() > 5)
        self.assertTrue(np.isnan(got['/gps/status.status'][0]) and got['/gps/status.status'].notna().any())
        self.assertFalse(got['/imu/linear_acceleration.z'].isna().any())

        # Linear: numpy.interp between the messages either side (times as offsets, exact in float64).
        cli('export', data(BAG), '--format', 'csv', *args, '--fill', 'linear', '--out', out, '--overwrite')
        lin = pd.read_csv(os.path.join(out, 'demo_uncompressed_aligned.csv'), float_precision='round_trip')
        t0 = rows[0]
        for topic, df, cols in joins:
            for c in cols:
                if df[c].dtype == object:
                    continue  # text is taken as the last message's
                x = (df['log_time_ns'].to_numpy() - t0).astype(float)
                want = np.interp((rows - t0).astype(float), x, df[c].to_numpy(dtype=float), left=np.nan, right=np.nan)
                np.testing.assert_allclose(lin[f'{topic}/{c}'].to_numpy(), want, rtol=1e-12, atol=1e-12,
                                           equal_nan=True, err_msg=c)
        same(lin['/chatter/data'], merge_asof(chatter, ['data'])['data'], 'text under linear')
        self.assertFalse(np.array_equal(lin['/imu/linear_acceleration.z'], got['/imu/linear_acceleration.z']))

        # NumPy: the same numbers; text left out, columns with empty cells float64 with NaN.
        cli('export', data(BAG), '--format', 'npy', *args, '--out', os.path.join(self.out, 'aligned_npy'))
        arr = np.load(os.path.join(self.out, 'aligned_npy', 'demo_uncompressed_aligned.npy'))
        self.assertEqual(list(arr.dtype.names), [c for c in expected_columns if c != '/chatter/data'])
        self.assertEqual(arr.dtype['log_time_ns'], np.int64)
        self.assertEqual(arr.dtype['/imu/header.seq'], np.uint64)
        self.assertEqual(arr.dtype['/number/data'], np.float64)
        for name in arr.dtype.names:
            np.testing.assert_array_equal(arr[name], got[name].to_numpy(), err_msg=name)

        # A fixed rate with exact matches only: rows every 1/7 s from the first joined message to the last.
        cli('export', data(BAG), '--format', 'csv', '--join', '/imu:angular_velocity.z', '--join', '/number',
            '--rate', '7', '--fill', 'none', '--out', out, '--overwrite')
        rate = pd.read_csv(os.path.join(out, 'demo_uncompressed_aligned.csv'))
        first, last = number['log_time_ns'].iloc[0], imu['log_time_ns'].iloc[-1]
        n = int((last - first) // (1e9 / 7)) + 1
        self.assertEqual(list(rate['log_time_ns']), [first + round(i * 1e9 / 7) for i in range(n)])
        # Exact times only: a row takes the message logged at its very time, else nothing.
        for topic, df, col in (('/number', number, 'data'), ('/imu', imu, 'angular_velocity.z')):
            at = dict(zip(df['log_time_ns'], df[col]))
            want = [at.get(t, np.nan) for t in rate['log_time_ns']]
            np.testing.assert_array_equal(rate[f'{topic}/{col}'].to_numpy(), want, err_msg=topic)
        self.assertEqual(list(rate['/number/data'].notna()), [i % 7 == 0 for i in range(n)])  # every 1 s on /number's 5 Hz

        # What does not make a table is a usage error, with nothing written.
        for bad in (['--join', '/imu'], ['--on', '/imu'], ['--join', '/imu', '--on', '/imu', '--rate', '5'],
                    ['--join', '/imu', '--rate', '5', '--fill', 'nearest']):
            p = cli('export', data(BAG), '--format', 'csv', *bad, '--out', os.path.join(self.out, 'bad'), check=False)
            self.assertEqual(p.returncode, 2, bad)
        p = cli('export', data(BAG), '--format', 'csv', '--join', '/imu:no_such', '--on', '/imu',
                '--out', os.path.join(self.out, 'bad'), check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("'/imu' has no field 'no_such'", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, 'bad', 'demo_uncompressed_aligned.csv')))

    def test_byte_arrays_are_written_like_any_integer_array(self):
        # ROS 1: uint8[], uint8[N], char[N] and byte[] fields and std_msgs/UInt8MultiArray,
        # written by python3-rosbag from definitions given here (genpy builds the classes).
        from genpy.dynamic import generate_dynamic
        from std_msgs.msg import UInt8MultiArray
        definition = 'uint8[] var\nuint8[6] mac\nchar[3] code\nbyte[] raw\nint8[2] signed\n'
        Bytes = generate_dynamic('test_msgs/Bytes', definition)['test_msgs/Bytes']
        bag_path = os.path.join(self.out, 'bytes.bag')
        # ROS 1's byte is int8, its char uint8.
        rows = [([1], bytes([0, 0, 186, 101, 67, 44]), b'abc', [-1, 7], [-1, 2]),
                ([], bytes(6), b'xyz', [], [0, -128]),
                (list(range(20)), bytes([1, 2, 3, 4, 5, 6]), b'\x00\x01\xff', [9], [127, 3])]
        with rosbag.Bag(bag_path, 'w') as b:
            for i, (var, mac, code, raw, signed) in enumerate(rows):
                t = genpy.Time(1700000000, i)
                b.write('/bytes', Bytes(var=bytes(var), mac=mac, code=code, raw=raw, signed=signed), t)
                b.write('/multi', UInt8MultiArray(data=bytes(var)), t)
        out = os.path.join(self.out, 'bytes_csv')
        cli('export', bag_path, '--format', 'csv', '--out', out)
        csv = pd.read_csv(os.path.join(out, 'bytes_bytes.csv'), keep_default_na=False, dtype=str)
        multi = pd.read_csv(os.path.join(out, 'bytes_multi.csv'), keep_default_na=False, dtype=str)
        def cells(values, n):
            return [str(v) for v in values][:n] + [''] * max(0, n - len(values))
        for r, (var, mac, code, raw, signed) in enumerate(rows):
            row = csv.iloc[r]
            self.assertEqual([row[f'var[{i}]'] for i in range(16)], cells(var, 16))
            self.assertEqual([row[f'mac[{i}]'] for i in range(6)], cells(list(mac), 6))
            self.assertEqual([row[f'code[{i}]'] for i in range(3)], cells(list(code), 3))
            self.assertEqual([row[f'raw[{i}]'] for i in range(16)], cells(raw, 16))
            self.assertEqual([row[f'signed[{i}]'] for i in range(2)], cells(signed, 2))
            self.assertEqual([multi.iloc[r][f'data[{i}]'] for i in range(16)], cells(var, 16))
        # The same values in a NumPy table (absent elements 0).
        cli('export', bag_path, '--format', 'npy', '--topic', '/bytes', '--out', os.path.join(self.out, 'bytes_npy'))
        arr = np.load(os.path.join(self.out, 'bytes_npy', 'bytes_bytes.npy'))
        for r, (var, mac, code, raw, signed) in enumerate(rows):
            self.assertEqual([int(arr[f'mac[{i}]'][r]) for i in range(6)], list(mac))
            self.assertEqual([int(arr[f'var[{i}]'][r]) for i in range(16)], (list(var) + [0] * 16)[:16])
        # ROS 2 (CDR): byte[], uint8[N] and char, written by rosbags into a rosbag2 folder.
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.rosbag2 import Writer
        from rosbags.typesys import Stores, get_typestore, get_types_from_msg
        store = get_typestore(Stores.ROS2_HUMBLE)
        store.register(get_types_from_msg('byte[] raw\nuint8[6] mac\nuint8[<=4] bounded\nchar c\n',
                                          'test_msgs/msg/Bytes'))
        Msg = store.types['test_msgs/msg/Bytes']
        folder = os.path.join(self.out, 'bytes2')
        ros2 = [(bytes([255, 0, 7]), [0, 0, 186, 101, 67, 44], [1, 2], 65), (bytes(), [9] * 6, [], 0)]
        with Writer(folder, version=8) as w:
            conn = w.add_connection('/bytes', 'test_msgs/msg/Bytes', typestore=store)
            for i, (raw, mac, bounded, c) in enumerate(ros2):
                msg = Msg(raw=np.frombuffer(raw, dtype=np.uint8), mac=np.array(mac, dtype=np.uint8),
                          bounded=np.array(bounded, dtype=np.uint8), c=c)
                w.write(conn, 1700000000 * 10**9 + i, store.serialize_cdr(msg, 'test_msgs/msg/Bytes'))
        out2 = os.path.join(self.out, 'bytes2_csv')
        msg_dir = os.path.join(self.out, 'msgs', 'test_msgs', 'msg')
        os.makedirs(msg_dir)
        with open(os.path.join(msg_dir, 'Bytes.msg'), 'w') as f:
            f.write('byte[] raw\nuint8[6] mac\nuint8[<=4] bounded\nchar c\n')
        cli('export', folder, '--format', 'csv', '--out', out2, '--msg-path', os.path.join(self.out, 'msgs'))
        csv2 = pd.read_csv(os.path.join(out2, 'bytes2_bytes.csv'), keep_default_na=False, dtype=str)
        for r, (raw, mac, bounded, c) in enumerate(ros2):
            row = csv2.iloc[r]
            self.assertEqual([row[f'raw[{i}]'] for i in range(16)], cells(list(raw), 16))
            self.assertEqual([row[f'mac[{i}]'] for i in range(6)], cells(mac, 6))
            self.assertEqual([row[f'bounded[{i}]'] for i in range(4)], cells(bounded, 4))
            self.assertEqual(row['c'], str(c))

    def test_csv_fields_by_message_path_with_filters_and_slices(self):
        out = os.path.join(self.out, 'csv_paths')
        temp = 'status[0].values[:]{key=="temperature"}.value'
        cli('export', data(BAG), '--format', 'csv', '--topic', '/diagnostics', '--field', 'status[:]{level>=1}.name',
            '--field', temp, '--field', 'status[0:1].level', '--field', 'status[-1].level', '--out', out)
        csv = pd.read_csv(os.path.join(out, 'demo_uncompressed_diagnostics.csv'), keep_default_na=False, dtype=str)
        refs = messages('/diagnostics')
        self.assertEqual(list(csv.columns), ['log_time_ns', 'stamp_ns', 'status[:]{level>=1}.name', temp,
                                             'status[0].level', 'status[1].level', 'status[-1].level'])
        self.assertEqual(list(csv['log_time_ns']), [str(t) for _, t in refs])
        self.assertEqual(list(csv['status[:]{level>=1}.name']),
                         [';'.join(s.name for s in m.status if s.level >= 1) for m, _ in refs])
        self.assertEqual(list(csv[temp]),
                         [';'.join(kv.value for kv in m.status[0].values if kv.key == 'temperature') for m, _ in refs])
        def level(x):  # DiagnosticStatus.level is a ROS 1 byte (int8)
            return str(ord(x) if isinstance(x, bytes) else x)
        for i in (0, 1):
            self.assertEqual(list(csv[f'status[{i}].level']), [level(m.status[i].level) for m, _ in refs])
        self.assertEqual(list(csv['status[-1].level']), [level(m.status[-1].level) for m, _ in refs])
        # A path the type does not have stops the export before anything is written.
        p = cli('export', data(BAG), '--format', 'csv', '--topic', '/diagnostics', '--field', 'status[:]{levl==1}.name',
                '--out', os.path.join(self.out, 'csv_bad'), check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("at column 11: 'diagnostic_msgs/DiagnosticStatus' has no field 'levl'", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, 'csv_bad')))

    def test_npy_table_of_a_numeric_topic(self):
        out = os.path.join(self.out, 'npy')
        cli('export', data(BAG), '--format', 'npy', '--topic', '/odom', '--out', out)
        arr = np.load(os.path.join(out, 'demo_uncompressed_odom.npy'))
        refs = messages('/odom')
        self.assertEqual(arr.shape, (len(refs),))
        np.testing.assert_array_equal(arr['log_time_ns'], [t for _, t in refs])
        np.testing.assert_array_equal(arr['pose.pose.position.x'], [m.pose.pose.position.x for m, _ in refs])
        np.testing.assert_array_equal(arr['twist.covariance[35]'], [m.twist.covariance[35] for m, _ in refs])

    # ---- the command -----------------------------------------------------------------------

    def test_existing_files_are_not_overwritten_unless_asked_and_dry_run_writes_nothing(self):
        out = os.path.join(self.out, 'safe')
        p = cli('export', data(BAG), '--format', 'pcd', '--topic', '/points', '--out', out, '--dry-run')
        self.assertFalse(os.path.exists(out))
        self.assertEqual(len(p.stdout.split()), 20)
        # A whole-topic file (CSV) too: named, not computed, nothing created.
        p = cli('export', data(BAG), '--format', 'csv', '--topic', '/imu', '--out', out, '--dry-run')
        self.assertEqual(p.stdout.split(), [os.path.join(out, 'demo_uncompressed_imu.csv')])
        self.assertFalse(os.path.exists(out))
        cli('export', data(BAG), '--format', 'pcd', '--topic', '/points', '--out', out)
        victim = files(out, '.pcd')[0]
        os.remove(os.path.join(out, 'manifest.json'))
        with open(victim, 'wb') as f:
            f.write(b'mine')
        p = cli('export', data(BAG), '--format', 'pcd', '--topic', '/points', '--out', out, check=False)
        self.assertEqual(p.returncode, 4)  # an output could not be written (README, exit codes)
        self.assertIn('exists: ' + victim, p.stderr)
        self.assertEqual(read_bytes(victim), b'mine')
        cli('export', data(BAG), '--format', 'pcd', '--topic', '/points', '--out', out, '--overwrite')
        self.assertEqual(o3d.t.io.read_point_cloud(victim).point.positions.shape[0], 2000)

    def test_batch_over_a_folder_with_every_and_a_name_template(self):
        out = os.path.join(self.out, 'batch')
        p = cli('export', data('ros1'), '--format', 'bin', '--topic', '/points', '--every', '5', '--out', out,
                '--name', '{bag}/{topic}_{index}_{stamp_ns}.bin', check=False)
        self.assertEqual(p.returncode, 3, p.stderr)  # the cut and crashed bags: what they recover, said
        self.assertIn('demo_truncated.bag', p.stderr)
        with open(os.path.join(out, 'manifest.json')) as f:
            manifest = json.load(f)
        bags = sorted({f['bag'] for f in manifest['files']})
        # Every fixture bag with clouds (tf_old.bag too), the damaged ones with what they recover; empty.bag
        # has no /points and is passed over.
        self.assertEqual(bags, ['demo_bz2', 'demo_crashed', 'demo_lz4', 'demo_truncated', 'demo_uncompressed', 'tf_old'])
        ours = [f for f in manifest['files'] if f['bag'] == 'demo_uncompressed']
        self.assertEqual([f['index'] for f in ours], [0, 1, 2, 3])
        self.assertEqual(ours[1]['file'], 'demo_uncompressed/points_000001_%d.bin' % ours[1]['stamp_ns'])
        self.assertEqual(ours[1]['stamp_ns'], 1700000000500000000)  # every 5th: the 6th message, at 0.5 s
        self.assertEqual(manifest['frames']['lidar']['parent'], 'base_link')
        self.assertEqual(manifest['frames']['lidar']['translation'], [0.5, 0.0, 1.2])

    def test_an_interrupted_export_leaves_only_complete_files(self):
        # A bag big enough to take a while: 60 clouds of 150,000 points, as ASCII PCD.
        big = os.path.join(self.out, 'big.bag')
        from sensor_msgs.msg import PointCloud2, PointField
        import rospy
        with rosbag.Bag(big, 'w') as b:
            pts = np.random.default_rng(1).random((150000, 4), dtype=np.float32)
            for i in range(60):
                m = PointCloud2(height=1, width=150000, point_step=16, row_step=16 * 150000, is_dense=True,
                                fields=[PointField(n, 4 * k, 7, 1) for k, n in enumerate('xyz')] +
                                       [PointField('intensity', 12, 7, 1)], data=pts.tobytes())
                m.header.stamp = rospy.Time(1700000000 + i)
                b.write('/cloud', m, rospy.Time(1700000000 + i))
        out = os.path.join(self.out, 'interrupted')
        proc = subprocess.Popen([ARGS.cli, 'export', big, '--format', 'pcd', '--pcd-encoding', 'ascii', '--out', out],
                                stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 130, err)  # interrupted (README, exit codes)
        self.assertIn('interrupted', err)
        written = files(out, '.pcd')
        self.assertLess(len(written), 60, 'the export finished before it was interrupted: make the bag bigger')
        for path in written:
            self.assertEqual(o3d.t.io.read_point_cloud(path).point.positions.shape[0], 150000, path)


def main():
    global ARGS
    ARGS, rest = parse_script_args('test_export.py')
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()
