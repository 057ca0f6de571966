// `import bagscope`: the core from Python (pybind11). A Recording is a session over one or
// many recordings; messages stream in time order as nested dicts, fields come out as numpy
// columns. The GIL is released while the core reads and decodes.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "core/base/byte_source.hpp"
#include "core/base/job.hpp"
#include "core/base/stop.hpp"
#include "core/decode/decoder.hpp"
#include "core/export/export.hpp"
#include "core/schema/builtin_types.hpp"
#include "core/sensors/sensors.hpp"
#include "core/session/session.hpp"
#include "core/write/write.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace bagscope::python {
namespace {

// Core errors become Python exceptions carrying the core's description (file, topic, offset):
// OSError for what the system refused (reading or writing), ValueError for an impossible request, KeyboardInterrupt
// for a stop, RuntimeError for damaged or unreadable data.
[[noreturn]] void raise(const Error& error) {
  PyObject* type = error.code == ErrorCode::Io || error.code == ErrorCode::Write ? PyExc_OSError
                   : error.code == ErrorCode::InvalidArgument                    ? PyExc_ValueError
                   : error.code == ErrorCode::Cancelled                          ? PyExc_KeyboardInterrupt
                                                                                 : PyExc_RuntimeError;
  PyErr_SetString(type, error.describe().c_str());
  throw py::error_already_set();
}
template <typename T>
T valueOr(Result<T> r) {
  if (!r) raise(r.error());
  return std::move(r).value();
}

// Runs `work`, which must not touch Python, on a thread of its own while this thread waits
// with the GIL released: every 50 ms it reports progress to `progress` (a Python callable, or
// None) and checks for Ctrl-C, which stops the work through its token and raises
// KeyboardInterrupt. An exception from `progress` stops the work too, and propagates.
template <typename T>
Result<T> interruptible(const std::function<Result<T>(StopToken, const ProgressFn&)>& work,
                        const py::object& progress = py::none()) {
  std::mutex mutex;
  std::condition_variable finished;
  std::optional<Result<T>> result;
  std::atomic<double> fraction{-1};
  JoiningThread thread([&](StopToken stop) {
    Result<T> r = makeError(ErrorCode::Internal, "");
    try {
      r = work(stop, [&](double f) { fraction = f; });
    } catch (const std::exception& e) {
      r = makeError(ErrorCode::Internal, e.what());
    }
    std::lock_guard lock(mutex);
    result.emplace(std::move(r));
    finished.notify_all();
  });
  double reported = -1;
  for (bool done = false; !done;) {
    {
      py::gil_scoped_release free;
      std::unique_lock lock(mutex);
      done = finished.wait_for(lock, std::chrono::milliseconds(50), [&] { return result.has_value(); });
    }
    // A stop asked for here ends the work; the thread is joined before anything it uses goes.
    if (double f = fraction; !progress.is_none() && f >= 0 && f != reported) {
      reported = f;
      progress(f);
    }
    if (!done && PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  thread.join();
  return std::move(*result);
}

// The numpy dtype of a numeric field's elements, or null for others (strings, times, messages).
const char* numpyType(const schema::Field& f) {
  using P = schema::Primitive;
  switch (f.type) {
    case P::Bool: return "?";
    case P::Int8: return "i1";
    case P::UInt8: return "u1";
    case P::Int16: return "i2";
    case P::UInt16: return "u2";
    case P::Int32: return "i4";
    case P::UInt32: return "u4";
    case P::Int64: return "i8";
    case P::UInt64: return "u8";
    case P::Float32: return "f4";
    case P::Float64: return "f8";
    default: return nullptr;
  }
}

// A numeric array as a numpy array of its field's type.
template <typename T>
py::array numericArray(const decode::Value& v) {
  py::array_t<T> out(static_cast<py::ssize_t>(v.items.size()));
  T* p = out.mutable_data();
  for (const auto& x : v.items) {
    using K = decode::Value::Kind;
    *p++ = x.kind == K::Float  ? static_cast<T>(x.f)
           : x.kind == K::Int  ? static_cast<T>(x.i)
           : x.kind == K::UInt ? static_cast<T>(x.u)
                               : static_cast<T>(x.b);
  }
  return std::move(out);
}

py::object numericArray(const decode::Value& v, const schema::Field& f) {
  using P = schema::Primitive;
  switch (f.type) {
    case P::Bool: return numericArray<bool>(v);
    case P::Int8: return numericArray<std::int8_t>(v);
    case P::UInt8: return numericArray<std::uint8_t>(v);
    case P::Int16: return numericArray<std::int16_t>(v);
    case P::UInt16: return numericArray<std::uint16_t>(v);
    case P::Int32: return numericArray<std::int32_t>(v);
    case P::UInt32: return numericArray<std::uint32_t>(v);
    case P::Int64: return numericArray<std::int64_t>(v);
    case P::UInt64: return numericArray<std::uint64_t>(v);
    case P::Float32: return numericArray<float>(v);
    default: return numericArray<double>(v);
  }
}

// A decoded value as Python objects, in the form of `bagscope-cli cat`'s JSON: structs as
// dicts, arrays of numbers as numpy arrays of their type (fixed ones of up to 16 elements as
// lists), other arrays as lists, uint8[] as bytes, times as {"sec", "nsec"}.
py::object toPython(const decode::Value& v, const schema::Field* field = nullptr) {
  using K = decode::Value::Kind;
  switch (v.kind) {
    case K::Bool: return py::bool_(v.b);
    case K::Int: return py::int_(v.i);
    case K::UInt: return py::int_(v.u);
    case K::Float: return py::float_(v.f);
    case K::String:
      return py::reinterpret_steal<py::object>(
          PyUnicode_DecodeUTF8(v.text.data(), static_cast<Py_ssize_t>(v.text.size()), "replace"));
    case K::Time:
    case K::Duration: {
      py::dict d;
      d["sec"] = v.t.sec;
      d["nsec"] = v.t.nsec;
      return std::move(d);
    }
    case K::Bytes: return py::bytes(reinterpret_cast<const char*>(v.bytes.data()), v.bytes.size());
    case K::Array: {
      // Small fixed arrays (a covariance, a camera matrix) are lists: a numpy array costs more
      // to make than it saves there.
      if (field && numpyType(*field) && !(field->array == schema::ArrayKind::Fixed && field->arrayLength <= 16))
        return numericArray(v, *field);
      py::list list(v.items.size());
      for (std::size_t i = 0; i < v.items.size(); ++i) list[i] = toPython(v.items[i]);
      return std::move(list);
    }
    case K::Struct: {
      py::dict d;
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (!v.type || i >= v.type->fields.size() || v.type->fields[i].hidden) continue;
        d[py::str(v.type->fields[i].name)] = toPython(v.items[i], &v.type->fields[i]);
      }
      return std::move(d);
    }
  }
  return py::none();
}

// A cloud's points as a numpy structured array whose fields are the exporter's channels (a
// field with count > 1 as name_0, name_1…, packed rgb/rgba as r, g, b(, a) uint8), in native
// byte order; an organized cloud keeps its (height, width) shape. A little-endian cloud whose
// bytes `pin` keeps is a read-only view of them, as ros2_numpy gives it: fields at their
// offsets in items of point_step bytes, rows row_step apart; else the values are copied.
py::array cloudArray(const sensors::PointCloud& cloud, const std::shared_ptr<const void>& pin) {
  static constexpr const char* kFormats[] = {"", "i1", "u1", "<i2", "<u2", "<i4", "<u4", "<f4", "<f8"};
  auto channels = cloud.channels();
  if (pin && !cloud.bigEndian) {
    py::list names, formats, offsets;
    for (const auto& c : channels) {
      names.append(c.name);
      formats.append(c.colourByte >= 0 ? "u1" : kFormats[static_cast<int>(c.type)]);
      offsets.append(c.offset + static_cast<std::uint32_t>(std::max<std::int8_t>(c.colourByte, 0)));
    }
    py::dict layout("names"_a = names, "formats"_a = formats, "offsets"_a = offsets, "itemsize"_a = cloud.pointStep);
    auto dtype = py::reinterpret_steal<py::dtype>(py::module_::import("numpy").attr("dtype")(layout).release());
    std::vector<py::ssize_t> shape{cloud.height, cloud.width}, strides{cloud.rowStep, cloud.pointStep};
    if (!cloud.organized()) {
      shape = {static_cast<py::ssize_t>(cloud.size())};
      strides = {cloud.pointStep};
    }
    py::capsule owner(new std::shared_ptr<const void>(pin),
                      [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
    py::array view(dtype, shape, strides, cloud.data.data(), owner);
    view.attr("flags").attr("writeable") = false;
    return view;
  }
  py::list fields;
  for (const auto& c : channels) fields.append(py::make_tuple(c.name, kFormats[static_cast<int>(c.type)]));
  py::dtype dtype = py::reinterpret_steal<py::dtype>(py::module_::import("numpy").attr("dtype")(fields).release());
  std::vector<py::ssize_t> shape;
  if (cloud.organized()) shape = {cloud.height, cloud.width};
  else shape = {static_cast<py::ssize_t>(cloud.size())};
  py::array out(dtype, shape);
  auto* dst = static_cast<std::byte*>(out.mutable_data());
  const std::size_t stride = static_cast<std::size_t>(dtype.itemsize());
  std::size_t at = 0;
  py::gil_scoped_release free;
  for (const auto& c : channels) {
    const std::size_t n = c.colourByte >= 0 ? 1 : sensors::sizeOf(c.type);
    const std::size_t from = c.offset + (c.colourByte < 0 ? 0 : cloud.bigEndian ? 3 - c.colourByte : c.colourByte);
    const bool swap = cloud.bigEndian && n > 1;
    // One loop per element size, so that each copy is a load and a store, not a call.
    auto copy = [&]<std::size_t N>(std::integral_constant<std::size_t, N>) {
      std::byte* q = dst + at;
      for (std::size_t row = 0; row < cloud.height; ++row) {
        const std::byte* p = cloud.data.data() + row * std::size_t{cloud.rowStep} + from;
        for (std::size_t col = 0; col < cloud.width; ++col, p += cloud.pointStep, q += stride) {
          if (swap) std::reverse_copy(p, p + N, q);
          else std::memcpy(q, p, N);
        }
      }
    };
    switch (n) {
      case 1: copy(std::integral_constant<std::size_t, 1>{}); break;
      case 2: copy(std::integral_constant<std::size_t, 2>{}); break;
      case 4: copy(std::integral_constant<std::size_t, 4>{}); break;
      default: copy(std::integral_constant<std::size_t, 8>{}); break;
    }
    at += n;
  }
  return out;
}

// An image's pixels as a (height, width[, channels]) array of its depth; colour in RGB(A)
// order, or BGR(A) as OpenCV has it.
py::array imageArray(const sensors::Image& image, bool rgb) {
  static constexpr const char* kFormats[] = {"u1", "i1", "<u2", "<i2", "<i4", "<f4", "<f8"};
  py::dtype dtype(kFormats[static_cast<int>(image.depth)]);
  std::vector<py::ssize_t> shape{image.height, image.width};
  if (image.channels > 1) shape.push_back(image.channels);
  py::array out(dtype, shape);
  auto* dst = static_cast<std::byte*>(out.mutable_data());
  const std::size_t rowBytes = image.pixelBytes() * static_cast<std::size_t>(image.width);
  py::gil_scoped_release free;
  for (int y = 0; y < image.height; ++y) std::memcpy(dst + rowBytes * y, image.row(y), rowBytes);
  if (rgb && image.channels >= 3) {
    const std::size_t sample = sensors::sizeOf(image.depth), pixel = image.pixelBytes();
    const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
    for (std::size_t i = 0; i < pixels; ++i)
      std::swap_ranges(dst + i * pixel, dst + i * pixel + sample, dst + i * pixel + 2 * sample);
  }
  return out;
}

// Messages of a selection, read in time order by the session on a thread of its own into a
// bounded queue, taken one by one by Python: a recording of any size streams in bounded memory.
class MessageStream {
public:
  // What each message becomes: (topic, log time, dict or bytes), a point cloud or an image.
  enum class Shape : std::uint8_t { Dict, Raw, Cloud, ImageRgb, ImageBgr };

  MessageStream(std::shared_ptr<const session::Session> session, session::Selection selection, Shape shape)
      : session_(std::move(session)), shape_(shape) {
    // Clouds and images are large: their bytes are kept where they lie (the chunk pinned)
    // rather than copied into the queue; a cloud's array is then a view of them.
    selection.pinned = shape != Shape::Dict && shape != Shape::Raw;
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
    for (;;) {                          // a video packet that gives no frame is warned about and passed over
      if (video_ && video_->ready()) {  // pictures in their messages' order
        auto frame = std::move(video_->take().second);
        const auto [topic, logTimeNs] = videoMessages_.front();
        videoMessages_.pop_front();
        if (frame) return py::make_tuple(frame->header.stampNs, imageArray(frame->image, shape_ == Shape::ImageRgb));
        warnVideo(frame.error(), session_->topics()[topic].name, logTimeNs);
        continue;
      }
      Item m;
      {
        py::gil_scoped_release free;
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !queue_.empty() || done_; });
        if (queue_.empty() && video_ && !video_->queueEmpty()) {  // the pictures the decoder still holds
          video_->end();
          continue;
        }
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
        queuedBytes_ -= m.bytes().size();
        changed_.notify_all();
      }
      const std::string& topic = session_->topics()[m.topic].name;
      if (shape_ == Shape::Raw) return py::make_tuple(topic, m.logTimeNs, py::bytes(m.copy.data(), m.copy.size()));
      // Decoded here, not on the reader's thread: a value tree freed on another thread than the
      // one that built it costs glibc's allocator more than the decoding (measured: 2.5x slower).
      Result<decode::Value> value = makeError(ErrorCode::Internal, "");
      {
        py::gil_scoped_release free;
        auto decoder = session_->decoder(*m.connection);
        value = decoder ? (*decoder)->decode(m.bytes()) : Result<decode::Value>(std::move(decoder).error());
      }
      auto failed = [&](Error e) {
        e.topic = topic;
        e.logTimeNs = m.logTimeNs;
        raise(e);
      };
      if (!value) failed(value.error());
      switch (shape_) {
        case Shape::Cloud: {
          auto cloud = sensors::readPointCloud(*value);
          if (!cloud) failed(cloud.error());
          py::dict header;
          header["stamp_ns"] = cloud->header.stampNs;
          header["frame_id"] = cloud->header.frameId;
          header["log_time_ns"] = m.logTimeNs;
          return py::make_tuple(header, cloudArray(*cloud, m.pin));
        }
        case Shape::ImageRgb:
        case Shape::ImageBgr: {
          Result<sensors::ImageFrame> frame = makeError(ErrorCode::Internal, "");
          bool video = false;
          Result<void> opened;
          {
            py::gil_scoped_release free;
            const auto kind = sensors::kindOf(m.connection->type);
            auto packet = kind == sensors::SensorKind::Image ? makeError(ErrorCode::Unsupported, "")
                                                             : sensors::readVideoPacket(*value);
            video = kind == sensors::SensorKind::Video || packet.has_value();
            if (video) opened = queueVideo(packet);
            else frame = sensors::readAnyImage(*value, kind);
          }
          if (video) {  // its picture comes when the decoder gives it, in order
            if (opened) videoMessages_.emplace_back(m.topic, m.logTimeNs);
            else warnVideo(opened.error(), topic, m.logTimeNs);
            continue;
          }
          if (!frame) failed(frame.error());
          return py::make_tuple(frame->header.stampNs, imageArray(frame->image, shape_ == Shape::ImageRgb));
        }
        default: return py::make_tuple(topic, m.logTimeNs, toPython(*value));
      }
    }
  }

private:
  // A compressed video packet to the decoder (opened by the first), its picture taken in order
  // by next(); it is decoded on every core from the first keyframe.
  Result<void> queueVideo(const Result<sensors::VideoPacket>& packet) {
    if (!video_) {
      BAGSCOPE_TRY(packet);
      auto opened = sensors::VideoDecoder::open(packet->codec);
      BAGSCOPE_TRY(opened);
      video_.emplace(std::move(opened).value());
    }
    video_->queue(packet, ++packets_);
    return {};
  }

  // Before the first keyframe, or damaged: said, and the stream goes on.
  static void warnVideo(Error e, const std::string& topic, std::int64_t logTimeNs) {
    e.topic = topic;
    e.logTimeNs = logTimeNs;
    if (PyErr_WarnEx(PyExc_RuntimeWarning, e.describe().c_str(), 1) < 0) throw py::error_already_set();
  }

  std::optional<sensors::VideoDecoder> video_;
  std::int64_t packets_ = -1;
  std::deque<std::pair<session::TopicId, std::int64_t>> videoMessages_;  // topic, log time of each queued

  // A message as the queue holds it: its bytes where they lie when the session pinned them,
  // else copied (the session's view is only valid during its callback). A decoded value may
  // point into them: it is made after the copy.
  struct Item {
    session::TopicId topic = 0;
    const storage::Connection* connection = nullptr;
    std::int64_t logTimeNs = 0;
    std::shared_ptr<const void> pin;
    std::span<const std::byte> view;
    std::string copy;
    std::span<const std::byte> bytes() const { return pin ? view : std::as_bytes(std::span(copy)); }
  };

  bool push(const session::Message& m, const StopToken& stop) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      return queue_.empty() || (queue_.size() < kQueued && queuedBytes_ < kQueuedBytes) || stop.stop_requested();
    });
    if (stop.stop_requested()) return false;
    Item item{m.topic, m.connection, m.logTimeNs, m.pin, m.bytes, {}};
    if (!m.pin) item.copy.assign(reinterpret_cast<const char*>(m.bytes.data()), m.bytes.size());
    queuedBytes_ += m.bytes.size();
    queue_.push_back(std::move(item));
    changed_.notify_all();
    return true;
  }

  static constexpr std::size_t kQueued = 256, kQueuedBytes = std::size_t{64} << 20;
  std::size_t queuedBytes_ = 0;
  std::shared_ptr<const session::Session> session_;
  Shape shape_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Item> queue_;
  std::optional<Error> error_;
  bool done_ = false;
  JoiningThread reader_;  // last: stopped and joined before the queue it fills goes
};

