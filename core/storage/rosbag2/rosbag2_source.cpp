// rosbag2 recordings (https://github.com/ros2/rosbag2): a folder with metadata.yaml and its
// storage files, or one storage file. The metadata is read in metadata.cpp, SQLite storage in
// sqlite_source.cpp; MCAP storage by the MCAP reader.

#include "rosbag2_source.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include "bagscope/recording_types.hpp"
#include "core/storage/detail/concat_source.hpp"
#include "core/storage/detail/wrapped_source.hpp"
#include "core/storage/mcap/mcap_source.hpp"
#include "metadata.hpp"
#include "sqlite_source.hpp"

namespace bagscope::storage {

namespace fs = std::filesystem;
using rosbag2::BagMetadata;
using rosbag2::fail;
using rosbag2::u8;

bool isStorageFile(const fs::path& path) {
  fs::path p = path.extension() == ".zstd" ? path.stem() : path;
  return p.extension() == ".db3" || p.extension() == ".mcap";
}

namespace {

// A file metadata.yaml lists, found as rosbag2 finds it: in the bag folder, else (metadata
// versions 1-3 and `ros2 bag reindex` name the folder too: "bag/bag_0.db3") beside it. Only
// regular files inside the folder count; an entry that leaves it is refused. Empty when absent.
Result<fs::path> resolveListedFile(const fs::path& folder, const std::string& listed) {
  fs::path rel = fs::u8path(listed).lexically_normal();
  bool escapes = rel.empty() || rel.is_absolute() || rel.has_root_name() || *rel.begin() == "..";
  if (escapes)
    return fail(ErrorCode::Format, "metadata.yaml lists '" + listed + "', which is outside the recording's folder",
                folder);
  std::error_code ec;
  std::vector<fs::path> candidates{folder / rel};
  if (std::distance(rel.begin(), rel.end()) > 1 && *rel.begin() == folder.filename())
    candidates.push_back(folder.parent_path() / rel);
  for (const auto& c : candidates) {
    if (fs::is_regular_file(c, ec)) return c;
    if (fs::exists(c, ec))
      return fail(ErrorCode::Format, "metadata.yaml lists '" + listed + "', which is not a regular file", folder);
  }
  return fs::path{};
}

}  // namespace

std::optional<std::vector<fs::path>> rosbag2RecordingFiles(const fs::path& folder) {
  std::error_code ec;
  fs::path yaml = folder / "metadata.yaml";
  if (!fs::is_regular_file(fs::symlink_status(yaml, ec))) return std::nullopt;
  std::ifstream in(yaml, std::ios::binary);
  std::string text(std::istreambuf_iterator<char>(in), {});
  try {  // the metadata.yaml rosbag2 writes, not any YAML with a version in it
    YAML::Node root = YAML::Load(text);
    if (!root.IsMap() || !root["rosbag2_bagfile_information"].IsMap()) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  auto metadata = rosbag2::parseMetadata(text, yaml);
  if (!metadata) return std::nullopt;
  std::vector<fs::path> files{yaml};
  for (const auto& listed : metadata->files) {
    auto found = resolveListedFile(folder, listed);
    if (!found || (!found->empty() && !fs::is_regular_file(fs::symlink_status(*found, ec)))) return std::nullopt;
    if (found->empty()) continue;
    for (const char* companion : {"", "-wal", "-shm", "-journal"}) {
      fs::path f = *found;
      f += companion;
      if (fs::is_regular_file(fs::symlink_status(f, ec)) && std::find(files.begin(), files.end(), f) == files.end())
        files.push_back(f);
    }
  }
  return files;
}

Result<std::unique_ptr<Source>> openRosbag2(const fs::path& path) {
  std::error_code ec;
  fs::path folder = fs::is_directory(path, ec) ? path : path.parent_path();
  fs::path yaml = folder / "metadata.yaml";
  std::optional<BagMetadata> metadata;
  if (fs::exists(yaml, ec)) {
    auto m = rosbag2::readMetadata(yaml);
    BAGSCOPE_TRY(m);
    metadata = std::move(m).value();
  }
  std::vector<fs::path> files;
  std::vector<std::string> notes;  // said in the recording's problems
  if (!fs::is_directory(path, ec) && path.extension() != ".yaml") {
    files.push_back(path);  // a storage file named directly
  } else if (metadata && !metadata->files.empty()) {
    std::set<fs::path> seen;  // a file listed twice is one file (read once)
    std::set<std::string> listedBefore;
    std::uint64_t repeats = 0;
    for (const auto& listed : metadata->files) {
      if (!listedBefore.insert(listed).second) {
        ++repeats;
        continue;
      }
      auto found = resolveListedFile(folder, listed);
      BAGSCOPE_TRY(found);
      if (found->empty()) {
        notes.push_back("metadata.yaml lists '" + listed + "', which is missing; its messages are not read");
      } else if (!seen.insert(fs::weakly_canonical(*found, ec)).second) {
        ++repeats;
      } else {
        files.push_back(*found);
      }
    }
    if (repeats)
      notes.push_back("metadata.yaml lists " + std::to_string(repeats) +
                      " storage files more than once; each is read once");
  }
  if (files.empty() && fs::is_directory(folder, ec)) {
    // No metadata, or none of what it lists: the storage files that are there.
    for (const auto& e : fs::directory_iterator(folder, ec))
      if (isStorageFile(e.path()) && fs::is_regular_file(e.path(), ec)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    if (!files.empty() && metadata && !metadata->files.empty())
      notes.push_back("read the storage files found in the folder instead");
  }
  if (files.empty()) {
    std::string why = "no .db3 or .mcap storage files in the folder";
    if (!notes.empty()) why = notes.front() + ", and " + why;
    return fail(ErrorCode::InvalidArgument, why, folder);
  }
  bool wholeFileZstd = false;
  for (const auto& f : files) wholeFileZstd = wholeFileZstd || f.extension() == ".zstd";
  // Whole-file compression: read decompressed copies in a temporary folder (never beside
  // the user's files), removed when the source closes.
  std::shared_ptr<const fs::path> temp;
  if (wholeFileZstd) {
    temp = detail::makeTempFolder("bagscope-rosbag2");
    if (!temp) return fail(ErrorCode::Io, "cannot create a temporary folder to decompress into", folder);
    BAGSCOPE_TRY(detail::decompressWholeFiles(files, *temp));
  }
  auto storageExt = [](const fs::path& f) { return f.extension() == ".zstd" ? f.stem().extension() : f.extension(); };
  // The metadata's storage plugin, or (when it names none) the files' own kind.
  bool mcap =
      metadata && !metadata->storage.empty() ? metadata->storage == "mcap" : storageExt(files.front()) == ".mcap";
  fs::path shown = fs::is_directory(path, ec) ? path : (path.extension() == ".yaml" ? folder : path);
  std::unique_ptr<Source> source;
  if (mcap) {
    std::vector<std::unique_ptr<Source>> parts;
    for (const auto& f : files) {
      auto bytes = openFile(f);
      BAGSCOPE_TRY(bytes);
      auto inner = openMcap(std::move(bytes).value());
      BAGSCOPE_TRY(inner);
      parts.push_back(std::move(inner).value());
    }
    if (parts.size() == 1) {
      source = std::move(parts.front());
    } else {
      SourceInfo whole;
      whole.path = u8(shown);
      whole.format = "rosbag2 (mcap)";
      whole.version = parts.front()->info().version;
      source = detail::concatSources(std::move(parts), std::move(whole));
    }
  } else {
    auto sqlite = rosbag2::openSqlite(files, metadata, shown);
    BAGSCOPE_TRY(sqlite);
    source = std::move(sqlite).value();
  }
  if (!metadata && !temp && notes.empty()) return source;
  SourceInfo info = source->info();
  info.problems.insert(info.problems.begin(), notes.begin(), notes.end());
  info.path = u8(shown);
  if (mcap) info.format = "rosbag2 (mcap)";
  if (metadata) info.version = std::to_string(metadata->version);
  if (temp) info.format += ", zstd-compressed files";
  return std::unique_ptr<Source>(std::make_unique<detail::WrappedSource>(std::move(source), std::move(info), temp));
}

namespace {

// SQLite storage and whole-file .zstd copies belong to a rosbag2 recording; .mcap files are
// recordings of their own unless a metadata.yaml says otherwise.
bool isRosbag2Storage(const fs::path& p) { return p.extension() == ".db3" || p.extension() == ".zstd"; }

bool claimsRosbag2(const fs::path& path, bool isFolder) {
  if (!isFolder) return path.filename() == "metadata.yaml" || isRosbag2Storage(path);
  std::error_code ec;
  if (fs::exists(path / "metadata.yaml", ec)) return true;
  for (const auto& e : fs::directory_iterator(path, ec))
    if (isRosbag2Storage(e.path())) return true;
  return false;
}

}  // namespace

const ContainerFormat& rosbag2Container() {
  static const ContainerFormat format{.id = "rosbag2",
                                      .label = "rosbag2 recording",
                                      .magic = {},
                                      .extensions = {build::recordingType("rosbag2_sqlite").extension},
                                      .claims = claimsRosbag2,
                                      .openPath = openRosbag2,
                                      .isFolder = true};
  return format;
}

}  // namespace bagscope::storage
