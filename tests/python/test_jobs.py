"""The command line's jobs from Python — filter, convert, export — and transforms, checked with
python3-rosbag, pandas and @mcap/core; and Ctrl-C stopping a long call."""

import os
import pathlib
import signal

import numpy as np
import pytest

import bagscope
from test_writer import DATA, mcap_read

BAG = DATA / 'ros1/demo_uncompressed.bag'


def test_transforms_look_up_what_the_messages_say():
    import rosbag
    with rosbag.Bag(str(BAG)) as bag:
        static = [t for _, m, _ in bag.read_messages(topics=['/tf_static']) for t in m.transforms]
        moving = [(t, m.transforms[0]) for _, m, t in bag.read_messages(topics=['/tf'])]
    with bagscope.open(BAG) as rec:
        tf = rec.transforms()
    assert static and moving
    during = moving[len(moving) // 2][1].header.stamp.to_nsec()  # where the dynamic edges are known too
    for t in static:
        (x, y, z), q = tf.lookup(t.header.frame_id, t.child_frame_id, during)
        assert (x, y, z) == pytest.approx((t.transform.translation.x, t.transform.translation.y, t.transform.translation.z))
        r = t.transform.rotation
        assert q == pytest.approx((r.x, r.y, r.z, r.w))
    # At a sample's own stamp, the dynamic transform is that sample.
    _, t = moving[len(moving) // 2]
    (x, y, z), _ = tf.lookup(t.header.frame_id, t.child_frame_id, t.header.stamp.to_nsec())
    assert (x, y, z) == pytest.approx((t.transform.translation.x, t.transform.translation.y, t.transform.translation.z))
    assert t.child_frame_id in tf.frames
    with pytest.raises(ValueError, match='nowhere'):
        tf.lookup('map', 'nowhere', 0)


def test_filter_keeps_the_chosen_messages_and_reports_progress(tmp_path):
    import rosbag
    with rosbag.Bag(str(BAG)) as bag:
        imu = [t.to_nsec() for _, _, t in bag.read_messages(topics=['/imu'])]
        odom = [t.to_nsec() for _, _, t in bag.read_messages(topics=['/odom'])]
    start, end = imu[10], imu[60]
    calls = []
    report = bagscope.filter(BAG, tmp_path / 'out.bag', topics=['/imu', '/\\/od.*/'], start=start, end=end,
                             progress=calls.append)
    want = sorted([t for t in imu + odom if start <= t <= end])
    with rosbag.Bag(str(tmp_path / 'out.bag')) as bag:
        got = [(topic, t.to_nsec()) for topic, _, t in bag.read_messages()]
    assert [t for _, t in got] == want and {topic for topic, _ in got} == {'/imu', '/odom'}
    assert report['messages'] == len(want) and report['per_topic']['/imu'] == len([t for t in imu if start <= t <= end])
    assert calls and calls[-1] == 1.0 and calls == sorted(calls)
    with pytest.raises(KeyError, match='/nothing'):
        bagscope.filter(BAG, tmp_path / 'x.bag', topics=['/nothing'])
    with pytest.raises(OSError, match='out.bag'):  # exists: not replaced unless asked
        bagscope.filter(BAG, tmp_path / 'out.bag')


def test_convert_writes_what_mcap_core_reads(tmp_path):
    import rosbag
    with rosbag.Bag(str(BAG)) as bag:
        count = bag.get_message_count()
    report = bagscope.convert(BAG, tmp_path / 'demo.mcap', compression='lz4')
    read = mcap_read(tmp_path / 'demo.mcap')
    assert report['messages'] == len(read['messages']) == count


def test_export_writes_files_other_tools_read(tmp_path):
    import pandas
    import rosbag
    with rosbag.Bag(str(BAG)) as bag:
        imu = [(t.to_nsec(), m) for _, m, t in bag.read_messages(topics=['/imu'])]
        points = bag.get_message_count(topic_filters=['/points'])
    report = bagscope.export(BAG, tmp_path / 'csv', 'csv', topics=['/imu'], time='log')
    [csv] = report['files']
    table = pandas.read_csv(csv, float_precision='round_trip')
    assert table.columns[0] == 'log_time_ns' and 'stamp_ns' not in table.columns  # time='log'
    np.testing.assert_array_equal(table['log_time_ns'], [t for t, _ in imu])
    np.testing.assert_array_equal(table['linear_acceleration.y'], [m.linear_acceleration.y for _, m in imu])
    report = bagscope.export(BAG, tmp_path / 'pcd', 'pcd', topics=['/points'], every=2, pcd_encoding='ascii')
    assert len(report['files']) == (points + 1) // 2
    header = pathlib.Path(report['files'][0]).read_text().splitlines()
    assert 'DATA ascii' in header and 'FIELDS x y z ring intensity time' in header
    with pytest.raises(TypeError, match="no option 'quality'"):
        bagscope.export(BAG, tmp_path / 'x', 'csv', quality=90)
    with pytest.raises(ValueError, match='0 to 100'):
        bagscope.export(BAG, tmp_path / 'x', 'jpg', quality=101)
    with pytest.raises(ValueError, match='exist'):
        bagscope.export(BAG, tmp_path / 'csv', 'csv', topics=['/imu'])


def test_ctrl_c_stops_a_long_call_and_leaves_nothing(tmp_path):
    big = tmp_path / 'big.mcap'
    with bagscope.Writer(big) as w:
        w.add_topic('/n', 'std_msgs/msg/Int32')
        payload = b'\x00\x01\x00\x00\x07\x00\x00\x00'
        for i in range(1_000_000):
            w.write('/n', i, payload)
    interrupted = []

    def press_ctrl_c(fraction):
        if not interrupted:
            interrupted.append(fraction)
            os.kill(os.getpid(), signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        bagscope.filter(big, tmp_path / 'copy.mcap', progress=press_ctrl_c)
    assert interrupted and interrupted[0] < 0.5
    assert sorted(p.name for p in tmp_path.iterdir()) == ['big.mcap']  # no output, no temporary file


def test_convert_to_ros2_translates_the_types(tmp_path):
    report = bagscope.convert(BAG, tmp_path / 'ros2', to_ros2=True)
    with bagscope.open(BAG) as before, bagscope.open(tmp_path / 'ros2') as after:
        assert report['messages'] == sum(t['count'] for t in before.topics)
        types = {t['name']: (t['type'], t['encoding']) for t in after.topics}
        assert types['/imu'] == ('sensor_msgs/msg/Imu', 'cdr') and types['/tf'][0] == 'tf2_msgs/msg/TFMessage'
        _, _, info = next(iter(after.messages(topics=['/camera/camera_info'])))
        _, _, was = next(iter(before.messages(topics=['/camera/camera_info'])))
        assert info['k'] == was['K'] and info['header']['stamp'] == {'sec': was['header']['stamp']['sec'],
                                                                      'nanosec': was['header']['stamp']['nsec']}
