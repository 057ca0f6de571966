"""`bagscope.Writer` read back by independent readers: rosbags (rosbag2 folders, decoding from
the definitions the folder holds), Foxglove's @mcap/core (MCAP) and python3-rosbag (ROS 1 bags),
and the encoder's round trip: every fixture message, as the dict `messages()` gives, written
again is byte for byte the message it was.

Environment (tests/CMakeLists.txt): BAGSCOPE_DATA (tests/data), BAGSCOPE_ROSBAGS (the rosbags
library's source), BAGSCOPE_NPM (where tests/npm/install.sh put @mcap/core)."""

import hashlib
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import bagscope

HERE = pathlib.Path(__file__).parent
DATA = pathlib.Path(os.environ.get('BAGSCOPE_DATA', HERE.parent / 'data'))
ROSBAGS = pathlib.Path(os.environ.get('BAGSCOPE_ROSBAGS', HERE.parents[2] / 'shared/peers/rosbags/src'))
NPM = os.environ.get('BAGSCOPE_NPM')

if not (ROSBAGS / 'rosbags').is_dir():
    raise RuntimeError(f'no rosbags library at {ROSBAGS} (BAGSCOPE_ROSBAGS)')
sys.path.insert(0, str(ROSBAGS))


def imu(i):
    """An Imu message as a dict, its values worked out from i."""
    return {
        'header': {'stamp': {'sec': 100 + i, 'nanosec': 7 * i}, 'frame_id': f'imu{i % 3}'},
        'orientation': {'x': 0.5 * i, 'w': 1.0},
        'orientation_covariance': np.arange(9.0) * i,  # numpy arrays fill arrays
        'angular_velocity': {'z': -0.25 * i},
        'linear_acceleration': {'x': 9.81, 'y': float(i), 'z': 1e-3 * i},
        'linear_acceleration_covariance': [float(i)] * 9,
    }


# Written in this order: out of log-time order, as rosbag2_py allows.
ORDER = [5, 0, 3, 1, 4, 2, 9, 7, 8, 6]


def write_sample(path, fmt):
    with bagscope.Writer(path, format=fmt) as w:
        w.add_topic('/imu', 'sensor_msgs/msg/Imu')
        w.add_topic('/text', 'std_msgs/msg/String')
        w.add_topic('/wheel', 'demo_msgs/msg/Wheel', definition=(DATA / 'msg/demo_msgs/msg/Wheel.msg').read_text())
        for i in ORDER:
            w.write('/imu', 1_000_000_000 + 10 * i, imu(i))
            w.write('/text', 1_000_000_005 + 10 * i, {'data': f'message {i} ü'})
        w.write('/wheel', 1_000_000_001, {})  # every field zero


def plain(v):
    """A rosbags message as plain Python values."""
    if hasattr(v, '__dataclass_fields__'):
        return {k: plain(getattr(v, k)) for k in v.__dataclass_fields__ if k != '__msgtype__'}
    if hasattr(v, 'tolist'):
        return v.tolist()
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def test_rosbag2_folders_read_back_by_rosbags_in_time_order(tmp_path):
    from rosbags.highlevel import AnyReader
    for fmt in ('rosbag2', 'rosbag2-db3'):
        out = tmp_path / fmt
        write_sample(out, fmt)
        with AnyReader([out]) as r:  # decodes from the definitions in the folder
            got = [(c.topic, t, plain(r.deserialize(raw, c.msgtype))) for c, t, raw in r.messages()]
            assert {c.topic: c.msgtype for c in r.connections} == {
                '/imu': 'sensor_msgs/msg/Imu', '/text': 'std_msgs/msg/String', '/wheel': 'demo_msgs/msg/Wheel'}
        assert [t for _, t, _ in got] == sorted(t for _, t, _ in got)
        imus = [m for topic, _, m in got if topic == '/imu']
        assert len(imus) == 10
        for i, m in enumerate(imus):
            assert m['header'] == {'stamp': {'sec': 100 + i, 'nanosec': 7 * i}, 'frame_id': f'imu{i % 3}'}
            assert m['orientation'] == {'x': 0.5 * i, 'y': 0.0, 'z': 0.0, 'w': 1.0}
            assert m['orientation_covariance'] == (np.arange(9.0) * i).tolist()
            assert m['angular_velocity'] == {'x': 0.0, 'y': 0.0, 'z': -0.25 * i}
            assert m['linear_acceleration'] == {'x': 9.81, 'y': float(i), 'z': 1e-3 * i}
            assert m['angular_velocity_covariance'] == [0.0] * 9
        assert [m['data'] for topic, _, m in got if topic == '/text'] == [f'message {i} ü' for i in range(10)]
        wheel = [m for topic, _, m in got if topic == '/wheel']
        assert len(wheel) == 1 and all(v in (0, 0.0, '', False) for v in wheel[0].values())


