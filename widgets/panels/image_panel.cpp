#include "widgets/panels/image_panel.hpp"

#include "widgets/panels/video_cursor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <cmath>

#include "core/sensors/sensors.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/decoded_message.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/save_in_background.hpp"
#include "widgets/panels/colour_map.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/panels/transforms.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/timeline.hpp"

namespace bagscope::widgets {
namespace {

bool isDepth(const QString& encoding) {
  return encoding == QLatin1String("16UC1") || encoding == QLatin1String("32FC1") ||
         encoding.contains(QLatin1String("compressedDepth"));
}

// Single-channel 16-bit or float values through the colour map; 0 depth and NaN are black.
QImage colourized(const sensors::Image& m, bool depth, const ImageStyle& style, double& low, double& high) {
  auto valueAt = [&m](int y, int x) { return m.value(x, y); };
  auto valid = [depth](double v) { return std::isfinite(v) && !(depth && v == 0); };
  if (style.autoRange) {
    // The 1st to 99th percentile of valid values: a few far or saturated pixels (65535)
    // would otherwise squeeze everything else into one colour.
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(m.height) * static_cast<std::size_t>(m.width));
    for (int y = 0; y < m.height; ++y)
      for (int x = 0; x < m.width; ++x)
        if (double v = valueAt(y, x); valid(v)) values.push_back(v);
    if (values.empty()) {
      low = 0, high = 1;
    } else {
      auto at = [&values](double q) {
        auto k = static_cast<std::size_t>(q * static_cast<double>(values.size() - 1));
        std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
        return values[k];
      };
      low = at(0.01);
      high = at(0.99);
    }
  } else {
    low = style.low;
    high = style.high;
  }
  QRgb lut[256];
  for (int i = 0; i < 256; ++i) lut[i] = colourAt(style.map, i / 255.0).rgb();
  QImage out(m.width, m.height, QImage::Format_RGB32);
  double scale = high > low ? 255.0 / (high - low) : 0.0;
  for (int y = 0; y < m.height; ++y) {
    auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
    for (int x = 0; x < m.width; ++x) {
      double v = valueAt(y, x);
      line[x] = valid(v) ? lut[static_cast<int>(std::clamp((v - low) * scale, 0.0, 255.0))] : qRgb(0, 0, 0);
    }
  }
  return out;
}

QImage picture(const sensors::Image& m, const QString& encoding, const ImageStyle& style, double& low, double& high) {
  const auto* bits = reinterpret_cast<const uchar*>(m.data);
  const auto step = static_cast<qsizetype>(m.step);
  if (m.depth == sensors::PixelDepth::U8) {
    switch (m.channels) {
      case 3: return QImage(bits, m.width, m.height, step, QImage::Format_BGR888).copy();
      case 4:  // BGRA in memory is Qt's ARGB32 on little-endian machines
        return QImage(bits, m.width, m.height, step, QImage::Format_ARGB32).copy();
      case 1: return QImage(bits, m.width, m.height, step, QImage::Format_Grayscale8).copy();
    }
    return {};
  }
  return m.channels == 1 ? colourized(m, isDepth(encoding), style, low, high) : QImage();
}

// The raw picture remapped through the camera's undistortion map (nearest pixel).
QImage undistorted(const QImage& raw, const sensors::CameraInfo& camera) {
  auto map = sensors::undistortionMap(camera);
  QImage in = raw.convertToFormat(QImage::Format_RGB32), out(in.size(), QImage::Format_RGB32);
  out.fill(Qt::black);
  for (int v = 0; v < out.height(); ++v) {
    auto* line = reinterpret_cast<QRgb*>(out.scanLine(v));
    for (int u = 0; u < out.width(); ++u) {
      const float* at =
          &map[(static_cast<std::size_t>(v) * static_cast<std::size_t>(out.width()) + static_cast<std::size_t>(u)) * 2];
      int x = static_cast<int>(std::lround(at[0])), y = static_cast<int>(std::lround(at[1]));
      if (x >= 0 && y >= 0 && x < in.width() && y < in.height()) line[u] = in.pixel(x, y);
    }
  }
  return out;
}

// The camera's calibration at the image's time, the image undistorted if asked, and the cloud
// nearest before it drawn over it: moved into the camera's frame at the image's stamp,
// projected, coloured by range or by a field of the cloud.
void applyOverlay(const session::Session& session, const ImageOverlay& overlay, RenderedImage& out) {
  auto at = [&](int topic) {
    auto row = session.atOrBefore(static_cast<session::TopicId>(topic), out.logTimeNs);
    return row.value_or(0);
  };
  if (overlay.cameraInfoTopic < 0) {
    if (overlay.cloudTopic >= 0 || overlay.undistort) out.overlayNote = ImagePanel::tr("no CameraInfo for this image");
    return;
  }
  auto message =
      readDecoded(session, static_cast<session::TopicId>(overlay.cameraInfoTopic), at(overlay.cameraInfoTopic));
  auto camera = message->error.isEmpty()
                    ? sensors::readCameraInfo(message->value)
                    : Result<sensors::CameraInfo>(makeError(ErrorCode::Format, message->error.toStdString()));
  if (!camera) return void(out.overlayNote = toQt(camera.error().describe()));
  const bool sameSize = static_cast<int>(camera->width) == out.picture.width() &&
                        static_cast<int>(camera->height) == out.picture.height();
  if (overlay.undistort && sameSize && camera->distortionModel != "") {
    out.picture = undistorted(out.picture, *camera);
    out.undistorted = true;
  }
  if (overlay.cloudTopic < 0) return;
  const bool byField = !overlay.colourField.isEmpty();
  CloudFrame cloud = readCloud(session, static_cast<std::uint32_t>(overlay.cloudTopic), at(overlay.cloudTopic),
                               byField ? overlay.colourField : QStringLiteral("z"), nullptr, QString());
  if (!cloud.error.isEmpty()) return void(out.overlayNote = cloud.error);
  out.cloudFields = cloud.fields;
  const bool trueColour = byField && overlay.colourField == kTrueColour && cloud.rgb.size() >= 3 * cloud.size();
  if (byField && !trueColour && cloud.values.size() < cloud.size())
    return void(out.overlayNote = ImagePanel::tr("the cloud has no field %1").arg(overlay.colourField));
  const std::string cameraFrame = camera->header.frameId.empty() ? out.frameId.toStdString() : camera->header.frameId;
  auto toCamera =
      overlay.tf
          ? overlay.tf->lookup(cameraFrame, cloud.frameId.toStdString(), out.stampNs ? out.stampNs : out.logTimeNs)
          : Result<sensors::Transform>(makeError(ErrorCode::Format, "no transforms in this recording"));
  if (!toCamera) return void(out.overlayNote = toQt(toCamera.error().describe()));
  out.cloudPoints = cloud.size();
  std::vector<std::size_t> shown;  // the points in view, by their index in the cloud
  for (std::size_t k = 0; k < cloud.size(); ++k) {
    auto p = toCamera->apply({cloud.xyz[3 * k], cloud.xyz[3 * k + 1], cloud.xyz[3 * k + 2]});
    auto px = sensors::projectPoint(*camera, p, out.undistorted);
    if (!px || (*px)[0] < 0 || (*px)[1] < 0 || (*px)[0] >= out.picture.width() || (*px)[1] >= out.picture.height())
      continue;
    out.projected.emplace_back((*px)[0], (*px)[1]);
    out.projectedValues.push_back(byField ? (trueColour ? 0 : cloud.values[k])
                                          : std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    shown.push_back(k);
  }
  // Range from 0 to the farthest; a field over its values in view.
  double low = 0, high = 1;
  if (!out.projectedValues.empty()) {
    auto [lo, hi] = std::minmax_element(out.projectedValues.begin(), out.projectedValues.end());
    low = byField ? *lo : 0, high = *hi;
  }
  out.picture = out.picture.convertToFormat(QImage::Format_RGB32);
  QPainter painter(&out.picture);
  painter.setPen(Qt::NoPen);
  const double dot = std::max(1.5, out.picture.width() / 320.0);
  for (std::size_t i = 0; i < out.projected.size(); ++i) {
    const std::uint8_t* rgb = trueColour ? &cloud.rgb[3 * shown[i]] : nullptr;
    painter.setBrush(
        rgb ? QColor(rgb[0], rgb[1], rgb[2])
            : colourAt(ColourMap::Turbo, high > low ? (out.projectedValues[i] - low) / (high - low) : 0.5));
    painter.drawEllipse(out.projected[i], dot, dot);
  }
  if (trueColour)
    out.overlayNote =
        ImagePanel::tr("%1 of %2 points in view, in their own colours").arg(out.projected.size()).arg(out.cloudPoints);
  else if (byField)
    out.overlayNote = ImagePanel::tr("%1 of %2 points in view, coloured by %3 (%4 – %5)")
                          .arg(out.projected.size())
                          .arg(out.cloudPoints)
                          .arg(overlay.colourField)
                          .arg(low, 0, 'g', 6)
                          .arg(high, 0, 'g', 6);
  else
    out.overlayNote = ImagePanel::tr("%1 of %2 points in view, coloured by range (0–%3 m)")
                          .arg(out.projected.size())
                          .arg(out.cloudPoints)
                          .arg(high, 0, 'f', 1);
}

}  // namespace

int cameraInfoTopicFor(const session::Session& session, std::uint32_t imageTopic) {
  auto folderOf = [](const std::string& name) { return name.substr(0, name.rfind('/') + 1); };
  std::vector<int> infos;  // every CameraInfo topic
  for (session::TopicId t = 0; t < session.topics().size(); ++t)
    if (sensors::kindOf(session.topics()[t].type) == sensors::SensorKind::CameraInfo)
      infos.push_back(static_cast<int>(t));
  auto in = [&](const std::string& ns) {
    auto it = std::find_if(infos.begin(), infos.end(),
                           [&](int t) { return folderOf(session.topics()[static_cast<std::size_t>(t)].name) == ns; });
    return it == infos.end() ? -1 : *it;
  };
  const std::string ns = folderOf(session.topics()[imageTopic].name);
  if (int t = in(ns); t >= 0) return t;
  // /cam/image_raw/compressed: the namespace above.
  if (ns.size() > 1)
    if (int t = in(ns.substr(0, ns.rfind('/', ns.size() - 2) + 1)); t >= 0) return t;
  return infos.size() == 1 ? infos[0] : -1;
}

RenderedImage renderImage(const session::Session& session, std::uint32_t topic, std::size_t row,
                          const ImageStyle& style, const ImageOverlay& overlay, VideoCursor* video) {
  RenderedImage out;
  auto message = readDecoded(session, topic, row);
  out.logTimeNs = message->message.logTimeNs;
  if (!message->error.isEmpty()) {
    out.error = message->error;
    return out;
  }
  const auto kind = sensors::kindOf(session.topics()[topic].type);
  const bool isVideo = kind == sensors::SensorKind::Video ||
                       (kind == sensors::SensorKind::CompressedImage && sensors::readVideoPacket(message->value));
  VideoCursor own;
  auto frame =
      isVideo ? (video ? video : &own)->frameAt(session, topic, row) : sensors::readAnyImage(message->value, kind);
  if (!frame) return out.error = toQt(frame.error().describe()), out;
  // A view of the message bytes is copied: they go away with the message.
  sensors::Image mat = frame->image.owner ? std::move(frame->image) : frame->image.copy();
  out.encoding = toQt(frame->encoding);
  out.frameId = toQt(frame->header.frameId);
  out.stampNs = frame->header.stampNs;
  out.picture = picture(mat, out.encoding, style, out.low, out.high);
  out.raw = std::make_shared<const sensors::Image>(std::move(mat));
  if (overlay.cloudTopic >= 0 || overlay.undistort) applyOverlay(session, overlay, out);
  return out;
}

QString pixelReadout(const sensors::Image& m, const QString& encoding, int x, int y) {
  if (x < 0 || y < 0 || x >= m.width || y >= m.height) return {};
  auto at = [&](int c) { return static_cast<int>(m.value(x, y, c)); };
  switch (m.depth) {
    case sensors::PixelDepth::U8:
      if (m.channels == 3) return QStringLiteral("R %1  G %2  B %3").arg(at(2)).arg(at(1)).arg(at(0));
      if (m.channels == 4) return QStringLiteral("R %1  G %2  B %3  A %4").arg(at(2)).arg(at(1)).arg(at(0)).arg(at(3));
      return QString::number(at(0));
    case sensors::PixelDepth::U16:
      return QString::number(at(0)) + (isDepth(encoding) ? QStringLiteral(" mm") : QString());
    case sensors::PixelDepth::S16: return QString::number(at(0));
    case sensors::PixelDepth::F32: {
      double v = m.value(x, y);
      QString text = std::isnan(v) ? QStringLiteral("NaN") : QString::number(v, 'f', 3);
      return text + (encoding == QLatin1String("32FC1") ? QStringLiteral(" m") : QString());
    }
    default: return {};
  }
}

// ---------------------------------------------------------------------------------------
// ImageView

ImageView::ImageView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setMinimumSize(160, 120);
  setAttribute(Qt::WA_OpaquePaintEvent);
}

