#include "wrapped_source.hpp"

#include <atomic>
#include <chrono>
#include <random>

#include "core/compress/decompress.hpp"

namespace bagscope::storage::detail {

std::shared_ptr<const std::filesystem::path> makeTempFolder(std::string_view prefix) {
  namespace fs = std::filesystem;
  static std::atomic<unsigned> counter{0};
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    fs::path dir = base / (std::string(prefix) + "-" + std::to_string(rd()) + "-" + std::to_string(counter++));
    if (fs::create_directory(dir, ec)) {
      return std::shared_ptr<const fs::path>(new fs::path(dir), [](const fs::path* p) {
        std::error_code ignored;
        fs::remove_all(*p, ignored);
        delete p;
      });
    }
  }
  return nullptr;
}

Result<void> decompressWholeFiles(std::vector<std::filesystem::path>& files, const std::filesystem::path& folder) {
  for (auto& f : files) {
    if (f.extension() != ".zstd") continue;
    std::filesystem::path copy = folder / f.stem();  // "x_0.db3.zstd" -> "x_0.db3"
    if (auto r = compress::decompressFile(f, copy); !r) return r;
    f = copy;
  }
  return {};
}

}  // namespace bagscope::storage::detail
