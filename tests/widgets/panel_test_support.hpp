#pragma once
// Shared by the panel tests (tst_panels, tst_plot_panel, tst_scene_panels), which run on a
// virtual X screen (xvfb-run; the 3D view needs OpenGL, which Qt's offscreen platform does
// not give VTK): their includes, the set-up, main, and the comparison with baselines in
// tests/baselines (looked at by a person when written: BAGSCOPE_UPDATE_BASELINES=1 writes
// them instead of comparing).

#include <QDialog>
#include <QDialogButtonBox>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSet>
#include <QTimer>
#include <QtTest>

#include <QBuffer>
#include <QCheckBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QTcpServer>
#include <QTcpSocket>

#include <qcustomplot.h>
#include <QComboBox>
#include <QWheelEvent>

#include <numbers>

#include "common/test_support.hpp"
#include "widget_test_support.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/topic_job.hpp"
#include "widgets/dialogs/field_dialog.hpp"
#include "widgets/panels/diagnostics_panel.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/log_panel.hpp"
#include "widgets/panels/map_panel.hpp"
#include "widgets/panels/map_tiles.hpp"
#include "widgets/panels/messages_panel.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/panels/scene3d/scene_layers.hpp"
#include "widgets/panels/scene3d/vtk_view.hpp"
#include "widgets/panels/tf_tree_panel.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/layouts.hpp"
#include "widgets/shell/main_window.hpp"
#include "widgets/shell/timeline.hpp"

using namespace bagscope::widgets;
using bagscope::test::dataPath;
using bagscope::test::openAndWait;

namespace bagscope::test {

// Differences a different font hinting or rasteriser makes are small and local: compare
// at a quarter of the size (`scale`), and allow 3 % of those pixels (`allowed`) to differ by
// more than 48. Empty when alike, else what differs (`actual` saved beside the screenshots as
// `name`.actual.png).
inline QString compareImages(const QImage& actual, const QImage& expected, const QString& name, int scale = 4,
                             double allowed = 0.03) {
  QImage a = actual.convertToFormat(QImage::Format_RGB32), e = expected.convertToFormat(QImage::Format_RGB32);
  if (a.size() != e.size())
    return QString("%1: size %2x%3, expected %4x%5")
        .arg(name)
        .arg(a.width())
        .arg(a.height())
        .arg(e.width())
        .arg(e.height());
  QSize small = a.size() / scale;
  a = a.scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  e = e.scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  int differing = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x) {
      QColor p = a.pixelColor(x, y), q = e.pixelColor(x, y);
      if (std::max({qAbs(p.red() - q.red()), qAbs(p.green() - q.green()), qAbs(p.blue() - q.blue())}) > 48) ++differing;
    }
  double share = differing / static_cast<double>(a.width() * a.height());
  if (share <= allowed) return {};
  QString saved = QStringLiteral(BAGSCOPE_SHOTS "/%1.actual.png").arg(name);
  actual.save(saved);
  return QString("%1 differs from what was expected in %2 % of pixels (saved %3)")
      .arg(name)
      .arg(share * 100, 0, 'f', 1)
      .arg(saved);
}

// The same against tests/baselines/`name`.png.
inline QString compareToBaseline(const QImage& actual, const QString& name) {
  QString baseline = QStringLiteral(BAGSCOPE_BASELINES "/%1.png").arg(name);
  if (qEnvironmentVariableIsSet("BAGSCOPE_UPDATE_BASELINES")) {
    actual.save(baseline);
    qWarning("wrote baseline %s: look at it before committing", qPrintable(baseline));
    return {};
  }
  QImage expected(baseline);
  if (expected.isNull()) return "no baseline " + baseline;
  return compareImages(actual, expected, name);
}

/// What every panel test does first: its own settings, and a check that it runs on X.
inline void setUpPanelTest(const QString& settingsDir) {
  isolateSettings(settingsDir);
  QVERIFY2(QGuiApplication::platformName() == "xcb", "run under xvfb-run");
  QDir().mkpath(BAGSCOPE_SHOTS);
}

}  // namespace bagscope::test

using bagscope::test::compareImages;
using bagscope::test::compareToBaseline;
