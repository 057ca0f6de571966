#!/usr/bin/python3
"""The rosbags library's reader and ROS 1 writer on the write benchmark's jobs (run_write.py),
as a user of rosbags would script them:

    PYTHONPATH=…/rosbags/src peer_write.py filter IN.bag OUT.bag TOPIC
    PYTHONPATH=…/rosbags/src peer_write.py copy IN.bag OUT.bag none|lz4|bz2
"""
import sys

from rosbags.rosbag1 import Reader, Writer


def main():
    job, src, dst, arg = sys.argv[1:5]
    writer = Writer(dst)
    if job == 'copy' and arg != 'none':
        writer.set_compression(Writer.CompressionFormat[arg.upper()])  # before it opens
    with Reader(src) as reader, writer:
        keep = [c for c in reader.connections if job != 'filter' or c.topic == arg]
        out = {}
        for c in keep:
            ext = c.ext
            out[c.id] = writer.add_connection(c.topic, c.msgtype, msgdef=c.msgdef.data, md5sum=c.digest,
                                              callerid=ext.callerid, latching=ext.latching)
        for c, t, data in reader.messages(connections=keep):
            writer.write(out[c.id], t, data)


if __name__ == '__main__':
    main()
