"""`rec.images()` on compressed video topics (#40): frames of an H.264 stream ffmpeg encodes
and rosbags writes as ffmpeg_image_transport packets (tests/video/test_video.py makes both),
equal to ffmpeg's own decode; a stream that starts without a keyframe warns about the packets
it cannot decode and yields the rest.

Environment (tests/CMakeLists.txt): BAGSCOPE_ROSBAGS (the rosbags library's source)."""

import os
import pathlib
import sys
import warnings

import numpy as np

import bagscope

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / 'video'))
import test_video as video  # noqa: E402  (tests/video: the streams and recordings)

video.ARGS = type('Args', (), {'rosbags': os.environ.get('BAGSCOPE_ROSBAGS',
                                                         str(HERE.parents[2] / 'shared/peers/rosbags/src'))})


def test_video_frames_equal_ffmpegs_decode(tmp_path):
    packets = video.encode(str(tmp_path / 's.h264'), 'h264')
    reference = video.ffmpeg_frames(str(tmp_path / 's.h264'), 'h264')
    video.write_rosbag2(str(tmp_path / 'video'), packets, 'libx264')
    with bagscope.open(str(tmp_path / 'video')) as rec:
        frames = list(rec.images('/camera/ffmpeg', to='bgr'))
        assert len(frames) == len(packets)
        for i, (stamp, frame) in enumerate(frames):
            assert stamp == video.START + i * 100_000_000
            assert np.array_equal(frame, reference[i]), f'frame {i}'
        rgb = next(iter(rec.images('/camera/ffmpeg')))[1]
        assert np.array_equal(rgb, reference[0][:, :, ::-1])

    video.write_rosbag2(str(tmp_path / 'late'), packets[3:], 'libx264')
    with bagscope.open(str(tmp_path / 'late')) as rec, warnings.catch_warnings(record=True) as said:
        warnings.simplefilter('always')
        frames = list(rec.images('/camera/ffmpeg', to='bgr'))
    assert len(frames) == len(packets) - 10  # from the keyframe at 10
    assert np.array_equal(frames[0][1], reference[10])
    assert len(said) == 7 and all('no keyframe before it' in str(w.message) for w in said), [str(w.message) for w in said]


def test_b_frames_come_in_their_messages_order(tmp_path):
    # A packet's picture comes out of the decoder after later packets, and its place in display
    # order is not its message's: each message still gets its own picture, in message order.
    packets, order = video.encode_with_b_frames(str(tmp_path / 'b.h264'))
    assert order[:3] != [0, 1, 2]
    reference = video.ffmpeg_frames(str(tmp_path / 'b.h264'), 'h264')
    video.write_rosbag2(str(tmp_path / 'bframes'), packets, 'libx264')
    with bagscope.open(str(tmp_path / 'bframes')) as rec, warnings.catch_warnings():
        warnings.simplefilter('error')
        frames = list(rec.images('/camera/ffmpeg', to='bgr'))
    assert len(frames) == len(packets)
    for i, (stamp, frame) in enumerate(frames):
        assert stamp == video.START + i * 100_000_000
        assert np.array_equal(frame, reference[order[i]]), f'message {i}: display frame {order[i]}'
