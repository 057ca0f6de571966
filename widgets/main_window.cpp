#include "main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QThread>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cstdio>

#include "core/storage/source.hpp"
#include "core/session/session.hpp"

namespace bagscope::widgets {
namespace {

enum TopicColumn { kTopic, kType, kCount, kFrequency, kConnections, kColumnCount };

// Sorts numeric columns by value, not by text.
class TopicItem : public QTreeWidgetItem {
public:
  using QTreeWidgetItem::QTreeWidgetItem;
  bool operator<(const QTreeWidgetItem& other) const override {
    int column = treeWidget() ? treeWidget()->sortColumn() : 0;
    if (column == kCount || column == kFrequency || column == kConnections)
      return data(column, Qt::UserRole).toDouble() < other.data(column, Qt::UserRole).toDouble();
    return QTreeWidgetItem::operator<(other);
  }
};

QString toQt(const std::string& s) {
  return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(tr("Bagscope"));
  setAcceptDrops(true);
  resize(1000, 700);

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  facts_ = new QFormLayout();
  layout->addLayout(facts_);
  problems_ = new QLabel(central);
  problems_->setWordWrap(true);
  problems_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problems_->setStyleSheet(QStringLiteral("QLabel { color: #a05a00; }"));
  problems_->hide();
  layout->addWidget(problems_);
  topics_ = new QTreeWidget(central);
  topics_->setColumnCount(kColumnCount);
  topics_->setHeaderLabels({tr("Topic"), tr("Type"), tr("Messages"), tr("Frequency (Hz)"), tr("Connections")});
  topics_->setRootIsDecorated(false);
  topics_->setSortingEnabled(true);
  topics_->sortByColumn(kTopic, Qt::AscendingOrder);
  topics_->setAlternatingRowColors(true);
  topics_->header()->setSectionResizeMode(kTopic, QHeaderView::ResizeToContents);
  topics_->header()->setSectionResizeMode(kType, QHeaderView::Stretch);
  topics_->header()->setStretchLastSection(false);
  layout->addWidget(topics_, 1);
  setCentralWidget(central);

  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
  open->setShortcut(QKeySequence::Open);
  QAction* openFolder = file->addAction(tr("Open &Folder…"), this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Open rosbag2 folder"), QFileInfo(currentPath_).path());
    if (!dir.isEmpty()) openFile(dir);
  });
  openFolder->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
  quit->setShortcut(QKeySequence::Quit);
  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About Bagscope"), this, [this] {
    QMessageBox::about(this, tr("About Bagscope"),
                       tr("<b>Bagscope</b> %1<br>Opens ROS recordings without ROS.")
                           .arg(QApplication::applicationVersion()));
  });
  statusBar()->showMessage(tr("Open a recording (ROS 1 .bag, .mcap, rosbag2 folder) with File ▸ Open or drop it on the window."));
}

MainWindow::~MainWindow() {
  // Workers call back into this window: let them finish before it goes.
  for (QThread* worker : findChildren<QThread*>()) worker->wait();
}

