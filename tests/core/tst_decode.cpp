// core/decode: values from hand-built bytes, errors that name field and offset, the
// FieldReader against the reference reader's values, and JSON output.

#include <QtTest>

#include <google/protobuf/descriptor.pb.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "common/test_support.hpp"
#include "common/wire_writer.hpp"
#include "core/decode/decoder.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;
using namespace bagscope::decode;
using bagscope::test::WireWriter;

namespace {

std::shared_ptr<const Decoder> compileOrFail(const char* type, const char* text) {
  auto s = schema::parseDefinition(type, text, schema::Dialect::Ros1);
  if (!s) qFatal("schema: %s", s.error().message.c_str());
  auto d = Decoder::compile(*s, WireFormat::Ros1);
  if (!d) qFatal("compile: %s", d.error().message.c_str());
  return *d;
}

constexpr const char* kAllKinds =
    "bool flag\nint8 a\nuint8 b\nint16 c\nuint16 d\nint32 e\nuint32 f\nint64 g\nuint64 h\n"
    "float32 x\nfloat64 y\nstring name\ntime t\nduration dt\nfloat64[2] pair\nint16[] list\n"
    "uint8[] blob\nInner inner\nInner[] inners\n"
    "================================================================================\n"
    "MSG: pkg/Inner\nstring label\nfloat32 v\n";

std::vector<std::byte> allKindsBytes() {
  WireWriter w;
  w.u8(1)
      .put<std::int8_t>(-2)
      .u8(250)
      .put<std::int16_t>(-300)
      .put<std::uint16_t>(60000)
      .put<std::int32_t>(-70000)
      .u32(4000000000u)
      .put<std::int64_t>(-5000000000LL)
      .u64(18446744073709551615ull)
      .put<float>(0.1f)
      .put<double>(-2.5)
      .str("héllo")
      .u32(1700000000)
      .u32(5)
      .put<std::int32_t>(-1)
      .put<std::int32_t>(500000000)
      .put<double>(1.0)
      .put<double>(2.0)
      .u32(3)
      .put<std::int16_t>(1)
      .put<std::int16_t>(-1)
      .put<std::int16_t>(7)
      .u32(2)
      .u8(9)
      .u8(8)
      .str("in")
      .put<float>(1.5f)
      .u32(1)
      .str("a")
      .put<float>(-0.0f);
  return w.bytes;
}

}  // namespace

class TestDecode : public QObject {
  Q_OBJECT

private slots:
  void decodesEveryKindFromHandBuiltBytes() {
    auto d = compileOrFail("pkg/All", kAllKinds);
    auto bytes = allKindsBytes();
    auto v = d->decode(bytes);
    QVERIFY2(v.has_value(), v ? "" : v.error().message.c_str());
    std::string json;
    appendJson(*v, json);
    // Written out by hand from the bytes above.
    QCOMPARE(QString::fromStdString(json),
             QString::fromUtf8(R"({"flag":true,"a":-2,"b":250,"c":-300,"d":60000,"e":-70000,"f":4000000000,)"
                               R"("g":-5000000000,"h":18446744073709551615,"x":0.10000000149011612,"y":-2.5,)"
                               R"("name":"héllo","t":{"sec":1700000000,"nsec":5},"dt":{"sec":-1,"nsec":500000000},)"
                               R"("pair":[1.0,2.0],"list":[1,-1,7],"blob":[9,8],"inner":{"label":"in","v":1.5},)"
                               R"("inners":[{"label":"a","v":-0.0}]})"));
  }

  void byteArraysAreViewsIntoTheBuffer() {
    auto d = compileOrFail("pkg/B", "uint8[] data\n");
    WireWriter w;
    w.u32(3).u8(1).u8(2).u8(3);
    auto v = d->decode(w.bytes);
    QVERIFY(v.has_value());
    QCOMPARE(v->items[0].kind, Value::Kind::Bytes);
    QCOMPARE(v->items[0].bytes.data(), w.bytes.data() + 4);  // no copy
  }

