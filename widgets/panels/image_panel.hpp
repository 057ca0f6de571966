#pragma once
// The image viewer: sensor_msgs/Image and CompressedImage at the playhead, fit / 1:1 /
// wheel zoom / drag pan, the raw value under the cursor, a colour map with an adjustable
// range for depth and 16-bit images, and the header stamp and frame id drawn over it.
// Frames are read, decoded and coloured on a pool thread; the next ones are prefetched
// while playing.

#include <QImage>
#include <QString>
#include <QWidget>

#include <memory>
#include <optional>

#include "core/sensors/sensors.hpp"
#include "widgets/async/newest_read.hpp"
#include "widgets/panels/colour_range.hpp"
#include "widgets/panels/panel.hpp"

class QCheckBox;
class QComboBox;
class QLabel;

namespace cv {
class Mat;
}

namespace bagscope::session {
class Session;
}

namespace bagscope::widgets {

class Document;
class Mailbox;

/// How single-channel images without colour (16-bit, float depth) are shown.
struct ImageStyle {
  ColourMap map = ColourMap::Turbo;
  bool autoRange = true;
  double low = 0, high = 1;  ///< when not autoRange
};

/// A frame ready to draw: the picture, the raw values for the readout, and what it is.
struct RenderedImage {
  QImage picture;
  std::shared_ptr<const sensors::Image> raw;  ///< decoded values (BGR(A) 8-bit, mono 8/16-bit, float)
  QString encoding;                           ///< "rgb8", "16UC1", "jpeg" …
  QString frameId;
  qint64 stampNs = 0;
  qint64 logTimeNs = 0;
  double low = 0, high = 0;  ///< the colour-map range used (single-channel 16-bit / float)
  QString error;
  // The overlay (ImageOverlay): where each projected cloud point landed, and what was done.
  std::vector<QPointF> projected;       ///< pixels of the cloud's points in view, in the cloud's order
  std::vector<double> projectedValues;  ///< what each is coloured by: its range (m) or its field's value
  QStringList cloudFields;              ///< the fields the cloud can be coloured by
  std::size_t cloudPoints = 0;          ///< points in the cloud
  bool undistorted = false;
  QString overlayNote;  ///< what the overlay shows, or why it shows nothing
};

/// What is drawn over an image: a cloud projected with the camera's calibration (how a
/// lidar–camera calibration is checked), and whether the raw image is undistorted first.
struct ImageOverlay {
  int cloudTopic = -1;       ///< PointCloud2 / LaserScan; -1: none
  int cameraInfoTopic = -1;  ///< its CameraInfo; -1: none (no projection, no undistortion)
  bool undistort = false;
  QString colourField;  ///< the cloud's field its points are coloured by; empty: their range
  std::shared_ptr<const sensors::TfBuffer> tf;
};

class VideoCursor;
/// Reads message `row` of `topic` (Image, CompressedImage, or a compressed video packet,
/// decoded through `video`: one of its own when null) and renders it.
RenderedImage renderImage(const session::Session& session, std::uint32_t topic, std::size_t row,
                          const ImageStyle& style, const ImageOverlay& overlay = {}, VideoCursor* video = nullptr);
/// The CameraInfo topic of an image topic: the one in the same namespace (/cam/image_raw ->
/// /cam/camera_info), else the only one; -1 when none fits.
int cameraInfoTopicFor(const session::Session& session, std::uint32_t imageTopic);

/// The raw value of pixel (x, y) as text: "R 10 G 20 B 30", "1234 mm" (16UC1 depth),
/// "1.250 m" (32FC1 depth), "812" (mono16) … Empty outside the image.
QString pixelReadout(const sensors::Image& raw, const QString& encoding, int x, int y);

/// Zoomable, pannable picture with an overlay line.
class ImageView : public QWidget {
  Q_OBJECT

public:
  explicit ImageView(QWidget* parent = nullptr);
  void setImage(const QImage& image, const QString& overlay);
  void fit();
  void actualSize();
  bool fitting() const { return fit_; }
  /// Image pixel under widget point `p` (may be outside the image).
  QPointF toImage(const QPointF& p) const;

signals:
  void hovered(const QPoint& pixel);

protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void resizeEvent(QResizeEvent*) override;

private:
  void updateFit();
  QImage image_;
  QString overlay_;
  bool fit_ = true;
  double scale_ = 1.0;
  QPointF offset_;  // widget position of the image's top-left corner
  QPoint dragFrom_;
};

class ImagePanel : public Panel {
  Q_OBJECT

public:
  explicit ImagePanel(Document* document, QWidget* parent = nullptr);
  ~ImagePanel() override;

  static constexpr const char* kKind = "image";
  /// Whether it shows topics of `type`.
  static bool shows(const QString& type);
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;

  /// Shows `topic` (by name); empty: the first image topic.
  void setTopic(const QString& name) override;
  QString topic() const;
  const RenderedImage& shown() const { return shown_; }
  /// The line under the image: the frame's details, a readout, or why nothing is shown.
  QString status() const;
  ImageView* view() const { return view_; }
  /// The readout text for image pixel (x, y) of the frame shown.
  QString readout(int x, int y) const;
  /// Writes the frame shown through the export core in the background, as File ▸ Export
  /// writes it: PNG keeps its raw values (16-bit depth too), JPEG is 8-bit; another suffix is
  /// refused. Ends with saved().
  void saveFrame(const QString& path);

  /// Projects `cloudTopic` ("" none) over the image; `undistort` remaps the raw image.
  void setOverlay(const QString& cloudTopic, bool undistort);
  /// The cloud field the overlay's points are coloured by; empty: range.
  void setOverlayColour(const QString& field);

signals:
  /// A frame is on screen (tests and the benchmark wait for it).
  void frameShown();

private:
  void refresh();
  void showFrame(RenderedImage frame);
  ImageStyle style() const;
  void fillOverlayBox();
  void fillOverlayColours();

  Document* document_;
  std::unique_ptr<NewestRead<RenderedImage>> reader_;
  TopicChoice* topic_;
  QComboBox* overlay_;
  QComboBox* overlayColour_;
  QCheckBox* undistort_;
  QString pendingOverlay_;
  QString overlayField_;  // the field chosen, also while the cloud's fields are not yet known
  std::shared_ptr<const sensors::TfBuffer> tf_;
  std::shared_ptr<Mailbox> mailbox_;
  std::shared_ptr<VideoCursor> video_;  // a video topic's decoder, held by the reads too
  ColourRange* range_;
  ImageView* view_;
  QLabel* status_;
  RenderedImage shown_;
  int styleVersion_ = 0;
};

}  // namespace bagscope::widgets
