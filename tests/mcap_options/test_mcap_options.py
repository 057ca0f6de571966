#!/usr/bin/python3
"""MCAP written with every combination of the options of Foxglove's own writer (@mcap/core's
McapWriter: chunks, chunk index, message index, statistics, summary offsets, repeated schemas
and channels; write_variants.mjs), and the same files with padded records (fields a later
version of the format may add: readers must skip them), read by bagscope-cli. Every message
written is read back, equal to what was written, in log-time order; `info` counts them all;
a statistics record that disagrees with the chunks is said.

    test_mcap_options.py --cli BAGSCOPE_CLI --npm-cache DIR
"""
import argparse
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib
from pathlib import Path

ARGS = None
HERE = Path(__file__).resolve().parent
MAGIC = b'\x89MCAP0\r\n'
OP_HEADER, OP_FOOTER, OP_SCHEMA, OP_CHANNEL, OP_MESSAGE, OP_CHUNK = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
OP_MESSAGE_INDEX, OP_CHUNK_INDEX, OP_STATISTICS, OP_SUMMARY_OFFSET, OP_DATA_END = 0x07, 0x08, 0x0B, 0x0E, 0x0F
PAD = b'\xa5\x5a\xa5'


def records(data, at=0, end=None):
    """(opcode, content) of each record in data[at:end]."""
    end = len(data) if end is None else end
    while at < end:
        op, n = data[at], struct.unpack_from('<Q', data, at + 1)[0]
        yield op, data[at + 9:at + 9 + n]
        at += 9 + n


def record(op, content):
    return bytes([op]) + struct.pack('<Q', len(content)) + content


def footer_of(data):
    return struct.unpack_from('<QQI', data, len(data) - 8 - 20)


def pad_data_section(data):
    """Every record of the data section (and every record inside an uncompressed chunk) with
    bytes after its fields, but messages (whose data runs to the record's end); message indexes
    and the summary dropped (their offsets no longer hold), so the reader must scan."""
    summary_start, _, _ = footer_of(data)
    end = summary_start if summary_start else len(data) - 8 - 20 - 9
    out = bytearray(MAGIC)
    for op, content in records(data, len(MAGIC), end):
        if op == OP_DATA_END:
            break
        if op == OP_MESSAGE_INDEX:
            continue
        if op == OP_CHUNK:
            start, stop, size, crc = struct.unpack_from('<QQQI', content)
            name_len = struct.unpack_from('<I', content, 28)[0]
            compression = content[32:32 + name_len]
            assert compression == b'', 'the variants are uncompressed'
            at = 32 + name_len
            n = struct.unpack_from('<Q', content, at)[0]
            inner = content[at + 8:at + 8 + n]
            padded = b''.join(record(o, c if o == OP_MESSAGE else c + PAD) for o, c in records(inner))
            content = (struct.pack('<QQQI', start, stop, len(padded), zlib.crc32(padded)) +
                       struct.pack('<I', 0) + struct.pack('<Q', len(padded)) + padded)
        out += record(op, content if op == OP_MESSAGE else content + PAD)  # a message's data runs to its end
    out += record(OP_DATA_END, struct.pack('<I', 0) + PAD)
    out += record(OP_FOOTER, struct.pack('<QQI', 0, 0, 0)) + MAGIC
    return bytes(out)


def pad_summary(data):
    """Every record of the summary section with bytes after its fields; the summary offsets
    dropped and the footer's summary CRC cleared (both would have to follow the new sizes)."""
    summary_start, _, _ = footer_of(data)
    if not summary_start:
        return None
    footer_at = len(data) - 8 - 20 - 9
    summary = b''.join(record(op, c + PAD) for op, c in records(data, summary_start, footer_at)
                       if op != OP_SUMMARY_OFFSET)
    return (data[:summary_start] + summary + record(OP_FOOTER, struct.pack('<QQI', summary_start, 0, 0)) + MAGIC)


