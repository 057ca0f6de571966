"""The arguments CTest gives the script tests that run bagscope-cli against independent
readers (tests/CMakeLists.txt): the program, the test data, the rosbags library and the
npm packages (tests/npm)."""
import argparse
import sys
from pathlib import Path


def parse_script_args(script):
    """(arguments, the rest for unittest); exits naming `script` when rosbags is missing."""
    parser = argparse.ArgumentParser(prog=script)
    parser.add_argument('--cli', required=True)
    parser.add_argument('--data', required=True)
    parser.add_argument('--rosbags', required=True, help='the rosbags library source (…/peers/rosbags/src)')
    parser.add_argument('--npm-cache', required=True, help='where tests/npm/install.sh put the JavaScript packages')
    args, rest = parser.parse_known_args()
    if not Path(args.rosbags, 'rosbags').is_dir():
        sys.exit(f'{script}: no rosbags library at {args.rosbags} (../shared/peers/rosbags/src)')
    return args, rest