// The topics patterns name, as `filter` takes them: names, or /regular expressions/ matching
// whole names. A pattern that names nothing is a KeyError.
std::vector<session::TopicId> topicsNamed(const session::Session& s, const std::vector<std::string>& patterns) {
  auto chosen = write::selectTopics(s, {patterns, {}});
  if (!chosen) {
    if (chosen.error().code == ErrorCode::InvalidArgument) throw py::key_error(chosen.error().message);
    raise(chosen.error());
  }
  return std::move(chosen).value();
}

class Recording {
public:
  Recording(const std::vector<std::filesystem::path>& paths, const std::vector<std::filesystem::path>& msgPath,
            std::size_t cacheMib) {
    session::SessionOptions options;
    options.msgPaths = msgPath;
    options.cacheBytes = cacheMib << 20;
    session_ = valueOr(interruptible<std::unique_ptr<session::Session>>(
        [&](StopToken, const ProgressFn&) { return session::Session::open(paths, options); }));
  }

  const session::Session& session() const { return *shared(); }
  std::shared_ptr<const session::Session> shared() const {
    if (!session_) throw std::runtime_error("the recording is closed");
    return session_;
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
      const storage::Connection* c = t.members.empty() ? nullptr : t.members.front().connection;
      d["encoding"] = c ? c->messageEncoding : std::string();
      d["definition"] = c ? c->definition : std::string();
      out.append(d);
    }
    return out;
  }

  MessageStream* messages(const std::vector<std::string>& topics, std::optional<std::int64_t> start,
                          std::optional<std::int64_t> end, bool raw) const {
    session::Selection selection;
    if (!topics.empty()) selection.topics = topicsNamed(session(), topics);
    if (start) selection.startNs = *start;
    if (end) selection.endNs = *end;
    return new MessageStream(session_, std::move(selection),
                             raw ? MessageStream::Shape::Raw : MessageStream::Shape::Dict);
  }

  // The messages of one sensor topic, as what `kind` reads.
  MessageStream* sensorStream(const std::string& topic, std::optional<std::int64_t> start,
                              std::optional<std::int64_t> end, std::initializer_list<sensors::SensorKind> kinds,
                              const char* what, MessageStream::Shape shape) const {
    session::Selection selection;
    selection.topics = topicsNamed(session(), {topic});
    for (auto id : selection.topics) {
      const auto& t = session().topics()[id];
      if (std::find(kinds.begin(), kinds.end(), sensors::kindOf(t.type)) == kinds.end())
        throw py::value_error("topic '" + t.name + "' is " + t.type + ", not " + what);
    }
    if (start) selection.startNs = *start;
    if (end) selection.endNs = *end;
    return new MessageStream(session_, std::move(selection), shape);
  }
  MessageStream* clouds(const std::string& topic, std::optional<std::int64_t> start,
                        std::optional<std::int64_t> end) const {
    return sensorStream(topic, start, end, {sensors::SensorKind::PointCloud}, "a point cloud",
                        MessageStream::Shape::Cloud);
  }
  MessageStream* images(const std::string& topic, const std::string& to, std::optional<std::int64_t> start,
                        std::optional<std::int64_t> end) const {
    if (to != "rgb" && to != "bgr") throw py::value_error("to= takes 'rgb' or 'bgr', not '" + to + "'");
    return sensorStream(topic, start, end,
                        {sensors::SensorKind::Image, sensors::SensorKind::CompressedImage, sensors::SensorKind::Video},
                        "an image", to == "rgb" ? MessageStream::Shape::ImageRgb : MessageStream::Shape::ImageBgr);
  }

  // Numeric columns of message paths, as numpy arrays keyed by path, with "log_time_ns".
  // With time="stamp", also "stamp_ns": each message's header stamp, read from its bytes.
  py::dict columns(const std::string& topic, const std::vector<std::string>& paths, std::optional<std::int64_t> start,
                   std::optional<std::int64_t> end, const std::string& time) const {
    if (time != "log" && time != "stamp") throw py::value_error("time= takes 'log' or 'stamp', not '" + time + "'");
    const session::TopicId id = oneTopic(topic);
    auto s = shared();  // the work holds the session: a close() meanwhile cannot drop it
    session::FieldColumns c = valueOr(interruptible<session::FieldColumns>([&](StopToken stop, const ProgressFn&) {
      return s->extractFields(id, paths, start.value_or(INT64_MIN), end.value_or(INT64_MAX), stop);
    }));
    py::dict out;
    out["log_time_ns"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.logTimeNs.size()), c.logTimeNs.data());
    if (time == "stamp") {
      auto stamps = valueOr(interruptible<std::vector<std::int64_t>>([&](StopToken stop, const ProgressFn&) {
        return headerStamps(*s, id, start.value_or(INT64_MIN), end.value_or(INT64_MAX), stop);
      }));
      if (stamps.size() != c.logTimeNs.size())
        throw std::runtime_error("the topic changed while it was read: " + std::to_string(stamps.size()) +
                                 " stamps for " + std::to_string(c.logTimeNs.size()) + " rows");
      out["stamp_ns"] = py::array_t<std::int64_t>(static_cast<py::ssize_t>(stamps.size()), stamps.data());
    }
    for (std::size_t k = 0; k < c.paths.size(); ++k)
      out[py::str(c.paths[k])] = py::array_t<double>(static_cast<py::ssize_t>(c.values[k].size()), c.values[k].data());
    return out;
  }

  // The one topic a name or pattern names.
  session::TopicId oneTopic(const std::string& topic) const {
    auto ids = topicsNamed(session(), {topic});
    if (ids.size() != 1)
      throw py::key_error("'" + topic + "' names " + std::to_string(ids.size()) + " topics, not one");
    return ids.front();
  }

  // The header stamp of each of the topic's messages in the range, in log-time order.
  static Result<std::vector<std::int64_t>> headerStamps(const session::Session& s, session::TopicId id,
                                                        std::int64_t start, std::int64_t end, StopToken stop) {
    std::vector<std::int64_t> out;
    std::optional<Error> failed;
    session::Selection selection{{id}, start, end};
    auto r = s.forEach(
        selection,
        [&](const session::Message& m) {
          auto d = s.decoder(*m.connection);
          if (d && !schema::startsWithHeader(*(*d)->schema().root)) {
            failed = makeError(ErrorCode::InvalidArgument, "'" + m.connection->topic + "' (" + m.connection->type +
                                                               ") has no header stamp: use time='log'");
            return false;
          }
          auto stamp = d ? decode::peekHeaderStamp(m.bytes, (*d)->format()) : std::nullopt;
          if (!stamp) {
            failed = d ? makeError(ErrorCode::Decode, "a message too short for its header") : d.error();
            failed->topic = m.connection->topic;
            failed->logTimeNs = m.logTimeNs;
            return false;
          }
          out.push_back(*stamp);
          return true;
        },
        {}, stop);
    if (failed) return *failed;
    if (!r) return r.error();
    return out;
  }

  // Every transform of the recording (static and dynamic), for lookups at any time.
  std::shared_ptr<sensors::TfBuffer> transforms() const {
    auto s = shared();
    return std::make_shared<sensors::TfBuffer>(valueOr(interruptible<sensors::TfBuffer>(
        [&](StopToken stop, const ProgressFn&) { return exporters::loadTransforms(*s, true, stop); })));
  }

  // A pandas DataFrame: the CSV export's columns with their types (fields=None), or log time and
  // the numbers message paths select. With a list of topics ("TOPIC" or "TOPIC:PATH,..."), one
  // table on `on`'s log times or `rate` rows a second, as `export --join` writes it.
  py::object dataframe(const py::object& topic, std::optional<std::vector<std::string>> fields,
                       std::optional<std::int64_t> start, std::optional<std::int64_t> end, std::uint32_t arrayLimit,
                       std::optional<std::string> on, std::optional<double> rate, const std::string& fill) const {
    py::module_ pandas = py::module_::import("pandas");
    const bool aligned = !py::isinstance<py::str>(topic);
    if (!aligned && (on || rate || fill != "previous"))
      throw py::value_error("on=, rate= and fill= align a list of topics, not one topic");
    if (aligned && fields) throw py::value_error("with a list of topics, name fields as 'TOPIC:PATH,PATH'");
    if (!aligned && fields)
      return pandas.attr("DataFrame")(columns(topic.cast<std::string>(), *fields, start, end, "log"));
    auto s = shared();
    std::vector<exporters::TableColumn> table;
    if (aligned) {
      exporters::ExportOptions o;
      o.joins = topic.cast<std::vector<std::string>>();
      if (on) o.alignOn = *on;
      if (rate) o.alignRateHz = *rate;
      if (fill == "previous") o.fill = exporters::Fill::Previous;
      else if (fill == "linear") o.fill = exporters::Fill::Linear;
      else if (fill == "none") o.fill = exporters::Fill::None;
      else throw py::value_error("fill= takes 'previous', 'linear' or 'none', not '" + fill + "'");
      if (start) o.startNs = *start;
      if (end) o.endNs = *end;
      o.arrayLimit = arrayLimit;
      table = valueOr(interruptible<std::vector<exporters::TableColumn>>(
          [&](StopToken stop, const ProgressFn&) { return exporters::alignedTable(*s, o, stop); }));
    } else {
      const session::TopicId id = oneTopic(topic.cast<std::string>());
      session::Selection range;
      if (start) range.startNs = *start;
      if (end) range.endNs = *end;
      table = valueOr(interruptible<std::vector<exporters::TableColumn>>(
          [&](StopToken stop, const ProgressFn&) { return exporters::readTable(*s, id, range, arrayLimit, stop); }));
    }
    return toDataFrame(table);
  }