def claim_more_in_statistics(data, extra):
    """The statistics record (summary) says `extra` more messages on each channel than were written."""
    summary_start, _, _ = footer_of(data)
    footer_at = len(data) - 8 - 20 - 9
    out = []
    for op, c in records(data, summary_start, footer_at):
        if op == OP_STATISTICS:
            head = bytearray(c[:42])
            struct.pack_into('<Q', head, 0, struct.unpack_from('<Q', head)[0] + 3 * extra)
            n = struct.unpack_from("<I", c, 42)[0]
            counts = b''.join(struct.pack('<HQ', ch, k + extra) for ch, k in struct.iter_unpack('<HQ', c[46:46 + n]))
            c = bytes(head) + struct.pack('<I', len(counts)) + counts
        if op != OP_SUMMARY_OFFSET:
            out.append(record(op, c))
    return data[:summary_start] + b''.join(out) + record(OP_FOOTER, struct.pack('<QQI', summary_start, 0, 0)) + MAGIC


def cli(*args):
    return subprocess.run([ARGS.cli, *map(str, args)], capture_output=True, text=True)


class WriterOptions(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = Path(tempfile.mkdtemp(prefix='bagscope-mcap-options-'))
        modules = Path(ARGS.npm_cache).resolve()  # tests/npm/install.sh put the packages there
        run = subprocess.run(['node', str(HERE / 'write_variants.mjs'), str(modules), str(cls.dir)],
                             capture_output=True, text=True, check=True)
        written = json.loads(run.stdout)
        cls.expected = sorted((t, int(log), json.loads(d)) for t, log, _, d in written)
        cls.expected.sort(key=lambda m: m[1])
        cls.variants = sorted(cls.dir.glob('*.mcap'))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def read_back(self, path):
        run = cli('cat', path)
        self.assertEqual(run.returncode, 0, f'{path.name}: {run.stderr}')
        got = [json.loads(line) for line in run.stdout.splitlines()]
        return [(m['topic'], m['log_time_ns'], m['msg']) for m in got]

    def check(self, path):
        self.assertEqual(self.read_back(path), self.expected, path.name)
        info = json.loads(cli('info', path, '--json').stdout)
        self.assertEqual(info['message_count'], 40, path.name)
        self.assertEqual({t['topic']: t['message_count'] for t in info['topics']}, {'/a': 14, '/b': 13, '/c': 13},
                         path.name)

    def test_every_combination_of_options(self):
        self.assertEqual(len(self.variants), 80)  # 64 chunked, 16 not (only chunks have indexes)
        for path in self.variants:
            with self.subTest(path.name):
                self.check(path)

    def test_padded_records_in_the_data_section(self):
        for path in self.variants:
            padded = path.with_name('data-padded-' + path.name)
            padded.write_bytes(pad_data_section(path.read_bytes()))
            with self.subTest(padded.name):
                self.assertEqual(self.read_back(padded), self.expected, padded.name)

    def test_padded_records_in_the_summary(self):
        checked = 0
        for path in self.variants:
            data = pad_summary(path.read_bytes())
            if data is None:
                continue
            padded = path.with_name('summary-padded-' + path.name)
            padded.write_bytes(data)
            with self.subTest(padded.name):
                self.check(padded)
            checked += 1
        self.assertGreater(checked, 40)

    def test_statistics_that_disagree_with_the_chunks_are_said(self):
        path = self.dir / 'Chunks-ChunkIndex-Statistics.mcap'
        liar = self.dir / 'liar.mcap'
        liar.write_bytes(claim_more_in_statistics(path.read_bytes(), 5))
        run = cli('cat', liar)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertIn('the statistics record says 19 messages on /a, the chunks hold 14', run.stderr)
        self.assertEqual(len(run.stdout.splitlines()), 40)


if __name__ == '__main__':
    parser = argparse.ArgumentParser()
    parser.add_argument('--cli', required=True)
    parser.add_argument('--npm-cache', required=True)
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
