#!/usr/bin/python3
"""Writes ros1/tf_old.bag with Debian's python3-rosbag: transforms in the pre-tf2 type that many
real ROS 1 bags carry, and under a name that is not /tf — a topic is transforms by its type.

  /tf_static  tf/tfMessage, latched: base_link -> lidar at (0.5, 0, 1.2)
  /tf         tf/tfMessage: odom -> base_link at (t, 0, 0), t = 0 .. 2 s every 0.1 s
  /robot/tf   tf2_msgs/TFMessage: map -> odom at (1, 2, 0), at 0, 1 and 2 s
  /points     sensor_msgs/PointCloud2 in lidar: (1, 0, 0), (0, 1, 0), (0, 0, 1) at 0.5, 1.0 and 1.5 s

Both transform classes are made by genpy from their ROS 1 definition (the tf package is not in
Debian, tf2_msgs only with setup.sh --bench). Usage: gen_tf_old.py OUT_DIR (writes OUT_DIR/ros1/tf_old.bag)"""
import os
import struct
import sys

import genpy
import rosbag
import rospy
from genpy.dynamic import generate_dynamic
from geometry_msgs.msg import TransformStamped
from sensor_msgs.msg import PointCloud2, PointField

T0 = 1700000000
TF_DEFINITION = ('geometry_msgs/TransformStamped[] transforms\n' + '=' * 80 +
                 '\nMSG: geometry_msgs/TransformStamped\n' + TransformStamped._full_text)


def stamp(s):
    return rospy.Time(T0 + int(s), int(round((s - int(s)) * 1e9)))


def transform(parent, child, s, xyz):
    t = TransformStamped()
    t.header.stamp = stamp(s)
    t.header.frame_id = parent
    t.child_frame_id = child
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = xyz
    t.transform.rotation.w = 1.0
    return t


def main():
    TfMessage = generate_dynamic('tf/tfMessage', TF_DEFINITION)['tf/tfMessage']
    TFMessage = generate_dynamic('tf2_msgs/TFMessage', TF_DEFINITION)['tf2_msgs/TFMessage']
    path = os.path.join(sys.argv[1], 'ros1', 'tf_old.bag')
    with rosbag.Bag(path, 'w') as bag:
        latched = {'topic': '/tf_static', 'type': 'tf/tfMessage', 'md5sum': TfMessage._md5sum,
                   'message_definition': TF_DEFINITION, 'latching': '1', 'callerid': '/static_publisher'}
        bag.write('/tf_static', TfMessage([transform('base_link', 'lidar', 0, (0.5, 0.0, 1.2))]), stamp(0),
                  connection_header=latched)
        for i in range(21):
            s = i / 10
            bag.write('/tf', TfMessage([transform('odom', 'base_link', s, (s, 0.0, 0.0))]), stamp(s))
            if i % 10 == 0:
                bag.write('/robot/tf', TFMessage([transform('map', 'odom', s, (1.0, 2.0, 0.0))]), stamp(s))
            if i in (5, 10, 15):
                cloud = PointCloud2()
                cloud.header.stamp = stamp(s)
                cloud.header.frame_id = 'lidar'
                cloud.height, cloud.width = 1, 3
                cloud.fields = [PointField(n, 4 * k, PointField.FLOAT32, 1) for k, n in enumerate('xyz')]
                cloud.point_step, cloud.row_step = 12, 36
                cloud.data = struct.pack('<9f', 1, 0, 0, 0, 1, 0, 0, 0, 1)
                cloud.is_dense = True
                bag.write('/points', cloud, stamp(s))


if __name__ == '__main__':
    main()
