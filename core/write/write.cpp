// The writers' table, and every output written under a temporary name beside its final one
// and published (moved into place) only when complete.

#include "write.hpp"

#include "bagscope/build_info.hpp"
#include "core/base/byte_source.hpp"
#include "core/base/output_file.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/builtin_types.hpp"
#include "detail/writers.hpp"

namespace bagscope::write {
namespace fs = std::filesystem;
using compress::Codec;

namespace {

std::unique_ptr<RecordingWriter> mcapWriter(WriterTarget& target, const WriterOptions& o) {
  return detail::makeMcapWriter(std::move(*target.file),
                                {o.mcapProfile, *o.compression, o.chunkBytes ? o.chunkBytes : 4u << 20, false});
}
std::unique_ptr<RecordingWriter> ros1Writer(WriterTarget& target, const WriterOptions& o) {
  return detail::makeRos1Writer(std::move(*target.file), *o.compression, o.chunkBytes ? o.chunkBytes : 768u << 10);
}
std::unique_ptr<RecordingWriter> rosbag2Writer(WriterTarget& target, const WriterOptions& o) {
  return detail::makeRosbag2Writer(target.folder, target.name, o);
}

const std::vector<ContainerInfo>& table() {
  static const std::vector<ContainerInfo> rows = {
      {Container::Mcap,
       "mcap",
       "MCAP file",
       ".mcap",
       "",
       {Codec::Zstd, Codec::Lz4Frame, Codec::None},
       "MCAP",
       mcapWriter},
      {Container::Ros1Bag,
       "bag",
       "ROS 1 bag",
       ".bag",
       "ros1",
       {Codec::None, Codec::Lz4Frame, Codec::Bz2},
       "ROS 1",
       ros1Writer},
      {Container::Rosbag2Mcap,
       "rosbag2",
       "rosbag2 folder (MCAP)",
       "",
       "cdr",
       {Codec::Zstd, Codec::Lz4Frame, Codec::None},
       "rosbag2 (mcap)",
       rosbag2Writer},
      {Container::Rosbag2Db3,
       "rosbag2-db3",
       "rosbag2 folder (SQLite .db3)",
       "",
       "cdr",
       {Codec::None},
       "rosbag2 (sqlite3)",
       rosbag2Writer},
  };
  return rows;
}

// The writer of a container, completing its output at the temporary path; published by finish().
class Published final : public RecordingWriter {
public:
  Published(std::unique_ptr<RecordingWriter> inner, fs::path temp, fs::path final, bool overwrite)
      : temp_(std::move(temp)), inner_(std::move(inner)), final_(std::move(final)), overwrite_(overwrite) {}
  Result<ChannelId> addConnection(const storage::Connection& c) override { return inner_->addConnection(c); }
  Result<bool> addExtras(const storage::FileExtras& e) override { return inner_->addExtras(e); }
  Result<void> write(ChannelId ch, std::int64_t t, std::span<const std::byte> bytes) override {
    return inner_->write(ch, t, bytes);
  }
  Result<void> finish() override {
    if (auto r = inner_->finish(); !r) return r;
    inner_.reset();
    auto r = publish(temp_.path(), final_, overwrite_, storage::rosbag2RecordingFiles);
    temp_.release();  // published, or removed by publish
    return r;
  }
  std::uint64_t bytesWritten() const override { return inner_ ? inner_->bytesWritten() : 0; }

private:
  TemporaryPath temp_;  // before inner_: removed after the writer has closed its files (Windows)
  std::unique_ptr<RecordingWriter> inner_;
  fs::path final_;
  bool overwrite_;
};

}  // namespace

std::span<const ContainerInfo> containers() { return table(); }

const ContainerInfo& containerInfo(Container container) {
  for (const auto& row : table())
    if (row.container == container) return row;
  return table().front();
}

Result<Container> containerFromName(std::string_view name) {
  for (const auto& row : table())
    if (row.name == name) return row.container;
  return makeError(ErrorCode::InvalidArgument,
                   "unknown recording format '" + std::string(name) + "' (one of " + containerNames() + ")");
}

Result<RosDistro> rosDistroFromName(std::string_view name) {
  if (name == "jazzy") return RosDistro::Jazzy;
  if (name == "humble") return RosDistro::Humble;
  return makeError(ErrorCode::InvalidArgument, "unknown ROS 2 release '" + std::string(name) + "' (humble or jazzy)");
}

std::string containerNames() {
  std::string names;
  for (const auto& row : table()) names += (names.empty() ? "" : ", ") + std::string(row.name);
  return names;
}

std::optional<Container> containerForName(const fs::path& path) {
  auto ext = path.extension().string();
  for (const auto& row : table())
    if (!row.extension.empty() && ext == row.extension) return row.container;
  return std::nullopt;
}

Container containerOf(const session::Session& session) {
  if (session.sourceCount() == 0) return Container::Mcap;
  const std::string& format = session.sourceInfo(0).format;
  for (const auto& row : table())
    if (format.starts_with(row.readAs)) return row.container;
  return Container::Mcap;
}

namespace detail {

std::string connectionKey(const storage::Connection& c) {
  std::string key;
  for (const std::string* part : {&c.topic, &c.type, &c.messageEncoding, &c.schemaEncoding, &c.definition, &c.md5sum,
                                  &c.callerid, &c.offeredQos, &c.typeHash})
    key += std::to_string(part->size()) + ':' + *part;
  return key + (c.latching ? "L" : "-");
}

std::string libraryName() { return std::string("bagscope ") + build::version; }

}  // namespace detail

Result<std::unique_ptr<RecordingWriter>> openWriter(const fs::path& path, const WriterOptions& options) {
  const auto& info = containerInfo(options.container);
  Codec codec = options.compression.value_or(info.codecs.front());
  if (std::find(info.codecs.begin(), info.codecs.end(), codec) == info.codecs.end())
    return fileError(
        ErrorCode::InvalidArgument,
        std::string("a ") + std::string(info.label) + " cannot be compressed with " + compress::codecName(codec),
        utf8(path));
  if (options.distro != RosDistro::Jazzy && !info.extension.empty())  // only a rosbag2 folder differs
    return fileError(ErrorCode::InvalidArgument,
                     "a ROS 2 release other than Jazzy shapes a rosbag2 folder, not a " + std::string(info.label),
                     utf8(path));
  std::error_code ec;
  fs::path parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!fs::is_directory(parent, ec)) return fileError(ErrorCode::Write, "its folder does not exist", utf8(path));
  if (auto r = checkReplaceable(path, info.extension.empty(), options.overwrite, storage::rosbag2RecordingFiles); !r)
    return r.error();
  fs::path temp = temporaryBeside(path);
  WriterTarget target;
  target.name = utf8(path.filename());
  if (info.extension.empty()) {  // a folder
    if (!fs::create_directory(temp, ec))
      return fileError(ErrorCode::Write, "cannot create a folder here: " + systemErrorText(ec), utf8(path));
    target.folder = temp;
  } else {
    auto file = OutputFile::create(temp, utf8(path));
    if (!file) return file.error();
    target.file = std::move(file).value();
  }
  WriterOptions decided = options;
  decided.compression = codec;
  std::unique_ptr<RecordingWriter> inner = info.make(target, decided);
  return std::unique_ptr<RecordingWriter>(std::make_unique<Published>(std::move(inner), temp, path, options.overwrite));
}