private:
  // Typed columns as a DataFrame: a missing value NaN (its integer column then float, as pandas
  // reads the export's empty cell), or None for text.
  static py::object toDataFrame(std::vector<exporters::TableColumn>& table) {
    py::dict data;
    py::list order;
    for (auto& c : table) {
      using K = exporters::TableColumn::Kind;
      py::array a;
      switch (c.kind) {
        case K::Int: a = py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.ints.size()), c.ints.data()); break;
        case K::UInt: a = py::array_t<std::uint64_t>(static_cast<py::ssize_t>(c.uints.size()), c.uints.data()); break;
        case K::Float: a = py::array_t<double>(static_cast<py::ssize_t>(c.floats.size()), c.floats.data()); break;
        case K::Bool:
          a = py::array_t<std::int64_t>(static_cast<py::ssize_t>(c.ints.size()), c.ints.data()).attr("astype")("bool");
          break;
        case K::String: {
          py::list texts(c.texts.size());
          for (std::size_t i = 0; i < c.texts.size(); ++i)
            texts[i] = !c.missing.empty() && c.missing[i]
                           ? py::object(py::none())
                           : py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(
                                 c.texts[i].data(), static_cast<Py_ssize_t>(c.texts[i].size()), "replace"));
          a = py::module_::import("numpy").attr("array")(texts, "dtype"_a = "O");
          break;
        }
      }
      if (!c.missing.empty() && c.kind != K::Float && c.kind != K::String) {
        a = a.attr("astype")("float64");
        py::array_t<bool> mask(static_cast<py::ssize_t>(c.missing.size()));
        for (std::size_t i = 0; i < c.missing.size(); ++i) mask.mutable_at(i) = c.missing[i];
        py::module_::import("numpy").attr("putmask")(a, mask, py::float_(std::nan("")));
      }
      data[py::str(c.name)] = a;
      order.append(py::str(c.name));
    }
    return py::module_::import("pandas").attr("DataFrame")(data, "columns"_a = order);
  }

  std::shared_ptr<const session::Session> session_;
};

