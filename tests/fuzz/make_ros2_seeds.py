#!/usr/bin/python3
"""Writes small seeds for fuzz_mcap and fuzz_rosbag2 from the ROS 2 fixtures, with
Python's own sqlite3 and plain byte copies (nothing of Bagscope's).

    /usr/bin/python3 tests/fuzz/make_ros2_seeds.py tests/data/ros2 tests/fuzz/seeds

mcap/: the first 48 kB of each fixture MCAP (cut files: the scan path) and the whole
smallest one's last 48 kB grafted onto its magic (summary path, chunks missing).
rosbag2/: a .db3 with the Jazzy tables holding the first 12 messages of the demo bag,
and the demo metadata.yaml files.
"""
import os
import shutil
import sqlite3
import sys

src, out = sys.argv[1], sys.argv[2]
os.makedirs(os.path.join(out, 'mcap'), exist_ok=True)
os.makedirs(os.path.join(out, 'rosbag2'), exist_ok=True)
for name in ('demo.mcap', 'demo_lz4.mcap', 'demo_zstd.mcap', 'demo_nosummary.mcap'):
    data = open(os.path.join(src, name), 'rb').read()
    open(os.path.join(out, 'mcap', name + '.head'), 'wb').write(data[:48 * 1024])
    open(os.path.join(out, 'mcap', name + '.tail'), 'wb').write(data[:8] + data[-48 * 1024:])

db_in = sqlite3.connect('file:%s?immutable=1' % os.path.join(src, 'demo_db3', 'demo_db3_0.db3'), uri=True)
path = os.path.join(out, 'rosbag2', 'small.db3')
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path)
for (sql,) in db_in.execute("SELECT sql FROM sqlite_master WHERE type IN ('table','index') AND sql IS NOT NULL"):
    db.execute(sql)
for table in ('schema', 'metadata', 'topics', 'message_definitions'):
    rows = db_in.execute('SELECT * FROM %s' % table).fetchall()
    if rows:
        db.executemany('INSERT INTO %s VALUES (%s)' % (table, ','.join('?' * len(rows[0]))), rows)
db.executemany('INSERT INTO messages VALUES (?,?,?,?)',
               db_in.execute('SELECT * FROM messages WHERE length(data) < 2000 ORDER BY id LIMIT 12').fetchall())
db.commit()
db.close()
for bag in ('demo_db3', 'demo_db3_old', 'demo_db3_split'):
    shutil.copy(os.path.join(src, bag, 'metadata.yaml'), os.path.join(out, 'rosbag2', bag + '.yaml'))
print('seeds written to', out)

# decode/: ROS 2 definition + CDR message, the definition length's top bit set (CDR).
db = sqlite3.connect('file:%s?immutable=1' % os.path.join(src, 'demo_db3', 'demo_db3_0.db3'), uri=True)
defs = dict(db.execute('SELECT topic_type, encoded_message_definition FROM message_definitions'))
seen = set()
for name, type_, data in db.execute('SELECT t.name, t.type, m.data FROM messages m JOIN topics t ON t.id = m.topic_id ORDER BY m.id'):
    if name in seen or len(defs.get(type_, '')) >= 0x8000:
        continue
    seen.add(name)
    text = defs[type_].encode()
    seed = os.path.join(out, 'decode', 'ros2_' + name.strip('/').replace('/', '_'))
    with open(seed, 'wb') as f:
        f.write((len(text) | 0x8000).to_bytes(2, 'little') + text + data[:2048])
