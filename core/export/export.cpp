// The export job: chooses topics, names files, checks for collisions, then writes, on every
// core for one-file-per-message formats and in time order for one file per topic.

#include "export.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <set>

#include "core/base/digest.hpp"
#include "core/base/json_text.hpp"
#include "core/base/output_file.hpp"
#include "detail/topic_writers.hpp"
#include "table.hpp"

namespace bagscope::exporters {
namespace fs = std::filesystem;
using decode::Value;
using session::Message;
using session::Session;
using session::TopicId;

namespace {

enum class Kind : std::uint8_t { Cloud, Scan, Image, Compressed, Video, Other };

Kind kindOf(const std::string& type) {
  switch (sensors::kindOf(type)) {
    case sensors::SensorKind::PointCloud: return Kind::Cloud;
    case sensors::SensorKind::LaserScan: return Kind::Scan;
    case sensors::SensorKind::Image: return Kind::Image;
    case sensors::SensorKind::CompressedImage: return Kind::Compressed;
    case sensors::SensorKind::Video: return Kind::Video;
    default: return Kind::Other;
  }
}

}  // namespace

Result<void> checkNameTemplate(std::string_view nameTemplate) {
  fs::path p = fs::u8path(std::string(nameTemplate));
  auto refuse = [&](const char* why) {
    return makeError(ErrorCode::InvalidArgument, "the file name template '" + std::string(nameTemplate) + "' " + why +
                                                     " (it may only make folders inside the output folder)");
  };
  if (p.is_absolute() || p.has_root_name() || p.has_root_directory()) return refuse("is absolute");
  for (const auto& part : p)
    if (part == "..") return refuse("goes up with '..'");
  return {};
}

std::string safeFileNameComponent(std::string_view value) {
  std::string s;
  for (char ch : value) {
    auto c = static_cast<unsigned char>(ch);
    bool bad = c < 0x20 || c == 0x7F || std::string_view("/\\<>:\"|?*").find(ch) != std::string_view::npos;
    s += bad ? '_' : ch;
  }
  constexpr std::size_t kMaxBytes = 200;
  if (s.size() > kMaxBytes) {
    std::size_t cut = kMaxBytes;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
    s.resize(cut);
  }
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.back() = '_';  // Windows drops them
  if (s.empty()) return "_";
  // CON, PRN, AUX, NUL, COM1-9, LPT1-9, with any extension, in any case.
  std::string stem = s.substr(0, s.find('.'));
  for (auto& c : stem) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  bool reserved =
      stem == "CON" || stem == "PRN" || stem == "AUX" || stem == "NUL" ||
      (stem.size() == 4 && (stem.starts_with("COM") || stem.starts_with("LPT")) && stem[3] >= '1' && stem[3] <= '9');
  if (reserved || s.front() == '.') s.insert(s.begin(), '_');  // also "." and ".." (dots only)
  return s;
}

namespace {

std::string topicForNames(const std::string& topic) {
  std::string s = topic;
  while (!s.empty() && s.front() == '/') s.erase(s.begin());
  return safeFileNameComponent(s.empty() ? "topic" : s);
}

// The names of the topics to export as `{topic}` writes them: readable ('/' as '_'). Where the
// default names would give two topics one file (/imu/data and /imu_data, or /tf of two types),
// each of those gets a suffix that tells it apart: "~" and its type when one name has several
// types, "~" and 8 hex digits of a SHA-256 of its name when names differ.
std::map<TopicId, std::string> topicNamesForFiles(const Session& s, const std::vector<TopicId>& targets,
                                                  bool disambiguate) {
  std::map<TopicId, std::string> names;
  std::map<std::string, std::vector<TopicId>> byName;
  for (TopicId t : targets) {
    names[t] = topicForNames(s.topics()[t].name);
    byName[names[t]].push_back(t);
  }
  if (!disambiguate) return names;
  for (const auto& [name, group] : byName) {
    if (group.size() < 2) continue;
    std::set<std::string> distinctNames;
    for (TopicId t : group) distinctNames.insert(s.topics()[t].name);
    for (TopicId t : group) {
      const auto& topic = s.topics()[t];
      std::string suffix;
      if (distinctNames.size() > 1) suffix += "~" + sha256Hex(std::as_bytes(std::span(topic.name))).substr(0, 8);
      bool typed =
          std::count_if(group.begin(), group.end(), [&](TopicId o) { return s.topics()[o].name == topic.name; }) > 1;
      if (typed) {
        std::string type = topic.type;
        std::replace(type.begin(), type.end(), '/', '-');
        suffix += "~" + safeFileNameComponent(type);
      }
      names[t] = name + suffix;
    }
  }
  return names;
}

std::string expand(const std::string& pattern, const std::string& bag, const std::string& topic, std::uint64_t index,
                   std::int64_t stampNs, std::int64_t logTimeNs, const char* ext) {
  char padded[32];
  std::snprintf(padded, sizeof padded, "%06llu", static_cast<unsigned long long>(index));
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    auto put = [&](std::string_view key, const std::string& value) {
      if (pattern.compare(i, key.size(), key) != 0) return false;
      out += value;
      i += key.size();
      return true;
    };
    if (put("{bag}", safeFileNameComponent(bag)) || put("{topic}", topic) || put("{index}", padded) ||
        put("{stamp_ns}", std::to_string(stampNs)) || put("{log_time_ns}", std::to_string(logTimeNs)) ||
        put("{ext}", ext))
      continue;
    out += pattern[i++];
  }
  return out;
}

// A cloud from a LaserScan: x, y, z, intensity as float32.
struct ScanCloud {
  std::vector<sensors::ScanPoint> points;
  sensors::PointCloud cloud;
};

ScanCloud scanAsCloud(std::vector<sensors::ScanPoint> points, const sensors::Header& header) {
  ScanCloud s{std::move(points), {}};
  auto& c = s.cloud;
  c.header = header;
  c.height = 1;
  c.width = static_cast<std::uint32_t>(s.points.size());
  c.pointStep = 16;
  c.rowStep = 16 * c.width;
  c.dense = true;
  for (std::uint32_t i = 0; i < 4; ++i)
    c.fields.push_back({std::string(i == 3 ? "intensity" : std::string(1, static_cast<char>('x' + i))), 4 * i,
                        sensors::PointType::Float32, 1});
  c.data = std::as_bytes(std::span(s.points));
  return s;
}

// x, y, z of a copy of the cloud's data moved by `move` (into another frame, onto other axes).
template <typename Move>
Result<void> transformCloud(sensors::PointCloud& cloud, std::vector<std::byte>& storage, Move&& move) {
  const auto* fx = cloud.find("x");
  const auto* fy = cloud.find("y");
  const auto* fz = cloud.find("z");
  if (!fx || !fy || !fz || fx->type != fy->type || fx->type != fz->type ||
      (fx->type != sensors::PointType::Float32 && fx->type != sensors::PointType::Float64) || cloud.bigEndian)
    return fileError(ErrorCode::Unsupported, "only clouds with little-endian float x, y, z can be transformed");
  storage.assign(cloud.data.begin(), cloud.data.end());
  cloud.data = storage;
  bool f32 = fx->type == sensors::PointType::Float32;
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    auto* p = const_cast<std::byte*>(cloud.point(i));
    auto get = [&](std::uint32_t off) {
      if (f32) {
        float v;
        std::memcpy(&v, p + off, 4);
        return static_cast<double>(v);
      }
      double v;
      std::memcpy(&v, p + off, 8);
      return v;
    };
    auto q = move(std::array<double, 3>{get(fx->offset), get(fy->offset), get(fz->offset)});
    std::uint32_t offs[] = {fx->offset, fy->offset, fz->offset};
    for (int k = 0; k < 3; ++k) {
      if (f32) {
        auto v = static_cast<float>(q[k]);
        std::memcpy(p + offs[k], &v, 4);
      } else {
        std::memcpy(p + offs[k], &q[k], 8);
      }
    }
  }
  return {};
}