// ---- Writing ------------------------------------------------------------------------------

// A dict written as a message's wire bytes through a FieldEncoder, field by field in
// definition order, without building a Value: dicts name fields (a field not given is zero, a
// key that is no field an error), sequences and numpy arrays fill arrays, bytes-like objects
// fill uint8[], integers fill times as nanoseconds.
class DictEncoder {
public:
  // What a message type is written with, made once per type: its field names as interned
  // strings (dict keys written in code are the same objects, found without comparing text)
  // and its nested types' plans.
  struct TypePlan {
    const schema::MessageType* type = nullptr;
    std::vector<py::object> names;        // null for a hidden field: no key names it
    std::vector<const TypePlan*> nested;  // per field: its message type's plan, or null
  };
  using TypePlans = std::unordered_map<const schema::MessageType*, TypePlan>;  // nodes stay put

  struct Failure {
    std::string what;
    std::string path;
  };

  explicit DictEncoder(decode::FieldEncoder& wire) : wire_(wire) {}

  static const TypePlan& plan(TypePlans& plans, const schema::MessageType& type) {
    auto [it, added] = plans.try_emplace(&type);
    TypePlan& p = it->second;
    if (added) {
      p.type = &type;
      for (const auto& f : type.fields) {
        p.names.push_back(f.hidden ? py::object()
                                   : py::reinterpret_steal<py::object>(PyUnicode_InternFromString(f.name.c_str())));
        p.nested.push_back(f.type == schema::Primitive::Message ? &plan(plans, *f.message) : nullptr);
      }
    }
    return p;
  }

