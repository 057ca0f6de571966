#pragma once
// The main window: opens recordings (menus, drag and drop, recent files) in the background,
// and arranges the panels — topics, timeline, message inspector — as dock widgets that
// follow one playhead. Layouts save and restore the arrangement and the panels' settings.

#include <QMainWindow>
#include <QStringList>

#include <optional>

#include "widgets/shell/layouts.hpp"
#include "widgets/shell/settings.hpp"

class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;

namespace bagscope::widgets {

class CloudPanel;
class Document;
class ImagePanel;
class InspectorPanel;
class Panel;
class PlotPanel;
class Playback;
class ProblemsPanel;
class PlaybackBar;
class TimelineWidget;
class TopicListPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

public:
  /// `layouts`: where named layouts live (tests give a temporary folder).
  explicit MainWindow(QWidget* parent = nullptr, const QString& layoutFolder = {});
  ~MainWindow() override;

  /// Opens files and folders in the background, replacing what is open.
  void open(const QStringList& paths);

  Document* document() const { return document_; }
  TopicListPanel* topicPanel() const { return topics_; }
  TimelineWidget* timeline() const { return timeline_; }
  InspectorPanel* inspector() const { return inspector_; }
  PlaybackBar* playbackBar() const { return playbackBar_; }
  ProblemsPanel* problemsPanel() const { return problems_; }
  /// The status bar's "N problems" button (hidden while there are none).
  QToolButton* problemsBadge() const { return problemsBadge_; }
  Playback* playback() const { return playback_; }
  QList<QDockWidget*> docks() const;

  /// Opens a new panel of `kind` ("plot", "image", "cloud") as a dock; `name` (from a
  /// layout) or a new one.
  Panel* addPanel(const QString& kind, const QString& name = {});
  QList<Panel*> panels() const;

  /// The arrangement and panel settings now, under `name`.
  Layout currentLayout(const QString& name) const;
  /// Applies `layout`; a dock arrangement that cannot be applied falls back to the default one,
  /// with a message. `atStart`: the window's saved size and place too (else they stay).
  void applyLayout(const Layout& layout, bool atStart = false);
  const LayoutStore& layoutStore() const { return store_; }
  /// Layout ▸ Import for the file at `path`: named by the name inside it (a path's stem), else
  /// by the file's stem; asks before replacing a layout of that name. False when not imported.
  bool importLayoutFile(const QString& path);

  void applySettings(const AppSettings& settings);

signals:
  /// An open ended: `error` is empty when something opened.
  void openFinished(const QString& error);

protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  /// Files the system asks the app to open (macOS Finder's double click, Open With).
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  QDockWidget* addDock(QWidget* panel, const QString& title, const QString& name, Qt::DockWidgetArea area);
  Panel* addPanelOnSelectedTopic(const QString& kind);
  void placeNewPanel(QDockWidget* dock);
  void removePanels();
  void removePanel(QDockWidget* dock);
  /// View ▸ Panels: every plot and view, checked while shown, and Remove Closed Panels.
  void fillPanelsMenu(QMenu* menu);
  PlotPanel* plotForField();
  void linkTimeRange(Panel* panel);
  void createMenus();
  void rebuildRecentMenu();
  void rebuildLayoutsMenu();
  void rememberRecent(const QStringList& paths);
  void onOpenFinished(const QString& error, const QStringList& failures);
  void onSessionChanged();
  void showStats(int topic);
  void saveLayoutAs();
  void importLayout();
  void exportLayout();
  void showSettings();
  void showAbout();
  /// File ▸ Compare With…, and the status bar's word on the comparison.
  void showCompare();
  void showComparison();
  void showExport(const QStringList& topics);
  /// File ▸ Save Selection As… and File ▸ Recover… (the status bar offers the latter for a damaged recording).
  void showSaveRecording(bool recover);

  Document* document_;
  Playback* playback_;
  PlaybackBar* playbackBar_;
  TopicListPanel* topics_;
  TimelineWidget* timeline_;
  InspectorPanel* inspector_;
  ProblemsPanel* problems_;
  QToolButton* problemsBadge_ = nullptr;
  QToolButton* recoverButton_ = nullptr;  // shown while a damaged recording is open
  QAction* saveSelectionAction_ = nullptr;
  QAction* recoverAction_ = nullptr;
  QAction* stopComparingAction_ = nullptr;
  QLabel* compareStatus_ = nullptr;  // shown while comparing: run B, its shift or its problem
  LayoutStore store_;
  AppSettings settings_;
  QMenu* recentMenu_ = nullptr;
  QMenu* layoutsMenu_ = nullptr;
  QLabel* summary_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QToolButton* cancel_ = nullptr;
  QString pendingTopic_;            // from a layout: selected when a session with it opens
  QList<QDockWidget*> panelDocks_;  // plots, image viewers, 3D views
  int nextPanel_ = 1;
  QByteArray defaultState_;  // the docks as the window first arranges them
  QString layoutNotice_;     // why the last arrangement is not shown, said once the window is up
  bool shownOnce_ = false;
  std::optional<Layout> pendingStart_;
};

}  // namespace bagscope::widgets