def mcap_read(path):
    """What @mcap/core reads from an MCAP file (tests/write/verify_mcap.mjs)."""
    if not NPM:
        raise RuntimeError('BAGSCOPE_NPM is not set: @mcap/core is needed')
    run = subprocess.run(['node', str(HERE.parent / 'write/verify_mcap.mjs'), str(pathlib.Path(NPM).resolve()),
                          str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[0])


def test_mcap_read_back_by_mcap_core_with_the_bytes_rosbags_read(tmp_path):
    from rosbags.rosbag2 import Reader
    write_sample(tmp_path / 'out.mcap', 'mcap')
    write_sample(tmp_path / 'folder', 'rosbag2-db3')
    with Reader(tmp_path / 'folder') as r:
        want = [(c.topic, str(t), hashlib.sha256(raw).hexdigest()) for c, t, raw in r.messages()]
    got = mcap_read(tmp_path / 'out.mcap')
    assert [tuple(m) for m in got['messages']] == want
    schemas = {c['topic']: c for c in got['channels']}
    assert schemas['/imu']['messageEncoding'] == 'cdr'


def test_a_ros1_bag_read_back_by_python3_rosbag():
    import rosbag
    import tempfile
    definition = 'Header header\nfloat64[3] xyz\nstring name\ntime t\nduration d\nuint8[] blob\nint16 SMALL=-3\n' \
                 + '=' * 80 + '\nMSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n'
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / 'out.bag'
        with bagscope.Writer(path, format='bag') as w:
            w.add_topic('/p', 'demo/Point', definition=definition)
            for i in (2, 0, 1):
                w.write('/p', 5_000_000_000 + i, {
                    'header': {'seq': i, 'stamp': {'sec': 7, 'nsec': i}, 'frame_id': 'map'},
                    'xyz': [i, 0.5, -1.0], 'name': 'p%d' % i, 't': 3_000_000_001, 'd': {'sec': -1, 'nsec': 5},
                    'blob': bytes([i, 255])})
        with rosbag.Bag(str(path)) as bag:
            rows = list(bag.read_messages())
            md5 = bag._connections[0].md5sum
    assert [t.to_nsec() for _, _, t in rows] == [5_000_000_000, 5_000_000_001, 5_000_000_002]
    assert md5 == rows[0][1]._md5sum  # what genpy computes from the definition
    for i, (topic, m, _) in enumerate(rows):
        assert topic == '/p'
        assert (m.header.seq, m.header.stamp.to_nsec(), m.header.frame_id) == (i, 7_000_000_000 + i, 'map')
        assert list(m.xyz) == [i, 0.5, -1.0] and m.name == 'p%d' % i
        assert m.t.to_nsec() == 3_000_000_001 and (m.d.secs, m.d.nsecs) == (-1, 5)
        assert bytes(m.blob) == bytes([i, 255])


ROUND_TRIP = [('ros1/demo_uncompressed.bag', 'bag'), ('ros1/robot_state.bag', 'bag'), ('ros2/demo.mcap', 'mcap'),
              ('ros2/demo_db3', 'rosbag2-db3')]


@pytest.mark.parametrize('recording,fmt', ROUND_TRIP)
def test_every_fixture_message_written_from_its_dict_is_its_own_bytes(tmp_path, recording, fmt):
    out = tmp_path / ('out.bag' if fmt == 'bag' else 'out')
    with bagscope.open(DATA / recording) as rec:
        with bagscope.Writer(out, format=fmt) as w:
            for t in rec.topics:
                w.add_topic(t['name'], t['type'], definition=t['definition'] or None)
            for topic, ns, msg in rec.messages():
                w.write(topic, ns, msg)
        original = list(rec.messages(raw=True))
    with bagscope.open(out) as back:
        written = list(back.messages(raw=True))
    assert len(written) == len(original) > 50
    for (t1, ns1, b1), (t2, ns2, b2) in zip(original, written):
        assert (t1, ns1) == (t2, ns2)
        # CDR writers may end a message with up to 3 bytes of padding the encoder leaves off.
        assert b1 == b2 or (fmt != 'bag' and b1.rstrip(b'\0') == b2.rstrip(b'\0') and len(b1) - len(b2) <= 3), \
            (t1, ns1)


def test_what_does_not_fit_is_an_error_naming_the_field(tmp_path):
    with bagscope.Writer(tmp_path / 'x.mcap') as w:
        w.add_topic('/imu', 'sensor_msgs/msg/Imu')
        w.add_topic('/u8', 'std_msgs/msg/UInt8MultiArray')
        with pytest.raises(ValueError, match="field 'linear_acceleration.q': .* has no field 'q'"):
            w.write('/imu', 1, {'linear_acceleration': {'q': 1.0}})
        with pytest.raises(ValueError, match="field 'header.frame_id': expects a str, not int"):
            w.write('/imu', 1, {'header': {'frame_id': 3}})
        # A float where no number goes: worded as for any other Python value there.
        with pytest.raises(ValueError, match="field 'header.frame_id': expects a str, not float"):
            w.write('/imu', 1, {'header': {'frame_id': 1.5}})
        with pytest.raises(ValueError, match="field 'header': expects a dict of std_msgs/.*Header's fields, not float"):
            w.write('/imu', 1, {'header': 2.5})
        with pytest.raises(ValueError, match="field 'orientation_covariance': takes exactly 9 elements, not 2"):
            w.write('/imu', 1, {'orientation_covariance': [1.0, 2.0]})
        with pytest.raises(ValueError, match="field 'data\\[1\\]': 256 is not a whole number that fits uint8"):
            w.write('/u8', 1, {'data': [1, 256]})
        with pytest.raises(ValueError, match="field 'header': a field name is a str, not int"):
            w.write('/imu', 1, {'header': {1: 2}})
        with pytest.raises(KeyError, match='/nope'):
            w.write('/nope', 1, {})
        w.add_topic('/tf', 'tf2_msgs/msg/TFMessage')
        with pytest.raises(ValueError, match="field 'transforms\\[0\\]': expects a dict of .*TransformStamped's fields, "
                                             "not float"):
            w.write('/tf', 1, {'transforms': [1.5]})
        w.add_topic('/empty', 'std_msgs/msg/Empty')  # rosidl's placeholder member is no field to give
        with pytest.raises(ValueError, match="has no field 'structure_needs_at_least_one_member'"):
            w.write('/empty', 1, {'structure_needs_at_least_one_member': 0})
        w.write('/empty', 1, {})
        with pytest.raises(ValueError, match='no standard ROS 2 interface'):
            w.add_topic('/x', 'nobody/msg/Knows')
        w.write('/u8', 2, {'data': np.array([1, 2, 3], dtype=np.uint8)})  # a buffer for uint8[]
    with pytest.raises(OSError, match='x.mcap'):  # exists, and overwrite was not asked
        bagscope.Writer(tmp_path / 'x.mcap')
    with bagscope.open(tmp_path / 'x.mcap') as rec:
        assert [m['data'] for topic, _, m in rec.messages() if topic == '/u8'] == [b'\x01\x02\x03']
    # Leaving the block by an exception leaves nothing behind.
    with pytest.raises(ZeroDivisionError):
        with bagscope.Writer(tmp_path / 'y.mcap') as w:
            w.add_topic('/imu', 'sensor_msgs/msg/Imu')
            w.write('/imu', 1, imu(1))
            1 / 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ['x.mcap']


def test_putting_messages_in_order_never_touches_a_users_file(tmp_path):
    # The out-of-order output is moved aside while it is rewritten: under a name nothing has.
    for name in ('.out.mcap.unsorted-0', 'out.mcap.unsorted'):
        (tmp_path / name).write_bytes(b'the user\'s')
    with bagscope.Writer(tmp_path / 'out.mcap') as w:
        w.add_topic('/s', 'std_msgs/msg/String')
        for i in (2, 0, 1):
            w.write('/s', i, {'data': str(i)})
    with bagscope.open(tmp_path / 'out.mcap') as rec:
        assert [(t, m['data']) for _, t, m in rec.messages()] == [(0, '0'), (1, '1'), (2, '2')]
    for name in ('.out.mcap.unsorted-0', 'out.mcap.unsorted'):
        assert (tmp_path / name).read_bytes() == b'the user\'s'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['.out.mcap.unsorted-0', 'out.mcap', 'out.mcap.unsorted']


def test_a_field_given_before_and_left_out_after_is_zero(tmp_path):
    # The writer reuses one message's buffers for the next: what the last message gave must not
    # show through where this one gives nothing (a nested field, a whole message, an element of
    # a sequence of messages).
    from rosbags.highlevel import AnyReader
    tf = lambda child, **fields: {'header': {'frame_id': 'map'}, 'child_frame_id': child, **fields}
    out = tmp_path / 'out'
    with bagscope.Writer(out, format='rosbag2') as w:
        w.add_topic('/imu', 'sensor_msgs/msg/Imu')
        w.add_topic('/tf', 'tf2_msgs/msg/TFMessage')
        w.write('/imu', 1, imu(3))
        w.write('/imu', 2, {'orientation': {'w': 2.0}})
        w.write('/imu', 3, {})
        w.write('/tf', 4, {'transforms': [tf('a', transform={'translation': {'x': 1.0}}), tf('b')]})
        w.write('/tf', 5, {'transforms': [{'child_frame_id': 'c'}]})
    with AnyReader([out]) as r:
        got = [plain(r.deserialize(raw, c.msgtype)) for c, _, raw in r.messages()]
    assert got[0]['linear_acceleration'] == {'x': 9.81, 'y': 3.0, 'z': 1e-3 * 3}
    assert got[1]['orientation'] == {'x': 0.0, 'y': 0.0, 'z': 0.0, 'w': 2.0}
    for m in got[1:3]:
        assert m['header'] == {'stamp': {'sec': 0, 'nanosec': 0}, 'frame_id': ''}
        assert m['linear_acceleration'] == {'x': 0.0, 'y': 0.0, 'z': 0.0}
        assert m['orientation_covariance'] == [0.0] * 9
    assert got[2]['orientation']['w'] == 0.0
    assert [t['transform']['translation']['x'] for t in got[3]['transforms']] == [1.0, 0.0]
    [only] = got[4]['transforms']
    assert only['child_frame_id'] == 'c' and only['header']['frame_id'] == ''
    assert only['transform']['translation'] == {'x': 0.0, 'y': 0.0, 'z': 0.0}


def test_messages_in_many_batches_and_topics_added_between_are_all_written(tmp_path):
    # Writes are gathered in batches of 256 KB and written without the GIL: 4,000 Imu
    # messages (1.3 MB) fill several; a topic is added while messages wait in a batch; keyword
    # and bytes-like calls take the checked way in. Nothing lost, nothing reordered, every
    # value as given.
    from rosbags.highlevel import AnyReader
    out = tmp_path / 'out'
    with bagscope.Writer(out, format='rosbag2') as w:
        w.add_topic('/imu', 'sensor_msgs/msg/Imu')
        for i in range(2000):
            w.write('/imu', 1_000 + i, imu(i))
        w.add_topic('/text', 'std_msgs/msg/String')
        for i in range(2000, 4000):
            w.write('/imu', 1_000 + i, imu(i))
            if i % 500 == 0:
                w.write(topic='/text', log_time_ns=1_000 + i, message={'data': str(i)})
        raw = bytes([0, 1, 0, 0, 2, 0, 0, 0, ord('x'), 0])  # CDR of std_msgs/String 'x'
        w.write('/text', 5_000, memoryview(raw))
        with pytest.raises(TypeError):
            w.write('/text', 'not a time', {'data': 'y'})
        with pytest.raises(ValueError, match="field 'data': expects a str, not int"):
            w.write('/text', 5_001, {'data': 1})  # leaves nothing
    with AnyReader([out]) as r:
        got = [(c.topic, t, plain(r.deserialize(raw, c.msgtype))) for c, t, raw in r.messages()]
    imus = [(t, m) for topic, t, m in got if topic == '/imu']
    assert [t for t, _ in imus] == [1_000 + i for i in range(4000)]
    for i, (_, m) in enumerate(imus):
        assert m['header']['stamp'] == {'sec': 100 + i, 'nanosec': 7 * i}
        assert m['linear_acceleration']['y'] == float(i)
        assert m['orientation_covariance'] == (np.arange(9.0) * i).tolist()
    assert [(t, m['data']) for topic, t, m in got if topic == '/text'] == \
        [(1_000 + i, str(i)) for i in range(2000, 4000, 500)] + [(5_000, 'x')]
