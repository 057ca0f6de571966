// bagscope-bench TASK FILE: one timed workload on any recording Bagscope opens, printed as "bagscope TASK seconds count
// [bytes]" (the same line format as the peers in shared/bench-peers). Times exclude process start.
//   open     open the bag and sum the per-topic message counts (index only)
//   scan     read every message's bytes in log-time order
//   imu      every sensor_msgs/Imu into 10 columns (stamp, orientation, angular velocity,
//            linear acceleration x/y), like the peers' imu task
//   decode   every message decoded into a value tree
// Through the session (core/session), with BAGSCOPE_CACHE_MIB setting the cache budget.
// Their time is that of the task on the open session (session-open times the opening):
//   session-open    open as a session (the per-topic index built)
//   session-scan    every message in log-time order
//   session-read    every message of every topic by random access (read(topic, n)), each
//                   topic from its last message to its first: all through the chunk cache
//   session-imu     linear_acceleration x, y, z of every sensor_msgs/Imu as columns
//   session-stats   timing diagnostics of every topic
//   derive-rpy      the plot's roll of every Imu orientation (its extraction not timed)
//   derive-expression  the plot's custom expression sqrt(a^2 + b^2) over two Imu fields
//                   (angular_velocity x and y, two series aligned by time; extraction not timed)
//   export-pcd      every PointCloud2 to binary PCD (x, y, z, intensity, as the peer writes)
//                   under BAGSCOPE_BENCH_OUT (default /tmp/bagscope-bench-out)
//   export-jpeg     every Image to JPEG there; prints the cores used (CPU time / wall time)

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/analysis/derive.hpp"
#include "core/decode/decoder.hpp"
#include "core/export/export.hpp"
#include "core/session/session.hpp"
#include "core/session/timing.hpp"
#include "core/storage/source.hpp"

using namespace bagscope;

namespace {

[[noreturn]] void die(const Error& e) {
  std::fprintf(stderr, "bagscope-bench: %s\n", e.describe().c_str());
  std::exit(1);
}

std::shared_ptr<const decode::Decoder> decoderFor(const storage::Connection& c) {
  auto d = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition);
  if (!d) die(d.error());
  return *d;
}

}  // namespace

