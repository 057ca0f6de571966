#!/usr/bin/python3
"""Times migrating ROS 1 bags to ROS 2 (issue #37) as whole processes, against rosbags-convert
(../shared/peers/rosbags, pure Python) on the same bag in the same run: `bagscope-cli convert BAG
--to-ros2 -o OUT` (a rosbag2 folder with MCAP storage, as rosbags writes; by default zstd, and
with --compression none, rosbags' own choice) on the signals bag (630,000 small messages) and
the 1.2 GB sensor bag (images and clouds). Target: >= 20x rosbags-convert.

    /usr/bin/python3 bench/run_translate.py [--runs 3] [--work /tmp/bagscope-bench]

Needs a release build and ../shared/peers/rosbags; the bags are generated into --work on first
use. Outputs go to --work/translate-out, removed after each run.
"""
import os
import shutil
import statistics
import sys

from benchlib import parse_args, report, ros1_bags
from run_write import timed


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    bags = ros1_bags(args.work, args.shared, {
        'signals.bag': ['bench-peers/gen_signals.py', '1800'],
        'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20'],
    })
    cli = os.path.join(os.path.dirname(args.bench_bin), 'bagscope-cli')
    peer_env = dict(os.environ, PYTHONPATH=os.path.join(args.shared, 'peers', 'rosbags', 'src'))
    out = os.path.join(args.work, 'translate-out')
    tools = {
        'bagscope': lambda bag: [cli, 'convert', bag, '--to-ros2', '-o', f'{out}/o', '-q'],
        'bagscope none': lambda bag: [cli, 'convert', bag, '--to-ros2', '-o', f'{out}/o', '--compression', 'none', '-q'],
        'rosbags-convert': lambda bag: ['/usr/bin/python3', '-m', 'rosbags.convert', '--src', bag, '--dst', f'{out}/o',
                                        '--dst-storage', 'mcap'],
    }
    results = {}
    print(f'{"bag":<14}{"tool":<18}{"median s":>10}{"min s":>9}{"max s":>9}{"cores":>7}')
    for name, bag in bags.items():
        for tool, cmd in tools.items():
            walls, cpus = [], []
            for k in range(args.runs + 1):  # the first run warms the page cache
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                os.sync()
                wall, cpu = timed(cmd(bag), env=peer_env if tool == 'rosbags-convert' else None)
                if k:
                    walls.append(wall)
                    cpus.append(cpu)
            med = statistics.median(walls)
            results[(name, tool)] = med
            print(f'{name:<14}{tool:<18}{med:>10.3f}{min(walls):>9.3f}{max(walls):>9.3f}'
                  f'{statistics.median(cpus) / med:>7.2f}', flush=True)
    shutil.rmtree(out, ignore_errors=True)

    checks = []
    for name in bags:
        peer = results[(name, 'rosbags-convert')]
        fast, none = peer / results[(name, 'bagscope')], peer / results[(name, 'bagscope none')]
        checks.append((f'{name} to ROS 2 >= 20x rosbags-convert', fast >= 20,
                       f'{fast:.1f}x (zstd), {none:.1f}x (no compression, as rosbags writes)'))
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
