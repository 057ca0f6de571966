#include "widgets/shell/thumbnails.hpp"

#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/video_cursor.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

namespace {
constexpr std::size_t kKept = 4000;    // about 5 MB of 16-pixel-high pictures
constexpr std::size_t kInFlight = 48;  // reads asked for at once
}  // namespace

Thumbnails::Thumbnails(Document* document, QObject* parent)
    : QObject(parent), document_(document), mailbox_(Mailbox::create(this)) {}

Thumbnails::~Thumbnails() { mailbox_->close(); }

void Thumbnails::clear() {
  images_.clear();
  pending_.clear();
  order_.clear();
  cursors_.clear();
  ++generation_;
}

const QImage* Thumbnails::get(session::TopicId topic, std::size_t row) {
  auto key = std::pair{topic, row};
  if (auto it = images_.find(key); it != images_.end()) return &it->second;
  auto session = document_->session();
  if (!session || pending_.count(key) || pending_.size() >= kInFlight) return nullptr;
  pending_.insert(key);
  auto mailbox = mailbox_;
  const int generation = generation_;
  // A video topic's pictures, asked for left to right, go on from one another (else each
  // would be decoded from the keyframe before it).
  auto& cursor = cursors_[key.first];
  if (!cursor) cursor = std::make_shared<VideoCursor>();
  startInPool([session, key, mailbox, generation, cursor, this] {
    RenderedImage frame = renderImage(*session, key.first, key.second, ImageStyle{}, {}, cursor.get());
    QImage small = frame.picture.isNull() ? QImage() : frame.picture.scaledToHeight(kHeight, Qt::SmoothTransformation);
    mailbox->post([this, key, small, generation] {
      if (generation != generation_) return;
      pending_.erase(key);
      images_[key] = small;  // a null one for a frame that cannot be shown: not asked again
      order_.push_back(key);
      if (order_.size() > kKept) {
        images_.erase(order_.front());
        order_.erase(order_.begin());
      }
      emit ready();
    });
  });
  return nullptr;
}

}  // namespace bagscope::widgets