struct Target {
  TopicId topic;
  Kind kind;
  bool perMessage;  // a file per message (frames), else one per topic (streams)
};

// The topics to export: named ones (each must exist and suit the format), else every topic
// the format takes.
Result<std::vector<Target>> chooseTopics(const Session& s, const ExportOptions& o) {
  std::vector<Target> out;
  auto topics = s.topics();
  if (o.topics.empty()) {
    for (TopicId t = 0; t < topics.size(); ++t) {
      // A format made for some kinds takes those (a LaserScan only when named); CSV everything.
      bool wanted =
          formatInfo(o.format).kinds == 0 ||
          (madeFor(o.format, topics[t].type) && sensors::kindOf(topics[t].type) != sensors::SensorKind::LaserScan);
      if (wanted && topics[t].messageCount > 0)
        out.push_back({t, kindOf(topics[t].type), filePerMessage(o.format, topics[t].type)});
    }
    if (out.empty())
      return fileError(ErrorCode::InvalidArgument,
                       std::string("no topic of this recording can be exported as ") + formatName(o.format));
    return out;
  }
  for (const auto& name : o.topics) {
    bool found = false;
    for (TopicId t = 0; t < topics.size(); ++t) {
      if (topics[t].name != name) continue;
      found = true;
      if (!accepts(o.format, topics[t].type))
        return fileError(ErrorCode::InvalidArgument,
                         "topic " + name + " (" + topics[t].type + ") cannot be exported as " + formatName(o.format));
      out.push_back({t, kindOf(topics[t].type), filePerMessage(o.format, topics[t].type)});
    }
    if (!found && !o.allowMissingTopics)
      return fileError(ErrorCode::InvalidArgument, "the recording has no topic " + name);
  }
  return out;
}

// One output file, planned before anything is written.
struct Planned {
  TopicId topic;
  std::size_t row;  // in the topic's time range (every message; --every applied)
  std::uint64_t index;
  std::int64_t logTimeNs, stampNs;
  fs::path path;
};

// A frame_id as /tf names it: ROS 1 drivers may write "/laser", tf2 frames have no slash.
std::string tfFrameName(const std::string& frameId) {
  return !frameId.empty() && frameId[0] == '/' ? frameId.substr(1) : frameId;
}

// A topic's first message, decoded, with its log time; none when it is empty or its first
// message does not read or decode.
struct FirstMessage {
  decode::Value value;
  std::int64_t logTimeNs;
};
std::optional<FirstMessage> firstMessage(const Session& s, TopicId topic) {
  if (s.index(topic).empty()) return std::nullopt;
  auto m = s.read(topic, 0);
  if (!m) return std::nullopt;
  auto d = s.decoder(*m->connection);
  if (!d) return std::nullopt;
  auto v = (*d)->decode(m->bytes);
  if (!v) return std::nullopt;
  return FirstMessage{std::move(v).value(), m->logTimeNs};
}

// The sensor frame of the first message of each exported topic, and camera intrinsics from
// the camera_info beside an image topic, for the manifest.
void describeSensors(const Session& s, const std::vector<Target>& targets, const sensors::TfBuffer& staticTf,
                     ExportReport& report) {
  auto topics = s.topics();
  for (const auto& t : targets) {
    auto first = firstMessage(s, t.topic);
    if (!first) continue;
    auto h = sensors::headerOf(first->value);
    if (h && !h->frameId.empty() && !staticTf.empty()) {
      std::string frame = tfFrameName(h->frameId);
      // The root of the static tree above the sensor (base_link, usually).
      for (const auto& candidate :
           {std::string("base_link"), std::string("base_footprint"), std::string("map"), std::string("odom")})
        if (auto tf = staticTf.lookup(candidate, frame, h->stampNs)) {
          report.frames[frame] = {candidate, *tf};
          break;
        }
    }
    if (t.kind != Kind::Image && t.kind != Kind::Compressed) continue;
    // camera_info in the image topic's namespace or one above it.
    std::string ns = topics[t.topic].name;
    for (int up = 0; up < 3 && !ns.empty(); ++up) {
      ns = ns.substr(0, ns.rfind('/'));
      auto info = s.findTopic(ns + "/camera_info");
      if (!info || s.index(*info).empty()) continue;
      auto im = firstMessage(s, *info);
      if (!im) break;
      if (auto ci = sensors::readCameraInfo(im->value)) report.cameraInfo[topics[t.topic].name] = *ci;
      break;
    }
  }
}

// Why a message was passed over, as the summary counts it: what the error says when it is
// about the request (a transform, a field the cloud lacks), not the data.
std::string skipReason(const Error& e) {
  if (e.code == ErrorCode::Unsupported) return "not supported";
  if (e.code == ErrorCode::InvalidArgument) return e.message;
  return "message cannot be decoded";
}