  // `obj` null: the message not given, written as zero.
  void message(PyObject* obj, const TypePlan& plan) {
    const schema::MessageType& type = *plan.type;
    if (obj && !PyDict_Check(obj)) fail("expects a dict of " + type.name + "'s fields, not " + typeName(obj));
    const std::size_t n = type.fields.size();
    PyObject* onStack[16];
    std::vector<PyObject*> onHeap(n > 16 ? n : 0);
    PyObject** values = n > 16 ? onHeap.data() : onStack;
    std::fill_n(values, n, nullptr);
    if (obj && !inOrder(obj, plan, values)) byName(obj, plan, values);
    for (std::size_t i = 0; i < n; ++i) {
      const schema::Field& f = type.fields[i];
      try {
        field(values[i], f, plan.nested[i]);
      } catch (Failure& e) {
        e.path = f.name + (e.path.empty() || e.path.front() == '[' ? "" : ".") + e.path;
        throw;
      }
    }
  }

private:
  [[noreturn]] static void fail(std::string what, std::string path = {}) {
    throw Failure{std::move(what), std::move(path)};
  }
  void check(bool written) {
    if (!written) fail(wire_.error());
  }
  static std::string typeName(PyObject* obj) { return py::str(py::type::of(obj).attr("__name__")); }
  static bool isInteger(PyObject* obj) { return !PyBool_Check(obj) && PyIndex_Check(obj); }

  // The values of `obj`'s keys when they are the field names' own objects in definition order
  // (fields left out are zero): a dict written in code. False for anything else.
  static bool inOrder(PyObject* obj, const TypePlan& plan, PyObject** values) {
    PyObject *key = nullptr, *value = nullptr;
    std::size_t i = 0;
    for (Py_ssize_t at = 0; PyDict_Next(obj, &at, &key, &value); ++i) {
      while (i < plan.names.size() && plan.names[i].ptr() != key) ++i;
      if (i == plan.names.size()) return false;
      values[i] = value;
    }
    return true;
  }

  // The values of `obj`'s keys looked up by name; a key that names no field is an error.
  static void byName(PyObject* obj, const TypePlan& plan, PyObject** values) {
    std::fill_n(values, plan.names.size(), nullptr);
    Py_ssize_t given = 0;
    for (std::size_t i = 0; i < plan.names.size(); ++i) {
      if (!plan.names[i]) continue;
      values[i] = PyDict_GetItemWithError(obj, plan.names[i].ptr());
      if (!values[i] && PyErr_Occurred()) throw py::error_already_set();
      given += values[i] != nullptr;
    }
    if (given != PyDict_GET_SIZE(obj)) strayKey(obj, *plan.type);
  }

  // The key of `obj` that names no field of `type`, as the error.
  [[noreturn]] static void strayKey(PyObject* obj, const schema::MessageType& type) {
    PyObject *key = nullptr, *value = nullptr;
    for (Py_ssize_t at = 0; PyDict_Next(obj, &at, &key, &value);) {
      Py_ssize_t size = 0;
      const char* text = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, &size) : nullptr;
      if (!text) {
        PyErr_Clear();
        fail("a field name is a str, not " + typeName(key));
      }
      const std::string_view name(text, static_cast<std::size_t>(size));
      auto f = std::find_if(type.fields.begin(), type.fields.end(), [&](const auto& f) { return f.name == name; });
      if (f == type.fields.end() || f->hidden)
        fail(type.name + " has no field '" + std::string(name) + "'", std::string(name));
    }
    fail("a key names no field of " + type.name);  // not reached: the dict holds one
  }

  void field(PyObject* obj, const schema::Field& f, const TypePlan* nested) {
    if (f.array == schema::ArrayKind::None) return element(obj, f, nested);
    if (!obj) {  // not given: empty, or a fixed array of zeros
      const std::size_t n = f.array == schema::ArrayKind::Fixed ? f.arrayLength : 0;
      check(wire_.length(f, n));
      for (std::size_t i = 0; i < n; ++i) element(nullptr, f, nested);
      return;
    }
    if (f.isByteArray() && PyObject_CheckBuffer(obj) && !PyUnicode_Check(obj)) {
      Py_buffer view;
      if (PyObject_GetBuffer(obj, &view, PyBUF_RECORDS_RO) != 0) throw py::error_already_set();
      const bool plain = view.itemsize == 1 && view.ndim <= 1 && (view.ndim == 0 || view.strides[0] == 1);
      if (plain) {
        const bool fits = wire_.length(f, static_cast<std::size_t>(view.len));
        if (fits) wire_.bytes({static_cast<const std::byte*>(view.buf), static_cast<std::size_t>(view.len)});
        PyBuffer_Release(&view);
        return check(fits);
      }
      PyBuffer_Release(&view);
    }
    const bool isArray = !PyList_CheckExact(obj) && !PyTuple_CheckExact(obj) && py::isinstance<py::array>(obj);
    if (!isArray && (PyUnicode_Check(obj) || PyDict_Check(obj) || !PySequence_Check(obj)))
      fail("expects a sequence (" + f.typeText + "), not " + typeName(obj));
    // Lists and tuples are read in place; a numpy array's elements as Python numbers.
    auto items = py::reinterpret_steal<py::object>(isArray ? PyObject_CallMethod(obj, "tolist", nullptr)
                                                           : PySequence_Fast(obj, "expects a sequence"));
    if (!items) throw py::error_already_set();
    if (isArray && !PyList_Check(items.ptr())) fail("expects a sequence (" + f.typeText + "), not a 0-d array");
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(items.ptr());
    check(wire_.length(f, static_cast<std::size_t>(n)));
    PyObject** item = PySequence_Fast_ITEMS(items.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      try {
        element(item[i], f, nested);
      } catch (Failure& e) {
        e.path = "[" + std::to_string(i) + "]" + (e.path.empty() || e.path.front() == '[' ? "" : ".") + e.path;
        throw;
      }
    }
  }

  // Nanoseconds as whole seconds rounded down and the nanoseconds in [0, 1e9), as decode()
  // gives a time.
  static std::pair<std::int64_t, std::int64_t> splitTime(PyObject* obj) {
    const std::int64_t ns = py::reinterpret_borrow<py::object>(obj).cast<std::int64_t>();
    const std::int64_t sec = ns >= 0 ? ns / 1'000'000'000 : -((-ns + 999'999'999) / 1'000'000'000);
    return {sec, ns - sec * 1'000'000'000};
  }

  void element(PyObject* obj, const schema::Field& f, const TypePlan* nested) {
    using P = schema::Primitive;
    switch (f.type) {
      case P::Message:
        // A time given as integer nanoseconds, for builtin_interfaces' Time and Duration.
        if (obj && !PyDict_Check(obj) && isInteger(obj) && decode::isTimeField(f)) {
          auto [sec, nsec] = splitTime(obj);
          check(wire_.number(f.message->fields[0], {decode::Number::Kind::Int, {.i = sec}}));
          check(wire_.number(f.message->fields[1], {decode::Number::Kind::Int, {.i = nsec}}));
          return;
        }
        return message(obj, *nested);
      case P::String: {
        if (!obj) return check(wire_.text(f, {}));
        Py_ssize_t size = 0;
        const char* text = PyUnicode_Check(obj) ? PyUnicode_AsUTF8AndSize(obj, &size) : nullptr;
        if (!text) {
          PyErr_Clear();
          fail("expects a str, not " + typeName(obj));
        }
        return check(wire_.text(f, {text, static_cast<std::size_t>(size)}));
      }
      case P::Time:
      case P::Duration: {
        if (!obj) return check(wire_.time(f, 0, 0));
        if (isInteger(obj)) {
          auto [sec, nsec] = splitTime(obj);
          return check(wire_.time(f, sec, nsec));
        }
        if (!PyDict_Check(obj)) fail("expects {'sec', 'nsec'} or integer nanoseconds, not " + typeName(obj));
        auto d = py::reinterpret_borrow<py::dict>(obj);
        if (!d.contains("sec") || !d.contains("nsec")) fail("expects {'sec', 'nsec'} or nanoseconds");
        return check(wire_.time(f, d["sec"].cast<std::int64_t>(), d["nsec"].cast<std::int64_t>()));
      }
      default: check(wire_.number(f, obj ? number(obj) : decode::Number{}));
    }
  }

  // Whatever Python number: the field encoder checks that it fits the field.
  static decode::Number number(PyObject* obj) {
    using K = decode::Number::Kind;
    if (PyFloat_Check(obj)) return {K::Float, {.f = PyFloat_AS_DOUBLE(obj)}};  // numpy's float64 too
    if (PyLong_CheckExact(obj)) {  // an int that fits, without converting it first
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
      if (overflow == 0) return {K::Int, {.i = v}};
    }
    if (PyBool_Check(obj)) return {K::Bool, {.b = obj == Py_True}};
    if (PyLong_CheckExact(obj) || PyIndex_Check(obj)) {
      py::object owned;  // what a numpy integer is as a Python int
      PyObject* i = obj;
      if (!PyLong_CheckExact(obj)) {
        owned = py::reinterpret_steal<py::object>(PyNumber_Index(obj));
        if (!owned) throw py::error_already_set();
        i = owned.ptr();
      }
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
      if (overflow == 0) return {K::Int, {.i = v}};
      if (overflow < 0) fail(std::string(py::str(obj)) + " is too small for any integer field");
      const unsigned long long u = PyLong_AsUnsignedLongLong(i);
      if (PyErr_Occurred()) {
        PyErr_Clear();
        fail(std::string(py::str(obj)) + " is too large for any integer field");
      }
      return {K::UInt, {.u = u}};
    }
    if (PyNumber_Check(obj) && !PyUnicode_Check(obj)) {  // numpy's other scalars
      const double x = PyFloat_AsDouble(obj);
      if (x == -1.0 && PyErr_Occurred()) throw py::error_already_set();
      return {K::Float, {.f = x}};
    }
    fail("expects a number, not " + typeName(obj));
  }

  decode::FieldEncoder& wire_;
};

