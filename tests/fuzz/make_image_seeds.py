#!/usr/bin/python3
"""Seeds of fuzz_image: small JPEG and PNG images of every kind the decoders tell apart,
written by OpenCV (python3-opencv).

    /usr/bin/python3 tests/fuzz/make_image_seeds.py tests/fuzz/seeds/image
"""
import os
import sys

import cv2
import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(38)
grey, colour = rng.integers(0, 256, (6, 9), np.uint8), rng.integers(0, 256, (6, 9, 3), np.uint8)
seeds = {
    'colour.jpg': ('.jpg', colour, []), 'grey.jpg': ('.jpg', grey, []),
    'progressive.jpg': ('.jpg', colour, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]),
    'grey.png': ('.png', grey, []), 'colour.png': ('.png', colour, []),
    'alpha.png': ('.png', rng.integers(0, 256, (6, 9, 4), np.uint8), []),
    'grey16.png': ('.png', rng.integers(0, 65536, (6, 9), np.uint16), []),
    'colour16.png': ('.png', rng.integers(0, 65536, (6, 9, 3), np.uint16), []),
    'bilevel.png': ('.png', grey, [cv2.IMWRITE_PNG_BILEVEL, 1]),
}
for name, (ext, pixels, params) in seeds.items():
    ok, data = cv2.imencode(ext, pixels, params)
    assert ok, name
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data.tobytes())