Result<EncodedTopic> encodedTopic(const std::string& topic, const std::string& type, const std::string& definition,
                                  Container container, std::span<const fs::path> msgPaths) {
  const bool ros1 = containerInfo(container).encoding == "ros1";
  EncodedTopic out;
  storage::Connection& c = out.connection;
  c.topic = topic;
  c.type = type;
  c.messageEncoding = ros1 ? "ros1" : "cdr";
  c.schemaEncoding = ros1 ? "ros1msg" : "ros2msg";
  c.definition = definition;
  if (c.definition.empty() && ros1)
    return makeError(ErrorCode::InvalidArgument, "a ROS 1 bag needs the ROS 1 definition of '" + type + "'");
  if (c.definition.empty()) {
    auto found = schema::findDefinition(type, msgPaths);
    if (!found)
      return makeError(ErrorCode::MissingDefinition,
                       "'" + type + "' is no standard ROS 2 interface and no message folder defines it");
    c.definition = std::move(*found);
  }
  auto codec = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition, msgPaths);
  if (!codec) return codec.error();
  out.codec = std::move(codec).value();
  if (ros1) c.md5sum = schema::ros1Md5(out.codec->schema());
  else c.typeHash = schema::typeHash(out.codec->schema());
  return out;
}

std::uint64_t detail::outputSize(const fs::path& output) {
  std::error_code ec;
  if (!fs::is_directory(output, ec)) return fs::file_size(output, ec);
  std::uint64_t bytes = 0;
  for (const auto& e : fs::directory_iterator(output, ec)) bytes += e.file_size(ec);
  return bytes;
}

}  // namespace bagscope::write