// A recording written from Python: topics added with their type (the definition given, or
// found in msg_path and the standard interfaces), messages as dicts (encoded) or bytes. Messages
// may come in any time order: what comes out of order is put in order when the writer closes.
class Writer {
public:
  Writer(const std::filesystem::path& path, const std::string& format, std::optional<std::string> compression,
         const std::vector<std::filesystem::path>& msgPath, bool overwrite)
      : path_(path), msgPaths_(msgPath) {
    options_.container = valueOr(write::containerFromName(format));
    if (compression) {
      compress::Codec codec;
      if (!compress::codecFromName(*compression, codec))
        throw py::value_error("no compression '" + *compression + "' (none, lz4, zstd, bz2)");
      options_.compression = codec;
    }
    options_.overwrite = overwrite;
    const auto& info = write::containerInfo(options_.container);
    options_.mcapProfile = info.encoding == "ros1" ? "ros1" : "ros2";
    writer_ = valueOr(write::openWriter(path_, options_));
  }

  void addTopic(const std::string& topic, const std::string& type, std::optional<std::string> definition,
                std::optional<std::string> qos) {
    if (!writer_) throw std::runtime_error("the writer is closed");
    if (topics_.count(topic)) throw py::value_error("topic '" + topic + "' is added already");
    auto made = write::encodedTopic(topic, type, definition.value_or(""), options_.container, msgPaths_);
    if (!made && (made.error().code == ErrorCode::InvalidArgument || made.error().code == ErrorCode::MissingDefinition))
      throw py::value_error(made.error().message + " (give definition=...)");
    auto c = valueOr(std::move(made));
    c.connection.id = static_cast<std::uint32_t>(topics_.size());
    if (qos) c.connection.offeredQos = *qos;
    const auto& plan = DictEncoder::plan(plans_, *c.codec->schema().root);
    Topic t{topic, valueOr(writer_->addConnection(c.connection)), std::move(c.codec), &plan};
    topics_.emplace(topic, std::move(t));
  }

  void write(py::handle topic, std::int64_t logTimeNs, py::handle msg) {
    if (!writer_) throw std::runtime_error("the writer is closed");
    const Topic& t = topicOf(topic);
    // Messages are gathered and written a batch at a time without the GIL: letting it go for
    // each message would cost more than writing it. A message that fails leaves nothing.
    auto& bytes = batch_.bytes;
    const std::size_t at = bytes.size();
    try {
      if (PyBytes_Check(msg.ptr()) || PyByteArray_Check(msg.ptr()) || PyMemoryView_Check(msg.ptr())) {
        Py_buffer given;
        if (PyObject_GetBuffer(msg.ptr(), &given, PyBUF_SIMPLE) != 0) throw py::error_already_set();
        const auto* p = static_cast<const std::byte*>(given.buf);
        bytes.insert(bytes.end(), p, p + given.len);
        PyBuffer_Release(&given);
      } else {
        decode::FieldEncoder wire(bytes, t.decoder->format());
        DictEncoder(wire).message(msg.ptr(), *t.plan);
        wire.finish();
      }
    } catch (DictEncoder::Failure& f) {
      bytes.resize(at);
      throw py::value_error(t.name + ": " + t.decoder->schema().root->name +
                            (f.path.empty() ? ": " : " field '" + f.path + "': ") + f.what);
    } catch (...) {
      bytes.resize(at);
      throw;
    }
    batch_.messages.push_back({t.channel, logTimeNs, at, bytes.size() - at});
    if (bytes.size() >= kBatchBytes) writeBatch();
    disordered_ = disordered_ || logTimeNs < lastNs_;
    lastNs_ = std::max(lastNs_, logTimeNs);
  }

  void close() {
    if (!writer_) return;
    writeBatch();
    auto writer = std::move(writer_);
    Result<void> done;
    {
      py::gil_scoped_release free;
      done = writer->finish();
      if (done && disordered_) done = putInOrder();
    }
    if (!done) raise(done.error());
  }
  // Leaving a `with` block by an exception leaves nothing: the unfinished output is removed.
  void abandon() {
    batch_ = {};
    writer_.reset();
  }

private:
  struct Topic {
    std::string name;
    write::ChannelId channel;
    std::shared_ptr<const decode::Decoder> decoder;
    const DictEncoder::TypePlan* plan;  // in plans_
  };
  // Messages gathered before they are written, without the GIL.
  static constexpr std::size_t kBatchBytes = 256 << 10;
  struct Batched {
    write::ChannelId channel;
    std::int64_t logTimeNs;
    std::size_t at, size;  // in bytes
  };
  struct Batch {
    std::vector<Batched> messages;
    std::vector<std::byte> bytes;
  };

  void writeBatch() {
    Result<void> written;
    {
      py::gil_scoped_release free;
      for (const Batched& m : batch_.messages) {
        written = writer_->write(m.channel, m.logTimeNs, std::span(batch_.bytes).subspan(m.at, m.size));
        if (!written) break;
      }
    }
    batch_.messages.clear();
    batch_.bytes.clear();
    if (!written) raise(written.error());
  }

  // The topic a write names, remembered by the str object most writes pass again.
  const Topic& topicOf(py::handle topic) {
    if (topic.ptr() == lastTopicKey_.ptr()) return *lastTopic_;
    if (!PyUnicode_Check(topic.ptr()))
      throw py::type_error("a topic is a str, not " + std::string(py::str(py::type::of(topic).attr("__name__"))));
    const auto name = topic.cast<std::string>();
    auto it = topics_.find(name);
    if (it == topics_.end()) throw py::key_error("topic '" + name + "' is not added (add_topic first)");
    lastTopicKey_ = py::reinterpret_borrow<py::object>(topic);
    lastTopic_ = &it->second;
    return it->second;
  }

  // Messages that came out of order: the finished output is read (its reader sorts by time)
  // and copied in order to its own name.
  Result<void> putInOrder() {
    // Moved aside under a name nothing has (never over a file of the user's), and moved back if
    // the copy fails.
    std::error_code ec;
    std::filesystem::path unsorted;
    for (int n = 0; unsorted.empty() || std::filesystem::exists(std::filesystem::symlink_status(unsorted, ec)); ++n)
      unsorted = path_.parent_path() / ("." + utf8(path_.filename()) + ".unsorted-" + std::to_string(n));
    std::filesystem::rename(path_, unsorted, ec);
    if (ec) return makeError(ErrorCode::Write, "cannot rename '" + utf8(path_) + "': " + ec.message());
    auto session = session::Session::open(std::vector<std::filesystem::path>{unsorted}, {});
    Result<void> done;
    if (!session) {
      done = session.error();
    } else {
      write::CopyRequest request;
      request.output = path_;
      request.writer = options_;
      auto copied = write::copyRecording(**session, request);
      if (!copied) done = copied.error();
      session->reset();
    }
    if (done) std::filesystem::remove_all(unsorted, ec);
    else std::filesystem::rename(unsorted, path_, ec);
    return done;
  }

