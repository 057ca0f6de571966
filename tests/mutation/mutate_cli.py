#!/usr/bin/env python3
"""Bad input is normal input: bagscope-cli on a few hundred damaged copies of the fixtures.

Each case copies one fixture (a ROS 1 bag, an MCAP file or a rosbag2 folder) into a fresh
folder and damages it — bit flips, a cut, a length field made huge, damaged SQLite pages,
a garbled metadata.yaml — then runs `info`, `cat`, `stats`, `export`, `recover` and `filter` on it and checks:

- the process ends by itself (no signal) within the timeout, with a documented exit code;
- its peak memory (ru_maxrss) stays under a bound far above what the fixtures need;
- every line it writes on stderr about the input names the input;
- nothing is created or changed beside the input, in the working folder or in TMPDIR, and
  export, recover and filter write only inside --out.

The cases come from a seeded random generator (--seed), so a failure is reproduced by
running the same command again; --keep leaves the failing case's folder in place. Fixed
hostile inputs follow them (decompression bombs, storage files listed 20,000 times or 300
of them with 64 descriptors, --overwrite onto what is not ours): README.md.
"""

import argparse
import concurrent.futures
import hashlib
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

EXIT_CODES = {0, 1, 3, 4}  # 2 (usage) cannot happen: every command line here is valid
MAX_RSS_MB = 1024
TIMEOUT_S = 60

FIXTURES = [
    ("ros1/demo_lz4.bag", "bag"),
    ("ros1/demo_bz2.bag", "bag"),
    ("ros1/demo_uncompressed.bag", "bag"),
    ("ros2/demo.mcap", "mcap"),
    ("ros2/demo_lz4.mcap", "mcap"),
    ("ros2/demo_zstd.mcap", "mcap"),
    ("ros2/demo_nosummary.mcap", "mcap"),
    ("ros2/demo_db3", "rosbag2"),
    ("ros2/demo_mcap_bag", "rosbag2"),
]


# ---- where the length fields are (so that one can be made huge) --------------------------

def ros1_length_fields(data):
    """Offsets of the u32 header and data lengths of each top-level record of a bag."""
    out = []
    pos = data.find(b"\n") + 1  # after "#ROSBAG V2.0\n"
    while pos + 8 <= len(data):
        header_len = struct.unpack_from("<I", data, pos)[0]
        data_pos = pos + 4 + header_len
        if data_pos + 4 > len(data):
            break
        out += [(pos, 4), (data_pos, 4)]
        pos = data_pos + 4 + struct.unpack_from("<I", data, data_pos)[0]
    return out


def mcap_length_fields(data):
    """Offsets of the u64 record lengths after each opcode, and of the first u32/u64 inside."""
    out = []
    pos = 8
    while pos + 9 <= len(data):
        length = struct.unpack_from("<Q", data, pos + 1)[0]
        out.append((pos + 1, 8))
        if length >= 12:
            out.append((pos + 9, 4))  # the first field: often a string or map length
        pos += 9 + length
    return out


# ---- mutations: each changes `data` in place and says what it did ------------------------

def flip_bits(rng, data, kind):
    n = rng.randint(1, 16)
    for _ in range(n):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    return f"{n} bit flips"


def truncate(rng, data, kind):
    cut = rng.randrange(len(data))
    del data[cut:]
    return f"cut at {cut}"


def huge_length(rng, data, kind):
    fields = ros1_length_fields(data) if kind == "bag" else mcap_length_fields(data)
    if not fields:
        return flip_bits(rng, data, kind)
    pos, width = rng.choice(fields)
    big = rng.choice([0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFF0]) if width == 4 else \
        rng.choice([0xFFFFFFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF, 1 << 40])
    data[pos:pos + width] = big.to_bytes(width, "little")
    return f"length at {pos} set to {big:#x}"


def overwrite_range(rng, data, kind):
    start = rng.randrange(len(data))
    n = rng.randint(1, 512)
    filler = rng.choice([b"\x00", b"\xff", None])
    for i in range(start, min(len(data), start + n)):
        data[i] = rng.randrange(256) if filler is None else filler[0]
    return f"{n} bytes overwritten at {start}"


