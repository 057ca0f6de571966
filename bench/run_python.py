#!/usr/bin/python3
"""Times `import bagscope` (issue #36) against the rosbags library (pure Python, from
../shared/peers) in the same run on the same files: every message decoded and ten Imu
columns from the signals bag, every cloud of the sensor bag as numpy structured arrays, and
writing 360,000 Imu messages from dicts, timed in the writer: the dicts are made between the
timed writes, ten at a time (bench/py_workloads.py).

    /usr/bin/python3 bench/run_python.py [--runs 5] [--work /tmp/bagscope-bench]

Needs `scripts/setup.sh --bench` and a release build (the module in build/release/python).
signals.bag (630,000 messages) and sensor.bag (1.2 GB, 200 clouds of 100,000 points) are
generated into --work on first use, as run_session.py and run_export.py do.
"""
import os
import sys

from benchlib import measure, parse_args, report, ros1_bags

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    bags = ros1_bags(args.work, args.shared, {
        'signals.bag': ['bench-peers/gen_signals.py', '1800'],
        'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20']})
    module = os.path.join(os.path.dirname(HERE), 'build/release/python')
    rosbags = os.path.join(args.shared, 'peers/rosbags/src')
    os.environ['PYTHONPATH'] = os.pathsep.join([module, rosbags])
    workload = os.path.join(HERE, 'py_workloads.py')
    tools = {name: (lambda task, path, name=name: ['/usr/bin/python3', workload, name, task, path])
             for name in ('bagscope', 'rosbags')}
    written = os.path.join(args.work, 'written_imu')
    cases = [('signals.bag', 'dicts', bags['signals.bag']), ('signals.bag', 'columns', bags['signals.bag']),
             ('sensor.bag', 'clouds', bags['sensor.bag']), ('360k Imu', 'write', written)]
    results = measure(cases, tools, args.runs, args.work)

    def ratio(label, task):
        return results[(label, task, 'rosbags')][0] / results[(label, task, 'bagscope')][0]
    checks = [(f'{task} on {label}: >= {goal:g}x rosbags', ratio(label, task) >= goal, f'{ratio(label, task):.1f}x')
              for label, task, goal in (('signals.bag', 'dicts', 1), ('signals.bag', 'columns', 20),
                                        ('sensor.bag', 'clouds', 20), ('360k Imu', 'write', 20))]
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