  std::filesystem::path path_;
  std::vector<std::filesystem::path> msgPaths_;
  write::WriterOptions options_;
  std::unique_ptr<write::RecordingWriter> writer_;
  std::map<std::string, Topic> topics_;
  py::object lastTopicKey_;
  const Topic* lastTopic_ = nullptr;
  DictEncoder::TypePlans plans_;
  Batch batch_;  // written, not yet given to writer_
  std::int64_t lastNs_ = std::numeric_limits<std::int64_t>::min();
  bool disordered_ = false;
};

// ---- filter, convert, export: the CLI's commands over a session -----------------------------

// Writer.write as CPython calls a C method (METH_FASTCALL), for a message is written in less
// time than pybind11 takes to dispatch a call. Keywords, other argument counts and other types
// go to the pybind11 binding (`_write`), which checks them and words what is wrong.
PyObject* fastWrite(PyObject* self, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);  // a Writer: the descriptor checks
  if (nargs == 3 && !kwnames && inst->simple_layout && inst->simple_holder_constructed && PyLong_CheckExact(args[1])) {
    int overflow = 0;
    const long long ns = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (overflow == 0 && !(ns == -1 && PyErr_Occurred())) {
      try {
        static_cast<Writer*>(inst->simple_value_holder[0])->write(args[0], ns, args[2]);
        Py_RETURN_NONE;
      } catch (...) {
        if (!py::detail::apply_exception_translators(
                py::detail::get_local_internals().registered_exception_translators))
          py::detail::apply_exception_translators(py::detail::get_internals().registered_exception_translators);
        return nullptr;
      }
    }
    PyErr_Clear();
  }
  py::object checked = py::reinterpret_borrow<py::object>(self).attr("_write");
  return PyObject_Vectorcall(checked.ptr(), args, static_cast<std::size_t>(nargs), kwnames);
}

std::vector<std::filesystem::path> pathList(const py::object& paths) {
  if (py::isinstance<py::str>(paths) || py::hasattr(paths, "__fspath__")) return {paths.cast<std::filesystem::path>()};
  return paths.cast<std::vector<std::filesystem::path>>();
}

std::shared_ptr<const session::Session> openSession(const py::object& paths,
                                                    const std::vector<std::filesystem::path>& msgPath) {
  auto inputs = valueOr(session::expandInputs(pathList(paths), false));
  session::SessionOptions options;
  options.msgPaths = msgPath;
  return valueOr(interruptible<std::unique_ptr<session::Session>>(
      [&](StopToken, const ProgressFn&) { return session::Session::open(inputs, options); }));
}

// The messages of the inputs (topics, time range, every n-th) copied into one recording, as
// `bagscope-cli filter` does; its format from `format`, the output's name or the input's.
py::dict copy(const py::object& inputs, const std::filesystem::path& output, std::vector<std::string> topics,
              std::vector<std::string> exclude, std::optional<std::int64_t> start, std::optional<std::int64_t> end,
              std::uint64_t every, std::optional<std::string> format, std::optional<std::string> compression,
              bool overwrite, const std::vector<std::filesystem::path>& msgPath, const py::object& progress,
              bool toRos2, bool toRos1, const std::optional<std::filesystem::path>& rename, const std::string& distro) {
  if (toRos2 && toRos1) throw py::value_error("to_ros2 and to_ros1 go different ways: give one");
  if (rename && !toRos2 && !toRos1) throw py::value_error("rename goes with to_ros2 or to_ros1");
  auto s = openSession(inputs, msgPath);
  write::CopyRequest request;
  if (toRos2 || toRos1) request.translateTo = toRos2 ? schema::Dialect::Ros2 : schema::Dialect::Ros1;
  if (rename) request.renames = valueOr(write::readRenames(*rename));
  request.output = output;
  request.every = std::max<std::uint64_t>(every, 1);
  request.msgPaths = msgPath;
  if (format) request.writer.container = valueOr(write::containerFromName(*format));
  else
    request.writer.container = write::containerForName(output).value_or(toRos2   ? write::Container::Rosbag2Mcap
                                                                        : toRos1 ? write::Container::Ros1Bag
                                                                                 : write::containerOf(*s));
  if (compression) {
    compress::Codec codec;
    if (!compress::codecFromName(*compression, codec))
      throw py::value_error("no compression '" + *compression + "' (none, lz4, zstd, bz2)");
    request.writer.compression = codec;
  }
  request.writer.overwrite = overwrite;
  auto release = write::rosDistroFromName(distro);
  if (!release) throw py::value_error(release.error().message);
  request.writer.distro = *release;
  if (start) request.selection.startNs = *start;
  if (end) request.selection.endNs = *end;
  if (!topics.empty() || !exclude.empty()) {
    auto chosen = write::selectTopics(*s, {std::move(topics), std::move(exclude)});
    if (!chosen) throw py::key_error(chosen.error().message);
    if (chosen->empty()) throw py::key_error("the topics and exclusions given leave no topic");
    request.selection.topics = *chosen;
  }
  auto report = valueOr(interruptible<write::CopyReport>(
      [&](StopToken stop, const ProgressFn& p) { return write::copyRecording(*s, request, stop, p); }, progress));
  py::dict out;
  out["messages"] = report.messagesWritten;
  out["bytes"] = report.bytesWritten;
  out["per_topic"] = report.perTopic;
  out["lost"] = report.lost;
  out["skipped"] = report.skipped;
  out["notes"] = report.notes;
  out["problems"] = s->problems();
  return out;
}