def sqlite_pages(rng, data, kind):
    """Damage whole pages of a database: a page zeroed, its b-tree header garbled, or noise."""
    page_size = struct.unpack_from(">H", data, 16)[0] or 65536
    pages = len(data) // page_size
    what = []
    for _ in range(rng.randint(1, 3)):
        page = rng.randrange(1, pages) if pages > 1 else 0
        base = page * page_size
        how = rng.choice(["zeroed", "header", "noise"])
        if how == "zeroed":
            data[base:base + page_size] = bytes(page_size)
        elif how == "header":
            for i in range(base, base + 12):
                data[i] = rng.randrange(256)
        else:
            start = base + rng.randrange(page_size)
            for i in range(start, min(base + page_size, start + 64)):
                data[i] = rng.randrange(256)
        what.append(f"page {page} {how}")
    return ", ".join(what)


def garble_yaml(rng, text):
    lines = text.split("\n")
    how = rng.choice(["drop", "number", "escape", "cut"])
    i = rng.randrange(len(lines))
    if how == "drop":
        del lines[i]
    elif how == "number":
        lines[i] = "".join(str(rng.choice([0, -1, 2**63, 10**30])) if c.isdigit() else c for c in lines[i])
    elif how == "escape":
        lines[i] = lines[i].replace(": ", ": ../../", 1)
    else:
        lines = lines[:i]
    return "\n".join(lines), f"metadata.yaml: {how} at line {i + 1}"


BINARY_MUTATIONS = [flip_bits, truncate, huge_length, overwrite_range]


def make_case(rng, data_dir, case_dir):
    """Copies a random fixture into case_dir/in/, damages it; returns (input path, description)."""
    rel, kind = rng.choice(FIXTURES)
    src = os.path.join(data_dir, rel)
    in_dir = os.path.join(case_dir, "in")
    os.makedirs(in_dir)
    if kind == "rosbag2":
        target = os.path.join(in_dir, os.path.basename(rel))
        shutil.copytree(src, target)
        storage = next(os.path.join(target, f) for f in sorted(os.listdir(target)) if not f.endswith(".yaml"))
        if rng.random() < 0.25:
            path = os.path.join(target, "metadata.yaml")
            with open(path) as f:
                text, what = garble_yaml(rng, f.read())
            with open(path, "w") as f:
                f.write(text)
            return target, f"{rel}: {what}"
        victim, victim_kind = storage, ("db3" if storage.endswith(".db3") else "mcap")
    else:
        target = os.path.join(in_dir, os.path.basename(rel))
        shutil.copyfile(src, target)
        victim, victim_kind = target, kind
    with open(victim, "rb") as f:
        data = bytearray(f.read())
    mutations = BINARY_MUTATIONS + ([sqlite_pages] * 3 if victim_kind == "db3" else [])
    what = rng.choice(mutations)(rng, data, victim_kind)
    with open(victim, "wb") as f:
        f.write(data)
    return target, f"{rel}: {what}"


# ---- hostile files made on purpose: decompression bombs ------------------------------------

GIB = 1 << 30


def zstd_rle_frame(total, content_size):
    """A zstd frame of `total` zero bytes made of RLE blocks (4 bytes per 128 KiB: the format's
    greatest ratio), whose header claims `content_size`."""
    block = 128 << 10
    out = bytearray(struct.pack("<I", 0xFD2FB528))
    out += bytes([0xC0, (17 - 10) << 3])  # an 8-byte content size; a 128 KiB window
    out += struct.pack("<Q", content_size)
    left = total
    while left:
        n = min(block, left)
        left -= n
        last = 0 if left else 1
        out += (last | 1 << 1 | n << 3).to_bytes(3, "little")  # block type 1: RLE, of n bytes
        out += b"\x00"
    return bytes(out)


def mcap_record(op, content):
    return bytes([op]) + struct.pack("<Q", len(content)) + content


def mcap_string(text):
    data = text.encode()
    return struct.pack("<I", len(data)) + data


