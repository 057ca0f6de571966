#!/usr/bin/python3
"""`bagscope-cli diff` on runs written here by python3-rosbag: one recording, and the same with a
topic dropped, a rate changed, a bias added to a field, everything later. Each difference is
checked against the value worked out here from what was written; identical runs give exit 0
and report nothing."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

import genpy
import rosbag
from std_msgs.msg import Bool, Float64, Int32, String

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from script_args import parse_script_args  # noqa: E402  (tests/common)

ARGS = None
START = 1_700_000_000  # s


def write_run(path, start=START, drop=(), b_rate=10, bias=0.0, lag=0.0):
    """/a: sin at 50 Hz for 2 s (plus `bias`, and `lag` s later in the run), /b: Int32 at
    `b_rate` Hz, /c: String at 5 Hz, /event: one Bool at 0.5 s + lag. Returns what was written."""
    written = {'/a': [], '/b': [], '/c': [], '/event': []}
    with rosbag.Bag(path, 'w') as bag:
        def put(topic, msg, t):
            if topic in drop:
                return
            ns = round((start + t) * 1e9)
            bag.write(topic, msg, genpy.Time(ns // 10**9, ns % 10**9))
            written[topic].append((ns, msg))
        for i in range(100):
            t = i / 50
            put('/a', Float64(data=math.sin(2 * math.pi * 0.5 * (t - lag)) + bias), t)
        for i in range(round(2 * b_rate)):
            put('/b', Int32(data=i), i / b_rate)
        for i in range(10):
            put('/c', String(data=f'c{i}'), i / 5)
        put('/event', Bool(data=True), 0.5 + lag)
    return written


def cli(*args):
    return subprocess.run([ARGS.cli, *args], capture_output=True, text=True)


def diff_json(a, b, *more):
    p = cli('diff', a, b, '--json', *more)
    if p.returncode not in (0, 1):
        raise AssertionError(f'diff -> {p.returncode}\n{p.stderr}')
    return p.returncode, json.loads(p.stdout)


def rate(times):
    return (len(times) - 1) * 1e9 / (times[-1] - times[0])


class DiffTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.base = os.path.join(d, 'base.bag')
        cls.written = write_run(cls.base)
        cls.same = os.path.join(d, 'same.bag')
        write_run(cls.same, start=START + 100)  # recorded later: aligned by the starts
        cls.dropped = os.path.join(d, 'dropped.bag')
        write_run(cls.dropped, drop=('/c',))
        cls.faster = os.path.join(d, 'faster.bag')
        cls.faster_written = write_run(cls.faster, b_rate=20)
        cls.biased = os.path.join(d, 'biased.bag')
        write_run(cls.biased, bias=0.5)
        cls.lagged = os.path.join(d, 'lagged.bag')
        cls.lagged_written = write_run(cls.lagged, lag=0.3)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_identical_runs_report_nothing_and_exit_0(self):
        code, j = diff_json(self.base, self.same, '--field', '/a:data')
        self.assertEqual(code, 0)
        self.assertEqual((j['only_in_a'], j['only_in_b'], j['differences']), ([], [], 0))
        self.assertEqual(j['shift_ns'], -100 * 10**9)
        self.assertTrue(all(t['changes'] == [] for t in j['topics']))
        self.assertEqual((j['fields'][0]['samples'], j['fields'][0]['max_abs']), (100, 0))
        text = cli('diff', self.base, self.same)
        self.assertEqual(text.returncode, 0)
        self.assertIn('no differences', text.stdout)

    def test_a_dropped_topic_is_only_in_a(self):
        code, j = diff_json(self.base, self.dropped)
        self.assertEqual(code, 1)
        self.assertEqual(j['only_in_a'], [{'topic': '/c', 'type': 'std_msgs/String', 'count': 10}])
        self.assertEqual((j['only_in_b'], j['differences']), ([], 1))
        code, j = diff_json(self.dropped, self.base)
        self.assertEqual([t['topic'] for t in j['only_in_b']], ['/c'])

    def test_a_changed_rate_gives_count_rate_and_gap(self):
        code, j = diff_json(self.base, self.faster)
        self.assertEqual(code, 1)
        b = next(t for t in j['topics'] if t['topic'] == '/b')
        times_a = [ns for ns, _ in self.written['/b']]
        times_b = [ns for ns, _ in self.faster_written['/b']]
        self.assertEqual((b['count_a'], b['count_b']), (len(times_a), len(times_b)))
        self.assertAlmostEqual(b['rate_a_hz'], rate(times_a), places=9)
        self.assertAlmostEqual(b['rate_b_hz'], rate(times_b), places=9)
        self.assertAlmostEqual(b['largest_gap_b_s'], max(y - x for x, y in zip(times_b, times_b[1:])) / 1e9, places=9)
        self.assertEqual(len(b['changes']), 3)  # count, rate, largest gap
        self.assertEqual(j['differences'], 1)  # the one topic; the others are unchanged
        # Within a rate tolerance of 60%, only the count differs.
        _, loose = diff_json(self.base, self.faster, '--rate-tolerance', '0.6')
        self.assertEqual(next(t for t in loose['topics'] if t['topic'] == '/b')['changes'], ['count 20 -> 40'])

    def test_a_bias_is_the_fields_mean_difference(self):
        code, j = diff_json(self.base, self.biased, '--field', '/a:data')
        self.assertEqual(code, 1)
        f = j['fields'][0]
        self.assertEqual((f['topic'], f['path'], f['samples']), ('/a', 'data', 100))
        for key in ('mean', 'rms', 'max_abs'):
            self.assertAlmostEqual(f[key], 0.5, places=12, msg=key)
        self.assertAlmostEqual(f['correlation'], 1.0, places=12)
        # Within tolerance: exit 0.
        code, j = diff_json(self.base, self.biased, '--field', '/a:data', '--tolerance', '0.6')
        self.assertEqual((code, j['differences']), (0, 0))

    def test_aligned_by_an_event(self):
        # B's signal and event come 0.3 s later: by the starts, /a differs (its largest |B - A|
        # worked out here); by /event's first message, or by /a crossing 0.5 upwards, they agree.
        code, by_start = diff_json(self.base, self.lagged, '--field', '/a:data')
        self.assertEqual(code, 1)
        a = [m.data for _, m in self.written['/a']]
        b = [m.data for _, m in self.lagged_written['/a']]
        self.assertAlmostEqual(by_start['fields'][0]['max_abs'], max(abs(x - y) for x, y in zip(a, b)), places=12)
        code, by_event = diff_json(self.base, self.lagged, '--field', '/a:data', '--align', 'event:/event',
                                   '--tolerance', '1e-9')
        self.assertEqual(by_event['shift_ns'], -300_000_000)
        f = by_event['fields'][0]
        self.assertEqual(f['samples'], 100 - 15)  # A's samples in the 1.7 s B covers once moved back
        self.assertLess(f['max_abs'], 1e-9)
        self.assertEqual(code, 0)

        def crossing(written, value):
            pts = [(ns, m.data) for ns, m in written['/a']]
            for (t0, v0), (t1, v1) in zip(pts, pts[1:]):
                if v0 <= value < v1:
                    return t0 + round((value - v0) / (v1 - v0) * (t1 - t0))
        _, by_value = diff_json(self.base, self.lagged, '--align', 'event:/a:data>0.5')
        self.assertEqual(by_value['shift_ns'], crossing(self.written, 0.5) - crossing(self.lagged_written, 0.5))
        self.assertLess(abs(by_value['shift_ns'] + 300_000_000), 1_000_000)

    def test_usage_and_unreadable_inputs(self):
        for bad in ([self.base], [self.base, self.same, '--align', 'middle'], [self.base, self.same, '--field', '/a'],
                    [self.base, self.same, '--tolerance', '-1'], [self.base, self.same, '--align', 'event:/a:data=1']):
            self.assertEqual(cli('diff', *bad).returncode, 2, bad)
        p = cli('diff', self.base, os.path.join(self.tmp.name, 'missing.bag'))
        self.assertEqual(p.returncode, 1)
        self.assertIn('missing.bag', p.stderr)
        p = cli('diff', self.base, self.dropped, '--field', '/c:data')
        self.assertEqual(p.returncode, 1)
        self.assertIn("B has no topic '/c'", p.stderr)
        p = cli('diff', self.base, self.same, '--align', 'event:/nothing')
        self.assertEqual(p.returncode, 1)
        self.assertIn("no message on '/nothing'", p.stderr)


def main():
    global ARGS
    ARGS, rest = parse_script_args('test_diff.py')
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)


if __name__ == '__main__':
    main()
