#pragma once
// What the plot panel's units share (plot_panel.cpp: the panel, its series and their loading;
// plot_drawing.cpp: the modes' drawing, the readout and statistics, images and CSV;
// plot_menus.cpp: its menus, the add dialog and what they change; plot_layout.cpp: saved
// layouts): the series' state and small helpers. Included by those units only.

#include <QColorDialog>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "core/analysis/derive.hpp"
#include "core/decode/decoder.hpp"
#include "core/export/export.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/save_in_background.hpp"
#include "widgets/dialogs/field_dialog.hpp"
#include "widgets/panels/plot/decimate.hpp"
#include "widgets/panels/plot/derived_series.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/panels/plot/plot_series.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

// Time-mode x labels as Settings ▸ time display says: x is seconds from the start.
class TimeTicker : public QCPAxisTicker {
public:
  TimeDisplay display = TimeDisplay::Relative;
  qint64 originNs = 0;

protected:
  QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override {
    if (display == TimeDisplay::Relative) return QCPAxisTicker::getTickLabel(tick, locale, formatChar, precision);
    auto ns = originNs + static_cast<qint64>(std::llround(tick * 1e9));
    return formatTime(ns, display, originNs, std::clamp(precision, 0, 9));
  }
};
namespace plot_detail {

// Twelve colours that are told apart on white, before any repeats.
inline QColor seriesColour(int i) {
  static const QColor colours[] = {QColor(31, 119, 180), QColor(214, 39, 40),   QColor(44, 160, 44),
                                   QColor(255, 127, 14), QColor(148, 103, 189), QColor(23, 190, 207),
                                   QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127),
                                   QColor(188, 189, 34), QColor(0, 0, 128),     QColor(128, 0, 0)};
  return colours[i % static_cast<int>(std::size(colours))];
}

inline QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 6) : QStringLiteral("nan"); }

using Mode = PlotPanel::Mode;
// Modes that show the same series: time, its spectrum and its histogram; XY; state lanes.
inline int seriesGroup(Mode m) { return m == Mode::XY ? 1 : m == Mode::States ? 2 : 0; }
inline constexpr std::array<const char*, 3> kSeriesGroupNames = {"time", "xy", "states"};  // saved layouts' keys
inline bool overTime(Mode m) { return seriesGroup(m) == 0; }
inline constexpr std::array<const char*, 5> kModeNames{"time", "xy", "spectrum", "histogram", "states"};

// A legend entry that shows its series' value at the playhead after its name (the name itself
// stays the series' own: it is lent the value only while the entry is measured and drawn).
class ValueLegendItem : public QCPPlottableLegendItem {
public:
  using QCPPlottableLegendItem::QCPPlottableLegendItem;
  QString value;

protected:
  void draw(QCPPainter* painter) override {
    withValue([&] { QCPPlottableLegendItem::draw(painter); });
  }
  QSize minimumOuterSizeHint() const override {
    QSize size;
    withValue([&] { size = QCPPlottableLegendItem::minimumOuterSizeHint(); });
    return size;
  }

private:
  template <class F>
  void withValue(F f) const {
    QString name = mPlottable->name();
    if (!value.isEmpty()) mPlottable->setName(name + QStringLiteral("   ") + value);
    f();
    mPlottable->setName(name);
  }
};

// A path that selects several values in a message (an open or negative slice): points, not a line.
inline bool manyPerMessage(const QString& path) {
  static const QRegularExpression slice(QStringLiteral("\\[-?\\d*:-?\\d*\\]"));
  return slice.match(path).hasMatch();
}

}  // namespace plot_detail
using namespace plot_detail;

struct PlotPanel::Series {
  QString topic, path, xPath;                       // xPath: XY mode
  QString xTopic;                                   // XY: the x field's topic, when it is not `topic`
  QString derive;                                   // a derived series (addDerivedSeries), else empty
  std::vector<std::pair<QString, QString>> inputs;  // an expression's b, c, …: topic, path
  QString label;                                    // the user's name for it, else empty
  bool rightAxis = false;                           // drawn against the right y axis
  bool stamp = false;                               // x from the message's header.stamp, not its log time
  QString style = QStringLiteral("line");           // "line", "points" or "both"
  QColor colour;
  bool visible = true;
  std::vector<double> x, y;
  std::vector<std::string> keys;  // States: each sample's value as text
  bool loaded = false;
  QString problem;
  std::shared_ptr<Job> job;
  QCPAbstractPlottable* plottable = nullptr;
  int drawn = 0;
};

}  // namespace bagscope::widgets