def mcap_zstd_bomb(claimed):
    """An MCAP file whose one zstd chunk inflates to 10 GiB and claims `claimed` bytes."""
    frame = zstd_rle_frame(10 * GIB, 10 * GIB)
    schema = struct.pack("<H", 1) + mcap_string("Item") + mcap_string("jsonschema") + struct.pack("<I", 2) + b"{}"
    channel = struct.pack("<HH", 1, 1) + mcap_string("/bomb") + mcap_string("json") + struct.pack("<I", 0)
    chunk = struct.pack("<QQQI", 0, 0, claimed, 0) + mcap_string("zstd") + struct.pack("<Q", len(frame)) + frame
    return (b"\x89MCAP0\r\n" + mcap_record(0x01, mcap_string("") + mcap_string("bomb")) +
            mcap_record(0x03, schema) + mcap_record(0x04, channel) + mcap_record(0x06, chunk) +
            mcap_record(0x0F, struct.pack("<I", 0)) + mcap_record(0x02, struct.pack("<QQI", 0, 0, 0)) +
            b"\x89MCAP0\r\n")


def ros1_record(fields, data):
    header = b"".join(struct.pack("<I", len(k) + 1 + len(v)) + k + b"=" + v for k, v in fields)
    return struct.pack("<I", len(header)) + header + struct.pack("<I", len(data)) + data


def ros1_chunk_bomb(compression):
    """A ROS 1 bag (unindexed, as a crashed recording is) whose one chunk inflates to 1 GiB and
    claims 4 GB."""
    zeros = bytes(64 << 20)
    if compression == b"bz2":
        import bz2
        c = bz2.BZ2Compressor(9)
        data = b"".join(c.compress(zeros) for _ in range(16)) + c.flush()
    else:
        import lz4.frame
        c = lz4.frame.LZ4FrameCompressor(block_size=lz4.frame.BLOCKSIZE_MAX4MB, content_checksum=True)
        data = c.begin() + b"".join(c.compress(zeros) for _ in range(16)) + c.flush()
    head = ros1_record([(b"op", b"\x03"), (b"index_pos", struct.pack("<Q", 0)), (b"conn_count", struct.pack("<I", 0)),
                        (b"chunk_count", struct.pack("<I", 0))], b"")
    head = head[:-4] + struct.pack("<I", 4096 - len(head)) + b" " * (4096 - len(head))
    chunk = ros1_record([(b"op", b"\x05"), (b"compression", compression), (b"size", struct.pack("<I", 4_000_000_000))],
                        data)
    return b"#ROSBAG V2.0\n" + head + chunk


def db3_message_bomb(path):
    """A rosbag2 database whose one message is a zstd frame claiming (and inflating to) 10 GiB."""
    import sqlite3
    os.makedirs(path)
    db = sqlite3.connect(os.path.join(path, "bomb_0.db3"))
    db.executescript("CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT, type TEXT, serialization_format TEXT,"
                     " offered_qos_profiles TEXT);"
                     "CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER, timestamp INTEGER, data BLOB);")
    db.execute("INSERT INTO topics VALUES (1, '/bomb', 'std_msgs/msg/String', 'cdr', '')")
    db.execute("INSERT INTO messages VALUES (1, 1, 1700000000000000000, ?)", (zstd_rle_frame(10 * GIB, 10 * GIB),))
    db.commit()
    db.close()


BOMBS = {
    "mcap zstd chunk: 10 GiB, claimed": lambda d: write_file(d, "bomb.mcap", mcap_zstd_bomb(10 * GIB)),
    "mcap zstd chunk: 10 GiB, claims 2^64-1": lambda d: write_file(d, "bomb.mcap", mcap_zstd_bomb(2**64 - 1)),
    "ros1 bz2 chunk: 1 GiB, claims 4 GB": lambda d: write_file(d, "bomb.bag", ros1_chunk_bomb(b"bz2")),
    "ros1 lz4 chunk: 1 GiB, claims 4 GB": lambda d: write_file(d, "bomb.bag", ros1_chunk_bomb(b"lz4")),
    "rosbag2 zstd message: 10 GiB": lambda d: (db3_message_bomb(os.path.join(d, "bomb")), os.path.join(d, "bomb"))[1],
}
BOMB_MAX_RSS_MB = 300