// Files of the export (`bagscope-cli export`): clouds, images, video, tables. Options by the
// command line's names without dashes (quality=90, fields="x,y,z").
py::dict exportFiles(const py::object& inputs, const std::filesystem::path& outDir, const std::string& format,
                     const std::vector<std::string>& topics, std::optional<std::int64_t> start,
                     std::optional<std::int64_t> end, std::uint32_t every, const std::string& name, bool overwrite,
                     const std::vector<std::filesystem::path>& msgPath, const py::object& progress,
                     const py::kwargs& settings) {
  exporters::ExportOptions options;
  options.format = valueOr(exporters::formatFromName(format));
  options.topics = topics;
  options.outDir = outDir;
  options.every = std::max<std::uint32_t>(every, 1);
  options.nameTemplate = name;
  options.overwrite = overwrite;
  if (start) options.startNs = *start;
  if (end) options.endNs = *end;
  if (auto checked = exporters::checkNameTemplate(name); !checked) raise(checked.error());
  for (auto [key, value] : settings) {
    std::string id = py::str(key);
    std::replace(id.begin(), id.end(), '_', '-');
    const auto* option = exporters::findFormatOption(id);
    if (!option || !exporters::takesOption(options.format, option->id))
      throw py::type_error("export to " + format + " takes no option '" + std::string(py::str(key)) + "'");
    std::string text = py::isinstance<py::bool_>(value) ? (value.cast<bool>() ? "true" : "")
                       : py::isinstance<py::str>(value) ? value.cast<std::string>()
                                                        : std::string(py::str(value));
    if (auto set = exporters::setOption(options, *option, text); !set) throw py::value_error(set.error().message);
  }
  auto s = openSession(inputs, msgPath);
  const std::string bag = exporters::recordingName(pathList(inputs).front());
  exporters::ExportReport report;
  auto done = interruptible<bool>(
      [&](StopToken stop, const ProgressFn& p) -> Result<bool> {
        auto r = exporters::exportSession(*s, bag, options, report, stop, p);
        if (!r) return r.error();
        return true;
      },
      progress);
  if (!report.conflicts.empty() && !overwrite)
    throw py::value_error(std::to_string(report.conflicts.size()) + " files exist already (first: '" +
                          report.conflicts.front() + "'); nothing was written: pass overwrite=True to replace them");
  valueOr(std::move(done));
  py::dict out;
  py::list files;
  for (const auto& f : report.files) files.append(py::str(utf8(f.path)));
  out["files"] = files;
  out["bytes"] = report.bytes;
  out["skipped"] = report.skipped;
  out["errors"] = report.errors;
  out["notes"] = report.notes;
  return out;
}

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
                             "[{name, type, count, first_ns, last_ns, rate_hz, encoding, definition}]")
      .def_property_readonly("start", [](const Recording& r) { return r.session().startNs(); })
      .def_property_readonly("end", [](const Recording& r) { return r.session().endNs(); })
      .def_property_readonly("problems", [](const Recording& r) { return r.session().problems(); })
      .def("messages", &Recording::messages, py::arg("topics") = std::vector<std::string>{},
           py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("raw") = false,
           py::return_value_policy::take_ownership,
           "(topic, log_time_ns, message) in log-time order; a message as nested dicts, or bytes with raw=True. "
           "topics: names or /regular expressions/.")
      .def("clouds", &Recording::clouds, py::arg("topic"), py::arg("start") = py::none(), py::arg("end") = py::none(),
           py::return_value_policy::take_ownership,
           "(header, points) per PointCloud2 message: header {stamp_ns, frame_id, log_time_ns}, points a numpy "
           "structured array of the export's channels (count > 1 as name_0..., packed rgb as r, g, b), "
           "shaped (height, width) when organized.")
      .def("images", &Recording::images, py::arg("topic"), py::arg("to") = "rgb", py::arg("start") = py::none(),
           py::arg("end") = py::none(), py::return_value_policy::take_ownership,
           "(stamp_ns, pixels) per Image or CompressedImage message: pixels (height, width[, channels]) of the "
           "image's depth, colour in RGB(A) order or, with to='bgr', as OpenCV has it.")
      .def("dataframe", &Recording::dataframe, py::arg("topic"), py::arg("fields") = py::none(),
           py::arg("start") = py::none(), py::arg("end") = py::none(), py::arg("array_limit") = 16,
           py::arg("on") = py::none(), py::arg("rate") = py::none(), py::arg("fill") = "previous",
           "A pandas DataFrame of the topic: the CSV export's columns (log_time_ns, stamp_ns, every field "
           "flattened as a.b.c and name[i]) with their types, or with fields=[paths] log_time_ns and those numbers. "
           "Given a list of topics ('TOPIC' or 'TOPIC:PATH,PATH'), one table on the log times of topic on= or rate= "
           "rows a second, columns 'TOPIC/COLUMN', each value the last at or before the row's time "
           "(fill='previous', merge_asof), interpolated (fill='linear') or exact (fill='none'); empty (NaN, None) "
           "before a topic's first message and after its last.")
      .def("columns", &Recording::columns, py::arg("topic"), py::arg("paths"), py::arg("start") = py::none(),
           py::arg("end") = py::none(), py::arg("time") = "log",
           "{path: numpy array} of numeric fields, and 'log_time_ns' (with time='stamp' also 'stamp_ns', the "
           "header stamps)")
      .def("transforms", &Recording::transforms, "Every /tf and /tf_static transform, for lookup().")
      .def("close", &Recording::close)
      .def("__enter__", [](Recording& r) -> Recording& { return r; })
      .def("__exit__", [](Recording& r, py::args) { r.close(); });

  py::class_<Writer> writer(m, "Writer");
  writer
      .def(py::init<const std::filesystem::path&, const std::string&, std::optional<std::string>,
                    const std::vector<std::filesystem::path>&, bool>(),
           py::arg("path"), py::arg("format") = "mcap", py::arg("compression") = py::none(),
           py::arg("msg_path") = std::vector<std::filesystem::path>{}, py::arg("overwrite") = false,
           "A recording to write: format 'mcap', 'rosbag2' (MCAP storage), 'rosbag2-db3' or 'bag' (ROS 1).")
      .def("add_topic", &Writer::addTopic, py::arg("topic"), py::arg("type"), py::arg("definition") = py::none(),
           py::arg("qos") = py::none(),
           "A topic of `type`; its definition from the argument, msg_path or the standard ROS 2 interfaces.")
      .def("_write", &Writer::write, py::arg("topic"), py::arg("log_time_ns"), py::arg("message"))
      .def("close", &Writer::close, "Completes the recording under its name.")
      .def("__enter__", [](Writer& w) -> Writer& { return w; })
      .def("__exit__", [](Writer& w, py::object type, py::object, py::object) {
        if (type.is_none()) w.close();
        else w.abandon();
      });
  static PyMethodDef writeMethod{
      "write", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastWrite)), METH_FASTCALL | METH_KEYWORDS,
      "write(topic, log_time_ns, message)\n\nA message as a dict of its fields (encoded by its definition) or as its "
      "serialized bytes. Messages are written to the file in batches: a failure to write it is raised by a later "
      "write() or by close()."};
  writer.attr("write") =
      py::reinterpret_steal<py::object>(PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(writer.ptr()), &writeMethod));

  using bagscope::sensors::TfBuffer;
  py::class_<TfBuffer, std::shared_ptr<TfBuffer>>(m, "Transforms")
      .def_property_readonly("frames", &TfBuffer::frames)
      .def(
          "lookup",
          [](const TfBuffer& tf, const std::string& target, const std::string& source, std::int64_t timeNs) {
            auto t = valueOr(tf.lookup(target, source, timeNs));
            return py::make_tuple(t.translation, t.rotation);
          },
          py::arg("target"), py::arg("source"), py::arg("time_ns"),
          "((x, y, z), (qx, qy, qz, qw)): the transform taking points in `source` to `target` at time_ns, "
          "interpolated between samples.");

  m.def("filter", &copy, py::arg("inputs"), py::arg("output"), py::arg("topics") = std::vector<std::string>{},
        py::arg("exclude") = std::vector<std::string>{}, py::arg("start") = py::none(), py::arg("end") = py::none(),
        py::arg("every") = 1, py::arg("format") = py::none(), py::arg("compression") = py::none(),
        py::arg("overwrite") = false, py::arg("msg_path") = std::vector<std::filesystem::path>{},
        py::arg("progress") = py::none(), py::arg("to_ros2") = false, py::arg("to_ros1") = false,
        py::arg("rename") = py::none(), py::arg("distro") = "jazzy",
        "Copies the chosen messages of the inputs into one recording, as `bagscope-cli filter`; a report dict. "
        "distro='humble' writes a rosbag2 folder Humble's tools read.");
  m.def(
      "convert",
      [](const py::object& inputs, const std::filesystem::path& output, std::optional<std::string> format,
         std::optional<std::string> compression, bool overwrite, const std::vector<std::filesystem::path>& msgPath,
         const py::object& progress, bool toRos2, bool toRos1, const std::optional<std::filesystem::path>& rename,
         const std::string& distro) {
        return copy(inputs, output, {}, {}, std::nullopt, std::nullopt, 1, format, compression, overwrite, msgPath,
                    progress, toRos2, toRos1, rename, distro);
      },
      py::arg("inputs"), py::arg("output"), py::arg("format") = py::none(), py::arg("compression") = py::none(),
      py::arg("overwrite") = false, py::arg("msg_path") = std::vector<std::filesystem::path>{},
      py::arg("progress") = py::none(), py::arg("to_ros2") = false, py::arg("to_ros1") = false,
      py::arg("rename") = py::none(), py::arg("distro") = "jazzy",
      "Writes the inputs as one recording of another format or compression, as `bagscope-cli convert` "
      "(distro='humble': a rosbag2 folder Humble's tools read).");
  m.def("export", &exportFiles, py::arg("inputs"), py::arg("out_dir"), py::arg("format"),
        py::arg("topics") = std::vector<std::string>{}, py::arg("start") = py::none(), py::arg("end") = py::none(),
        py::arg("every") = 1, py::arg("name") = "", py::arg("overwrite") = false,
        py::arg("msg_path") = std::vector<std::filesystem::path>{}, py::arg("progress") = py::none(),
        "Exports topics to files, as `bagscope-cli export`; options by the command line's names "
        "(quality=90, fields='x,y,z', time='log'). A report dict with the files written.");

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
