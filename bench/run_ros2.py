#!/usr/bin/python3
"""Times Bagscope's ROS 2 reading (MCAP and rosbag2 .db3) against the MCAP reference JS
reader on the same files, in the same run.

    /usr/bin/python3 bench/run_ros2.py [--runs 5] [--work /tmp/bagscope-bench2]

Needs Node.js with npm (the peers in shared/bench-peers, and the generator in
shared/fixtures-gen/ros2, whose packages include better-sqlite3, compiled from source:
g++, make and python3 are needed once) and a release build. Files are generated into
--work on first use: the signals workload (1800 s: 630,000 messages) as MCAP with chunk
compression none and zstd, and the 20 s sensor workload as MCAP zstd and lz4 and as a
rosbag2 .db3.
"""
import argparse
import os
import shutil
import subprocess
import sys

from benchlib import ensure_peers, measure, report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ensure_files(work, shared):
    gen = os.path.join(work, 'gen')
    if not os.path.isdir(os.path.join(gen, 'node_modules')):
        shutil.copytree(os.path.join(shared, 'fixtures-gen', 'ros2'), gen, dirs_exist_ok=True)
        for dirpath, _, files in os.walk(gen):  # shared/ is read-only
            os.chmod(dirpath, 0o755)
            for f in files:
                os.chmod(os.path.join(dirpath, f), 0o644)
        subprocess.run(['npm', 'ci', '--no-audit', '--no-fund'], cwd=gen, check=True)
    jobs = [
        ('signals', 'none', ['--profile', 'signals', '--seconds', '1800', '--compression', 'none', '--no-db3']),
        ('signals', 'zstd', ['--profile', 'signals', '--seconds', '1800', '--compression', 'zstd', '--no-db3']),
        ('sensor', 'zstd', ['--seconds', '20', '--compression', 'zstd']),  # also writes the .db3
        ('sensor', 'lz4', ['--seconds', '20', '--compression', 'lz4', '--no-db3']),
    ]
    for profile, compression, extra in jobs:
        out = os.path.join(work, profile)
        name = f'signals_{compression}.mcap' if profile == 'signals' else f'large_{compression}.mcap'
        if not os.path.exists(os.path.join(out, name)):
            print('generating', profile, compression, flush=True)
            subprocess.run(['node', 'generate_large.mjs', '--out', out] + extra, cwd=gen, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--work', default='/tmp/bagscope-bench2')
    ap.add_argument('--shared', default=os.path.join(ROOT, '..', 'shared'))
    ap.add_argument('--bench-bin', default=os.path.join(ROOT, 'build/release/bin/bagscope-bench'))
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ensure_files(args.work, args.shared)
    peers = ensure_peers(args.work, args.shared)
    w = args.work
    tools = {
        'bagscope': lambda task, path: [args.bench_bin, task, path],
        'mcap-js': lambda task, path: ['node', os.path.join(peers, 'jspeer.mjs'), 'mcap', task, path]
        if path.endswith('.mcap') else None,
    }
    cases = [
        ('signals none', 'open', f'{w}/signals/signals_none.mcap'),
        ('signals none', 'scan', f'{w}/signals/signals_none.mcap'),
        ('signals none', 'imu', f'{w}/signals/signals_none.mcap'),
        ('signals zstd', 'open', f'{w}/signals/signals_zstd.mcap'),
        ('signals zstd', 'scan', f'{w}/signals/signals_zstd.mcap'),
        ('signals zstd', 'imu', f'{w}/signals/signals_zstd.mcap'),
        ('sensor zstd', 'scan', f'{w}/sensor/large_zstd.mcap'),
        ('sensor lz4', 'scan', f'{w}/sensor/large_lz4.mcap'),
        ('sensor db3', 'scan', f'{w}/sensor/large_db3'),
    ]
    results = measure(cases, tools, args.runs, peers)

    def t(label, task, tool='bagscope'):
        return results[(label, task, tool)][0]

    def ratio(label, task):
        return t(label, task, 'mcap-js') / t(label, task)

    def rate(label):
        med, _, nbytes = results[(label, 'scan', 'bagscope')]
        return nbytes / med / 1e9

    checks = []
    for label in ('signals none', 'signals zstd'):
        checks += [
            (f'{label}: open <= 20 ms', t(label, 'open') <= 0.020, f'{t(label, "open") * 1000:.1f} ms'),
            (f'{label}: scan >= 5x mcap-js', ratio(label, 'scan') >= 5, f'{ratio(label, "scan"):.1f}x'),
            (f'{label}: imu >= 10x mcap-js', ratio(label, 'imu') >= 10, f'{ratio(label, "imu"):.1f}x'),
        ]
    for label in ('sensor zstd', 'sensor lz4', 'sensor db3'):
        checks.append((f'{label}: scan >= 1 GB/s', rate(label) >= 1.0, f'{rate(label):.2f} GB/s'))
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
