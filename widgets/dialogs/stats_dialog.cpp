#include "widgets/dialogs/stats_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

StatsDialog::StatsDialog(Document* document, session::TopicId topic, QWidget* parent)
    : QDialog(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      progress_(new QProgressBar(this)),
      facts_(new QFormLayout),
      gaps_(new QTreeWidget(this)) {
  const TopicInfo& info = document_->topics()[topic];
  setWindowTitle(tr("Stats — %1").arg(info.name));
  resize(560, 460);
  auto* layout = new QVBoxLayout(this);
  auto* title =
      new QLabel(QStringLiteral("<b>%1</b>  (%2)").arg(info.name.toHtmlEscaped(), info.type.toHtmlEscaped()), this);
  title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(title);
  layout->addWidget(progress_);
  layout->addLayout(facts_);
  layout->addWidget(new QLabel(tr("Largest gaps between messages:"), this));
  gaps_->setHeaderLabels({tr("From"), tr("To"), tr("Length (ms)")});
  gaps_->setRootIsDecorated(false);
  gaps_->header()->setStretchLastSection(true);
  layout->addWidget(gaps_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(buttons);
  progress_->setRange(0, 0);  // busy: the pass reports no fraction
  progress_->setTextVisible(false);

  auto result = std::make_shared<std::optional<session::TopicTiming>>();
  auto s = document_->session();
  job_ = startSessionJob(
      s, mailbox_,
      [s, topic, result](StopToken stop, const session::ProgressFn&) -> Result<void> {
        auto r = session::timingStats(*s, stop, std::span(&topic, 1));
        BAGSCOPE_TRY(r);
        *result = r->front();
        return {};
      },
      {},
      [this, result](const Result<void>& r) {
        progress_->hide();
        if (!r || !*result) {
          facts_->addRow(tr("Could not compute:"),
                         new QLabel(r ? QString() : QString::fromStdString(r.error().describe()), this));
          return;
        }
        showTiming(**result);
      });
}

StatsDialog::~StatsDialog() {
  mailbox_->close();
  job_.reset();  // cancels and waits (within 100 ms)
}

void StatsDialog::showTiming(const session::TopicTiming& t) {
  timing_ = t;
  auto ms = [](double ns) { return QLocale().toString(ns / 1e6, 'f', 3); };
  auto row = [this](const QString& key, const QString& value) {
    auto* label = new QLabel(value, this);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    facts_->addRow(key, label);
  };
  row(tr("Messages:"), QLocale().toString(static_cast<qulonglong>(t.count)));
  row(tr("Mean rate:"), t.meanRateHz > 0 ? tr("%1 Hz").arg(QLocale().toString(t.meanRateHz, 'f', 3)) : tr("–"));
  row(tr("Rate of the median interval:"),
      t.medianRateHz > 0 ? tr("%1 Hz").arg(QLocale().toString(t.medianRateHz, 'f', 3)) : tr("–"));
  row(tr("Jitter (std. dev. of intervals):"), tr("%1 ms").arg(ms(t.jitterNs)));
  row(tr("Out-of-order writes:"), QString::number(t.outOfOrder));
  if (t.hasHeader) {
    row(tr("Zero header stamps:"), QString::number(t.zeroStamps));
    if (t.latency)
      row(tr("Latency (log time − stamp):"),
          tr("min %1 ms · median %2 ms · max %3 ms")
              .arg(ms(static_cast<double>(t.latency->minNs)), ms(static_cast<double>(t.latency->medianNs)),
                   ms(static_cast<double>(t.latency->maxNs))));
  } else {
    row(tr("Latency:"), tr("this type has no header stamp"));
  }
  qint64 origin = document_->startNs();
  for (const auto& g : t.largestGaps) {
    auto* item = new QTreeWidgetItem(gaps_);
    item->setText(0, QLocale().toString(static_cast<double>(g.fromNs - origin) / 1e9, 'f', 3) + tr(" s"));
    item->setText(1, QLocale().toString(static_cast<double>(g.toNs - origin) / 1e9, 'f', 3) + tr(" s"));
    item->setText(2, ms(static_cast<double>(g.lengthNs())));
  }
  emit computed();
}

}  // namespace bagscope::widgets
