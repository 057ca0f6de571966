// The compare view (File ▸ Compare With…) on a virtual X screen: run A and run B written here
// by python3-rosbag (tests/compare/test_diff.py's runs: B drops /c, doubles /b's rate, adds
// 0.5 to /a and starts 100 s later). The topic list, the plot's B and B − A series and their
// statistics are checked against what was written; the layout brings the comparison back;
// screenshots in English, 中文 and 日本語.

#include <QtTest>

#include <qcustomplot.h>
#include <QJsonArray>
#include <QLabel>
#include <QMenuBar>
#include <QProcess>
#include <QTranslator>
#include <QTreeView>

#include "common/test_support.hpp"
#include "widget_test_support.hpp"
#include "widgets/dialogs/compare_dialog.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/layouts.hpp"
#include "widgets/shell/main_window.hpp"
#include "widgets/shell/topic_list.hpp"

using namespace bagscope::widgets;
using bagscope::test::openAndWait;

namespace {

constexpr qint64 kSecond = 1'000'000'000;

// Waits for the comparison to be worked out (B open, its shift and topic figures known).
bool waitCompared(Document& d) {
  return QTest::qWaitFor(
      [&] {
        return d.comparison() && d.comparison()->session() &&
               (!d.topicComparison().empty() || !d.comparisonProblem().isEmpty());
      },
      30000);
}

// The row of `topic` in the topic list's model, and a cell of it.
QModelIndex cell(QAbstractItemModel* model, const QString& topic, int column) {
  for (int r = 0; r < model->rowCount(); ++r)
    if (model->index(r, TopicModel::Topic).data().toString() == topic) return model->index(r, column);
  return {};
}

bool waitLoaded(PlotPanel* plot) {
  return QTest::qWaitFor(
      [&] {
        for (int i = 0; i < plot->seriesCount(); ++i)
          if (plot->seriesX(i).empty()) return false;
        return true;
      },
      30000);
}

}  // namespace

class TestCompareView : public QObject {
  Q_OBJECT

  QTemporaryDir settings_, runs_;
  QString a_, b_;

  // A window comparing A with B (aligned by their starts), /a's data plotted for A, B and B − A.
  PlotPanel* compareAndPlot(MainWindow& w) {
    if (!openAndWait(w, {a_})) return nullptr;
    w.document()->compareWith({b_}, QStringLiteral("start"));
    if (!waitCompared(*w.document())) return nullptr;
    auto* plot = qobject_cast<PlotPanel*>(w.addPanel(QStringLiteral("plot")));
    if (!plot) return nullptr;
    plot->addSeries(QStringLiteral("/a"), QStringLiteral("data"));
    plot->addComparedSeries(0, PlotPanel::Run::B);
    plot->addComparedSeries(0, PlotPanel::Run::Difference);
    return waitLoaded(plot) ? plot : nullptr;
  }

private slots:
  void initTestCase() {
    bagscope::test::isolateSettings(settings_.path());
    QVERIFY2(QGuiApplication::platformName() == "xcb",
             qPrintable("this test needs a real X server (xvfb-run), not " + QGuiApplication::platformName()));
    a_ = runs_.filePath("a.bag");
    b_ = runs_.filePath("b.bag");
    QProcess p;
    p.start(BAGSCOPE_PYTHON, {"-c",
                              "import sys; sys.path.insert(0, sys.argv[1]); import test_diff as t\n"
                              "t.write_run(sys.argv[2])\n"
                              "t.write_run(sys.argv[3], start=t.START + 100, drop=('/c',), b_rate=20, bias=0.5)\n"
                              "t.write_run(sys.argv[4], drop=('/c', '/event'))",
                              BAGSCOPE_COMPARE_TESTS, a_, b_, runs_.filePath("two.bag")});
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QDir().mkpath(BAGSCOPE_SHOTS);
  }

