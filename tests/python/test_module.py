"""`import bagscope` against independent expectations: the fixtures' .expected.jsonl (written
by python3-rosbag and the ROS 2 reference libraries) and python3-rosbag's own values.

Run by CTest with PYTHONPATH at the built module (BAGSCOPE_DATA: tests/data)."""

import hashlib
import json
import math
import os
import pathlib

import numpy as np
import pytest

import bagscope

DATA = pathlib.Path(os.environ.get('BAGSCOPE_DATA', pathlib.Path(__file__).parent.parent / 'data'))

# Each recording with the expectation it must equal, message for message.
FIXTURES = [
    ('ros1/demo_uncompressed.bag', 'ros1/demo.expected.jsonl'),
    ('ros1/demo_lz4.bag', 'ros1/demo.expected.jsonl'),
    ('ros1/demo_bz2.bag', 'ros1/demo.expected.jsonl'),
    ('ros1/robot_state.bag', 'ros1/robot_state.expected.jsonl'),
    ('ros2/demo.mcap', 'ros2/demo.expected.jsonl'),
    ('ros2/demo_zstd.mcap', 'ros2/demo.expected.jsonl'),
    ('ros2/demo_db3', 'ros2/demo.expected.jsonl'),
    ('mcap_foreign/json.mcap', 'mcap_foreign/json.expected.jsonl'),
    ('mcap_foreign/protobuf.mcap', 'mcap_foreign/protobuf.expected.jsonl'),
]


