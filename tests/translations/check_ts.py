#!/usr/bin/env python3
"""Checks that the app's translations are complete and current.

Runs lupdate over the sources into a scratch file to learn every tr() string as the code has
it now, then requires, in translations/bagscope_<lang>.ts, for each of them:
  - zh_CN, ja_JP: a finished translation (every plural form) that keeps the source's
    placeholders (%1 … %9, %n) and, when the source has English words, contains Chinese or
    Japanese characters (not left in English);
  - en: the plural forms of every %n string.
Exit status 1 with a list of what is missing or wrong.
"""
import argparse
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
PLACEHOLDER = re.compile(r"%(?:\d|n)")
# Words that stay as they are in every language (names, units, keys, file names).
KEEP = {"Bagscope", "MiB", "Ctrl", "Shift", "json", "layout", "JSON", "YAML", "ROS", "Unix",
        "header", "stamp", "Hz", "fps", "mcap", "bag", "rosbag2", "yaml", "metadata", "db3"}


def messages(path):
    out = {}
    for ctx in ET.parse(path).getroot().iter("context"):
        name = ctx.findtext("name")
        for m in ctx.iter("message"):
            tr = m.find("translation")
            forms = [f.text or "" for f in tr.findall("numerusform")] if m.get("numerus") == "yes" else [tr.text or ""]
            out[(name, m.findtext("source"))] = (m.get("numerus") == "yes", tr.get("type"), forms)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lupdate", required=True)
    ap.add_argument("--source", required=True, help="the repository root")
    args = ap.parse_args()
    root = Path(args.source)
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.ts"
        # -I: the widgets include each other by rooted paths (widgets/shell/…), which lupdate
        # must find to know the class a tr() belongs to.
        subprocess.run([args.lupdate, "-silent", "-locations", "none", "-I", str(root), str(root / "widgets"),
                        str(root / "app/gui"), "-ts", str(fresh)], check=True)
        wanted = messages(fresh)
    if len(wanted) < 50:
        print(f"only {len(wanted)} strings found by lupdate: is the source path right?")
        return 1
    problems = []
    for lang in ("zh_CN", "ja_JP", "en"):
        have = messages(root / "translations" / f"bagscope_{lang}.ts")
        for key, (numerus, _, _) in wanted.items():
            if lang == "en" and not numerus:
                continue
            where = f"{lang}: [{key[0]}] {key[1]!r}"
            if key not in have:
                problems.append(f"{where}: missing (run scripts/update-translations.sh, then translate)")
                continue
            _, state, forms = have[key]
            if state in ("unfinished", "vanished", "obsolete") or not forms or any(not f.strip() for f in forms):
                problems.append(f"{where}: not translated")
                continue
            need = sorted(set(PLACEHOLDER.findall(key[1])))
            for f in forms:
                if sorted(set(PLACEHOLDER.findall(f))) != need:
                    problems.append(f"{where}: placeholders {need} but {f!r}")
                words = [w for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"<[^>]*>", "", key[1])) if w not in KEEP]
                if lang != "en" and words and not CJK.search(f):
                    problems.append(f"{where}: left in English: {f!r}")
    for p in problems:
        print(p)
    print(f"{len(wanted)} strings, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
