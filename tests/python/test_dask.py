"""A fleet's recordings processed as a map over files on Dask: a LocalCluster of worker
processes runs columns() and export() on each recording of a folder, and what comes back equals
the same work done here, one file after another."""

import pathlib
import shutil

import numpy as np

import bagscope
from test_writer import DATA

FILES = ['ros1/demo_uncompressed.bag', 'ros1/demo_lz4.bag', 'ros1/demo_bz2.bag', 'ros2/demo.mcap',
         'ros2/demo_zstd.mcap', 'ros2/demo_db3']


def test_a_local_cluster_maps_columns_and_export_over_a_folder(tmp_path):
    from dask.distributed import Client, LocalCluster
    fleet = tmp_path / 'fleet'
    fleet.mkdir()
    for i, name in enumerate(FILES):
        source = DATA / name
        target = fleet / f'run{i}_{source.name}'
        (shutil.copytree if source.is_dir() else shutil.copy)(source, target)
    runs = sorted(str(p) for p in fleet.iterdir())

    def imu_columns(path):  # runs in a worker process: it imports bagscope there
        import bagscope
        with bagscope.open(path) as rec:
            return rec.columns('/imu', ['linear_acceleration.x', 'angular_velocity.z', 'header.stamp'])

    def export_clouds(path, out):
        import bagscope
        report = bagscope.export(path, out, 'npy', topics=['/points'])
        return sorted(pathlib.Path(f).name for f in report['files'])

    serial = [imu_columns(p) for p in runs]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = set(client.run(lambda: __import__('os').getpid()).values())
        mapped = client.gather(client.map(imu_columns, runs))
        exported = client.gather(client.map(export_clouds, runs, [str(tmp_path / 'out' / pathlib.Path(p).name)
                                                                  for p in runs]))
    assert len(pids) == 2
    assert len(mapped) == len(serial) == len(FILES)
    for a, b in zip(mapped, serial):
        assert a.keys() == b.keys() and len(a['log_time_ns']) > 0
        for k in a:
            np.testing.assert_array_equal(a[k], b[k])
    for path, names in zip(runs, exported):
        with bagscope.open(path) as rec:
            clouds = [t['count'] for t in rec.topics if t['name'] == '/points']
        assert len(names) == clouds[0] > 0
