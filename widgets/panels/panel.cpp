#include "widgets/panels/panel.hpp"

#include <map>

#include <QComboBox>
#include <QFileDialog>
#include <QMessageBox>
#include <QSignalBlocker>

#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

void Panel::askAndSave(const QString& title, const QString& suggested, const QString& filters,
                       const std::function<void(const QString&)>& save) {
  QString path = QFileDialog::getSaveFileName(this, title, suggested, filters);
  if (path.isEmpty()) return;
  // One report per request: the answer to this path, then the connection goes.
  auto* conn = new QMetaObject::Connection;
  *conn = connect(this, &Panel::saved, this, [this, path, conn](const QString& done, const QString& error) {
    if (done != path) return;
    disconnect(*conn);
    delete conn;
    if (!error.isEmpty()) QMessageBox::warning(this, tr("Saving failed"), error);
  });
  save(path);
}

bool refillChoice(QComboBox* box, const QString& none, const std::vector<std::pair<QString, QString>>& choices,
                  const QString& wanted) {
  QSignalBlocker block(box);
  bool same = box->count() == static_cast<int>(choices.size()) + 1;
  for (int i = 0; same && i < static_cast<int>(choices.size()); ++i)
    same = box->itemText(i + 1) == choices[static_cast<std::size_t>(i)].first &&
           box->itemData(i + 1).toString() == choices[static_cast<std::size_t>(i)].second;
  if (!same) {
    box->clear();
    box->addItem(none, QString());
    for (const auto& [text, data] : choices) box->addItem(text, data);
  }
  const int at = wanted.isEmpty() ? 0 : box->findData(wanted);
  box->setCurrentIndex(std::max(0, at));
  return at >= 0;
}

TopicChoice::TopicChoice(QWidget* parent) : QComboBox(parent) {
  connect(this, &QComboBox::currentIndexChanged, this, [this] {
    asked_.clear();
    emit chosen();
  });
}

void TopicChoice::refill(const std::vector<TopicInfo>& topics, const std::function<bool(const TopicInfo&)>& accept,
                         const std::function<bool(const TopicInfo&)>& preferred) {
  const QString wanted = topic();
  QSignalBlocker block(this);
  clear();
  int fallback = -1;
  std::map<QString, int> named;  // a name several types share is shown with its type
  for (const auto& t : topics)
    if (accept(t)) ++named[t.name];
  for (const auto& t : topics) {
    if (!accept(t)) continue;
    if (fallback < 0 && preferred && preferred(t)) fallback = count();
    addItem(named[t.name] > 1 ? t.nameWithType() : t.name, static_cast<uint>(t.id));
    setItemData(count() - 1, t.name, kNameRole);
    setItemData(count() - 1, t.nameWithType(), kNameWithTypeRole);
  }
  int i = findText(wanted);
  if (i < 0) i = findData(wanted, kNameRole);  // a name asked for without its type: the first of it
  // "name (type)" where this box shows that name alone (the other types are not its kind)
  if (i < 0) i = findData(wanted, kNameWithTypeRole);
  if (i < 0 && !wanted.isEmpty()) {
    // The panel keeps its topic: it shows nothing rather than another topic's data, and
    // binds again when a recording with that topic opens.
    setCurrentIndex(-1);
    setPlaceholderText(QObject::tr("%1 (not in this recording)").arg(wanted));
    asked_ = wanted;
    return;
  }
  setCurrentIndex(i >= 0 ? i : (count() ? std::max(0, fallback) : -1));
  asked_.clear();
}

QString TopicChoice::noTopicText(bool sessionOpen, const QString& noneText) const {
  if (!sessionOpen) return QObject::tr("No recording is open.");
  if (!asked_.isEmpty()) return QObject::tr("%1 is not in this recording.").arg(asked_);
  return noneText;
}

}  // namespace bagscope::widgets
