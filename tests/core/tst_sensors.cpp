// core/sensors and the cloud writers: the image encodings, cloud layouts and transforms that
// the fixtures do not cover, on hand-built messages with hand-computed values.
// (The fixtures' own clouds and images are checked end to end by tests/export.)

#include <QtTest>

#include <cmath>
#include <limits>
#include <numbers>

#include <opencv2/imgcodecs.hpp>

#include "common/test_support.hpp"
#include "common/wire_writer.hpp"
#include "core/export/export.hpp"
#include "core/sensors/sensors.hpp"
#include "core/session/session.hpp"

using namespace bagscope;
using bagscope::test::WireWriter;

namespace {

const char* kHeader =
    "================================================================================\n"
    "MSG: std_msgs/Header\nuint32 seq\ntime stamp\nstring frame_id\n";

// Decodes ROS 1 bytes of `type` defined by `definition` (+ Header) and keeps them alive.
// Our pixels seen through OpenCV, the reference they are compared with (no copy).
cv::Mat asMat(const sensors::Image& image) {
  static const int depths[] = {CV_8U, CV_8S, CV_16U, CV_16S, CV_32S, CV_32F, CV_64F};
  return cv::Mat(image.height, image.width, CV_MAKETYPE(depths[static_cast<int>(image.depth)], image.channels),
                 const_cast<std::byte*>(image.data), image.step);
}

struct Decoded {
  std::vector<std::byte> bytes;
  std::shared_ptr<const decode::Decoder> decoder;  // owns the types the value points at
  decode::Value value;
};

Decoded decodeRos1(const std::string& type, const std::string& definition, WireWriter w) {
  Decoded d{std::move(w.bytes), {}, {}};
  auto decoder = decode::compileFor(type, "ros1", "ros1msg", definition + kHeader);
  if (!decoder) qFatal("compile %s: %s", type.c_str(), decoder.error().describe().c_str());
  d.decoder = *decoder;
  auto v = d.decoder->decode(d.bytes);
  if (!v) qFatal("decode %s: %s", type.c_str(), v.error().describe().c_str());
  d.value = std::move(v).value();
  return d;
}

WireWriter header(std::uint32_t sec = 7, const char* frame = "cam") {
  WireWriter w;
  w.u32(0).u32(sec).u32(0).str(frame);
  return w;
}

Decoded image(const std::string& encoding, std::uint32_t w, std::uint32_t h, std::uint32_t step,
              const std::vector<std::uint8_t>& data, bool bigEndian = false) {
  WireWriter m = header();
  m.u32(h).u32(w).str(encoding).u8(bigEndian ? 1 : 0).u32(step).u32(static_cast<std::uint32_t>(data.size()));
  m.raw(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
  return decodeRos1(
      "sensor_msgs/Image",
      "Header header\nuint32 height\nuint32 width\nstring encoding\nuint8 is_bigendian\nuint32 step\nuint8[] data\n",
      std::move(m));
}

// A sensor_msgs/CompressedImage of `format` holding `data`.
Decoded compressedImage(const std::string& format, const std::vector<std::uint8_t>& data) {
  WireWriter m = header();
  m.str(format)
      .u32(static_cast<std::uint32_t>(data.size()))
      .raw(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
  return decodeRos1("sensor_msgs/CompressedImage", "Header header\nstring format\nuint8[] data\n", std::move(m));
}

struct FieldSpec {
  const char* name;
  std::uint32_t offset;
  std::uint8_t datatype;
  std::uint32_t count;
};

Decoded cloud(std::uint32_t h, std::uint32_t w, std::uint32_t pointStep, std::uint32_t rowStep,
              const std::vector<FieldSpec>& fields, const std::vector<std::uint8_t>& data, bool bigEndian = false) {
  WireWriter m = header(3, "lidar");
  m.u32(h).u32(w).u32(static_cast<std::uint32_t>(fields.size()));
  for (const auto& f : fields) m.str(f.name).u32(f.offset).u8(f.datatype).u32(f.count);
  m.u8(bigEndian ? 1 : 0).u32(pointStep).u32(rowStep).u32(static_cast<std::uint32_t>(data.size()));
  m.raw(std::string_view(reinterpret_cast<const char*>(data.data()), data.size()));
  m.u8(1);
  return decodeRos1("sensor_msgs/PointCloud2",
                    "Header header\nuint32 height\nuint32 width\nPointField[] fields\nbool is_bigendian\n"
                    "uint32 point_step\nuint32 row_step\nuint8[] data\nbool is_dense\n"
                    "================================================================================\n"
                    "MSG: sensor_msgs/PointField\nstring name\nuint32 offset\nuint8 datatype\nuint32 count\n",
                    std::move(m));
}

template <typename T>
void put(std::vector<std::uint8_t>& out, T v, bool bigEndian = false) {
  auto* b = reinterpret_cast<const std::uint8_t*>(&v);
  std::vector<std::uint8_t> bytes(b, b + sizeof v);
  if (bigEndian) std::reverse(bytes.begin(), bytes.end());
  out.insert(out.end(), bytes.begin(), bytes.end());
}

}  // namespace

class TestSensors : public QObject {
  Q_OBJECT

private slots:
  // Keyframes as the codecs define them (H.264 7.4.1.2.2 nal_unit_type 5; H.265 IRAP types
  // 16-21 in bits 1-6 of the first byte; AV1 OBU type 1, a sequence header), worked out here.
  void videoKeyframesAreFoundInTheirPackets() {
    using bagscope::sensors::isKeyframe;
    auto bytes = [](std::initializer_list<int> v) {
      std::vector<std::byte> out;
      for (int b : v) out.push_back(static_cast<std::byte>(b));
      return out;
    };
    // H.264: SPS (0x67), PPS (0x68) and an IDR slice (0x65) after 4- and 3-byte start codes.
    QVERIFY(isKeyframe("h264", bytes({0, 0, 0, 1, 0x67, 0x42, 0, 0, 1, 0x68, 0xCE, 0, 0, 1, 0x65, 0x88})));
    QVERIFY(!isKeyframe("h264", bytes({0, 0, 0, 1, 0x41, 0x9A, 0x02})));  // a non-IDR slice
    QVERIFY(!isKeyframe("h264", bytes({0x65, 0x88, 0x84})));              // no start code
    // H.265: an IDR_W_RADL (19 << 1 = 0x26) and a CRA (21 << 1 = 0x2A) are; TRAIL_R (0x02) is not.
    QVERIFY(isKeyframe("hevc", bytes({0, 0, 1, 0x26, 0x01, 0xAF})));
    QVERIFY(isKeyframe("hevc", bytes({0, 0, 0, 1, 0x40, 0x01, 0, 0, 1, 0x2A, 0x01})));  // after a VPS
    QVERIFY(!isKeyframe("hevc", bytes({0, 0, 1, 0x02, 0x01, 0xD0})));
    // AV1: a temporal delimiter (type 2: 0x12, size 0), then a sequence header (type 1: 0x0A).
    QVERIFY(isKeyframe("av1", bytes({0x12, 0x00, 0x0A, 0x02, 0x00, 0x00})));
    QVERIFY(!isKeyframe("av1", bytes({0x12, 0x00, 0x32, 0x01, 0x10})));  // a frame OBU (type 6)
    QVERIFY(!isKeyframe("av1", bytes({0x12, 0x00, 0x0A, 0x7F})));        // its size beyond the packet: no
    QCOMPARE(bagscope::sensors::videoCodecOf("libx264"), std::string("h264"));
    QCOMPARE(bagscope::sensors::videoCodecOf("hevc_nvenc"), std::string("hevc"));
    QCOMPARE(bagscope::sensors::videoCodecOf("h265"), std::string("hevc"));
    QCOMPARE(bagscope::sensors::videoCodecOf("jpeg"), std::string());
  }

  void colourEncodingsComeOutAsBgr() {
    // 2 x 1 pixels, rows padded to 8 bytes.
    auto rgb = sensors::readImage(image("rgb8", 2, 1, 8, {10, 20, 30, 40, 50, 60, 0xEE, 0xEE}).value);
    QVERIFY(rgb.has_value());
    QCOMPARE(rgb->header.frameId, std::string("cam"));
    QCOMPARE(rgb->header.stampNs, std::int64_t{7'000'000'000});
    QCOMPARE(asMat(rgb->image).at<cv::Vec3b>(0, 1), cv::Vec3b(60, 50, 40));
    auto bgraMessage = image("bgra8", 1, 1, 4, {1, 2, 3, 4});  // the frame views its bytes
    auto bgra = sensors::readImage(bgraMessage.value);
    QCOMPARE(asMat(bgra->image).at<cv::Vec4b>(0, 0), cv::Vec4b(1, 2, 3, 4));
    auto rgba = sensors::readImage(image("rgba8", 1, 1, 4, {1, 2, 3, 4}).value);
    QCOMPARE(asMat(rgba->image).at<cv::Vec4b>(0, 0), cv::Vec4b(3, 2, 1, 4));
    // UYVY with neutral chroma (video range, BT.601): luma 16 is black, 235 white.
    auto uyvy = sensors::readImage(image("uyvy", 2, 1, 4, {128, 16, 128, 235}).value);
    QVERIFY(uyvy.has_value());
    QCOMPARE(asMat(uyvy->image).at<cv::Vec3b>(0, 0), cv::Vec3b(0, 0, 0));
    QCOMPARE(asMat(uyvy->image).at<cv::Vec3b>(0, 1), cv::Vec3b(255, 255, 255));
    auto yuyv = sensors::readImage(image("yuyv", 2, 1, 4, {235, 128, 16, 128}).value);
    QCOMPARE(asMat(yuyv->image).at<cv::Vec3b>(0, 0), cv::Vec3b(255, 255, 255));
    QCOMPARE(asMat(yuyv->image).at<cv::Vec3b>(0, 1), cv::Vec3b(0, 0, 0));
  }

  void bayerOfAUniformColourDemosaicsToThatColour() {
    // RGGB mosaic of one colour (R 200, G 100, B 50): inner pixels come back exact.
    std::vector<std::uint8_t> px;
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) px.push_back(r % 2 == 0 ? (c % 2 == 0 ? 200 : 100) : (c % 2 == 0 ? 100 : 50));
    auto img = sensors::readImage(image("bayer_rggb8", 6, 6, 6, px).value);
    QVERIFY(img.has_value());
    QCOMPARE(asMat(img->image).type(), CV_8UC3);
    for (int r = 2; r < 4; ++r)
      for (int c = 2; c < 4; ++c) QCOMPARE(asMat(img->image).at<cv::Vec3b>(r, c), cv::Vec3b(50, 100, 200));
    // The same for bggr: B first.
    px.clear();
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 6; ++c) px.push_back(r % 2 == 0 ? (c % 2 == 0 ? 50 : 100) : (c % 2 == 0 ? 100 : 200));
    auto bggr = sensors::readImage(image("bayer_bggr8", 6, 6, 6, px).value);
    QCOMPARE(asMat(bggr->image).at<cv::Vec3b>(2, 2), cv::Vec3b(50, 100, 200));
  }

  void depthAndSignedAndFloatImagesKeepTheirValues() {
    auto be = sensors::readImage(image("mono16", 1, 1, 2, {0x01, 0x02}, true).value);
    QCOMPARE(asMat(be->image).at<std::uint16_t>(0, 0), std::uint16_t{0x0102});
    auto leMessage = image("16UC1", 1, 1, 2, {0x01, 0x02});
    auto le = sensors::readImage(leMessage.value);
    QCOMPARE(asMat(le->image).at<std::uint16_t>(0, 0), std::uint16_t{0x0201});
    std::vector<std::uint8_t> s;
    put<std::int16_t>(s, -1234);
    QCOMPARE(asMat(sensors::readImage(image("16SC1", 1, 1, 2, s).value)->image).at<std::int16_t>(0, 0),
             std::int16_t{-1234});
    std::vector<std::uint8_t> f;
    put<float>(f, 1.25f, true);
    QCOMPARE(asMat(sensors::readImage(image("32FC1", 1, 1, 4, f, true).value)->image).at<float>(0, 0), 1.25f);
  }

  void badImagesAreRefusedWithTheirSizes() {
    auto unknown = sensors::readImage(image("jpeg2000", 1, 1, 1, {0}).value);
    QCOMPARE(unknown.error().code, ErrorCode::Unsupported);
    auto shortData = sensors::readImage(image("rgb8", 4, 4, 12, {1, 2, 3}).value);
    QVERIFY(!shortData.has_value());
    QVERIFY2(shortData.error().message.find("holds 3 bytes") != std::string::npos, shortData.error().message.c_str());
    auto narrowStep = sensors::readImage(image("rgb8", 4, 1, 6, std::vector<std::uint8_t>(12)).value);
    QVERIFY(!narrowStep.has_value());
  }

  void compressedDepthIsPngAfterItsHeader() {
    cv::Mat depth(1, 2, CV_16UC1);
    depth.at<std::uint16_t>(0, 0) = 1500;
    depth.at<std::uint16_t>(0, 1) = 65535;
    std::vector<unsigned char> png;
    QVERIFY(cv::imencode(".png", depth, png));
    std::vector<std::uint8_t> data(12, 0);  // format and quantisation parameters
    data.insert(data.end(), png.begin(), png.end());
    auto d = compressedImage("16UC1; compressedDepth", data);
    auto frame = sensors::readCompressedImage(d.value);
    QVERIFY(frame.has_value());
    QCOMPARE(frame->codec, std::string("png"));
    auto mat = sensors::decodeCompressed(*frame);
    QVERIFY(mat.has_value());
    QCOMPARE(asMat(*mat).type(), CV_16UC1);
    QCOMPARE(asMat(*mat).at<std::uint16_t>(0, 1), std::uint16_t{65535});
  }

  // Compressed images decode to the pixels OpenCV's imdecode gives (IMREAD_UNCHANGED), what
  // other tools show: JPEG and PNG of the usual kinds by libjpeg and libpng, the rest (a 1-bit
  // PNG here) by the media module's imgcodecs. Damaged data is an error naming the format.
  void compressedImagesDecodeAsOpenCvDecodesThem() {
    cv::RNG rng(38);
    auto noise = [&](int type) {
      cv::Mat m(23, 37, type);
      rng.fill(m, cv::RNG::UNIFORM, 0, CV_MAT_DEPTH(type) == CV_16U ? 65536 : 256);
      return m;
    };
    struct Case {
      const char* name;
      const char* extension;
      cv::Mat pixels;
      std::vector<int> params;
    };
    const std::vector<Case> cases{
        {"jpeg colour", ".jpg", noise(CV_8UC3), {cv::IMWRITE_JPEG_QUALITY, 90}},
        {"jpeg grey", ".jpg", noise(CV_8UC1), {}},
        {"jpeg progressive", ".jpg", noise(CV_8UC3), {cv::IMWRITE_JPEG_PROGRESSIVE, 1}},
        {"png grey", ".png", noise(CV_8UC1), {}},
        {"png colour", ".png", noise(CV_8UC3), {}},
        {"png alpha", ".png", noise(CV_8UC4), {}},
        {"png 16-bit grey", ".png", noise(CV_16UC1), {}},
        {"png 16-bit colour", ".png", noise(CV_16UC3), {}},
        {"png 16-bit alpha", ".png", noise(CV_16UC4), {}},
        {"png 1-bit", ".png", noise(CV_8UC1) > 128, {cv::IMWRITE_PNG_BILEVEL, 1}},
    };
    for (const auto& c : cases) {
      std::vector<unsigned char> bytes;
      QVERIFY(cv::imencode(c.extension, c.pixels, bytes, c.params));
      cv::Mat expected = cv::imdecode(bytes, cv::IMREAD_UNCHANGED);
      auto d = compressedImage(c.extension + 1, bytes);
      auto frame = sensors::readCompressedImage(d.value);
      QVERIFY2(frame.has_value(), c.name);
      auto image = sensors::decodeCompressed(*frame);
      QVERIFY2(image.has_value(), image ? c.name : image.error().describe().c_str());
      cv::Mat got = asMat(*image);
      QVERIFY2(got.type() == expected.type() && got.size() == expected.size(), c.name);
      QVERIFY2(cv::norm(got, expected, cv::NORM_INF) == 0, c.name);
    }
    for (const char* extension : {".jpg", ".png"}) {
      std::vector<unsigned char> bytes;
      QVERIFY(cv::imencode(extension, noise(CV_8UC3), bytes));
      for (std::size_t i = 40; i < bytes.size(); i += 7) bytes[i] ^= 0x5A;  // past the signature
      auto d = compressedImage(extension + 1, bytes);
      auto image = sensors::decodeCompressed(*sensors::readCompressedImage(d.value));
      if (image) continue;  // a JPEG decoder may go through damaged entropy-coded data
      QVERIFY2(image.error().describe().find(extension[1] == 'j' ? "JPEG" : "PNG") != std::string::npos,
               image.error().describe().c_str());
    }
  }

  // A header that claims a huge image is refused before anything is allocated for it, and
  // says the size it claims (OpenCV refused such as well): a JPEG's frame header and a PNG's
  // IHDR (its CRC made good, as a hostile file would) each rewritten to 60,000 x 60,000.
  void compressedImagesClaimingHugeSizesAreRefused() {
    cv::Mat small(8, 8, CV_8UC3, cv::Scalar(10, 20, 30));
    auto decodeBytes = [](const std::vector<unsigned char>& bytes) {
      auto d = compressedImage("jpeg or png", bytes);
      return sensors::decodeCompressed(*sensors::readCompressedImage(d.value));
    };
    auto putBigEndian = [](std::vector<unsigned char>& b, std::size_t at, std::uint32_t v, int bytes) {
      for (int i = 0; i < bytes; ++i) b[at + i] = static_cast<unsigned char>(v >> (8 * (bytes - 1 - i)));
    };
    std::vector<unsigned char> jpeg;
    QVERIFY(cv::imencode(".jpg", small, jpeg));
    std::size_t sof = 2;
    while (sof + 9 < jpeg.size() && !(jpeg[sof] == 0xFF && jpeg[sof + 1] == 0xC0)) ++sof;
    QVERIFY(sof + 9 < jpeg.size());
    putBigEndian(jpeg, sof + 5, 60000, 2);  // height, then width
    putBigEndian(jpeg, sof + 7, 60000, 2);
    std::vector<unsigned char> png;
    QVERIFY(cv::imencode(".png", small, png));
    putBigEndian(png, 16, 60000, 4);  // IHDR: width, height
    putBigEndian(png, 20, 60000, 4);
    std::uint32_t crc = 0xFFFFFFFFu;  // over "IHDR" and its 13 bytes
    for (std::size_t i = 12; i < 29; ++i) {
      crc ^= png[i];
      for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    putBigEndian(png, 29, ~crc, 4);
    for (const auto* bytes : {&jpeg, &png}) {
      auto image = decodeBytes(*bytes);
      QVERIFY2(!image, "a 60,000 x 60,000 image was decoded");
      QVERIFY2(image.error().describe().find("60000 x 60000") != std::string::npos, image.error().describe().c_str());
    }
  }

  // The stills the exporters write, read back by OpenCV: PNG keeps 16-bit depth exactly and
  // float depth (m) becomes mm; JPEG of a 16-bit image spans 0..255 over its range.
  void encodedStillsDecodeBackToTheirValues() {
    std::vector<std::uint8_t> raw;
    for (std::uint16_t v : std::initializer_list<std::uint16_t>{0, 1500, 65535}) put<std::uint16_t>(raw, v);
    auto depth = sensors::readImage(image("16UC1", 3, 1, 6, raw).value);
    QVERIFY(depth.has_value());
    auto png = sensors::encodeImage(depth->image, sensors::StillFormat::Png);
    QVERIFY2(png.has_value(), png ? "" : png.error().describe().c_str());
    cv::Mat back = cv::imdecode(cv::Mat(1, static_cast<int>(png->size()), CV_8UC1, png->data()), cv::IMREAD_UNCHANGED);
    QCOMPARE(back.type(), CV_16UC1);
    QCOMPARE(back.at<std::uint16_t>(0, 1), std::uint16_t{1500});
    QCOMPARE(back.at<std::uint16_t>(0, 2), std::uint16_t{65535});
    std::vector<std::uint8_t> metres;
    for (float v : {0.25f, std::numeric_limits<float>::quiet_NaN()}) put<float>(metres, v);
    auto floatDepth = sensors::readImage(image("32FC1", 2, 1, 8, metres).value);
    auto mmPng = sensors::encodeImage(floatDepth->image, sensors::StillFormat::Png);
    QVERIFY(mmPng.has_value());
    cv::Mat mm =
        cv::imdecode(cv::Mat(1, static_cast<int>(mmPng->size()), CV_8UC1, mmPng->data()), cv::IMREAD_UNCHANGED);
    QCOMPARE(mm.at<std::uint16_t>(0, 0), std::uint16_t{250});
    QCOMPARE(mm.at<std::uint16_t>(0, 1), std::uint16_t{0});  // NaN: no reading
    auto jpeg = sensors::encodeImage(depth->image, sensors::StillFormat::Jpeg, 100);
    QVERIFY(jpeg.has_value());
    cv::Mat eight =
        cv::imdecode(cv::Mat(1, static_cast<int>(jpeg->size()), CV_8UC1, jpeg->data()), cv::IMREAD_GRAYSCALE);
    QCOMPARE(eight.cols, 3);
    QVERIFY2(eight.at<std::uint8_t>(0, 0) <= 2 && eight.at<std::uint8_t>(0, 2) >= 253, "JPEG spans the range");
  }

  void cloudChannelsUnpackColourCountsAndBigEndian() {
    // point_step 24: x f32 @0, rgb f32 @4 (0x00FF8040), normal f32 x 3 @8, ring u16 @20 (big-endian).
    std::vector<std::uint8_t> data;
    put<float>(data, 1.5f, true);
    put<std::uint32_t>(data, 0x00FF8040u, true);
    for (float n : {0.f, 0.6f, 0.8f}) put<float>(data, n, true);
    put<std::uint16_t>(data, 513, true);
    data.insert(data.end(), {0xEE, 0xEE});
    auto d =
        cloud(1, 1, 24, 24, {{"x", 0, 7, 1}, {"rgb", 4, 7, 1}, {"normal", 8, 7, 3}, {"ring", 20, 4, 1}}, data, true);
    auto c = sensors::readPointCloud(d.value);
    QVERIFY2(c.has_value(), c ? "" : c.error().message.c_str());
    auto channels = c->channels();
    std::vector<std::string> names;
    for (const auto& ch : channels) names.push_back(ch.name);
    QCOMPARE(names, (std::vector<std::string>{"x", "r", "g", "b", "normal_0", "normal_1", "normal_2", "ring"}));
    std::vector<double> values;
    for (const auto& ch : channels) values.push_back(c->value(0, ch));
    QCOMPARE(values,
             (std::vector<double>{1.5, 255, 128, 64, 0, static_cast<double>(0.6f), static_cast<double>(0.8f), 513}));
    // PLY takes r, g, b as uchar; PCD keeps the packed rgb as PCL and Open3D expect it.
    exporters::ExportOptions ply;
    ply.format = exporters::Format::Ply;
    auto out = exporters::chooseChannels(*c, ply);
    QCOMPARE(out->at(1).name, std::string("r"));
    exporters::ExportOptions pcd;
    auto packed = exporters::chooseChannels(*c, pcd);
    QCOMPARE(packed->at(1).name, std::string("rgb"));
    std::string bytes = exporters::pcdBytes(*c, *packed, {}, exporters::PcdEncoding::Binary);
    QVERIFY(bytes.find("FIELDS x rgb normal_0 normal_1 normal_2 ring\nSIZE 4 4 4 4 4 2\nTYPE F F F F F U\n") !=
            std::string::npos);
    std::uint32_t bits;
    std::memcpy(&bits, bytes.data() + bytes.size() - 18, 4);  // the 22-byte point: rgb after x, little-endian now
    QCOMPARE(bits, 0x00FF8040u);
    pcd.fields = {"nothing"};
    auto missing = exporters::chooseChannels(*c, pcd);
    QVERIFY(!missing.has_value());
    QVERIFY(missing.error().message.find("no field 'nothing'") != std::string::npos);
  }

  void organizedCloudsSkipRowPadding() {
    // 2 rows x 1 point, point_step 4 (x f32), row_step 8: 4 bytes of padding per row.
    std::vector<std::uint8_t> data;
    put<float>(data, 1.f);
    data.insert(data.end(), {0xEE, 0xEE, 0xEE, 0xEE});
    put<float>(data, 2.f);
    auto d = cloud(2, 1, 4, 8, {{"x", 0, 7, 1}}, data);
    auto c = sensors::readPointCloud(d.value);
    QVERIFY(c.has_value());
    QCOMPARE(c->value(1, c->channels()[0]), 2.0);
    std::string npy = exporters::npyCloudBytes(*c, *exporters::chooseChannels(*c, {}), {});
    QVERIFY(npy.find("'shape': (2, 1)") != std::string::npos);
    float last;
    std::memcpy(&last, npy.data() + npy.size() - 4, 4);
    QCOMPARE(last, 2.f);
  }

  void inconsistentCloudsAreRefused() {
    auto beyond = cloud(1, 1, 4, 4, {{"x", 2, 7, 1}}, {0, 0, 0, 0});
    QVERIFY(sensors::readPointCloud(beyond.value).error().message.find("does not fit in point_step 4") !=
            std::string::npos);
    auto shortData = cloud(2, 2, 4, 8, {{"x", 0, 7, 1}}, std::vector<std::uint8_t>(12));
    QVERIFY(sensors::readPointCloud(shortData.value).error().message.find("need 16") != std::string::npos);
    auto rows = cloud(1, 2, 4, 4, {{"x", 0, 7, 1}}, std::vector<std::uint8_t>(8));
    QVERIFY(sensors::readPointCloud(rows.value).error().message.find("row_step 4") != std::string::npos);
    auto type = cloud(1, 1, 4, 4, {{"x", 0, 9, 1}}, std::vector<std::uint8_t>(4));
    QVERIFY(sensors::readPointCloud(type.value).error().message.find("unknown datatype 9") != std::string::npos);
  }

  void laserScanBeamsBecomePoints() {
    WireWriter m = header();
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    m.put(0.f).put(static_cast<float>(std::numbers::pi / 2)).put(0.f).put(0.f).put(0.f).put(0.5f).put(10.f);
    m.u32(4).put(1.f).put(inf).put(nan).put(2.f);
    m.u32(4).put(7.f).put(8.f).put(9.f).put(10.f);
    auto d = decodeRos1(
        "sensor_msgs/LaserScan",
        "Header header\nfloat32 angle_min\nfloat32 angle_increment\nfloat32 angle_max\nfloat32 time_increment\n"
        "float32 scan_time\nfloat32 range_min\nfloat32 range_max\nfloat32[] ranges\nfloat32[] intensities\n",
        std::move(m));
    auto pts = sensors::laserScanPoints(d.value);
    QVERIFY(pts.has_value());
    QCOMPARE(pts->size(), std::size_t{2});
    QCOMPARE((*pts)[0].x, 1.f);
    QCOMPARE((*pts)[0].intensity, 7.f);
    QVERIFY(std::abs((*pts)[1].x) < 1e-6f);  // beam 3 at 3/2 pi: (0, -2)
    QVERIFY(std::abs((*pts)[1].y + 2.f) < 1e-6f);
    QCOMPARE((*pts)[1].intensity, 10.f);
  }

  void transformsChainAndInterpolate() {
    auto tfMessage = [](const char* parent, const char* child, std::uint32_t sec, std::uint32_t nsec,
                        std::array<double, 3> t, std::array<double, 4> q) {
      WireWriter m;
      m.u32(1).u32(0).u32(sec).u32(nsec).str(parent).str(child);
      for (double v : t) m.put(v);
      for (double v : q) m.put(v);
      return decodeRos1(
          "tf2_msgs/TFMessage",
          "geometry_msgs/TransformStamped[] transforms\n"
          "================================================================================\n"
          "MSG: geometry_msgs/TransformStamped\nHeader header\nstring child_frame_id\ngeometry_msgs/Transform "
          "transform\n"
          "================================================================================\n"
          "MSG: geometry_msgs/Transform\ngeometry_msgs/Vector3 translation\ngeometry_msgs/Quaternion rotation\n"
          "================================================================================\n"
          "MSG: geometry_msgs/Vector3\nfloat64 x\nfloat64 y\nfloat64 z\n"
          "================================================================================\n"
          "MSG: geometry_msgs/Quaternion\nfloat64 x\nfloat64 y\nfloat64 z\nfloat64 w\n",
          std::move(m));
    };
    sensors::TfBuffer tf;
    tf.add(tfMessage("base_link", "lidar", 0, 0, {0.5, 0, 1.2}, {0, 0, 0, 1}).value, true);
    double s = std::sin(std::numbers::pi / 4), c = std::cos(std::numbers::pi / 4);
    tf.add(tfMessage("odom", "base_link", 10, 0, {0, 0, 0}, {0, 0, 0, 1}).value, false);
    tf.add(tfMessage("odom", "base_link", 11, 0, {2, 0, 0}, {0, 0, s, c}).value, false);  // yaw 90 degrees
    // Half way: base at x = 1, yawed 45 degrees; the lidar 0.5 m ahead of it.
    auto t = tf.lookup("odom", "lidar", 10'500'000'000);
    QVERIFY2(t.has_value(), t ? "" : t.error().message.c_str());
    auto p = t->apply({0, 0, 0});
    QVERIFY(std::abs(p[0] - (1 + 0.5 * std::cos(std::numbers::pi / 4))) < 1e-9);
    QVERIFY(std::abs(p[1] - 0.5 * std::sin(std::numbers::pi / 4)) < 1e-9);
    QVERIFY(std::abs(p[2] - 1.2) < 1e-9);
    // And back: odom in the lidar frame is the inverse.
    auto back = tf.lookup("lidar", "odom", 10'500'000'000);
    auto q = back->apply(p);
    QVERIFY(std::abs(q[0]) < 1e-9 && std::abs(q[1]) < 1e-9 && std::abs(q[2]) < 1e-9);
    QVERIFY(!tf.lookup("odom", "camera", 10'500'000'000).has_value());
    QVERIFY(!tf.lookup("odom", "lidar", 30'000'000'000).has_value());  // far beyond the samples
    QCOMPARE(tf.frames(), std::vector<std::string>({"base_link", "lidar", "odom"}));
  }

  void pinholeProjectionWithAndWithoutDistortion() {
    // The fixture's camera (fx = fy = 50, cx = 31.5, cy = 23.5) and a point 2 m ahead, worked
    // out by hand: x = 0.1, y = -0.05 on the normalised plane.
    sensors::CameraInfo c;
    c.width = 64, c.height = 48;
    c.k = {50, 0, 31.5, 0, 50, 23.5, 0, 0, 1};
    c.r = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    c.p = {50, 0, 31.5, -5, 0, 50, 23.5, 0, 0, 0, 1, 0};  // a right camera's baseline term
    const std::array<double, 3> p{0.2, -0.1, 2.0};
    auto near = [](std::optional<std::array<double, 2>> got, double u, double v) {
      return got && std::abs((*got)[0] - u) < 1e-9 && std::abs((*got)[1] - v) < 1e-9;
    };
    QVERIFY(near(sensors::projectPoint(c, p, false), 36.5, 21.0));  // no model: K alone
    c.distortionModel = "plumb_bob";
    c.d = {-0.28, 0.07, 0.0002, -0.0001, 0.0};
    // r2 = 0.0125, radial = 1 - 0.28 * 0.0125 + 0.07 * 0.0125^2 = 0.9965109375
    // xd = 0.1 * radial + 2 * 0.0002 * 0.1 * -0.05 - 0.0001 * (0.0125 + 0.02) = 0.09964584375
    // yd = -0.05 * radial + 0.0002 * (0.0125 + 0.005) + 2 * -0.0001 * 0.1 * -0.05 = -0.049821046875
    QVERIFY(near(sensors::projectPoint(c, p, false), 50 * 0.09964584375 + 31.5, 50 * -0.049821046875 + 23.5));
    c.distortionModel = "equidistant";
    c.d = {0.1, 0.01, 0, 0};
    double r = std::sqrt(0.0125), th = std::atan(r), thd = th * (1 + 0.1 * th * th + 0.01 * std::pow(th, 4));
    QVERIFY(near(sensors::projectPoint(c, p, false), 50 * 0.1 * thd / r + 31.5, 50 * -0.05 * thd / r + 23.5));
    // Rectified: P, baseline included: u = (50 * 0.2 + 31.5 * 2 - 5) / 2, v = (50 * -0.1 + 23.5 * 2) / 2.
    QVERIFY(near(sensors::projectPoint(c, p, true), 34.0, 21.0));
    QVERIFY(!sensors::projectPoint(c, {0.2, -0.1, -2.0}, false));  // behind the camera
    QVERIFY(!sensors::projectPoint(c, {0.2, -0.1, 0.0}, true));
    // Undistorting: the rectified image's centre pixel comes from the raw image's centre,
    // and every pixel from where projecting its ray lands.
    c.distortionModel = "plumb_bob";
    c.d = {-0.28, 0.07, 0.0002, -0.0001, 0.0};
    c.p = {50, 0, 31.5, 0, 0, 50, 23.5, 0, 0, 0, 1, 0};
    auto map = sensors::undistortionMap(c);
    QCOMPARE(map.size(), std::size_t{64 * 48 * 2});
    auto at = [&](int u, int v) { return std::array<double, 2>{map[(v * 64 + u) * 2], map[(v * 64 + u) * 2 + 1]}; };
    auto corner = sensors::projectPoint(c, {(0 - 31.5) / 50, (0 - 23.5) / 50, 1}, false);
    QVERIFY(std::abs(at(0, 0)[0] - (*corner)[0]) < 1e-4 && std::abs(at(0, 0)[1] - (*corner)[1]) < 1e-4);
    QVERIFY(at(0, 0)[0] > 0 && at(0, 0)[1] > 0);  // barrel distortion pulls the corner inwards
  }

  void satellitePositionsInLocalEastNorthUp() {
    // 0.001° north and east of (48°, 11°, 500 m), by the radii of curvature (hand formulas):
    // north = M Δφ, M = a (1 - e²) / (1 - e² sin²φ)^1.5; east = N cos φ Δλ, N = a / √(1 - e² sin²φ).
    const double a = 6378137.0, f = 1 / 298.257223563, e2 = f * (2 - f), phi = 48 * std::numbers::pi / 180;
    const double d = 0.001 * std::numbers::pi / 180, w = 1 - e2 * std::sin(phi) * std::sin(phi);
    const double M = a * (1 - e2) / std::pow(w, 1.5), N = a / std::sqrt(w);
    auto north = sensors::enuFrom({48, 11, 500}, {48.001, 11, 500});
    QVERIFY2(std::abs(north[1] - (M + 500) * d) < 2e-3 && std::abs(north[0]) < 1e-6,
             qPrintable(QString("%1 %2").arg(north[1], 0, 'f', 6).arg((M + 500) * d, 0, 'f', 6)));
    auto east = sensors::enuFrom({48, 11, 500}, {48, 11.001, 500});
    QVERIFY(std::abs(east[0] - (N + 500) * std::cos(phi) * d) < 2e-3 && std::abs(east[1]) < 1e-2);
    auto up = sensors::enuFrom({48, 11, 500}, {48, 11, 512.5});
    QVERIFY(std::abs(up[2] - 12.5) < 1e-6 && std::abs(up[0]) < 1e-6 && std::abs(up[1]) < 1e-6);
  }

  void logsDiagnosticsAndTheTfTreeOfARecording() {
    // robot_state.bag (tests/data/gen_robot_state.py), against python3-rosbag's reading of it.
    auto s = bagscope::session::Session::open({bagscope::test::dataPath("ros1/robot_state.bag").toStdString()});
    QVERIFY(s.has_value());
    QString err;
    auto expected = bagscope::test::readJsonLines(bagscope::test::dataPath("ros1/robot_state.expected.jsonl"), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    auto decodeAll = [&](const std::string& topic, const std::function<void(const decode::Value&)>& each) {
      auto t = (*s)->findTopic(topic);
      QVERIFY(t);
      for (std::size_t n = 0; n < (*s)->index(*t).size(); ++n) {
        auto m = (*s)->read(*t, n);
        auto d = (*s)->decoder(*m->connection);
        auto v = (*d)->decode(m->bytes);
        QVERIFY(v.has_value());
        each(*v);
      }
    };
    QCOMPARE(sensors::kindOf("rosgraph_msgs/Log"), sensors::SensorKind::Log);
    QCOMPARE(sensors::kindOf("rcl_interfaces/msg/Log"), sensors::SensorKind::Log);
    QCOMPARE(sensors::kindOf("diagnostic_msgs/msg/DiagnosticArray"), sensors::SensorKind::Diagnostics);
    std::vector<sensors::LogEntry> logs;
    decodeAll("/rosout", [&](const decode::Value& v) {
      auto e = sensors::readLog(v);
      QVERIFY(e.has_value());
      logs.push_back(*e);
    });
    std::vector<QJsonObject> rosout, diagnostics;
    for (const auto& e : expected) {
      if (e["topic"] == "/rosout") rosout.push_back(e["msg"].toObject());
      if (e["topic"] == "/diagnostics") diagnostics.push_back(e["msg"].toObject());
    }
    QCOMPARE(logs.size(), rosout.size());
    const std::map<int, sensors::LogLevel> rosLevels{{1, sensors::LogLevel::Debug},
                                                     {2, sensors::LogLevel::Info},
                                                     {4, sensors::LogLevel::Warn},
                                                     {8, sensors::LogLevel::Error},
                                                     {16, sensors::LogLevel::Fatal}};
    for (std::size_t i = 0; i < logs.size(); ++i) {
      QJsonObject m = rosout[i], st = m["header"].toObject()["stamp"].toObject();
      QCOMPARE(logs[i].stampNs,
               static_cast<std::int64_t>(st["secs"].toInteger()) * 1'000'000'000 + st["nsecs"].toInteger());
      QCOMPARE(logs[i].level, rosLevels.at(m["level"].toInt()));
      QCOMPARE(QString::fromStdString(logs[i].node), m["name"].toString());
      QCOMPARE(QString::fromStdString(logs[i].message), m["msg"].toString());
      QCOMPARE(QString::fromStdString(logs[i].file), m["file"].toString());
      QCOMPARE(static_cast<int>(logs[i].line), m["line"].toInt());
    }
    std::size_t k = 0;
    decodeAll("/diagnostics", [&](const decode::Value& v) {
      auto d = sensors::readDiagnostics(v);
      QVERIFY(d.has_value());
      QJsonArray want = diagnostics[k++]["status"].toArray();
      QCOMPARE(static_cast<qsizetype>(d->size()), want.size());
      for (qsizetype j = 0; j < want.size(); ++j) {
        QJsonObject w = want[j].toObject();
        QCOMPARE((*d)[static_cast<std::size_t>(j)].level, w["level"].toInt());
        QCOMPARE(QString::fromStdString((*d)[static_cast<std::size_t>(j)].message), w["message"].toString());
        QCOMPARE(QString::fromStdString((*d)[static_cast<std::size_t>(j)].hardwareId), w["hardware_id"].toString());
        QCOMPARE(static_cast<qsizetype>((*d)[static_cast<std::size_t>(j)].values.size()), w["values"].toArray().size());
      }
    });
    QCOMPARE(k, diagnostics.size());
    // The TF tree: edges, and the lidar in the map frame at 1 s worked out by hand:
    // base_link -> lidar (0.5, 0, 1.2); odom -> base_link at 1 s: (1, 0, 0), yaw 0.1;
    // map -> odom (1, 2, 0), yaw 90 degrees.
    sensors::TfBuffer tf;
    decodeAll("/tf_static", [&](const decode::Value& v) { tf.add(v, true); });
    decodeAll("/tf", [&](const decode::Value& v) { tf.add(v, false); });
    auto edges = tf.edges();
    QCOMPARE(edges.size(), std::size_t{4});
    std::map<std::string, sensors::TfBuffer::EdgeInfo> byChild;
    for (auto& e : edges) byChild[e.child] = e;
    QCOMPARE(byChild["base_link"].parent, std::string("odom"));
    QVERIFY(!byChild["base_link"].isStatic && byChild["odom"].isStatic && byChild["lidar"].isStatic);
    QCOMPARE(byChild["base_link"].samples, std::size_t{21});
    QCOMPARE(byChild["base_link"].lastNs - byChild["base_link"].firstNs, std::int64_t{2'000'000'000});
    auto lidar = tf.lookup("map", "lidar", 1'700'000'001'000'000'000);
    QVERIFY2(lidar.has_value(), lidar ? "" : lidar.error().message.c_str());
    auto p = lidar->apply({0, 0, 0});
    QVERIFY(std::abs(p[0] - (1 - 0.5 * std::sin(0.1))) < 1e-9);
    QVERIFY(std::abs(p[1] - (2 + 1 + 0.5 * std::cos(0.1))) < 1e-9);
    QVERIFY(std::abs(p[2] - 1.2) < 1e-9);
  }
};

QTEST_GUILESS_MAIN(TestSensors)
#include "tst_sensors.moc"
