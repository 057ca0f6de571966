#include "widgets/shell/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileOpenEvent>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

#include "core/base/text.hpp"
#include "core/session/session.hpp"
#include "widgets/dialogs/about_dialog.hpp"
#include "widgets/dialogs/compare_dialog.hpp"
#include "widgets/dialogs/export_wizard.hpp"
#include "widgets/dialogs/save_recording_dialog.hpp"
#include "widgets/dialogs/stats_dialog.hpp"
#include "widgets/panels/panel_registry.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/inspector.hpp"
#include "widgets/shell/playback.hpp"
#include "widgets/shell/problems_panel.hpp"
#include "widgets/shell/timeline.hpp"
#include "widgets/shell/topic_list.hpp"

namespace bagscope::widgets {
namespace {

constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recent");
const QString kLastLayoutKey = QStringLiteral("lastLayout");
// Set while the last arrangement is being restored, cleared once the window has been laid out:
// still set at the next start, that start died restoring it (a crash loop is broken there).
const QString kRestoringKey = QStringLiteral("restoringLastLayout");

// A message box that does not block (tests and scripted runs keep going).
void tell(QWidget* parent, QMessageBox::Icon icon, const QString& title, const QString& text,
          const QString& details = {}) {
  auto* box = new QMessageBox(icon, title, text, QMessageBox::Ok, parent);
  box->setAttribute(Qt::WA_DeleteOnClose);
  if (!details.isEmpty()) box->setDetailedText(details);
  box->open();
}

QString displayName(const QStringList& paths) {
  if (paths.isEmpty()) return {};
  QString first = QFileInfo(paths.front()).fileName();
  if (first.isEmpty()) first = paths.front();
  return paths.size() == 1 ? first
                           : QObject::tr("%1 + %n more", nullptr, static_cast<int>(paths.size() - 1)).arg(first);
}

}  // namespace

MainWindow::MainWindow(QWidget* parent, const QString& layoutFolder)
    : QMainWindow(parent),
      document_(new Document(this)),
      playback_(new Playback(document_, this)),
      playbackBar_(new PlaybackBar(document_, playback_, this)),
      topics_(new TopicListPanel(document_)),
      timeline_(new TimelineWidget(document_)),
      inspector_(new InspectorPanel(document_)),
      problems_(new ProblemsPanel(document_)),
      store_(layoutFolder) {
  setWindowTitle(tr("Bagscope"));
  setAcceptDrops(true);
  qApp->installEventFilter(this);  // QFileOpenEvent goes to the application
  resize(1280, 800);
  setDockOptions(AnimatedDocks | AllowNestedDocks | AllowTabbedDocks);
  addToolBar(Qt::TopToolBarArea, playbackBar_);
  addDock(topics_, tr("Topics"), QStringLiteral("topics"), Qt::LeftDockWidgetArea);
  addDock(inspector_, tr("Message Inspector"), QStringLiteral("inspector"), Qt::RightDockWidgetArea);
  addDock(timeline_, tr("Timeline"), QStringLiteral("timeline"), Qt::BottomDockWidgetArea);
  QDockWidget* problemsDock = addDock(problems_, tr("Problems"), QStringLiteral("problems"), Qt::BottomDockWidgetArea);
  problemsDock->hide();  // shown from the status bar's badge, or View
  // No central widget: the panels share the window and the user arranges them.
  auto* hint = new QLabel(tr("Open a recording with File ▸ Open, or drop bags and folders here."), this);
  hint->setAlignment(Qt::AlignCenter);
  hint->setEnabled(false);
  setCentralWidget(hint);

  summary_ = new QLabel(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(220);
  progress_->hide();
  cancel_ = new QToolButton(this);
  cancel_->setText(tr("Cancel"));
  cancel_->hide();
  // A badge while the recording has problems: it opens the Problems panel.
  problemsBadge_ = new QToolButton(this);
  problemsBadge_->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
  problemsBadge_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  problemsBadge_->setAutoRaise(true);
  problemsBadge_->hide();
  connect(problemsBadge_, &QToolButton::clicked, this, [this, problemsDock] {
    bool wasHidden = problemsDock->isHidden();
    problemsDock->show();
    problemsDock->raise();
    // Beside the timeline, half its width: long sentences need the room.
    auto* timelineDock = findChild<QDockWidget*>(QStringLiteral("timeline"), Qt::FindDirectChildrenOnly);
    if (wasHidden && timelineDock && !problemsDock->isFloating())
      resizeDocks({timelineDock, problemsDock}, {1, 1}, Qt::Horizontal);
  });
  connect(problems_, &ProblemsPanel::countChanged, this, [this](int n) {
    problemsBadge_->setText(tr("%n problem(s)", nullptr, n));
    problemsBadge_->setToolTip(tr("What this recording could not give in full: open the Problems panel"));
    problemsBadge_->setVisible(n > 0);
  });
  recoverButton_ = new QToolButton(this);
  recoverButton_->setText(tr("Recover…"));
  recoverButton_->setToolTip(tr("Write every message that could be read to a new, clean recording"));
  recoverButton_->hide();
  connect(recoverButton_, &QToolButton::clicked, this, [this] { showSaveRecording(true); });
  compareStatus_ = new QLabel(this);
  compareStatus_->setObjectName(QStringLiteral("compareStatus"));
  compareStatus_->hide();
  statusBar()->addPermanentWidget(compareStatus_);
  statusBar()->addPermanentWidget(problemsBadge_);
  statusBar()->addPermanentWidget(recoverButton_);
  statusBar()->addPermanentWidget(summary_);
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  connect(cancel_, &QToolButton::clicked, document_, &Document::cancelOpen);

  connect(document_, &Document::openProgress, this,
          [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); });
  connect(document_, &Document::openFinished, this, &MainWindow::onOpenFinished);
  connect(document_, &Document::openCancelled, this, [this] {
    progress_->hide();
    cancel_->hide();
    statusBar()->showMessage(tr("Opening was cancelled."), 10000);
    emit openFinished(tr("Opening was cancelled."));
  });
  connect(document_, &Document::sessionChanged, this, &MainWindow::onSessionChanged);
  connect(document_, &Document::comparisonChanged, this, &MainWindow::showComparison);
  connect(document_, &Document::sizeProgress, this, [this](double f) {
    if (f < 1.0) statusBar()->showMessage(tr("Measuring topic sizes… %1%").arg(static_cast<int>(f * 100)));
    else statusBar()->clearMessage();
  });
  connect(topics_, &TopicListPanel::shownTopicsChanged, this,
          [this] { timeline_->setRows(topics_->filter()->shownTopics()); });
  connect(timeline_, &TimelineWidget::topicClicked, document_, &Document::setCurrentTopic);
  connect(topics_, &TopicListPanel::statsRequested, this, &MainWindow::showStats);
  connect(topics_, &TopicListPanel::plotRequested, this, [this](int topic) {
    document_->setCurrentTopic(topic);
    QMetaObject::invokeMethod(plotForField(), "showAddDialog", Qt::QueuedConnection);
  });
  connect(topics_, &TopicListPanel::exportRequested, this,
          [this](int topic) { showExport({document_->topics()[static_cast<std::size_t>(topic)].name}); });
  connect(topics_, &TopicListPanel::showRequested, this, [this](int topic, const QString& kind) {
    if (Panel* panel = addPanel(kind)) panel->setTopic(document_->topics()[static_cast<std::size_t>(topic)].name);
  });

  createMenus();
  applySettings(AppSettings::load());
  defaultState_ = saveState();
  statusBar()->showMessage(
      tr("Open a recording (ROS 1 .bag, .mcap, rosbag2 folder) with File ▸ Open or drop it on the window."));
  // The arrangement the user left last time, unless restoring it is what ended the last start.
  QSettings settings;
  QByteArray last = settings.value(kLastLayoutKey).toByteArray();
  if (settings.value(kRestoringKey).toBool()) {
    settings.remove(kRestoringKey);
    settings.remove(kLastLayoutKey);
    layoutNotice_ =
        tr("The arrangement of the last session could not be restored (the app stopped while restoring "
           "it); the default arrangement is shown. Saved layouts are kept in View ▸ Layouts.");
  } else if (!last.isEmpty()) {
    if (auto layout = Layout::fromJson(QJsonDocument::fromJson(last).object(), nullptr))
      pendingStart_ = *layout;  // applied when the window is shown
  }
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (shownOnce_) return;
  shownOnce_ = true;
  // Floating docks restored into a window not yet shown crashed Qt's dock layout at its first
  // pass (issue #33): the last arrangement is restored into the shown window.
  if (pendingStart_) {
    QSettings settings;
    settings.setValue(kRestoringKey, true);
    settings.sync();
    applyLayout(*pendingStart_, true);
    pendingStart_.reset();
  }
  // Once the window has been laid out with the restored arrangement, it is known to work.
  QTimer::singleShot(0, this, [this] {
    if (layout()) layout()->activate();
    QSettings().remove(kRestoringKey);
    if (!layoutNotice_.isEmpty()) tell(this, QMessageBox::Information, tr("Arrangement"), layoutNotice_);
    layoutNotice_.clear();
  });
}

MainWindow::~MainWindow() {
  // Panels and dialogs run jobs on the document's session: they go first, while this
  // window (and its list of panels) is still whole.
  removePanels();
  qDeleteAll(findChildren<StatsDialog*>());
  qDeleteAll(findChildren<ExportWizard*>());
  qDeleteAll(findChildren<SaveRecordingDialog*>());
}

QDockWidget* MainWindow::addDock(QWidget* panel, const QString& title, const QString& name, Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(name);  // saveState/restoreState find docks by name
  dock->setWidget(panel);
  addDockWidget(area, dock);
  return dock;
}

QList<QDockWidget*> MainWindow::docks() const {
  return findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly);
}

