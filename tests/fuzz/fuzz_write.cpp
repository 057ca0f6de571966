// libFuzzer target: any input (a ROS 1 bag or an MCAP file, damaged or not) opened as a
// session and written back through every writer (MCAP, ROS 1 bag, rosbag2 MCAP and SQLite),
// then the result read back: no crash, and what was written always reads back, message for
// message (topic, log time, bytes). A writer that refuses (a ROS 2 message in a ROS 1 bag, a
// time before 1970) is fine; one that writes what does not read back is a bug (abort).

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "core/base/digest.hpp"
#include "core/session/session.hpp"
#include "core/storage/source.hpp"
#include "core/write/write.hpp"

using namespace bagscope;
namespace fs = std::filesystem;

namespace {

using Row = std::tuple<std::string, std::int64_t, std::uint32_t, std::size_t>;  // topic, time, crc, size

std::vector<Row> rowsOf(const session::Session& s) {
  std::vector<Row> rows;
  (void)s.forEach({}, [&](const session::Message& m) {
    rows.emplace_back(m.connection->topic, m.logTimeNs, crc32(m.bytes), m.bytes.size());
    return true;
  });
  std::sort(rows.begin(), rows.end());
  return rows;
}

const fs::path& workFolder() {
  static const fs::path folder = [] {
    auto f = fs::temp_directory_path() / ("bagscope-fuzz-write-" + std::to_string(::getpid()));
    fs::create_directories(f);
    return f;
  }();
  return folder;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto p = reinterpret_cast<const std::byte*>(data);
  auto source = storage::openSource(memorySource({p, p + size}, "fuzz.input"));
  if (!source) return 0;
  std::vector<std::unique_ptr<storage::Source>> sources;
  sources.push_back(std::move(source).value());
  auto opened = session::Session::open(std::move(sources));
  if (!opened) return 0;
  for (const auto& info : write::containers()) {
    fs::path out = workFolder() / (std::string("out") + std::string(info.extension));
    write::CopyRequest request;
    request.output = out;
    request.writer.container = info.container;
    request.writer.overwrite = true;
    request.writer.chunkBytes = 4096;  // many chunks from small inputs
    auto report = write::copyRecording(**opened, request);
    if (!report) continue;
    auto back = session::Session::open({out});
    if (!back) std::abort();  // written, yet it does not open
    auto written = rowsOf(**back);
    if (written.size() != report->messagesWritten) std::abort();
    // Every message written is one of the input's, unchanged.
    auto input = rowsOf(**opened);
    if (!std::includes(input.begin(), input.end(), written.begin(), written.end())) std::abort();
    std::error_code ec;
    fs::remove_all(out, ec);
  }
  return 0;
}