// Before anything is written: the target frame is one /tf names, and each cloud topic's
// first message can be moved into it (the usual reason a whole export would be skipped).
Result<void> checkTargetFrame(const Session& s, const std::vector<Target>& targets, const sensors::TfBuffer& tf,
                              const std::string& target) {
  auto frames = tf.frames();
  if (!std::binary_search(frames.begin(), frames.end(), target)) {
    std::string known;
    for (const auto& f : frames) known += (known.empty() ? "" : ", ") + f;
    return makeError(
        ErrorCode::InvalidArgument,
        "the target frame '" + target + "' is not a frame of the recording's transforms" +
            (known.empty() ? std::string(" (the recording has no transforms)") : " (its frames: " + known + ")"));
  }
  auto topics = s.topics();
  for (const auto& t : targets) {
    if (t.kind != Kind::Cloud && t.kind != Kind::Scan) continue;
    auto first = firstMessage(s, t.topic);
    if (!first) continue;  // what cannot be read is counted where the export reads it
    auto h = sensors::headerOf(first->value);
    if (!h) continue;
    if (auto r = tf.lookup(target, tfFrameName(h->frameId), h->stampNs ? h->stampNs : first->logTimeNs); !r)
      return makeError(ErrorCode::InvalidArgument,
                       topics[t.topic].name + " cannot be moved into '" + target + "': " + r.error().message);
  }
  return {};
}

class Exporter {
public:
  Exporter(const Session& s, const std::string& bag, const ExportOptions& o, ExportReport& r, StopToken stop)
      : s_(s), bag_(bag), o_(o), report_(r), stop_(std::move(stop)) {}

  Result<void> run(const ProgressFn& progress);

private:
  // A file that could not be written: said as data, so that front ends need not match the text.
  void unwritable(const std::string& detail) {
    skip("file cannot be written", detail);
    std::lock_guard lock(mutex_);
    report_.outputFailed = true;
  }
  void skip(const std::string& why, const std::string& detail = {}) {
    std::lock_guard lock(mutex_);
    ++report_.skipped[why];
    if (!detail.empty() && report_.errors.size() < 100 &&
        std::find(report_.errors.begin(), report_.errors.end(), detail) == report_.errors.end())
      report_.errors.push_back(detail);
  }
  void skipUndecodable(const std::string& topic, const Error& why) {
    skip("no decoder for the type", topic + ": " + why.describe());
    std::lock_guard lock(mutex_);
    if (why.code == ErrorCode::MissingDefinition) ++report_.missingDefinitions;
  }
  void wrote(WrittenFile f) {
    std::lock_guard lock(mutex_);
    report_.bytes += f.bytes;
    report_.files.push_back(std::move(f));
  }
  // The files to write: one per message (frames) or per topic (streams).
  struct Plan {
    std::vector<Planned> frames;
    std::vector<std::pair<Target, fs::path>> streams;
    std::map<std::pair<TopicId, std::size_t>, std::size_t> frameAt;  // (topic, row) -> frame
    session::Selection frameTopics;                                  // the frames' topics and range
    std::map<TopicId, std::string> topicNames;                       // what {topic} writes for each
    std::set<TopicId> video;  // topics whose frames are decoded in order (writeVideoFrames)
  };
  struct Progress {
    std::size_t work;  // files to write
    ProgressFn report;
    std::atomic<std::size_t> count{0};
  };
  Result<Plan> planFiles(const std::vector<Target>& targets);
  Result<void> readFrameStamps(Plan& plan);
  Result<void> checkNames(const Plan& plan);
  Result<void> writeFrames(const Plan& plan, Progress& done);
  Result<void> writeVideoFrames(const Plan& plan, const Target& t, Progress& done);
  Result<void> writeStreams(const Plan& plan, Progress& done);
  Result<void> writeFrame(const Planned& p, const Message& m);
  Result<void> writeStream(const Target& t, const fs::path& path, const ProgressFn& progress);
  Result<std::string> frameBytes(const Planned& p, const Value& v, Kind kind, std::int64_t& stampNs);

  const Session& s_;
  std::string bag_;
  const ExportOptions& o_;
  ExportReport& report_;
  StopToken stop_;
  std::mutex mutex_;
  std::atomic<bool> writeFailed_{false};  // a disk full or a refused write ends the export
  sensors::TfBuffer tf_;
  std::optional<AxisRemap> axes_;           // o_.axes, parsed
  std::map<TopicId, std::string> layouts_;  // first cloud layout per topic
};

Result<std::string> Exporter::frameBytes(const Planned& p, const Value& v, Kind kind, std::int64_t& stampNs) {
  const std::string& topic = s_.topics()[p.topic].name;
  if (kind == Kind::Image || kind == Kind::Compressed) {
    const ImageFileWriter& still = formatInfo(o_.format).image;
    sensors::Image image;
    if (kind == Kind::Compressed) {
      auto c = sensors::readCompressedImage(v);
      BAGSCOPE_TRY(c);
      stampNs = c->header.stampNs;
      // Already in the wanted format: the original bytes, untouched.
      if (still.keepsCodec && c->codec == still.keepsCodec)
        return std::string(reinterpret_cast<const char*>(c->bytes.data()), c->bytes.size());
      auto decoded = sensors::decodeCompressed(*c);
      BAGSCOPE_TRY(decoded);
      image = std::move(decoded).value();
    } else {
      auto img = sensors::readImage(v);
      BAGSCOPE_TRY(img);
      stampNs = img->header.stampNs;
      image = std::move(img->image);
    }
    return sensors::encodeImage(image, still.still, o_.jpegQuality);
  }
  // Clouds (and scans as clouds).
  ScanCloud scan;
  sensors::PointCloud cloud;
  if (kind == Kind::Scan) {
    auto pts = sensors::laserScanPoints(v);
    BAGSCOPE_TRY(pts);
    scan = scanAsCloud(std::move(pts).value(), sensors::headerOf(v).value_or(sensors::Header{}));
    cloud = scan.cloud;
  } else {
    auto c = sensors::readPointCloud(v);
    BAGSCOPE_TRY(c);
    cloud = std::move(c).value();
    std::lock_guard lock(mutex_);
    auto [it, first] = layouts_.try_emplace(p.topic, cloud.layout());
    if (!first && it->second != cloud.layout()) {
      report_.notes.push_back(topic + ": the point layout changes at message " + std::to_string(p.row) + " (" +
                              cloud.layout() + ", was " + it->second + ")");
      it->second = cloud.layout();
    }
  }
  stampNs = cloud.header.stampNs;
  std::vector<std::byte> moved;
  sensors::Transform toTarget;  // identity unless a target frame is asked for
  if (!o_.targetFrame.empty()) {
    auto t = tf_.lookup(o_.targetFrame, tfFrameName(cloud.header.frameId), stampNs ? stampNs : p.logTimeNs);
    BAGSCOPE_TRY(t);
    toTarget = *t;
    cloud.header.frameId = "";
  }
  if (!o_.targetFrame.empty() || axes_) {
    auto r = transformCloud(cloud, moved, [&](const std::array<double, 3>& q) {
      auto inTarget = o_.targetFrame.empty() ? q : toTarget.apply(q);
      return axes_ ? axes_->apply(inTarget) : inTarget;
    });
    BAGSCOPE_TRY(r);
  }
  return cloudFileBytes(cloud, o_, "from " + topic + " of " + bag_);
}

