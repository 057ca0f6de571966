#include "commands.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "arguments.hpp"
#include "core/base/digest.hpp"
#include "core/base/json_text.hpp"
#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/session/session.hpp"
#include "core/session/timing.hpp"

namespace bagscope::cli {
namespace {

void printError(const Error& e) { std::fprintf(stderr, "bagscope-cli: %s\n", describeForCli(e).c_str()); }

// Standard output is an output like any file: a full disk or a failed write is exit 4, never
// 0 with the text silently cut. A reader that stops reading (`| head`) closes it: that ends
// the command quietly with the code it had, as cat and grep do (SIGPIPE is ignored in main).
bool outputClosed = false;

}  // namespace

bool writeStdout(std::string_view text) {
  if (outputClosed) return false;
  errno = 0;
  if (text.empty() || std::fwrite(text.data(), 1, text.size(), stdout) == text.size()) return true;
  outputClosed = errno == EPIPE;
  return false;
}

int stdoutWritten(int code) {
  if (!outputClosed && std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
  if (outputClosed || errno == EPIPE) return code;
  std::fprintf(stderr, "bagscope-cli: cannot write to standard output: %s\n", systemErrorText(errno).c_str());
  return kOutputFailed;
}

int usageError(std::string_view command, std::string_view why) {
  std::fprintf(stderr, "bagscope-cli: %.*s: %.*s (see bagscope-cli %.*s --help)\n", static_cast<int>(command.size()),
               command.data(), static_cast<int>(why.size()), why.data(), static_cast<int>(command.size()),
               command.data());
  return kUsage;
}

std::string describeForCli(const Error& error) {
  std::string text = error.describe();
  if (error.code == ErrorCode::MissingDefinition) text += " (add the folder of its package with --msg-path)";
  if (error.remedy == Remedy::Replace) text += " (not replaced without --overwrite)";
  return text;
}

// "1700000000.25" -> ns, exactly (no floating point); false when malformed.
int runInfo(const std::vector<std::string>& list) {
  std::optional<std::string> path;
  bool json = false, sizes = false;
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    if (a == "--json") json = true;
    else if (a == "--sizes") sizes = true;
    else if (a.starts_with("-")) return usageError("info", "unknown option '" + a + "'");
    else if (path) return usageError("info", "one file only");
    else path = a;
  }
  if (!path) return usageError("info", "no file given");
  auto summary = session::summarizeRecording(std::filesystem::u8path(*path), sizes);
  if (!summary) {
    printError(summary.error());
    return kFailed;
  }
  std::string text = json ? session::formatSummaryJson(*summary) + "\n" : session::formatSummaryText(*summary);
  writeStdout(text);
  // Problems (a cut file, a rebuilt index, a missing part) are in the text; the exit code
  // says too that not all of the recording was there.
  return stdoutWritten(summary->info.problems.empty() ? kOk : kPartial);
}

namespace {

struct CatArgs {
  std::string path;
  std::vector<std::string> topics;
  std::optional<std::string> startArg, endArg;
  std::vector<std::filesystem::path> msgPaths;
  decode::BytesMode bytesMode = decode::BytesMode::Digest;
};

// Parses `args` into `out`; the exit code of a usage error, else nothing.
std::optional<int> parseCatArgs(const std::vector<std::string>& list, CatArgs& out) {
  bool havePath = false;
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    auto value = [&](std::string& result) { return args.value(result); };
    std::string v;
    if (a == "--topic") {
      if (!value(v)) return usageError("cat", "--topic needs a topic");
      out.topics.push_back(v);
    } else if (a == "--start" || a == "--end") {
      if (!value(v)) return usageError("cat", a + " needs a time in seconds");
      (a == "--start" ? out.startArg : out.endArg) = v;
    } else if (a == "--msg-path") {
      if (!value(v)) return usageError("cat", "--msg-path needs a folder");
      out.msgPaths.push_back(std::filesystem::u8path(v));
    } else if (a == "--bytes") {
      if (!value(v)) return usageError("cat", "--bytes needs digest or base64");
      if (v == "digest") out.bytesMode = decode::BytesMode::Digest;
      else if (v == "base64") out.bytesMode = decode::BytesMode::Base64;
      else return usageError("cat", "--bytes takes digest or base64, not '" + v + "'");
    } else if (a.starts_with("-")) {
      return usageError("cat", "unknown option '" + a + "'");
    } else if (havePath) {
      return usageError("cat", "one file only");
    } else {
      out.path = a;
      havePath = true;
    }
  }
  if (!havePath) return usageError("cat", "no file given");
  return std::nullopt;
}

// The messages `args` select: its time range and topics (each must exist).
std::optional<int> selectMessages(const session::Session& s, const CatArgs& args, session::Selection& selection) {
  for (const auto* arg : {&args.startArg, &args.endArg})
    if (*arg && !parseTimeArgument(**arg, s.startNs(), arg == &args.startArg ? selection.startNs : selection.endNs))
      return usageError("cat", "'" + **arg + "' is not a time in seconds");
  for (const auto& t : args.topics) {
    bool found = false;
    for (session::TopicId id = 0; id < s.topics().size(); ++id) {
      if (s.topics()[id].name == t) {
        selection.topics.push_back(id);
        found = true;
      }
    }
    if (!found) return usageError("cat", "'" + args.path + "' has no topic '" + t + "'");
  }
  return std::nullopt;
}

// The type of the topic named `name`, when one type has that name.
std::optional<std::string> typeOf(const session::Session& s, const std::string& name) {
  std::optional<std::string> type;
  for (const auto& t : s.topics()) {
    if (t.name != name) continue;
    if (type) return std::nullopt;
    type = t.type;
  }
  return type;
}

// Messages on their way to text: a batch read on the reading thread (the messages' bytes
// copied, their decoders found), turned into JSON lines on a worker.
struct CatBatch {
  struct Item {
    const storage::Connection* connection = nullptr;
    std::int64_t logTimeNs = 0;
    std::size_t offset = 0, size = 0;                // in `bytes`
    std::shared_ptr<const decode::Decoder> decoder;  // null: `failure` says why
    std::optional<Error> failure;
    std::string line;  // a message that could not be read: its line as it is
  };
  std::vector<Item> items;
  ByteBuffer bytes;
  // What formatting gives: the text, the messages lost, and their errors for stderr, in order.
  std::string text;
  std::uint64_t lost = 0;
  std::vector<Error> errors;
};

// Formats `batch.items` into `batch.text`. Runs on a worker: touches nothing else.
void formatBatch(CatBatch& batch, decode::BytesMode bytesMode) {
  std::string& out = batch.text;
  for (auto& m : batch.items) {
    if (!m.line.empty()) {
      out += m.line;
      continue;
    }
    auto bytes = batch.bytes.span().subspan(m.offset, m.size);
    out += "{\"topic\":";
    appendJsonString(m.connection->topic, out);
    out += ",\"type\":";
    appendJsonString(m.connection->type, out);
    out += ",\"log_time_ns\":";
    out += std::to_string(m.logTimeNs);
    if (m.decoder) {
      if (auto value = m.decoder->decode(bytes)) {
        out += ",\"msg\":";
        decode::appendJson(*value, out, bytesMode);
      } else {
        Error e = value.error();
        e.topic = m.connection->topic;
        e.logTimeNs = m.logTimeNs;
        batch.errors.push_back(e);
        m.failure = std::move(e);
      }
    }
    if (m.failure) {
      ++batch.lost;
      out += ",\"msg\":null,\"error\":";
      appendJsonString(m.failure->message, out);
      out += ",\"raw\":{\"len\":" + std::to_string(bytes.size());
      out += bytesMode == decode::BytesMode::Base64 ? ",\"base64\":\"" + base64(bytes) + "\"}"
                                                    : ",\"sha256\":\"" + sha256Hex(bytes) + "\"}";
    }
    out += "}\n";
  }
}

// Formats batches on a few threads kept for the whole command (their allocator caches stay
// warm), handing them back in the order they came.
class BatchFormatter {
public:
  BatchFormatter(unsigned threads, decode::BytesMode mode) : mode_(mode) {
    for (unsigned t = 0; t < threads; ++t) threads_.emplace_back([this] { work(); });
  }
  ~BatchFormatter() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }
  BatchFormatter(const BatchFormatter&) = delete;
  BatchFormatter& operator=(const BatchFormatter&) = delete;

