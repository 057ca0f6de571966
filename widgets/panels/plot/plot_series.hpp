#pragma once
// What a plot series reads, and the reading, on a worker: fields (message paths, with slices
// and filters) of a topic over time, derived from fields (roll/pitch/yaw, derivative, …, a
// custom expression over several series), against a field of the same or another topic (XY),
// or a field's states (lanes).

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "core/base/stop.hpp"

#include "core/base/result.hpp"
#include "core/session/session.hpp"

namespace bagscope::widgets {

struct SeriesQuery {
  session::TopicId topic;
  std::optional<session::TopicId> xTopic;  ///< XY across topics
  std::string path, xPath;
  QString derive;      ///< a derivation (derived_series.hpp) or an expression over `a` and the inputs
  bool stamp = false;  ///< time from header.stamp
  qint64 originNs = 0;
  std::vector<std::pair<session::TopicId, std::string>> inputs;  ///< an expression's b, c, …
};
using Points = std::pair<std::vector<double>, std::vector<double>>;  // x, y

/// A series' points: extraction and any derivation or alignment, off the GUI thread.
Result<Points> readPoints(const session::Session& session, const SeriesQuery& query, StopToken stop,
                          const session::ProgressFn& progress);

/// A field's values as states (a state lane): times (seconds from originNs) and each sample's
/// value as text (strings as they are, numbers in their shortest form).
struct StatePoints {
  std::vector<double> t;
  std::vector<std::string> keys;
};
Result<StatePoints> readStates(const session::Session& session, session::TopicId topic, const std::string& path,
                               qint64 originNs, StopToken stop, const session::ProgressFn& progress);

}  // namespace bagscope::widgets