void ImageView::setImage(const QImage& image, const QString& overlay) {
  bool newSize = image.size() != image_.size();
  image_ = image;
  overlay_ = overlay;
  if (fit_ || newSize) updateFit();
  update();
}

void ImageView::updateFit() {
  if (image_.isNull()) return;
  if (fit_)
    scale_ = std::min(width() / static_cast<double>(image_.width()), height() / static_cast<double>(image_.height()));
  offset_ = QPointF((width() - image_.width() * scale_) / 2, (height() - image_.height() * scale_) / 2);
}

void ImageView::fit() {
  fit_ = true;
  updateFit();
  update();
}

void ImageView::actualSize() {
  fit_ = false;
  scale_ = 1.0;
  updateFit();
  update();
}

QPointF ImageView::toImage(const QPointF& p) const { return (p - offset_) / scale_; }

void ImageView::resizeEvent(QResizeEvent*) {
  if (fit_) updateFit();
}

void ImageView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), QColor(30, 30, 30));
  if (image_.isNull()) return;
  p.setRenderHint(QPainter::SmoothPixmapTransform, scale_ < 1.0);  // enlarged: crisp pixels
  p.drawImage(QRectF(offset_, QSizeF(image_.width() * scale_, image_.height() * scale_)), image_);
  if (!overlay_.isEmpty()) {
    QRect box = p.fontMetrics().boundingRect(rect().adjusted(6, 6, -6, -6), Qt::AlignLeft | Qt::AlignTop, overlay_);
    p.fillRect(box.adjusted(-4, -2, 4, 2), QColor(0, 0, 0, 150));
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignLeft | Qt::AlignTop, overlay_);
  }
}

