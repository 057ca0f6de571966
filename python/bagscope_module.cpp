// `import bagscope`: the core from Python (pybind11). A Recording is a session over one or
// many recordings; messages stream in time order as nested dicts, fields come out as numpy
// columns. The GIL is released while the core reads and decodes.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <regex>

#include "core/base/stop.hpp"
#include "core/decode/decoder.hpp"
#include "core/session/session.hpp"

namespace py = pybind11;

namespace bagscope::python {
namespace {

// Core errors become Python exceptions carrying the core's description (file, topic, offset):
// OSError for what the system refused, ValueError for an impossible request, KeyboardInterrupt
// for a stop, RuntimeError for damaged or unreadable data.
[[noreturn]] void raise(const Error& error) {
  PyObject* type = error.code == ErrorCode::Io                ? PyExc_OSError
                   : error.code == ErrorCode::InvalidArgument ? PyExc_ValueError
                   : error.code == ErrorCode::Cancelled       ? PyExc_KeyboardInterrupt
                                                              : PyExc_RuntimeError;
  PyErr_SetString(type, error.describe().c_str());
  throw py::error_already_set();
}
template <typename T>
T valueOr(Result<T> r) {
  if (!r) raise(r.error());
  return std::move(r).value();
}

// A decoded value as Python objects, in the form of `bagscope-cli cat`'s JSON: structs as
// dicts, arrays as lists (bytes as bytes), times as {"sec", "nsec"}.
py::object toPython(const decode::Value& v) {
  using K = decode::Value::Kind;
  switch (v.kind) {
    case K::Bool: return py::bool_(v.b);
    case K::Int: return py::int_(v.i);
    case K::UInt: return py::int_(v.u);
    case K::Float: return py::float_(v.f);
    case K::String:
      return py::str(PyUnicode_DecodeUTF8(v.text.data(), static_cast<Py_ssize_t>(v.text.size()), "replace"));
    case K::Time:
    case K::Duration: {
      py::dict d;
      d["sec"] = v.t.sec;
      d["nsec"] = v.t.nsec;
      return std::move(d);
    }
    case K::Bytes: return py::bytes(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size());
    case K::Array: {
      py::list list(v.items.size());
      for (std::size_t i = 0; i < v.items.size(); ++i) list[i] = toPython(v.items[i]);
      return std::move(list);
    }
    case K::Struct: {
      py::dict d;
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (!v.type || i >= v.type->fields.size() || v.type->fields[i].hidden) continue;
        d[py::str(v.type->fields[i].name)] = toPython(v.items[i]);
      }
      return std::move(d);
    }
  }
  return py::none();
}

// Messages of a selection, read in time order by the session on a thread of its own into a
// bounded queue, taken one by one by Python: a recording of any size streams in bounded memory.
class MessageStream {
public:
  MessageStream(std::shared_ptr<const session::Session> session, session::Selection selection, bool raw)
      : session_(std::move(session)), raw_(raw) {
    reader_ = JoiningThread([this, selection = std::move(selection)](StopToken stop) {
      auto r = session_->forEach(
          selection, [&](const session::Message& m) { return push(m, stop); }, {}, stop);
      std::lock_guard lock(mutex_);
      if (!r && r.error().code != ErrorCode::Cancelled) error_ = r.error();
      done_ = true;
      changed_.notify_all();
    });
  }
  ~MessageStream() {
    reader_.request_stop();
    {
      std::lock_guard lock(mutex_);
      changed_.notify_all();
    }
  }

