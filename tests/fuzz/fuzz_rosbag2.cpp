// libFuzzer target: the rosbag2 reader. An input that starts like an SQLite database is
// written as a .db3 and opened alone; anything else is written as the metadata.yaml of a
// folder holding the demo database (if the seed folder is given by BAGSCOPE_FUZZ_DB3).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "core/decode/decoder.hpp"
#include "core/storage/rosbag2/rosbag2_source.hpp"

using namespace bagscope;
namespace fs = std::filesystem;

namespace {

const fs::path& workDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("bagscope-fuzz-rosbag2-" + std::to_string(::getpid()));
    fs::create_directories(d);
    if (const char* db3 = std::getenv("BAGSCOPE_FUZZ_DB3")) fs::copy_file(db3, d / "bag_0.db3", fs::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
}

void readEverything(storage::Source& source) {
  std::string json;
  (void)source.readMessages({}, [&](const storage::MessageView& m) {
    const auto& c = *m.connection;
    if (auto d = decode::compileFor(c.type, c.messageEncoding, c.schemaEncoding, c.definition)) {
      if (auto v = (*d)->decode(m.bytes)) {
        json.clear();
        decode::appendJson(*v, json);
      }
    }
    return true;
  }, {});
  if (auto index = source.messageIndex()) {
    int reads = 0;
    for (const auto& entries : **index)
      for (const auto& e : entries)
        if (reads++ < 16) (void)source.read(e);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  bool database = input.starts_with("SQLite format 3");
  fs::path file = workDir() / (database ? "alone/input.db3" : "metadata.yaml");
  fs::create_directories(file.parent_path());
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(input.data(), static_cast<std::streamsize>(input.size()));
  }
  auto source = storage::openRosbag2(database ? file : workDir());
  if (source) readEverything(**source);
  return 0;
}