Result<void> Exporter::writeFrame(const Planned& p, const Message& m) {
  auto d = s_.decoder(*m.connection);
  BAGSCOPE_TRY(d);
  auto v = (*d)->decode(m.bytes);
  BAGSCOPE_TRY(v);
  std::int64_t stampNs = 0;
  auto bytes = frameBytes(p, *v, kindOf(s_.topics()[p.topic].type), stampNs);
  BAGSCOPE_TRY(bytes);
  const auto& topic = s_.topics()[p.topic];
  WrittenFile f{p.path, bag_, topic.name, topic.type, p.index, p.logTimeNs, stampNs, bytes->size()};
  if (!o_.dryRun)
    if (auto r = writeFileAtomically(p.path, *bytes, o_.overwrite); !r) return r;
  wrote(std::move(f));
  return {};
}

Result<void> Exporter::writeStream(const Target& t, const fs::path& path, const ProgressFn& progress) {
  const auto& topic = s_.topics()[t.topic];
  fs::path temp = temporaryBeside(path);
  struct Cleanup {
    fs::path p;
    bool keep = false;
    ~Cleanup() {
      std::error_code ec;
      if (!keep) fs::remove(p, ec);
    }
  } cleanup{temp};
  auto refs = s_.index(t.topic);
  double meanRate = refs.size() > 1 ? static_cast<double>(refs.size() - 1) /
                                          (static_cast<double>(refs.back().logTimeNs - refs.front().logTimeNs) / 1e9)
                                    : 0;
  detail::TopicWriterSetup setup{o_, temp, path, sensors::kindOf(topic.type), meanRate};
  TopicWriterFactory make = formatInfo(o_.format).topicWriter;
  if (!make)
    return fileError(ErrorCode::InvalidArgument, std::string(formatName(o_.format)) + " writes a file per message");
  auto writer = make(setup);
  BAGSCOPE_TRY(writer);
  std::uint64_t rows = 0, seen = 0, total = refs.size();
  std::int64_t firstLog = 0, firstStamp = 0;
  bool ended = false;  // the file cannot be written: it is not published
  auto r = s_.forEach(
      {{t.topic}, o_.startNs, o_.endNs},
      [&](const Message& m) {
        if (stop_.stop_requested()) return false;
        if (++seen % 64 == 0 && progress)
          progress(static_cast<double>(seen) / static_cast<double>(std::max<std::uint64_t>(1, total)));
        if ((seen - 1) % o_.every != 0) return true;
        auto d = s_.decoder(*m.connection);
        if (!d) return skipUndecodable(topic.name, d.error()), true;
        auto v = (*d)->decode(m.bytes);
        if (!v) return skip("message cannot be decoded", topic.name + ": " + v.error().describe()), true;
        auto header = sensors::headerOf(*v);
        if (rows == 0) {
          firstLog = m.logTimeNs;
          firstStamp = header ? header->stampNs : 0;
        }
        if (auto failed = (*writer)->add({m, *v, **d, header})) {
          skip(failed->reason, topic.name + ": " + failed->detail);
          ended = failed->fatal;
          return !ended;
        }
        ++rows;
        return true;
      },
      [&](const Error& e) { skip("damaged data cannot be read", e.describe()); });  // nothing dropped silently
  if (!r) return r;
  if (stop_.stop_requested()) return fileError(ErrorCode::Cancelled, "stopped on request");
  if (ended) return {};  // counted and listed when it happened
  if (rows == 0) return skip("nothing to write", topic.name + ": no message could be exported"), Result<void>();
  if (auto finished = (*writer)->finish(); !finished) return finished;
  std::error_code ec;
  auto size = fs::file_size(temp, ec);
  if (auto p = publish(temp, path, o_.overwrite); !p) return p;
  cleanup.keep = true;
  wrote({path, bag_, topic.name, topic.type, 0, firstLog, firstStamp, ec ? 0 : size});
  return {};
}

Result<void> Exporter::run(const ProgressFn& progress) {
  auto targets = chooseTopics(s_, o_);
  BAGSCOPE_TRY(targets);
  if (targets->empty()) {
    report_.notes.push_back(bag_ + ": none of the topics asked for; passed over");
    return {};
  }
  if (o_.every == 0) return fileError(ErrorCode::InvalidArgument, "every N-th message: N must be at least 1");
  if (!o_.paths.empty()) {  // checked against every topic's types before anything is written
    if (!takesOption(o_.format, "field"))
      return fileError(ErrorCode::InvalidArgument, "message paths (chosen fields) are for CSV only");
    for (const auto& t : *targets)
      for (const auto& member : s_.topics()[t.topic].members) {
        auto d = s_.decoder(*member.connection);
        if (!d) continue;  // counted when its messages come
        for (const auto& path : o_.paths)
          if (auto p = decode::MessagePath::compile(path, *(*d)->schema().root); !p) {
            Error e = std::move(p).error();
            e.topic = s_.topics()[t.topic].name;
            return e;
          }
      }
  }
  if (!o_.axes.empty()) {
    auto axes = parseAxes(o_.axes);
    BAGSCOPE_TRY(axes);
    axes_ = *axes;
  }
  // A CompressedImage topic whose format names a video codec (h264, hevc) is a video stream.
  for (auto& t : *targets)
    if (t.kind == Kind::Compressed)
      if (auto first = firstMessage(s_, t.topic); first && sensors::readVideoPacket(first->value)) t.kind = Kind::Video;
  auto tf = loadTransforms(s_, !o_.targetFrame.empty(), stop_);
  BAGSCOPE_TRY(tf);
  tf_ = std::move(tf).value();
  if (!o_.targetFrame.empty())
    if (auto r = checkTargetFrame(s_, *targets, tf_, o_.targetFrame); !r) return r;
  describeSensors(s_, *targets, tf_, report_);

  // Plan every name first, so that collisions are found before anything is written.
  auto plan = planFiles(*targets);
  BAGSCOPE_TRY(plan);
  if (auto r = checkNames(*plan); !r) return r;
  Progress done{plan->frames.size() + plan->streams.size(), throttled(progress)};
  if (auto r = writeFrames(*plan, done); !r) return r;
  for (const auto& t : *targets)
    if (t.kind == Kind::Video && t.perMessage)
      if (auto r = writeVideoFrames(*plan, t, done); !r) return r;
  if (auto r = writeStreams(*plan, done); !r) return r;
  if (writeFailed_) {
    std::lock_guard lock(mutex_);
    if (done.work > done.count + 1)
      report_.skipped["not written: the export stopped at the first file that could not be written"] +=
          done.work - done.count - 1;
    report_.notes.push_back("stopped at the first file that could not be written; " +
                            std::to_string(report_.files.size()) + " files are complete");
  }
  if (done.report) done.report(1.0);
  return {};
}

