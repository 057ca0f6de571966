#pragma once
// Small pictures of image messages for the timeline's rows, decoded on the pool and kept
// (a few thousand, oldest first out) until another recording opens.

#include <QImage>
#include <QObject>

#include <map>
#include <memory>
#include <set>
#include <utility>

#include "core/session/session.hpp"

namespace bagscope::widgets {

class Document;
class Mailbox;
class VideoCursor;

class Thumbnails : public QObject {
  Q_OBJECT

public:
  static constexpr int kHeight = 16;
  explicit Thumbnails(Document* document, QObject* parent = nullptr);
  ~Thumbnails() override;
  /// The thumbnail of message `row` of `topic`, or null: then it is read, and ready() says when.
  const QImage* get(session::TopicId topic, std::size_t row);
  void clear();

signals:
  void ready();

private:
  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  std::map<std::pair<session::TopicId, std::size_t>, QImage> images_;
  std::set<std::pair<session::TopicId, std::size_t>> pending_;
  std::vector<std::pair<session::TopicId, std::size_t>> order_;  // oldest first, to forget
  std::map<session::TopicId, std::shared_ptr<VideoCursor>> cursors_;
  int generation_ = 0;
};

}  // namespace bagscope::widgets
