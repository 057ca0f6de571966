#!/usr/bin/env python3
"""Writes the video benchmark's recording (issue #40): 1080p testsrc2 encoded by Debian's
ffmpeg as H.264 (libx264 veryfast, no B-frames, a keyframe every 30 frames, 30 fps), one
access unit per sensor_msgs/CompressedImage of format h264 on /camera/h264, in a ROS 1 bag
written by python3-rosbag. Usage: gen_video_bag.py OUT.bag [FRAMES]"""
import subprocess
import sys
import tempfile

import genpy
import rosbag
from sensor_msgs.msg import CompressedImage

START = 1_700_000_000 * 10**9


def main():
    out, frames = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300
    with tempfile.NamedTemporaryFile(suffix='.h264') as raw:
        subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
                        'testsrc2=size=1920x1080:rate=30', '-frames:v', str(frames), '-c:v', 'libx264', '-preset',
                        'veryfast', '-bf', '0', '-g', '30', '-pix_fmt', 'yuv420p', '-f', 'h264', raw.name], check=True)
        probe = subprocess.run(['ffprobe', '-v', 'error', '-show_packets', '-show_entries', 'packet=size,pos', '-of',
                                'csv=p=0', raw.name], check=True, capture_output=True, text=True).stdout
        data = open(raw.name, 'rb').read()
    with rosbag.Bag(out, 'w') as bag:
        for i, line in enumerate(probe.split()):
            size, pos = map(int, line.split(','))
            t = START + i * 1_000_000_000 // 30
            stamp = genpy.Time(t // 10**9, t % 10**9)
            msg = CompressedImage(format='h264', data=data[pos:pos + size])
            msg.header.stamp = stamp
            bag.write('/camera/h264', msg, stamp)


if __name__ == '__main__':
    main()
