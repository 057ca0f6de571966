#include "transforms.hpp"

#include <algorithm>

namespace bagscope::widgets {

std::shared_ptr<const sensors::TfBuffer> readTransforms(const session::Session& session) {
  auto buffer = std::make_shared<sensors::TfBuffer>();
  session::Selection selection;
  std::vector<session::TopicId> statics;
  for (session::TopicId t = 0; t < session.topics().size(); ++t)
    if (sensors::kindOf(session.topics()[t].type) == sensors::SensorKind::Transforms) {
      selection.topics.push_back(t);
      if (session.topics()[t].name.find("static") != std::string::npos) statics.push_back(t);
    }
  if (selection.topics.empty()) return buffer;
  (void)session.forEach(selection, [&](const session::Message& m) {
    auto decoder = session.decoder(*m.connection);
    if (!decoder) return true;
    bool isStatic = std::find(statics.begin(), statics.end(), m.topic) != statics.end();
    if (auto value = (*decoder)->decode(m.bytes)) buffer->add(*value, isStatic);
    return true;
  });
  return buffer;
}

}  // namespace bagscope::widgets
