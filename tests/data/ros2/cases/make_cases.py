#!/usr/bin/env python3
"""Writes the ROS 2 decoding cases in this folder with the rosbags library (not Bagscope),
and each case's expectation as rosbags decodes it.

Usage (from the repository root; needs Debian's python3-lz4 python3-zstandard
python3-ruamel.yaml python3-typing-extensions):
    PYTHONPATH=../shared/peers/rosbags/src /usr/bin/python3 tests/data/ros2/cases/make_cases.py

Each case is a rosbag2 folder written by rosbags' Writer; where a real recording differs from
what rosbags writes (old metadata layouts, rosbag2's service-event definitions, a wrong stored
definition), the difference is made afterwards with plain file or sqlite3 edits, named below.
The expectation `<case>.expected.jsonl` is one line per message, in log-time order, in the
shape `bagscope-cli cat` prints: {"topic","type","log_time_ns","msg"}.
"""
import hashlib
import json
import math
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import numpy as np
from rosbags.highlevel import AnyReader
from rosbags.rosbag2 import StoragePlugin, Writer
from rosbags.typesys import Stores, get_types_from_idl, get_types_from_msg, get_typestore

HERE = Path(__file__).resolve().parent
T0 = 1_700_000_000_000_000_000
SEP = '=' * 80

# --------------------------------------------------------------------------------------
# JSON in the shape of bagscope-cli cat (--bytes digest): floats in shortest form with
# integral values written as integers (as JavaScript writes them), uint8 arrays of up to 64
# bytes as lists, longer ones as {"len","sha256"}; non-finite floats as strings.


FIELDS = {}  # type name -> its fields, from the typestore in use
PLACEHOLDER = 'structure_needs_at_least_one_member'  # rosidl's member of a type without fields