  void theTopicListSetsBothRunsSideBySide() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(openAndWait(w, {a_}));
    QTreeView* view = w.topicPanel()->view();
    QVERIFY(view->isColumnHidden(TopicModel::CountB));  // not comparing: A's columns only
    w.document()->compareWith({b_}, QStringLiteral("start"));
    QVERIFY(waitCompared(*w.document()));
    QCOMPARE(w.document()->comparisonProblem(), QString());
    QCOMPARE(w.document()->comparisonShiftNs(), -100 * kSecond);  // B started 100 s later
    QVERIFY(!view->isColumnHidden(TopicModel::CountB) && !view->isColumnHidden(TopicModel::GapB));
    QAbstractItemModel* m = view->model();
    QCOMPARE(m->rowCount(), 4);  // /a /b /c /event: B has no topic of its own
    // /b: 20 messages at 10 Hz in A, 40 at 20 Hz in B: count and rate highlighted.
    QCOMPARE(cell(m, "/b", TopicModel::Count).data(TopicModel::SortRole).toDouble(), 20.0);
    QCOMPARE(cell(m, "/b", TopicModel::CountB).data(TopicModel::SortRole).toDouble(), 40.0);
    // (times written as rounded ns: the rate within 1e-6 of the nominal one)
    QVERIFY(std::abs(cell(m, "/b", TopicModel::RateB).data(TopicModel::SortRole).toDouble() - 20.0) < 2e-5);
    for (int c : {TopicModel::Count, TopicModel::CountB, TopicModel::Rate, TopicModel::RateB})
      QVERIFY2(cell(m, "/b", c).data(Qt::BackgroundRole).isValid(), qPrintable(QString::number(c)));
    // /a: the same count, rate and gaps (a bias is the plot's to show).
    for (int c : {TopicModel::Count, TopicModel::Rate, TopicModel::GapA, TopicModel::Type})
      QVERIFY(!cell(m, "/a", c).data(Qt::BackgroundRole).isValid());
    QCOMPARE(cell(m, "/a", TopicModel::GapB).data(TopicModel::SortRole).toDouble(), 0.02);  // 50 Hz
    // /c: only in A.
    QVERIFY(cell(m, "/c", TopicModel::Topic).data(Qt::BackgroundRole).isValid());
    QCOMPARE(cell(m, "/c", TopicModel::CountB).data().toString(), QString("–"));
    QCOMPARE(cell(m, "/c", TopicModel::Topic).data(Qt::ToolTipRole).toString(), QString("Only in run A"));
    auto* status = w.findChild<QLabel*>("compareStatus");
    QVERIFY(status && status->isVisible() && status->text().contains("b.bag"));

    // The other way round: B's own topic listed after A's, with no topic id (the timeline skips it).
    Document d;
    QVERIFY(openAndWait(d, {b_}));
    d.compareWith({a_}, QStringLiteral("start"));
    QVERIFY(waitCompared(d));
    TopicModel model(&d);
    TopicFilter filter;
    filter.setSourceModel(&model);
    QCOMPARE(model.rowCount(), 4);
    QModelIndex onlyB = cell(&model, "/c", TopicModel::Topic);
    QVERIFY(onlyB.isValid() && !onlyB.data(TopicModel::TopicIdRole).isValid());
    QCOMPARE(onlyB.data(Qt::ToolTipRole).toString(), QString("Only in run B"));
    QCOMPARE(cell(&model, "/c", TopicModel::CountB).data().toString(), QString("10"));
    QCOMPARE(filter.shownTopics().size(), std::size_t{3});

    // Another recording opened as A while comparing: until its comparison is worked out, no
    // row reads the old one's (whose third topic, /c, B lacks: it crashed the list).
    QVERIFY(openAndWait(w, {runs_.filePath("two.bag")}));
    for (int r = 0; r < m->rowCount(); ++r) {
      const QString name = m->index(r, TopicModel::Topic).data().toString();
      QVERIFY2(name == "/a" || name == "/b" || name == "/event", qPrintable("a row of the old comparison: " + name));
    }
    for (int r = 0; r < m->rowCount(); ++r)
      for (int c = 0; c < TopicModel::ColumnCount; ++c)
        for (int role : {int(Qt::DisplayRole), int(Qt::BackgroundRole), int(Qt::ToolTipRole), TopicModel::SortRole})
          m->index(r, c).data(role);
    QVERIFY(waitCompared(*w.document()));
    QTRY_COMPARE(m->rowCount(), 3);  // /a /b, then /event only in B
    QCOMPARE(cell(m, "/event", TopicModel::Topic).data(Qt::ToolTipRole).toString(), QString("Only in run B"));

