#pragma once
// The colour controls the image viewer and the 3D view share: a colour map, automatic
// range or a typed low / high value, saved in layouts.

#include <QJsonObject>
#include <QWidget>

#include "widgets/panels/colour_map.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;

namespace bagscope::widgets {

class ColourRange : public QWidget {
  Q_OBJECT

public:
  explicit ColourRange(const QString& mapToolTip, QWidget* parent = nullptr);

  ColourMap map() const;
  bool autoRange() const;
  double low() const;
  double high() const;
  /// Shows the range an automatic choice used (without emitting changed()).
  void showAutoRange(double low, double high);

  void save(QJsonObject& settings) const;
  void restore(const QJsonObject& settings);

signals:
  void changed();

private:
  QComboBox* map_;
  QCheckBox* auto_;
  QDoubleSpinBox* low_;
  QDoubleSpinBox* high_;
};

}  // namespace bagscope::widgets