def write_file(folder, name, data):
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def bomb_case(cli, root, name, make):
    """Every command on one bomb: refused or read past, never inflated (memory under 300 MB)."""
    case_dir = os.path.join(root, "bomb-" + "".join(c if c.isalnum() else "_" for c in name))
    in_dir = os.path.join(case_dir, "in")
    os.makedirs(in_dir)
    target = make(in_dir)
    kind = "rosbag2" if os.path.isdir(target) else os.path.splitext(target)[1].lstrip(".")
    problems = check_case(cli, case_dir, target, kind, random.Random(name), max_rss_mb=BOMB_MAX_RSS_MB)
    shutil.rmtree(case_dir)
    return name, problems


# ---- rosbag2 folders listing many storage files -------------------------------------------

def listing_cases(cli, root, data):
    """A metadata.yaml naming one storage file 20,000 times (rosbag2 MCAP and SQLite storage),
    and a folder of 300 split files read with 64 file descriptors allowed: each read whole,
    in bounded memory, without running out of descriptors."""
    import resource
    problems = []
    work = os.path.join(root, "listing")
    os.makedirs(work)
    for fixture, storage in (("demo_mcap_bag", "demo_mcap_bag_0.mcap"), ("demo_db3", "demo_db3_0.db3")):
        folder = os.path.join(work, fixture)
        shutil.copytree(os.path.abspath(os.path.join(data, "ros2", fixture)), folder)
        meta = os.path.join(folder, "metadata.yaml")
        text = open(meta).read()
        head, _, tail = text.partition("  relative_file_paths:\n")
        rest = tail[tail.index("\n", tail.index(storage)) + 1:]
        with open(meta, "w") as f:
            f.write(head + "  relative_file_paths:\n" + f"    - {storage}\n" * 20000 + rest)
        for args in (["info", folder], ["cat", folder]):
            code, err, rss = run(cli, args, work, dict(os.environ, LC_ALL="C.UTF-8"))
            what = f"bagscope-cli {args[0]} ({fixture} listed 20,000 times)"
            if code != 3 or (args[0] == "cat" and "more than once" not in err):
                problems.append(f"{what}: exit {code}, expected 3 and a note: {err[:300]}")
            if rss > BOMB_MAX_RSS_MB:
                problems.append(f"{what}: peak memory {rss:.0f} MB")
        cat = subprocess.run([cli, "cat", folder], capture_output=True, text=True)
        if len(cat.stdout.splitlines()) != 715:
            problems.append(f"cat ({fixture} listed 20,000 times): {len(cat.stdout.splitlines())} messages, not 715")
    split = os.path.join(work, "split")
    os.makedirs(split)
    source = os.path.join(data, "ros2", "demo_mcap_bag", "demo_mcap_bag_0.mcap")
    names = [f"split_{i}.mcap" for i in range(300)]
    for n in names:
        os.link(source, os.path.join(split, n)) if hasattr(os, "link") else shutil.copyfile(source, os.path.join(split, n))
    meta = open(os.path.join(data, "ros2", "demo_mcap_bag", "metadata.yaml")).read()
    head, _, tail = meta.partition("  relative_file_paths:\n")
    rest = tail[tail.index("\n", tail.index("demo_mcap_bag_0.mcap")) + 1:]
    with open(os.path.join(split, "metadata.yaml"), "w") as f:
        f.write(head + "  relative_file_paths:\n" + "".join(f"    - {n}\n" for n in names) + rest)
    cat = subprocess.run([cli, "cat", split], capture_output=True, text=True,
                         preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)))
    if cat.returncode not in (0, 3) or len(cat.stdout.splitlines()) != 300 * 715:
        problems.append(f"cat of 300 split files with 64 descriptors: exit {cat.returncode}, "
                        f"{len(cat.stdout.splitlines())} messages of {300 * 715}: {cat.stderr[:300]}")
    shutil.rmtree(work)
    return problems


# ---- --overwrite where it must not replace ----------------------------------------------

