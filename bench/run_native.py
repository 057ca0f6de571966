#!/usr/bin/python3
"""Times Bagscope against the native C++ libraries and `info` against its peers, as whole processes.

    /usr/bin/python3 bench/run_native.py [--runs 5] [--work /tmp/bagscope-bench] [--mcap-work /tmp/bagscope-bench2]

The targets of issue #38. The peers are Debian's librosbag (the ros_comm C++ API) and
Foxglove's own C++ MCAP reader, from shared/bench-peers/cpp (built into WORK/cpp-peers on
first use: `scripts/setup.sh --bench` installs what they need). They print bagscope-bench's
line; every process is timed whole, start-up and exit included, the way a user waits for it.
`info` is `bagscope-cli info` against `rosbag info` (python3-rosbag) and Foxglove's JS MCAP
reader opening the file's summary, also on the 4.2 GB huge.bag (<= 60 ms). `cat --topic /imu` of
the signals MCAP as JSON lines against the same JS reader with Foxglove's CDR decoder
(bench/js_cat.mjs), both writing to /dev/null (>= 8x). The ROS 1 bags are run_ros1.py's (in --work), the MCAP
files run_ros2.py's (in --mcap-work); both are generated on first use.
"""
import os
import sys

from benchlib import cpp_peers, ensure_peers, measure, parse_args, report, ros1_bags
from run_ros2 import ensure_files as ensure_mcap_files


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench', [('--mcap-work', '/tmp/bagscope-bench2')])
    bags = ros1_bags(args.work, args.shared, {
        'signals.bag': ['bench-peers/gen_signals.py', '1800'],
        'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20'],
        'sensor_lz4.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20', '--compression', 'lz4'],
        'huge.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '70'],  # 4.2 GB, for info
    })
    os.makedirs(args.mcap_work, exist_ok=True)
    ensure_mcap_files(args.mcap_work, args.shared)
    mcap = {
        'signals none': f'{args.mcap_work}/signals/signals_none.mcap',
        'signals zstd': f'{args.mcap_work}/signals/signals_zstd.mcap',
        'sensor zstd': f'{args.mcap_work}/sensor/large_zstd.mcap',
        'sensor lz4': f'{args.mcap_work}/sensor/large_lz4.mcap',
    }
    native = cpp_peers(args.work, args.shared)
    peers = ensure_peers(args.work, args.shared)
    cli = os.path.join(os.path.dirname(args.bench_bin), 'bagscope-cli')

    def native_peer(task, path):
        return [native['mcap-cpp' if path.endswith('.mcap') else 'rosbag-cpp'], task, path]

    reading = measure(
        [(label, 'scan', path) for label, path in mcap.items()] +
        [('sensor.bag', 'scan', bags['sensor.bag']), ('sensor_lz4.bag', 'scan', bags['sensor_lz4.bag']),
         ('signals.bag', 'scan', bags['signals.bag']), ('signals.bag', 'imu', bags['signals.bag'])],
        {'bagscope': lambda task, path: [args.bench_bin, task, path], 'c++': native_peer},
        args.runs, args.work, whole=True)
    print()
    info = measure(
        [('signals.bag', 'info', bags['signals.bag']), ('signals none', 'info', mcap['signals none']),
         ('signals zstd', 'info', mcap['signals zstd']), ('huge.bag', 'info', bags['huge.bag'])],
        {'bagscope-cli': lambda task, path: [cli, 'info', path],
         'rosbag info': lambda task, path: None if path.endswith('.mcap') else ['rosbag', 'info', path],
         'mcap-js': lambda task, path: ['node', os.path.join(peers, 'jspeer.mjs'), 'mcap', 'open', path]
         if path.endswith('.mcap') else None},
        args.runs, peers, whole=True)  # the JS reader finds its modules from there
    print()

    def to_null(*argv):  # the text goes to /dev/null, not through this script
        return ['sh', '-c', ' '.join(f"'{a}'" for a in argv) + ' > /dev/null']

    cat = measure(
        [('signals none', 'cat /imu', mcap['signals none'])],
        {'bagscope-cli': lambda task, path: to_null(cli, 'cat', '--topic', '/imu', path),
         'mcap-js': lambda task, path: to_null('node', os.path.join(peers, 'js_cat.mjs'), '/imu', path)},
        args.runs, peers, whole=True)

    def ahead(label, task):
        return reading[(label, task, 'c++')][0] / reading[(label, task, 'bagscope')][0]

    checks = [(f'{label} {task}: >= {target}x the C++ reader', ahead(label, task) >= target, f'{ahead(label, task):.2f}x')
              for label, task, target in [
                  ('signals none', 'scan', 2), ('signals zstd', 'scan', 2), ('sensor zstd', 'scan', 1.6),
                  ('sensor lz4', 'scan', 1.6), ('sensor_lz4.bag', 'scan', 2), ('sensor.bag', 'scan', 3),
                  ('signals.bag', 'imu', 6), ('signals.bag', 'scan', 8)]]
    for label, goal in (('signals.bag', 25), ('signals none', 25), ('signals zstd', 25), ('huge.bag', 60)):
        ms = info[(label, 'info', 'bagscope-cli')][0] * 1000
        checks.append((f'info {label} <= {goal} ms', ms <= goal, f'{ms:.1f} ms'))
    js_over_ours = cat[('signals none', 'cat /imu', 'mcap-js')][0] / cat[('signals none', 'cat /imu', 'bagscope-cli')][0]
    checks.append(('cat --topic /imu as JSON: >= 8x the JS reader', js_over_ours >= 8, f'{js_over_ours:.2f}x'))
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