Panel* MainWindow::addPanel(const QString& kind, const QString& name) {
  const PanelType* type = panelType(kind);
  if (!type) return nullptr;
  Panel* panel = type->create(document_);
  linkTimeRange(panel);
  const QString title = translated(type->title);
  QString dockName = name.isEmpty() ? QStringLiteral("%1-%2").arg(kind).arg(nextPanel_++) : name;
  auto* dock = addDock(panel, title, dockName, Qt::RightDockWidgetArea);
  // A closed panel is hidden, not deleted: View ▸ Panels shows it again (or removes the closed
  // ones), as a closed plot or view could not be reopened before (issue #33).
  dock->setProperty("panelKind", kind);
  connect(panel, &Panel::titleChanged, dock, [dock, title](const QString& topic) {
    dock->setWindowTitle(topic.isEmpty() ? title : QStringLiteral("%1 — %2").arg(title, topic));
  });
  connect(dock, &QObject::destroyed, this, [this, dock] { panelDocks_.removeAll(dock); });
  if (name.isEmpty()) placeNewPanel(dock);  // a layout's panels are placed by its state
  panelDocks_ << dock;
  panel->setTimeDisplay(settings_.timeDisplay);
  dock->show();
  dock->raise();
  return panel;
}

// New panels share the room above the timeline as a grid: the first takes half the window's
// height over the timeline (whose empty rows gave the room), each next one halves the largest
// panel along its longer side, so that none gets squeezed into a narrow column.
void MainWindow::placeNewPanel(QDockWidget* dock) {
  QDockWidget* largest = nullptr;
  for (QDockWidget* d : panelDocks_)
    if (d->isVisible() && !d->isFloating() &&
        (!largest || d->width() * d->height() > largest->width() * largest->height()))
      largest = d;
  if (largest) {
    // Side by side while both halves keep a readable width, else one above the other.
    const Qt::Orientation along =
        largest->width() >= largest->height() && largest->width() >= 2 * 380 ? Qt::Horizontal : Qt::Vertical;
    splitDockWidget(largest, dock, along);
    resizeDocks({largest, dock}, {1, 1}, along);
    return;
  }
  auto* timelineDock = findChild<QDockWidget*>(QStringLiteral("timeline"), Qt::FindDirectChildrenOnly);
  addDockWidget(Qt::BottomDockWidgetArea, dock, Qt::Vertical);
  if (!timelineDock || !timelineDock->isVisible() || timelineDock->isFloating() ||
      dockWidgetArea(timelineDock) != Qt::BottomDockWidgetArea)
    return;
  splitDockWidget(dock, timelineDock, Qt::Vertical);  // the timeline stays at the bottom
  // The panels get half the height; the lists above and the timeline share the rest.
  QList<QDockWidget*> column{dock, timelineDock};
  QList<int> heights{height() / 2, height() / 5};
  if (auto* inspector = findChild<QDockWidget*>(QStringLiteral("inspector"), Qt::FindDirectChildrenOnly);
      inspector && inspector->isVisible() && !inspector->isFloating()) {
    column.prepend(inspector);
    heights.prepend(height() * 3 / 10);
  }
  resizeDocks(column, heights, Qt::Vertical);
}