void ImageView::wheelEvent(QWheelEvent* e) {
  if (image_.isNull()) return;
  QPointF anchor = toImage(e->position());
  fit_ = false;
  scale_ = std::clamp(scale_ * std::pow(1.25, e->angleDelta().y() / 120.0), 0.02, 64.0);
  offset_ = e->position() - anchor * scale_;  // the pixel under the cursor stays there
  update();
}

void ImageView::mousePressEvent(QMouseEvent* e) { dragFrom_ = e->position().toPoint(); }

void ImageView::mouseMoveEvent(QMouseEvent* e) {
  if (e->buttons() & Qt::LeftButton) {
    fit_ = false;
    offset_ += e->position().toPoint() - dragFrom_;
    dragFrom_ = e->position().toPoint();
    update();
  }
  QPointF pixel = toImage(e->position());
  emit hovered(QPoint(static_cast<int>(std::floor(pixel.x())), static_cast<int>(std::floor(pixel.y()))));
}

// ---------------------------------------------------------------------------------------
// ImagePanel

bool ImagePanel::shows(const QString& type) {
  auto k = sensors::kindOf(type.toStdString());
  return k == sensors::SensorKind::Image || k == sensors::SensorKind::CompressedImage ||
         k == sensors::SensorKind::Video;
}

