#!/usr/bin/python3
"""bagscope-cli filter, merge, convert and recover, checked by readers that are not Bagscope's:

- ROS 1 bags: Debian's python3-rosbag (raw reads: bytes, times, md5sums, definitions,
  callerids, latching; its chunk and index checks);
- MCAP: Foxglove's @mcap/core through verify_mcap.mjs (indexed and streaming readers, every
  CRC, statistics, chunk and message indexes), installed from npm into the build tree;
- rosbag2 folders (MCAP and SQLite storage): the rosbags library from ../shared/peers.

Expectations are what those readers read from the input fixtures, chosen and ordered here
by hand (topic, time range, every n-th, merge order). Every case asserts; nothing is skipped.

    test_write.py --cli BAGSCOPE_CLI --data tests/data --rosbags DIR --npm-cache DIR
"""
import hashlib
import json
import os
import re
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import rosbag

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'common'))
from script_args import parse_script_args  # noqa: E402  (tests/common)

ARGS = None
HERE = Path(__file__).resolve().parent


def sha(data):
    return hashlib.sha256(bytes(data)).hexdigest()


def data(*parts):
    return str(Path(ARGS.data, *parts))


def cli(*args, check=True, **kw):
    run = subprocess.run([ARGS.cli, *map(str, args)], capture_output=True, text=True, **kw)
    if check and run.returncode != 0:
        raise AssertionError(f'bagscope-cli {" ".join(map(str, args))} exited {run.returncode}:\n{run.stderr}')
    return run


# ---- the independent readers -------------------------------------------------------------

def ros1_messages(path):
    """[(topic, time_ns, sha256)] in the order python3-rosbag reads them (log time)."""
    with rosbag.Bag(str(path)) as b:
        return [(topic, t.to_nsec(), sha(raw[1])) for topic, raw, t in b.read_messages(raw=True)]


def ros1_connections(path):
    """{topic: set of (type, md5sum, definition, callerid, latching)} from the bag's connection records."""
    out = {}
    with rosbag.Bag(str(path)) as b:
        for c in b._connections.values():
            h = c.header
            latching = h.get('latching', b'0') in (b'1', '1')
            callerid = h.get('callerid', b'')
            callerid = callerid.decode() if isinstance(callerid, bytes) else callerid
            out.setdefault(c.topic, set()).add((c.datatype, c.md5sum, c.msg_def, callerid, latching))
    return out


def mcap_read(*paths):
    """What @mcap/core reads from each file (verify_mcap.mjs), as dicts."""
    modules = Path(ARGS.npm_cache).resolve()  # tests/npm/install.sh put the packages there
    run = subprocess.run(['node', str(HERE / 'verify_mcap.mjs'), str(modules), *map(str, paths)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f'@mcap/core refused {paths}: {run.stderr}')
    import json
    return [json.loads(line) for line in run.stdout.splitlines()]


def mcap_messages(path):
    return [(t, int(time), h) for t, time, h in mcap_read(path)[0]['messages']]


def rosbags_read(folder):
    """(messages as [(topic, time_ns, sha256)] in log-time order, connections, metadata) by rosbags."""
    sys.path.insert(0, ARGS.rosbags)
    from rosbags.rosbag2 import Reader
    with Reader(Path(folder)) as r:
        messages = [(c.topic, t, sha(d)) for c, t, d in r.messages()]
        conns = {c.topic: (c.msgtype, c.msgdef.data, c.ext.serialization_format, c.ext.offered_qos_profiles)
                 for c in r.connections}
        return messages, conns, r.message_count


def decoded_by_rosbags(folder):
    """Every message of a rosbag2 folder as rosbags decodes it from the definitions the folder
    holds (no type store of its own), as plain values in log-time order."""
    sys.path.insert(0, ARGS.rosbags)
    from rosbags.highlevel import AnyReader

    def plain(v):
        if hasattr(v, '__dataclass_fields__'):
            return {k: plain(getattr(v, k)) for k in v.__dataclass_fields__ if k != '__msgtype__'}
        if hasattr(v, 'tolist'):
            return repr(v.tolist())
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return repr(v)
    with AnyReader([Path(folder)]) as r:
        out = [(c.topic, t, plain(r.deserialize(raw, c.msgtype))) for c, t, raw in r.messages()]
    return sorted(out, key=lambda m: (m[1], m[0]))


def metadata_yaml(folder):
    from ruamel.yaml import YAML
    return YAML(typ='safe').load(Path(folder, 'metadata.yaml'))['rosbag2_bagfile_information']


def by_time(messages):
    """Stable sort by log time: the order a merged recording has (ties in input order)."""
    return sorted(messages, key=lambda m: m[1])


class Workspace(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix='bagscope-write-'))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def assertNoLeftovers(self, folder=None):
        left = [p.name for p in Path(folder or self.dir).iterdir() if '.part-' in p.name]
        self.assertEqual(left, [], 'temporary outputs left behind')


class Ros1Bags(Workspace):
    def test_filter_without_filters_reproduces_every_message(self):
        for fixture in ('demo_uncompressed.bag', 'demo_bz2.bag', 'demo_lz4.bag'):
            expected = ros1_messages(data('ros1', fixture))
            self.assertEqual(len(expected), 717)
            for compression in ('none', 'bz2', 'lz4'):
                out = self.dir / f'{fixture}.{compression}.bag'
                cli('filter', data('ros1', fixture), '-o', out, '--compression', compression, '-q')
                self.assertEqual(ros1_messages(out), expected, f'{fixture} as {compression}')
                self.assertEqual(ros1_connections(out), ros1_connections(data('ros1', fixture)))
                with rosbag.Bag(str(out)) as b:
                    info = b.get_compression_info()
                    self.assertEqual(info.compression, compression)
                    self.assertEqual(b.get_message_count(), 717)
        self.assertNoLeftovers()

    def test_bag_to_mcap_to_bag_keeps_definitions_md5s_callerids_latching(self):
        source = data('ros1', 'demo_lz4.bag')
        for compression in ('zstd', 'lz4', 'none'):
            mcap = self.dir / f'demo.{compression}.mcap'
            back = self.dir / f'demo.{compression}.bag'
            cli('convert', source, '-o', mcap, '--compression', compression, '-q')
            read = mcap_read(mcap)[0]
            self.assertEqual(read['profile'], 'ros1')
            self.assertEqual(read['compressions'], [compression if compression != 'none' else ''])
            self.assertEqual([tuple(m[:1]) + (int(m[1]), m[2]) for m in read['messages']], ros1_messages(source))
            self.assertEqual(read['statistics']['messageCount'], 717)
            for ch in read['channels']:
                self.assertEqual(ch['messageEncoding'], 'ros1')
                self.assertEqual(ch['schema']['encoding'], 'ros1msg')
                self.assertIn('md5sum', ch['metadata'])
            cli('convert', mcap, '-o', back, '-q')
            self.assertEqual(ros1_messages(back), ros1_messages(source))
            self.assertEqual(ros1_connections(back), ros1_connections(source))

    def test_topic_time_and_every_nth(self):
        source = data('ros1', 'demo_bz2.bag')
        everything = ros1_messages(source)
        start = everything[0][1]
        lo, hi = start + 500_000_000, start + 1_500_000_000
        out = self.dir / 'imu.bag'
        cli('filter', source, '-o', out, '--topic', '/imu', '--topic', '/tf', '--start', '+0.5', '--end', '+1.5',
            '--every', '3', '-q')
        expected, seen = [], {}
        for m in everything:
            if m[0] in ('/imu', '/tf') and lo <= m[1] <= hi:
                if seen.get(m[0], 0) % 3 == 0:
                    expected.append(m)
                seen[m[0]] = seen.get(m[0], 0) + 1
        self.assertGreater(len(expected), 50)
        self.assertEqual(ros1_messages(out), expected)

    def test_regex_and_exclude(self):
        source = data('ros1', 'demo_lz4.bag')
        out = self.dir / 'cameras.mcap'
        cli('filter', source, '-o', out, '--topic', '/\\/camera\\/.*/', '--exclude', '/camera/depth', '-q')
        expected = [m for m in ros1_messages(source) if m[0].startswith('/camera/') and m[0] != '/camera/depth']
        self.assertEqual(mcap_messages(out), expected)
        self.assertIn('/camera/depth_float', {m[0] for m in expected})

    def test_recover_gets_every_complete_message_and_at_least_what_reindex_does(self):
        intact = ros1_messages(data('ros1', 'demo_uncompressed.bag'))
        for fixture, complete in (('demo_truncated.bag', 668), ('demo_crashed.bag', 500)):
            copy = self.dir / fixture
            shutil.copy(data('ros1', fixture), copy)
            (self.dir / 'reindexed').mkdir(exist_ok=True)
            subprocess.run(['/usr/bin/rosbag', 'reindex', '--output-dir', str(self.dir / 'reindexed'), str(copy)],
                           check=True, capture_output=True)
            reindexed = ros1_messages(self.dir / 'reindexed' / fixture)
            out = self.dir / f'recovered-{fixture}'
            run = cli('recover', data('ros1', fixture), '-o', out, '-q', check=False)
            self.assertEqual(run.returncode, 3, run.stderr)  # damage recovered: 3, as every command says
            recovered = ros1_messages(out)
            print(f'{fixture}: rosbag reindex {len(reindexed)}, bagscope recover {len(recovered)}', file=sys.stderr)
            self.assertGreaterEqual(len(recovered), len(reindexed))
            self.assertEqual(len(recovered), complete)
            self.assertEqual(recovered, by_time(intact_prefix(intact, data('ros1', fixture), complete)))
            self.assertIn('wrote %d messages' % complete, run.stderr)
        # A recording still being written (rosbag's .bag.active) is recovered the same way.
        active = self.dir / 'recording.bag.active'
        shutil.copy(data('ros1', 'demo_crashed.bag'), active)
        self.assertEqual(cli('recover', active, '-o', self.dir / 'from_active.bag', '-q', check=False).returncode, 3)
        self.assertEqual(len(ros1_messages(self.dir / 'from_active.bag')), 500)

    def test_a_ros2_topic_is_not_written_into_a_bag(self):
        run = cli('convert', data('ros2', 'demo.mcap'), '-o', self.dir / 'x.bag', check=False)
        self.assertEqual(run.returncode, 1)
        self.assertIn('cannot go into a ROS 1 bag', run.stderr)
        self.assertFalse((self.dir / 'x.bag').exists())
        self.assertNoLeftovers()


