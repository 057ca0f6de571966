#!/usr/bin/python3
"""Times exports (issues #5 and #38): every cloud of the 20 s sensor bag (200 frames x 100,000
points) to binary PCD against shared/bench-peers/pypeer.py rosbag pcd in the same run, and
its 600 640x480 images to JPEG with the cores used.

    /usr/bin/python3 bench/run_export.py [--runs 5] [--work /tmp/bagscope-bench]

Needs `scripts/setup.sh --bench` and a release build. sensor.bag is generated into --work
on first use (shared/fixtures-gen/ros1/generate_large.py --seconds 20, 1.2 GB). Both tools
write x, y, z, intensity per point; every run writes into a fresh folder under --work.
"""
import os
import shutil
import subprocess
import sys

from benchlib import ensure_peers, measure, parse_args, report, ros1_bags


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    bag = ros1_bags(args.work, args.shared, {'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20']})['sensor.bag']
    peers = ensure_peers(args.work, args.shared)
    out = os.path.join(args.work, 'export-out')
    shutil.rmtree(out, ignore_errors=True)

    def fresh(cmd, out_last=False):
        # Every run into a new empty folder: files written over a run's old ones cost more on
        # ext4 (a file renamed or truncated over another has its data written back at once),
        # and so do files made just after others were deleted. The folder is the bench's
        # BAGSCOPE_BENCH_OUT, the peer's last argument.
        script = 'd=$(mktemp -d -p "$0") && export BAGSCOPE_BENCH_OUT="$d" && exec "$@"' + (' "$d"' if out_last else '')
        return ['sh', '-c', script, out, *cmd]

    os.makedirs(out)
    tools = {
        'bagscope': lambda task, path: fresh([args.bench_bin, task, path]),
        'python3-rosbag': lambda task, path: (fresh(['/usr/bin/python3', os.path.join(peers, 'pypeer.py'), 'rosbag',
                                                     'pcd', path], out_last=True) if task == 'export-pcd' else None),
    }
    results = measure([('sensor.bag', 'export-pcd', bag), ('sensor.bag', 'export-jpeg', bag)], tools, args.runs, peers)
    cores = []
    for _ in range(3):
        p = subprocess.run(tools['bagscope']('export-jpeg', bag), check=True, capture_output=True, text=True)
        cores.append(float(p.stderr.split('cores used: ')[1].split()[0]))
    cores.sort()
    shutil.rmtree(out, ignore_errors=True)
    print(f'\nexport-jpeg: cores used (CPU time / wall time), median of 3: {cores[1]:.2f}')
    ratio = results[('sensor.bag', 'export-pcd', 'python3-rosbag')][0] / results[('sensor.bag', 'export-pcd', 'bagscope')][0]
    jpeg = results[('sensor.bag', 'export-jpeg', 'bagscope')]
    jpeg_text = f'{cores[1]:.2f} cores, {jpeg[1]} frames in {jpeg[0]:.2f} s ({jpeg[1] / jpeg[0]:.0f} frames/s)'
    checks = [
        ('clouds to binary PCD >= 5x python3-rosbag', ratio >= 5, f'{ratio:.1f}x'),
        ('images to JPEG on both cores (>= 1.6 cores busy)', cores[1] >= 1.6, jpeg_text),
        ('#38: clouds to binary PCD >= 10x python3-rosbag', ratio >= 10, f'{ratio:.1f}x'),
        ('#38: images to JPEG >= 1.8 cores busy', cores[1] >= 1.8, jpeg_text),
    ]
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