  void digestFormKeeps64BytesInlineAndHashesLonger() {
    auto d = compileOrFail("pkg/B", "uint8[] data\n");
    for (std::uint32_t n : {64u, 65u}) {
      WireWriter w;
      w.u32(n);
      for (std::uint32_t i = 0; i < n; ++i) w.u8(0);
      auto v = d->decode(w.bytes);
      QVERIFY(v.has_value());
      std::string json;
      appendJson(*v, json);
      if (n == 64) {
        QVERIFY(json.starts_with("{\"data\":[0,0,"));
      } else {
        // sha256 of 65 zero bytes, computed independently (Python hashlib).
        QCOMPARE(
            json,
            std::string(
                R"({"data":{"len":65,"sha256":"98ce42deef51d40269d542f5314bef2c7468d401ad5d85168bfab4c0108f75f7"}})"));
      }
    }
  }

  void lengthPastTheEndNamesFieldAndOffset() {
    auto d = compileOrFail("pkg/S", "int32 id\nInner inner\n====\nMSG: pkg/Inner\nfloat64 x\nstring name\n");
    WireWriter w;
    w.put<std::int32_t>(1).put<double>(2.0).u32(0xFFFFFFFFu).raw("abc");
    auto v = d->decode(w.bytes);
    QVERIFY(!v);
    QCOMPARE(v.error().code, ErrorCode::Decode);
    QString msg = QString::fromStdString(v.error().message);
    QVERIFY2(msg.contains("field 'inner.name'") && msg.contains("4294967295") && msg.contains("offset 16") &&
                 msg.contains("19-byte"),
             qPrintable(msg));
  }

  void hugeArrayLengthFailsBeforeAllocating() {
    auto d = compileOrFail("pkg/A", "float64[] values\nInner[] empties\n====\nMSG: pkg/Inner\n");
    WireWriter w;
    w.u32(0x7FFFFFFF);  // would be 16 GiB of doubles
    auto v = d->decode(w.bytes);
    QVERIFY(!v);
    QVERIFY(QString::fromStdString(v.error().message).contains("field 'values'"));
    WireWriter w2;
    w2.u32(0).u32(0xFFFFFFFF);  // 4 billion zero-byte elements
    QVERIFY(!d->decode(w2.bytes));
  }

