#!/usr/bin/python3
"""Writes ros1/robot_state.bag with Debian's python3-rosbag, and robot_state.expected.jsonl
from reading it back with python3-rosbag: rosout log lines of five levels from three nodes, a
TF tree (map -> odom static, odom -> base_link moving, base_link -> lidar and camera static),
diagnostics whose levels change, and what the 3D scene draws: a plan (Path), a goal
(PoseStamped), an initial pose with a covariance, a map (OccupancyGrid), a footprint (PolygonStamped), a camera's CameraInfo and
markers that are added, deleted, expire and are all deleted. Usage: gen_robot_state.py OUT_DIR"""
import json
import math
import os
import sys

import rosbag
import rospy
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from geometry_msgs.msg import (Point, Point32, PolygonStamped, PoseStamped, PoseWithCovarianceStamped,
                               TransformStamped)
from nav_msgs.msg import OccupancyGrid, Path
from sensor_msgs.msg import CameraInfo
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray
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
        write_scene(bag)
    # The expectation: what python3-rosbag reads back.
    with rosbag.Bag(path) as bag, open(os.path.join(out, 'ros1', 'robot_state.expected.jsonl'), 'w') as f:
        for topic, m, t in bag.read_messages():
            f.write(json.dumps({'topic': topic, 'log_time_ns': t.to_nsec(), 'msg': to_json(m)}) + '\n')


def pose_stamped(frame, s, xyz, yaw):
    p = PoseStamped()
    p.header.stamp, p.header.frame_id = stamp(s), frame
    p.pose.position.x, p.pose.position.y, p.pose.position.z = xyz
    p.pose.orientation.z, p.pose.orientation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return p


def marker(s, ns, mid, mtype, action=Marker.ADD, frame='odom', xyz=(0, 0, 0), scale=(1, 1, 1), rgba=(1, 0, 0, 1),
           lifetime=0.0, **extra):
    m = Marker()
    m.header.stamp, m.header.frame_id = stamp(s), frame
    m.ns, m.id, m.type, m.action = ns, mid, mtype, action
    m.pose.position.x, m.pose.position.y, m.pose.position.z = xyz
    m.pose.orientation.w = 1.0
    m.scale.x, m.scale.y, m.scale.z = scale
    m.color = ColorRGBA(*rgba)
    m.lifetime = rospy.Duration(lifetime)
    for k, v in extra.items():
        setattr(m, k, v)
    return m


def write_scene(bag):
    plan = Path()
    plan.header.stamp, plan.header.frame_id = stamp(0.05), 'odom'
    plan.poses = [pose_stamped('odom', 0.05, (0.5 * i, 0.1 * i * i, 0.0), 0.0) for i in range(6)]
    bag.write('/plan', plan, stamp(0.05))
    bag.write('/goal', pose_stamped('odom', 0.3, (3.0, 1.0, 0.0), math.pi / 4), stamp(0.3))
    initial = PoseWithCovarianceStamped()
    initial.header.stamp, initial.header.frame_id = stamp(0.3), 'map'
    initial.pose.pose.position.x, initial.pose.pose.position.y = 1.0, -1.0
    initial.pose.pose.orientation.w = 1.0
    cov = [0.0] * 36
    cov[0], cov[1], cov[6], cov[7] = 4.0, 1.0, 1.0, 1.0  # x-y block [[4, 1], [1, 1]]
    initial.pose.covariance = cov
    bag.write('/initialpose', initial, stamp(0.3))
    grid = OccupancyGrid()
    grid.header.stamp, grid.header.frame_id = stamp(0.05), 'map'
    grid.info.resolution, grid.info.width, grid.info.height = 0.5, 20, 10
    grid.info.origin.position.x, grid.info.origin.position.y = -5.0, -2.5
    grid.info.origin.orientation.w = 1.0
    grid.data = [-1 if x < 2 else (100 if y == 5 else (x * 5) % 101) for y in range(10) for x in range(20)]
    bag.write('/map', grid, stamp(0.05))
    fp = PolygonStamped()
    fp.header.stamp, fp.header.frame_id = stamp(0.05), 'base_link'
    fp.polygon.points = [Point32(0.4, 0.3, 0), Point32(-0.4, 0.3, 0), Point32(-0.4, -0.3, 0), Point32(0.4, -0.3, 0)]
    bag.write('/footprint', fp, stamp(0.05))
    info = CameraInfo()
    info.header.stamp, info.header.frame_id = stamp(0.05), 'camera'
    info.width, info.height, info.distortion_model = 640, 480, 'plumb_bob'
    info.D = [0.0] * 5
    info.K = [500.0, 0.0, 320.0, 0.0, 500.0, 240.0, 0.0, 0.0, 1.0]
    info.R = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]
    info.P = [500.0, 0.0, 320.0, 0.0, 0.0, 500.0, 240.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    bag.write('/camera_info', info, stamp(0.05))
    # Markers: added, one expiring after 0.5 s, one deleted, a mesh and a strip added, all
    # deleted, then an arrow between two points.
    bag.write('/markers', MarkerArray([
        marker(0.1, 'a', 1, Marker.CUBE, xyz=(2, 0, 0.5), scale=(1, 0.5, 0.25), rgba=(1, 0, 0, 0.8)),
        marker(0.1, 'a', 2, Marker.SPHERE, xyz=(0, 2, 0.5), scale=(0.3, 0.3, 0.3), rgba=(0, 1, 0, 1), lifetime=0.5),
        marker(0.1, 'b', 1, Marker.TEXT_VIEW_FACING, xyz=(0, 0, 2), scale=(0, 0, 0.3), rgba=(1, 1, 1, 1), text='hello'),
    ]), stamp(0.1))
    bag.write('/markers', MarkerArray([marker(0.5, 'a', 1, Marker.CUBE, action=Marker.DELETE)]), stamp(0.5))
    bag.write('/markers', MarkerArray([
        marker(1.0, 'a', 3, Marker.MESH_RESOURCE, xyz=(1, 1, 0), scale=(0.5, 0.5, 0.5), rgba=(0, 0, 1, 1),
               mesh_resource='package://robot/meshes/base.dae'),
        marker(1.0, 'b', 2, Marker.LINE_STRIP, scale=(0.05, 0, 0), rgba=(1, 1, 0, 1), frame_locked=True,
               points=[Point(0, 0, 0), Point(1, 0, 0), Point(1, 1, 0)]),
    ]), stamp(1.0))
    bag.write('/markers', MarkerArray([marker(1.5, '', 0, Marker.CUBE, action=3)]), stamp(1.5))
    bag.write('/markers', MarkerArray([
        marker(1.6, 'c', 7, Marker.ARROW, scale=(0.1, 0.2, 0.3), rgba=(1, 0.5, 0, 1),
               points=[Point(0, 0, 0), Point(0, 0, 2)]),
    ]), stamp(1.6))


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