def to_json(value):
    if isinstance(value, np.ndarray):
        if value.dtype == np.uint8:
            data = value.tobytes()
            if len(data) <= 64:
                return list(data)
            return {'len': len(data), 'sha256': hashlib.sha256(data).hexdigest()}
        return [to_json(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        f = float(value)
        if math.isnan(f):
            return 'nan'
        if math.isinf(f):
            return 'inf' if f > 0 else '-inf'
        return int(f) if f.is_integer() and abs(f) < 2**53 else f
    if isinstance(value, str):
        return value
    if hasattr(value, '__dataclass_fields__'):
        # The type's fields as its definition lists them (not its constants). A type with none
        # holds the uint8 that rosidl's code generators add (its one byte on the wire); rosbags
        # shows it as a field, ROS 2's own tools (`ros2 topic echo`) and Foxglove show {}: so
        # does the expectation.
        names = [name for name, _ in FIELDS[value.__msgtype__] if name != PLACEHOLDER]
        return {name: to_json(getattr(value, name)) for name in names}
    raise TypeError(f'cannot write {type(value)}')


def write_expectation(bag, name, store):
    FIELDS.update({k: v[1] for k, v in store.fielddefs.items()})
    lines = []
    with AnyReader([bag], default_typestore=store) as reader:
        for conn, stamp, raw in reader.messages():
            msg = reader.deserialize(raw, conn.msgtype)
            lines.append(json.dumps({'topic': conn.topic, 'type': conn.msgtype, 'log_time_ns': stamp,
                                     'msg': to_json(msg)}, separators=(',', ':'), ensure_ascii=False))
    (HERE / f'{name}.expected.jsonl').write_text('\n'.join(lines) + '\n')


def write_expectation_raw(bag, name, store):
    """The same from the database's rows, decoded with `store`'s types (not the stored
    definitions: for cases whose stored definition is wrong or is a .srv text)."""
    FIELDS.update({k: v[1] for k, v in store.fielddefs.items()})
    db = sqlite3.connect(next(bag.glob('*.db3')))
    rows = db.execute('SELECT topics.name, topics.type, messages.timestamp, messages.data FROM messages '
                      'JOIN topics ON topics.id = messages.topic_id ORDER BY messages.timestamp, messages.id').fetchall()
    db.close()
    lines = [json.dumps({'topic': topic, 'type': typ, 'log_time_ns': t, 'msg': to_json(store.deserialize_cdr(data, typ))},
                        separators=(',', ':'), ensure_ascii=False) for topic, typ, t, data in rows]
    (HERE / f'{name}.expected.jsonl').write_text('\n'.join(lines) + '\n')


def fresh(path):
    if path.exists():
        shutil.rmtree(path)
    return path


def stamp(store, ns):
    return store.types['builtin_interfaces/msg/Time'](sec=ns // 10**9, nanosec=ns % 10**9)


def header(store, ns, frame):
    return store.types['std_msgs/msg/Header'](stamp=stamp(store, ns), frame_id=frame)


# --------------------------------------------------------------------------------------
# Types of our own, as .msg text (rosbags' parser) and the definitions rosbag2 would store.

WITH_EMPTY_MSG = """\
std_msgs/Empty first
std_msgs/Empty[3] three
int32 after
string[2] names
std_msgs/Empty[] some
bagscope_test/OnlyConstants constants
float64 last
"""
ONLY_CONSTANTS_MSG = 'uint8 RED=1\nuint8 GREEN=2\n'


def full_msg_text(root, deps):
    return root + ''.join(f'\n{SEP}\nMSG: {name}\n{text}' for name, text in deps)


def imu_like_store():
    store = get_typestore(Stores.ROS2_JAZZY)
    store.register(get_types_from_msg(ONLY_CONSTANTS_MSG, 'bagscope_test/msg/OnlyConstants'))
    store.register(get_types_from_msg(WITH_EMPTY_MSG, 'bagscope_test/msg/WithEmpty'))
    return store


def write_basic(writer, store, start_ns, count, conns=None):
    """/chatter (std_msgs/String) and /odom-ish /pose (geometry_msgs/PoseStamped)."""
    if conns is None:
        conns = (writer.add_connection('/chatter', 'std_msgs/msg/String', typestore=store),
                 writer.add_connection('/pose', 'geometry_msgs/msg/PoseStamped', typestore=store))
    chatter, pose = conns
    T = store.types
    for i in range(count):
        t = start_ns + i * 100_000_000
        writer.write(chatter, t, store.serialize_cdr(T['std_msgs/msg/String'](data=f'hello {i}'), 'std_msgs/msg/String'))
        p = T['geometry_msgs/msg/PoseStamped'](
            header=header(store, t, 'map'),
            pose=T['geometry_msgs/msg/Pose'](position=T['geometry_msgs/msg/Point'](x=i * 0.5, y=-i * 0.25, z=1.0),
                                             orientation=T['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0, w=1.0)))
        writer.write(pose, t + 5_000_000, store.serialize_cdr(p, 'geometry_msgs/msg/PoseStamped'))
    return conns


def metadata_v3(files, topics, start_ns, duration_ns, count):
    """metadata.yaml as rosbag2 Eloquent (version 3) writes it."""
    out = ['rosbag2_bagfile_information:', '  version: 3', '  storage_identifier: sqlite3',
           '  relative_file_paths:'] + [f'    - {f}' for f in files]
    out += ['  duration:', f'    nanoseconds: {duration_ns}', '  starting_time:',
            f'    nanoseconds_since_epoch: {start_ns}', f'  message_count: {count}', '  topics_with_message_count:']
    for name, typ, n in topics:
        out += ['    - topic_metadata:', f'        name: {name}', f'        type: {typ}',
                '        serialization_format: cdr', f'      message_count: {n}']
    out += ['  compression_format: ""', '  compression_mode: ""']
    return '\n'.join(out) + '\n'


# --------------------------------------------------------------------------------------


def case_old_paths(store):
    """Eloquent-era layout: relative_file_paths name the bag folder too."""
    root = fresh(HERE / 'old_paths')
    with tempfile.TemporaryDirectory() as tmp:
        bag = Path(tmp) / 'rosbag2_test'
        with Writer(bag, version=9) as w:
            write_basic(w, store, T0, 10)
        write_expectation(bag, 'old_paths', store)
        (root / 'rosbag2_test').mkdir(parents=True)
        shutil.copy(next(bag.glob('*.db3')), root / 'rosbag2_test' / 'rosbag2_test_0.db3')
    (root / 'rosbag2_test' / 'metadata.yaml').write_text(metadata_v3(
        ['rosbag2_test/rosbag2_test_0.db3'],
        [('/chatter', 'std_msgs/msg/String', 10), ('/pose', 'geometry_msgs/msg/PoseStamped', 10)],
        T0, 905_000_000, 20))


def case_listed_missing(store):
    """metadata.yaml lists two files; the second was never copied."""
    root = fresh(HERE / 'listed_missing')
    with tempfile.TemporaryDirectory() as tmp:
        bag = Path(tmp) / 'b'
        with Writer(bag, version=9) as w:
            write_basic(w, store, T0, 5)
        write_expectation(bag, 'listed_missing', store)
        root.mkdir()
        shutil.copy(next(bag.glob('*.db3')), root / 'listed_missing_0.db3')
    (root / 'metadata.yaml').write_text(metadata_v3(
        ['listed_missing_0.db3', 'listed_missing_1.db3'],
        [('/chatter', 'std_msgs/msg/String', 9), ('/pose', 'geometry_msgs/msg/PoseStamped', 9)],
        T0, 1_805_000_000, 18))


def case_split_mcap(store):
    """MCAP storage split over three files, as --max-bag-size leaves it."""
    root = fresh(HERE / 'split_mcap')
    root.mkdir()
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for k in range(3):
            bag = Path(tmp) / f'part{k}'
            with Writer(bag, version=9, storage_plugin=StoragePlugin.MCAP) as w:
                write_basic(w, store, T0 + k * 1_000_000_000, 10)
            parts.append(bag)
            shutil.copy(next(bag.glob('*.mcap')), root / f'split_mcap_{k}.mcap')
        meta = (parts[0] / 'metadata.yaml').read_text()
    # The first part's metadata, with every file listed and the whole recording's counts.
    meta = meta.replace('  - part0.mcap', '  - split_mcap_0.mcap\n  - split_mcap_1.mcap\n  - split_mcap_2.mcap')
    meta = meta.replace('path: part0.mcap', 'path: split_mcap_0.mcap')
    meta = meta.replace('message_count: 10', 'message_count: 30').replace('message_count: 20', 'message_count: 60')
    meta = meta.replace('nanoseconds: 905000000', 'nanoseconds: 2905000000')
    assert 'split_mcap_2.mcap' in meta, meta
    (root / 'metadata.yaml').write_text(meta)
    write_expectation(root, 'split_mcap', store)  # rosbags reads the three files as one bag


def case_no_storage_id(store):
    """A metadata.yaml whose storage_identifier is empty (MCAP files beside it)."""
    root = fresh(HERE / 'no_storage_id')
    with tempfile.TemporaryDirectory() as tmp:
        bag = Path(tmp) / 'no_storage_id'
        with Writer(bag, version=9, storage_plugin=StoragePlugin.MCAP) as w:
            write_basic(w, store, T0, 4)
        write_expectation(bag, 'no_storage_id', store)
        shutil.copytree(bag, root)
    meta = (root / 'metadata.yaml').read_text()
    assert 'storage_identifier: mcap' in meta
    (root / 'metadata.yaml').write_text(meta.replace('storage_identifier: mcap', "storage_identifier: ''"))


def case_empty_types():
    """Types without fields: std_msgs/Empty alone, in fixed and dynamic arrays, and a type of
    constants only, followed by fields that must still be read right."""
    store = imu_like_store()
    root = fresh(HERE / 'empty_types')
    T = store.types
    with Writer(root, version=9) as w:
        empty = w.add_connection('/empty', 'std_msgs/msg/Empty', typestore=store)
        msgdef = full_msg_text(WITH_EMPTY_MSG, [('std_msgs/Empty', ''), ('bagscope_test/OnlyConstants', ONLY_CONSTANTS_MSG)])
        mixed = w.add_connection('/with_empty', 'bagscope_test/msg/WithEmpty', msgdef=msgdef,
                                 rihs01=store.hash_rihs01('bagscope_test/msg/WithEmpty'))
        for i in range(3):
            t = T0 + i * 100_000_000
            w.write(empty, t, store.serialize_cdr(T['std_msgs/msg/Empty'](), 'std_msgs/msg/Empty'))
            e = T['std_msgs/msg/Empty']()
            m = T['bagscope_test/msg/WithEmpty'](first=e, three=[e, e, e], after=-7 - i, names=[f'a{i}', 'bb'],
                                                 some=[e] * i, constants=T['bagscope_test/msg/OnlyConstants'](),
                                                 last=1.5 * i + 0.125)
            w.write(mixed, t + 1, store.serialize_cdr(m, 'bagscope_test/msg/WithEmpty'))
    write_expectation(root, 'empty_types', store)


def srv_type(text, name):
    """A service part's type under its own name (rosbags' .msg parser inserts '/msg/')."""
    ((key, parsed),) = get_types_from_msg(text, name).items()
    return {name: parsed, key: parsed}  # the Event's fields name the parts with '/msg/' too


def case_service_event():
    """A service event topic in .db3, its definition stored as rosbag2 stores it: the .srv
    text under the service's name (the table is edited after rosbags wrote it)."""
    store = get_typestore(Stores.ROS2_JAZZY)
    store.register(srv_type('int64 a\nint64 b\n', 'example_interfaces/srv/AddTwoInts_Request'))
    store.register(srv_type('int64 sum\n', 'example_interfaces/srv/AddTwoInts_Response'))
    store.register(srv_type(
        'service_msgs/msg/ServiceEventInfo info\n'
        'example_interfaces/srv/AddTwoInts_Request[<=1] request\n'
        'example_interfaces/srv/AddTwoInts_Response[<=1] response\n', 'example_interfaces/srv/AddTwoInts_Event'))
    root = fresh(HERE / 'service_event')
    T = store.types
    srv = 'int64 a\nint64 b\n---\nint64 sum\n'
    with Writer(root, version=9) as w:
        c = w.add_connection('/add_two_ints/_service_event', 'example_interfaces/srv/AddTwoInts_Event',
                             msgdef=srv, rihs01='RIHS01_' + '1' * 64)
        for i in range(4):
            t = T0 + i * 50_000_000
            info = T['service_msgs/msg/ServiceEventInfo'](
                event_type=i % 4, stamp=stamp(store, t), client_gid=np.arange(16, dtype=np.uint8) + i,
                sequence_number=100 + i)
            req = [T['example_interfaces/srv/AddTwoInts_Request'](a=i, b=2 * i)] if i % 2 == 0 else []
            res = [T['example_interfaces/srv/AddTwoInts_Response'](sum=3 * i)] if i % 2 == 1 else []
            msg = T['example_interfaces/srv/AddTwoInts_Event'](info=info, request=req, response=res)
            w.write(c, t, store.serialize_cdr(msg, 'example_interfaces/srv/AddTwoInts_Event'))
    db = sqlite3.connect(next(root.glob('*.db3')))
    n = db.execute("UPDATE message_definitions SET topic_type='example_interfaces/srv/AddTwoInts' "
                   "WHERE topic_type='example_interfaces/srv/AddTwoInts_Event'").rowcount
    assert n == 1, n
    db.commit()
    db.close()
    write_expectation_raw(root, 'service_event', store)


def case_bad_definition():
    """rcl_interfaces/msg/Log stored with the placeholder definition 'uint8 level' (seen in
    real bags); the messages are whole Log messages."""
    store = get_typestore(Stores.ROS2_JAZZY)
    root = fresh(HERE / 'bad_definition')
    T = store.types
    with Writer(root, version=9) as w:
        c = w.add_connection('/rosout', 'rcl_interfaces/msg/Log', msgdef='uint8 level\n', rihs01='RIHS01_' + '2' * 64)
        s = w.add_connection('/chatter', 'std_msgs/msg/String', typestore=store)
        for i in range(5):
            t = T0 + i * 10_000_000
            log = T['rcl_interfaces/msg/Log'](stamp=stamp(store, t), level=20 + i, name='talker',
                                              msg=f'Publishing: hello world {i} ' + 'x' * 100, file='talker.cpp',
                                              function='on_timer', line=42 + i)
            w.write(c, t, store.serialize_cdr(log, 'rcl_interfaces/msg/Log'))
            w.write(s, t + 1, store.serialize_cdr(T['std_msgs/msg/String'](data=str(i)), 'std_msgs/msg/String'))
    write_expectation_raw(root, 'bad_definition', store)


IDL_TEXT = """\
================================================================================
IDL: bagscope_test/msg/Telemetry
// generated from rosidl_adapter/resource/msg.idl.em
// with input from bagscope_test/msg/Telemetry.msg
// generated code does not contain a copyright notice

#include "bagscope_test/msg/Status.idl"
#include "std_msgs/msg/Header.idl"

module bagscope_test {
  module msg {
    typedef double double__9[9];
    typedef int64 int64__3[3];
    typedef string string__2[2];
    module Telemetry_Constants {
      const uint8 MODE_IDLE = 0;
      const uint8 MODE_RUN = 1;
      const string NAME = "tele;metry";
    };
    @verbatim (language="comment", text=
      "Telemetry of a test robot." "\\n"
      "Second line; with a semicolon.")
    struct Telemetry {
      std_msgs::msg::Header header;

      @verbatim (language="comment", text=
        "0 idle, 1 run")
      @default (value=1)
      uint8 mode;

      double__9 covariance;

      sequence<float> samples;

      sequence<int32, 4> bounded;

      string<16> label;

      @key
      string name;

      bagscope_test::msg::Status status;

      sequence<bagscope_test::msg::Status> history;

      sequence<bagscope_test::msg::Status, 2> recent;

      int64__3 counts;

      boolean flag;

      uint16 small;

      int8 tiny;

      string__2 words;
    };
  };
};

================================================================================
IDL: bagscope_test/msg/Status
// generated from rosidl_adapter/resource/msg.idl.em

module bagscope_test {
  module msg {
    struct Status {
      int16 code;

      string text;
    };
  };
};

================================================================================
IDL: std_msgs/msg/Header
// generated from rosidl_adapter/resource/msg.idl.em

#include "builtin_interfaces/msg/Time.idl"

module std_msgs {
  module msg {
    @verbatim (language="comment", text=
      "Standard metadata for higher-level stamped data types.")
    struct Header {
      builtin_interfaces::msg::Time stamp;

      string frame_id;
    };
  };
};

================================================================================
IDL: builtin_interfaces/msg/Time
// generated from rosidl_adapter/resource/msg.idl.em

module builtin_interfaces {
  module msg {
    struct Time {
      int32 sec;

      @verbatim (language="comment", text=
        "The nanoseconds component, valid in the range [0, 10e9).")
      uint32 nanosec;
    };
  };
};
"""


def case_idl():
    """An MCAP whose schema is ros2idl (rosbags writes 'ros2idl' for IDL text)."""
    store = get_typestore(Stores.EMPTY)
    for section in IDL_TEXT.split(SEP + '\n')[1:]:
        store.register(get_types_from_idl(section.split('\n', 1)[1]))
    root = fresh(HERE / 'idl_mcap')
    T = store.types
    with Writer(root, version=9, storage_plugin=StoragePlugin.MCAP) as w:
        c = w.add_connection('/telemetry', 'bagscope_test/msg/Telemetry', msgdef=IDL_TEXT,
                             rihs01=store.hash_rihs01('bagscope_test/msg/Telemetry'))
        for i in range(4):
            t = T0 + i * 20_000_000
            st = lambda k: T['bagscope_test/msg/Status'](code=k - 2, text=f's{k}')  # noqa: E731
            m = T['bagscope_test/msg/Telemetry'](
                header=T['std_msgs/msg/Header'](stamp=T['builtin_interfaces/msg/Time'](sec=t // 10**9, nanosec=t % 10**9),
                                                frame_id='base'),
                mode=i % 2, covariance=np.arange(9, dtype=np.float64) * 0.5 + i,
                samples=np.array([0.25 * k for k in range(i + 1)], dtype=np.float32),
                bounded=np.array(list(range(i)), dtype=np.int32), label=f'label{i}', name='robot',
                status=st(i), history=[st(k) for k in range(i)], recent=[st(9)][: i % 2],
                counts=np.array([i, -i, 2**40 + i], dtype=np.int64), flag=i % 2 == 0, small=65535 - i, tiny=-128 + i,
                words=['w', f'word{i}'])
            w.write(c, t, store.serialize_cdr(m, 'bagscope_test/msg/Telemetry'))
    write_expectation(root, 'idl_mcap', store)


# foxglove_msgs/msg/SceneUpdate and what it holds, written here from Foxglove's published ROS 2
# definitions (github.com/foxglove/schemas, ros_foxglove_msgs/ros2): field names, types, order.
FOXGLOVE_MSGS = {
    'Color': 'float64 r\nfloat64 g\nfloat64 b\nfloat64 a\n',
    'KeyValuePair': 'string key\nstring value\n',
    'ArrowPrimitive': 'geometry_msgs/Pose pose\nfloat64 shaft_length\nfloat64 shaft_diameter\nfloat64 head_length\n'
                      'float64 head_diameter\nfoxglove_msgs/Color color\n',
    'CubePrimitive': 'geometry_msgs/Pose pose\ngeometry_msgs/Vector3 size\nfoxglove_msgs/Color color\n',
    'SpherePrimitive': 'geometry_msgs/Pose pose\ngeometry_msgs/Vector3 size\nfoxglove_msgs/Color color\n',
    'CylinderPrimitive': 'geometry_msgs/Pose pose\ngeometry_msgs/Vector3 size\nfloat64 bottom_scale\nfloat64 top_scale\n'
                         'foxglove_msgs/Color color\n',
    'LinePrimitive': 'uint8 LINE_STRIP=0\nuint8 LINE_LOOP=1\nuint8 LINE_LIST=2\nuint8 type\ngeometry_msgs/Pose pose\n'
                     'float64 thickness\nbool scale_invariant\ngeometry_msgs/Point[] points\nfoxglove_msgs/Color color\n'
                     'foxglove_msgs/Color[] colors\nuint32[] indices\n',
    'TriangleListPrimitive': 'geometry_msgs/Pose pose\ngeometry_msgs/Point[] points\nfoxglove_msgs/Color color\n'
                             'foxglove_msgs/Color[] colors\nuint32[] indices\n',
    'TextPrimitive': 'geometry_msgs/Pose pose\nbool billboard\nfloat64 font_size\nbool scale_invariant\n'
                     'foxglove_msgs/Color color\nstring text\n',
    'ModelPrimitive': 'geometry_msgs/Pose pose\ngeometry_msgs/Vector3 scale\nfoxglove_msgs/Color color\n'
                      'bool override_color\nstring url\nstring media_type\nuint8[] data\n',
    'SceneEntityDeletion': 'builtin_interfaces/Time timestamp\nuint8 MATCHING_ID=0\nuint8 ALL=1\nuint8 type\nstring id\n',
    'SceneEntity': 'builtin_interfaces/Time timestamp\nstring frame_id\nstring id\nbuiltin_interfaces/Duration lifetime\n'
                   'bool frame_locked\nfoxglove_msgs/KeyValuePair[] metadata\nfoxglove_msgs/ArrowPrimitive[] arrows\n'
                   'foxglove_msgs/CubePrimitive[] cubes\nfoxglove_msgs/SpherePrimitive[] spheres\n'
                   'foxglove_msgs/CylinderPrimitive[] cylinders\nfoxglove_msgs/LinePrimitive[] lines\n'
                   'foxglove_msgs/TriangleListPrimitive[] triangles\nfoxglove_msgs/TextPrimitive[] texts\n'
                   'foxglove_msgs/ModelPrimitive[] models\n',
    'SceneUpdate': 'foxglove_msgs/SceneEntityDeletion[] deletions\nfoxglove_msgs/SceneEntity[] entities\n',
}


def case_foxglove_scene():
    """foxglove_msgs/msg/SceneUpdate in a rosbag2 MCAP (CDR): at 0 s entity `box` (a cube
    1 × 1 × 1 at (1, 2, 3), red; a line loop through (0,0,0) (1,0,0) (0,1,0), green; 0.5 s
    lifetime), at 0.2 s entity `ring` (a sphere), at 0.4 s the deletion of `ring`."""
    store = get_typestore(Stores.ROS2_JAZZY)
    for name, text in FOXGLOVE_MSGS.items():
        store.register(get_types_from_msg(text, f'foxglove_msgs/msg/{name}'))
    T = store.types
    P = lambda x, y, z: T['geometry_msgs/msg/Point'](x=x, y=y, z=z)  # noqa: E731
    V = lambda x, y, z: T['geometry_msgs/msg/Vector3'](x=x, y=y, z=z)  # noqa: E731
    C = lambda r, g, b: T['foxglove_msgs/msg/Color'](r=r, g=g, b=b, a=1.0)  # noqa: E731
    pose = lambda x, y, z: T['geometry_msgs/msg/Pose'](  # noqa: E731
        position=P(x, y, z), orientation=T['geometry_msgs/msg/Quaternion'](x=0.0, y=0.0, z=0.0, w=1.0))
    dur = lambda ns: T['builtin_interfaces/msg/Duration'](sec=ns // 10**9, nanosec=ns % 10**9)  # noqa: E731

    def entity(ns, name, life=0, cubes=(), spheres=(), lines=()):
        return T['foxglove_msgs/msg/SceneEntity'](
            timestamp=stamp(store, ns), frame_id='map', id=name, lifetime=dur(life), frame_locked=False, metadata=[],
            arrows=[], cubes=list(cubes), spheres=list(spheres), cylinders=[], lines=list(lines), triangles=[], texts=[],
            models=[])

    def update(deletions=(), entities=()):
        return T['foxglove_msgs/msg/SceneUpdate'](deletions=list(deletions), entities=list(entities))

    cube = T['foxglove_msgs/msg/CubePrimitive'](pose=pose(1.0, 2.0, 3.0), size=V(1.0, 1.0, 1.0), color=C(1.0, 0.0, 0.0))
    loop = T['foxglove_msgs/msg/LinePrimitive'](
        type=1, pose=pose(0.0, 0.0, 0.0), thickness=0.05, scale_invariant=False,
        points=[P(0.0, 0.0, 0.0), P(1.0, 0.0, 0.0), P(0.0, 1.0, 0.0)], color=C(0.0, 1.0, 0.0), colors=[],
        indices=np.array([], dtype=np.uint32))
    ball = T['foxglove_msgs/msg/SpherePrimitive'](pose=pose(0.0, 0.0, 1.0), size=V(0.5, 0.5, 0.5), color=C(0.0, 0.0, 1.0))
    gone = T['foxglove_msgs/msg/SceneEntityDeletion'](timestamp=stamp(store, T0 + 400_000_000), type=0, id='ring')
    updates = [(T0, update(entities=[entity(T0, 'box', 500_000_000, cubes=[cube], lines=[loop])])),
               (T0 + 200_000_000, update(entities=[entity(T0 + 200_000_000, 'ring', spheres=[ball])])),
               (T0 + 400_000_000, update(deletions=[gone]))]
    root = fresh(HERE / 'foxglove_scene')
    with Writer(root, version=9, storage_plugin=StoragePlugin.MCAP) as w:
        c = w.add_connection('/scene', 'foxglove_msgs/msg/SceneUpdate', typestore=store)
        for t, m in updates:
            w.write(c, t, store.serialize_cdr(m, 'foxglove_msgs/msg/SceneUpdate'))
    write_expectation(root, 'foxglove_scene', store)


def main():
    store = get_typestore(Stores.ROS2_JAZZY)
    case_old_paths(store)
    case_listed_missing(store)
    case_split_mcap(store)
    case_no_storage_id(store)
    case_empty_types()
    case_service_event()
    case_bad_definition()
    case_idl()
    case_foxglove_scene()
    print('wrote', ', '.join(sorted(p.name for p in HERE.iterdir() if p.is_dir())))


if __name__ == '__main__':
    sys.exit(main())