// The session tasks; false if `task` is not one.
bool runSessionTask(const std::string& task, const char* path, std::uint64_t& count, std::uint64_t& bytes,
                    unsigned& checksum, std::chrono::steady_clock::time_point& t0) {
  if (!task.starts_with("session-") && !task.starts_with("export-") && !task.starts_with("derive-")) return false;
  session::SessionOptions options;
  if (const char* mib = std::getenv("BAGSCOPE_CACHE_MIB")) options.cacheBytes = std::stoull(mib) << 20;
  auto opened = session::Session::open({path}, options);
  if (!opened) die(opened.error());
  const session::Session& s = **opened;
  if (task != "session-open") t0 = std::chrono::steady_clock::now();
  auto onMessage = [&](std::span<const std::byte> b) {
    ++count;
    bytes += b.size();
    if (!b.empty()) checksum += static_cast<unsigned>(b.back());
  };
  if (task == "session-open") {
    count = s.messageCount();
  } else if (task == "session-scan") {
    auto r = s.forEach({}, [&](const session::Message& m) { return onMessage(m.bytes), true; });
    if (!r) die(r.error());
  } else if (task == "session-read") {
    for (session::TopicId t = 0; t < s.topics().size(); ++t)
      for (std::size_t n = s.index(t).size(); n-- > 0;) {
        auto m = s.read(t, n);
        if (!m) die(m.error());
        onMessage(m->bytes);
      }
    auto st = s.cacheStats();
    std::fprintf(stderr, "cache: budget %zu MiB, peak %zu MiB, %llu hits, %llu misses, %llu evictions\n",
                 st.budgetBytes >> 20, st.peakBytes >> 20, static_cast<unsigned long long>(st.hits),
                 static_cast<unsigned long long>(st.misses), static_cast<unsigned long long>(st.evictions));
  } else if (task == "session-imu") {
    for (session::TopicId t = 0; t < s.topics().size(); ++t) {
      const auto& type = s.topics()[t].type;
      if (type != "sensor_msgs/Imu" && type != "sensor_msgs/msg/Imu") continue;
      auto cols = s.extractFields(t, {"linear_acceleration.x", "linear_acceleration.y", "linear_acceleration.z"});
      if (!cols) die(cols.error());
      count += cols->logTimeNs.size();
      if (!cols->values[2].empty()) checksum += static_cast<unsigned>(cols->values[2].back() * 1000);
    }
  } else if (task == "derive-rpy" || task == "derive-expression") {
    for (session::TopicId t = 0; t < s.topics().size(); ++t) {
      const auto& type = s.topics()[t].type;
      if (type != "sensor_msgs/Imu" && type != "sensor_msgs/msg/Imu") continue;
      bool rpy = task == "derive-rpy";
      auto cols = rpy ? s.extractFields(t, {"orientation.x", "orientation.y", "orientation.z", "orientation.w"})
                      : s.extractFields(t, {"angular_velocity.x", "angular_velocity.y"});
      if (!cols) die(cols.error());
      std::vector<double> time(cols->logTimeNs.size()), out(time.size());
      for (std::size_t i = 0; i < time.size(); ++i)
        time[i] = static_cast<double>(cols->logTimeNs[i] - cols->logTimeNs[0]) / 1e9;
      const auto& v = cols->values;
      t0 = std::chrono::steady_clock::now();  // the derivation alone
      if (rpy) {
        for (std::size_t i = 0; i < out.size(); ++i)
          out[i] = analysis::rollPitchYaw(v[0][i], v[1][i], v[2][i], v[3][i])[0];
      } else {
        std::vector<std::string> names{"a", "b"};
        std::vector<analysis::SeriesView> in{{time, v[0]}, {time, v[1]}};
        auto r = analysis::evaluateExpression("sqrt(a^2 + b^2)", names, in);
        if (!r) die(r.error());
        out = std::move(*r);
      }
      count += out.size();
      if (!out.empty()) checksum += static_cast<unsigned>(out.back() * 1000);
    }
  } else if (task == "session-stats") {
    auto stats = session::timingStats(s);
    if (!stats) die(stats.error());
    for (const auto& t : *stats) count += t.count;
  } else if (task == "export-pcd" || task == "export-jpeg") {
    exporters::ExportOptions o;
    o.format = task == "export-pcd" ? exporters::Format::Pcd : exporters::Format::Jpeg;
    if (task == "export-pcd") o.fields = {"x", "y", "z", "intensity"};
    const char* out = std::getenv("BAGSCOPE_BENCH_OUT");
    o.outDir = std::filesystem::path(out ? out : "/tmp/bagscope-bench-out") / task;
    o.overwrite = true;
    o.nameTemplate = "{topic}_{index}.{ext}";
    for (const auto& t : s.topics())
      if (t.type == (task == "export-pcd" ? "sensor_msgs/PointCloud2" : "sensor_msgs/Image"))
        o.topics.push_back(t.name);
    exporters::ExportReport report;
    std::clock_t cpu0 = std::clock();
    auto r = exporters::exportSession(s, "bench", o, report);
    if (!r) die(r.error());
    double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "cores used: %.2f (cpu %.2f s / wall %.2f s)\n", cpu / wall, cpu, wall);
    count = report.files.size();
    bytes = report.bytes;
  } else {
    std::fprintf(stderr, "bagscope-bench: unknown task '%s'\n", task.c_str());
    std::exit(2);
  }
  return true;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr,
                 "usage: bagscope-bench open|scan|imu|decode|session-open|session-scan|session-read|"
                 "session-imu|session-stats BAG\n");
    return 2;
  }
  std::string task = argv[1];
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t count = 0, bytes = 0;
  unsigned checksum = 0;
  if (runSessionTask(task, argv[2], count, bytes, checksum, t0)) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("bagscope %s %.4f %llu %llu %u\n", task.c_str(), seconds, static_cast<unsigned long long>(count),
                static_cast<unsigned long long>(bytes), checksum);
    return 0;
  }
  auto source = storage::openSource(argv[2]);
  if (!source) die(source.error());
  if (task == "open") {
    for (const auto& c : (*source)->connections()) count += c.messageCount;
  } else if (task == "scan") {
    auto r = (*source)->readMessages({},
                                     [&](const storage::MessageView& m) {
                                       ++count;
                                       bytes += m.bytes.size();
                                       if (!m.bytes.empty()) checksum += static_cast<unsigned>(m.bytes.back());
                                       return true;
                                     },
                                     {});
    if (!r) die(r.error());
  } else if (task == "imu") {
    storage::ReadFilter filter;
    std::shared_ptr<const decode::Decoder> decoder;
    std::uint64_t expected = 0;  // the index knows the count: size the columns once
    for (const auto& c : (*source)->connections()) {
      if (c.type != "sensor_msgs/Imu" && c.type != "sensor_msgs/msg/Imu") continue;
      filter.connections.push_back(c.id);
      expected += c.messageCount;
      if (!decoder) decoder = decoderFor(c);
    }
    if (!decoder) {
      std::fprintf(stderr, "bagscope-bench: no sensor_msgs/Imu in %s\n", argv[2]);
      return 1;
    }
    auto reader =
        decode::FieldReader::compile(decoder, {"header.stamp", "orientation.x", "orientation.y", "orientation.z",
                                               "orientation.w", "angular_velocity.x", "angular_velocity.y",
                                               "angular_velocity.z", "linear_acceleration.x", "linear_acceleration.y"});
    if (!reader) die(reader.error());
    std::vector<std::vector<double>> columns(10);
    for (auto& c : columns) c.reserve(expected);
    double row[10];
    auto r = (*source)->readMessages(filter,
                                     [&](const storage::MessageView& m) {
                                       if (auto ok = reader->read(m.bytes, row); !ok) die(ok.error());
                                       for (int i = 0; i < 10; ++i) columns[i].push_back(row[i]);
                                       ++count;
                                       return true;
                                     },
                                     {});
    if (!r) die(r.error());
    checksum = static_cast<unsigned>(columns[9].empty() ? 0 : columns[9].back() * 1000);
  } else if (task == "decode") {
    std::map<const storage::Connection*, std::shared_ptr<const decode::Decoder>> decoders;
    auto r = (*source)->readMessages({},
                                     [&](const storage::MessageView& m) {
                                       auto& d = decoders[m.connection];
                                       if (!d) d = decoderFor(*m.connection);
                                       auto v = d->decode(m.bytes);
                                       if (!v) die(v.error());
                                       checksum += static_cast<unsigned>(v->items.size());
                                       ++count;
                                       return true;
                                     },
                                     {});
    if (!r) die(r.error());
  } else {
    std::fprintf(stderr, "bagscope-bench: unknown task '%s'\n", task.c_str());
    return 2;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("bagscope %s %.4f %llu %llu %u\n", task.c_str(), seconds, static_cast<unsigned long long>(count),
              static_cast<unsigned long long>(bytes), checksum);
  return 0;
}