  void push(std::unique_ptr<CatBatch> batch) {
    if (threads_.empty()) formatBatch(*batch, mode_);  // one core: here and now
    std::lock_guard lock(mutex_);
    queue_.push_back({std::move(batch), threads_.empty(), threads_.empty()});
    wake_.notify_one();
  }
  std::size_t size() {
    std::lock_guard lock(mutex_);
    return queue_.size();
  }
  /// The oldest batch, formatted (waits for it).
  std::unique_ptr<CatBatch> pop() {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return queue_.front().done; });
    auto batch = std::move(queue_.front().batch);
    queue_.pop_front();
    return batch;
  }

private:
  struct Entry {
    std::unique_ptr<CatBatch> batch;
    bool started = false, done = false;
  };
  void work() {
    std::unique_lock lock(mutex_);
    while (true) {
      auto next = queue_.end();
      wake_.wait(lock, [&] {
        next = std::find_if(queue_.begin(), queue_.end(), [](const Entry& e) { return !e.started; });
        return stop_ || next != queue_.end();
      });
      if (stop_) return;
      next->started = true;
      CatBatch* batch = next->batch.get();  // stays put: only pop() removes it, once done
      lock.unlock();
      formatBatch(*batch, mode_);
      lock.lock();
      for (auto& e : queue_)
        if (e.batch.get() == batch) e.done = true;
      done_.notify_all();
    }
  }

  decode::BytesMode mode_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::deque<Entry> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;  // last: they start using the members above
};