  py::tuple next() {
    Item m;
    {
      py::gil_scoped_release free;
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || done_; });
      if (queue_.empty()) {
        if (error_) {
          Error e = *error_;
          error_.reset();
          lock.unlock();
          py::gil_scoped_acquire held;
          raise(e);
        }
        lock.unlock();
        py::gil_scoped_acquire held;
        throw py::stop_iteration();
      }
      m = std::move(queue_.front());
      queue_.pop_front();
      changed_.notify_all();
    }
    const std::string& topic = session_->topics()[m.topic].name;
    if (raw_) return py::make_tuple(topic, m.logTimeNs, py::bytes(m.bytes.data(), m.bytes.size()));
    Result<decode::Value> value = makeError(ErrorCode::Internal, "");
    {
      py::gil_scoped_release free;
      auto decoder = session_->decoder(*m.connection);
      value = decoder ? (*decoder)->decode(std::as_bytes(std::span(m.bytes)))
                      : Result<decode::Value>(std::move(decoder).error());
    }
    if (!value) {
      Error e = value.error();
      e.topic = topic;
      e.logTimeNs = m.logTimeNs;
      raise(e);
    }
    return py::make_tuple(topic, m.logTimeNs, toPython(*value));
  }

private:
  // A message as the queue holds it: its bytes copied (the session's view is only valid
  // during its callback). A decoded value may point into them: it is made after the copy.
  struct Item {
    session::TopicId topic = 0;
    const storage::Connection* connection = nullptr;
    std::int64_t logTimeNs = 0;
    std::string bytes;
  };

  bool push(const session::Message& m, const StopToken& stop) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < kQueued || stop.stop_requested(); });
    if (stop.stop_requested()) return false;
    queue_.push_back({m.topic, m.connection, m.logTimeNs,
                      std::string(reinterpret_cast<const char*>(m.bytes.data()), m.bytes.size())});
    changed_.notify_all();
    return true;
  }

  static constexpr std::size_t kQueued = 256;
  std::shared_ptr<const session::Session> session_;
  bool raw_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Item> queue_;
  std::optional<Error> error_;
  bool done_ = false;
  JoiningThread reader_;  // last: stopped and joined before the queue it fills goes
};

// The topics a pattern names: a name, or /regular expression/ as `filter` takes them.
std::vector<session::TopicId> topicsNamed(const session::Session& s, const std::vector<std::string>& patterns) {
  std::vector<session::TopicId> out;
  for (const auto& pattern : patterns) {
    bool found = false;
    const bool regex = pattern.size() >= 2 && pattern.front() == '/' && pattern.back() == '/';
    std::regex re;
    if (regex) re = std::regex(pattern.substr(1, pattern.size() - 2));
    for (session::TopicId id = 0; id < s.topics().size(); ++id)
      if (regex ? std::regex_search(s.topics()[id].name, re) : s.topics()[id].name == pattern) {
        out.push_back(id);
        found = true;
      }
    if (!found && !regex) throw py::key_error("no topic '" + pattern + "' in the recording");
  }
  return out;
}

class Recording {
public:
  Recording(const std::vector<std::filesystem::path>& paths, const std::vector<std::filesystem::path>& msgPath,
            std::size_t cacheMib) {
    session::SessionOptions options;
    options.msgPaths = msgPath;
    options.cacheBytes = cacheMib << 20;
    Result<std::unique_ptr<session::Session>> opened = makeError(ErrorCode::Internal, "");
    {
      py::gil_scoped_release free;
      opened = session::Session::open(paths, options);
    }
    session_ = valueOr(std::move(opened));
  }

  const session::Session& session() const {
    if (!session_) throw std::runtime_error("the recording is closed");
    return *session_;
  }
  void close() { session_.reset(); }

  py::list topics() const {
    py::list out;
    const auto& s = session();
    for (session::TopicId id = 0; id < s.topics().size(); ++id) {
      const auto& t = s.topics()[id];
      auto index = s.index(id);
      py::dict d;
      d["name"] = t.name;
      d["type"] = t.type;
      d["count"] = t.messageCount;
      d["first_ns"] = index.empty() ? py::object(py::none()) : py::int_(index.front().logTimeNs);
      d["last_ns"] = index.empty() ? py::object(py::none()) : py::int_(index.back().logTimeNs);
      double span = index.size() > 1 ? static_cast<double>(index.back().logTimeNs - index.front().logTimeNs) / 1e9 : 0;
      d["rate_hz"] = span > 0 ? static_cast<double>(index.size() - 1) / span : 0.0;
      d["encoding"] = t.members.empty() ? std::string() : t.members.front().connection->messageEncoding;
      out.append(d);
    }
    return out;
  }

