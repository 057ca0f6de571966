#include "widgets/panels/transforms.hpp"

#include "core/export/export.hpp"

namespace bagscope::widgets {

std::shared_ptr<const sensors::TfBuffer> readTransforms(const session::Session& session) {
  auto tf = exporters::loadTransforms(session, true);
  return std::make_shared<const sensors::TfBuffer>(tf ? std::move(tf).value() : sensors::TfBuffer{});
}

}  // namespace bagscope::widgets