def overwrite_cases(cli, root, data):
    """convert/filter/recover/export --overwrite into a folder that is not a recording, beside a
    user's files in a recording folder, onto a FIFO and a socket: what is there stays."""
    import socket
    import stat
    problems = []
    work = os.path.join(root, "overwrite")
    os.makedirs(work)
    bag = os.path.abspath(os.path.join(data, "ros1", "demo_bz2.bag"))
    cfg = os.path.join(work, "cfg")
    os.makedirs(cfg)
    write_file(cfg, "metadata.yaml", b"name: my config\n")
    write_file(cfg, "data.csv", b"precious\n")
    rec = os.path.join(work, "rec")
    shutil.copytree(os.path.abspath(os.path.join(data, "ros2", "demo_mcap_bag")), rec)
    write_file(rec, "notes.txt", b"notes\n")
    fifo = os.path.join(work, "f.mcap")
    os.mkfifo(fifo)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.join(work, "s.bag"))
    mcap = os.path.abspath(os.path.join(data, "ros2", "demo.mcap"))
    export_fifo = os.path.join(work, "topic.csv")
    os.mkfifo(export_fifo)
    runs = [(["convert", mcap, "-o", cfg, "--format", "rosbag2", "--overwrite"], {4}),
            (["filter", mcap, "-o", cfg, "--format", "rosbag2-db3", "--overwrite"], {4}),
            (["recover", mcap, "-o", cfg, "--format", "rosbag2", "--overwrite"], {4}),
            (["convert", mcap, "-o", rec, "--format", "rosbag2", "--overwrite"], {0}),
            (["convert", bag, "-o", fifo, "--overwrite"], {4}),
            (["convert", bag, "-o", os.path.join(work, "s.bag"), "--overwrite"], {4}),
            (["export", bag, "--format", "csv", "--out", work, "--overwrite", "--name", "topic.{ext}",
              "--topic", "/imu"], {3, 4})]
    for args, codes in runs:
        code, err, rss = run(cli, args, work, dict(os.environ, LC_ALL="C.UTF-8"))
        if code not in codes:
            problems.append(f"bagscope-cli {' '.join(args)}: exit {code}, expected {codes}: {err[:300]}")
        if rss > BOMB_MAX_RSS_MB:
            problems.append(f"bagscope-cli {' '.join(args)}: peak memory {rss:.0f} MB")
    if sorted(os.listdir(cfg)) != ["data.csv", "metadata.yaml"] or \
            open(os.path.join(cfg, "data.csv"), "rb").read() != b"precious\n":
        problems.append(f"the folder that is not a recording was changed: {sorted(os.listdir(cfg))}")
    if open(os.path.join(rec, "notes.txt"), "rb").read() != b"notes\n":
        problems.append("a file beside the replaced recording was lost")
    for f in (fifo, export_fifo):
        if not stat.S_ISFIFO(os.lstat(f).st_mode):
            problems.append(f"the FIFO {os.path.basename(f)} was replaced")
    if not stat.S_ISSOCK(os.lstat(os.path.join(work, "s.bag")).st_mode):
        problems.append("the socket was replaced")
    sock.close()
    shutil.rmtree(work)
    return problems


# ---- running one command and checking what it did ----------------------------------------

def tree_state(root):
    """{relative path: sha256} of every file under root."""
    state = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                state[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return state


def run(cli, args, cwd, env):
    """(exit code or -signal, stderr, peak RSS in MB); (None, …) when killed after TIMEOUT_S."""
    proc = subprocess.Popen([cli] + args, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    err = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()))
    reader.start()
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        # wait4, not Popen.wait: it gives this child's own peak memory.
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            os.wait4(proc.pid, 0)
            reader.join()
            return None, "", 0
        time.sleep(0.01)
    proc.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    return proc.returncode, b"".join(err).decode("utf-8", "replace"), usage.ru_maxrss / 1024