QList<Panel*> MainWindow::panels() const {
  QList<Panel*> out;
  for (QDockWidget* d : panelDocks_)
    if (auto* p = qobject_cast<Panel*>(d->widget())) out << p;
  return out;
}

// A new image viewer, Messages list, … opens on the topic selected in the topic list when it
// shows that topic's type (as Foxglove's new panels take the selection); else on its first.
Panel* MainWindow::addPanelOnSelectedTopic(const QString& kind) {
  Panel* panel = addPanel(kind);
  const PanelType* type = panelType(kind);
  const int current = document_->currentTopic();
  if (!panel || !type || !type->shows || current < 0) return panel;
  const auto& topics = document_->topics();
  auto it =
      std::find_if(topics.begin(), topics.end(), [&](const TopicInfo& t) { return static_cast<int>(t.id) == current; });
  if (it == topics.end() || !type->shows(it->type)) return panel;
  bool shared = std::count_if(topics.begin(), topics.end(), [&](const TopicInfo& t) { return t.name == it->name; }) > 1;
  panel->setTopic(shared ? it->nameWithType() : it->name);
  return panel;
}

void MainWindow::removePanels() {
  if (panelDocks_.isEmpty()) return;
  const QList<QDockWidget*> docks = panelDocks_;
  panelDocks_.clear();
  for (QDockWidget* d : docks) removeDockWidget(d);
  // Qt keeps a placeholder where each removed dock was; the default arrangement, which names
  // none of them, rebuilds the tree without them before the docks go.
  restoreState(defaultState_);
  qDeleteAll(docks);
}

