#pragma once
// The 3D view: PointCloud2 and LaserScan topics at the playhead, coloured by any field
// (intensity, z, ring …, or packed rgb as true colour) through a colour map with an
// adjustable range; point size; the last N frames accumulated; clouds transformed into a
// fixed frame chosen from /tf and /tf_static at their stamp; grid, axes and TF frame triads;
// reset, top and side views. Clouds are read and transformed on a pool thread; VTK draws
// them (see vtk_view.hpp) and stays out of this header.

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "widgets/async/newest_read.hpp"
#include "widgets/panels/colour_range.hpp"
#include "widgets/panels/panel.hpp"

class QCheckBox;
class QComboBox;
class QDialog;
class QDoubleSpinBox;
class QLabel;
class QMenu;
class QSpinBox;

namespace bagscope::session {
class Session;
}
namespace bagscope::sensors {
class TfBuffer;
}

namespace bagscope::widgets {

class SceneLayers;
struct LayerLook;

class Document;
class Mailbox;
class VtkView;

/// One cloud ready to draw: points (in the fixed frame when one is set) and the values of
/// the field chosen for colour.
struct CloudFrame {
  std::vector<float> xyz;
  std::vector<double> values;     ///< the colour field per point (empty for true colour)
  std::vector<std::uint8_t> rgb;  ///< packed rgb/rgba as true colour, 3 bytes per point
  QStringList fields;             ///< what it can be coloured by
  QString frameId;
  qint64 stampNs = 0;
  qint64 logTimeNs = 0;
  std::size_t row = 0;  ///< the message's position in its topic
  QString error;        ///< could not be read
  QString warning;      ///< shown but not transformed (no TF to the fixed frame)
  std::size_t size() const { return xyz.size() / 3; }
};

/// The name of the "true colour" choice (packed rgb / rgba fields).
inline const QString kTrueColour = QStringLiteral("rgb");

/// Reads message `row` of `topic` (PointCloud2 or LaserScan) as a CloudFrame; colours by
/// `field` ("rgb": true colour); moves it into `fixedFrame` via `tf` when both are given.
CloudFrame readCloud(const session::Session& session, std::uint32_t topic, std::size_t row, const QString& field,
                     const sensors::TfBuffer* tf, const QString& fixedFrame);

/// RGB bytes (3 per point) for a frame: true colour when it has it, else its values
/// through `map` over [low, high].
void cloudColours(const CloudFrame& frame, ColourMap map, double low, double high, std::span<std::uint8_t> rgbOut);

class CloudPanel : public Panel {
  Q_OBJECT

public:
  explicit CloudPanel(Document* document, QWidget* parent = nullptr);
  ~CloudPanel() override;

  static constexpr const char* kKind = "cloud";
  /// Whether it shows topics of `type`.
  static bool shows(const QString& type);
  QString kind() const override { return QLatin1String(kKind); }
  QJsonObject saveSettings() const override;
  void restoreSettings(const QJsonObject& settings) override;
  void sessionChanged() override;

