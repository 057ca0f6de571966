#include "widgets/panels/colour_range.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSignalBlocker>

namespace bagscope::widgets {

ColourRange::ColourRange(const QString& mapToolTip, QWidget* parent)
    : QWidget(parent),
      map_(new QComboBox(this)),
      auto_(new QCheckBox(tr("Auto range"), this)),
      low_(new QDoubleSpinBox(this)),
      high_(new QDoubleSpinBox(this)) {
  map_->addItems(colourMapNames());
  map_->setToolTip(mapToolTip);
  auto_->setChecked(true);
  for (auto* box : {low_, high_}) {
    box->setRange(-1e9, 1e9);
    box->setDecimals(3);
    box->setEnabled(false);
    box->setKeyboardTracking(false);
    // Narrow: the panels' toolbars must fit beside the inspector.
    box->setMaximumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("-000000.000")) + 28);
  }
  low_->setToolTip(tr("Value shown as the first colour of the map"));
  high_->setToolTip(tr("Value shown as the last colour of the map"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  for (QWidget* w : std::initializer_list<QWidget*>{map_, auto_, low_, high_}) layout->addWidget(w);
  auto changedNow = [this] {
    low_->setEnabled(!auto_->isChecked());
    high_->setEnabled(!auto_->isChecked());
    emit changed();
  };
  connect(map_, &QComboBox::currentIndexChanged, this, changedNow);
  connect(auto_, &QCheckBox::toggled, this, changedNow);
  connect(low_, &QDoubleSpinBox::valueChanged, this, changedNow);
  connect(high_, &QDoubleSpinBox::valueChanged, this, changedNow);
}

ColourMap ColourRange::map() const { return colourMapFromName(map_->currentText()); }
bool ColourRange::autoRange() const { return auto_->isChecked(); }
double ColourRange::low() const { return low_->value(); }
double ColourRange::high() const { return high_->value(); }

void ColourRange::showAutoRange(double low, double high) {
  QSignalBlocker a(low_), b(high_);
  low_->setValue(low);
  high_->setValue(high);
}

void ColourRange::save(QJsonObject& s) const {
  s[QStringLiteral("colourMap")] = map_->currentText();
  s[QStringLiteral("autoRange")] = auto_->isChecked();
  s[QStringLiteral("low")] = low_->value();
  s[QStringLiteral("high")] = high_->value();
}

void ColourRange::restore(const QJsonObject& s) {
  map_->setCurrentText(s.value(QStringLiteral("colourMap")).toString(colourMapName(ColourMap::Turbo)));
  low_->setValue(s.value(QStringLiteral("low")).toDouble());
  high_->setValue(s.value(QStringLiteral("high")).toDouble(1.0));
  auto_->setChecked(s.value(QStringLiteral("autoRange")).toBool(true));
}

}  // namespace bagscope::widgets
