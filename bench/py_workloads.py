#!/usr/bin/python3
"""One Python workload, by `import bagscope` or by the rosbags library, timed inside the
process (the import and the interpreter's start are not counted) and printed as the bench
peers' line: "<tool> <task> <seconds> <count>".

    py_workloads.py bagscope|rosbags dicts|columns|clouds|write FILE

dicts: every message decoded (bagscope: nested dicts; rosbags: its dataclasses).
columns: ten Imu fields of /imu as numpy arrays.
clouds: every /points PointCloud2 as a numpy structured array (rosbags: deserialised, then the
  array made from the message's own fields and point_step with numpy, as people write it).
write: 360,000 Imu messages from dicts into a rosbag2 folder with MCAP storage at FILE. The
  time is the writer's: opening, every write and closing; each ten dicts are made between the
  timed writes (making them takes the same 0.2-0.5 s for either library, more than a twentieth
  of rosbags' writing).
"""
import shutil
import sys
import time

import numpy as np

TEN = ['linear_acceleration.x', 'linear_acceleration.y', 'linear_acceleration.z', 'angular_velocity.x',
       'angular_velocity.y', 'angular_velocity.z', 'orientation.x', 'orientation.y', 'orientation.z', 'orientation.w']
WRITTEN = 360_000


def imu_dict(i):
    return {'header': {'stamp': {'sec': 1_700_000_000 + i // 200, 'nanosec': (i % 200) * 5_000_000}, 'frame_id': 'imu'},
            'orientation': {'x': 0.0, 'y': 0.0, 'z': 0.0, 'w': 1.0}, 'orientation_covariance': [0.0] * 9,
            'angular_velocity': {'x': 0.01 * i, 'y': 0.0, 'z': 0.5}, 'angular_velocity_covariance': [0.0] * 9,
            'linear_acceleration': {'x': 0.1, 'y': 0.2, 'z': 9.8}, 'linear_acceleration_covariance': [0.0] * 9}


def timed_writes(write):
    """Seconds spent in write(first, dicts), which writes message first + k from dicts[k], for
    the WRITTEN dicts, made ten at a time untimed."""
    spent = 0.0
    for first in range(0, WRITTEN, 10):
        made = [imu_dict(i) for i in range(first, first + 10)]
        start = time.perf_counter()
        write(first, made)
        spent += time.perf_counter() - start
    return spent


def with_bagscope(task, path):
    import bagscope
    if task == 'write':
        shutil.rmtree(path, ignore_errors=True)
        start = time.perf_counter()
        w = bagscope.Writer(path, format='rosbag2')
        w.add_topic('/imu', 'sensor_msgs/msg/Imu')
        opened = time.perf_counter() - start

        def write(first, dicts):
            for i, d in enumerate(dicts, first):
                w.write('/imu', 1_700_000_000_000_000_000 + i * 5_000_000, d)
        writes = timed_writes(write)
        start = time.perf_counter()
        w.close()
        return opened + writes + time.perf_counter() - start, WRITTEN
    start = time.perf_counter()
    with bagscope.open(path) as rec:
        if task == 'dicts':
            count = sum(1 for _ in rec.messages())
        elif task == 'columns':
            cols = rec.columns('/imu', TEN)
            count = len(cols['log_time_ns'])
        elif task == 'clouds':
            count = sum(len(points) for _, points in rec.clouds('/points'))
    return time.perf_counter() - start, count


NUMPY = {1: 'i1', 2: 'u1', 3: 'i2', 4: 'u2', 5: 'i4', 6: 'u4', 7: 'f4', 8: 'f8'}


def with_rosbags(task, path):
    from pathlib import Path
    from rosbags.highlevel import AnyReader
    if task == 'write':
        from rosbags.rosbag2 import StoragePlugin, Writer
        from rosbags.typesys import Stores, get_typestore
        shutil.rmtree(path, ignore_errors=True)
        start = time.perf_counter()
        store = get_typestore(Stores.ROS2_HUMBLE)
        T = store.types
        Imu, Header, Time = T['sensor_msgs/msg/Imu'], T['std_msgs/msg/Header'], T['builtin_interfaces/msg/Time']
        Quaternion, Vector3 = T['geometry_msgs/msg/Quaternion'], T['geometry_msgs/msg/Vector3']
        w = Writer(Path(path), version=8, storage_plugin=StoragePlugin.MCAP)
        w.open()
        c = w.add_connection('/imu', Imu.__msgtype__, typestore=store)
        opened = time.perf_counter() - start

        def write(first, dicts):
            for i, d in enumerate(dicts, first):
                msg = Imu(header=Header(stamp=Time(**d['header']['stamp']), frame_id=d['header']['frame_id']),
                          orientation=Quaternion(**d['orientation']),
                          orientation_covariance=np.array(d['orientation_covariance']),
                          angular_velocity=Vector3(**d['angular_velocity']),
                          angular_velocity_covariance=np.array(d['angular_velocity_covariance']),
                          linear_acceleration=Vector3(**d['linear_acceleration']),
                          linear_acceleration_covariance=np.array(d['linear_acceleration_covariance']))
                w.write(c, 1_700_000_000_000_000_000 + i * 5_000_000, store.serialize_cdr(msg, Imu.__msgtype__))
        writes = timed_writes(write)
        start = time.perf_counter()
        w.close()
        return opened + writes + time.perf_counter() - start, WRITTEN
    start = time.perf_counter()
    count = 0
    with AnyReader([Path(path)]) as r:
        if task == 'dicts':
            for c, _, raw in r.messages():
                r.deserialize(raw, c.msgtype)
                count += 1
        elif task == 'columns':
            rows = []
            for c, _, raw in r.messages(connections=[c for c in r.connections if c.topic == '/imu']):
                m = r.deserialize(raw, c.msgtype)
                rows.append((m.linear_acceleration.x, m.linear_acceleration.y, m.linear_acceleration.z,
                             m.angular_velocity.x, m.angular_velocity.y, m.angular_velocity.z,
                             m.orientation.x, m.orientation.y, m.orientation.z, m.orientation.w))
            cols = dict(zip(TEN, np.array(rows).T))
            count = len(rows)
        elif task == 'clouds':
            for c, _, raw in r.messages(connections=[c for c in r.connections if c.topic == '/points']):
                m = r.deserialize(raw, c.msgtype)
                order = '>' if m.is_bigendian else '<'
                dtype = np.dtype({'names': [f.name for f in m.fields],
                                  'formats': [order + NUMPY[f.datatype] for f in m.fields],
                                  'offsets': [f.offset for f in m.fields], 'itemsize': m.point_step})
                rows = m.data.reshape(m.height, m.row_step)[:, :m.width * m.point_step]
                points = np.ascontiguousarray(rows).view(dtype).reshape(-1).copy()
                count += len(points)
    return time.perf_counter() - start, count


if __name__ == '__main__':
    tool, task, path = sys.argv[1:4]
    seconds, count = (with_bagscope if tool == 'bagscope' else with_rosbags)(task, path)
    print(f'{tool} {task} {seconds:.6f} {count}')
