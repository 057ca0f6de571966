"""Shared by the bench drivers: run a tool that times itself, take medians, print a table."""
import os
import shutil
import statistics
import subprocess
import time


def run(cmd, cwd=None, whole=False):
    """Runs a workload printing "<tool> <task> <seconds> <count> [<bytes> ...]"; returns
    (seconds, count, bytes). With `whole`, the seconds are the whole process's, start-up and
    exit included, and any command will do (count and bytes are 0 when it prints no such line)."""
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    try:
        fields = out.strip().splitlines()[-1].split()
        seconds, count, nbytes = float(fields[2]), int(fields[3]), int(fields[4]) if len(fields) > 4 else 0
    except (IndexError, ValueError):
        if not whole:
            raise
        seconds, count, nbytes = wall, 0, 0
    return (wall if whole else seconds), count, nbytes


def cpp_peers(work, shared):
    """The native C++ peers (shared/bench-peers/cpp: Debian's librosbag and Foxglove's C++ MCAP
    reader), built into WORK/cpp-peers once; returns {'rosbag-cpp': path, 'mcap-cpp': path}."""
    out = os.path.join(work, 'cpp-peers')
    paths = {'rosbag-cpp': os.path.join(out, 'rosbag_peer'), 'mcap-cpp': os.path.join(out, 'mcap_peer')}
    if not all(os.path.exists(p) for p in paths.values()):
        subprocess.run(['bash', os.path.join(shared, 'bench-peers', 'cpp', 'build.sh'), out], check=True)
    return paths


def ros1_bags(work, shared, specs):
    """Generates the ROS 1 bags of specs {name: generator arguments} into WORK once; returns
    {name: path}. Arguments name a generator under shared/ (bench-peers/gen_signals.py,
    fixtures-gen/ros1/generate_large.py) followed by its options."""
    paths = {}
    for name, (script, *options) in specs.items():
        path = paths[name] = os.path.join(work, name)
        if not os.path.exists(path):
            print('generating', path, flush=True)
            subprocess.run(['/usr/bin/python3', os.path.join(shared, script), path, *options], check=True)
    return paths


def parse_args(doc, work, more=()):
    """The options every driver takes: --runs, --work, --shared, --bench-bin; and `more`, a
    list of (option, default)."""
    import argparse
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=doc.split('\n\n')[0])
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--work', default=work)
    ap.add_argument('--shared', default=os.path.join(root, '..', 'shared'))
    ap.add_argument('--bench-bin', default=os.path.join(root, 'build/release/bin/bagscope-bench'))
    for option, default in more:
        ap.add_argument(option, default=default)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    return args


def ensure_peers(work, shared):
    """shared/bench-peers copied into WORK/peers, with its npm packages installed once, and
    our own JS peer beside them (js_cat.mjs: `cat` as JSON, which shared/ has none of)."""
    peers = os.path.join(work, 'peers')
    os.makedirs(peers, exist_ok=True)
    for f in ('package.json', 'jspeer.mjs', 'pypeer.py'):
        shutil.copy(os.path.join(shared, 'bench-peers', f), peers)
    shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'js_cat.mjs'), peers)
    if not os.path.isdir(os.path.join(peers, 'node_modules')):
        subprocess.run(['npm', 'install', '--no-audit', '--no-fund'], cwd=peers, check=True)
    return peers


def measure(cases, tools, runs, cwd, whole=False):
    """cases: [(label, task, path)]; tools: {name: fn(task, path) -> argv or None}. The first
    tool is the one ratios are taken against; `whole` times whole processes (run()). Returns
    {(label, task, tool): (median, count, bytes)}."""
    results = {}
    names = list(tools)
    print(f'{"file":<22}{"task":<15}{"tool":<16}{"median s":>10}{"min s":>9}{"max s":>9}{"count":>9}{"ratio":>8}{"GB/s":>7}')
    for label, task, path in cases:
        for tool in names:
            cmd = tools[tool](task, path)
            if cmd is None:
                continue
            run(cmd, cwd=cwd, whole=whole)  # warm-up: page cache, JIT
            times, count, nbytes = [], 0, 0
            for _ in range(runs):
                t, count, b = run(cmd, cwd=cwd, whole=whole)
                times.append(t)
                nbytes = max(nbytes, b)
            med = statistics.median(times)
            results[(label, task, tool)] = (med, count, nbytes)
            base = results[(label, task, names[0])]
            ratio = med / base[0]
            rate = f'{base[2] / base[0] / 1e9:7.2f}' if tool == names[0] and base[2] else ''
            print(f'{label:<22}{task:<15}{tool:<16}{med:>10.4f}{min(times):>9.4f}{max(times):>9.4f}{count:>9}'
                  f'{ratio:>7.1f}x{rate}', flush=True)
            if count != base[1] and count and base[1]:
                print(f'  !! {tool} counted {count} messages, {names[0]} {base[1]}', flush=True)
    return results


def report(checks):
    print()
    for name, ok, value in checks:
        print(f'{"PASS" if ok else "MISS"}  {name}: {value}')
    return 0 if all(ok for _, ok, _ in checks) else 1
