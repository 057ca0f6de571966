#!/usr/bin/python3
"""Writes the 3D scene benchmark's layers beside a bag (Debian's python3-rosbag): a
MarkerArray of 500 markers (cubes, spheres, arrows, line strips, texts) every 0.1 s and a
10,000-pose nav_msgs/Path every second, over the other bag's time span, in its cloud's frame.
Usage: gen_scene_bag.py SENSOR_BAG OUT_BAG"""
import math
import sys

import rosbag
import rospy
from geometry_msgs.msg import Point, PoseStamped
from nav_msgs.msg import Path
from std_msgs.msg import ColorRGBA
from visualization_msgs.msg import Marker, MarkerArray


def main():
    sensor, out = sys.argv[1], sys.argv[2]
    with rosbag.Bag(sensor) as b:
        start, end = b.get_start_time(), b.get_end_time()
        frame = next(m.header.frame_id for _, m, _ in b.read_messages(topics=['/points']))
    kinds = [Marker.CUBE, Marker.SPHERE, Marker.ARROW, Marker.LINE_STRIP, Marker.TEXT_VIEW_FACING]
    with rosbag.Bag(out, 'w') as bag:
        t, k = start, 0
        while t <= end:
            stamp = rospy.Time.from_sec(t)
            array = MarkerArray()
            for i in range(500):
                m = Marker()
                m.header.stamp, m.header.frame_id = stamp, frame
                m.ns, m.id, m.type = 'bench', i, kinds[i % 5]
                m.pose.position.x = 10 * math.cos(i * 0.0126 + k * 0.01)
                m.pose.position.y = 10 * math.sin(i * 0.0126 + k * 0.01)
                m.pose.orientation.w = 1.0
                m.scale.x = m.scale.y = m.scale.z = 0.2
                m.color = ColorRGBA(i % 3 / 2.0, 0.5, 1 - i % 3 / 2.0, 1.0)
                if m.type == Marker.LINE_STRIP:
                    m.points = [Point(0, 0, 0), Point(0.3, 0, 0), Point(0.3, 0.3, 0)]
                if m.type == Marker.TEXT_VIEW_FACING:
                    m.text = f'm{i}'
                array.markers.append(m)
            bag.write('/markers', array, stamp)
            if k % 10 == 0:
                path = Path()
                path.header.stamp, path.header.frame_id = stamp, frame
                for j in range(10000):
                    p = PoseStamped()
                    p.header.frame_id = frame
                    p.pose.position.x, p.pose.position.y = 0.002 * j, 5 * math.sin(j * 0.001)
                    p.pose.orientation.w = 1.0
                    path.poses.append(p)
                bag.write('/plan', path, stamp)
            t += 0.1
            k += 1


if __name__ == '__main__':
    main()
