#pragma once
// The 3D view's Layer Settings: a row per layer — shown or not, its colour (automatic or one
// chosen), its size (a line or point thickness in pixels, or an arrow's or frustum's length
// in metres) — applied as they change.

#include <QDialog>

#include <functional>

namespace bagscope::widgets {

class SceneLayers;

class LayerSettingsDialog : public QDialog {
  Q_OBJECT

public:
  /// Rows for `layers`' topics; `changed` is called after each change.
  LayerSettingsDialog(SceneLayers* layers, std::function<void()> changed, QWidget* parent = nullptr);
};

}  // namespace bagscope::widgets