void MainWindow::removePanel(QDockWidget* dock) {
  removeDockWidget(dock);
  panelDocks_.removeAll(dock);
  delete dock;
}

void MainWindow::fillPanelsMenu(QMenu* menu) {
  menu->clear();
  for (QDockWidget* d : panelDocks_) menu->addAction(d->toggleViewAction());
  if (panelDocks_.isEmpty()) menu->addAction(tr("No panels"))->setEnabled(false);
  menu->addSeparator();
  QAction* removeClosed = menu->addAction(tr("Remove Closed Panels"), this, [this] {
    for (QDockWidget* d : QList<QDockWidget*>(panelDocks_))
      if (d->isHidden()) removePanel(d);
  });
  removeClosed->setEnabled(std::any_of(panelDocks_.begin(), panelDocks_.end(), [](auto* d) { return d->isHidden(); }));
}

PlotPanel* MainWindow::plotForField() {
  // The most recently opened time plot, or a new one.
  for (auto it = panelDocks_.rbegin(); it != panelDocks_.rend(); ++it)
    if (auto* plot = qobject_cast<PlotPanel*>((*it)->widget()); plot && plot->mode() == PlotPanel::Mode::Time) {
      (*it)->raise();
      return plot;
    }
  return static_cast<PlotPanel*>(addPanel(QLatin1String(PlotPanel::kKind)));
}

void MainWindow::linkTimeRange(Panel* panel) {
  // Panels with a time axis share its range: zooming or panning one moves the others.
  connect(panel, &Panel::timeRangeChanged, this, [this, panel](double lo, double hi) {
    for (Panel* other : panels())
      if (other != panel && other->sharesTimeRange()) other->showTimeRange(lo, hi);
  });
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
    QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open recordings"), QFileInfo(document_->paths().value(0)).path(),
        tr("Recordings (%1);;All files (*)").arg(QString::fromStdString(session::recordingFilePatterns())));
    for (QString& p : paths)  // a rosbag2 folder is opened by its metadata.yaml
      if (QFileInfo(p).fileName() == QLatin1String("metadata.yaml")) p = QFileInfo(p).path();
    if (!paths.isEmpty()) open(paths);
  });
  file->addAction(tr("Open &Folder…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Open a rosbag2 folder or a folder of bags"),
                                                    QFileInfo(document_->paths().value(0)).path());
    if (!dir.isEmpty()) open({dir});
  });
  recentMenu_ = file->addMenu(tr("Open &Recent"));
  rebuildRecentMenu();
  file->addAction(tr("&Export…"), QKeySequence(tr("Ctrl+E")), this, [this] {
    QStringList selected;
    if (int t = document_->currentTopic(); t >= 0) selected << document_->topics()[static_cast<std::size_t>(t)].name;
    showExport(selected);
  });
  saveSelectionAction_ = file->addAction(tr("&Save Selection As…"), QKeySequence(tr("Ctrl+Shift+S")), this,
                                         [this] { showSaveRecording(false); });
  recoverAction_ = file->addAction(tr("&Recover…"), this, [this] { showSaveRecording(true); });
  saveSelectionAction_->setEnabled(false);
  recoverAction_->setEnabled(false);
  file->addAction(tr("&Close"), QKeySequence::Close, document_, &Document::close);
  file->addSeparator();
  file->addAction(tr("Compare &With…"), this, &MainWindow::showCompare);
  stopComparingAction_ = file->addAction(tr("Stop Comparing"), document_, &Document::stopComparing);
  stopComparingAction_->setEnabled(false);
  file->addSeparator();
  file->addAction(tr("&Settings…"), QKeySequence::Preferences, this, &MainWindow::showSettings);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  for (QDockWidget* dock : docks()) view->addAction(dock->toggleViewAction());
  view->addAction(playbackBar_->toggleViewAction());
  QMenu* panelsMenu = view->addMenu(tr("&Panels"));  // plots and views, shown or closed
  connect(panelsMenu, &QMenu::aboutToShow, this, [this, panelsMenu] { fillPanelsMenu(panelsMenu); });
  view->addSeparator();
  for (const PanelType& type : panelTypes())
    view->addAction(translated(type.newAction), QKeySequence(translated(type.shortcut)), this,
                    [this, kind = QString::fromLatin1(type.kind)] { addPanelOnSelectedTopic(kind); });
  view->addSeparator();
  view->addAction(tr("Zoom Timeline to Fit"), timeline_, &TimelineWidget::zoomToFit);
  QAction* align = view->addAction(tr("Align Start Times"));
  align->setCheckable(true);
  align->setToolTip(
      tr("Shift each open file's times so that all start together (recordings of different days side by side)"));
  connect(align, &QAction::toggled, document_, &Document::setAlignStarts);
  view->addSeparator();
  layoutsMenu_ = view->addMenu(tr("&Layouts"));
  rebuildLayoutsMenu();

  QMenu* play = menuBar()->addMenu(tr("&Playback"));
  play->addActions(playbackBar_->playbackActions());
  addActions(playbackBar_->playbackActions());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Bagscope"), this, &MainWindow::showAbout)->setMenuRole(QAction::AboutRole);
}