def intact_prefix(intact, damaged_path, count):
    """The first `count` messages of the damaged file in file order, taken from the intact
    recording: the damaged fixtures are the intact one cut short (README of tests/data)."""
    with rosbag.Bag(data('ros1', 'demo_uncompressed.bag')) as b:
        in_file_order = []
        for topic, raw, t in b.read_messages(raw=True):
            in_file_order.append((raw[3], (topic, t.to_nsec(), sha(raw[1]))))
    in_file_order.sort(key=lambda x: x[0])
    return [m for _, m in in_file_order[:count]]


class Mcap(Workspace):
    def test_convert_between_compressions(self):
        source = data('ros2', 'demo_zstd.mcap')
        expected = mcap_messages(source)
        self.assertEqual(len(expected), 715)
        for compression in ('none', 'lz4', 'zstd'):
            out = self.dir / f'{compression}.mcap'
            cli('convert', source, '-o', out, '--compression', compression, '--chunk-size', '256k', '-q')
            read = mcap_read(out)[0]
            self.assertEqual([(t, int(time), h) for t, time, h in read['messages']], expected)
            self.assertEqual(read['profile'], 'ros2')
            self.assertGreater(read['statistics']['chunkCount'], 3)
            self.assertEqual(read['chunkIndexes'], read['statistics']['chunkCount'])
            self.assertGreaterEqual(read['messageIndexRecords'], read['statistics']['chunkCount'])
            source_channels = {c['topic']: c for c in mcap_read(source)[0]['channels']}
            for ch in read['channels']:
                self.assertEqual(ch['schema'], source_channels[ch['topic']]['schema'])

    def test_metadata_and_attachments_are_kept(self):
        source = data('mcap_foreign', 'extras.mcap')
        original = mcap_read(source)[0]
        self.assertEqual(len(original['metadata']), 2)
        self.assertEqual(len(original['attachments']), 2)
        out = self.dir / 'extras.mcap'
        run = cli('convert', source, '-o', out, '-q')
        self.assertIn(f"kept 2 metadata records and 2 attachments in '{out}'", run.stderr)
        copy = mcap_read(out)[0]
        self.assertEqual(copy['metadata'], original['metadata'])
        self.assertEqual(copy['attachments'], original['attachments'])
        self.assertEqual(copy['messages'], original['messages'])
        # A container with no place for them says so (rosbag2 here: the messages are json).
        run = cli('merge', source, data('ros2', 'demo.mcap'), '-o', self.dir / 'r2', '--format', 'rosbag2', check=False)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertIn('2 metadata records and 2 attachments', run.stderr)

    def test_recover_cut_and_unsummarised_mcap(self):
        intact = mcap_messages(data('ros2', 'demo.mcap'))
        # 577 messages are in the chunks before the cut; 8 more are complete in the cut chunk.
        # A file without a summary lost nothing (the summary is optional): exit 0; a cut one 3.
        for fixture, complete, code in (('demo_truncated.mcap', 585, 3), ('demo_nosummary.mcap', 715, 0)):
            out = self.dir / f'recovered-{fixture}'
            self.assertEqual(cli('recover', data('ros2', fixture), '-o', out, '-q', check=False).returncode, code)
            recovered = mcap_messages(out)
            print(f'{fixture}: bagscope recover {len(recovered)} of {complete} complete', file=sys.stderr)
            self.assertEqual(len(recovered), complete)
            self.assertTrue(set(recovered) <= set(intact))
            self.assertEqual(recovered, sorted(recovered, key=lambda m: m[1]))


