// core/schema: the .msg language as ROS 1 bags store it.

#include <QtTest>

#include "core/schema/schema.hpp"

using namespace bagscope;
using namespace bagscope::schema;

namespace {

// The definition python3-rosbag stores for geometry_msgs/PoseStamped (abridged comments).
constexpr const char* kPoseStamped = R"(# A Pose with reference coordinate frame and timestamp
Header header
Pose pose

================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id

================================================================================
MSG: geometry_msgs/Pose
Point position
Quaternion orientation

================================================================================
MSG: geometry_msgs/Point
float64 x
float64 y
float64 z

================================================================================
MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
)";

const Field& fieldNamed(const MessageType& t, const std::string& name) {
  for (const auto& f : t.fields)
    if (f.name == name) return f;
  throw std::runtime_error("no field " + name);
}

}  // namespace

class TestSchema : public QObject {
  Q_OBJECT

private slots:
  void resolvesHeaderAndPackageRelativeTypes() {
    auto s = parseDefinition("geometry_msgs/PoseStamped", kPoseStamped, Dialect::Ros1);
    QVERIFY2(s.has_value(), s ? "" : s.error().message.c_str());
    const MessageType& root = *(*s)->root;
    QCOMPARE(root.name, std::string("geometry_msgs/PoseStamped"));
    QCOMPARE(root.fields.size(), std::size_t{2});
    QCOMPARE(root.fields[0].message->name, std::string("std_msgs/Header"));
    const MessageType& pose = *root.fields[1].message;
    QCOMPARE(pose.name, std::string("geometry_msgs/Pose"));
    QCOMPARE(pose.fields[0].message->name, std::string("geometry_msgs/Point"));
    QCOMPARE(pose.fields[1].message->fields.size(), std::size_t{4});
    QCOMPARE(root.fields[0].message->fields[1].type, Primitive::Time);
  }

  void parsesArraysConstantsAndComments() {
    const char* text =
        "uint8 MODE_AUTO=1   # trailing comment\n"
        "string GREETING=hello # not a comment in a string constant\n"
        "int32 NEG = -5\n"
        "float64[9] covariance\n"
        "int32[] counters   # unbounded\n"
        "uint8[] blob\n"
        "char[4] code\n"
        "byte raw\n"
        "duration timeout\n";
    auto s = parseDefinition("pkg/T", text, Dialect::Ros1);
    QVERIFY2(s.has_value(), s ? "" : s.error().message.c_str());
    const MessageType& t = *(*s)->root;
    QCOMPARE(t.constants.size(), std::size_t{3});
    QCOMPARE(t.constants[0].name, std::string("MODE_AUTO"));
    QCOMPARE(t.constants[0].value, std::string("1"));
    QCOMPARE(t.constants[1].value, std::string("hello # not a comment in a string constant"));
    QCOMPARE(t.constants[2].name, std::string("NEG"));
    QCOMPARE(t.constants[2].value, std::string("-5"));
    QCOMPARE(t.fields.size(), std::size_t{6});
    const Field& cov = fieldNamed(t, "covariance");
    QCOMPARE(cov.array, ArrayKind::Fixed);
    QCOMPARE(cov.arrayLength, 9u);
    QCOMPARE(fieldNamed(t, "counters").array, ArrayKind::Dynamic);
    QVERIFY(fieldNamed(t, "blob").isByteArray());
    QVERIFY(fieldNamed(t, "code").isByteArray());          // ROS 1 char is uint8
    QCOMPARE(fieldNamed(t, "raw").type, Primitive::Int8);  // ROS 1 byte is int8
    QCOMPARE(fieldNamed(t, "timeout").type, Primitive::Duration);
  }

  void readsRos2BoundsAndDefaults() {
    auto s = parseDefinition("pkg/msg/T", "string<=8 name \"x\"\nint32[<=4] counters\nint32 level 3\n", Dialect::Ros2);
    QVERIFY2(s.has_value(), s ? "" : s.error().message.c_str());
    const MessageType& t = *(*s)->root;
    QCOMPARE(t.name, std::string("pkg/T"));
    QCOMPARE(t.fields[0].stringBound, 8u);
    QCOMPARE(t.fields[1].array, ArrayKind::Bounded);
    QCOMPARE(t.fields[1].arrayLength, 4u);
    QCOMPARE(t.fields[2].name, std::string("level"));
  }

  void missingDependencyNamesTypeAndLine() {
    auto s = parseDefinition("pkg/T", "int32 a\nWheel[] wheels\n", Dialect::Ros1);
    QVERIFY(!s);
    QCOMPARE(s.error().code, ErrorCode::Schema);
    QString msg = QString::fromStdString(s.error().message);
    QVERIFY2(msg.contains("line 2") && msg.contains("Wheel") && msg.contains("pkg/T"), qPrintable(msg));
  }

  void selfContainingTypeIsRejected() {
    const char* text =
        "Node child\n"
        "================================================================================\n"
        "MSG: pkg/Node\n"
        "Node[] children\n";
    auto s = parseDefinition("pkg/Tree", text, Dialect::Ros1);
    QVERIFY(!s);
    QVERIFY(QString::fromStdString(s.error().message).contains("contains itself"));
  }