void MainWindow::open(const QStringList& paths) {
  if (paths.isEmpty()) return;
  playback_->pause();
  statusBar()->showMessage(tr("Opening %1…").arg(displayName(paths)));
  progress_->setValue(0);
  progress_->show();
  cancel_->show();
  document_->open(paths);
}

void MainWindow::onOpenFinished(const QString& error, const QStringList& failures) {
  progress_->hide();
  cancel_->hide();
  if (!error.isEmpty()) {
    statusBar()->showMessage(error, 10000);
    tell(this, QMessageBox::Warning, tr("Could not open"), error);
  } else if (!failures.isEmpty()) {
    tell(this, QMessageBox::Warning, tr("Some files could not be opened"),
         tr("%n file(s) could not be opened; the others are open.", nullptr, static_cast<int>(failures.size())) +
             QStringLiteral("\n\n• ") + failures.join(QStringLiteral("\n• ")));
  }
  emit openFinished(error);
}

void MainWindow::onSessionChanged() {
  auto s = document_->session();
  timeline_->setRows(topics_->filter()->shownTopics());
  for (Panel* p : panels()) p->sessionChanged();  // on close too: nothing of the old one stays
  bool damaged = SaveRecordingDialog::hasDamage(*document_);
  recoverButton_->setVisible(damaged);
  if (recoverAction_) recoverAction_->setEnabled(damaged);
  if (saveSelectionAction_) saveSelectionAction_->setEnabled(s != nullptr);
  if (!s) {
    setWindowTitle(tr("Bagscope"));
    summary_->clear();
    centralWidget()->show();
    return;
  }
  rememberRecent(document_->paths());
  setWindowTitle(tr("%1 — Bagscope").arg(displayName(document_->paths())));
  double seconds = static_cast<double>(document_->endNs() - document_->startNs()) / 1e9;
  summary_->setText(tr("%n file(s)", nullptr, static_cast<int>(s->sourceCount())) + QStringLiteral(" · ") +
                    tr("%1 s").arg(QLocale().toString(seconds, 'f', 1)) + QStringLiteral(" · ") +
                    QString::fromStdString(formatBytes(static_cast<std::uint64_t>(document_->totalBytes()))) +
                    QStringLiteral(" · ") +
                    tr("%1 messages").arg(QLocale().toString(static_cast<qulonglong>(s->messageCount()))));
  summary_->setToolTip(document_->paths().join(QLatin1Char('\n')));
  statusBar()->clearMessage();
  centralWidget()->hide();
  if (!s->problems().empty()) {
    QStringList problems;
    for (const auto& p : s->problems()) problems << QString::fromStdString(p);
    statusBar()->showMessage(
        tr("Opened with %n problem(s): %1", nullptr, static_cast<int>(problems.size())).arg(problems.front()), 15000);
  }
  // A layout's topic, matched by name; else the first topic shown.
  const TopicInfo* wanted = pendingTopic_.isEmpty() ? nullptr : document_->topicByName(pendingTopic_);
  auto shown = topics_->filter()->shownTopics();
  if (wanted) document_->setCurrentTopic(static_cast<int>(wanted->id));
  else if (!shown.empty()) document_->setCurrentTopic(static_cast<int>(shown.front()));
}

