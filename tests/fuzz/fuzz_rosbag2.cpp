// libFuzzer target: the rosbag2 reader. An input that starts like an SQLite database is
// written as a .db3 and opened alone; anything else is written as the metadata.yaml of a
// folder holding the demo database (if the seed folder is given by BAGSCOPE_FUZZ_DB3).

#include <unistd.h>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/storage/rosbag2/rosbag2_source.hpp"
#include "exercise_source.hpp"

using namespace bagscope;
namespace fs = std::filesystem;

namespace {

const fs::path& workDir() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("bagscope-fuzz-rosbag2-" + std::to_string(::getpid()));
    fs::create_directories(d);
    if (const char* db3 = std::getenv("BAGSCOPE_FUZZ_DB3"))
      fs::copy_file(db3, d / "bag_0.db3", fs::copy_options::overwrite_existing);
    return d;
  }();
  return dir;
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
  if (source) fuzz::exerciseSource(**source, 16);
  return 0;
}