Result<Exporter::Plan> Exporter::planFiles(const std::vector<Target>& targets) {
  Plan plan;
  const char* ext = extension(o_.format);
  const std::string framePattern = !o_.nameTemplate.empty() ? o_.nameTemplate
                                   : targets.size() > 1     ? "{topic}/{bag}_frame_{index}.{ext}"
                                                            : "{bag}_frame_{index}.{ext}";
  std::vector<TopicId> ids;
  for (const auto& t : targets) ids.push_back(t.topic);
  // Default names are unique by construction; a user's template that clashes is refused.
  plan.topicNames = topicNamesForFiles(s_, ids, o_.nameTemplate.empty());
  for (const auto& t : targets) {
    const std::string& name = plan.topicNames[t.topic];
    if (!t.perMessage) {
      // A file per topic: {log_time_ns} is its first message's in the range, {index} 0.
      std::string pattern = o_.nameTemplate.empty() ? "{bag}_{topic}.{ext}" : o_.nameTemplate;
      const auto& refs = s_.index(t.topic);
      auto first = s_.atOrAfter(t.topic, o_.startNs);
      std::int64_t firstNs = first && *first < refs.size() ? refs[*first].logTimeNs : 0;
      plan.streams.push_back({t, o_.outDir / fs::u8path(expand(pattern, bag_, name, 0, 0, firstNs, ext))});
      continue;
    }
    auto refs = s_.index(t.topic);
    auto lo = s_.atOrAfter(t.topic, o_.startNs);
    for (std::size_t i = lo.value_or(refs.size()), row = 0; i < refs.size() && refs[i].logTimeNs <= o_.endNs;
         ++i, ++row)
      if (row % o_.every == 0) plan.frames.push_back({t.topic, row, row / o_.every, refs[i].logTimeNs, 0, {}});
    if (t.kind == Kind::Video) plan.video.insert(t.topic);
  }
  // Each frame by (topic, row) and the topics they come from, for the stamp and write passes.
  plan.frameTopics = {{}, o_.startNs, o_.endNs};
  for (std::size_t k = 0; k < plan.frames.size(); ++k) {
    plan.frameAt[{plan.frames[k].topic, plan.frames[k].row}] = k;
    if (plan.frameTopics.topics.empty() || plan.frameTopics.topics.back() != plan.frames[k].topic)
      plan.frameTopics.topics.push_back(plan.frames[k].topic);
  }
  if (framePattern.find("{stamp_ns}") != std::string::npos && !plan.frames.empty()) BAGSCOPE_TRY(readFrameStamps(plan));
  for (auto& f : plan.frames)
    f.path = o_.outDir /
             fs::u8path(expand(framePattern, bag_, plan.topicNames[f.topic], f.index, f.stampNs, f.logTimeNs, ext));
  return plan;
}

// The header stamp of each planned frame, for {stamp_ns}: straight from the bytes.
Result<void> Exporter::readFrameStamps(Plan& plan) {
  return s_.forEachParallel(
      plan.frameTopics,
      [&](TopicId t, std::size_t row, const Result<Message>& msg) {
        auto it = plan.frameAt.find({t, row});
        if (it == plan.frameAt.end() || !msg) return;
        const std::string& encoding = msg->connection->messageEncoding;
        if (encoding == "cdr" || encoding == "ros1") {
          auto fmt = encoding == "cdr" ? decode::WireFormat::Cdr : decode::WireFormat::Ros1;
          plan.frames[it->second].stampNs = decode::peekHeaderStamp(msg->bytes, fmt).value_or(0);
        } else if (auto d = s_.decoder(*msg->connection)) {
          // JSON, protobuf: no fixed place to peek at; Foxglove's types have a timestamp field.
          if (auto v = (*d)->decode(msg->bytes))
            if (auto h = sensors::headerOf(*v)) plan.frames[it->second].stampNs = h->stampNs;
        }
      },
      stop_);
}

// `p` (the output folder joined with a name) as a path below `dir`, normalised; empty when it is
// not below it. Element by element: lexically_normal and lexically_relative of libstdc++
// before 13 mangle Windows "\\?\" long paths.
fs::path below(const fs::path& p, const fs::path& dir) {
  auto at = p.begin();
  for (const auto& part : dir) {
    if (part.empty()) continue;  // a trailing separator
    if (at == p.end() || *at != part) return {};
    ++at;
  }
  fs::path rel;
  for (; at != p.end(); ++at) rel /= *at;
  return rel.lexically_normal();
}