void MainWindow::rememberRecent(const QStringList& paths) {
  QSettings settings;
  QVariantList recent = settings.value(kRecentKey).toList();
  recent.removeAll(QVariant(paths));
  recent.prepend(QVariant(paths));
  while (recent.size() > kMaxRecent) recent.removeLast();
  settings.setValue(kRecentKey, recent);
  rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
  recentMenu_->clear();
  QVariantList recent = QSettings().value(kRecentKey).toList();
  int n = 0;
  for (const QVariant& entry : recent) {
    QStringList paths = entry.toStringList();
    if (paths.isEmpty()) continue;
    QAction* a = recentMenu_->addAction(QStringLiteral("&%1 %2").arg(++n).arg(displayName(paths)), this,
                                        [this, paths] { open(paths); });
    a->setStatusTip(paths.join(QStringLiteral("; ")));
    a->setToolTip(a->statusTip());
  }
  if (n == 0) recentMenu_->addAction(tr("No recent files"))->setEnabled(false);
  recentMenu_->addSeparator();
  recentMenu_
      ->addAction(tr("Clear Recent Files"), this,
                  [this] {
                    QSettings().remove(kRecentKey);
                    rebuildRecentMenu();
                  })
      ->setEnabled(n > 0);
}

// ---------------------------------------------------------------------------------------
// Layouts

Layout MainWindow::currentLayout(const QString& name) const {
  Layout l;
  l.name = name;
  l.windowState = saveState();
  l.geometry = saveGeometry();
  QTreeView* view = topics_->view();
  const TopicInfo* current = nullptr;
  if (int t = document_->currentTopic(); t >= 0 && static_cast<std::size_t>(t) < document_->topics().size())
    current = &document_->topics()[static_cast<std::size_t>(t)];
  l.panels[QStringLiteral("topics")] =
      QJsonObject{{QStringLiteral("filter"), topics_->filterBox()->text()},
                  {QStringLiteral("sortColumn"), view->header()->sortIndicatorSection()},
                  {QStringLiteral("sortOrder"), static_cast<int>(view->header()->sortIndicatorOrder())},
                  {QStringLiteral("selected"), current ? current->name : pendingTopic_}};
  l.panels[QStringLiteral("inspector")] = QJsonObject{{QStringLiteral("search"), inspector_->searchBox()->text()}};
  l.panels[QStringLiteral("playback")] =
      QJsonObject{{QStringLiteral("speed"), playback_->speed()}, {QStringLiteral("loop"), playback_->loops()}};
  QJsonArray views;
  for (QDockWidget* d : panelDocks_)
    if (auto* p = qobject_cast<Panel*>(d->widget()))
      views.append(QJsonObject{{QStringLiteral("kind"), p->kind()},
                               {QStringLiteral("name"), d->objectName()},
                               {QStringLiteral("settings"), p->saveSettings()}});
  l.panels[QStringLiteral("views")] = views;
  if (Document* b = document_->comparison())
    l.panels[QStringLiteral("comparison")] =
        QJsonObject{{QStringLiteral("recordings"), QJsonArray::fromStringList(b->paths())},
                    {QStringLiteral("alignment"), document_->comparisonAlignment()}};
  return l;
}

void MainWindow::applyLayout(const Layout& l, bool atStart) {
  // The layout's plots and views first: restoreState places docks that exist.
  removePanels();
  QList<QPair<Panel*, QJsonObject>> created;
  for (const auto& v : l.panels.value(QStringLiteral("views")).toArray()) {
    QJsonObject o = v.toObject();
    QString name = o.value(QStringLiteral("name")).toString();
    if (Panel* p = addPanel(o.value(QStringLiteral("kind")).toString(), name)) {
      created << qMakePair(p, o.value(QStringLiteral("settings")).toObject());
      if (auto n = name.section(QLatin1Char('-'), -1).toInt(); n >= nextPanel_) nextPanel_ = n + 1;
    }
  }
  // The window's own size and place at start; a layout chosen later arranges the panels
  // inside the window as it is (maximized stays maximized).
  if (!l.geometry.isEmpty() && (atStart || !(windowState() & (Qt::WindowMaximized | Qt::WindowFullScreen))))
    restoreGeometry(l.geometry);
  if (!l.windowState.isEmpty() && !restoreState(l.windowState)) {
    restoreState(defaultState_);
    QString text = tr("The arrangement of the layout “%1” could not be applied; the default arrangement is shown.")
                       .arg(l.name.isEmpty() ? tr("of the last session") : l.name);
    if (atStart) layoutNotice_ = text;
    else tell(this, QMessageBox::Warning, tr("Arrangement"), text);
  }
  for (const auto& [panel, settings] : created) panel->restoreSettings(settings);
  QJsonObject topics = l.panels.value(QStringLiteral("topics")).toObject();
  topics_->filterBox()->setText(topics.value(QStringLiteral("filter")).toString());
  if (topics.contains(QStringLiteral("sortColumn")))
    topics_->view()->sortByColumn(topics.value(QStringLiteral("sortColumn")).toInt(),
                                  static_cast<Qt::SortOrder>(topics.value(QStringLiteral("sortOrder")).toInt()));
  pendingTopic_ = topics.value(QStringLiteral("selected")).toString();
  if (const TopicInfo* t = document_->topicByName(pendingTopic_)) document_->setCurrentTopic(static_cast<int>(t->id));
  inspector_->searchBox()->setText(
      l.panels.value(QStringLiteral("inspector")).toObject().value(QStringLiteral("search")).toString());
  QJsonObject play = l.panels.value(QStringLiteral("playback")).toObject();
  playback_->setSpeed(play.value(QStringLiteral("speed")).toDouble(1.0));
  playback_->setLoop(play.value(QStringLiteral("loop")).toBool());
  // The comparison the layout was saved with: run B opened again unless it is open already.
  QJsonObject compared = l.panels.value(QStringLiteral("comparison")).toObject();
  QStringList runB;
  for (const auto& p : compared.value(QStringLiteral("recordings")).toArray()) runB << p.toString();
  const QString alignment = compared.value(QStringLiteral("alignment")).toString(QStringLiteral("start"));
  if (runB.isEmpty()) document_->stopComparing();
  else document_->compareWith(runB, alignment);
}

