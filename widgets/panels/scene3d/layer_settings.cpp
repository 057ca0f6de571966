#include "widgets/panels/scene3d/layer_settings.hpp"

#include <QCheckBox>
#include <QColorDialog>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/panels/scene3d/scene_layers.hpp"

namespace bagscope::widgets {

namespace {
// A swatch of the layer's colour, or a hollow one for "automatic".
QIcon swatch(const QColor& colour) {
  QPixmap p(16, 16);
  p.fill(Qt::transparent);
  QPainter painter(&p);
  painter.setPen(QColor(160, 160, 160));
  if (colour.isValid()) painter.setBrush(colour);
  painter.drawRect(1, 1, 13, 13);
  if (!colour.isValid()) painter.drawLine(2, 13, 13, 2);
  return QIcon(p);
}
}  // namespace

LayerSettingsDialog::LayerSettingsDialog(SceneLayers* layers, std::function<void()> changed, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Layer Settings"));
  auto* grid = new QGridLayout;
  grid->addWidget(new QLabel(tr("Layer")), 0, 0);
  grid->addWidget(new QLabel(tr("Colour")), 0, 1);
  grid->addWidget(new QLabel(tr("Size")), 0, 2);
  int row = 1;
  for (const QString& topic : layers->topics()) {
    auto update = [layers, topic, changed](const std::function<void(LayerLook&)>& edit) {
      LayerLook look = layers->look(topic);
      edit(look);
      layers->setLook(topic, look);
      changed();
    };
    const LayerLook look = layers->look(topic);
    auto* shown = new QCheckBox(topic);
    shown->setObjectName(QStringLiteral("visible:") + topic);
    shown->setChecked(look.visible);
    connect(shown, &QCheckBox::toggled, this, [update](bool on) { update([on](LayerLook& l) { l.visible = on; }); });

    QWidget* colour = nullptr;
    if (layers->colourable(topic)) {
      auto* button = new QToolButton;
      button->setIcon(swatch(look.colour));
      button->setPopupMode(QToolButton::InstantPopup);
      button->setToolTip(tr("The layer's colour: automatic (markers: their own) or one you choose"));
      auto* menu = new QMenu(button);
      connect(menu->addAction(tr("Automatic")), &QAction::triggered, this, [update, button] {
        button->setIcon(swatch({}));
        update([](LayerLook& l) { l.colour = {}; });
      });
      connect(menu->addAction(tr("Choose…")), &QAction::triggered, this, [this, layers, topic, update, button] {
        QColor chosen = QColorDialog::getColor(layers->look(topic).colour, this, tr("Colour of %1").arg(topic));
        if (!chosen.isValid()) return;
        button->setIcon(swatch(chosen));
        update([chosen](LayerLook& l) { l.colour = chosen; });
      });
      button->setMenu(menu);
      colour = button;
    } else {  // a grid: map or costmap colours
      auto* scheme = new QComboBox;
      scheme->addItem(tr("Map"));
      scheme->addItem(tr("Costmap"));
      scheme->setCurrentIndex(look.costmap ? 1 : 0);
      scheme->setToolTip(
          tr("Map: free white, occupied black. Costmap: cost blue to red, inscribed cyan, lethal "
             "magenta, free clear (as RViz draws them)"));
      connect(scheme, &QComboBox::currentIndexChanged, this,
              [update](int i) { update([i](LayerLook& l) { l.costmap = i == 1; }); });
      colour = scheme;
    }
    colour->setObjectName(QStringLiteral("colour:") + topic);

    auto* size = new QDoubleSpinBox;
    size->setObjectName(QStringLiteral("size:") + topic);
    const auto unit = layers->sizeUnit(topic);
    size->setEnabled(unit != SceneLayers::SizeUnit::None);
    if (unit == SceneLayers::SizeUnit::Metres) {
      size->setRange(0.05, 100);
      size->setSingleStep(0.1);
      size->setSuffix(tr(" m"));
      size->setToolTip(tr("Arrow length, or the camera frustum's depth"));
    } else if (unit == SceneLayers::SizeUnit::None) {
      size->setRange(0, 0);
      size->setSpecialValueText(QStringLiteral("–"));
    } else {
      size->setRange(1, 20);
      size->setDecimals(0);
      size->setSuffix(tr(" px"));
      size->setToolTip(tr("Line and point thickness"));
    }
    size->setValue(layers->size(topic));
    connect(size, &QDoubleSpinBox::valueChanged, this,
            [update](double v) { update([v](LayerLook& l) { l.size = v; }); });

    grid->addWidget(shown, row, 0);
    grid->addWidget(colour, row, 1);
    grid->addWidget(size, row, 2);
    ++row;
  }
  if (row == 1) grid->addWidget(new QLabel(tr("No layers: choose topics in the Layers menu.")), 1, 0, 1, 3);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(grid);
  layout->addWidget(buttons);
}

}  // namespace bagscope::widgets
