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