    w.document()->stopComparing();
    QVERIFY(view->isColumnHidden(TopicModel::CountB));
    QCOMPARE(m->rowCount(), 2);
    QVERIFY(!status->isVisible());
  }

  void runBAndTheDifferenceArePlottedOnATimeAxis() {
    QTemporaryDir layouts;
    MainWindow w(nullptr, layouts.path());
    w.show();
    PlotPanel* plot = compareAndPlot(w);
    QVERIFY(plot);
    QCOMPARE(plot->seriesCount(), 3);
    // B's samples on A's axis: the same times (aligned by the starts), each 0.5 higher.
    const auto &ax = plot->seriesX(0), &ay = plot->seriesY(0);
    const auto &bx = plot->seriesX(1), &by = plot->seriesY(1);
    QCOMPARE(ax.size(), std::size_t{100});
    QCOMPARE(bx.size(), ax.size());
    for (std::size_t i = 0; i < ax.size(); ++i) {
      QCOMPARE(bx[i], ax[i]);
      QVERIFY(std::abs(by[i] - ay[i] - 0.5) < 1e-12);
      QVERIFY(std::abs(plot->seriesY(2)[i] - 0.5) < 1e-12);
    }
    auto* bGraph = qobject_cast<QCPGraph*>(plot->plot()->plottable(1));
    auto* aGraph = qobject_cast<QCPGraph*>(plot->plot()->plottable(0));
    QCOMPARE(bGraph->pen().style(), Qt::DashLine);
    QCOMPARE(bGraph->pen().color(), aGraph->pen().color());
    QCOMPARE(bGraph->name(), QString("/a data [B]"));
    QCOMPARE(plot->plot()->plottable(2)->name(), QString("/a data [B − A]"));
    // B − A's statistics over the visible range: every delta 0.5, B follows A exactly.
    QString stats = plot->statisticsText();
    QVERIFY2(stats.contains("/a data [B − A]: 100 sample") &&
                 stats.contains("RMS 0.5, max |Δ| 0.5, mean 0.5, correlation 1"),
             qPrintable(stats));
    plot->setXRange(0.5, 1.0);  // 26 samples of A at 50 Hz
    QVERIFY2(plot->statisticsText().contains("[B − A]: 26 sample"), qPrintable(plot->statisticsText()));

    // The playhead drives both runs: B's at the same moment of its own recording.
    Document* b = w.document()->comparison();
    w.document()->setPlayhead(w.document()->startNs() + kSecond / 2);
    QCOMPARE(b->playheadNs(), b->startNs() + kSecond / 2);
    // At 0.5 s, A = sin(π/2) = 1: B = 1.5 and B − A = 0.5.
    QVERIFY2(plot->legendValue(0) == "= 1" && plot->legendValue(1) == "= 1.5" && plot->legendValue(2) == "= 0.5",
             qPrintable(plot->legendValue(0) + " " + plot->legendValue(1) + " " + plot->legendValue(2)));
    w.document()->setPlayhead(w.document()->startNs());

    // B − A of an expression reads each input in B's own topics (/event is topic 3 in A, 2 in B):
    // a + b with b = /event's one message at 0.5 s, so defined at that sample only: 0.5 there.
    plot->addExpressionSeries("/a", "data", "a + b", {{"/event", "data"}});
    plot->addComparedSeries(3, PlotPanel::Run::Difference);
    QVERIFY(waitLoaded(plot));
    QCOMPARE(plot->problemText(), QString());
    const auto& expressionDelta = plot->seriesY(4);
    QCOMPARE(expressionDelta.size(), std::size_t{100});
    for (std::size_t i = 0; i < expressionDelta.size(); ++i)
      QVERIFY2(i == 25 ? std::abs(expressionDelta[i] - 0.5) < 1e-12 : std::isnan(expressionDelta[i]),
               qPrintable(QString("%1: %2").arg(i).arg(expressionDelta[i])));
    plot->removeSeries(4);
    plot->removeSeries(3);

    // B moved 0.3 s later: its samples too, and B − A only where B has data (never extrapolated).
    QSignalSpy changed(w.document(), &Document::comparisonChanged);
    w.document()->setComparisonAlignment("offset:0.3");
    QVERIFY(changed.wait(10000));
    QCOMPARE(w.document()->comparisonShiftNs(), -100 * kSecond + 3 * kSecond / 10);
    QVERIFY(waitLoaded(plot));
    QVERIFY(std::abs(plot->seriesX(1).front() - 0.3) < 1e-9);
    const auto& delta = plot->seriesY(2);
    QVERIFY(std::isnan(delta[0]) && std::isnan(delta[14]) && !std::isnan(delta[15]));  // A's t < 0.3 s
    // B at 0.3 s + k/50 is B's sample k: A's sample 15 + k against it.
    QVERIFY(std::abs(delta[15] - (plot->seriesY(1)[0] - ay[15])) < 1e-12);

    // An event B does not have: said, and B's series are not drawn against a wrong shift.
    w.document()->setComparisonAlignment("event:/nope");
    QTRY_VERIFY(w.document()->comparisonProblem().contains("/nope"));
    auto* status = w.findChild<QLabel*>("compareStatus");
    QVERIFY(status->toolTip().contains("/nope"));

    // The dialog reads and writes every kind of alignment.
    CompareDialog dialog(w.document());
    for (QString text : {"start", "offset:-2.500", "event:/event", "event:/a:data>0.25", "event:/a:data<-0.5"}) {
      dialog.setAlignment(text);
      QCOMPARE(dialog.alignment(), text);
    }
    QCOMPARE(dialog.paths(), QStringList{b_});
  }

  void aLayoutRemembersTheComparison() {
    QTemporaryDir layouts;
    Layout saved;
    {
      MainWindow w(nullptr, layouts.path());
      w.show();
      QVERIFY(compareAndPlot(w));
      w.document()->setComparisonAlignment("offset:0.25");
      QTRY_COMPARE(w.document()->comparisonShiftNs(), -100 * kSecond + kSecond / 4);
      saved = w.currentLayout("compare");
    }
    MainWindow w(nullptr, layouts.path());
    w.show();
    QVERIFY(openAndWait(w, {a_}));
    w.applyLayout(saved);
    QVERIFY(waitCompared(*w.document()));
    QCOMPARE(w.document()->comparison()->paths(), QStringList{b_});
    QCOMPARE(w.document()->comparisonAlignment(), QString("offset:0.25"));
    QTRY_COMPARE(w.document()->comparisonShiftNs(), -100 * kSecond + kSecond / 4);
    QCOMPARE(w.panels().size(), 1);
    auto* plot = qobject_cast<PlotPanel*>(w.panels().front());
    QVERIFY(plot && waitLoaded(plot));
    QCOMPARE(plot->seriesCount(), 3);
    QCOMPARE(plot->seriesRun(1), PlotPanel::Run::B);
    QCOMPARE(plot->seriesRun(2), PlotPanel::Run::Difference);
    QVERIFY(std::abs(plot->seriesX(1).front() - 0.25) < 1e-9);

    // `bagscope-cli render` of that layout, without a display: A compared with the layout's B,
    // drawn as the app draws it.
    QTemporaryDir out;
    QString error;
    QVERIFY2(saved.writeFile(out.filePath("layout.json"), &error), qPrintable(error));
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
    cli.setProcessEnvironment(env);
    cli.start(BAGSCOPE_CLI, {"render", out.filePath("layout.json"), a_, "-o", out.path(), "--size", "640x360"});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const QString name = saved.panels["views"].toArray().at(0).toObject()["name"].toString();
    QImage rendered(out.filePath("a_" + name + ".png"));
    QVERIFY2(!rendered.isNull(), qPrintable(name));
    w.document()->setPlayhead(w.document()->endNs());  // where the render puts it
    QVERIFY(plot->saveImage(out.filePath("app.png"), &error, QSize(640, 360)));
    QImage app(out.filePath("app.png"));
    int differ = 0;
    for (int y = 0; y < app.height(); ++y)
      for (int x = 0; x < app.width(); ++x) differ += rendered.pixel(x, y) != app.pixel(x, y);
    QVERIFY2(rendered.size() == app.size() && differ < app.width() * app.height() / 500,
             qPrintable(QString::number(differ) + " pixels differ"));
    // Its run B missing: said, exit 1.
    QJsonObject panels = saved.panels;
    panels["comparison"] = QJsonObject{{"recordings", QJsonArray{out.filePath("gone.bag")}}, {"alignment", "start"}};
    Layout broken = saved;
    broken.panels = panels;
    QVERIFY(broken.writeFile(out.filePath("broken.json"), &error));
    cli.start(BAGSCOPE_CLI, {"render", out.filePath("broken.json"), a_, "-o", out.filePath("b"), "--size", "640x360"});
    QVERIFY(cli.waitForFinished(120000));
    QCOMPARE(cli.exitCode(), 1);
    QVERIFY2(cli.readAllStandardError().contains("run B"), "the missing run B is not named");
  }

  // The compare view as people see it, in each language the app speaks (looked at by a person).
  void screenshotsInEveryLanguage() {
    for (QString language : {"en", "zh_CN", "ja_JP"}) {
      QTranslator translator;
      if (language != "en") {
        QVERIFY(translator.load("bagscope_" + language, BAGSCOPE_TRANSLATIONS));
        QCoreApplication::installTranslator(&translator);
      }
      QTemporaryDir layouts;
      {
        MainWindow w(nullptr, layouts.path());
        w.resize(1280, 820);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        PlotPanel* plot = compareAndPlot(w);
        QVERIFY(plot);
        const QString file = w.menuBar()->actions().front()->text();
        QVERIFY2((language == "en") == (file == "&File"), qPrintable(language + ": " + file));
        QTest::qWait(200);
        QVERIFY(w.grab().save(QStringLiteral(BAGSCOPE_SHOTS "/compare_%1.png").arg(language)));
      }
      QCoreApplication::removeTranslator(&translator);
    }
  }
};

QTEST_MAIN(TestCompareView)
#include "tst_compare_view.moc"
