#!/usr/bin/env python3
"""A rosbag2 .db3 copied while its writer had it open in WAL mode (as after a recorder crash,
or a bag copied off a running robot): its first 20 messages are in the database, the last 20
only in wal_0.db3-wal. Written with Python's sqlite3 module (not Bagscope):
    /usr/bin/python3 tests/data/ros2/wal/make_wal.py   (from the repository root)
"""
import os
import shutil
import sqlite3
import struct
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1_700_000_000_000_000_000


def cdr_string(text):
    data = text.encode() + b'\0'
    return b'\x00\x01\x00\x00' + struct.pack('<I', len(data)) + data


with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, 'wal_0.db3')
    db = sqlite3.connect(path, isolation_level=None)
    db.execute('PRAGMA journal_mode=WAL')
    db.execute('PRAGMA wal_autocheckpoint=0')  # nothing moves into the database by itself
    db.execute('CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, '
               'serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL)')
    db.execute('CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, '
               'timestamp INTEGER NOT NULL, data BLOB NOT NULL)')
    db.execute("INSERT INTO topics VALUES (1, '/chatter', 'std_msgs/msg/String', 'cdr', '')")
    for i in range(40):
        db.execute('INSERT INTO messages(topic_id, timestamp, data) VALUES (1, ?, ?)',
                   (T0 + i * 100_000_000, cdr_string(f'hello {i}')))
        if i == 19:
            db.execute('PRAGMA wal_checkpoint(TRUNCATE)')  # the first 20 into the database
    # Copied while still open: the last 20 rows exist only in the -wal file.
    for name in ('wal_0.db3', 'wal_0.db3-wal'):
        shutil.copy(os.path.join(tmp, name), os.path.join(HERE, name))
    db.close()

# What Python's sqlite3 sees in the copy (opened from a scratch copy: nothing is written here).
with tempfile.TemporaryDirectory() as tmp:
    for name in ('wal_0.db3', 'wal_0.db3-wal'):
        shutil.copy(os.path.join(HERE, name), os.path.join(tmp, name))
    db = sqlite3.connect(os.path.join(tmp, 'wal_0.db3'))
    n = db.execute('SELECT COUNT(*) FROM messages').fetchone()[0]
    db.close()
    alone = sqlite3.connect(f"file:{os.path.join(HERE, 'wal_0.db3')}?immutable=1", uri=True)
    m = alone.execute('SELECT COUNT(*) FROM messages').fetchone()[0]
    alone.close()
print(f'messages: {n} with the -wal, {m} in the database alone')
assert (n, m) == (40, 20), (n, m)
