// Choosing each connection's decoder.

#include "session.hpp"

#include <algorithm>
#include <mutex>

#include "core/base/text.hpp"
#include "core/decode/decoder.hpp"
#include "core/schema/schema.hpp"
#include "core/session/detail/session_state.hpp"
#include "core/session/detail/worker_pool.hpp"

namespace bagscope::session {
namespace fs = std::filesystem;
using storage::Source;

// ---------------------------------------------------------------------------------------
// Decoders: the file's own definition, else one another file stores, else a built-in one

Result<std::shared_ptr<const decode::Decoder>> Session::decoder(const storage::Connection& c) const {
  {
    std::lock_guard lock(state_->decoderMutex);
    if (auto it = state_->decoders.find(&c); it != state_->decoders.end()) return it->second;
  }
  // Resolved without the lock: checking a definition reads messages, which may wait for a
  // file another thread is reading (and that thread may ask for a decoder meanwhile).
  auto resolved = state_->resolveDecoder(c);
  std::lock_guard lock(state_->decoderMutex);
  return state_->decoders.emplace(&c, std::move(resolved)).first->second;
}

std::vector<std::string> Session::decodeNotes() const {
  std::lock_guard lock(state_->decoderMutex);
  return state_->decodeNotes;
}

namespace {
bool holds(const Source& source, const storage::Connection& c) {
  auto conns = source.connections();
  return &c >= conns.data() && &c < conns.data() + conns.size();
}
}  // namespace

std::string Session::State::originOf(const storage::Connection& c) const {
  for (const auto* list : {&sources, &definitionSources})
    for (const auto& src : *list)
      if (holds(*src, c)) return src->info().path;
  return "?";
}

std::optional<Message> Session::State::firstMessageOf(const storage::Connection& c) const {
  for (std::uint32_t s = 0; s < sources.size(); ++s) {
    if (!holds(*sources[s], c)) continue;
    TopicId topic = topicOf[s][static_cast<std::size_t>(&c - sources[s]->connections().data())];
    const auto& refs = index[topic];
    // A topic of several connections: look a little way in for this one's first message.
    constexpr std::size_t kLook = 16;
    for (std::size_t n = 0; n < refs.size() && n < kLook; ++n) {
      if (refs[n].source != s) continue;
      Hint hint;
      if (auto m = read(topic, refs[n], hint); m && m->connection == &c) return std::move(m).value();
    }
  }
  return std::nullopt;
}

Result<std::shared_ptr<const decode::Decoder>> Session::State::resolveDecoder(const storage::Connection& c) const {
  // What could decode it, in order: the file's own definition, the same type as other files
  // define it, then the user's .msg folders and the standard interfaces.
  struct Candidate {
    enum class Origin { Stored, OtherFile, BuiltIn } origin;
    std::string schemaEncoding;
    std::string_view definition;
    std::string file;  // OtherFile: which
    std::string name() const {
      switch (origin) {
        case Origin::Stored: return "stored definition";
        case Origin::OtherFile: return "definition from '" + file + "'";
        case Origin::BuiltIn: break;
      }
      return "built-in definition";
    }
  };
  using Origin = Candidate::Origin;
  std::vector<Candidate> candidates;
  // ROS 1 stores every definition: an empty one is a type without fields (std_msgs/Empty) when
  // its md5sum is that of no text, and missing otherwise.
  const bool ros1 = c.messageEncoding == "ros1";
  if (!c.definition.empty() || (ros1 && c.md5sum == "d41d8cd98f00b204e9800998ecf8427e"))
    candidates.push_back({Origin::Stored, c.schemaEncoding, c.definition, {}});
  auto [lo, hi] = definitionsByType.equal_range(normalTypeName(c.type));
  for (auto it = lo; it != hi; ++it) {
    const storage::Connection& other = *it->second;
    if (other.messageEncoding != c.messageEncoding) continue;
    bool known = std::any_of(candidates.begin(), candidates.end(),
                             [&](const Candidate& k) { return k.definition == other.definition; });
    if (!known) candidates.push_back({Origin::OtherFile, other.schemaEncoding, other.definition, originOf(other)});
  }
  if (!ros1) candidates.push_back({Origin::BuiltIn, "", {}, {}});  // the user's .msg folders, the standard interfaces
  if (candidates.empty())
    return makeError(ErrorCode::MissingDefinition, "the file has no definition of '" + c.type + "'");
  auto compile = [&](const Candidate& k) {
    return decode::compileFor(c.type, c.messageEncoding, k.definition.empty() ? "" : k.schemaEncoding, k.definition,
                              msgFolders);
  };
  // The first that compiles is used, unless it does not fit the messages and another does.
  std::optional<Result<std::shared_ptr<const decode::Decoder>>> primary;
  std::size_t used = 0;
  std::vector<std::pair<std::size_t, std::shared_ptr<const decode::Decoder>>> others;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    auto d = compile(candidates[i]);
    if (primary && *primary) {
      if (d) others.emplace_back(i, std::move(d).value());
    } else if (d || !primary) {
      primary = std::move(d);
      used = i;
    }
  }
  if (!*primary || others.empty()) return std::move(*primary);
  // Only where there is a choice: check the definition on the connection's first message
  // (a placeholder stored by a tool, another version of the type reads it wrong).
  auto sample = firstMessageOf(c);
  if (!sample) return std::move(*primary);
  auto misfit = [&](const decode::Decoder& d) -> std::optional<std::string> {
    if (auto v = d.decode(sample->bytes); !v) return v.error().message;
    return std::nullopt;
  };
  auto why = misfit(***primary);
  if (!why) return std::move(*primary);
  std::string said =
      c.topic + ": the " + candidates[used].name() + " of " + c.type + " does not match its messages (" + *why + ")";
  for (auto& [i, d] : others) {
    if (misfit(*d)) continue;
    std::lock_guard lock(decoderMutex);
    decodeNotes.push_back(said + "; decoded with the " + candidates[i].name());
    return d;
  }
  std::lock_guard lock(decoderMutex);
  decodeNotes.push_back(said + "; no other definition fits them");
  return std::move(*primary);
}

}  // namespace bagscope::session
