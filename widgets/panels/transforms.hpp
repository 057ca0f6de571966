#pragma once
// Every transform of a recording (its TFMessage topics: /tf, /tf_static, Foxglove's frame
// transforms) in one buffer, for the panels that place things in frames. Reads and decodes
// them all: call it on the pool.

#include <memory>

#include "core/sensors/sensors.hpp"
#include "core/session/session.hpp"

namespace bagscope::widgets {

/// exporters::loadTransforms, as the panels take it: a topic is transforms by its type.
std::shared_ptr<const sensors::TfBuffer> readTransforms(const session::Session& session);

}  // namespace bagscope::widgets
