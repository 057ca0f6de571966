#!/usr/bin/python3
"""GUI responsiveness (issue #6) and panel speed (issue #7): the longest the GUI thread goes without handling events
while the real window opens a large bag and builds its index, measures topic sizes in the
background, and plays at 10x with the inspector and a 3D view following the cloud topic
(else the inspector on the busiest topic), then shows the export wizard's preview of every
topic. Target: no stall over 50 ms. Also printed: how
far behind the playhead the panels fall at 10x (wall-clock ms).

    /usr/bin/python3 bench/run_gui.py [--runs 5] [--work /tmp/bagscope-bench]

Needs `scripts/setup.sh --bench` and a release build. Runs bagscope-gui-bench under
xvfb-run on sensor.bag (1.2 GB, lz4) and huge.bag (4.2 GB, uncompressed), generated into
--work on first use (shared/fixtures-gen/ros1/generate_large.py --seconds 20 / 70). The
watchdog is a 2 ms timer on the GUI thread; each run prints per phase the worst gap
between its ticks. Reported: the median over runs of each phase's worst stall, and the
worst of all runs.
"""
import json
import os
import statistics
import subprocess
import sys

from benchlib import parse_args, ros1_bags


def main():
    args = parse_args(__doc__, '/tmp/bagscope-bench')
    bags = ros1_bags(args.work, args.shared, {
        'sensor.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '20'],
        'huge.bag': ['fixtures-gen/ros1/generate_large.py', '--seconds', '70'],
    })
    gui_bench = os.path.join(os.path.dirname(args.bench_bin), 'bagscope-gui-bench')
    phases = ['open_and_index', 'measure_sizes', 'play_10x', 'export_preview']
    worst = 0.0
    print(f'{"file":<12}{"phase":<16}{"median worst stall ms":>24}{"max ms":>9}{"median p99 ms":>15}')
    for name, path in bags.items():
        runs = []
        for _ in range(args.runs):
            out = subprocess.run(['xvfb-run', '-a', '-s', '-screen 0 1280x900x24', gui_bench, path], check=True,
                                 capture_output=True, text=True).stdout
            runs.append(json.loads(out.strip().splitlines()[-1]))
        for phase in phases:
            stalls = [r[phase]['worst_stall_ms'] for r in runs]
            p99 = [r[phase]['p99_ms'] for r in runs]
            worst = max(worst, max(stalls))
            print(f'{name:<12}{phase:<16}{statistics.median(stalls):>24.1f}{max(stalls):>9.1f}{statistics.median(p99):>15.1f}')
        # How far the inspector and the 3D view (on the cloud topic, when there is one) fall
        # behind the playhead at 10x, in wall-clock ms: the worst of each run.
        for lag in ('inspector_lag_10x', 'cloud_lag_10x'):
            if lag in runs[0]:
                worsts = [r[lag]['max_ms'] for r in runs]
                print(f'{name:<12}{lag:<16}{statistics.median(worsts):>24.1f}{max(worsts):>9.1f}')
    met = worst <= 50
    print(f'\nworst stall of all runs: {worst:.1f} ms (target <= 50 ms): {"met" if met else "NOT met"}')

    # Panels (issue #7): step to the next 640x480 image / 100,000-point cloud of sensor.bag
    # (playhead moved -> frame painted), and zoom/pan a plot of 10 million points.
    print(f'\n{"panel":<34}{"median ms":>11}{"max ms":>9}{"target ms":>11}')
    targets = {'image_640x480_step': 30, 'cloud_step': 150, 'plot_10M_zoom_pan': 50,
               'plot_10M_zoom_pan_right_axis_readout': 50, 'log_1M_filter': 100, 'scene_step': 150}
    # The 3D scene's layers beside the sensor bag: 500 markers every 0.1 s, a 10,000-pose path.
    scene_bag = os.path.join(args.work, 'scene_layers.bag')
    if not os.path.exists(scene_bag):
        subprocess.run(['/usr/bin/python3', os.path.join(os.path.dirname(__file__), 'gen_scene_bag.py'),
                        bags['sensor.bag'], scene_bag], check=True)
    medians = {k: [] for k in targets}
    maxima = {k: [] for k in targets}
    for _ in range(args.runs):
        out = subprocess.run(['xvfb-run', '-a', '-s', '-screen 0 1280x900x24', gui_bench, 'panels', bags['sensor.bag'],
                              scene_bag],
                             check=True, capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        for k in targets:
            medians[k].append(r[k]['median_ms'])
            maxima[k].append(r[k]['max_ms'])
    for k, target in targets.items():
        m = statistics.median(medians[k])
        met = met and m <= target
        print(f'{k:<34}{m:>11.1f}{max(maxima[k]):>9.1f}{target:>11}')
    print(f'(median over {args.runs} runs of each run\'s median; every panel target met: {met})')
    return 0 if met else 1


if __name__ == '__main__':
    sys.exit(main())
