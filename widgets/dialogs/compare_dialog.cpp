#include "widgets/dialogs/compare_dialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>

#include "core/session/session.hpp"
#include "core/session/timing.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {
namespace {

enum Mode { Start, Offset, Event };
// Several recordings chosen are one run, as File ▸ Open takes them; shown joined by this.
const QLatin1String kSeparator("; ");

QDoubleSpinBox* secondsBox(QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(-1e9, 1e9);
  box->setDecimals(3);
  return box;
}

}  // namespace

CompareDialog::CompareDialog(Document* document, QWidget* parent)
    : QDialog(parent),
      paths_(new QLineEdit(this)),
      mode_(new QComboBox(this)),
      details_(new QStackedWidget(this)),
      offset_(secondsBox(this)),
      topic_(new QComboBox(this)),
      path_(new QLineEdit(this)),
      op_(new QComboBox(this)),
      value_(secondsBox(this)) {
  setWindowTitle(tr("Compare With"));
  setObjectName(QStringLiteral("compareDialog"));
  paths_->setPlaceholderText(tr("A bag, MCAP file or rosbag2 folder"));
  paths_->setMinimumWidth(360);
  auto* files = new QPushButton(tr("Files…"), this);
  auto* folder = new QPushButton(tr("Folder…"), this);
  connect(files, &QPushButton::clicked, this, [this] {
    QStringList chosen = QFileDialog::getOpenFileNames(
        this, tr("Run B"), QFileInfo(paths().value(0)).path(),
        tr("Recordings (%1);;All files (*)").arg(QString::fromStdString(session::recordingFilePatterns())));
    for (QString& p : chosen)  // a rosbag2 folder by its metadata.yaml
      if (QFileInfo(p).fileName() == QLatin1String("metadata.yaml")) p = QFileInfo(p).path();
    if (!chosen.isEmpty()) setPaths(chosen);
  });
  connect(folder, &QPushButton::clicked, this, [this] {
    QString dir = QFileDialog::getExistingDirectory(this, tr("Run B"), QFileInfo(paths().value(0)).path());
    if (!dir.isEmpty()) setPaths({dir});
  });
  auto* pathRow = new QHBoxLayout;
  pathRow->addWidget(paths_, 1);
  pathRow->addWidget(files);
  pathRow->addWidget(folder);

  mode_->addItems({tr("Their starts"), tr("Their starts, B moved by an offset"), tr("An event in both runs")});
  // Offset: B later by this much once the starts are aligned.
  auto* offsetPage = new QWidget(details_);
  auto* offsetForm = new QFormLayout(offsetPage);
  offsetForm->setContentsMargins(0, 0, 0, 0);
  offset_->setSuffix(tr(" s"));
  offsetForm->addRow(tr("B later by:"), offset_);
  // Event: the topic's first message, or the first time the field crosses the value.
  auto* eventPage = new QWidget(details_);
  auto* eventForm = new QFormLayout(eventPage);
  eventForm->setContentsMargins(0, 0, 0, 0);
  topic_->setEditable(true);
  for (const auto& t : document->topics()) topic_->addItem(t.name);
  path_->setPlaceholderText(tr("empty: the topic's first message"));
  op_->addItems({QStringLiteral(">"), QStringLiteral("<")});
  auto* crossing = new QHBoxLayout;
  crossing->addWidget(path_, 1);
  crossing->addWidget(op_);
  crossing->addWidget(value_);
  eventForm->addRow(tr("Topic:"), topic_);
  eventForm->addRow(tr("First time the field crosses:"), crossing);
  details_->addWidget(new QWidget(details_));
  details_->addWidget(offsetPage);
  details_->addWidget(eventPage);
  connect(mode_, &QComboBox::currentIndexChanged, details_, &QStackedWidget::setCurrentIndex);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Compare"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto enable = [this, buttons] {
    buttons->button(QDialogButtonBox::Ok)
        ->setEnabled(!paths().isEmpty() && session::parseRunAlignment(alignment().toStdString()).has_value());
  };
  connect(paths_, &QLineEdit::textChanged, this, enable);
  connect(mode_, &QComboBox::currentIndexChanged, this, enable);
  connect(topic_, &QComboBox::currentTextChanged, this, enable);
  connect(path_, &QLineEdit::textChanged, this, enable);

  auto* form = new QFormLayout(this);
  form->addRow(tr("Run B:"), pathRow);
  form->addRow(tr("Align by:"), mode_);
  form->addRow(QString(), details_);
  form->addRow(buttons);
  if (Document* b = document->comparison()) setPaths(b->paths());
  setAlignment(document->comparisonAlignment());
  enable();
}

QStringList CompareDialog::paths() const {
  const QString text = paths_->text().trimmed();
  if (text == chosen_.join(kSeparator)) return chosen_;
  return text.isEmpty() ? QStringList() : QStringList{text};  // typed in: one path
}

void CompareDialog::setPaths(const QStringList& paths) {
  chosen_ = paths;
  paths_->setText(paths.join(kSeparator));
}

QString CompareDialog::alignment() const {
  switch (mode_->currentIndex()) {
    case Offset: return QStringLiteral("offset:") + QString::number(offset_->value(), 'f', 3);
    case Event: {
      QString out = QStringLiteral("event:") + topic_->currentText().trimmed();
      if (!path_->text().trimmed().isEmpty())
        out +=
            QLatin1Char(':') + path_->text().trimmed() + op_->currentText() + QString::number(value_->value(), 'g', 12);
      return out;
    }
  }
  return QStringLiteral("start");
}

void CompareDialog::setAlignment(const QString& text) {
  auto a = session::parseRunAlignment(text.toStdString());
  if (!a) return;
  using M = session::RunAlignment::Mode;
  mode_->setCurrentIndex(a->mode == M::Offset ? Offset : a->mode == M::Event ? Event : Start);
  offset_->setValue(static_cast<double>(a->offsetNs) / 1e9);
  if (a->mode == M::Event) {
    topic_->setCurrentText(toQt(a->topic));
    path_->setText(toQt(a->path));
    op_->setCurrentIndex(a->op == '<' ? 1 : 0);
    value_->setValue(a->value);
  }
}

}  // namespace bagscope::widgets