void MainWindow::showOpenDialog() {
  QString path = QFileDialog::getOpenFileName(this, tr("Open recording"), QFileInfo(currentPath_).path(),
                                              tr("Recordings (*.bag *.mcap *.db3 *.zstd metadata.yaml);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString& path) {
  int generation = ++openGeneration_;
  statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
  std::string nativePath = QFile::encodeName(path).toStdString();
  // Opening reads the index (and may scan a damaged file): never on the GUI thread.
  QThread* worker = QThread::create([this, path, nativePath, generation] {
    auto summary = std::make_shared<Result<storage::RecordingSummary>>(
        makeError(ErrorCode::Io, "not opened"));
    if (auto session = session::Session::open({std::filesystem::path(nativePath)})) {
      *summary = (*session)->summary(0);
    } else {
      *summary = std::move(session).error();
    }
    // Queued to the GUI thread; dropped if the window is gone by then.
    QMetaObject::invokeMethod(this, [this, path, summary, generation] {
      if (generation != openGeneration_) return;  // a newer open superseded this one
      if (*summary) {
        showSummary(path, **summary);
        emit openFinished(path, QString());
      } else {
        QString error = toQt(summary->error().describe());
        showError(path, error);
        emit openFinished(path, error);
      }
    }, Qt::QueuedConnection);
  });
  worker->setParent(this);
  connect(worker, &QThread::finished, worker, &QObject::deleteLater);
  worker->start();
}

void MainWindow::showSummary(const QString& path, const storage::RecordingSummary& s) {
  currentPath_ = path;
  const auto& info = s.info;
  setWindowTitle(tr("%1 — Bagscope").arg(QFileInfo(path).fileName()));
  while (facts_->rowCount() > 0) facts_->removeRow(0);
  auto fact = [this](const QString& key, const QString& value) {
    auto* label = new QLabel(value);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    facts_->addRow(key, label);
  };
  double seconds = info.messageCount ? static_cast<double>(info.endNs - info.startNs) / 1e9 : 0.0;
  fact(tr("Path:"), path);
  fact(tr("Format:"), toQt(info.format + " " + info.version) +
                          (info.indexed ? QString() : tr(" (no usable index: rebuilt by scanning)")));
  fact(tr("Duration:"), tr("%1 s").arg(seconds, 0, 'f', 3));
  if (info.messageCount) {
    fact(tr("Start:"), toQt(storage::formatUtc(info.startNs)));
    fact(tr("End:"), toQt(storage::formatUtc(info.endNs)));
  }
  fact(tr("Size:"), toQt(storage::formatBytes(info.sizeBytes)));
  fact(tr("Messages:"), QString::number(info.messageCount));
  QString compression;
  for (const auto& [name, n] : s.chunks.chunksByCompression)
    compression += (compression.isEmpty() ? "" : ", ") + tr("%1 (%2 chunks)").arg(toQt(name)).arg(n);
  if (s.chunks.uncompressedBytes > 0 && s.chunks.storedBytes != s.chunks.uncompressedBytes)
    compression += tr("; %1 → %2").arg(toQt(storage::formatBytes(s.chunks.uncompressedBytes)),
                                       toQt(storage::formatBytes(s.chunks.storedBytes)));
  fact(tr("Compression:"), compression.isEmpty() ? tr("none") : compression);

  QStringList problems;
  for (const auto& p : info.problems) problems << toQt(p);
  problems_->setText(tr("This file is damaged or was not closed properly:\n• %1").arg(problems.join("\n• ")));
  problems_->setVisible(!problems.isEmpty());

  topics_->setSortingEnabled(false);
  topics_->clear();
  for (const auto& t : s.topics) {
    auto* item = new TopicItem(topics_);
    QStringList types;
    for (const auto& type : t.types) types << toQt(type);
    item->setText(kTopic, toQt(t.topic));
    item->setText(kType, types.join(", "));
    item->setText(kCount, QString::number(t.messageCount));
    item->setData(kCount, Qt::UserRole, static_cast<double>(t.messageCount));
    item->setText(kFrequency, t.frequencyHz > 0 ? QString::number(t.frequencyHz, 'f', 2) : QStringLiteral("–"));
    item->setData(kFrequency, Qt::UserRole, t.frequencyHz);
    item->setText(kConnections, QString::number(t.connectionCount));
    item->setData(kConnections, Qt::UserRole, static_cast<double>(t.connectionCount));
    for (int c : {kCount, kFrequency, kConnections}) item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
  }
  topics_->setSortingEnabled(true);
  statusBar()->showMessage(tr("%1 topics, %2 messages, %3 s").arg(s.topics.size()).arg(info.messageCount).arg(seconds, 0, 'f', 3));
}

void MainWindow::showError(const QString& path, const QString& error) {
  statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()));
  if (QApplication::platformName() == QLatin1String("offscreen")) {
    std::fprintf(stderr, "bagscope: %s\n", error.toLocal8Bit().constData());  // tests: no modal dialog
    return;
  }
  QMessageBox::warning(this, tr("Could not open recording"), error);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const auto urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.front().isLocalFile()) openFile(urls.front().toLocalFile());
}

}  // namespace bagscope::widgets