ImagePanel::ImagePanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      reader_(std::make_unique<NewestRead<RenderedImage>>(this)),
      topic_(new TopicChoice(this)),
      overlay_(new QComboBox(this)),
      overlayColour_(new QComboBox(this)),
      undistort_(new QCheckBox(tr("Undistort"), this)),
      mailbox_(Mailbox::create(this)),
      range_(new ColourRange(tr("Colour map for depth and 16-bit images"), this)),
      view_(new ImageView(this)),
      status_(new QLabel(this)) {
  video_ = std::make_shared<VideoCursor>();
  topic_->setMinimumContentsLength(10);
  topic_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  auto* fit = new QToolButton(this);
  fit->setText(tr("Fit"));
  auto* actual = new QToolButton(this);
  actual->setText(tr("1:1"));
  actual->setToolTip(tr("One image pixel per screen pixel"));
  auto* save = new QToolButton(this);
  save->setText(tr("Save Frame…"));
  save->setToolTip(tr("Save this frame as PNG (raw values, 16-bit depth kept) or JPEG"));
  connect(save, &QToolButton::clicked, this, [this] {
    if (!shown_.raw) return;
    askAndSave(tr("Save This Frame As"),
               QStringLiteral("%1_%2.png").arg(topic().mid(1).replace('/', '_')).arg(shown_.stampNs),
               messageFileFilters(*document_, topic()), [this](const QString& path) { saveFrame(path); });
  });
  auto* bar = new QHBoxLayout;
  bar->addWidget(topic_, 1);
  bar->addWidget(save);
  bar->addWidget(fit);
  bar->addWidget(actual);
  overlay_->setToolTip(
      tr("Project a point cloud into the image with the camera's calibration (CameraInfo) and "
         "the transform between their frames at the image's stamp"));
  undistort_->setToolTip(tr("Remap the raw image through the camera's distortion model (CameraInfo)"));
  auto* colours = new QHBoxLayout;
  colours->addWidget(range_);
  colours->addStretch(1);
  colours->addWidget(overlay_);
  colours->addWidget(overlayColour_);
  overlayColour_->setToolTip(tr("What the projected points are coloured by: their range, or a field of the cloud"));
  overlayColour_->addItem(tr("by range"), QString());
  overlayColour_->setVisible(false);                   // shown with an overlay
  for (QComboBox* box : {overlay_, overlayColour_}) {  // long topic names do not widen the panel
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(8);
  }
  colours->addWidget(undistort_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addLayout(bar);
  layout->addLayout(colours);
  layout->addWidget(view_, 1);
  layout->addWidget(status_);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  connect(fit, &QToolButton::clicked, view_, &ImageView::fit);
  connect(actual, &QToolButton::clicked, view_, &ImageView::actualSize);
  connect(topic_, &TopicChoice::chosen, this, [this] {
    emit titleChanged(topic());
    refresh();
  });
  connect(range_, &ColourRange::changed, this, [this] {
    ++styleVersion_;
    refresh();
  });
  connect(overlay_, &QComboBox::currentIndexChanged, this, [this] {
    pendingOverlay_.clear();
    fillOverlayColours();
    ++styleVersion_;
    refresh();
  });
  connect(overlayColour_, &QComboBox::currentIndexChanged, this, [this] {
    overlayField_ = overlayColour_->currentData().toString();
    ++styleVersion_;
    refresh();
  });
  connect(undistort_, &QCheckBox::toggled, this, [this] {
    ++styleVersion_;
    refresh();
  });
  connect(view_, &ImageView::hovered, this, [this](const QPoint& p) {
    QString value = readout(p.x(), p.y());
    status_->setText(value.isEmpty() ? QString() : tr("x %1, y %2: %3").arg(p.x()).arg(p.y()).arg(value));
  });
  connect(document_, &Document::playheadChanged, this, &ImagePanel::refresh);
  sessionChanged();
}

ImagePanel::~ImagePanel() { mailbox_->close(); }

void ImagePanel::sessionChanged() {
  topic_->refill(document_->topics(), [](const TopicInfo& t) { return ImagePanel::shows(t.type); });
  reader_->reset();
  fillOverlayBox();
  tf_.reset();
  if (auto session = document_->session()) {  // the transforms the overlay needs, on the pool
    auto mailbox = mailbox_;
    startInPool([session, mailbox, this] {
      auto tf = readTransforms(*session);
      mailbox->post([this, tf, session] {
        if (session != document_->session()) return;
        tf_ = tf;
        ++styleVersion_;
        refresh();
      });
    });
  }
  emit titleChanged(topic());
  refresh();
}

void ImagePanel::fillOverlayBox() {
  std::vector<std::pair<QString, QString>> clouds;
  for (const auto& t : document_->topics())
    if (CloudPanel::shows(t.type)) clouds.emplace_back(tr("Overlay %1").arg(t.name), t.name);
  if (refillChoice(overlay_, tr("No overlay"), clouds,
                   pendingOverlay_.isEmpty() ? overlay_->currentData().toString() : pendingOverlay_))
    pendingOverlay_.clear();
  fillOverlayColours();
}

void ImagePanel::setOverlay(const QString& cloudTopic, bool undistort) {
  pendingOverlay_ = cloudTopic;
  fillOverlayBox();
  QSignalBlocker block(undistort_);
  undistort_->setChecked(undistort);
  ++styleVersion_;
  refresh();
}

void ImagePanel::setOverlayColour(const QString& field) {
  overlayField_ = field;
  fillOverlayColours();
  ++styleVersion_;
  refresh();
}

// The colour choices: range, then the fields of the cloud shown (known once it is read).
void ImagePanel::fillOverlayColours() {
  QStringList fields = shown_.cloudFields;
  if (!overlayField_.isEmpty() && !fields.contains(overlayField_)) fields << overlayField_;
  std::vector<std::pair<QString, QString>> choices;
  for (const QString& f : fields) choices.emplace_back(tr("by %1").arg(f), f);
  refillChoice(overlayColour_, tr("by range"), choices, overlayField_);  // the field chosen is always there
  overlayColour_->setVisible(overlay_->currentIndex() > 0);
}

void ImagePanel::setTopic(const QString& name) {
  topic_->ask(name);
  sessionChanged();
}

// The panel's topic, also while the open recording lacks it.
QString ImagePanel::topic() const { return topic_->topic(); }
QString ImagePanel::status() const { return status_->text(); }

void ImagePanel::saveFrame(const QString& path) {
  if (!document_->session() || !shown_.raw) return emit saved(path, tr("%1: no frame is shown").arg(path));
  saveMessage(this, document_->session(), topic(), shown_.logTimeNs, path);
}

ImageStyle ImagePanel::style() const { return {range_->map(), range_->autoRange(), range_->low(), range_->high()}; }

QString ImagePanel::readout(int x, int y) const {
  return shown_.raw ? pixelReadout(*shown_.raw, shown_.encoding, x, y) : QString();
}

void ImagePanel::refresh() {
  auto s = document_->session();
  if (!s || topic_->currentIndex() < 0) {
    // Never the frame of a recording that is no longer open.
    shown_ = {};
    view_->setImage({}, {});
    status_->setText(topic_->noTopicText(s != nullptr, tr("This recording has no image topics.")));
    return;
  }
  auto id = static_cast<session::TopicId>(topic_->currentData().toUInt());
  auto row = s->atOrBefore(id, document_->playheadNs());
  if (!row && !s->index(id).empty()) row = 0;  // before its first frame: show that
  if (!row) return;
  // The next second of frames into the cache, so stepping and playing read from memory.
  s->prefetch({&id, 1}, document_->playheadNs(), 1'000'000'000);
  auto session = document_->session();
  ImageStyle look = style();
  ImageOverlay overlay;
  if (const TopicInfo* cloud = document_->topicByName(overlay_->currentData().toString()))
    overlay.cloudTopic = static_cast<int>(cloud->id);
  overlay.cameraInfoTopic = cameraInfoTopicFor(*s, id);
  overlay.undistort = undistort_->isChecked();
  overlay.colourField = overlayField_;
  overlay.tf = tf_;
  reader_->want(
      {s.get(), static_cast<int>(id), *row, styleVersion_},
      [session, id, n = *row, look, overlay, video = video_] {
        return renderImage(*session, id, n, look, overlay, video.get());
      },
      [this](const ReadKey&, RenderedImage frame) {
        if (reader_->shown().session == document_->session().get()) showFrame(std::move(frame));
      });
}

void ImagePanel::showFrame(RenderedImage frame) {
  shown_ = std::move(frame);
  if (!shown_.error.isEmpty()) {
    view_->setImage({}, {});
    status_->setText(shown_.error);
  } else {
    qint64 origin = document_->startNs();
    QString overlay = tr("%1  %2×%3  stamp %4  frame %5")
                          .arg(shown_.encoding)
                          .arg(shown_.picture.width())
                          .arg(shown_.picture.height())
                          .arg(formatStamp(shown_.stampNs, TimeDisplay::Relative, origin, document_->endNs()))
                          .arg(shown_.frameId.isEmpty() ? QStringLiteral("–") : shown_.frameId) +
                      (shown_.undistorted ? tr("  undistorted") : QString());
    status_->setText(shown_.overlayNote);
    fillOverlayColours();
    view_->setImage(shown_.picture, overlay);
    if (range_->autoRange() && shown_.raw && shown_.raw->channels == 1 && shown_.raw->depth != sensors::PixelDepth::U8)
      range_->showAutoRange(shown_.low, shown_.high);
  }
  emit frameShown();
}

QJsonObject ImagePanel::saveSettings() const {
  QJsonObject s{
      {QStringLiteral("topic"), topic()},
      {QStringLiteral("fit"), view_->fitting()},
      {QStringLiteral("overlay"), pendingOverlay_.isEmpty() ? overlay_->currentData().toString() : pendingOverlay_},
      {QStringLiteral("undistort"), undistort_->isChecked()},
      {QStringLiteral("overlayColour"), overlayField_}};
  range_->save(s);
  return s;
}

void ImagePanel::restoreSettings(const QJsonObject& s) {
  range_->restore(s);
  if (!s.value(QStringLiteral("fit")).toBool(true)) view_->actualSize();
  pendingOverlay_ = s.value(QStringLiteral("overlay")).toString();
  overlayField_ = s.value(QStringLiteral("overlayColour")).toString();
  fillOverlayColours();
  {
    QSignalBlocker block(undistort_);
    undistort_->setChecked(s.value(QStringLiteral("undistort")).toBool());
  }
  setTopic(s.value(QStringLiteral("topic")).toString());
}

}  // namespace bagscope::widgets
