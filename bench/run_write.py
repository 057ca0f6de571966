#!/usr/bin/python3
"""Times writing recordings (issue #19) as whole processes, against peers on the same job in
the same run: `bagscope-cli filter` of the 20 s sensor bag (1.2 GB) to one topic against
`rosbag filter` (python3-rosbag) and a rosbags script (peer_write.py: its reader and ROS 1
writer); `bagscope-cli convert` of it to MCAP without compression, with lz4 and with zstd,
against rosbags copying the same bag (its writer, uncompressed and lz4; it writes no ROS 1
MCAP), and `cp` of the bag, the disk's own bound. Prints medians, GB/s of input, and the
cores used (CPU time / wall time).

    /usr/bin/python3 bench/run_write.py [--runs 5] [--work /tmp/bagscope-bench]

Needs `scripts/setup.sh --bench`, a release build, and ../shared/peers/rosbags. sensor.bag is
generated into --work on first use (shared/fixtures-gen/ros1/generate_large.py --seconds 20).
Outputs go to --work/write-out, removed after each run (the page cache holds the input).
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

from benchlib import parse_args, report, ros1_bags

HERE = os.path.dirname(os.path.abspath(__file__))
TOPIC = '/imu'


def timed(cmd, env=None):
    """Wall seconds and CPU seconds (user + system, children included) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f'{cmd} failed: {proc.stderr.read().decode()}')
    return wall, usage.ru_utime + usage.ru_stime


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    bag = ros1_bags(args.work, args.shared, {'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20']})['sensor.bag']
    cli = os.path.join(os.path.dirname(args.bench_bin), 'bagscope-cli')
    rosbags = os.path.join(args.shared, 'peers', 'rosbags', 'src')
    out = os.path.join(args.work, 'write-out')
    size = os.path.getsize(bag)
    peer_env = dict(os.environ, PYTHONPATH=rosbags)

    jobs = {
        'filter': {
            'bagscope': [cli, 'filter', bag, '-o', f'{out}/f.bag', '--topic', TOPIC, '-q'],
            'python3-rosbag': ['/usr/bin/rosbag', 'filter', bag, f'{out}/f.bag', f"topic == '{TOPIC}'"],
            'rosbags': ['/usr/bin/python3', os.path.join(HERE, 'peer_write.py'), 'filter', bag, f'{out}/f.bag', TOPIC],
        },
        'to mcap none': {'bagscope': [cli, 'convert', bag, '-o', f'{out}/c.mcap', '--compression', 'none', '-q'],
                         'cp (the disk)': ['cp', bag, f'{out}/c.bag'],
                         'rosbags bag none': ['/usr/bin/python3', os.path.join(HERE, 'peer_write.py'), 'copy', bag,
                                              f'{out}/c.bag', 'none']},
        'to mcap lz4': {'bagscope': [cli, 'convert', bag, '-o', f'{out}/c.mcap', '--compression', 'lz4', '-q'],
                        'rosbags bag lz4': ['/usr/bin/python3', os.path.join(HERE, 'peer_write.py'), 'copy', bag,
                                            f'{out}/c.bag', 'lz4']},
        'to mcap zstd': {'bagscope': [cli, 'convert', bag, '-o', f'{out}/c.mcap', '--compression', 'zstd', '-q']},
    }
    results = {}
    print(f'{"job":<16}{"tool":<20}{"median s":>10}{"min s":>9}{"max s":>9}{"ratio":>8}{"in GB/s":>9}{"cores":>7}')
    for job, tools in jobs.items():
        for tool, cmd in tools.items():
            walls, cpus = [], []
            for k in range(args.runs + 1):  # the first run warms the page cache
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                os.sync()  # the last run's dirty pages written out, not throttling this one
                wall, cpu = timed(cmd, env=peer_env if 'rosbags' in tool else None)
                if k:
                    walls.append(wall)
                    cpus.append(cpu)
            med = statistics.median(walls)
            results[(job, tool)] = (med, statistics.median(cpus) / med)
            ratio = med / results[(job, 'bagscope')][0]
            print(f'{job:<16}{tool:<20}{med:>10.3f}{min(walls):>9.3f}{max(walls):>9.3f}{ratio:>7.1f}x'
                  f'{size / med / 1e9:>9.2f}{results[(job, tool)][1]:>7.2f}', flush=True)
    shutil.rmtree(out, ignore_errors=True)

    def speedup(job, peer):
        return results[(job, peer)][0] / results[(job, 'bagscope')][0]
    none = results[('to mcap none', 'bagscope')]
    zstd = results[('to mcap zstd', 'bagscope')]
    checks = [
        ('filter to one topic faster than rosbag filter', speedup('filter', 'python3-rosbag') > 1,
         f'{speedup("filter", "python3-rosbag"):.1f}x python3-rosbag, {speedup("filter", "rosbags"):.1f}x rosbags'),
        ('copy without compression >= 1 GB/s from page cache', size / none[0] >= 1e9,
         f'{size / none[0] / 1e9:.2f} GB/s ({speedup("to mcap none", "cp (the disk)"):.2f}x cp of the same file)'),
        ('zstd on both cores (>= 1.6 cores busy)', zstd[1] >= 1.6, f'{zstd[1]:.2f} cores, {size / zstd[0] / 1e9:.2f} GB/s'),
        ('to MCAP faster than rosbags copying the bag', speedup('to mcap none', 'rosbags bag none') > 1,
         f'{speedup("to mcap none", "rosbags bag none"):.1f}x (none), {speedup("to mcap lz4", "rosbags bag lz4"):.1f}x (lz4)'),
    ]
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