def check_case(cli, case_dir, target, kind, rng, max_rss_mb=MAX_RSS_MB):
    problems = []
    name = os.path.basename(target)
    work = os.path.join(case_dir, "work")
    tmp = os.path.join(case_dir, "tmp")
    os.makedirs(work)
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=tmp, LC_ALL="C.UTF-8")
    before = tree_state(os.path.join(case_dir, "in"))
    out = os.path.join(case_dir, "out")
    fmt = rng.choice(["csv", "pcd", "png", "npy", "bin"])
    os.makedirs(out)
    recovered = os.path.join(out, "recovered" + {"bag": ".bag", "mcap": ".mcap"}.get(kind, ""))
    commands = [["info", target], ["cat", target], ["stats", target],
                ["export", target, "--format", fmt, "--out", out, "--quiet"],
                ["recover", target, "-o", recovered, "--quiet"],
                ["filter", target, "-o", os.path.join(out, "filtered.mcap"), "--start", "+0.5", "--quiet"]]
    for args in commands:
        code, err, rss = run(cli, args, work, env)
        what = " ".join(["bagscope-cli"] + [os.path.relpath(a, case_dir) if a.startswith(case_dir) else a for a in args])
        if code is None:
            problems.append(f"{what}: did not finish in {TIMEOUT_S} s")
            continue
        if code < 0:
            problems.append(f"{what}: killed by signal {-code}")
        elif code not in EXIT_CODES:
            problems.append(f"{what}: exit code {code}")
        if rss > max_rss_mb:
            problems.append(f"{what}: peak memory {rss:.0f} MB > {max_rss_mb} MB")
        for line in err.splitlines():
            if not line.startswith("bagscope-cli: "):
                continue  # details under a line that names the file
            if name not in line and out not in line:
                problems.append(f"{what}: stderr line does not name the input: {line[:300]}")
    if tree_state(os.path.join(case_dir, "in")) != before:
        problems.append("something was created or changed beside the input")
    for folder in (work, tmp):
        left = os.listdir(folder)
        if left:
            problems.append(f"{os.path.basename(folder)}/ is not empty afterwards: {left[:5]}")
    if os.path.isdir(out):
        real_out = os.path.realpath(out)
        for folder, _, files in os.walk(out, followlinks=False):
            for f in files:
                if not os.path.realpath(os.path.join(folder, f)).startswith(real_out + os.sep):
                    problems.append(f"export wrote outside --out: {os.path.join(folder, f)}")
    extra = set(os.listdir(case_dir)) - {"in", "work", "tmp", "out"}
    if extra:
        problems.append(f"files created outside --out: {sorted(extra)}")
    return problems


def one_case(cli, data, root, seed, k, keep):
    """Case k of the run with this seed: its own generator, so it can be rerun alone."""
    rng = random.Random(f"{seed}/{k}")
    case_dir = os.path.join(root, f"case{k:04d}")
    os.makedirs(case_dir)
    target, what = make_case(rng, data, case_dir)
    kind = "rosbag2" if os.path.isdir(target) else os.path.splitext(target)[1].lstrip(".")
    problems = check_case(cli, case_dir, target, kind, rng)
    if not problems or not keep:
        shutil.rmtree(case_dir)
    return k, what, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--data", required=True, help="tests/data")
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", type=int, help="run case K alone")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", action="store_true", help="leave failing cases' folders in place")
    args = parser.parse_args()
    cli = os.path.abspath(args.cli)
    root = tempfile.mkdtemp(prefix="bagscope-mutation-")
    cases = [args.only] if args.only is not None else range(args.cases)
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda k: one_case(cli, args.data, root, args.seed, k, args.keep), cases))
    if args.only is None:
        for name, make in BOMBS.items():
            results.append(("bomb",) + bomb_case(cli, root, name, make))
        results.append(("overwrite", "--overwrite onto what is not ours", overwrite_cases(cli, root, args.data)))
        results.append(("listing", "storage files listed many times, or many", listing_cases(cli, root, args.data)))
    failures = 0
    for k, what, problems in results:
        if problems:
            failures += 1
            print(f"case {k} ({what}):", file=sys.stderr)
            for p in problems:
                print(f"  {p}", file=sys.stderr)
    kept = f"; failing cases kept in {root}" if failures and args.keep else ""
    if not kept:
        shutil.rmtree(root, ignore_errors=True)
    print(f"mutate_cli: {len(results)} cases (seed {args.seed}), {len(results) * 4} runs in "
          f"{time.monotonic() - started:.0f} s: {failures} failed{kept}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
