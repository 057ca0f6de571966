#pragma once
// What the plot panel's units share (plot_panel.cpp: the panel, its series and their loading;
// plot_modes.cpp: the modes as strategies, each drawing, fitting and saving in its way;
// plot_drawing.cpp: the curves, the readout and statistics, images and CSV;
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
#include <QPageSize>
#include <QPdfWriter>
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
inline constexpr std::array<const char*, 3> kSeriesGroupNames = {"time", "xy", "states"};  // saved layouts' keys
inline constexpr std::array<const char*, 3> kRunNames = {"a", "b", "difference"};          // PlotPanel::Run, saved
/// A mode's name in saved layouts ("time", "xy", …), and the mode of a name (Time if unknown);
/// the mode box's text (plot_modes.cpp, beside the modes).
const char* modeName(Mode mode);
Mode modeNamed(const QString& name);
QString modeLabel(Mode mode);

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
  Run run = Run::A;                                 // which run of a comparison it shows
  bool rightAxis = false;                           // drawn against the right y axis
  bool stamp = false;                               // x from the message's header.stamp, not its log time
  QString style = QStringLiteral("line");           // "line", "points" or "both"
  QColor colour;
  bool visible = true;
  std::vector<double> x, y;
  std::vector<std::string> keys;  // States: each sample's value as text
  std::vector<double> reference;  // B − A: A's values at x
  bool loaded = false;
  QString problem;
  std::shared_ptr<Job> job;
  QCPAbstractPlottable* plottable = nullptr;
  int drawn = 0;
};

// A mode of the plot (one class each in plot_modes.cpp, made by PlotPanel::makeMode): what it
// shows, how it draws, fits, reads out and saves the panel's series, and how it takes new
// fields. The panel owns the series and the plot; the mode is its strategy.
class PlotPanel::PlotMode {
public:
  enum class Group { OverTime, XY, Lanes };  // the modes of one group show the same series
  explicit PlotMode(PlotPanel& panel) : p(panel) {}
  virtual ~PlotMode() = default;
  virtual Mode id() const = 0;
  virtual Group group() const { return Group::OverTime; }
  /// The x axis is the recording's time: the playhead, clicks that move it, the readout.
  virtual bool timeAxis() const { return false; }
  /// Values over time, linked with the other time plots: the legend's values, statistics,
  /// the right axis, header stamps and derived series.
  virtual bool valuesOverTime() const { return false; }
  virtual bool showsLegend() const { return true; }
  virtual QString xLabel() const = 0;
  virtual QString yLabel() const { return {}; }
  /// The y axis' ticker when the mode has its own (lanes' names); null: numbers.
  virtual QSharedPointer<QCPAxisTicker> yTicker() const { return {}; }
  virtual QCPGraph::LineStyle lineStyle(const Series& s) const;
  /// A new series' plottable: a graph whose legend entry shows its value.
  virtual QCPAbstractPlottable* makePlottable(const Series& s);
  virtual FieldDialog::Purpose fieldPurpose() const { return FieldDialog::Purpose::Series; }
  /// Chosen while the panel holds its group's series: the same series, drawn anew.
  virtual void enter() { p.fitAll(); }
  /// About to be left for another mode.
  virtual void leave() {}
  virtual void redraw() = 0;
  /// Everything in view.
  virtual void fit();
  /// After the playhead moved (the cursor line is the panel's).
  virtual void drawCursor() {}
  /// Series s at time `at` for the readout ("name = value (time)"), or empty.
  virtual QString readout(const Series& s, double at, bool playhead) const;
  /// The CSV's x and y column names, and a series as the CSV holds it.
  virtual std::pair<const char*, const char*> csvColumns() const = 0;
  virtual exporters::Series csvSeries(const Series& s) const;
  /// Fields chosen in the add dialog; a field dropped from the inspector.
  virtual void addChosen(const FieldDialog& dialog);
  virtual void addDropped(const QString& topic, const QString& path) { p.addSeries(topic, path); }

protected:
  /// Where fit() ends the x range at the latest: the data's end (lanes: the recording's).
  virtual double fitEnd(double dataEnd) const { return dataEnd; }
  PlotPanel& p;
};

}  // namespace bagscope::widgets
