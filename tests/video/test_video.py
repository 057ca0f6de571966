#!/usr/bin/python3
"""Compressed video topics (issue #40), on streams Debian's ffmpeg encodes here from its
testsrc2 pattern (H.264 by libx264, H.265 by libx265, AV1 by libaom; no B-frames, a keyframe
every 10 frames), one access unit per message: ffmpeg_image_transport's FFMPEGPacket in a rosbag2
written by rosbags (MCAP storage, the definition in the file), foxglove.CompressedVideo in
protobuf and in JSON in MCAPs written by @mcap/core (make_compressed_video.mjs), and
sensor_msgs/CompressedImage of format h264 in a ROS 1 bag written by python3-rosbag. Bagscope's frames must equal ffmpeg's
own decode of the same stream, pixel for pixel; a stream that starts without a keyframe, a cut
packet and a packet of garbage are said, never shown as good frames."""

import base64
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import cv2
import genpy
import numpy as np
import rosbag
from sensor_msgs.msg import CompressedImage

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'common'))
from script_args import parse_script_args  # noqa: E402  (tests/common)

ARGS = None
W, H, FRAMES, GOP = 320, 240, 30, 10
START = 1_700_000_000 * 10**9
FFMPEG_PACKET = """std_msgs/Header header
int32 width
int32 height
string encoding
uint64 pts
uint8 flags
bool is_bigendian
uint8[] data
"""


RAW = {'h264': 'h264', 'hevc': 'hevc', 'av1': 'obu'}  # each codec's raw stream: Annex B, low-overhead OBUs


def encode(path, codec, size=(W, H), frames=FRAMES):
    """`frames` frames of testsrc2 as a raw Annex B stream; its packets (bytes, keyframe)."""
    params = {'h264': ['-c:v', 'libx264', '-bf', '0', '-g', str(GOP)],
              'hevc': ['-c:v', 'libx265', '-x265-params',
                       f'bframes=0:keyint={GOP}:min-keyint={GOP}:scenecut=0:log-level=error'],
              'av1': ['-c:v', 'libaom-av1', '-cpu-used', '8', '-usage', 'realtime', '-g', str(GOP), '-keyint_min',
                      str(GOP)]}[codec]
    subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
                    f'testsrc2=size={size[0]}x{size[1]}:rate=10', '-frames:v', str(frames), *params, '-pix_fmt',
                    'yuv420p', '-f', RAW[codec], path], check=True)
    return encode_packets(path)


def encode_packets(path):
    """A raw stream's packets (bytes, keyframe), as ffprobe splits them."""
    probe = subprocess.run(['ffprobe', '-v', 'error', '-show_packets', '-show_entries', 'packet=size,pos,flags',
                            '-of', 'csv=p=0', path], check=True, capture_output=True, text=True).stdout
    with open(path, 'rb') as f:
        data = f.read()
    packets = []
    for line in probe.split():
        size, pos, flags = line.split(',')
        packets.append((data[int(pos):int(pos) + int(size)], flags.startswith('K')))
    return packets


def encode_with_b_frames(path, frames=FRAMES):
    """H.264 with B-frames (2 between references), as a raw Annex B stream: its packets in
    decoding order (bytes, keyframe) and, for each, the index of its picture in display order
    (from the MP4 ffmpeg writes first, whose packets carry their presentation times)."""
    mp4 = path + '.mp4'
    subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i',
                    f'testsrc2=size={W}x{H}:rate=10', '-frames:v', str(frames), '-c:v', 'libx264', '-bf', '2', '-g',
                    str(GOP), '-pix_fmt', 'yuv420p', mp4], check=True)
    subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-y', '-i', mp4, '-c:v', 'copy', '-bsf:v',
                    'h264_mp4toannexb', '-f', 'h264', path], check=True)
    pts = [int(line.split(',')[0]) for line in subprocess.run(
        ['ffprobe', '-v', 'error', '-show_packets', '-show_entries', 'packet=pts,duration', '-of', 'csv=p=0', mp4],
        check=True, capture_output=True, text=True).stdout.split()]
    step = sorted(pts)[1] - sorted(pts)[0]
    order = [(p - min(pts)) // step for p in pts]
    packets = encode_packets(path)
    assert len(packets) == len(order) and sorted(order) == list(range(len(order))), (len(packets), order)
    return packets, order


def ffmpeg_frames(path, codec, size=(W, H)):
    """ffmpeg's own decode of a stream, as BGR frames (its default conversion)."""
    raw = subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-f', RAW[codec], '-i', path, '-f', 'rawvideo',
                          '-pix_fmt', 'bgr24', '-'], check=True, capture_output=True).stdout
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, size[1], size[0], 3)