// Every name inside the output folder and distinct, existing files listed (an error unless
// overwriting), and the folders made.
Result<void> Exporter::checkNames(const Plan& plan) {
  std::map<fs::path, TopicId> names;
  std::error_code ec;
  auto topics = s_.topics();
  auto check = [&](const fs::path& p, TopicId topic) -> Result<void> {
    // Nothing is written outside the chosen folder, whatever a recording's names hold.
    fs::path rel = below(p, o_.outDir);
    if (rel.empty() || *rel.begin() == ".." || rel.is_absolute())
      return fileError(ErrorCode::InvalidArgument, "a file name would lie outside the output folder " + utf8(o_.outDir),
                       utf8(p));
    auto [at, added] = names.emplace(p, topic);
    if (!added) {
      auto describe = [&](TopicId t) { return topics[t].name + " (" + topics[t].type + ")"; };
      std::string from =
          at->second == topic ? "two messages of " + describe(topic) : describe(at->second) + " and " + describe(topic);
      report_.nameClash = "the name template '" + o_.nameTemplate + "' gives two files the name '" + utf8(p) +
                          "': " + from + " (put {topic}, {index} or {log_time_ns} in it)";
      return fileError(ErrorCode::InvalidArgument, report_.nameClash);
    }
    if (!o_.overwrite && fs::exists(p, ec)) report_.conflicts.push_back(utf8(p));
    return {};
  };
  for (const auto& f : plan.frames)
    if (auto r = check(f.path, f.topic); !r) return r;
  for (const auto& [t, p] : plan.streams)
    if (auto r = check(p, t.topic); !r) return r;
  if (!report_.conflicts.empty()) {
    Error e =
        fileError(ErrorCode::InvalidArgument, std::to_string(report_.conflicts.size()) +
                                                  " files exist already, the first: " + report_.conflicts.front());
    e.remedy = Remedy::Replace;
    return e;
  }
  if (o_.dryRun) return {};
  std::set<fs::path> folders;
  for (const auto& f : plan.frames) folders.insert(f.path.parent_path());
  for (const auto& [t, p] : plan.streams) folders.insert(p.parent_path());
  for (const auto& dir : folders) {
    fs::create_directories(dir, ec);
    if (ec) return fileError(ErrorCode::Write, "cannot create the folder: " + systemErrorText(ec), utf8(dir));
  }
  return {};
}

// Frames: every core, each message decoded and written where it is read.
Result<void> Exporter::writeFrames(const Plan& plan, Progress& done) {
  if (plan.frames.empty()) return {};
  auto topics = s_.topics();
  return s_.forEachParallel(
      plan.frameTopics,
      [&](TopicId t, std::size_t row, const Result<Message>& m) {
        auto it = plan.frameAt.find({t, row});
        if (it == plan.frameAt.end() || writeFailed_ || plan.video.count(t)) return;
        if (!m) return skip("message cannot be read", m.error().describe());
        if (auto w = writeFrame(plan.frames[it->second], *m); !w) {
          if (w.error().code == ErrorCode::Write) {
            // The first refused write (disk full, no permission) stops the rest: each would fail too.
            if (!writeFailed_.exchange(true)) unwritable(w.error().describe());
            return;
          }
          skip(skipReason(w.error()), topics[t].name + " message " + std::to_string(row) + ": " + w.error().describe());
        }
        if (done.report) done.report(static_cast<double>(++done.count) / static_cast<double>(done.work));
      },
      stop_);
}

// A video topic's frames: its packets decoded in order from the topic's first message (a
// frame needs the packets before it, back to a keyframe), each planned frame encoded and
// written as it comes out of the decoder.
Result<void> Exporter::writeVideoFrames(const Plan& plan, const Target& t, Progress& done) {
  const std::string& topic = s_.topics()[t.topic].name;
  const std::size_t first = s_.atOrAfter(t.topic, o_.startNs).value_or(s_.index(t.topic).size());
  std::map<std::int64_t, const Planned*> planned;  // by the message's index in the topic
  for (const auto& f : plan.frames)
    if (f.topic == t.topic) planned[static_cast<std::int64_t>(first + f.row)] = &f;
  if (planned.empty()) return {};
  if (o_.dryRun) {  // named; nothing decoded
    for (const auto& [index, f] : planned)
      wrote({f->path, bag_, topic, s_.topics()[t.topic].type, f->index, f->logTimeNs, 0, 0});
    done.count += planned.size();
    return {};
  }
  const ImageFileWriter& still = formatInfo(o_.format).image;
  std::optional<sensors::VideoDecoder> decoder;
  std::set<std::int64_t> written;
  std::map<std::int64_t, std::int64_t> stamps;  // header stamps of the packets asked for
  auto put = [&](std::vector<sensors::VideoDecoder::Frame>& frames) {
    for (auto& frame : frames) {
      auto it = planned.find(frame.index);
      if (it == planned.end() || writeFailed_) continue;
      const Planned& p = *it->second;
      if (!frame.problem.empty()) {
        skip("damaged video frame", topic + " message " + std::to_string(frame.index) + ": " + frame.problem);
        written.insert(frame.index);  // said
        continue;
      }
      auto bytes = sensors::encodeImage(frame.image, still.still, o_.jpegQuality);
      if (!bytes) {
        skip(skipReason(bytes.error()),
             topic + " message " + std::to_string(frame.index) + ": " + bytes.error().describe());
        continue;
      }
      if (auto r = writeFileAtomically(p.path, *bytes, o_.overwrite); !r) {
        if (!writeFailed_.exchange(true)) unwritable(r.error().describe());
        continue;
      }
      written.insert(frame.index);
      wrote({p.path, bag_, topic, s_.topics()[t.topic].type, p.index, p.logTimeNs, stamps[frame.index], bytes->size()});
      if (done.report) done.report(static_cast<double>(++done.count) / static_cast<double>(done.work));
    }
  };
  const auto isPlanned = [&](std::int64_t i) { return planned.count(i) != 0; };  // the rest are not converted
  std::int64_t index = -1;
  const std::int64_t last = planned.rbegin()->first;
  auto r = s_.forEach(
      {{t.topic}, std::numeric_limits<std::int64_t>::min(), o_.endNs},
      [&](const Message& m) {
        if (++index > last || writeFailed_ || stop_.stop_requested()) return false;
        const bool wanted = planned.count(index) != 0;
        auto fail = [&](const Error& e) {  // said for the frames asked for; the stream goes on
          if (wanted) skip(skipReason(e), topic + " message " + std::to_string(index) + ": " + e.describe());
          return true;
        };
        auto d = s_.decoder(*m.connection);
        if (!d) return fail(d.error());
        auto v = (*d)->decode(m.bytes);
        if (!v) return fail(v.error());
        auto packet = sensors::readVideoPacket(*v);
        if (!packet) return fail(packet.error());
        if (!decoder) {
          auto opened = sensors::VideoDecoder::open(packet->codec);
          if (!opened) return fail(opened.error());
          decoder.emplace(std::move(opened).value());
        }
        if (wanted) stamps[index] = packet->header.stampNs;
        auto frames = decoder->push(*packet, index, isPlanned);
        if (!frames) return fail(frames.error());
        put(*frames);
        return true;
      },
      {}, stop_);
  BAGSCOPE_TRY(r);
  if (decoder) {
    auto rest = decoder->finish(isPlanned);
    put(rest);
  }
  // Asked for, read, and still no frame: said (a packet the decoder took but never finished).
  for (const auto& [i, f] : planned)
    if (!written.count(i) && i <= index && !writeFailed_)
      skip("no frame decoded", topic + " message " + std::to_string(i) + ": the decoder gave no picture for it");
  return {};
}

