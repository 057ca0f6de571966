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
running the same command again; --keep leaves the failing case's folder in place.
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


def check_case(cli, case_dir, target, kind, rng):
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
        if rss > MAX_RSS_MB:
            problems.append(f"{what}: peak memory {rss:.0f} MB > {MAX_RSS_MB} MB")
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