def write_rosbag2(folder, packets, encoding, stamp_step_ns=100_000_000):
    """The packets as FFMPEGPackets at 10 Hz log times, their header stamps `stamp_step_ns` apart."""
    sys.path.insert(0, ARGS.rosbags)
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore
    store = get_typestore(Stores.ROS2_HUMBLE)
    store.register(get_types_from_msg(FFMPEG_PACKET, 'ffmpeg_image_transport_msgs/msg/FFMPEGPacket'))
    Packet = store.types['ffmpeg_image_transport_msgs/msg/FFMPEGPacket']
    Header = store.types['std_msgs/msg/Header']
    Time = store.types['builtin_interfaces/msg/Time']
    with Writer(folder, version=8, storage_plugin=StoragePlugin.MCAP) as w:
        conn = w.add_connection('/camera/ffmpeg', 'ffmpeg_image_transport_msgs/msg/FFMPEGPacket', typestore=store)
        for i, (data, key) in enumerate(packets):
            t, stamp = START + i * 100_000_000, START + i * stamp_step_ns
            msg = Packet(header=Header(stamp=Time(sec=stamp // 10**9, nanosec=stamp % 10**9), frame_id='camera'),
                         width=W, height=H, encoding=encoding, pts=i, flags=1 if key else 0, is_bigendian=False,
                         data=np.frombuffer(data, dtype=np.uint8))
            w.write(conn, t, store.serialize_cdr(msg, 'ffmpeg_image_transport_msgs/msg/FFMPEGPacket'))


COMPRESSED_VIDEO = """syntax = "proto3";
import "google/protobuf/timestamp.proto";
package foxglove;
message CompressedVideo {
  google.protobuf.Timestamp timestamp = 1;
  string frame_id = 2;
  bytes data = 3;
  string format = 4;
}
"""


def write_mcap(path, packets, fmt, workdir, encoding='protobuf'):
    """foxglove.CompressedVideo (Foxglove's field numbers) in protobuf, written by @mcap/core
    (make_compressed_video.mjs); the schema is protoc's FileDescriptorSet."""
    proto = os.path.join(workdir, 'CompressedVideo.proto')
    with open(proto, 'w') as f:
        f.write(COMPRESSED_VIDEO)
    fds = proto + '.fds'
    subprocess.run(['protoc', '--include_imports', f'--descriptor_set_out={fds}', f'-I{workdir}', '-I/usr/include',
                    proto], check=True)
    packets_json = os.path.join(workdir, 'packets.json')
    with open(packets_json, 'w') as f:
        json.dump({'topic': '/camera/video', 'format': fmt, 'frame_id': 'camera',
                   'packets': [{'log_time_ns': str(START + i * 100_000_000), 'data': base64.b64encode(d).decode()}
                               for i, (d, _) in enumerate(packets)]}, f)
    subprocess.run(['node', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'make_compressed_video.mjs'),
                    ARGS.npm_cache, path, proto, fds, packets_json, encoding], check=True)


def write_ros1(path, packets, fmt='h264'):
    with rosbag.Bag(path, 'w') as bag:
        for i, (data, _) in enumerate(packets):
            t = START + i * 100_000_000
            msg = CompressedImage(format=fmt, data=data)
            msg.header.stamp = genpy.Time(t // 10**9, t % 10**9)
            bag.write('/camera/h264', msg, genpy.Time(t // 10**9, t % 10**9))


def nal_units(annexb):
    """An Annex B packet's NAL units, without the zero bytes a byte stream may put between them."""
    return [u.rstrip(b'\x00') for u in re.split(b'\x00\x00\x01', annexb) if u.rstrip(b'\x00')]


def mp4_units(packet):
    """An MP4 packet's NAL units (each after its 4-byte big-endian length), the same way."""
    out, at = [], 0
    while at + 4 <= len(packet):
        size = int.from_bytes(packet[at:at + 4], 'big')
        out.append(packet[at + 4:at + 4 + size].rstrip(b'\x00'))
        at += 4 + size
    return out


def mp4_packets(path):
    """The video packets of an MP4, as ffprobe dumps them."""
    dump = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_packets', '-show_data', '-of',
                           'json', path], check=True, capture_output=True, text=True).stdout
    out = []
    for packet in json.loads(dump)['packets']:
        hexdump = ''.join(re.sub(r'\s', '', line[10:50]) for line in packet['data'].strip().split('\n'))
        out.append(bytes.fromhex(hexdump))
    return out


def cli(*args, check=True):
    p = subprocess.run([ARGS.cli, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f'bagscope-cli {" ".join(args)} -> {p.returncode}\n{p.stderr}')
    return p


def exported(folder):
    """The PNG frames written, by index, as BGR (OpenCV reads them)."""
    out = {}
    for f in glob.glob(os.path.join(folder, '*.png')):
        out[int(os.path.basename(f).rsplit('_', 1)[1].split('.')[0])] = cv2.imread(f, cv2.IMREAD_UNCHANGED)
    return out


class VideoTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.streams = {}
        for codec in ('h264', 'hevc', 'av1'):
            path = os.path.join(cls.tmp.name, f'stream.{codec}')
            cls.streams[codec] = (path, encode(path, codec))

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def check_frames(self, got, reference, indexes):
        self.assertEqual(sorted(got), list(indexes))
        for i in indexes:
            self.assertEqual(got[i].shape, (H, W, 3), f'frame {i}')
            differ = int(np.count_nonzero(got[i] != reference[i]))
            self.assertEqual(differ, 0, f'frame {i}: {differ} samples differ from ffmpeg\'s decode')

    def test_ffmpeg_packets_in_a_rosbag2_decode_as_ffmpeg_decodes_them(self):
        for codec, encoding in (('h264', 'libx264'), ('hevc', 'libx265'), ('av1', 'libaom-av1')):
            with self.subTest(codec=codec):
                path, packets = self.streams[codec]
                self.assertEqual(len(packets), FRAMES)
                self.assertEqual([k for _, k in packets].count(True), FRAMES // GOP)
                folder = self.out(f'ffmpeg_{codec}')
                write_rosbag2(folder, packets, encoding)
                out = self.out(f'png_{codec}')
                cli('export', folder, '--format', 'png', '--topic', '/camera/ffmpeg', '--out', out)
                self.check_frames(exported(out), ffmpeg_frames(path, codec), range(FRAMES))

    def b_frame_recording(self, name):
        """An H.264 stream with B-frames (its path and each packet's place in display order),
        written into a rosbag2 as FFMPEGPackets (its folder)."""
        path = os.path.join(self.tmp.name, name + '.h264')
        packets, order = encode_with_b_frames(path)
        self.assertNotEqual(order[:3], [0, 1, 2])  # they are reordered
        folder = self.out(name)
        write_rosbag2(folder, packets, 'libx264')
        return path, order, folder

    def test_b_frames_are_exported_as_their_own_messages_pictures(self):
        # B-frames come out of the decoder late and reordered: message i's file is its own
        # picture (ffmpeg's frame order[i] in display order), every third message as asked
        # (numbered 0, 1, 2… in the files' names).
        path, order, folder = self.b_frame_recording('bframes')
        out = self.out('png_bframes')
        cli('export', folder, '--format', 'png', '--topic', '/camera/ffmpeg', '--every', '3', '--out', out)
        self.check_frames(exported(out), ffmpeg_frames(path, 'h264')[order][::3], range(FRAMES // 3))

    def test_foxglove_compressed_video_in_an_mcap_decodes_as_ffmpeg_decodes_it(self):
        for codec, fmt, encoding in (('h264', 'h264', 'protobuf'), ('hevc', 'h265', 'protobuf'),
                                     ('h264', 'h264', 'json')):
            with self.subTest(codec=codec, encoding=encoding):
                path, packets = self.streams[codec]
                mcap = self.out(f'foxglove_{codec}_{encoding}.mcap')
                write_mcap(mcap, packets, fmt, self.tmp.name, encoding)
                out = self.out(f'png_foxglove_{codec}_{encoding}')
                cli('export', mcap, '--format', 'png', '--topic', '/camera/video', '--out', out)
                self.check_frames(exported(out), ffmpeg_frames(path, codec), range(FRAMES))

    def test_compressed_image_of_format_h264_in_a_ros1_bag(self):
        path, packets = self.streams['h264']
        bag = self.out('h264.bag')
        write_ros1(bag, packets)
        out = self.out('png_ros1')
        # A range and every 3rd message: decoded from the stream's start, only those written.
        start = (START + 5 * 100_000_000) / 1e9
        cli('export', bag, '--format', 'png', '--topic', '/camera/h264', '--out', out, '--start', f'{start:.9f}',
            '--every', '3')
        got = exported(out)
        reference = ffmpeg_frames(path, 'h264')
        self.assertEqual(sorted(got), list(range(9)))  # messages 5, 8, …, 29
        for k, frame in got.items():
            self.assertEqual(int(np.count_nonzero(frame != reference[5 + 3 * k])), 0, f'frame {k}')
        # JPEG too (its own encoding: close, not equal).
        jpg = self.out('jpg_ros1')
        cli('export', bag, '--format', 'jpeg', '--topic', '/camera/h264', '--out', jpg)
        first = cv2.imread(sorted(glob.glob(os.path.join(jpg, '*.jpg')))[0])
        psnr = [cv2.PSNR(first, r) for r in reference]
        self.assertEqual(int(np.argmax(psnr)), 0)  # the first frame, JPEG's losses aside
        self.assertGreater(psnr[0], 25)

    def test_damaged_streams_are_said_and_never_shown_as_good(self):
        path, packets = self.streams['h264']
        reference = ffmpeg_frames(path, 'h264')
        # Starting mid-GOP: the 7 packets before the first keyframe cannot be decoded.
        bag = self.out('late.bag')
        write_ros1(bag, packets[3:])
        out = self.out('png_late')
        p = cli('export', bag, '--format', 'png', '--topic', '/camera/h264', '--out', out, check=False)
        self.assertEqual(p.returncode, 3, p.stderr)  # written in part (README, exit codes)
        self.assertIn('no keyframe before it', p.stderr)
        got = exported(out)
        self.assertEqual(sorted(got), list(range(7, FRAMES - 3)))
        for i in got:
            self.assertEqual(int(np.count_nonzero(got[i] != reference[i + 3])), 0, f'frame {i}')
        # A packet of garbage and a packet cut short: no crash, no hang; the stream goes on
        # from the next keyframe, and what could not be decoded is said.
        damaged = list(packets)
        damaged[12] = (os.urandom(len(packets[12][0])), False)
        damaged[15] = (packets[15][0][:len(packets[15][0]) // 3], False)
        bag = self.out('damaged.bag')
        write_ros1(bag, damaged)
        out = self.out('png_damaged')
        p = cli('export', bag, '--format', 'png', '--topic', '/camera/h264', '--out', out, check=False)
        self.assertIn(p.returncode, (0, 3), p.stderr)
        got = exported(out)
        self.check_frames(got, reference, [i for i in range(FRAMES) if i < 12 or i >= 20 and i in got])
        self.assertTrue(set(range(20, FRAMES)) <= set(got), sorted(got))
        # The size changing mid-stream (a new keyframe with new parameter sets): each frame as it is.
        small_path = self.out('small.h264')
        small = encode(small_path, 'h264', size=(160, 120), frames=10)
        bag = self.out('switch.bag')
        write_ros1(bag, packets + small)
        out = self.out('png_switch')
        cli('export', bag, '--format', 'png', '--topic', '/camera/h264', '--out', out)
        got = exported(out)
        self.check_frames({i: got[i] for i in range(FRAMES)}, reference, range(FRAMES))
        small_reference = ffmpeg_frames(small_path, 'h264', size=(160, 120))
        for k in range(10):
            self.assertTrue(np.array_equal(got[FRAMES + k], small_reference[k]), f'small frame {k}')
        # Frames wider than the documented limit (8192) are refused, named, and nothing is written.
        wide_path = self.out('wide.h264')
        wide = encode(wide_path, 'h264', size=(8208, 16), frames=2)
        bag = self.out('wide.bag')
        write_ros1(bag, wide)
        p = cli('export', bag, '--format', 'png', '--topic', '/camera/h264', '--out', self.out('png_wide'), check=False)
        self.assertEqual(p.returncode, 3, p.stderr)
        self.assertIn('8208 x 16', p.stderr)
        self.assertFalse(glob.glob(os.path.join(self.out('png_wide'), '*.png')))
        # A format that names no codec Bagscope decodes: said, nothing written.
        bag = self.out('vp9.bag')
        write_ros1(bag, packets[:2], fmt='vp9')
        p = cli('export', bag, '--format', 'png', '--topic', '/camera/h264', '--out', self.out('png_vp9'), check=False)
        self.assertNotEqual(p.returncode, 0)
        self.assertFalse(glob.glob(os.path.join(self.out('png_vp9'), '*.png')))

    def test_video_topics_are_remuxed_into_mp4_without_re_encoding(self):
        for codec, encoding in (('h264', 'libx264'), ('hevc', 'libx265')):
            with self.subTest(codec=codec):
                path, packets = self.streams[codec]
                folder = self.out(f'remux_{codec}')
                write_rosbag2(folder, packets, encoding)
                out = self.out(f'mp4_{codec}')
                cli('export', folder, '--format', 'mp4', '--topic', '/camera/ffmpeg', '--out', out)
                mp4 = glob.glob(os.path.join(out, '*.mp4'))[0]
                probe = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-count_frames',
                                        '-show_entries', 'stream=codec_name,width,height,nb_read_frames:format=duration',
                                        '-of', 'default=nw=1', mp4], check=True, capture_output=True, text=True).stdout
                fields = dict(line.split('=', 1) for line in probe.split())
                self.assertEqual(fields['codec_name'], codec)
                self.assertEqual((fields['width'], fields['height']), (str(W), str(H)))
                self.assertEqual(fields['nb_read_frames'], str(FRAMES))
                self.assertAlmostEqual(float(fields['duration']), FRAMES * 0.1, places=3)  # 10 Hz log times
                # Each MP4 packet holds the message's NAL units, byte for byte (length-prefixed, as MP4 holds them).
                self.assertEqual([mp4_units(p) for p in mp4_packets(mp4)], [nal_units(data) for data, _ in packets])
                # And decodes to the same pictures as the stream itself.
                decoded = subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-i', mp4, '-f', 'rawvideo',
                                          '-pix_fmt', 'bgr24', '-'], check=True, capture_output=True).stdout
                self.assertEqual(decoded, ffmpeg_frames(path, codec).tobytes())

    def test_b_frames_are_remuxed_in_showing_order(self):
        # Packets come in decoding order; the MP4 shows each picture in its place (as the raw
        # stream decodes), its packets still byte for byte the messages'.
        path, order, folder = self.b_frame_recording('remux_bframes')
        packets = encode_packets(path)
        out = self.out('mp4_bframes')
        cli('export', folder, '--format', 'mp4', '--topic', '/camera/ffmpeg', '--out', out)
        mp4 = glob.glob(os.path.join(out, '*.mp4'))[0]
        self.assertEqual([mp4_units(p) for p in mp4_packets(mp4)], [nal_units(data) for data, _ in packets])
        decoded = subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-i', mp4, '-f', 'rawvideo',
                                  '-pix_fmt', 'bgr24', '-'], check=True, capture_output=True).stdout
        self.assertEqual(decoded, ffmpeg_frames(path, 'h264').tobytes())
        shown = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time',
                                '-of', 'csv=p=0', mp4], check=True, capture_output=True, text=True).stdout.split()
        # Message i's picture is shown order[i]-th, at the order[i]-th message's time (10 Hz).
        self.assertEqual([round(float(t) * 10) for t in shown], order)

    def test_remuxed_packets_take_their_header_stamps_when_asked(self):
        # Log times 0.1 s apart, header stamps 0.25 s apart: --video-time stamp times the MP4's
        # packets by the stamps (ffprobe's pts_time), log times by default.
        path, packets = self.streams['h264']
        folder = self.out('remux_stamps')
        write_rosbag2(folder, packets, 'libx264', stamp_step_ns=250_000_000)
        for option, step in ((['--video-time', 'stamp'], 0.25), ([], 0.1)):
            with self.subTest(option=option):
                out = self.out(f'mp4_stamps{len(option)}')
                cli('export', folder, '--format', 'mp4', '--topic', '/camera/ffmpeg', '--out', out, *option)
                mp4 = glob.glob(os.path.join(out, '*.mp4'))[0]
                times = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries',
                                        'packet=pts_time', '-of', 'csv=p=0', mp4], check=True, capture_output=True,
                                       text=True).stdout.split()
                self.assertEqual(len(times), FRAMES)
                for i, t in enumerate(times):
                    self.assertAlmostEqual(float(t), i * step, places=3, msg=f'packet {i}')

    def test_image_topics_become_h264_mp4s_every_player_opens(self):
        # 20 frames of testsrc2 as rgb8 Images (python3-rosbag), 10 Hz.
        from sensor_msgs.msg import Image
        raw = subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i',
                              f'testsrc2=size={W}x{H}:rate=10', '-frames:v', '20', '-f', 'rawvideo', '-pix_fmt',
                              'rgb24', '-'], check=True, capture_output=True).stdout
        source = np.frombuffer(raw, dtype=np.uint8).reshape(-1, H, W, 3)
        bag = self.out('images.bag')
        with rosbag.Bag(bag, 'w') as b:
            for i, frame in enumerate(source):
                t = genpy.Time.from_sec(START / 1e9 + i / 10)
                msg = Image(height=H, width=W, encoding='rgb8', step=W * 3, data=frame.tobytes())
                msg.header.stamp = t
                b.write('/camera/image', msg, t)
        for crf, least in (('23', 35), ('0', 40)):
            out = self.out(f'mp4_{crf}')
            cli('export', bag, '--format', 'mp4', '--topic', '/camera/image', '--out', out, '--crf', crf,
                '--preset', 'fast')
            path = glob.glob(os.path.join(out, '*.mp4'))[0]
            probe = subprocess.run(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-count_frames',
                                    '-show_entries', 'stream=codec_name,pix_fmt,width,height,nb_read_frames,r_frame_rate',
                                    '-of', 'default=nw=1', path], check=True, capture_output=True, text=True).stdout
            fields = dict(line.split('=', 1) for line in probe.split())
            self.assertEqual((fields['codec_name'], fields['pix_fmt']), ('h264', 'yuv420p'), probe)
            self.assertEqual((fields['width'], fields['height'], fields['nb_read_frames']), (str(W), str(H), '20'))
            self.assertEqual(fields['r_frame_rate'], '10/1')
            decoded = subprocess.run(['ffmpeg', '-hide_banner', '-loglevel', 'error', '-i', path, '-f', 'rawvideo',
                                      '-pix_fmt', 'rgb24', '-'], check=True, capture_output=True).stdout
            frames = np.frombuffer(decoded, dtype=np.uint8).reshape(-1, H, W, 3)
            worst = min(cv2.PSNR(a, b) for a, b in zip(frames, source))
            self.assertGreaterEqual(worst, least, f'crf {crf}: {worst:.1f} dB')
        # mp4v stays available; a preset that is none of libx264's is refused.
        out = self.out('mp4v')
        cli('export', bag, '--format', 'mp4', '--topic', '/camera/image', '--out', out, '--codec', 'mp4v')
        probe = subprocess.run(['ffprobe', '-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0',
                                glob.glob(os.path.join(out, '*.mp4'))[0]], capture_output=True, text=True).stdout
        self.assertEqual(probe.strip(), 'mpeg4')
        p = cli('export', bag, '--format', 'mp4', '--topic', '/camera/image', '--out', self.out('bad'), '--preset',
                'warp', check=False)
        self.assertEqual(p.returncode, 2, p.stderr)


if __name__ == '__main__':
    ARGS, rest = parse_script_args('test_video.py')
    unittest.main(argv=[sys.argv[0], *rest])
