// bagscope-bench TASK FILE: one timed workload on any recording Bagscope opens, printed as "bagscope TASK seconds count [bytes]"
// (the same line format as the peers in shared/bench-peers). Times exclude process start.
//   open     open the bag and sum the per-topic message counts (index only)
//   scan     read every message's bytes in log-time order
//   imu      every sensor_msgs/Imu into 10 columns (stamp, orientation, angular velocity,
//            linear acceleration x/y), like the peers' imu task
//   decode   every message decoded into a value tree

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/decode/decoder.hpp"
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

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: bagscope-bench open|scan|imu|decode BAG\n");
    return 2;
  }
  std::string task = argv[1];
  auto t0 = std::chrono::steady_clock::now();
  auto source = storage::openSource(argv[2]);
  if (!source) die(source.error());
  std::uint64_t count = 0, bytes = 0;
  unsigned checksum = 0;
  if (task == "open") {
    for (const auto& c : (*source)->connections()) count += c.messageCount;
  } else if (task == "scan") {
    auto r = (*source)->readMessages({}, [&](const storage::MessageView& m) {
      ++count;
      bytes += m.bytes.size();
      if (!m.bytes.empty()) checksum += static_cast<unsigned>(m.bytes.back());
      return true;
    }, {});
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
    auto reader = decode::FieldReader::compile(
        decoder, {"header.stamp", "orientation.x", "orientation.y", "orientation.z", "orientation.w",
                  "angular_velocity.x", "angular_velocity.y", "angular_velocity.z",
                  "linear_acceleration.x", "linear_acceleration.y"});
    if (!reader) die(reader.error());
    std::vector<std::vector<double>> columns(10);
    for (auto& c : columns) c.reserve(expected);
    double row[10];
    auto r = (*source)->readMessages(filter, [&](const storage::MessageView& m) {
      if (auto ok = reader->read(m.bytes, row); !ok) die(ok.error());
      for (int i = 0; i < 10; ++i) columns[i].push_back(row[i]);
      ++count;
      return true;
    }, {});
    if (!r) die(r.error());
    checksum = static_cast<unsigned>(columns[9].empty() ? 0 : columns[9].back() * 1000);
  } else if (task == "decode") {
    std::map<const storage::Connection*, std::shared_ptr<const decode::Decoder>> decoders;
    auto r = (*source)->readMessages({}, [&](const storage::MessageView& m) {
      auto& d = decoders[m.connection];
      if (!d) d = decoderFor(*m.connection);
      auto v = d->decode(m.bytes);
      if (!v) die(v.error());
      checksum += static_cast<unsigned>(v->items.size());
      ++count;
      return true;
    }, {});
    if (!r) die(r.error());
  } else {
    std::fprintf(stderr, "bagscope-bench: unknown task '%s'\n", task.c_str());
    return 2;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("bagscope %s %.4f %llu %llu %u\n", task.c_str(), seconds,
              static_cast<unsigned long long>(count), static_cast<unsigned long long>(bytes), checksum);
  return 0;
}
