#!/usr/bin/python3
"""Writes the fuzzers' seeds with Debian's python3-rosbag (independent of Bagscope).

    /usr/bin/python3 tests/fuzz/make_seeds.py tests/fuzz/seeds [tests/data/ros1/demo_uncompressed.bag]

seeds/*.bag for fuzz_ros1; seeds/decode/* for fuzz_decode: one per connection of the given
bag, as uint16 definition length, definition, first message's bytes (at most 2 kB).

Small on purpose (a few kB each) so that libFuzzer mutates every record kind: several
connections, a tiny chunk threshold (many chunks), each compression.
"""
import os
import sys

import rosbag
import rospy
from sensor_msgs.msg import Imu, PointField, PointCloud2
from std_msgs.msg import Int32, String

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for compression in ('none', 'lz4', 'bz2'):
    path = os.path.join(out, 'seed_%s.bag' % compression)
    with rosbag.Bag(path, 'w', compression=compression, chunk_threshold=300) as bag:
        for i in range(6):
            t = rospy.Time(1700000000, i * 10000000)
            bag.write('/chatter', String(data='hello %d' % i), t)
            bag.write('/number', Int32(data=-i), t + rospy.Duration(0, 1000))
            imu = Imu()
            imu.header.stamp = t
            imu.header.frame_id = 'imu'
            imu.linear_acceleration.z = 9.8
            bag.write('/imu', imu, t + rospy.Duration(0, 2000))
            if i % 3 == 0:
                cloud = PointCloud2(height=1, width=2, point_step=12, row_step=24, is_dense=True)
                cloud.fields = [PointField(name=n, offset=4 * k, datatype=7, count=1) for k, n in enumerate('xyz')]
                cloud.data = bytes(range(24))
                bag.write('/points', cloud, t + rospy.Duration(0, 3000))
    print(path, os.path.getsize(path))

if len(sys.argv) > 2:
    os.makedirs(os.path.join(out, 'decode'), exist_ok=True)
    done = set()
    with rosbag.Bag(sys.argv[2]) as bag:
        defs = {c.topic: c.msg_def for c in bag._connections.values()}
        for topic, raw, t in bag.read_messages(raw=True):
            if topic in done:
                continue
            done.add(topic)
            definition = defs[topic].encode()
            data = raw[1][:2048]
            name = os.path.join(out, 'decode', topic.strip('/').replace('/', '_'))
            with open(name, 'wb') as f:
                f.write(len(definition).to_bytes(2, 'little') + definition + data)
