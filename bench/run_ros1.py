#!/usr/bin/python3
"""Times Bagscope's ROS 1 reading against its peers on the same bags, in the same run.

    /usr/bin/python3 bench/run_ros1.py [--runs 5] [--work /tmp/bagscope-bench]

Needs `scripts/setup.sh --bench` (python3-rosbag and the generators' modules), Node.js with
npm for Foxglove's reader, and a release build (`cmake --build --preset release`). Bags are
generated into --work on first use (about 2.4 GB): the signals bag with
shared/bench-peers/gen_signals.py (1800 s: 630,000 messages) and the sensor bag with
shared/fixtures-gen/ros1/generate_large.py --seconds 20 (1.2 GB, plus an lz4 copy).

Every tool times itself inside its process (start-up excluded). Each case runs once to
warm the page cache, then --runs times; the table gives medians and the ratio
peer time / Bagscope time. The machine is noisy: read the medians, not one run.
"""
import os
import sys

from benchlib import ensure_peers, measure, parse_args, report, ros1_bags


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    ros1_bags(args.work, args.shared, {
        'signals.bag': ['bench-peers/gen_signals.py', '1800'],
        'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20'],
        'sensor_lz4.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20', '--compression', 'lz4'],
    })
    peers = ensure_peers(args.work, args.shared)

    tools = {
        'bagscope': lambda task, bag: [args.bench_bin, task, bag],
        'python3-rosbag': lambda task, bag: ['/usr/bin/python3', os.path.join(peers, 'pypeer.py'), 'rosbag', task, bag],
        'foxglove-js': lambda task, bag: ['node', os.path.join(peers, 'jspeer.mjs'), 'ros1', task, bag],
    }
    cases = [(bag, task, os.path.join(args.work, bag)) for bag, task in
             [('signals.bag', 'open'), ('signals.bag', 'scan'), ('signals.bag', 'imu'),
              ('sensor.bag', 'open'), ('sensor.bag', 'scan'), ('sensor_lz4.bag', 'scan')]]
    results = measure(cases, tools, args.runs, peers)

    def r(bag, task, peer):
        return results[(bag, task, peer)][0] / results[(bag, task, 'bagscope')][0]

    def rate(bag):
        med, _, nbytes = results[(bag, 'scan', 'bagscope')]
        return nbytes / med / 1e9

    checks = [
        ('open signals.bag <= 20 ms', results[('signals.bag', 'open', 'bagscope')][0] <= 0.020,
         f'{results[("signals.bag", "open", "bagscope")][0] * 1000:.1f} ms'),
        ('scan >= 10x python3-rosbag', r('signals.bag', 'scan', 'python3-rosbag') >= 10,
         f'{r("signals.bag", "scan", "python3-rosbag"):.1f}x'),
        ('imu >= 20x python3-rosbag', r('signals.bag', 'imu', 'python3-rosbag') >= 20,
         f'{r("signals.bag", "imu", "python3-rosbag"):.1f}x'),
        ('imu >= 5x foxglove-js', r('signals.bag', 'imu', 'foxglove-js') >= 5,
         f'{r("signals.bag", "imu", "foxglove-js"):.1f}x'),
        ('sensor scan, uncompressed >= 1.5 GB/s', rate('sensor.bag') >= 1.5, f'{rate("sensor.bag"):.2f} GB/s'),
        ('sensor scan, lz4 >= 1.5 GB/s', rate('sensor_lz4.bag') >= 1.5, f'{rate("sensor_lz4.bag"):.2f} GB/s'),
    ]
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