void MainWindow::showCompare() {
  CompareDialog dialog(document_, this);
  if (dialog.exec() != QDialog::Accepted) return;
  document_->compareWith(dialog.paths(), dialog.alignment());
}

void MainWindow::showComparison() {
  Document* b = document_->comparison();
  stopComparingAction_->setEnabled(b != nullptr);
  compareStatus_->setVisible(b != nullptr);
  if (!b) return;
  const QString problem = document_->comparisonProblem();
  if (!problem.isEmpty()) {
    compareStatus_->setText(tr("Run B: not set against A"));
    compareStatus_->setToolTip(problem);
  } else if (!b->session()) {
    compareStatus_->setText(tr("Opening run B…"));
    compareStatus_->setToolTip(QString());
  } else {
    const double shift = static_cast<double>(document_->comparisonShiftNs()) / 1e9;
    compareStatus_->setText(tr("Compared with %1").arg(displayName(b->paths())));
    compareStatus_->setToolTip(
        tr("Run B aligned by %1: its times %2 s")
            .arg(document_->comparisonAlignment(),
                 (shift >= 0 ? QStringLiteral("+") : QString()) + QLocale().toString(shift, 'f', 3)));
  }
}

void MainWindow::rebuildLayoutsMenu() {
  layoutsMenu_->clear();
  for (const QString& name : store_.names()) {
    layoutsMenu_->addAction(name, this, [this, name] {
      QString error;
      if (auto l = store_.load(name, &error)) applyLayout(*l);
      else tell(this, QMessageBox::Warning, tr("Could not load the layout"), error);
    });
  }
  if (store_.names().isEmpty()) layoutsMenu_->addAction(tr("No saved layouts"))->setEnabled(false);
  layoutsMenu_->addSeparator();
  layoutsMenu_->addAction(tr("Save Layout As…"), this, &MainWindow::saveLayoutAs);
  layoutsMenu_->addAction(tr("Import Layout…"), this, &MainWindow::importLayout);
  layoutsMenu_->addAction(tr("Export Layout…"), this, &MainWindow::exportLayout);
  QMenu* remove = layoutsMenu_->addMenu(tr("Delete Layout"));
  for (const QString& name : store_.names())
    remove->addAction(name, this, [this, name] {
      store_.remove(name);
      rebuildLayoutsMenu();
    });
  remove->setEnabled(!remove->isEmpty());
}

void MainWindow::saveLayoutAs() {
  bool ok = false;
  QString name =
      QInputDialog::getText(this, tr("Save Layout"), tr("Layout name:"), QLineEdit::Normal, QString(), &ok).trimmed();
  if (!ok || name.isEmpty()) return;
  if (store_.names().contains(name) &&
      QMessageBox::question(this, tr("Save Layout"), tr("Replace the layout “%1”?").arg(name)) != QMessageBox::Yes)
    return;
  QString error;
  if (!store_.save(currentLayout(name), &error))
    tell(this, QMessageBox::Warning, tr("Could not save the layout"), error);
  rebuildLayoutsMenu();
}

void MainWindow::importLayout() {
  QString path = QFileDialog::getOpenFileName(this, tr("Import Layout"), QString(), tr("Bagscope layouts (*.json)"));
  if (!path.isEmpty()) importLayoutFile(path);
}

