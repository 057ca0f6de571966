#!/usr/bin/python3
"""Times the session layer (issue #4): field extraction and timing stats on the signals bag,
and peak memory when a 4 GB bag is read with a 256 MiB chunk cache.

    /usr/bin/python3 bench/run_session.py [--runs 5] [--work /tmp/bagscope-bench]

Needs `scripts/setup.sh --bench` and a release build. Bags are generated into --work on
first use: signals.bag (shared/bench-peers/gen_signals.py, 1800 s: 630,000 messages) and
huge.bag (shared/fixtures-gen/ros1/generate_large.py --seconds 70: 4.2 GB, uncompressed).

Session tasks time the work on an open session (bagscope-bench session-open times the
opening). The peer for extraction is python3-rosbag's imu task in the same run (it reads
ten Imu columns with genpy; ours reads three, so the ratio is only indicative). Peak
memory is /usr/bin/time -v's "Maximum resident set size" of the whole process.
"""
import os
import re
import subprocess
import sys

from benchlib import ensure_peers, measure, parse_args, report, ros1_bags


def peak_rss_mb(cmd, env):
    """Runs cmd under /usr/bin/time -v; returns (peak RSS in MB, stdout, stderr)."""
    p = subprocess.run(['/usr/bin/time', '-v'] + cmd, env=env, check=True, capture_output=True, text=True)
    kb = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', p.stderr).group(1))
    return kb / 1024, p.stdout.strip(), p.stderr


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    ros1_bags(args.work, args.shared, {'signals.bag': ['bench-peers/gen_signals.py', '1800'],
                                       'huge.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '70']})
    peers = ensure_peers(args.work, args.shared)

    peer_task = {'session-imu': 'imu', 'session-open': 'open'}
    tools = {
        'bagscope': lambda task, bag: [args.bench_bin, task, bag],
        'python3-rosbag': lambda task, bag: (['/usr/bin/python3', os.path.join(peers, 'pypeer.py'), 'rosbag',
                                              peer_task[task], bag] if task in peer_task else None),
    }
    signals = os.path.join(args.work, 'signals.bag')
    cases = [('signals.bag', task, signals)
             for task in ('session-open', 'session-imu', 'session-stats', 'derive-rpy', 'derive-expression')]
    results = measure(cases, tools, args.runs, peers)

    huge = os.path.join(args.work, 'huge.bag')
    env = dict(os.environ, BAGSCOPE_CACHE_MIB='256')
    print(f'\nhuge.bag: {os.path.getsize(huge) / 1e9:.2f} GB, cache budget 256 MiB')
    rss = {}
    for task in ('session-scan', 'session-read'):
        rss[task], out, err = peak_rss_mb([args.bench_bin, task, huge], env)
        cache = next((line for line in err.splitlines() if line.startswith('cache:')), '')
        print(f'  {task:<14} peak RSS {rss[task]:7.1f} MB   {out}   {cache}')

    def ms(task):
        return results[('signals.bag', task, 'bagscope')][0] * 1000

    checks = [
        ('extract 3 Imu fields over signals.bag <= 150 ms', ms('session-imu') <= 150, f'{ms("session-imu"):.0f} ms'),
        ('timing stats over signals.bag <= 200 ms', ms('session-stats') <= 200, f'{ms("session-stats"):.0f} ms'),
        ('plot: roll of 360,000 Imu orientations <= 50 ms', ms('derive-rpy') <= 50, f'{ms("derive-rpy"):.1f} ms'),
        ('plot: sqrt(a^2 + b^2) over two 360,000-sample series <= 50 ms', ms('derive-expression') <= 50,
         f'{ms("derive-expression"):.1f} ms'),
        ('scan huge.bag, 256 MiB cache: peak RSS <= 400 MB', rss['session-scan'] <= 400, f'{rss["session-scan"]:.0f} MB'),
        ('random access to all of huge.bag, 256 MiB cache: peak RSS <= 400 MB', rss['session-read'] <= 400,
         f'{rss["session-read"]:.0f} MB'),
    ]
    return report(checks)


if __name__ == '__main__':
    sys.exit(main())
