#!/usr/bin/python3
"""Checks PCD files written by the app's export wizard with the export test's independent
readers: python3-rosbag decodes the bag, numpy the clouds (reference_cloud), Open3D reads
the PCD files.

    verify_export.py pcd BAG TOPIC FOLDER [--every N]

Every N-th message of TOPIC must be in FOLDER as one PCD per message, in order, with the
same x, y, z and intensity. Exit status 0 when they are, 1 with the first difference."""
import argparse
import glob
import os
import sys

import numpy as np
import open3d as o3d

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_export  # noqa: E402  (its readers: messages, reference_cloud)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('format', choices=['pcd'])
    ap.add_argument('bag')
    ap.add_argument('topic')
    ap.add_argument('folder')
    ap.add_argument('--every', type=int, default=1)
    args = ap.parse_args()
    test_export.ARGS = argparse.Namespace(data=os.path.dirname(os.path.abspath(args.bag)))
    refs = test_export.messages(args.topic, bag=os.path.basename(args.bag))[::args.every]
    paths = sorted(glob.glob(os.path.join(args.folder, '**', '*.pcd'), recursive=True))
    if len(paths) != len(refs):
        print(f'{len(paths)} PCD files, {len(refs)} messages expected')
        return 1
    for path, (msg, _) in zip(paths, refs):
        ref = test_export.reference_cloud(msg)
        cloud = o3d.t.io.read_point_cloud(path)
        xyz = np.stack([ref['x'], ref['y'], ref['z']], axis=1).astype(np.float32)
        try:
            np.testing.assert_array_equal(cloud.point.positions.numpy(), xyz)
            np.testing.assert_array_equal(cloud.point.intensity.numpy()[:, 0], ref['intensity'])
        except AssertionError as e:
            print(f'{path}: {e}')
            return 1
    print(f'{len(paths)} PCD files match {args.topic} of {args.bag}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