class Rosbag2(Workspace):
    def test_mcap_to_rosbag2_in_both_storages(self):
        expected = mcap_messages(data('ros2', 'demo.mcap'))
        source_channels = {c['topic']: c for c in mcap_read(data('ros2', 'demo.mcap'))[0]['channels']}
        for fmt, storage in (('rosbag2', 'mcap'), ('rosbag2-db3', 'sqlite3')):
            out = self.dir / f'demo_{storage}'
            cli('convert', data('ros2', 'demo.mcap'), '-o', out, '--format', fmt, '-q')
            messages, conns, count = rosbags_read(out)
            self.assertEqual(by_time(messages), by_time(expected))
            meta = metadata_yaml(out)
            self.assertEqual(meta['version'], 9)
            self.assertEqual(meta['storage_identifier'], storage)
            self.assertEqual(count, 715)
            for topic, (msgtype, msgdef, serialization, qos) in conns.items():
                self.assertEqual(msgtype, source_channels[topic]['schema']['name'])
                self.assertEqual(msgdef, source_channels[topic]['schema']['data'])
                self.assertEqual(serialization, 'cdr')
            self.assertNoLeftovers()

    def test_type_hashes_computed_for_an_input_without_them_match_jazzys(self):
        # demo.mcap (Foxglove's writer) carries no type hashes; demo_db3 (Jazzy layout) stores them.
        out = self.dir / 'hashed'
        cli('convert', data('ros2', 'demo.mcap'), '-o', out, '--format', 'rosbag2-db3', '-q')
        query = 'SELECT name, type_description_hash FROM topics'
        ours = dict(sqlite3.connect(str(out / 'hashed_0.db3')).execute(query).fetchall())
        fixture = data('ros2', 'demo_db3', 'demo_db3_0.db3')
        jazzy = dict(sqlite3.connect(f'file:{fixture}?mode=ro', uri=True).execute(query).fetchall())
        self.assertEqual(len(jazzy), 21)
        self.assertEqual(ours, jazzy)

    def test_db3_to_mcap_keeps_qos(self):
        source = data('ros2', 'demo_db3')
        expected, source_conns, _ = rosbags_read(source)
        out = self.dir / 'demo.mcap'
        cli('convert', source, '-o', out, '-q')
        read = mcap_read(out)[0]
        self.assertEqual(by_time([(t, int(time), h) for t, time, h in read['messages']]), by_time(expected))
        for ch in read['channels']:
            self.assertTrue(ch['metadata']['offered_qos_profiles'].startswith('- history:'), ch)
        back = self.dir / 'back'
        cli('convert', out, '-o', back, '--format', 'rosbag2-db3', '-q')
        messages, conns, _ = rosbags_read(back)
        self.assertEqual(messages, expected)
        for topic, conn in conns.items():
            self.assertEqual(conn[3], source_conns[topic][3], topic)  # QoS profiles as rosbags parses them

    def test_humble_reads_what_distro_humble_writes(self):
        # --distro humble: metadata version 5 as Humble's rosbag2 decodes it (the fields it
        # requires for version 5, QoS as one YAML text of rmw's numbers; none of what Iron and
        # Jazzy added, which Humble refuses), an SQLite layout without the schema table, and the
        # same messages and QoS as the Jazzy output, read by rosbags.
        from ruamel.yaml import YAML
        source = data('ros2', 'demo_db3')
        expected, source_conns, _ = rosbags_read(source)
        for fmt, storage in (('rosbag2', 'mcap'), ('rosbag2-db3', 'sqlite3')):
            out = self.dir / f'humble_{storage}'
            cli('convert', source, '-o', out, '--format', fmt, '--distro', 'humble', '-q')
            meta = metadata_yaml(out)
            self.assertEqual(meta['version'], 5)
            self.assertEqual(sorted(meta), sorted(['version', 'storage_identifier', 'duration', 'starting_time',
                                                   'message_count', 'topics_with_message_count', 'compression_format',
                                                   'compression_mode', 'relative_file_paths', 'files']))
            self.assertEqual(meta['storage_identifier'], storage)
            for t in meta['topics_with_message_count']:
                self.assertEqual(sorted(t['topic_metadata']), ['name', 'offered_qos_profiles', 'serialization_format',
                                                               'type'])
                qos = t['topic_metadata']['offered_qos_profiles']
                self.assertIsInstance(qos, str)
                for profile in YAML(typ='safe').load(qos) or []:
                    for policy in ('history', 'reliability', 'durability', 'liveliness'):
                        self.assertIsInstance(profile[policy], int, (t['topic_metadata']['name'], policy))
            messages, conns, _ = rosbags_read(out)
            self.assertEqual(messages, expected)
            for topic, conn in conns.items():
                self.assertEqual(conn[3], source_conns[topic][3], topic)  # the same QoS, spelled as Humble does
            self.assertTrue(any(conn[3] for conn in conns.values()))
        db = sqlite3.connect(str(self.dir / 'humble_sqlite3' / 'humble_sqlite3_0.db3'))
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        self.assertNotIn('schema', tables)
        self.assertEqual([c[1] for c in db.execute('PRAGMA table_info(topics)')],
                         ['id', 'name', 'type', 'serialization_format', 'offered_qos_profiles'])
        # A release for a single file is a usage error; an unknown release too.
        for bad in (['-o', self.dir / 'one.mcap', '--distro', 'humble'], ['-o', self.dir / 'x', '--format', 'rosbag2', '--distro', 'rolling']):
            self.assertEqual(cli('convert', source, *bad, check=False).returncode, 2, bad)

    def test_definitions_are_written_for_an_input_without_them(self):
        # The Foxy fixture carries no definitions. Written to rosbag2 MCAP with the standard
        # interfaces and the fixture's .msg folder, rosbags (without its own type store) decodes
        # every message from the definitions in the file, to the values it decodes from the
        # Jazzy fixture of the same messages, which stores its own.
        out = self.dir / 'foxy'
        run = cli('convert', data('ros2', 'demo_db3_old'), '-o', out, '--format', 'rosbag2', '--msg-path',
                  data('msg'), '-q')
        self.assertIn('definitions the input did not carry were written', run.stderr)
        self.assertIn('demo_msgs/msg/VehicleState', run.stderr)
        self.assertEqual(decoded_by_rosbags(out), decoded_by_rosbags(data('ros2', 'demo_db3')))
        bare = self.dir / 'no_msg_path'
        run = cli('convert', data('ros2', 'demo_db3_old'), '-o', bare, '--format', 'rosbag2', '-q')
        self.assertIn('no definition of demo_msgs/msg/VehicleState was found', run.stderr)

    def test_split_by_size(self):
        out = self.dir / 'split'
        cli('convert', data('ros2', 'demo.mcap'), '-o', out, '--format', 'rosbag2', '--compression', 'none',
            '--chunk-size', '64k', '--split-size', '500k', '-q')
        files = sorted(p.name for p in out.iterdir())
        self.assertIn('metadata.yaml', files)
        self.assertGreaterEqual(len(files), 4, files)
        messages, _, _ = rosbags_read(out)
        self.assertEqual(len(metadata_yaml(out)['relative_file_paths']), len(files) - 1)
        self.assertEqual(by_time(messages), by_time(mcap_messages(data('ros2', 'demo.mcap'))))

    def test_recover_db3_with_its_wal(self):
        # Python's sqlite3 (an independent reader) sees the database with its -wal applied.
        copy = self.dir / 'wal'
        shutil.copytree(data('ros2', 'wal'), copy)
        with sqlite3.connect(str(copy / 'wal_0.db3')) as c:
            rows = c.execute('SELECT t.name, m.timestamp, m.data FROM messages m JOIN topics t ON t.id = m.topic_id '
                             'ORDER BY m.timestamp, m.id').fetchall()
        expected = [(n, t, sha(d)) for n, t, d in rows]
        self.assertEqual(len(expected), 40)
        out = self.dir / 'recovered'
        run = cli('recover', data('ros2', 'wal'), '-o', out, '-q', check=False)
        self.assertEqual(run.returncode, 3, run.stderr)  # rows only in the -wal: recovered, and said
        messages, _, _ = rosbags_read(out)
        self.assertEqual(messages, expected)


class Merge(Workspace):
    def test_merge_orders_by_time_and_keeps_every_message(self):
        a, b = data('ros2', 'demo.mcap'), data('ros2', 'demo_db3')
        expected = by_time(mcap_messages(a) + rosbags_read(b)[0])
        out = self.dir / 'merged.mcap'
        cli('merge', a, b, '-o', out, '-q')
        merged = mcap_messages(out)
        self.assertEqual(len(merged), 1430)
        self.assertEqual(merged, expected)

    def test_ros1_and_ros2_merge_only_into_mcap(self):
        out = self.dir / 'both.mcap'
        cli('merge', data('ros1', 'demo_lz4.bag'), data('ros2', 'demo.mcap'), '-o', out, '-q')
        read = mcap_read(out)[0]
        self.assertEqual(read['profile'], '')
        self.assertEqual(read['statistics']['messageCount'], 717 + 715)
        encodings = {(c['topic'], c['messageEncoding']) for c in read['channels']}
        self.assertIn(('/imu', 'ros1'), encodings)
        self.assertIn(('/imu', 'cdr'), encodings)


def damage_cell_count(folder):
    """The fault campaign's damaged .db3: in demo_db3, two bytes of a b-tree page header (page
    259's cell count, 0x0414) made 0x8000."""
    db = Path(folder, 'demo_db3_0.db3')
    data = bytearray(db.read_bytes())
    assert data[1056771:1056773] == b'\x04\x14', 'the fixture is not the one the damage was found on'
    data[1056771:1056773] = b'\x80\x00'
    db.write_bytes(data)