// Streams: a file per topic, one after another, each read in order.
Result<void> Exporter::writeStreams(const Plan& plan, Progress& done) {
  auto topics = s_.topics();
  for (const auto& [t, path] : plan.streams) {
    if (o_.dryRun) {  // the name is known; nothing is computed or written (size unknown: 0)
      const auto& refs = s_.index(t.topic);
      auto first = s_.atOrAfter(t.topic, o_.startNs);
      wrote({path, bag_, topics[t.topic].name, topics[t.topic].type, 0,
             first && *first < refs.size() ? refs[*first].logTimeNs : 0, 0, 0});
      ++done.count;
      continue;
    }
    ProgressFn part;
    if (done.report) {
      std::size_t base = done.count.load();
      part = [&done, base](double f) { done.report((static_cast<double>(base) + f) / static_cast<double>(done.work)); };
    }
    if (writeFailed_) break;
    if (auto r = writeStream(t, path, part); !r) {
      if (r.error().code == ErrorCode::Cancelled) return r;
      unwritable(r.error().describe());
      if (r.error().code == ErrorCode::Write) {
        writeFailed_ = true;
        break;
      }
    }
    ++done.count;
  }
  return {};
}

}  // namespace

Result<void> writeFileAtomically(const fs::path& path, std::string_view bytes, bool overwrite) {
  fs::path temp = temporaryBeside(path);
  {
    std::ofstream out(temp, std::ios::binary);
    if (!out) return fileError(ErrorCode::Write, "cannot create a file here", utf8(path));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(temp, ec);
      return fileError(ErrorCode::Write, "writing failed (disk full?)", utf8(path));
    }
  }
  return publish(temp, path, overwrite);
}

Result<void> writeSeriesCsv(const fs::path& path, const std::vector<Series>& series, std::string_view xName,
                            std::string_view yName, double lo, double hi, bool overwrite) {
  std::string out = "series,";
  detail::appendCsvText(xName, out);
  out += ',';
  detail::appendCsvText(yName, out);
  out += '\n';
  for (const auto& s : series) {
    std::string name;
    detail::appendCsvText(s.name, name);
    for (std::size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (s.x[i] < lo || s.x[i] > hi) continue;
      out += name;
      out += ',';
      detail::appendCsvNumber(s.x[i], out);
      out += ',';
      if (i < s.labels.size()) detail::appendCsvText(s.labels[i], out);
      else detail::appendCsvNumber(s.y[i], out);
      out += '\n';
    }
  }
  return writeFileAtomically(path, out, overwrite);
}

std::string recordingName(const fs::path& path) {
  std::error_code ec;
  fs::path p = path.filename().empty() ? path.parent_path() : path;
  if (fs::is_directory(p, ec)) return utf8(p.filename());
  if (p.filename() == "metadata.yaml") return utf8(p.parent_path().filename());
  return utf8(p.stem());
}

bool isStaticTransforms(const session::Topic& topic) {
  if (topic.name.find("tf_static") != std::string::npos) return true;
  return std::any_of(topic.members.begin(), topic.members.end(),
                     [](const session::Topic::Member& m) { return storage::latched(*m.connection); });
}

Result<sensors::TfBuffer> loadTransforms(const Session& s, bool dynamicToo, StopToken stop) {
  sensors::TfBuffer tf;
  for (bool statics : {true, false}) {  // static ones first: the dynamic ones are looked up in their tree
    if (!statics && !dynamicToo) continue;
    session::Selection selection;
    for (TopicId t = 0; t < s.topics().size(); ++t)
      if (sensors::kindOf(s.topics()[t].type) == sensors::SensorKind::Transforms &&
          isStaticTransforms(s.topics()[t]) == statics)
        selection.topics.push_back(t);
    if (selection.topics.empty()) continue;
    auto r = s.forEach(selection, [&](const Message& m) {
      if (auto d = s.decoder(*m.connection))
        if (auto v = (*d)->decode(m.bytes)) tf.add(*v, statics);
      return !stop.stop_requested();
    });
    BAGSCOPE_TRY(r);
    if (stop.stop_requested()) return makeError(ErrorCode::Cancelled, "cancelled");
  }
  return tf;
}

Result<std::vector<std::string>> tfFrames(const Session& session, StopToken stop) {
  auto tf = loadTransforms(session, true, std::move(stop));
  BAGSCOPE_TRY(tf);
  return tf->frames();
}

namespace {

// --join: one aligned table, "{bag}_aligned.{ext}" unless named, instead of a file per topic.
Result<void> exportAligned(const Session& session, const std::string& bag, const ExportOptions& o, ExportReport& report,
                           StopToken stop) {
  if (o.format != Format::Csv && o.format != Format::Npy)
    return makeError(ErrorCode::InvalidArgument,
                     "an aligned table is written as csv or npy, not " + std::string(formatName(o.format)));
  if (!o.topics.empty() || !o.paths.empty())
    return makeError(ErrorCode::InvalidArgument,
                     "an aligned table names its topics and fields itself (/odom:pose.pose.position), "
                     "not as a per-topic export's topics and fields");
  const char* ext = extension(o.format);
  const fs::path path = o.outDir / fs::u8path(expand(o.nameTemplate.empty() ? "{bag}_aligned.{ext}" : o.nameTemplate,
                                                     bag, "aligned", 0, 0, session.startNs(), ext));
  std::error_code ec;
  if (!o.overwrite && fs::exists(path, ec)) {
    report.conflicts.push_back(utf8(path));
    Error e = fileError(ErrorCode::InvalidArgument, "1 file exists already: " + utf8(path));
    e.remedy = Remedy::Replace;
    return e;
  }
  auto table = alignedTable(session, o, std::move(stop));
  if (!table) return table.error();
  WrittenFile file{path, bag, "aligned", "table", 0, session.startNs(), 0, 0};
  if (!o.dryRun) {
    std::string bytes = o.format == Format::Csv ? detail::tableCsv(*table, o.timeInSeconds) : detail::tableNpy(*table);
    if (bytes.empty()) return fileError(ErrorCode::Unsupported, "too many columns for a NumPy 1.0 header", utf8(path));
    fs::create_directories(path.parent_path(), ec);
    if (auto r = writeFileAtomically(path, bytes, o.overwrite); !r) return r;
    file.bytes = bytes.size();
    report.bytes += bytes.size();
  }
  report.files.push_back(std::move(file));
  return {};
}

}  // namespace