def as_expected(value):
    """A message as the expectations write it: bytes as a list, or over 64 as length and digest."""
    if isinstance(value, bytes):
        if len(value) > 64:
            return {'len': len(value), 'sha256': hashlib.sha256(value).hexdigest()}
        return list(value)
    if isinstance(value, dict):
        return {k: as_expected(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):  # arrays of numbers come as numpy arrays of their type
        return value.tolist()
    if isinstance(value, list):
        return [as_expected(v) for v in value]
    return value


def same(a, b):
    """Equal as JSON values; the expectations write non-finite floats as "nan", "inf", "-inf"."""
    if isinstance(a, float) and not math.isfinite(a):
        return b == ('nan' if math.isnan(a) else 'inf' if a > 0 else '-inf') or (
            isinstance(b, float) and (math.isnan(b) if math.isnan(a) else a == b))
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() == {'sec', 'nsec'} and b.keys() == {'secs', 'nsecs'}:  # genpy's names (robot_state)
            b = {'sec': b['secs'], 'nsec': b['nsecs']}
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize('recording,expected', FIXTURES)
def test_messages_equal_the_fixtures_expectations(recording, expected):
    lines = [json.loads(line) for line in (DATA / expected).read_text().splitlines() if line.strip()]
    with bagscope.open(str(DATA / recording)) as rec:
        got = list(rec.messages())
    assert len(got) == len(lines)
    for (topic, log_time, msg), want in zip(got, lines):
        assert (topic, log_time) == (want['topic'], want['log_time_ns'])
        assert same(as_expected(msg), want['msg']), (topic, log_time)


def test_topics_times_and_a_selection():
    lines = [json.loads(line) for line in (DATA / 'ros1/demo.expected.jsonl').read_text().splitlines()]
    with bagscope.open(DATA / 'ros1/demo_lz4.bag') as rec:  # a path object too
        topics = {t['name']: t for t in rec.topics}
        imu = [l for l in lines if l['topic'] == '/imu']
        assert topics['/imu']['count'] == len(imu)
        assert topics['/imu']['type'] == imu[0]['type']
        assert topics['/imu']['first_ns'] == imu[0]['log_time_ns']
        assert topics['/imu']['last_ns'] == imu[-1]['log_time_ns']
        assert topics['/imu']['encoding'] == 'ros1'
        assert rec.start == min(l['log_time_ns'] for l in lines)
        assert rec.end == max(l['log_time_ns'] for l in lines)
        # A time window of two topics, one named by a regular expression.
        start, end = imu[10]['log_time_ns'], imu[20]['log_time_ns']
        got = [(t, ns) for t, ns, _ in rec.messages(topics=['/imu', '/\\/odo.*/'], start=start, end=end)]
        want = [(l['topic'], l['log_time_ns']) for l in lines
                if l['topic'] in ('/imu', '/odom') and start <= l['log_time_ns'] <= end]
        assert got == want
        raw = next(iter(rec.messages(topics=['/chatter'], raw=True)))
        assert isinstance(raw[2], bytes) and b'hello' in raw[2]
        # As `filter` takes them: an expression matches whole names; one that names nothing is an error.
        with pytest.raises(KeyError, match='/odo'):
            rec.messages(topics=['/\\/odo/'])
        with pytest.raises(KeyError, match='/nothing'):
            rec.messages(topics=['/nothing'])
        with pytest.raises(KeyError, match='not a regular expression'):
            rec.messages(topics=['/(/'])


def test_columns_equal_python3_rosbags_values():
    import rosbag  # Debian's python3-rosbag: the ROS 1 reference reader
    path = DATA / 'ros1/demo_uncompressed.bag'
    with rosbag.Bag(str(path)) as bag:
        rows = [(t.to_nsec(), m) for _, m, t in bag.read_messages(topics=['/imu'])]
    with bagscope.open(path) as rec:
        cols = rec.columns('/imu', ['linear_acceleration.x', 'angular_velocity.z', 'orientation.w'])
    assert cols['log_time_ns'].dtype == np.int64
    np.testing.assert_array_equal(cols['log_time_ns'], [ns for ns, _ in rows])
    np.testing.assert_array_equal(cols['linear_acceleration.x'], [m.linear_acceleration.x for _, m in rows])
    np.testing.assert_array_equal(cols['angular_velocity.z'], [m.angular_velocity.z for _, m in rows])
    np.testing.assert_array_equal(cols['orientation.w'], [m.orientation.w for _, m in rows])


def test_bad_input_is_an_exception_that_names_the_file(tmp_path):
    cut = tmp_path / 'cut.bag'
    cut.write_bytes((DATA / 'ros1/demo_uncompressed.bag').read_bytes()[:13])
    with pytest.raises(RuntimeError, match='cut.bag'):
        bagscope.open(str(cut))
    with pytest.raises(Exception, match='missing.bag'):
        bagscope.open(str(tmp_path / 'missing.bag'))
    rec = bagscope.open([str(DATA / 'ros1/demo_lz4.bag')])
    with pytest.raises(Exception, match='no field|not'):
        rec.columns('/imu', ['linear_acceleration.nope'])
    rec.close()
    with pytest.raises(RuntimeError, match='closed'):
        rec.topics


def test_clouds_equal_a_numpy_decode_of_the_messages_bytes():
    import rosbag
    path = DATA / 'ros1/demo_uncompressed.bag'
    types = {7: '<f4', 8: '<f8', 2: 'u1', 4: '<u2', 5: '<i4', 6: '<u4', 1: 'i1', 3: '<i2'}
    for topic in ('/points', '/points_organized'):  # the organized one has row padding
        with rosbag.Bag(str(path)) as bag:
            msgs = [(t.to_nsec(), m) for _, m, t in bag.read_messages(topics=[topic])]
        with bagscope.open(path) as rec:
            clouds = list(rec.clouds(topic))
        assert len(clouds) == len(msgs) > 0
        for (ns, m), (header, points) in zip(msgs, clouds):
            assert header == {'stamp_ns': m.header.stamp.to_nsec(), 'frame_id': m.header.frame_id, 'log_time_ns': ns}
            assert points.shape == ((m.height, m.width) if m.height > 1 else (m.width,))
            rows = np.frombuffer(m.data, np.uint8).reshape(m.height, m.row_step)[:, :m.width * m.point_step]
            for f in m.fields:
                raw = rows.reshape(m.height, m.width, m.point_step)[..., f.offset:f.offset + np.dtype(types[f.datatype]).itemsize]
                want = raw.copy().view(types[f.datatype])[..., 0].reshape(points.shape)
                np.testing.assert_array_equal(points[f.name], want, err_msg=f'{topic} {f.name}')


def test_clouds_are_read_only_views_that_outlive_the_recording():
    # Points are not copied: the array views the message's bytes where the file lies, and
    # keeps them (the chunk, the mapping) alive after the stream and the recording are gone.
    import gc
    import rosbag
    path = DATA / 'ros1/demo_uncompressed.bag'
    with rosbag.Bag(str(path)) as bag:
        want = [np.frombuffer(m.data, np.uint8) for _, m, _ in bag.read_messages(topics=['/points'])]
    rec = bagscope.open(path)
    stream = rec.clouds('/points')
    _, points = next(stream)
    assert not points.flags.owndata and not points.flags.writeable
    with pytest.raises(ValueError):
        points['x'][0] = 1.0
    x = points['x'].copy()
    del stream
    rec.close()
    gc.collect()
    np.testing.assert_array_equal(points['x'], x)
    step = points.dtype.itemsize
    raw = want[0].reshape(-1, step)[:, points.dtype.fields['x'][1]:][:, :4].copy().view('<f4')[:, 0]
    np.testing.assert_array_equal(points['x'], raw)


def test_clouds_unpack_rgb_split_counts_and_read_big_endian(tmp_path):
    # A cloud made here, its bytes from numpy: x y z float32, normal float32 x3, packed rgb as a
    # float32 (0x00RRGGBB), a padding byte, in both byte orders.
    n = 5
    rgb = np.array([0x112233, 0xFF0000, 0x00FF00, 0x0000FF, 0xABCDEF], np.uint32)
    for order in '<>':
        layout = np.dtype({'names': ['x', 'y', 'z', 'normal', 'rgb'],
                           'formats': [order + 'f4'] * 3 + [(order + 'f4', 3), order + 'u4'],
                           'offsets': [0, 4, 8, 12, 24], 'itemsize': 29})
        data = np.zeros(n, layout)
        data['x'], data['y'], data['z'] = np.arange(n), -np.arange(n), 0.5
        data['normal'] = np.arange(3 * n).reshape(n, 3)
        data['rgb'] = rgb
        fields = [{'name': name, 'offset': off, 'datatype': 7, 'count': c}
                  for name, off, c in (('x', 0, 1), ('y', 4, 1), ('z', 8, 1), ('normal', 12, 3), ('rgb', 24, 1))]
        out = tmp_path / f'cloud{order == ">"}.mcap'
        with bagscope.Writer(out) as w:
            w.add_topic('/c', 'sensor_msgs/msg/PointCloud2')
            w.write('/c', 1, {'header': {'frame_id': 'lidar'}, 'height': 1, 'width': n, 'fields': fields,
                              'is_bigendian': order == '>', 'point_step': 29, 'row_step': 29 * n,
                              'data': data.tobytes(), 'is_dense': True})
        with bagscope.open(out) as rec:
            [(header, points)] = list(rec.clouds('/c'))
        assert points.dtype.names == ('x', 'y', 'z', 'normal_0', 'normal_1', 'normal_2', 'r', 'g', 'b')
        np.testing.assert_array_equal(points['y'], -np.arange(n))
        np.testing.assert_array_equal(points['normal_2'], np.arange(3 * n).reshape(n, 3)[:, 2])
        np.testing.assert_array_equal(points['r'], rgb >> 16)
        np.testing.assert_array_equal(points['g'], (rgb >> 8) & 0xFF)
        np.testing.assert_array_equal(points['b'], rgb & 0xFF)


def test_images_equal_the_raw_pixels_and_opencvs_decode():
    import cv2
    import rosbag
    path = DATA / 'ros1/demo_uncompressed.bag'
    with rosbag.Bag(str(path)) as bag, bagscope.open(path) as rec:
        for topic, dtype, channels in (('/camera/image_raw', np.uint8, 3), ('/camera/image_bgr', np.uint8, 3),
                                       ('/camera/image_mono', np.uint8, 1), ('/camera/depth', '<u2', 1),
                                       ('/camera/depth_float', '<f4', 1)):
            msgs = [m for _, m, _ in bag.read_messages(topics=[topic])]
            rgb, bgr = list(rec.images(topic)), list(rec.images(topic, to='bgr'))
            assert len(rgb) == len(bgr) == len(msgs) > 0
            for m, (stamp, pixels), (_, opencv) in zip(msgs, rgb, bgr):
                assert stamp == m.header.stamp.to_nsec()
                raw = np.frombuffer(m.data, dtype).reshape(m.height, m.width, channels).squeeze()
                as_rgb = raw[..., ::-1] if m.encoding == 'bgr8' else raw
                np.testing.assert_array_equal(pixels, as_rgb, err_msg=topic)
                np.testing.assert_array_equal(opencv, as_rgb[..., ::-1] if channels == 3 else raw, err_msg=topic)
        for topic in ('/camera/image_raw/compressed', '/camera/png/compressed'):
            msgs = [m for _, m, _ in bag.read_messages(topics=[topic])]
            got = list(rec.images(topic, to='bgr'))
            assert len(got) == len(msgs) > 0
            for m, (_, pixels) in zip(msgs, got):
                np.testing.assert_array_equal(pixels, cv2.imdecode(np.frombuffer(m.data, np.uint8), cv2.IMREAD_UNCHANGED))
        with pytest.raises(ValueError, match='not a point cloud'):
            rec.clouds('/imu')
        with pytest.raises(ValueError, match="'rgb' or 'bgr'"):
            rec.images('/camera/image_raw', to='hsv')


def test_dataframe_columns_types_and_values_are_the_messages():
    import rosbag
    path = DATA / 'ros1/demo_uncompressed.bag'
    with rosbag.Bag(str(path)) as bag:
        rows = [(t.to_nsec(), m) for _, m, t in bag.read_messages(topics=['/imu'])]
        diag = [m for _, m, _ in bag.read_messages(topics=['/diagnostics'])]
    with bagscope.open(path) as rec:
        df = rec.dataframe('/imu')
        short = rec.dataframe('/diagnostics', array_limit=4)  # 3 or 4 statuses
        picked = rec.dataframe('/imu', fields=['angular_velocity.y'])
    # The columns the CSV export writes, each typed by its field: uint32 seq unsigned, time as
    # integer ns, float64 as float64, string as text; a 9-element covariance as 9 columns.
    assert list(df.columns[:6]) == ['log_time_ns', 'stamp_ns', 'header.seq', 'header.stamp', 'header.frame_id',
                                    'orientation.x']
    assert df.columns[-1] == 'linear_acceleration_covariance[8]' and len(df.columns) == 5 + 4 + 9 + 3 + 9 + 3 + 9
    assert (str(df['header.seq'].dtype), str(df['header.stamp'].dtype), str(df['header.frame_id'].dtype),
            str(df['orientation.w'].dtype)) == ('uint64', 'int64', 'object', 'float64')
    assert len(df) == len(rows)
    np.testing.assert_array_equal(df['log_time_ns'], [ns for ns, _ in rows])
    np.testing.assert_array_equal(df['stamp_ns'], [m.header.stamp.to_nsec() for _, m in rows])
    np.testing.assert_array_equal(df['header.seq'], [m.header.seq for _, m in rows])
    np.testing.assert_array_equal(df['linear_acceleration.z'], [m.linear_acceleration.z for _, m in rows])
    np.testing.assert_array_equal(df['orientation_covariance[4]'], [m.orientation_covariance[4] for _, m in rows])
    assert list(df['header.frame_id']) == [m.header.frame_id for _, m in rows]
    # A variable array shorter than the limit leaves its cells empty: NaN, or None for text.
    for i, m in enumerate(diag):
        for k in range(4):
            value = short[f'status[{k}].name'][i]
            assert value == (m.status[k].name if k < len(m.status) else None)
    np.testing.assert_array_equal(picked['angular_velocity.y'], [m.angular_velocity.y for _, m in rows])


def test_dataframe_of_several_topics_is_merge_asof_and_interp_on_one_of_them():
    import pandas as pd
    import rosbag
    path = DATA / 'ros1/demo_uncompressed.bag'
    with rosbag.Bag(str(path)) as bag:
        odom = np.array([t.to_nsec() for _, _, t in bag.read_messages(topics=['/odom'])])
        number = pd.DataFrame([(t.to_nsec(), m.data) for _, m, t in bag.read_messages(topics=['/number'])],
                              columns=['t', 'data'])
        imu = pd.DataFrame([(t.to_nsec(), m.linear_acceleration.x) for _, m, t in bag.read_messages(topics=['/imu'])],
                           columns=['t', 'x'])
    with bagscope.open(path) as rec:
        df = rec.dataframe(['/number', '/imu:linear_acceleration.x'], on='/odom')
        lin = rec.dataframe(['/imu:linear_acceleration.x'], on='/odom', fill='linear')
        with pytest.raises(ValueError):
            rec.dataframe('/imu', on='/odom')
        with pytest.raises(ValueError):
            rec.dataframe(['/imu'], on='/odom', fill='nearest')
        with pytest.raises(Exception, match='no topic'):
            rec.dataframe(['/nothing'], on='/odom')
    assert list(df.columns) == ['log_time_ns', '/number/data', '/imu/linear_acceleration.x']
    np.testing.assert_array_equal(df['log_time_ns'], odom)
    want = pd.merge_asof(pd.DataFrame({'t': odom}), number, on='t', direction='backward')
    want.loc[want['t'] > number['t'].iloc[-1], 'data'] = np.nan  # never past /number's last message
    np.testing.assert_array_equal(df['/number/data'], want['data'])
    assert df['/number/data'].isna().sum() > 0 and df['/number/data'].notna().sum() > 5
    near = pd.merge_asof(pd.DataFrame({'t': odom}), imu, on='t', direction='backward')
    np.testing.assert_array_equal(df['/imu/linear_acceleration.x'], near['x'])
    t0 = odom[0]
    interp = np.interp((odom - t0).astype(float), (imu['t'] - t0).to_numpy(dtype=float), imu['x'],
                       left=np.nan, right=np.nan)
    np.testing.assert_allclose(lin['/imu/linear_acceleration.x'], interp, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_arrays_of_numbers_are_numpy_arrays_of_their_field_type():
    with bagscope.open(DATA / 'ros1/demo_uncompressed.bag') as rec:
        _, _, scan = next(iter(rec.messages(topics=['/scan'])))
        _, _, imu = next(iter(rec.messages(topics=['/imu'])))
        _, _, image = next(iter(rec.messages(topics=['/camera/image_raw'])))
    assert scan['ranges'].dtype == np.float32 and scan['ranges'].shape == (360,)
    assert imu['orientation_covariance'] == [0.0025, 0.0, 0.0, 0.0, 0.0025, 0.0, 0.0, 0.0, 0.0025] or \
        isinstance(imu['orientation_covariance'], list)  # a small fixed array: a list
    assert isinstance(image['data'], bytes) and len(image['data']) == image['step'] * image['height']


def test_columns_with_header_stamps():
    import rosbag
    path = DATA / 'ros1/demo_uncompressed.bag'
    with rosbag.Bag(str(path)) as bag:
        stamps = [m.header.stamp.to_nsec() for _, m, _ in bag.read_messages(topics=['/imu'])]
    with bagscope.open(path) as rec:
        cols = rec.columns('/imu', ['linear_acceleration.x'], time='stamp')
        with pytest.raises(ValueError, match='no header stamp'):
            rec.columns('/number', ['data'], time='stamp')
        with pytest.raises(KeyError, match='names 2 topics'):
            rec.columns('/\\/camera\\/depth.*/', ['height'])
    assert cols['stamp_ns'].dtype == np.int64
    np.testing.assert_array_equal(cols['stamp_ns'], stamps)


def test_a_ros1_message_without_fields_decodes(tmp_path):
    # python3-rosbag stores std_msgs/Empty's definition as an empty text (its md5sum that of no
    # text): a message of no fields, not a missing definition.
    import rosbag
    import rospy
    from std_msgs.msg import Empty, Int32
    with rosbag.Bag(str(tmp_path / 'empty.bag'), 'w') as b:
        b.write('/e', Empty(), rospy.Time(1))
        b.write('/n', Int32(data=4), rospy.Time(2))
    rec = bagscope.open(tmp_path / 'empty.bag')
    assert [(topic, t, m) for topic, t, m in rec.messages()] == [('/e', 10**9, {}), ('/n', 2 * 10**9, {'data': 4})]
    assert rec.problems == []