bool MainWindow::importLayoutFile(const QString& path) {
  QString error;
  auto layout = Layout::readFile(path, &error);
  if (!layout) {
    tell(this, QMessageBox::Warning, tr("Could not import the layout"), error);
    return false;
  }
  // Older exports stored the file's path as the name: a name is never a path.
  QString name = layout->name.trimmed();
  if (name.contains(QLatin1Char('/')) || name.contains(QLatin1Char('\\')))
    name = QFileInfo(QString(name).replace(QLatin1Char('\\'), QLatin1Char('/'))).completeBaseName();
  layout->name = name.isEmpty() ? QFileInfo(path).completeBaseName() : name;
  if (store_.names().contains(layout->name) &&
      QMessageBox::question(this, tr("Import Layout"), tr("Replace the layout “%1”?").arg(layout->name)) !=
          QMessageBox::Yes)
    return false;
  if (!store_.save(*layout, &error)) {
    tell(this, QMessageBox::Warning, tr("Could not import the layout"), error);
    return false;
  }
  applyLayout(*layout);
  rebuildLayoutsMenu();
  return true;
}

void MainWindow::exportLayout() {
  QString path =
      QFileDialog::getSaveFileName(this, tr("Export Layout"), tr("layout.json"), tr("Bagscope layouts (*.json)"));
  if (path.isEmpty()) return;
  QString error;
  if (!currentLayout(QFileInfo(path).completeBaseName()).writeFile(path, &error))
    tell(this, QMessageBox::Warning, tr("Could not export the layout"), error);
}

// ---------------------------------------------------------------------------------------
// Dialogs and events

void MainWindow::applySettings(const AppSettings& settings) {
  settings_ = settings;
  document_->setCacheBudget(static_cast<std::size_t>(settings.cacheMiB) << 20);
  document_->setMessagePaths(settings.messagePaths);
  timeline_->setTimeDisplay(settings.timeDisplay);
  playbackBar_->setTimeDisplay(settings.timeDisplay);
  inspector_->setTimeDisplay(settings.timeDisplay);
  for (Panel* p : panels()) p->setTimeDisplay(settings.timeDisplay);
}

void MainWindow::showSettings() {
  SettingsDialog dialog(settings_, this);
  if (dialog.exec() != QDialog::Accepted) return;
  AppSettings chosen = dialog.settings();
  bool languageChanged = chosen.language != settings_.language;
  chosen.save();
  applySettings(chosen);
  if (languageChanged)
    tell(this, QMessageBox::Information, tr("Language"),
         tr("The new language takes effect when Bagscope starts again."));
}

void MainWindow::showStats(int topic) {
  if (!document_->session() || topic < 0) return;
  auto* dialog = new StatsDialog(document_, static_cast<session::TopicId>(topic), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(document_, &Document::sessionChanged, dialog, &QWidget::close);  // its session is going
  dialog->show();
}

void MainWindow::showExport(const QStringList& topics) {
  if (!document_->session()) return;
  auto* wizard = new ExportWizard(document_, topics, this);
  wizard->setAttribute(Qt::WA_DeleteOnClose);
  connect(document_, &Document::sessionChanged, wizard, &QWidget::close);  // its session is going
  wizard->show();  // not modal: the window stays usable while it runs
}

void MainWindow::showSaveRecording(bool recover) {
  if (!document_->session()) return;
  using Purpose = SaveRecordingDialog::Purpose;
  auto* dialog = new SaveRecordingDialog(document_, recover ? Purpose::Recover : Purpose::SaveSelection, this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(document_, &Document::sessionChanged, dialog, &QWidget::close);  // its session is going
  dialog->show();
}

void MainWindow::showAbout() {
  auto* about = new AboutDialog(this);
  about->setAttribute(Qt::WA_DeleteOnClose);
  about->show();
}

// A drop is taken when it holds something to open: a recording, or a folder to look in.
void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  for (const QUrl& url : event->mimeData()->urls()) {
    if (!url.isLocalFile()) continue;
    auto kind = session::classify(toPath(url.toLocalFile()));
    if (kind != session::PathKind::Other && kind != session::PathKind::Missing) return event->acceptProposedAction();
  }
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& url : event->mimeData()->urls())
    if (url.isLocalFile()) paths << url.toLocalFile();
  if (!paths.isEmpty()) {
    event->acceptProposedAction();
    open(paths);
  }
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched == qApp && event->type() == QEvent::FileOpen) {
    open({static_cast<QFileOpenEvent*>(event)->file()});
    return true;
  }
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  playback_->pause();
  QSettings().setValue(kLastLayoutKey, QJsonDocument(currentLayout(QString()).toJson()).toJson(QJsonDocument::Compact));
  QMainWindow::closeEvent(event);
}

}  // namespace bagscope::widgets
