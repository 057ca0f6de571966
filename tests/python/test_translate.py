"""`bagscope.convert(to_ros1=True)` against ROS 1's own md5sums: every message type of ROS 1's
standard packages (genpy's classes from Debian's python3-*-msgs, the reference) that ROS 2 also
has is written into a ROS 2 recording from the built-in ROS 2 interfaces, translated back to ROS 1,
and read by python3-rosbag: its md5sum is the one genpy computed, and its message decodes."""

import importlib
import pathlib

import pytest
import rosbag

import bagscope

PACKAGES = ['std_msgs', 'geometry_msgs', 'sensor_msgs', 'nav_msgs', 'tf2_msgs', 'visualization_msgs',
            'diagnostic_msgs', 'actionlib_msgs', 'rosgraph_msgs', 'shape_msgs', 'stereo_msgs', 'trajectory_msgs']
# ROS 2 moved these.
ROS2_NAMES = {'rosgraph_msgs/Log': 'rcl_interfaces/msg/Log'}


def ros1_types():
    """{'pkg/Type': genpy class} of every installed standard package (an import error fails)."""
    out = {}
    for package in PACKAGES:
        module = importlib.import_module(package + '.msg')
        for name in dir(module):
            cls = getattr(module, name)
            if not name.startswith('_') and hasattr(cls, '_md5sum'):
                out[f'{package}/{name}'] = cls
    return out


def test_every_standard_type_comes_back_with_ros1s_md5sum(tmp_path: pathlib.Path):
    types = ros1_types()
    written = {}
    with bagscope.Writer(tmp_path / 'ros2.mcap', format='mcap') as w:
        for ros1, cls in types.items():
            package, name = ros1.split('/')
            topic = '/' + ros1
            try:
                w.add_topic(topic, ROS2_NAMES.get(ros1, f'{package}/msg/{name}'))
            except Exception as e:  # ROS 2 has no such type (actions, std_msgs/Time, ...)
                assert 'no standard ROS 2 interface' in str(e), (ros1, e)
                continue
            w.write(topic, 1, {})  # every field zero
            written[topic] = cls
    assert len(written) >= 100, sorted(written)  # the packages really were there
    report = bagscope.convert(tmp_path / 'ros2.mcap', tmp_path / 'back.bag', to_ros1=True)
    assert report['messages'] == len(written) and not report['lost'] and not report['skipped'], report
    with rosbag.Bag(str(tmp_path / 'back.bag')) as bag:
        connections = {c.topic: c for c in bag._connections.values()}
        decoded = {topic: m for topic, m, _ in bag.read_messages()}
    wrong = {topic: (connections[topic].md5sum, cls._md5sum) for topic, cls in written.items()
             if connections[topic].md5sum != cls._md5sum}
    assert not wrong, wrong
    for topic, cls in written.items():
        assert connections[topic].datatype == cls._type
        assert type(decoded[topic]).__name__ == cls.__name__ or decoded[topic]._md5sum == cls._md5sum


def test_to_ros2_and_to_ros1_together_is_an_error(tmp_path):
    with pytest.raises(ValueError, match='give one'):
        bagscope.convert(pathlib.Path(__file__), tmp_path / 'x.bag', to_ros1=True, to_ros2=True)


def test_convert_for_humble_writes_metadata_version_5(tmp_path):
    # The ROS 1 fixture migrated for Humble: version 5, QoS as a text of rmw's numbers; an
    # unknown release is a ValueError before anything is written.
    import os
    from ruamel.yaml import YAML
    source = pathlib.Path(os.environ.get('BAGSCOPE_DATA', pathlib.Path(__file__).parents[1] / 'data'))
    bagscope.convert(source / 'ros1/demo_uncompressed.bag', tmp_path / 'humble', to_ros2=True, distro='humble')
    meta = YAML(typ='safe').load(tmp_path / 'humble' / 'metadata.yaml')['rosbag2_bagfile_information']
    assert meta['version'] == 5 and 'ros_distro' not in meta
    tf_static = next(t['topic_metadata'] for t in meta['topics_with_message_count']
                     if t['topic_metadata']['name'] == '/tf_static')
    assert YAML(typ='safe').load(tf_static['offered_qos_profiles'])[0]['durability'] == 1  # transient local
    with pytest.raises(ValueError, match='humble or jazzy'):
        bagscope.convert(source / 'ros1/demo_uncompressed.bag', tmp_path / 'x', to_ros2=True, distro='iron')
    assert not (tmp_path / 'x').exists()


@pytest.mark.parametrize('recording', ['ros2/demo.mcap', 'ros2/demo_db3'])
def test_a_recording_of_ros2s_own_tools_opens_in_ros1s(tmp_path, recording):
    # Written by rosbag2 (shared/fixtures): every message comes back, python3-rosbag decodes it,
    # each standard type under genpy's md5sum, and values survive (the Imu's orientation).
    import os
    source = pathlib.Path(os.environ.get('BAGSCOPE_DATA', pathlib.Path(__file__).parents[1] / 'data')) / recording
    report = bagscope.convert(source, tmp_path / 'out.bag', to_ros1=True)
    types = ros1_types()
    with rosbag.Bag(str(tmp_path / 'out.bag')) as bag:
        got = {}
        for topic, m, _ in bag.read_messages():
            got[topic] = got.get(topic, 0) + 1
            if m._type in types:
                assert m._md5sum == types[m._type]._md5sum, m._type
        imu = [m for topic, m, _ in bag.read_messages(topics=['/imu'])]
    rec = bagscope.open(source)
    want = {t['name']: t['count'] for t in rec.topics}
    _, _, first = next(iter(rec.messages(topics=['/imu'])))
    assert got == want, (report, got, want)
    assert imu[0].orientation.w == first['orientation']['w'] and imu[0].header.seq == 0
    assert imu[0].header.stamp.to_nsec() == first['header']['stamp']['sec'] * 10**9 + first['header']['stamp']['nanosec']