def damage_leaf_page(folder):
    """A leaf page of the messages table in the middle of it zeroed: rows its table pages held
    can be found only by the timestamp index."""
    db = Path(folder, 'demo_db3_0.db3')
    data = bytearray(db.read_bytes())
    page_size = int.from_bytes(data[16:18], 'big')
    with sqlite3.connect(f'file:{db}?mode=ro', uri=True) as c:
        root = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'messages'").fetchone()[0]
    def page(n):
        return (n - 1) * page_size + (100 if n == 1 else 0)
    at = page(root)
    assert data[at] == 0x05, 'the messages table has one level of interior pages'
    cells = int.from_bytes(data[at + 3:at + 5], 'big')
    pointer = int.from_bytes(data[at + 12 + 2 * (cells // 2):at + 14 + 2 * (cells // 2)], 'big')
    leaf = int.from_bytes(data[(root - 1) * page_size + pointer:(root - 1) * page_size + pointer + 4], 'big')
    assert data[page(leaf)] == 0x0D, 'a table leaf'
    data[(leaf - 1) * page_size:leaf * page_size] = bytes(page_size)
    db.write_bytes(data)


def readable_rows(folder):
    """Every row of the damaged database as Python's sqlite3 (an independent reader) gets it one
    at a time: (timestamp, topic or None, sha256 or None) in (timestamp, id) order, the ids and
    times from the timestamp index."""
    db = Path(folder, 'demo_db3_0.db3')
    out = []
    with sqlite3.connect(f'file:{db}?immutable=1', uri=True) as c:
        topics = dict(c.execute('SELECT id, name FROM topics'))
        for t, i in c.execute('SELECT timestamp, id FROM messages INDEXED BY timestamp_idx ORDER BY timestamp, id'):
            try:
                topic_id, blob = c.execute('SELECT topic_id, data FROM messages WHERE id = ?', (i,)).fetchone()
                out.append((t, topics[topic_id], sha(blob)))
            except sqlite3.DatabaseError:
                out.append((t, None, None))
    return out


class DamagedDatabase(Workspace):
    def check(self, damage, unreadable_at_least):
        import json
        folder = self.dir / 'demo_db3'
        shutil.copytree(data('ros2', 'demo_db3'), folder)
        damage(folder)
        rows = readable_rows(folder)
        self.assertEqual(len(rows), 715)
        lost = [r for r in rows if r[1] is None]
        self.assertGreaterEqual(len(lost), unreadable_at_least)
        readable = [(topic, t, h) for t, topic, h in rows if topic is not None]
        for command in (['info', folder], ['stats', folder], ['cat', folder],
                        ['export', folder, '--format', 'csv', '--out', self.dir / 'csv', '-q']):
            run = cli(*command, check=False)
            self.assertEqual(run.returncode, 3, f'{command[0]}: {run.stderr}')
        # cat: a line for every message, in place; the unreadable ones say so.
        lines = [json.loads(line) for line in cli('cat', folder, check=False).stdout.splitlines()]
        self.assertEqual([m['log_time_ns'] for m in lines], [t for t, _, _ in rows])
        expected = [json.loads(line) for line in Path(data('ros2', 'demo.expected.jsonl')).read_text().splitlines()]
        for got, (t, topic, _), want in zip(lines, rows, expected):
            if topic is None:
                self.assertIsNone(got['msg'])
                self.assertIn('damaged', got['error'])
            else:
                self.assertEqual(got['msg'], want['msg'])
        # recover, convert and filter salvage every row that can be read, and say what not.
        for command, out in (('recover', self.dir / 'recovered.mcap'), ('convert', self.dir / 'converted.mcap'),
                             ('filter', self.dir / 'filtered.mcap')):
            run = cli(command, folder, '-o', out, check=False)
            self.assertEqual(run.returncode, 3, f'{command}: {run.stderr}')
            self.assertEqual(by_time(mcap_messages(out)), by_time(readable), command)
            self.assertIn('not readable', run.stderr)

    def test_a_damaged_page_header_loses_only_the_row_it_holds(self):
        self.check(damage_cell_count, 1)

    def test_a_zeroed_table_page_loses_only_its_rows(self):
        self.check(damage_leaf_page, 2)


class ReadableOutput(Workspace):
    """What Bagscope writes is read by the independent readers even where the input's own text
    is not: service events stored with their .srv text, definitions that are not UTF-8, QoS
    profiles that are not YAML."""

    def test_service_events_get_their_message_definition(self):
        import json
        expected = [json.loads(line)['msg'] for line in
                    Path(data('ros2', 'cases', 'service_event.expected.jsonl')).read_text().splitlines()]
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        for fmt, name in (('rosbag2', 'r2'), ('mcap', 'events.mcap')):
            out = self.dir / name
            run = cli('convert', data('ros2', 'cases', 'service_event'), '-o', out, '--format', fmt)
            self.assertIn("written with the event's message definition", run.stderr)
            # rosbags parses the definition from the file alone; it files a type of a /srv/ name
            # under pkg/srv/msg/Name (its normalisation), where it is looked up.
            with AnyReader([out]) as r:
                got = []
                for c, _, raw in r.messages():
                    self.assertEqual(c.msgtype, 'example_interfaces/srv/AddTwoInts_Event')
                    m = r.deserialize(raw, 'example_interfaces/srv/msg/AddTwoInts_Event')
                    got.append({'info': {'event_type': m.info.event_type,
                                         'stamp': {'sec': m.info.stamp.sec, 'nanosec': m.info.stamp.nanosec},
                                         'client_gid': [int(x) for x in m.info.client_gid],
                                         'sequence_number': m.info.sequence_number},
                                'request': [{'a': q.a, 'b': q.b} for q in m.request],
                                'response': [{'sum': q.sum} for q in m.response]})
            self.assertEqual(got, expected, fmt)
        # A .db3 keeps rosbag2's own convention: the .srv text filed under the service's name
        # (rosbags reads no service event from a .db3: it cannot hash a /srv/ type).
        out = self.dir / 'db3'
        cli('convert', data('ros2', 'cases', 'service_event'), '-o', out, '--format', 'rosbag2-db3', '-q')
        rows = sqlite3.connect(str(out / 'db3_0.db3')).execute(
            'SELECT topic_type, encoded_message_definition FROM message_definitions').fetchall()
        self.assertEqual([r[0] for r in rows], ['example_interfaces/srv/AddTwoInts'])
        self.assertIn('\n---\n', rows[0][1])
        ours = [json.loads(line)['msg'] for line in cli('cat', out).stdout.splitlines()]
        self.assertEqual(ours, expected)

    def test_text_readers_refuse_is_mended_and_said(self):
        # A Jazzy-layout database (Python's sqlite3): a definition with a Latin-1 byte in a
        # comment, QoS text that is not YAML; the messages are std_msgs/msg/String in CDR.
        folder = self.dir / 'odd'
        folder.mkdir()
        db = sqlite3.connect(str(folder / 'odd_0.db3'))
        db.executescript(
            'CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL);'
            'CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format'
            ' TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL, type_description_hash TEXT NOT NULL);'
            'CREATE TABLE message_definitions(id INTEGER PRIMARY KEY, topic_type TEXT NOT NULL, encoding TEXT NOT NULL,'
            ' encoded_message_definition TEXT NOT NULL, type_description_hash TEXT NOT NULL);'
            'CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL,'
            ' data BLOB NOT NULL);')
        db.execute("INSERT INTO topics VALUES (1, '/chatter', 'std_msgs/msg/String', 'cdr', '- history: [unclosed', '')")
        db.execute("INSERT INTO message_definitions VALUES (1, 'std_msgs/msg/String', 'ros2msg', ?, '')",
                   (b'# caf\xe9 au lait\nstring data\n'.decode('latin-1').encode('latin-1'),))
        cdr = lambda text: bytes([0, 1, 0, 0]) + len(text.encode() + b'\0').to_bytes(4, 'little') + text.encode() + b'\0'
        for i in range(3):
            db.execute('INSERT INTO messages(topic_id, timestamp, data) VALUES (1, ?, ?)', (1700000000 * 10**9 + i,
                                                                                         cdr(f'hello {i}')))
        db.commit()
        db.close()
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        for fmt, name in (('rosbag2', 'out_r2'), ('mcap', 'out.mcap')):
            out = self.dir / name
            run = cli('convert', folder, '-o', out, '--format', fmt)
            self.assertIn("/chatter: its definition was not UTF-8 (such bytes written as '?')", run.stderr)
            self.assertIn('/chatter: its QoS profiles were not YAML (left out)', run.stderr)
            with AnyReader([out]) as r:
                self.assertEqual([r.deserialize(raw, c.msgtype).data for c, _, raw in r.messages()],
                                 [f'hello {i}' for i in range(3)], fmt)
                self.assertIn('# caf? au lait', r.connections[0].msgdef.data)
        self.assertEqual(len(mcap_messages(self.dir / 'out.mcap')), 3)


class ExitCodes(Workspace):
    def test_a_reader_that_stops_reading_ends_the_command_quietly(self):
        for command in (['cat', data('ros1', 'demo_bz2.bag')], ['info', data('ros1', 'demo_bz2.bag')]):
            proc = subprocess.Popen([ARGS.cli, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            proc.stdout.readline()  # as `| head -1` does, then the pipe is closed
            proc.stdout.close()
            err = proc.stderr.read().decode()
            self.assertEqual(proc.wait(), 0, f'{command[0]}: {err}')
            self.assertEqual(err, '')

    def test_filter_of_an_input_whose_messages_are_all_lost_is_3(self):
        cut = self.dir / 'cut.bag'
        cut.write_bytes(Path(data('ros1', 'demo_uncompressed.bag')).read_bytes()[:6000])
        run = cli('filter', cut, '-o', self.dir / 'out.mcap', '--topic', '/.*/', check=False)
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertIn('recovered 0 complete messages', run.stderr)
        self.assertIn('nothing was written', run.stderr)
        self.assertFalse((self.dir / 'out.mcap').exists())
        run = cli('recover', cut, '-o', self.dir / 'rec.bag', check=False)
        self.assertEqual(run.returncode, 3, run.stderr)


class InfoSizes(unittest.TestCase):
    def test_bytes_per_topic_as_independent_readers_count_them(self):
        import json
        with rosbag.Bag(data('ros1', 'demo_lz4.bag')) as b:
            ros1 = {}
            for topic, raw, _ in b.read_messages(raw=True):
                ros1[topic] = ros1.get(topic, 0) + len(raw[1])
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.rosbag2 import Reader
        with Reader(Path(data('ros2', 'demo_db3'))) as r:
            ros2 = {}
            for c, _, d in r.messages():
                ros2[c.topic] = ros2.get(c.topic, 0) + len(d)
        for path, expected in ((data('ros1', 'demo_lz4.bag'), ros1), (data('ros2', 'demo_db3'), ros2)):
            info = json.loads(cli('info', path, '--json', '--sizes').stdout)
            self.assertEqual({t['topic']: t['bytes'] for t in info['topics']}, expected)
            self.assertNotIn('bytes', json.loads(cli('info', path, '--json').stdout)['topics'][0])


class Safety(Workspace):
    def test_an_existing_output_is_kept_unless_overwrite(self):
        out = self.dir / 'out.mcap'
        out.write_bytes(b'precious')
        run = cli('convert', data('ros1', 'demo_lz4.bag'), '-o', out, check=False)
        self.assertEqual(run.returncode, 4)
        self.assertIn('exists already', run.stderr)
        self.assertEqual(out.read_bytes(), b'precious')
        cli('convert', data('ros1', 'demo_lz4.bag'), '-o', out, '--overwrite', '-q')
        self.assertEqual(len(mcap_messages(out)), 717)
        self.assertNoLeftovers()

    def test_an_input_is_never_the_output(self):
        copy = self.dir / 'in.bag'
        shutil.copy(data('ros1', 'demo_lz4.bag'), copy)
        before = copy.read_bytes()
        run = cli('filter', copy, '-o', copy, '--overwrite', '--topic', '/imu', check=False)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn('is an input', run.stderr)
        folder = self.dir / 'r2'
        shutil.copytree(data('ros2', 'demo_db3'), folder)
        run = cli('convert', folder, '-o', folder / 'inside.mcap', check=False)
        self.assertIn('is an input', run.stderr)
        run = cli('convert', folder, '-o', folder, '--format', 'rosbag2', '--overwrite', check=False)
        self.assertIn('is an input', run.stderr)
        self.assertEqual(copy.read_bytes(), before)
        self.assertEqual(sorted(p.name for p in folder.iterdir()), ['demo_db3_0.db3', 'metadata.yaml'])

    def test_overwrite_refuses_a_folder_that_is_not_a_recording(self):
        cfg = self.dir / 'cfg'
        cfg.mkdir()
        (cfg / 'metadata.yaml').write_text('name: my config\n')
        (cfg / 'data.csv').write_text('precious\n')
        run = cli('convert', data('ros2', 'demo.mcap'), '-o', cfg, '--format', 'rosbag2', '--overwrite', check=False)
        self.assertEqual(run.returncode, 4, run.stderr)
        self.assertIn('not a recording', run.stderr)
        self.assertEqual(sorted(p.name for p in cfg.iterdir()), ['data.csv', 'metadata.yaml'])
        self.assertEqual((cfg / 'data.csv').read_text(), 'precious\n')
        self.assertNoLeftovers()

    def test_overwrite_replaces_only_the_recordings_own_files(self):
        r2x = self.dir / 'r2x'
        shutil.copytree(data('ros2', 'demo_mcap_bag'), r2x)
        old_storage = metadata_yaml(r2x)['relative_file_paths']
        (r2x / 'notes.txt').write_text('notes\n')
        (r2x / 'calib').mkdir()
        (r2x / 'calib' / 'cam.yaml').write_text('c\n')
        cli('convert', data('ros2', 'demo_db3'), '-o', r2x, '--format', 'rosbag2', '--overwrite', '-q')
        self.assertEqual((r2x / 'notes.txt').read_text(), 'notes\n')
        self.assertEqual((r2x / 'calib' / 'cam.yaml').read_text(), 'c\n')
        new_storage = metadata_yaml(r2x)['relative_file_paths']
        self.assertEqual(new_storage, ['r2x_0.mcap'])
        for name in old_storage:
            if name not in new_storage:
                self.assertFalse((r2x / name).exists(), f'{name} of the replaced recording is still there')
        self.assertEqual(sorted(p.name for p in r2x.iterdir()), sorted(['calib', 'notes.txt', 'metadata.yaml'] +
                                                                      new_storage))
        messages, _, _ = rosbags_read(r2x)
        self.assertEqual(messages, rosbags_read(data('ros2', 'demo_db3'))[0])
        self.assertNoLeftovers()

    def test_overwrite_refuses_when_a_stranger_holds_a_new_files_name(self):
        r2x = self.dir / 'r2x'
        shutil.copytree(data('ros2', 'demo_db3'), r2x)
        (r2x / 'r2x_0.mcap').write_bytes(b'not part of the recording')
        before = sorted((p.name, p.read_bytes()) for p in r2x.iterdir())
        run = cli('convert', data('ros2', 'demo.mcap'), '-o', r2x, '--format', 'rosbag2', '--overwrite', check=False)
        self.assertEqual(run.returncode, 4, run.stderr)
        self.assertIn('r2x_0.mcap', run.stderr)
        self.assertIn('not part of it', run.stderr)
        self.assertEqual(sorted((p.name, p.read_bytes()) for p in r2x.iterdir()), before)
        self.assertNoLeftovers()

    def test_overwrite_never_replaces_special_files(self):
        import socket
        import stat
        fifo = self.dir / 'f.mcap'
        os.mkfifo(fifo)
        sock_path = self.dir / 's.mcap'
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(sock_path))
        link = self.dir / 'l.mcap'
        (self.dir / 'target.mcap').write_bytes(b'kept')
        link.symlink_to(self.dir / 'target.mcap')
        cases = [(fifo, stat.S_ISFIFO), (sock_path, stat.S_ISSOCK), (link, stat.S_ISLNK)]
        if os.geteuid() == 0:  # a device node as /dev/full is one, in our own folder
            device = self.dir / 'full.mcap'
            os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
            cases.append((device, stat.S_ISCHR))
        else:
            print('not root: the device-node case is not run (FIFO, socket and link are)', file=sys.stderr)
        for path, kind in cases:
            run = cli('convert', data('ros1', 'demo_bz2.bag'), '-o', path, '--overwrite', check=False)
            self.assertEqual(run.returncode, 4, f'{path.name}: {run.stderr}')
            self.assertIn('not replaced', run.stderr)
            self.assertTrue(kind(os.lstat(path).st_mode), f'{path.name} was replaced')
        self.assertEqual((self.dir / 'target.mcap').read_bytes(), b'kept')
        sock.close()
        self.assertNoLeftovers()

    def test_parts_left_by_a_killed_run_are_removed_and_reported(self):
        stale_file = self.dir / '.out.part-0123456789ab.mcap'
        stale_file.write_bytes(b'half')
        stale_folder = self.dir / '.r2.part-00000000beef'
        stale_folder.mkdir()
        (stale_folder / 'r2_0.mcap').write_bytes(b'half')
        fresh = self.dir / '.other.part-aaaaaaaaaaaa.bag'  # a concurrent run's: written just now
        fresh.write_bytes(b'busy')
        hour_ago = os.stat(stale_file).st_mtime - 3600
        for p in (stale_file, stale_folder):
            os.utime(p, (hour_ago, hour_ago))
        run = cli('convert', data('ros1', 'demo_bz2.bag'), '-o', self.dir / 'out.mcap', '-q')
        self.assertIn('removed 2 unfinished outputs', run.stderr)
        self.assertFalse(stale_file.exists())
        self.assertFalse(stale_folder.exists())
        self.assertTrue(fresh.exists())

    def test_a_failed_write_leaves_nothing_under_the_name(self):
        # A file size limit stands in for a full disk: the write fails part way (EFBIG).
        def limit():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000))
        for name in ('big.mcap', 'big.bag'):
            out = self.dir / name
            run = cli('convert', data('ros1', 'demo_uncompressed.bag'), '-o', out, '--compression', 'none',
                      check=False, preexec_fn=limit)
            self.assertEqual(run.returncode, 4, run.stderr)
            self.assertIn(name, run.stderr)
            self.assertIn('File too large', run.stderr)
            self.assertFalse(out.exists())
            self.assertNoLeftovers()


def longest_array(value):
    """The most elements any array inside a decoded message has (rosbags' or genpy's values)."""
    if hasattr(value, '__dataclass_fields__'):
        return max([0] + [longest_array(getattr(value, k)) for k in value.__dataclass_fields__ if k != '__msgtype__'])
    if hasattr(value, '__slots__') and not isinstance(value, (bytes, str)):
        return max([0] + [longest_array(getattr(value, k)) for k in value.__slots__])
    if isinstance(value, (list, tuple, bytes)) or hasattr(value, 'tolist'):
        items = list(value.tolist() if hasattr(value, 'tolist') else value)
        return max([len(items)] + [longest_array(x) for x in items])
    return 0


class ImportTables(Workspace):
    """`import` of what `export --format csv` writes: every topic whose arrays all fit the
    table's columns comes back as the messages it was exported from, byte for byte."""
    LIMIT = 32

    def round_trip(self, source, topics, extra_args, read_back, original, fmt):
        checked = []
        for topic, type_, args in topics:
            table = self.dir / f'table{len(checked)}'
            cli('export', source, '--format', 'csv', '--topic', topic, '--array-limit', str(self.LIMIT), '-o', table,
                '-q')
            [csv] = table.glob('*.csv')
            out = self.dir / f'back{len(checked)}.{"bag" if fmt == "bag" else "mcap"}'
            cli('import', csv, '--topic', topic, '--type', type_, *args, *extra_args, '--format', fmt, '-o', out, '-q')
            got, want = read_back(out), original(topic)
            self.assertEqual([t for t, _ in got], [t for t, _ in want], topic)
            for (t, a), (_, b) in zip(got, want):
                self.assertEqual(a, b, f'{topic} at {t}: imported bytes differ')
            checked.append(topic)
        return checked

    def test_ros2_topics_come_back_from_their_csv(self):
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        source = data('ros2', 'demo.mcap')
        # Which topics fit: decoded by rosbags from the definitions in the folder-less MCAP's
        # rosbag2 twin (demo_db3 holds the same messages).
        with AnyReader([Path(data('ros2', 'demo_db3'))]) as r:
            longest, types = {}, {}
            for c, _, raw in r.messages():
                longest[c.topic] = max(longest.get(c.topic, 0), longest_array(r.deserialize(raw, c.msgtype)))
                types[c.topic] = c.msgtype
        fitting = [(t, types[t], ['--msg-path', data('msg')]) for t in sorted(types) if longest[t] <= self.LIMIT]
        by_topic = {}
        for topic, t, sha_ in mcap_messages(source):
            by_topic.setdefault(topic, []).append((t, sha_))
        checked = self.round_trip(source, fitting, [], lambda out: [(t, h) for _, t, h in mcap_messages(out)],
                                  lambda topic: by_topic[topic], 'mcap')
        self.assertGreaterEqual(len(checked), 8, checked)
        self.assertIn('/imu', checked)

    def test_ros1_topics_come_back_from_their_csv(self):
        source = data('ros1', 'demo_uncompressed.bag')
        longest, conns = {}, {}
        with rosbag.Bag(source) as b:
            for topic, m, _ in b.read_messages():
                longest[topic] = max(longest.get(topic, 0), longest_array(m))
            for c in b._connections.values():
                conns[c.topic] = c
        fitting = []
        for topic in sorted(conns):
            if longest[topic] > self.LIMIT:
                continue
            definition = self.dir / (topic.strip('/').replace('/', '_') + '.msg')
            definition.write_text(conns[topic].msg_def)
            fitting.append((topic, conns[topic].datatype, ['--definition', definition]))

        def raw_messages(path, topic=None):
            with rosbag.Bag(str(path)) as b:
                return [(t.to_nsec(), sha(m[1])) for _, m, t in b.read_messages(topics=topic and [topic], raw=True)]
        checked = self.round_trip(source, fitting, [], raw_messages, lambda topic: raw_messages(source, topic), 'bag')
        self.assertGreaterEqual(len(checked), 8, checked)
        self.assertIn('/imu', checked)

    def test_a_table_of_its_own_and_what_does_not_fit(self):
        table = self.dir / 'log.csv'
        table.write_text('time,/imu/linear_acceleration.z,/imu/header.frame_id,/text/data\n'
                         '1.5,9.81,"imu, left",\n'
                         '0.25,,,"a ""quoted"" line"\n')
        out = self.dir / 'out'
        cli('import', table, '--topic', '/imu', '--type', 'sensor_msgs/msg/Imu', '--topic', '/text', '--type',
            'std_msgs/msg/String', '--time-column', 'time', '--format', 'rosbag2-db3', '-o', out, '-q')
        decoded = decoded_by_rosbags(out)
        self.assertEqual([(t, n) for t, n, _ in decoded], [('/text', 250_000_000), ('/imu', 1_500_000_000)])
        self.assertEqual(decoded[0][2]['data'], repr('a "quoted" line'))
        self.assertEqual(decoded[1][2]['linear_acceleration']['z'], repr(9.81))
        self.assertEqual(decoded[1][2]['header']['frame_id'], repr('imu, left'))
        for row, says in (('1,nope\n', "column 'linear_acceleration.x': 'nope' is not a number"),
                          ('x,1\n', "'x' in column 'time' is not a time in seconds"),
                          ('1,2,3\n', 'line 2: has 3 cells, the header 2')):
            bad = self.dir / 'bad.csv'
            bad.write_text('time,linear_acceleration.x\n' + row)
            run = cli('import', bad, '--topic', '/imu', '--type', 'sensor_msgs/msg/Imu', '--time-column', 'time',
                      '-o', self.dir / 'bad.mcap', check=False)
            self.assertEqual(run.returncode, 1, run.stderr)
            self.assertIn('bad.csv', run.stderr)
            self.assertIn(says, run.stderr)
            self.assertFalse((self.dir / 'bad.mcap').exists())
        run = cli('import', table, '--topic', '/imu', '--type', 'sensor_msgs/msg/Imu', '--time-column', 'time',
                  '-o', self.dir / 'x.mcap', check=False)
        self.assertIn("column '/text/data' names none of the topics", run.stderr)


def ros2_view(msg, type_name=''):
    """A genpy (python3-rosbag) message as its ROS 2 translation should hold it: Header without
    seq, time and duration as {sec, nanosec}, field names in lower case (CameraInfo's D is d),
    rosgraph_msgs/Log's header.stamp as stamp and its levels in tens, arrays as lists."""
    import genpy
    if isinstance(msg, (genpy.Time, genpy.Duration)):
        return {'sec': msg.secs, 'nanosec': msg.nsecs}
    if hasattr(msg, '__slots__') and hasattr(msg, '_type'):
        out = {}
        for name in msg.__slots__:
            value = getattr(msg, name)
            if msg._type == 'std_msgs/Header' and name == 'seq':
                continue
            if msg._type == 'rosgraph_msgs/Log' and name == 'header':
                out['stamp'] = ros2_view(value.stamp)
                continue
            if msg._type == 'rosgraph_msgs/Log' and name == 'topics':
                continue  # rcl_interfaces/Log has no topics
            if msg._type == 'rosgraph_msgs/Log' and name == 'level':
                value = {1: 10, 2: 20, 4: 30, 8: 40, 16: 50}[value]
            out[name.lower()] = ros2_view(value)
        return out
    if isinstance(value := msg, (list, tuple)):
        return [ros2_view(x) for x in value]
    if isinstance(msg, bytes):
        return list(msg)
    return msg


def plain_rosbags(v):
    """A rosbags message as plain values, arrays as lists."""
    if hasattr(v, '__dataclass_fields__'):
        return {k: plain_rosbags(getattr(v, k)) for k in v.__dataclass_fields__ if k != '__msgtype__'}
    if hasattr(v, 'tolist'):
        return v.tolist()
    if isinstance(v, (list, tuple)):
        return [plain_rosbags(x) for x in v]
    return v


def is_zero(v):
    if isinstance(v, dict):
        return all(is_zero(x) for x in v.values())
    return v in (0, 0.0, '', [], False)


def contains(full, part, where=''):
    """Whether `full` (the ROS 2 message) holds every value of `part` (the ROS 1 message
    through the mapping); fields only ROS 2 has must be zero or empty."""
    if isinstance(part, dict):
        assert isinstance(full, dict), where
        for k, v in part.items():
            assert k in full, f'{where}.{k} missing'
            contains(full[k], v, f'{where}.{k}')
        for k in full.keys() - part.keys():
            if k.isupper():
                continue  # a constant rosbags lists among the fields
            assert is_zero(full[k]), f'{where}.{k} only in ROS 2 and not zero: {full[k]!r}'
    elif isinstance(part, list):
        assert isinstance(full, list) and len(full) == len(part), where
        for i, (a, b) in enumerate(zip(full, part)):
            contains(a, b, f'{where}[{i}]')
    else:
        assert full == part or (part != part and full != full), f'{where}: {full!r} != {part!r}'


class Ros1ToRos2(Workspace):
    """`convert --to-ros2`: every message of the ROS 1 fixtures as ROS 2, decoded by rosbags from
    the output's own definitions and compared with python3-rosbag's reading of the input
    through the type mapping; and `--to-ros1` back."""

    def test_every_message_translated_and_read_by_rosbags(self):
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        # A ROS 1 log written here by python3-rosbag: its levels are 1, 2, 4, 8, 16.
        from rosgraph_msgs.msg import Log
        import rospy
        log = self.dir / 'log.bag'
        with rosbag.Bag(str(log), 'w') as b:
            for i, level in enumerate((1, 2, 4, 8, 16)):
                m = Log(level=level, name='/node', msg=f'line {i}', file='a.cpp', function='f', line=i, topics=['/x'])
                m.header.stamp = rospy.Time(100 + i, 7)
                b.write('/rosout', m, rospy.Time(100 + i, 9))
            b.write('/2nd/log', m, rospy.Time(200))  # a name ROS 2 rejects
        for bag in ('demo_uncompressed.bag', 'robot_state.bag', 'tf_old.bag', str(log)):
            source = bag if bag.startswith('/') else data('ros1', bag)
            bag = Path(bag).name
            out = self.dir / bag.replace('.bag', '')
            run = cli('convert', source, '--to-ros2', '-o', out)
            with rosbag.Bag(source) as b:
                # A name ROS 2 rejects gets a '_' before a token's leading digit (the documented rule).
                want = [(re.sub(r'/(\d)', r'/_\1', topic), t.to_nsec(), ros2_view(m))
                        for topic, m, t in b.read_messages()]
            with AnyReader([out]) as r:  # no type store: the definitions in the folder
                got = [(c.topic, t, plain_rosbags(r.deserialize(raw, c.msgtype))) for c, t, raw in r.messages()]
                types = {c.topic: c.msgtype for c in r.connections}
                qos = {c.topic: c.ext.offered_qos_profiles for c in r.connections}
            self.assertEqual(len(got), len(want), run.stderr)
            for (t1, n1, m1), (t2, n2, m2) in zip(sorted(got, key=lambda m: (m[1], m[0])),
                                                  sorted(want, key=lambda m: (m[1], m[0]))):
                self.assertEqual((t1, n1), (t2, n2))
                contains(m1, m2, f'{bag} {t1} at {n1}')
            self.assertTrue(all('/msg/' in t for t in types.values()), types)
            if bag == 'demo_uncompressed.bag':
                self.assertEqual(types['/tf'], 'tf2_msgs/msg/TFMessage')
                self.assertEqual(types['/vehicle_state'], 'demo_msgs/msg/VehicleState')  # made from the bag's
                # Latched in ROS 1: transient local, so that replay delivers it to late subscribers.
                self.assertEqual([q.durability.value for q in qos['/tf_static']], [1])
                self.assertIn('visualization_msgs/Marker.texture has no ROS 1 field: left zero', run.stderr)
                # As a bare MCAP: Foxglove's reader takes it, every channel CDR with a ros2msg schema.
                cli('convert', source, '--to-ros2', '-o', self.dir / 'demo.mcap', '-q')
                read = mcap_read(self.dir / 'demo.mcap')[0]
                self.assertEqual(len(read['messages']), len(want))
                self.assertEqual({c['messageEncoding'] for c in read['channels']}, {'cdr'})
            if bag == 'tf_old.bag':
                self.assertEqual(types['/tf'], 'tf2_msgs/msg/TFMessage')  # tf/tfMessage, renamed
            if bag == 'log.bag':
                self.assertEqual(types['/rosout'], 'rcl_interfaces/msg/Log')
                self.assertEqual([m['level'] for t, _, m in got if t == '/rosout'], [10, 20, 30, 40, 50])
                self.assertEqual(got[2][2]['stamp'], {'sec': 102, 'nanosec': 7})
                self.assertIn('/_2nd/log', types)
                self.assertIn('/2nd/log: written as /_2nd/log', run.stderr)
                # Only the chosen topics are translated, and only they are reported on.
                run = cli('filter', source, '--topic', '/rosout', '--to-ros2', '-o', self.dir / 'rosout.mcap')
                self.assertNotIn('/2nd', run.stderr)

    def test_round_trip_back_to_ros1(self):
        # ROS 1 -> ROS 2 -> ROS 1 (`--to-ros1`), read by python3-rosbag: every message equal to
        # the input's but for what ROS 2 cannot hold (Header.seq comes back 0, rosgraph_msgs/Log's
        # topics empty: both said), every md5sum the original's, tf/tfMessage back as
        # tf2_msgs/TFMessage (the same md5sum), latched topics latched again.
        def plain(m):
            if hasattr(m, '__slots__'):
                return {k: plain(getattr(m, k)) for k in m.__slots__}
            if isinstance(m, (list, tuple)):
                return [plain(x) for x in m]
            return m.to_nsec() if hasattr(m, 'to_nsec') else m

        def ros2_would_keep(m, datatype):
            if 'seq' in m and 'stamp' in m and 'frame_id' in m:  # a std_msgs/Header
                m['seq'] = 0
            for v in m.values():
                for x in (v if isinstance(v, list) else [v]):
                    if isinstance(x, dict):
                        ros2_would_keep(x, '')
            if datatype == 'rosgraph_msgs/Log':
                m['topics'] = []
            return m

        for bag, middle in (('demo_uncompressed.bag', 'demo'), ('robot_state.bag', 'robot.mcap'),
                            ('tf_old.bag', 'tf.mcap')):
            source = data('ros1', bag)
            cli('convert', source, '--to-ros2', '-o', self.dir / middle, '-q')
            back = self.dir / (bag + '.back.bag')
            run = cli('convert', self.dir / middle, '--to-ros1', '-o', back)
            with rosbag.Bag(source) as a, rosbag.Bag(str(back)) as b:
                types = {c.topic: c.datatype for c in a._connections.values()}
                want = [(t, n.to_nsec(), ros2_would_keep(plain(m), types[t])) for t, m, n in a.read_messages()]
                got = [(t, n.to_nsec(), plain(m)) for t, m, n in b.read_messages()]
            self.assertEqual(len(got), len(want), run.stderr)
            for x, y in zip(sorted(got, key=repr), sorted(want, key=repr)):
                self.assertEqual(repr(x), repr(y))  # repr: NaN equals NaN
            before, after = ros1_connections(source), ros1_connections(back)
            self.assertEqual(before.keys(), after.keys())
            for topic in before:
                (type1, md5, _, _, latched), = before[topic]
                (type2, md5_back, definition, _, latched_back), = after[topic]
                self.assertEqual(md5_back, md5, f'{bag} {topic}')
                self.assertEqual(type2, 'tf2_msgs/TFMessage' if type1 == 'tf/tfMessage' else type1)
                self.assertEqual(latched_back, latched, f'{bag} {topic}')
                self.assertNotIn('/msg/', definition)
            if bag == 'robot_state.bag':
                self.assertIn('rosgraph_msgs/Log.topics has no ROS 2 field: left zero', run.stderr)

    def test_a_recording_still_being_written_is_recovered_on_the_way(self):
        # rosbag's .bag.active (the crashed fixture: the intact bag cut, no index): every
        # complete message translated, what was recovered said; each equal to the same
        # message of the intact bag translated (checked above against python3-rosbag).
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        active = self.dir / 'recording.bag.active'
        shutil.copy(data('ros1', 'demo_crashed.bag'), active)
        run = cli('convert', active, '--to-ros2', '-o', self.dir / 'recovered', check=False)
        self.assertEqual(run.returncode, 3, run.stderr)  # damage recovered: 3, as every command says
        self.assertIn('recovered 500 messages by scanning', run.stderr)
        cli('convert', data('ros1', 'demo_uncompressed.bag'), '--to-ros2', '-o', self.dir / 'intact', '-q')

        def read(folder):
            with AnyReader([folder]) as r:
                return {(c.topic, t): repr(plain_rosbags(r.deserialize(raw, c.msgtype))) for c, t, raw in r.messages()}
        recovered, intact = read(self.dir / 'recovered'), read(self.dir / 'intact')
        self.assertEqual(sorted(recovered), sorted((topic, t) for topic, t, _ in intact_prefix(None, active, 500)))
        for key, value in recovered.items():
            self.assertEqual(value, intact[key], key)

    def test_the_users_renames_both_ways(self):
        # --rename: a package and two fields of the fixture's custom type renamed on the way to
        # ROS 2 (rosbags decodes them under the new names from the file alone, values python3-
        # rosbag's under the old), and undone on the way back (the original type and md5sum).
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        renames = self.dir / 'renames.yaml'
        renames.write_text('packages: {demo_msgs: fleet_msgs}\n'
                           'fields:\n  demo_msgs/VehicleState: {engaged: is_engaged}\n'
                           '  demo_msgs/Wheel: {speed: speed_mps}\n')
        source = data('ros1', 'demo_uncompressed.bag')
        cli('convert', source, '--to-ros2', '--rename', renames, '-o', self.dir / 'fleet', '-q')
        with rosbag.Bag(source) as b:
            want = [(m.engaged, [(w.name, w.speed) for w in m.wheels])
                    for _, m, _ in b.read_messages(topics=['/vehicle_state'])]
        with AnyReader([self.dir / 'fleet']) as r:
            c = next(c for c in r.connections if c.topic == '/vehicle_state')
            self.assertEqual(c.msgtype, 'fleet_msgs/msg/VehicleState')
            got = [(m.is_engaged, [(w.name, w.speed_mps) for w in m.wheels])
                   for m in (r.deserialize(raw, c.msgtype) for _, _, raw in r.messages(connections=[c]))]
        self.assertEqual(got, want)
        self.assertTrue(any(wheels for _, wheels in want))
        back = self.dir / 'back.bag'
        cli('convert', self.dir / 'fleet', '--to-ros1', '--rename', renames, '-o', back, '-q')
        def type_and_md5(bag):
            return {c[:2] for c in ros1_connections(bag)['/vehicle_state']}
        self.assertEqual(type_and_md5(back), type_and_md5(source))
        with rosbag.Bag(str(back)) as b:
            self.assertEqual([(m.engaged, [(w.name, w.speed) for w in m.wheels])
                              for _, m, _ in b.read_messages(topics=['/vehicle_state'])], want)
        # A file that is no rename table: said with its name, nothing written.
        renames.write_text('types: [a, b]\n')
        run = cli('convert', source, '--to-ros2', '--rename', renames, '-o', self.dir / 'bad', check=False)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("renames.yaml", run.stderr)
        self.assertIn("'types' is not a map", run.stderr)
        self.assertFalse((self.dir / 'bad').exists())

    def test_a_folder_of_bags_one_output_each(self):
        # convert --each --jobs 2: every bag under the folder on its own, into the same place
        # under -o, each read by rosbags with as many messages per topic as python3-rosbag
        # reads from its input; a file that is no bag fails alone, named, and the exit says so.
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.highlevel import AnyReader
        archive = self.dir / 'archive'
        for place, bag in (('site_a', 'robot_state.bag'), ('site_a', 'tf_old.bag'), ('site_b/day2', 'robot_state.bag')):
            (archive / place).mkdir(parents=True, exist_ok=True)
            shutil.copy(data('ros1', bag), archive / place / bag)
        (archive / 'site_b' / 'broken.bag').write_bytes(b'#ROSBAG V2.0\nnot really')
        # A bag rosbag was still writing (.bag.active, no index) is found and recovered on the way.
        shutil.copy(data('ros1', 'demo_crashed.bag'), archive / 'site_b' / 'live.bag.active')
        run = cli('convert', archive, '--each', '--to-ros2', '--jobs', '2', '-o', self.dir / 'migrated', check=False)
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn('broken.bag', run.stderr)
        self.assertIn('5 recordings: 4 written', run.stderr)
        with AnyReader([self.dir / 'migrated' / 'site_b' / 'live']) as r:
            self.assertEqual(sum(c.msgcount for c in r.connections), 500)  # every complete message
        for place, bag in (('site_a', 'robot_state'), ('site_a', 'tf_old'), ('site_b/day2', 'robot_state')):
            with rosbag.Bag(str(archive / place / (bag + '.bag'))) as b:
                want = {t: i.message_count for t, i in b.get_type_and_topic_info().topics.items()}
            with AnyReader([self.dir / 'migrated' / place / bag]) as r:
                got = {c.topic: c.msgcount for c in r.connections}
                self.assertTrue(all('/msg/' in c.msgtype for c in r.connections))
            self.assertEqual(got, want, place)
        self.assertFalse((self.dir / 'migrated' / 'site_b' / 'broken').exists())
        self.assertEqual(cli('convert', archive, '--to-ros2', '--jobs', '2', '-o', self.dir / 'x',
                             check=False).returncode, 2)

    def test_read_by_foxgloves_own_decoder(self):
        # The bare ROS 2 MCAP decoded by Foxglove's stack (@mcap/core, @foxglove/rosmsg's ros2msg
        # parser, @foxglove/rosmsg2-serialization's CDR reader) from the file's own schemas, and
        # compared with python3-rosbag's reading of the input through the type mapping.
        def numbers(v):  # decode_ros2.mjs writes NaN and infinities as text (JSON has none)
            if isinstance(v, dict):
                return {k: numbers(x) for k, x in v.items()}
            if isinstance(v, list):
                return [numbers(x) for x in v]
            return float(v) if v in ('NaN', 'Infinity', '-Infinity') else v
        for bag in ('demo_uncompressed.bag', 'robot_state.bag', 'tf_old.bag'):
            out = self.dir / bag.replace('.bag', '.mcap')
            cli('convert', data('ros1', bag), '--to-ros2', '-o', out, '-q')
            run = subprocess.run(['node', str(HERE / 'decode_ros2.mjs'), str(Path(ARGS.npm_cache).resolve()), str(out)],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            got = [json.loads(line) for line in run.stdout.splitlines()]
            with rosbag.Bag(data('ros1', bag)) as b:
                want = [(topic, t.to_nsec(), ros2_view(m)) for topic, m, t in b.read_messages()]
            self.assertEqual(len(got), len(want))
            for (t1, n1, m1), (t2, n2, m2) in zip(sorted(got, key=lambda m: (int(m[1]), m[0])),
                                                  sorted(want, key=lambda m: (m[1], m[0]))):
                self.assertEqual((t1, int(n1)), (t2, n2))
                contains(numbers(m1), m2, f'{bag} {t1} at {n1}')

    def test_against_rosbags_convert(self):
        # rosbags' own converter keeps ROS 1 field layouts under ROS 2 names (CameraInfo's D, K,
        # R, P stay upper case; Marker keeps its ROS 1 fields), so the comparison is by lower-case
        # name over the fields both hold.
        sys.path.insert(0, ARGS.rosbags)
        from rosbags.convert import convert
        from rosbags.highlevel import AnyReader
        source = Path(data('ros1', 'demo_uncompressed.bag'))
        ours, theirs = self.dir / 'ours', self.dir / 'theirs'
        cli('convert', source, '--to-ros2', '-o', ours, '--format', 'rosbag2-db3')
        convert([source], theirs, 'sqlite3', 8, None, 'file', None, None, [], [], [], [])

        def read(folder):
            with AnyReader([folder]) as r:
                return [(c.topic, t, plain_rosbags(r.deserialize(raw, c.msgtype))) for c, t, raw in r.messages()]

        def lowered(v):
            if isinstance(v, dict):
                return {k.lower(): lowered(x) for k, x in v.items()}
            return [lowered(x) for x in v] if isinstance(v, list) else v

        def common(a, b, where):
            if isinstance(a, dict) and isinstance(b, dict):
                for k in a.keys() & b.keys():
                    common(a[k], b[k], f'{where}.{k}')
            elif isinstance(a, list) and isinstance(b, list):
                self.assertEqual(len(a), len(b), where)
                for i, (x, y) in enumerate(zip(a, b)):
                    common(x, y, f'{where}[{i}]')
            else:
                self.assertTrue(a == b or (a != a and b != b), f'{where}: {a!r} != {b!r}')
        a, b = read(ours), read(theirs)
        self.assertEqual([(t, n) for t, n, _ in a], [(t, n) for t, n, _ in b])
        for (topic, n, x), (_, _, y) in zip(a, b):
            common(lowered(x), lowered(y), f'{topic} at {n}')


if __name__ == '__main__':
    ARGS, rest = parse_script_args('test_write.py')
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
