#!/usr/bin/python3
"""Writes ros1/robot_state.bag with Debian's python3-rosbag, and robot_state.expected.jsonl
from reading it back with python3-rosbag: rosout log lines of five levels from three nodes, a
TF tree (map -> odom static, odom -> base_link moving, base_link -> lidar and camera static)
and diagnostics whose levels change. Usage: gen_robot_state.py OUT_DIR"""
import json
import math
import os
import sys

import rosbag
import rospy
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import TransformStamped
from rosgraph_msgs.msg import Log
from tf2_msgs.msg import TFMessage

T0 = 1700000000


def stamp(s):
    return rospy.Time(T0 + int(s), int(round((s - int(s)) * 1e9)))


def transform(parent, child, s, xyz, yaw):
    t = TransformStamped()
    t.header.stamp = stamp(s)
    t.header.frame_id = parent
    t.child_frame_id = child
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = xyz
    t.transform.rotation.z, t.transform.rotation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return t


def main():
    out = sys.argv[1]
    path = os.path.join(out, 'ros1', 'robot_state.bag')
    nodes = ['/planner', '/driver', '/camera']
    levels = [Log.DEBUG, Log.INFO, Log.WARN, Log.ERROR, Log.FATAL]
    with rosbag.Bag(path, 'w') as bag:
        bag.write('/tf_static', TFMessage([transform('map', 'odom', 0, (1.0, 2.0, 0.0), math.pi / 2),
                                           transform('base_link', 'lidar', 0, (0.5, 0.0, 1.2), 0.0),
                                           transform('base_link', 'camera', 0, (0.2, 0.1, 1.0), -math.pi / 2)]),
                  stamp(0))
        for i in range(21):  # odom -> base_link: 1 m/s along x for 2 s, turning 0.1 rad/s
            s = i * 0.1
            bag.write('/tf', TFMessage([transform('odom', 'base_link', s, (s, 0.0, 0.0), 0.1 * s)]), stamp(s + 0.001))
        for i in range(30):
            s = i * 0.05 + 0.01
            m = Log()
            m.header.stamp = stamp(s)
            m.level = levels[i % 5]
            m.name = nodes[i % 3]
            m.msg = f'step {i}: ' + ('obstacle ahead' if i % 4 == 0 else 'all clear')
            m.file, m.function, m.line = f'{m.name[1:]}.cpp', 'tick', 100 + i
            m.topics = ['/rosout']
            bag.write('/rosout', m, stamp(s))
        for i in range(5):
            s = i * 0.4 + 0.02
            a = DiagnosticArray()
            a.header.stamp = stamp(s)
            motor = DiagnosticStatus(level=[0, 1, 2, 1, 0][i], name='motor: left', message=['OK', 'hot', 'overheated',
                                     'hot', 'OK'][i], hardware_id='m1',
                                     values=[KeyValue('temperature', str(40 + 10 * [0, 1, 2, 1, 0][i]))])
            gps = DiagnosticStatus(level=0 if i < 3 else 3, name='gps', message='fix' if i < 3 else 'stale',
                                   hardware_id='gps0', values=[])
            a.status = [motor, gps]
            bag.write('/diagnostics', a, stamp(s))
    # The expectation: what python3-rosbag reads back.
    with rosbag.Bag(path) as bag, open(os.path.join(out, 'ros1', 'robot_state.expected.jsonl'), 'w') as f:
        for topic, m, t in bag.read_messages():
            f.write(json.dumps({'topic': topic, 'log_time_ns': t.to_nsec(), 'msg': to_json(m)}) + '\n')


def to_json(m):
    if hasattr(m, '__slots__'):
        return {k: to_json(getattr(m, k)) for k in m.__slots__}
    if isinstance(m, (list, tuple)):
        return [to_json(x) for x in m]
    if isinstance(m, rospy.Time) or isinstance(m, rospy.Duration) or hasattr(m, 'to_nsec'):
        return {'sec': m.secs, 'nsec': m.nsecs}
    return m


if __name__ == '__main__':
    main()
