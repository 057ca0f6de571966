// A batch's inputs: recordings found in folders and by globs, and a recording's summary.

#include "session.hpp"

#include <algorithm>
#include <regex>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/session_state.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

namespace {

void collectFolder(const fs::path& folder, bool recursive, std::vector<fs::path>& out) {
  std::error_code ec;
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(folder, ec)) entries.push_back(e.path());
  std::sort(entries.begin(), entries.end());
  for (const auto& p : entries) {
    if (fs::is_directory(p, ec)) {
      if (storage::classify(p) == PathKind::Recording) out.push_back(p);
      else if (recursive) collectFolder(p, recursive, out);
    } else if (storage::hasRecordingName(p)) {
      out.push_back(p);
    }
  }
}

}  // namespace

namespace {

std::vector<fs::path> expandGlob(const fs::path& pattern) {
  std::string name = utf8(pattern.filename()), re;
  for (char c : name) {
    if (c == '*') re += ".*";
    else if (c == '?') re += '.';
    else if (std::string_view(".^$|()[]{}+\\").find(c) != std::string_view::npos) re += std::string("\\") + c;
    else re += c;
  }
  std::regex matcher(re);
  std::vector<fs::path> out;
  std::error_code ec;
  fs::path dir = pattern.has_parent_path() ? pattern.parent_path() : fs::path(".");
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (std::regex_match(utf8(e.path().filename()), matcher)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<std::vector<fs::path>> expandInputs(const std::vector<fs::path>& inputs, bool recursive) {
  std::vector<fs::path> out;
  for (const auto& in : inputs) {
    std::vector<fs::path> found;
    // A pattern only in the last part, and only where no such file exists: "\\?\C:\..." (a
    // Windows long path) and a file whose name holds '?' are taken as they are.
    std::error_code ec;
    if (utf8(in.filename()).find_first_of("*?") != std::string::npos && !fs::exists(in, ec)) {
      found = expandGlob(in);
      if (found.empty()) return fileError(ErrorCode::InvalidArgument, "no file matches", utf8(in));
    } else if (storage::isFolderOfRecordings(in)) {
      found = findRecordings(in, recursive);
      if (found.empty()) return fileError(ErrorCode::InvalidArgument, "no recordings in this folder", utf8(in));
    } else {
      found = {in};
    }
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

Result<storage::RecordingSummary> summarizeRecording(const fs::path& path, bool withTopicBytes) {
  auto source = storage::openSource(path);
  BAGSCOPE_TRY(source);
  auto summary = storage::summarize(**source);
  if (summary && withTopicBytes) BAGSCOPE_TRY(storage::measureTopicBytes(**source, *summary));
  return summary;
}

std::vector<fs::path> findRecordings(const fs::path& folder, bool recursive) {
  std::vector<fs::path> out;
  collectFolder(folder, recursive, out);
  return out;
}

}  // namespace bagscope::session