Result<void> exportSession(const Session& session, const std::string& bag, const ExportOptions& options,
                           ExportReport& report, StopToken stop, const ProgressFn& progress) {
  if (auto r = checkNameTemplate(options.nameTemplate); !r) return r;
  if (!options.joins.empty()) return exportAligned(session, bag, options, report, std::move(stop));
  if (!options.alignOn.empty() || options.alignRateHz > 0 || options.fill != Fill::Previous)
    return makeError(ErrorCode::InvalidArgument,
                     "a row topic, rate or fill shapes an aligned table, and no topic is joined");
  if (!options.dryRun)
    if (std::size_t n = removeStaleParts(options.outDir, true))
      report.notes.push_back("removed " + std::to_string(n) +
                             " unfinished temporary files an earlier, interrupted export "
                             "left in " +
                             utf8(options.outDir));
  Exporter e(session, bag, options, report, std::move(stop));
  return e.run(progress);
}

Result<AxisRemap> parseAxes(std::string_view text) {
  auto bad = [&](const std::string& why) {
    return makeError(ErrorCode::InvalidArgument,
                     "axes '" + std::string(text) + "': " + why + " (three of x, y, z, each once, such as z,-y,x)");
  };
  AxisRemap remap;
  std::array<bool, 3> used{};
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    auto comma = std::min(text.find(',', at), text.size());
    std::string_view part = text.substr(at, comma - at);
    if (i < 2 && comma == text.size()) return bad("needs three axes");
    double sign = 1;
    if (!part.empty() && (part.front() == '-' || part.front() == '+')) {
      sign = part.front() == '-' ? -1 : 1;
      part.remove_prefix(1);
    }
    if (part.size() != 1 || part[0] < 'x' || part[0] > 'z') return bad("'" + std::string(part) + "' is not an axis");
    int source = part[0] - 'x';
    if (used[static_cast<std::size_t>(source)]) return bad(std::string(part) + " is used twice");
    used[static_cast<std::size_t>(source)] = true;
    remap.source[static_cast<std::size_t>(i)] = source;
    remap.sign[static_cast<std::size_t>(i)] = sign;
    at = comma + 1;
  }
  if (at <= text.size()) return bad("has more than three axes");
  return remap;
}

Result<fs::path> writeManifest(const ExportReport& report, const ExportOptions& options) {
  std::string j = "{\n  \"format\": ";
  appendJsonString(formatName(options.format), j);
  j += ",\n  \"times\": \"log_time_ns: when the message was recorded; stamp_ns: its header stamp (0: none)\"";
  // How clouds were moved, so that the files can be read in the right frame and axes.
  j += ",\n  \"target_frame\": ";
  appendJsonString(options.targetFrame, j);
  j += ",\n  \"axes\": ";
  appendJsonString(options.axes.empty() ? "x,y,z" : options.axes, j);
  j += ",\n  \"files\": [";
  auto files = report.files;
  std::sort(files.begin(), files.end(), [](const WrittenFile& a, const WrittenFile& b) { return a.path < b.path; });
  for (std::size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    j += i ? ",\n    {" : "\n    {";
    j += "\"file\": ";
    appendJsonString(genericUtf8(f.path.lexically_relative(options.outDir)), j);
    j += ", \"bag\": ";
    appendJsonString(f.bag, j);
    j += ", \"topic\": ";
    appendJsonString(f.topic, j);
    j += ", \"type\": ";
    appendJsonString(f.type, j);
    j += ", \"index\": " + std::to_string(f.index) + ", \"log_time_ns\": " + std::to_string(f.logTimeNs) +
         ", \"stamp_ns\": " + std::to_string(f.stampNs) + ", \"bytes\": " + std::to_string(f.bytes) + "}";
  }
  j += files.empty() ? "],\n  \"camera_info\": {" : "\n  ],\n  \"camera_info\": {";
  std::size_t k = 0;
  auto list = [&](auto begin, auto end) {
    std::string s = "[";
    for (auto it = begin; it != end; ++it) {
      if (it != begin) s += ", ";
      appendJsonDouble(*it, s);
    }
    return s + "]";
  };
  for (const auto& [topic, ci] : report.cameraInfo) {
    j += k++ ? ",\n    " : "\n    ";
    appendJsonString(topic, j);
    j += ": {\"frame_id\": ";
    appendJsonString(ci.header.frameId, j);
    j += ", \"width\": " + std::to_string(ci.width) + ", \"height\": " + std::to_string(ci.height) +
         ", \"distortion_model\": ";
    appendJsonString(ci.distortionModel, j);
    j += ", \"d\": " + list(ci.d.begin(), ci.d.end()) + ", \"k\": " + list(ci.k.begin(), ci.k.end()) +
         ", \"r\": " + list(ci.r.begin(), ci.r.end()) + ", \"p\": " + list(ci.p.begin(), ci.p.end()) + "}";
  }
  j += k ? "\n  },\n  \"frames\": {" : "},\n  \"frames\": {";
  k = 0;
  for (const auto& [frame, rt] : report.frames) {
    j += k++ ? ",\n    " : "\n    ";
    appendJsonString(frame, j);
    j += ": {\"parent\": ";
    appendJsonString(rt.first, j);
    j += ", \"translation\": " + list(rt.second.translation.begin(), rt.second.translation.end()) +
         ", \"rotation_xyzw\": " + list(rt.second.rotation.begin(), rt.second.rotation.end()) + "}";
  }
  j += k ? "\n  }\n}\n" : "}\n}\n";
  fs::path path = options.outDir / "manifest.json";
  BAGSCOPE_TRY(writeFileAtomically(path, j, options.overwrite));
  return path;
}

}  // namespace bagscope::exporters
