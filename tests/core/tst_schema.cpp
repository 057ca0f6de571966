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
    QVERIFY(fieldNamed(t, "code").isByteArray());  // ROS 1 char is uint8
    QCOMPARE(fieldNamed(t, "raw").type, Primitive::Int8);  // ROS 1 byte is int8
    QCOMPARE(fieldNamed(t, "timeout").type, Primitive::Duration);
  }

  void readsRos2BoundsAndDefaults() {
    auto s = parseDefinition("pkg/msg/T", "string<=8 name \"x\"\nint32[<=4] counters\nint32 level 3\n",
                             Dialect::Ros2);
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
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
