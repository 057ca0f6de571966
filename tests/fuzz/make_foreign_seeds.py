#!/usr/bin/env python3
"""Seeds for fuzz_decode's ROS 2 IDL, JSON and protobuf formats, from the test fixtures (written
by rosbags and @mcap/core): ff ff, format byte, uint16 schema length, schema, one message.

Usage: /usr/bin/python3 tests/fuzz/make_foreign_seeds.py tests/fuzz/seeds tests/data
"""
import os
import struct
import sys

out, data = sys.argv[1], sys.argv[2]


def records(path):
    """(opcode, content) of an unchunked-or-chunked MCAP's top-level and chunk records."""
    blob = open(path, 'rb').read()
    pos = 8
    while pos + 9 <= len(blob):
        op = blob[pos]
        n = struct.unpack_from('<Q', blob, pos + 1)[0]
        content = blob[pos + 9:pos + 9 + n]
        pos += 9 + n
        if op == 0x06:  # chunk: start, end, size, crc, compression, records
            clen = struct.unpack_from('<I', content, 28)[0]
            comp = content[32:32 + clen]
            rlen = struct.unpack_from('<Q', content, 32 + clen)[0]
            inner = content[40 + clen:40 + clen + rlen]
            assert comp == b'', 'compressed chunk'
            p = 0
            while p + 9 <= len(inner):
                iop = inner[p]
                m = struct.unpack_from('<Q', inner, p + 1)[0]
                yield iop, inner[p + 9:p + 9 + m]
                p += 9 + m
        else:
            yield op, content


def seeds(path, mode, prefix):
    schemas, channels, done = {}, {}, set()
    for op, c in records(path):
        if op == 0x03:
            sid = struct.unpack_from('<H', c)[0]
            n = struct.unpack_from('<I', c, 2)[0]
            name = c[6:6 + n].decode()
            e = struct.unpack_from('<I', c, 6 + n)[0]
            d = struct.unpack_from('<I', c, 10 + n + e)[0]
            schemas[sid] = (name, c[14 + n + e:14 + n + e + d])
        elif op == 0x04:
            cid, sid = struct.unpack_from('<HH', c)
            channels[cid] = sid
        elif op == 0x05:
            cid = struct.unpack_from('<H', c)[0]
            if cid in done:
                continue
            done.add(cid)
            name, schema = schemas[channels[cid]]
            seed = b'\xff\xff' + bytes([mode]) + struct.pack('<H', len(schema)) + schema + c[22:]
            with open(os.path.join(out, 'decode', f'{prefix}_{cid}'), 'wb') as f:
                f.write(seed)


os.makedirs(os.path.join(out, 'decode'), exist_ok=True)
seeds(os.path.join(data, 'ros2/cases/idl_mcap/idl_mcap.mcap'), 2, 'idl')
seeds(os.path.join(data, 'mcap_foreign/json.mcap'), 3, 'json')
seeds(os.path.join(data, 'mcap_foreign/protobuf.mcap'), 4, 'protobuf')