  MessageStream* messages(const std::vector<std::string>& topics, std::optional<std::int64_t> start,
                          std::optional<std::int64_t> end, bool raw) const {
    session::Selection selection;
    selection.topics = topicsNamed(session(), topics);
    if (!topics.empty() && selection.topics.empty()) {  // patterns that matched nothing: no message
      selection.startNs = std::numeric_limits<std::int64_t>::max();
      selection.endNs = std::numeric_limits<std::int64_t>::min();
    }
    if (start) selection.startNs = *start;
    if (end) selection.endNs = *end;
    return new MessageStream(session_, std::move(selection), raw);
  }

  // Numeric columns of message paths, as numpy arrays keyed by path, with "log_time_ns".
  py::dict columns(const std::string& topic, const std::vector<std::string>& paths, std::optional<std::int64_t> start,
                   std::optional<std::int64_t> end) const {
    auto ids = topicsNamed(session(), {topic});
    Result<session::FieldColumns> extracted = makeError(ErrorCode::Internal, "");
    {
      py::gil_scoped_release free;
      extracted = session().extractFields(ids.front(), paths, start.value_or(INT64_MIN), end.value_or(INT64_MAX));
    }
    session::FieldColumns c = valueOr(std::move(extracted));
    py::dict out;
    out["log_time_ns"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.logTimeNs.size()), c.logTimeNs.data());
    for (std::size_t k = 0; k < c.paths.size(); ++k)
      out[py::str(c.paths[k])] = py::array_t<double>(static_cast<py::ssize_t>(c.values[k].size()), c.values[k].data());
    return out;
  }

private:
  std::shared_ptr<const session::Session> session_;
};

}  // namespace
}  // namespace bagscope::python

PYBIND11_MODULE(bagscope, m) {
  using namespace bagscope::python;
  m.doc() = "Robot recordings (ROS 1 .bag, rosbag2, MCAP) read without ROS, by Bagscope's core.";

  py::class_<MessageStream>(m, "MessageStream")
      .def("__iter__", [](MessageStream& s) -> MessageStream& { return s; })
      .def("__next__", &MessageStream::next);

  py::class_<Recording>(m, "Recording")
      .def_property_readonly("topics", &Recording::topics,
                             "[{name, type, count, first_ns, last_ns, rate_hz, encoding}]")
      .def_property_readonly("start", [](const Recording& r) { return r.session().startNs(); })
      .def_property_readonly("end", [](const Recording& r) { return r.session().endNs(); })
      .def_property_readonly("problems", [](const Recording& r) { return r.session().problems(); })
      .def("messages", &Recording::messages, py::arg("topics") = std::vector<std::string>{},
           py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("raw") = false,
           py::return_value_policy::take_ownership,
           "(topic, log_time_ns, message) in log-time order; a message as nested dicts, or bytes with raw=True. "
           "topics: names or /regular expressions/.")
      .def("columns", &Recording::columns, py::arg("topic"), py::arg("paths"), py::arg("start") = py::none(),
           py::arg("end") = py::none(), "{path: numpy array} of numeric fields, and 'log_time_ns'")
      .def("close", &Recording::close)
      .def("__enter__", [](Recording& r) -> Recording& { return r; })
      .def("__exit__", [](Recording& r, py::args) { r.close(); });

  m.def(
      "open",
      [](py::object paths, const std::vector<std::filesystem::path>& msgPath, std::size_t cacheMib) {
        std::vector<std::filesystem::path> list;
        if (py::isinstance<py::str>(paths) || py::hasattr(paths, "__fspath__"))
          list.push_back(paths.cast<std::filesystem::path>());
        else list = paths.cast<std::vector<std::filesystem::path>>();
        return new Recording(list, msgPath, cacheMib);
      },
      py::arg("paths"), py::arg("msg_path") = std::vector<std::filesystem::path>{}, py::arg("cache_mib") = 1024,
      py::return_value_policy::take_ownership,
      "A Recording over files (.bag, .mcap), rosbag2 folders and folders of recordings.");
}