  void everyCutOfAMessageIsACleanError() {
    auto d = compileOrFail("pkg/All", kAllKinds);
    auto bytes = allKindsBytes();
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      auto v = d->decode(std::span(bytes.data(), n));
      QVERIFY2(!v, qPrintable(QString("cut at %1 decoded").arg(n)));
      QCOMPARE(v.error().code, ErrorCode::Decode);
    }
  }

  void messagePathSlicesExpandAndPlainPathsAreRecognised() {
    using V = std::vector<std::string>;
    QCOMPARE(MessagePath::expandSlices("ranges[0:2]", 64), (V{"ranges[0]", "ranges[1]", "ranges[2]"}));
    QCOMPARE(MessagePath::expandSlices("a[0:1].b[2:3].x", 64),
             (V{"a[0].b[2].x", "a[0].b[3].x", "a[1].b[2].x", "a[1].b[3].x"}));
    QCOMPARE(MessagePath::expandSlices("ranges[0:100]", 3), (V{"ranges[0]", "ranges[1]", "ranges[2]"}));
    // Open, negative or reversed slices depend on the message: left as they are.
    for (const char* kept : {"ranges[:]", "ranges[-3:-1]", "ranges[2:]", "ranges[5:1]", "m[:]{id==3}.x"})
      QCOMPARE(MessagePath::expandSlices(kept, 64), V{kept});
    QVERIFY(MessagePath::isPlain("pose.pose.position.x"));
    QVERIFY(MessagePath::isPlain("ranges[10]"));
    for (const char* general : {"ranges[-1]", "ranges[0:2]", "m[:]{id==3}.x", "ranges[ 1]", ""})
      QVERIFY2(!MessagePath::isPlain(general), general);
  }

  void fieldReaderReadsImuLikeTheReferenceReader() {
    // /imu messages of the fixture, against python3-rosbag's decoded values.
    QString err;
    auto expected = test::readJsonLines(test::dataPath("ros1/demo.expected.jsonl"), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    auto source = storage::openSource(test::dataPath("ros1/demo_lz4.bag").toStdString());
    QVERIFY(source.has_value());
    const storage::Connection* imu = nullptr;
    for (const auto& c : (*source)->connections())
      if (c.topic == "/imu") imu = &c;
    QVERIFY(imu);
    auto s = schema::parseDefinition(imu->type, imu->definition, schema::Dialect::Ros1);
    QVERIFY(s.has_value());
    auto d = Decoder::compile(*s, WireFormat::Ros1);
    QVERIFY(d.has_value());
    std::vector<std::string> paths = {"header.stamp",
                                      "orientation.x",
                                      "orientation.w",
                                      "angular_velocity.z",
                                      "linear_acceleration.y",
                                      "linear_acceleration.z",
                                      "orientation_covariance[8]",
                                      "orientation_covariance[9]",
                                      "header.seq"};
    auto reader = FieldReader::compile(*d, paths);
    QVERIFY2(reader.has_value(), reader ? "" : reader.error().message.c_str());
    std::vector<QJsonObject> imuExpected;
    for (const auto& e : expected)
      if (e["topic"].toString() == "/imu") imuExpected.push_back(e["msg"].toObject());
    std::size_t i = 0;
    auto r = (*source)->readMessages({{imu->id}},
                                     [&](const storage::MessageView& m) {
                                       std::vector<double> row(paths.size());
                                       auto ok = reader->read(m.bytes, row);
                                       if (!ok) qFatal("read: %s", ok.error().message.c_str());
                                       const QJsonObject& e = imuExpected.at(i++);
                                       QJsonObject stamp = e["header"].toObject()["stamp"].toObject();
                                       if (row[0] != stamp["sec"].toDouble() + stamp["nsec"].toDouble() * 1e-9)
                                         qFatal("stamp %zu", i);
                                       if (row[1] != e["orientation"].toObject()["x"].toDouble())
                                         qFatal("orientation.x %zu", i);
                                       if (row[2] != e["orientation"].toObject()["w"].toDouble())
                                         qFatal("orientation.w %zu", i);
                                       if (row[3] != e["angular_velocity"].toObject()["z"].toDouble())
                                         qFatal("angular_velocity.z %zu", i);
                                       if (row[4] != e["linear_acceleration"].toObject()["y"].toDouble())
                                         qFatal("acc.y %zu", i);
                                       if (row[5] != e["linear_acceleration"].toObject()["z"].toDouble())
                                         qFatal("acc.z %zu", i);
                                       if (row[6] != e["orientation_covariance"].toArray()[8].toDouble())
                                         qFatal("cov[8] %zu", i);
                                       if (!std::isnan(row[7])) qFatal("cov[9] past the end should be NaN");
                                       if (row[8] != e["header"].toObject()["seq"].toDouble()) qFatal("seq %zu", i);
                                       return true;
                                     },
                                     {});
    QVERIFY(r.has_value());
    QCOMPARE(i, imuExpected.size());
    QCOMPARE(i, std::size_t{400});
  }

  void fieldReaderPicksElementsOfVariableArrays() {
    auto d = compileOrFail(
        "pkg/V", "string[] tags\nWheel[] wheels\nint32 after\n====\nMSG: pkg/Wheel\nstring name\nfloat32 speed\n");
    WireWriter w;
    w.u32(2)
        .str("ab")
        .str("c")
        .u32(3)
        .str("fl")
        .put<float>(1.5f)
        .str("frr")
        .put<float>(2.5f)
        .str("")
        .put<float>(-1.0f)
        .put<std::int32_t>(42);
    auto reader = FieldReader::compile(d, {"wheels[1].speed", "after", "wheels[5].speed", "wheels[2].speed"});
    QVERIFY(reader.has_value());
    std::vector<double> row(4);
    QVERIFY(reader->read(w.bytes, row).has_value());
    QCOMPARE(row[0], 2.5);
    QCOMPARE(row[1], 42.0);
    QVERIFY(std::isnan(row[2]));
    QCOMPARE(row[3], -1.0);
    auto cut = std::span(w.bytes.data(), w.bytes.size() - 2);
    QVERIFY(!reader->read(cut, row));
  }

  void fieldReaderReadsInsideFixedSizeMessages() {
    // Inner is fixed-size, so its fields are read in line at known offsets.
    auto d = compileOrFail("pkg/O",
                           "int8 a\nInner i\nInner j\nstring s\nint32 after\n====\n"
                           "MSG: pkg/Inner\nfloat64[3] p\nuint16 x\ntime t\n");
    WireWriter w;
    w.put<std::int8_t>(-1)
        .put<double>(1.0)
        .put<double>(2.0)
        .put<double>(3.0)
        .put<std::uint16_t>(7)
        .u32(10)
        .u32(500000000)
        .put<double>(4.0)
        .put<double>(5.0)
        .put<double>(6.0)
        .put<std::uint16_t>(8)
        .u32(20)
        .u32(0)
        .str("xyz")
        .put<std::int32_t>(-9);
    auto reader = FieldReader::compile(d, {"i.p[1]", "j.x", "after", "i.t", "j.p[2]", "a"});
    QVERIFY(reader.has_value());
    std::vector<double> row(6);
    QVERIFY(reader->read(w.bytes, row).has_value());
    QCOMPARE(row[0], 2.0);
    QCOMPARE(row[1], 8.0);
    QCOMPARE(row[2], -9.0);
    QCOMPARE(row[3], 10.5);
    QCOMPARE(row[4], 6.0);
    QCOMPARE(row[5], -1.0);
  }

  void cdrAlignsFromThePayloadStartInEitherByteOrder() {
    // Hand-built XCDR1: offsets count from after the 4-byte encapsulation header.
    const char* def =
        "uint8 a\nfloat64 b\nstring s\nint16[] v\nbuiltin_interfaces/Time t\n"
        "================================================================================\n"
        "MSG: builtin_interfaces/Time\nint32 sec\nuint32 nanosec\n";
    auto schema = schema::parseDefinition("pkg/msg/C", def, schema::Dialect::Ros2);
    QVERIFY(schema.has_value());
    auto d = Decoder::compile(*schema, WireFormat::Cdr);
    QVERIFY(d.has_value());
    for (bool big : {false, true}) {
      WireWriter w;
      auto u32 = [&](std::uint32_t v) {
        if (!big) return w.u32(v);
        for (int shift : {24, 16, 8, 0}) w.u8(static_cast<std::uint8_t>(v >> shift));
        return w;
      };
      w.u8(0).u8(big ? 0 : 1).u8(0).u8(0);  // encapsulation
      w.u8(7);                              // a @0
      for (int i = 0; i < 7; ++i) w.u8(0);  // pad to 8
      double b = -1.5;
      std::uint64_t bits;
      std::memcpy(&bits, &b, 8);
      if (big)
        for (int i = 7; i >= 0; --i) w.u8(static_cast<std::uint8_t>(bits >> (8 * i)));
      else w.u64(bits);                    // b @8
      u32(3);                              // s @16: length with NUL
      w.raw(std::string_view("hi\0", 3));  // @20..22
      w.u8(0);                             // pad to 24
      u32(2);                              // v count @24
      if (big) w.u8(0xFF).u8(0xFE).u8(0).u8(5);
      else w.u8(0xFE).u8(0xFF).u8(5).u8(0);  // -2, 5
      u32(static_cast<std::uint32_t>(-3));   // t.sec @32
      u32(250000000);                        // t.nanosec @36
      auto v = (*d)->decode(w.bytes);
      QVERIFY2(v.has_value(), v ? "" : v.error().message.c_str());
      std::string json;
      appendJson(*v, json);
      QCOMPARE(json, std::string(R"({"a":7,"b":-1.5,"s":"hi","v":[-2,5],"t":{"sec":-3,"nanosec":250000000}})"));
      auto reader = FieldReader::compile(*d, {"t", "v[1]", "b", "a"});
      QVERIFY2(reader.has_value(), reader ? "" : reader.error().message.c_str());
      std::vector<double> row(4);
      QVERIFY(reader->read(w.bytes, row).has_value());
      QCOMPARE(row[0], -2.75);
      QCOMPARE(row[1], 5.0);
      QCOMPARE(row[2], -1.5);
      QCOMPARE(row[3], 7.0);
    }
    // A representation other than plain CDR is refused, naming it.
    std::vector<std::byte> plCdr = {std::byte{0}, std::byte{3}, std::byte{0}, std::byte{0}};
    auto r = (*d)->decode(plCdr);
    QVERIFY(!r);
    QVERIFY(QString::fromStdString(r.error().message).contains("encapsulation"));
  }

  // Neighbouring numbers of one type are read together (after one bounds check): in any
  // column order, after padding, in either byte order, and never past a cut.
  void fieldReaderReadsNeighbouringNumbersTogether() {
    auto schema = schema::parseDefinition(
        "pkg/msg/R", "uint8 a\nfloat64 x\nfloat64 y\nfloat64 z\nint16 p\nint16 q\nuint8 b\nuint8 c\n",
        schema::Dialect::Ros2);
    QVERIFY(schema.has_value());
    auto d = Decoder::compile(*schema, WireFormat::Cdr);
    QVERIFY(d.has_value());
    for (bool big : {false, true}) {
      WireWriter w;
      auto put = [&](auto v) {
        std::array<std::uint8_t, sizeof v> b;
        std::memcpy(b.data(), &v, sizeof v);
        if (big) std::reverse(b.begin(), b.end());
        for (auto byte : b) w.u8(byte);
      };
      w.u8(0).u8(big ? 0 : 1).u8(0).u8(0);
      w.u8(9);                              // a @0
      for (int i = 0; i < 7; ++i) w.u8(0);  // pad to 8
      put(1.25);                            // x, y, z @8, 16, 24
      put(-2.5);
      put(1e300);
      put(std::int16_t{-7});  // p, q @32, 34
      put(std::int16_t{300});
      w.u8(1).u8(255);  // b, c
      auto reader = FieldReader::compile(*d, {"z", "q", "x", "c", "a", "y", "p", "b"});
      QVERIFY(reader.has_value());
      std::vector<double> row(8);
      QVERIFY(reader->read(w.bytes, row).has_value());
      QCOMPARE(row, (std::vector<double>{1e300, 300, 1.25, 255, 9, -2.5, -7, 1}));
      for (std::size_t cut : {w.bytes.size() - 1, std::size_t{4 + 8 + 16 + 4}, std::size_t{4 + 8 + 23}}) {
        auto r = reader->read(std::span(w.bytes.data(), cut), row);
        QVERIFY2(!r, std::to_string(cut).c_str());
        QVERIFY(QString::fromStdString(r.error().message).contains("too short"));
      }
    }
  }

  void cdrHeaderErrorsShowTheBytesFound() {
    auto s = schema::parseDefinition("pkg/One", "int32 a\n", schema::Dialect::Ros2);
    QVERIFY(s);
    auto d = Decoder::compile(*s, WireFormat::Cdr);
    QVERIFY(d);
    auto message = [&](std::vector<std::byte> bytes) {
      auto r = (*d)->decode(bytes);
      return r ? QString() : QString::fromStdString(r.error().message);
    };
    // 0b 00: no representation identifier at all (a payload without the header).
    QString none = message({std::byte{0x0b}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{1}, std::byte{0},
                            std::byte{0}, std::byte{0}});
    QVERIFY2(none.contains("no CDR encapsulation header") && none.contains("0b 00") && none.contains("offset 0"),
             qPrintable(none));
    // 00 07: XCDR2, named as such.
    QString xcdr2 = message({std::byte{0}, std::byte{7}, std::byte{0}, std::byte{0}, std::byte{1}, std::byte{0},
                             std::byte{0}, std::byte{0}});
    QVERIFY2(xcdr2.contains("00 07") && xcdr2.contains("XCDR2"), qPrintable(xcdr2));
  }

  void leftoverBytesMeanTheDefinitionDoesNotFit() {
    // CDR: up to 3 bytes of closing padding are fine, 4 are not.
    auto s = schema::parseDefinition("pkg/One", "uint8 a\n", schema::Dialect::Ros2);
    auto d = Decoder::compile(*s, WireFormat::Cdr);
    std::vector<std::byte> padded = {std::byte{0}, std::byte{1}, std::byte{0}, std::byte{0},
                                     std::byte{7}, std::byte{0}, std::byte{0}, std::byte{0}};
    QVERIFY((*d)->decode(padded));
    padded.push_back(std::byte{0});
    auto r = (*d)->decode(padded);
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error().message).contains("4 of 9 bytes are left"), r.error().message.c_str());
    // ROS 1: any byte left over.
    auto ros1 = compileOrFail("pkg/One", "uint8 a\n");
    std::vector<std::byte> one = {std::byte{7}};
    QVERIFY(ros1->decode(one));
    one.push_back(std::byte{0});
    QVERIFY(!ros1->decode(one));
  }

  void aRos1TypeWithoutFieldsHasAnEmptyDefinition() {
    // rosbag stores std_msgs/Empty's definition as "": a message of no bytes, not a missing
    // definition. Its zero-byte messages decode; a byte left over is an error.
    auto empty = compileFor("std_msgs/Empty", "ros1", "ros1msg", "");
    QVERIFY2(empty, empty ? "" : empty.error().message.c_str());
    auto v = (*empty)->decode({});
    QVERIFY(v && v->kind == Value::Kind::Struct && v->items.empty());
    std::vector<std::byte> one = {std::byte{1}};
    QVERIFY(!(*empty)->decode(one));
  }

  // Elements that take no bytes (empty messages) are bounded across the whole message, not per
  // array: arrays nested in arrays, each under a per-array cap, still multiply (a fuzzer's hang).
  void emptyElementsAreBoundedAcrossTheMessage() {
    auto d = compileOrFail("pkg/Outer", "pkg/E[] e\nint32 after\n====\nMSG: pkg/E\npkg/F[1000] f\n====\nMSG: pkg/F\n");
    auto outer = [](std::uint32_t n) {
      WireWriter w;
      w.u32(n).put<std::int32_t>(7);
      return w.bytes;
    };
    // 60 + 60 * 1000 elements of no bytes fit in the bound; 100 + 100 * 1000 do not.
    auto fits = d->decode(outer(60));
    QVERIFY2(fits, fits ? "" : fits.error().message.c_str());
    QCOMPARE(fits->items[0].items.size(), std::size_t{60});
    auto over = d->decode(outer(100));
    QVERIFY(!over);
    QVERIFY2(QString::fromStdString(over.error().message).contains("take no bytes"), over.error().message.c_str());
    // The field reader walks CDR arrays element by element: 2^32 - 1 empty ones are refused at once.
    auto s = schema::parseDefinition("pkg/Outer", "pkg/E[] e\nint32 after\n====\nMSG: pkg/E\n", schema::Dialect::Ros2);
    QVERIFY(s);
    auto cdr = Decoder::compile(*s, WireFormat::Cdr);
    QVERIFY(cdr);
    auto reader = FieldReader::compile(*cdr, {"after"});
    QVERIFY(reader);
    WireWriter w;
    w.u32(0x00000100u).u32(0xFFFFFFFFu).put<std::int32_t>(7);  // CDR little-endian header
    std::vector<double> row(1);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!reader->read(w.bytes, row));
    QVERIFY2(clock.elapsed() < 1000, std::to_string(clock.elapsed()).c_str());
  }

  void foreignSchemasThatDoNotBuildSayWhy() {
    // Protobuf: not a descriptor set; one whose message name is not an identifier (libprotobuf's
    // reason in the error, not on stderr); a root the set does not hold.
    auto junk = compileFor("a.B", "protobuf", "protobuf", "\xff\xff\xff");
    QVERIFY(!junk);
    QVERIFY2(QString::fromStdString(junk.error().message).contains("not a serialized FileDescriptorSet"),
             junk.error().message.c_str());
    google::protobuf::FileDescriptorSet set;
    auto* file = set.add_file();
    file->set_name("bad.proto");
    file->set_package("a");
    file->add_message_type()->set_name("Bad-Name");
    auto bad = compileFor("a.Bad-Name", "protobuf", "protobuf", set.SerializeAsString());
    QVERIFY(!bad);
    QVERIFY2(QString::fromStdString(bad.error().message).contains("not a valid identifier"),
             bad.error().message.c_str());
    file->mutable_message_type(0)->set_name("Good");
    auto missing = compileFor("a.Other", "protobuf", "protobuf", set.SerializeAsString());
    QVERIFY(!missing);
    QVERIFY2(QString::fromStdString(missing.error().message).contains("no message 'a.Other'"),
             missing.error().message.c_str());
    auto good = compileFor("a.Good", "protobuf", "protobuf", set.SerializeAsString());
    QVERIFY(good);
    QVERIFY((*good)->decode({}));  // an empty message is all defaults
    // JSON Schema: not JSON; a $ref to nothing; a schema whose $refs fan out is bounded.
    QVERIFY(!compileFor("t", "json", "jsonschema", "{"));
    auto dangling = compileFor("t", "json", "jsonschema", "{\"properties\":{\"a\":{\"$ref\":\"#/$defs/X\"}}}");
    QVERIFY(!dangling);
    QVERIFY2(QString::fromStdString(dangling.error().message).contains("'#/$defs/X' is not defined"),
             dangling.error().message.c_str());
    auto fan =
        compileFor("t", "json", "jsonschema", "{\"properties\":{\"a\":{\"$ref\":\"#\"},\"b\":{\"$ref\":\"#\"}}}");
    QVERIFY(!fan);
    // A message of the wrong kind names the field.
    auto j = compileFor("t", "json", "jsonschema", "{\"properties\":{\"n\":{\"type\":\"integer\"}}}");
    QVERIFY(j);
    std::string text = "{\"n\":\"seven\"}";
    auto v = (*j)->decode(std::as_bytes(std::span(text)));
    QVERIFY(!v);
    QVERIFY2(QString::fromStdString(v.error().message).contains("field 'n': expected an integer, found string"),
             v.error().message.c_str());
  }

  void emptyRos2TypesTakeOneCdrByte() {
    // rosidl: std_msgs/Empty has one uint8 member; Empty[3] takes 3 bytes, then an int32
    // aligned to 4 from the payload start.
    const char* text =
        "std_msgs/Empty[3] e\nint32 after\n"
        "================================================================================\n"
        "MSG: std_msgs/Empty\n";
    auto s = schema::parseDefinition("pkg/WithEmpty", text, schema::Dialect::Ros2);
    QVERIFY(s);
    auto d = Decoder::compile(*s, WireFormat::Cdr);
    WireWriter w;
    w.u8(0).u8(1).u8(0).u8(0).u8(0).u8(0).u8(0).u8(0).put<std::int32_t>(-7);
    auto v = (*d)->decode(w.bytes);
    QVERIFY2(v, v ? "" : v.error().message.c_str());
    QCOMPARE(v->items[1].i, std::int64_t{-7});
    // ROS 1 keeps zero bytes for it.
    auto ros1 = compileOrFail("pkg/WithEmpty", text);
    WireWriter w1;
    w1.put<std::int32_t>(-7);
    auto v1 = ros1->decode(w1.bytes);
    QVERIFY2(v1, v1 ? "" : v1.error().message.c_str());
    QCOMPARE(v1->items[1].i, std::int64_t{-7});
  }

  void fieldReaderReadsRos2ImuLikeTheReferenceReader() {
    QString err;
    auto expected = test::readJsonLines(test::dataPath("ros2/demo.expected.jsonl"), &err);
    QVERIFY2(err.isEmpty(), qPrintable(err));
    auto source = storage::openSource(test::dataPath("ros2/demo_zstd.mcap").toStdString());
    QVERIFY(source.has_value());
    const storage::Connection* imu = nullptr;
    for (const auto& c : (*source)->connections())
      if (c.topic == "/imu") imu = &c;
    QVERIFY(imu);
    auto d = compileFor(imu->type, imu->messageEncoding, imu->schemaEncoding, imu->definition);
    QVERIFY(d.has_value());
    std::vector<std::string> paths = {"header.stamp", "orientation.z", "angular_velocity.y", "linear_acceleration.x",
                                      "orientation_covariance[4]"};
    auto reader = FieldReader::compile(*d, paths);
    QVERIFY2(reader.has_value(), reader ? "" : reader.error().message.c_str());
    std::vector<QJsonObject> imuExpected;
    for (const auto& e : expected)
      if (e["topic"].toString() == "/imu") imuExpected.push_back(e["msg"].toObject());
    std::size_t i = 0;
    auto r = (*source)->readMessages({{imu->id}},
                                     [&](const storage::MessageView& m) {
                                       std::vector<double> row(paths.size());
                                       if (!reader->read(m.bytes, row)) qFatal("read failed");
                                       const QJsonObject& e = imuExpected.at(i++);
                                       QJsonObject stamp = e["header"].toObject()["stamp"].toObject();
                                       if (row[0] != stamp["sec"].toDouble() + stamp["nanosec"].toDouble() * 1e-9)
                                         qFatal("stamp %zu", i);
                                       if (row[1] != e["orientation"].toObject()["z"].toDouble())
                                         qFatal("orientation.z %zu", i);
                                       if (row[2] != e["angular_velocity"].toObject()["y"].toDouble())
                                         qFatal("angular_velocity.y %zu", i);
                                       if (row[3] != e["linear_acceleration"].toObject()["x"].toDouble())
                                         qFatal("acc.x %zu", i);
                                       if (row[4] != e["orientation_covariance"].toArray()[4].toDouble())
                                         qFatal("cov[4] %zu", i);
                                       return true;
                                     },
                                     {});
    QVERIFY(r.has_value());
    QCOMPARE(i, std::size_t{400});
  }

  void serviceEventTopicsDecodeAsTheEventMessage() {
    // rosbag2 Jazzy stores the .srv text for "<pkg>/srv/<Name>_Event" topics.
    auto d =
        compileFor("example_interfaces/srv/AddTwoInts_Event", "cdr", "ros2msg", "int64 a\nint64 b\n---\nint64 sum\n");
    QVERIFY2(d.has_value(), d ? "" : d.error().message.c_str());
    WireWriter w;
    w.u8(0).u8(1).u8(0).u8(0);                                        // CDR little-endian
    w.u8(1).u8(0).u8(0).u8(0);                                        // info.event_type @0, pad
    w.put<std::int32_t>(5).u32(6);                                    // info.stamp @4
    for (int i = 0; i < 16; ++i) w.u8(static_cast<std::uint8_t>(i));  // info.client_gid @12
    w.u32(0);                                                         // pad to 32
    w.put<std::int64_t>(7);                                           // info.sequence_number @32
    w.u32(1).u32(0);                                                  // request: 1 element @40, pad to 48
    w.put<std::int64_t>(2).put<std::int64_t>(3);                      // a @48, b @56
    w.u32(0);                                                         // response: none @64
    auto v = (*d)->decode(w.bytes);
    QVERIFY2(v.has_value(), v ? "" : v.error().message.c_str());
    std::string json;
    appendJson(*v, json);
    QCOMPARE(json, std::string(R"({"info":{"event_type":1,"stamp":{"sec":5,"nanosec":6},)"
                               R"("client_gid":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],"sequence_number":7},)"
                               R"("request":[{"a":2,"b":3}],"response":[]})"));
  }

  void fieldReaderRejectsPathsThatAreNotNumbers() {
    auto d = compileOrFail("pkg/V", "string name\nfloat64[3] p\nInner i\n====\nMSG: pkg/Inner\nint32 x\n");
    for (const char* bad : {"name", "p", "i", "i.y", "nope", "p[x]", "i.x.z", "p[1"}) {
      auto r = FieldReader::compile(d, {bad});
      QVERIFY2(!r, bad);
      QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
      QVERIFY(QString::fromStdString(r.error().message).contains(bad));
    }
  }
};

QTEST_GUILESS_MAIN(TestDecode)
#include "tst_decode.moc"