  void malformedLinesAreErrors() {
    QVERIFY(!parseDefinition("p/T", "int32\n", Dialect::Ros1));
    QVERIFY(!parseDefinition("p/T", "int32[x] a\n", Dialect::Ros1));
    QVERIFY(!parseDefinition("p/T", "int32[3 a\n", Dialect::Ros1));
    QVERIFY(!parseDefinition("p/T", "int32 a\n====\nnot a msg line\n", Dialect::Ros1));
  }

  void emptyDefinitionIsAnEmptyMessage() {
    auto s = parseDefinition("std_msgs/Empty", "", Dialect::Ros1);
    QVERIFY(s.has_value());
    QVERIFY((*s)->root->fields.empty());
  }

  void ros2EmptyTypesGetRosidlsPlaceholderMember() {
    auto s = parseDefinition("std_msgs/msg/Empty", "", Dialect::Ros2);
    QVERIFY(s);
    QCOMPARE((*s)->root->fields.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString((*s)->root->fields[0].name), QStringLiteral("structure_needs_at_least_one_member"));
    auto c = parseDefinition("pkg/msg/Consts", "uint8 A=1\n", Dialect::Ros2);
    QCOMPARE((*c)->root->fields.size(), std::size_t{1});
    QCOMPARE((*c)->root->constants.size(), std::size_t{1});
  }

  void parsesIdlAsRosidlWritesIt() {
    // Nested modules, an enum (32-bit), several declarators, wstring, a bounded wstring,
    // fixed arrays on the member, a bounded sequence of strings, relative names, comments.
    const char* idl = R"(
/* block
   comment */
module outer { module inner {
  enum Mode { IDLE, @value(5) RUN };
  struct Leaf { float x, y; };
}; };
module pkg {
  module msg {
    module Thing_Constants { const int32 LIMIT = -4; const double SCALE = 1.5e-3; };
    struct Thing {
      outer::inner::Mode mode;
      ::outer::inner::Leaf leaf;
      wstring wide;
      wstring<8> short_wide;
      int16 grid[4];
      sequence<string<10>, 3> names;
      @key uint64 id;
    };
  };
};
)";
    auto s = parseIdl("pkg/msg/Thing", idl);
    QVERIFY2(s, s ? "" : s.error().message.c_str());
    const MessageType& t = *(*s)->root;
    QCOMPARE(QString::fromStdString(t.name), QStringLiteral("pkg/Thing"));
    QCOMPARE(t.fields.size(), std::size_t{7});
    QCOMPARE(t.fields[0].type, Primitive::UInt32);
    QCOMPARE(t.fields[1].type, Primitive::Message);
    QCOMPARE(QString::fromStdString(t.fields[1].message->name), QStringLiteral("outer/inner/Leaf"));
    QCOMPARE(t.fields[1].message->fields.size(), std::size_t{2});
    QCOMPARE(t.fields[2].type, Primitive::String);
    QCOMPARE(t.fields[3].stringBound, 8u);
    QCOMPARE(t.fields[4].array, ArrayKind::Fixed);
    QCOMPARE(t.fields[4].arrayLength, 4u);
    QCOMPARE(t.fields[5].array, ArrayKind::Bounded);
    QCOMPARE(t.fields[5].arrayLength, 3u);
    QCOMPARE(t.fields[5].stringBound, 10u);
    QCOMPARE(t.fields[6].type, Primitive::UInt64);
    QCOMPARE(t.constants.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(t.constants[0].value), QStringLiteral("-4"));
  }

  void badIdlIsAnErrorNamingTheLine() {
    struct Case {
      const char* text;
      const char* says;
    };
    const Case cases[] = {
        {"module a { struct T { b::Missing m; }; };", "'b::Missing' is used but not defined"},
        {"module a { struct T { a::T self; }; };", "contains itself"},
        {"module a { struct T { int32 x; };", "expected"},
        {"module a { union U switch (long) { case 1: long x; }; };", "'union' definitions are not supported"},
        {"module a { struct T { string s = \"x; }; };", "not closed"},
        {"module a { struct T { long double x; }; };", "long double"},
        {"module a { struct T { int32 x[2][3]; }; };", "arrays of arrays"},
    };
    for (const auto& c : cases) {
      auto s = parseIdl("a/T", c.text);
      QVERIFY2(!s, c.text);
      QVERIFY2(QString::fromStdString(s.error().message).contains(c.says), s.error().message.c_str());
      if (std::string_view(c.says) != "contains itself")  // a property of the types, not of a line
        QVERIFY2(QString::fromStdString(s.error().message).contains("line 1"), s.error().message.c_str());
    }
    // Nesting is bounded, not the stack.
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += "module m { ";
    auto s = parseIdl("m/T", deep);
    QVERIFY(!s);
    QVERIFY2(QString::fromStdString(s.error().message).contains("deeper than"), s.error().message.c_str());
  }
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
