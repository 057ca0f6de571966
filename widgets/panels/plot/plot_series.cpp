#include "widgets/panels/plot/plot_series.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/analysis/derive.hpp"
#include "core/decode/decoder.hpp"
#include "widgets/panels/plot/derived_series.hpp"

namespace bagscope::widgets {
namespace {

constexpr auto kFirst = std::numeric_limits<std::int64_t>::min(), kLast = std::numeric_limits<std::int64_t>::max();

// Columns of `paths` in one topic, a sample per row: plain paths give one per message (read
// without decoding whole messages); paths with slices or filters as many as they select, the
// same for every path.
struct Columns {
  std::vector<std::int64_t> logTimeNs;
  std::vector<std::uint32_t> rows;  // the message of each sample (row in the topic)
  std::vector<std::vector<double>> values;
};
Result<Columns> readColumns(const session::Session& session, session::TopicId topic,
                            const std::vector<std::string>& paths, StopToken stop,
                            const session::ProgressFn& progress) {
  Columns out;
  bool plain = std::all_of(paths.begin(), paths.end(), [](auto& p) { return decode::MessagePath::isPlain(p); });
  if (plain) {
    auto c = session.extractFields(topic, paths, kFirst, kLast, stop, progress);
    BAGSCOPE_TRY(c);
    out.logTimeNs = std::move(c->logTimeNs);
    out.rows.resize(out.logTimeNs.size());
    for (std::uint32_t i = 0; i < out.rows.size(); ++i) out.rows[i] = i;
    out.values = std::move(c->values);
    return out;
  }
  for (const auto& path : paths) {
    auto s = session.extractPath(topic, path, kFirst, kLast, stop, progress);
    BAGSCOPE_TRY(s);
    if (s->textLeaf) return makeError(ErrorCode::InvalidArgument, "'" + path + "' is text: plot it as a state lane");
    if (!out.values.empty() && s->rows != out.rows)
      return makeError(ErrorCode::InvalidArgument,
                       "'" + path + "' selects other elements than '" + paths.front() + "' in some messages");
    out.logTimeNs = std::move(s->logTimeNs);
    out.rows = std::move(s->rows);
    out.values.push_back(std::move(s->values));
  }
  return out;
}

// Seconds from the start, subtracted in integers: doubles near 1.7e18 ns are 256 ns apart.
std::vector<double> secondsFrom(const std::vector<std::int64_t>& ns, qint64 originNs) {
  std::vector<double> out(ns.size());
  for (std::size_t i = 0; i < ns.size(); ++i) out[i] = static_cast<double>(ns[i] - originNs) / 1e9;
  return out;
}

}  // namespace

Result<Points> readPoints(const session::Session& session, const SeriesQuery& q, StopToken stop,
                          const session::ProgressFn& progress) {
  auto seconds = [&q](const std::vector<std::int64_t>& ns) { return secondsFrom(ns, q.originNs); };
  if (q.xTopic) {  // y interpolated at the log times of x's messages; nothing extrapolated
    auto x = readColumns(session, *q.xTopic, {q.xPath}, stop, {});
    BAGSCOPE_TRY(x);
    auto y = readColumns(session, q.topic, {q.path}, stop, progress);
    BAGSCOPE_TRY(y);
    return Points{std::move(x->values[0]),
                  analysis::valuesAt(seconds(y->logTimeNs), y->values[0], seconds(x->logTimeNs))};
  }
  if (isExpression(q.derive)) {  // a = this field, b, c, … the inputs, aligned to a's times
    SeriesQuery own = q;
    own.derive.clear();
    own.inputs.clear();
    std::vector<Points> series;
    auto a = readPoints(session, own, stop, progress);
    BAGSCOPE_TRY(a);
    series.push_back(std::move(*a));
    for (const auto& [topic, path] : q.inputs) {
      SeriesQuery input{topic, std::nullopt, path, {}, {}, false, q.originNs, {}};
      auto p = readPoints(session, input, stop, {});
      BAGSCOPE_TRY(p);
      series.push_back(std::move(*p));
    }
    std::vector<std::string> names;
    std::vector<analysis::SeriesView> views;
    for (std::size_t k = 0; k < series.size(); ++k) {
      names.emplace_back(1, static_cast<char>('a' + k));
      views.push_back({series[k].first, series[k].second});
    }
    auto v = analysis::evaluateExpression(expressionOf(q.derive).toStdString(), names, views);
    BAGSCOPE_TRY(v);
    return Points{std::move(series[0].first), std::move(*v)};
  }
  std::vector<std::string> paths{q.path};
  const DerivedSeriesKind* kind = nullptr;
  if (!q.derive.isEmpty()) {
    auto k = derivedSeriesKind(q.derive);
    BAGSCOPE_TRY(k);
    kind = *k;
    if (!kind->members.empty()) paths.clear();
    for (const char* member : kind->members) paths.push_back(q.path + "." + member);
  }
  if (!q.xPath.empty()) paths.insert(paths.begin(), q.xPath);
  auto columns = readColumns(session, q.topic, paths, stop, progress);
  BAGSCOPE_TRY(columns);
  auto& values = columns->values;
  if (!q.xPath.empty()) return Points{std::move(values[0]), std::move(values[1])};
  std::vector<double> t = seconds(columns->logTimeNs);
  if (q.stamp) {  // header stamps in seconds (a double holds them to about 0.2 µs), per message
    auto stamps = session.extractFields(q.topic, {"header.stamp"}, kFirst, kLast, stop, {});
    BAGSCOPE_TRY(stamps);
    double whole = std::floor(static_cast<double>(q.originNs) / 1e9);
    double part = static_cast<double>(q.originNs - static_cast<qint64>(whole) * 1'000'000'000) / 1e9;
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = (stamps->values[0][columns->rows[i]] - whole) - part;
  }
  if (!kind) return Points{std::move(t), std::move(values[0])};
  auto y = kind->compute(derivationArgument(q.derive), t, values);
  BAGSCOPE_TRY(y);
  return Points{std::move(t), std::move(*y)};
}

namespace {

// The constants of the message that holds the field at `path` ("status.state", "modes[2]"),
// with the field's name: what a state lane names its values by.
std::pair<const std::vector<schema::Constant>*, std::string> constantsAt(const schema::MessageSchema& schema,
                                                                         const std::string& path) {
  const schema::MessageType* type = schema.root;
  std::string name;
  std::size_t from = 0;
  while (type && from <= path.size()) {
    std::size_t dot = path.find('.', from);
    std::string part = path.substr(from, dot == std::string::npos ? std::string::npos : dot - from);
    part = part.substr(0, part.find('['));
    auto f =
        std::find_if(type->fields.begin(), type->fields.end(), [&](const schema::Field& x) { return x.name == part; });
    if (f == type->fields.end()) return {nullptr, {}};
    if (dot == std::string::npos) return {&type->constants, part};
    type = f->message;
    from = dot + 1;
  }
  return {nullptr, {}};
}

// A state's value with the constant that names it ("IDLE (0)"), as rqt and Foxglove show
// enums; where several constants share the value, the one that starts with the field's name.
std::string namedValue(double v, const std::vector<schema::Constant>& constants, const std::string& field) {
  std::string text = QString::number(v, 'g', 17).toStdString();
  std::vector<const schema::Constant*> named;
  for (const auto& c : constants) {
    bool ok = false;
    double value = QString::fromStdString(c.value).trimmed().toDouble(&ok);
    if (ok && value == v) named.push_back(&c);
  }
  if (named.empty()) return text;
  const std::string prefix = QString::fromStdString(field).toUpper().toStdString() + "_";
  auto best = std::find_if(named.begin(), named.end(), [&](const auto* c) { return c->name.rfind(prefix, 0) == 0; });
  return (best != named.end() ? *best : named.front())->name + " (" + text + ")";
}

}  // namespace

Result<StatePoints> readStates(const session::Session& session, session::TopicId topic, const std::string& path,
                               qint64 originNs, StopToken stop, const session::ProgressFn& progress) {
  auto s = session.extractPath(topic, path, kFirst, kLast, stop, progress);
  BAGSCOPE_TRY(s);
  StatePoints out;
  out.t = secondsFrom(s->logTimeNs, originNs);
  if (s->textLeaf) {
    out.keys = std::move(s->texts);
  } else {
    const std::vector<schema::Constant>* constants = nullptr;
    std::string field;
    std::shared_ptr<const decode::Decoder> decoder;  // keeps the schema the constants are in
    if (const auto& members = session.topics()[topic].members; !members.empty())
      if (auto d = session.decoder(*members.front().connection)) {
        decoder = *d;
        std::tie(constants, field) = constantsAt(decoder->schema(), path);
      }
    for (double v : s->values)
      out.keys.push_back(constants ? namedValue(v, *constants, field) : QString::number(v, 'g', 17).toStdString());
  }
  return out;
}

}  // namespace bagscope::widgets
