#include "panel.hpp"

#include <QComboBox>
#include <QSignalBlocker>

#include "document.hpp"

namespace bagscope::widgets {

bool refillTopicBox(QComboBox* box, const std::vector<TopicInfo>& topics, const QString& wanted,
                    const std::function<bool(const TopicInfo&)>& accept,
                    const std::function<bool(const TopicInfo&)>& preferred) {
  QSignalBlocker block(box);
  box->clear();
  int fallback = -1;
  for (const auto& t : topics) {
    if (!accept(t)) continue;
    if (fallback < 0 && preferred && preferred(t)) fallback = box->count();
    box->addItem(t.name, static_cast<uint>(t.id));
  }
  int i = box->findText(wanted);
  box->setCurrentIndex(i >= 0 ? i : std::max(0, fallback));
  return i >= 0;
}

}  // namespace bagscope::widgets