// Prints every message of `selection` as a JSON line. Every message gets its line, in
// place: one that cannot be decoded says why, with its size and digest (or its bytes), so
// that counts and order always match the file. Decoding and formatting run on every core,
// batch by batch, and are written in the order read. Returns the messages lost;
// `writeFailed` when standard output could not take the text.
Result<std::uint64_t> printMessages(const session::Session& s, const CatArgs& args, const session::Selection& selection,
                                    bool& writeFailed) {
  constexpr std::size_t kBatchMessages = 1024, kBatchBytes = 1 << 20;
  const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  std::set<const storage::Connection*> undecodable;  // said once on stderr
  std::uint64_t lost = 0;
  auto batch = std::make_unique<CatBatch>();
  BatchFormatter formatter(workers > 1 ? workers : 0, args.bytesMode);
  // Writes the oldest batch; false when nothing more can be written.
  auto writeOldest = [&] {
    auto done = formatter.pop();
    for (Error& e : done->errors) {
      e.file = args.path;
      printError(e);
    }
    lost += done->lost;
    writeFailed = writeFailed || !writeStdout(done->text);
    return !writeFailed;
  };
  auto submit = [&] {
    if (batch->items.empty()) return !writeFailed;
    formatter.push(std::move(batch));
    batch = std::make_unique<CatBatch>();
    while (formatter.size() >= 2 * workers)  // at most two batches per core in flight
      if (!writeOldest()) return false;
    return true;
  };
  auto result = s.forEach(
      selection,
      [&](const session::Message& m) {
        CatBatch::Item item{m.connection, m.logTimeNs, batch->bytes.size(), m.bytes.size(), nullptr, std::nullopt, {}};
        if (auto d = s.decoder(*m.connection)) {
          item.decoder = *d;
        } else {
          item.failure = d.error();
          if (undecodable.insert(m.connection).second) {
            Error e = d.error();
            e.file = args.path;
            e.topic = m.connection->topic;
            std::fprintf(stderr, "bagscope-cli: %s; its messages are printed without values\n",
                         describeForCli(e).c_str());
          }
        }
        batch->bytes.resize(item.offset + item.size);
        if (item.size) std::memcpy(batch->bytes.data() + item.offset, m.bytes.data(), item.size);
        batch->items.push_back(std::move(item));
        if (batch->items.size() < kBatchMessages && batch->bytes.size() < kBatchBytes) return true;
        return submit();  // stop reading when nothing can be written
      },
      [&](const Error& e) {
        printError(e);
        ++lost;
        // A message that could not be read, where it was (its time known): its line says so.
        if (e.logTimeNs < 0) return;
        std::string line = "{\"topic\":";
        appendJsonString(e.topic, line);
        if (auto type = typeOf(s, e.topic)) {
          line += ",\"type\":";
          appendJsonString(*type, line);
        }
        line += ",\"log_time_ns\":" + std::to_string(e.logTimeNs) + ",\"msg\":null,\"error\":";
        appendJsonString(e.message, line);
        line += "}\n";
        CatBatch::Item item;
        item.line = std::move(line);
        batch->items.push_back(std::move(item));
      });
  submit();
  while (formatter.size() > 0) {
    if (!writeFailed) writeOldest();
    else formatter.pop();  // its text goes nowhere
  }
  BAGSCOPE_TRY(result);
  return lost;
}

}  // namespace