  void setTopic(const QString& name) override;
  QString topic() const;
  /// The frames read for the playhead (newest last); while playing, those that came while the
  /// view was drawing reach the scene when that frame is shown.
  const std::deque<CloudFrame>& frames() const { return frames_; }
  /// The log time of the newest cloud in the scene: drawn in the frame being drawn or the next.
  qint64 sceneLogTimeNs() const { return sceneLogTimeNs_; }
  std::size_t pointsDrawn() const;
  /// While playing, a cloud the view cannot draw within a frame budget (a software renderer
  /// takes 30-50 ms for 100,000 points) is drawn thinned, every drawEvery()-th point, and
  /// whole again when playing stops; the status says so. Budget default: 25 ms.
  int drawEvery() const { return drawEvery_; }
  void setFrameBudget(int ms) { frameBudgetMs_ = ms; }
  /// The points on screen now: pointsDrawn() thinned by drawEvery().
  std::size_t pointsOnScreen() const;
  /// The line under the view: the frame's details, or why nothing is shown.
  QString status() const;
  /// What the layers could not draw and why, one line each (empty: nothing).
  QString layerStatus() const;
  VtkView* view() const { return view_; }
  /// Writes the cloud shown (the newest frame) as recorded, through the export core in the
  /// background, in the cloud format its suffix names (another is refused). Ends with
  /// saved().
  void saveFrame(const QString& path);
  void resetView();
  /// The camera moves with the followed frame (Follow:), if one is chosen.
  void followFrame();
  void topView();
  void sideView();
  /// Topics drawn beside the cloud: markers, paths, poses, odometry, grids, polygons, camera
  /// frustums (scene_layers.hpp), placed in the fixed frame.
  void setLayers(const QStringList& topics);
  QStringList layers() const;
  void setHiddenNamespaces(const QStringList& namespaces);
  /// A layer's visibility, colour and size (scene_layers.hpp), and the dialog that sets them.
  void setLayerLook(const QString& topic, const LayerLook& look);
  QDialog* showLayerSettings();
  /// The layers' items and triangles drawn now (tests).
  std::size_t layerItemsDrawn() const;
  std::size_t layerTriangles() const { return layerTriangles_; }
  std::size_t layerPoints() const { return layerPoints_; }
  /// The colour bar's title and range when it is shown ("intensity 0 – 255"), else empty.
  QString colourBarText() const;

signals:
  /// A cloud is on screen (tests and the benchmark wait for it).
  void frameShown();

private:
  void layOutControls();
  void setUpScene();
  void connectControls();
  /// Camera at `position` looking at the origin, `up` upwards, zoomed to the cloud (or grid).
  void lookFrom(std::array<double, 3> position, std::array<double, 3> up);
  struct Scene;
  void refresh();
  /// Shows the frames of rows [first, last]: those of frames_ in it and `fresh` ones.
  void showFrames(std::vector<CloudFrame> fresh, std::size_t first, std::size_t last);
  void rebuild();
  void showStatus();
  /// How thin to draw the next frame: from whether it is playing and the last drawing's time.
  void paceDrawing();
  void rebuildLayers();  // the layers at the playhead
  /// Scene changes put off while a frame is drawn, made when it is shown.
  enum PutOff : int { kRebuild = 1, kLayers = 2, kFollow = 4 };
  std::unique_lock<std::recursive_mutex> lockScene(int change);
  QMenu* layersMenu();
  void loadTf();

  Document* document_;
  std::shared_ptr<Mailbox> mailbox_;
  std::unique_ptr<Scene> scene_;
  std::unique_ptr<NewestRead<std::vector<CloudFrame>>> reader_;
  VtkView* view_;
  TopicChoice* topic_;
  QComboBox* field_;
  ColourRange* range_;
  QSpinBox* pointSize_;
  QSpinBox* accumulate_;
  QDoubleSpinBox* decay_;
  QComboBox* fixedFrame_;
  QCheckBox* grid_;
  QCheckBox* triads_;
  QComboBox* follow_;                              // the frame the camera moves with
  std::optional<std::array<double, 3>> followed_;  // its origin when the camera last moved with it
  QLabel* status_;
  QLabel* layerStatus_;
  std::deque<CloudFrame> frames_;
  SceneLayers* layers_;
  QStringList layerNotes_;
  int layersVersion_ = 0;  // layers, namespaces or their data changed: draw again
  std::tuple<qint64, QString, int, const void*> layersBuilt_{-1, {}, -1, nullptr};
  std::size_t layerTriangles_ = 0, layerPoints_ = 0;
  std::shared_ptr<const sensors::TfBuffer> tf_;
  bool cameraSet_ = false;
  int version_ = 0;
  int drawEvery_ = 1;
  int putOff_ = 0;  // scene changes to make when the frame being drawn is shown (PutOff)
  qint64 sceneLogTimeNs_ = 0;
  int frameBudgetMs_ = 25;

  QString pendingField_, pendingFrame_, pendingFollow_;
};

}  // namespace bagscope::widgets