int runCat(const std::vector<std::string>& args) {
  CatArgs parsed;
  if (auto code = parseCatArgs(args, parsed)) return *code;
  session::SessionOptions options;
  options.msgPaths = parsed.msgPaths;
  auto opened = session::Session::open({std::filesystem::u8path(parsed.path)}, options);
  if (!opened) {
    printError(opened.error());
    return kFailed;
  }
  const session::Session& s = **opened;
  for (const auto& p : s.problems()) std::fprintf(stderr, "bagscope-cli: %s\n", p.c_str());
  session::Selection selection;
  if (auto code = selectMessages(s, parsed, selection)) return *code;
  if (!parsed.topics.empty() && selection.topics.empty()) return kOk;

  bool writeFailed = false;
  auto lost = printMessages(s, parsed, selection, writeFailed);
  for (const auto& note : s.decodeNotes())
    std::fprintf(stderr, "bagscope-cli: '%s': %s\n", parsed.path.c_str(), note.c_str());
  if (writeFailed && !outputClosed) return stdoutWritten(kOutputFailed);
  if (!lost) {
    printError(lost.error());
    return kFailed;
  }
  if (*lost > 0) {
    std::fprintf(stderr, "bagscope-cli: '%s': %llu messages or chunks could not be read or decoded\n",
                 parsed.path.c_str(), static_cast<unsigned long long>(*lost));
    return stdoutWritten(kPartial);
  }
  // Damage recovered or data missing (a cut file, a listed file absent): not all was read.
  return stdoutWritten(s.problems().empty() ? kOk : kPartial);
}

int runStats(const std::vector<std::string>& list) {
  std::vector<std::filesystem::path> paths;
  bool json = false;
  session::SessionOptions options;
  Arguments args(list);
  while (args.next()) {
    const std::string& a = args.current();
    if (a == "--json") json = true;
    else if (a == "--recursive" || a == "-r") options.recursive = true;
    else if (a.starts_with("-")) return usageError("stats", "unknown option '" + a + "'");
    else paths.push_back(std::filesystem::u8path(a));
  }
  if (paths.empty()) return usageError("stats", "no file given");
  auto opened = session::Session::open(paths, options);
  if (!opened) {
    printError(opened.error());
    return kFailed;
  }
  for (const auto& p : (*opened)->problems()) std::fprintf(stderr, "bagscope-cli: note: %s\n", p.c_str());
  auto stats = session::timingStats(**opened);
  if (!stats) {
    printError(stats.error());
    return kFailed;
  }
  std::string text = json ? session::formatTimingJson(*stats) + "\n" : session::formatTimingText(*stats);
  writeStdout(text);
  bool lost = false;
  for (const auto& t : *stats) {
    if (t.unreadable == 0) continue;
    std::fprintf(stderr, "bagscope-cli: %s: %llu messages could not be read, so their stamps are missing: %s\n",
                 t.topic.c_str(), static_cast<unsigned long long>(t.unreadable), t.readError.c_str());
    lost = true;
  }
  return stdoutWritten(lost || !(*opened)->problems().empty() ? kPartial : kOk);
}

}  // namespace bagscope::cli
