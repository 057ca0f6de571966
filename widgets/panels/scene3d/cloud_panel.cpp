#include "widgets/panels/scene3d/cloud_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <vtkActor.h>
#include <vtkBillboardTextActor3D.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkLookupTable.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <cmath>
#include <numeric>
#include <utility>

#include "core/base/text.hpp"
#include "core/sensors/sensors.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/decoded_message.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/async/save_in_background.hpp"
#include "widgets/panels/scene3d/layer_settings.hpp"
#include "widgets/panels/scene3d/scene_layers.hpp"
#include "widgets/panels/scene3d/vtk_view.hpp"
#include "widgets/panels/transforms.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"
#include "widgets/shell/timeline.hpp"

namespace bagscope::widgets {
namespace {

// Lines (pairs of points) with a colour each, as VTK poly data.
struct Lines {
  std::vector<float> xyz;
  std::vector<std::uint8_t> rgb;
  void add(const std::array<double, 3>& a, const std::array<double, 3>& b, QColor c) {
    for (const auto& p : {a, b}) {
      for (double v : p) xyz.push_back(static_cast<float>(v));
      rgb.insert(rgb.end(), {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
                             static_cast<std::uint8_t>(c.blue())});
    }
  }
};

// Points and cells of `data`, `size` vertices a cell (1 points, 2 lines, 3 triangles), coloured
// by `colours` (`components` bytes a vertex: RGB or RGBA).
void fillCells(vtkPolyData* data, const std::vector<float>& xyz, const std::uint8_t* colourBytes,
               std::size_t colourCount, int components, int size) {
  vtkIdType n = static_cast<vtkIdType>(xyz.size() / 3);
  vtkNew<vtkFloatArray> coords;
  coords->SetNumberOfComponents(3);
  coords->SetNumberOfTuples(n);
  std::copy(xyz.begin(), xyz.end(), coords->GetPointer(0));
  vtkNew<vtkPoints> points;
  points->SetData(coords);
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(components);
  colours->SetNumberOfTuples(n);
  std::copy(colourBytes, colourBytes + std::min<std::size_t>(colourCount, static_cast<std::size_t>(components * n)),
            colours->GetPointer(0));
  vtkNew<vtkIdTypeArray> connectivity;
  connectivity->SetNumberOfTuples(n);
  std::iota(connectivity->GetPointer(0), connectivity->GetPointer(0) + n, vtkIdType{0});
  vtkNew<vtkCellArray> cells;
  cells->SetData(size, connectivity);
  data->Initialize();
  data->SetPoints(points);
  if (size == 3) data->SetPolys(cells);
  else if (size == 2) data->SetLines(cells);
  else data->SetVerts(cells);
  data->GetPointData()->SetScalars(colours);
  data->Modified();
}

// Vertices (one per point) or lines (one per pair) in RGB.
void fill(vtkPolyData* data, const std::vector<float>& xyz, const std::vector<std::uint8_t>& rgb, bool lines) {
  fillCells(data, xyz, rgb.data(), rgb.size(), 3, lines ? 2 : 1);
}

}  // namespace

CloudFrame readCloud(const session::Session& session, std::uint32_t topic, std::size_t row, const QString& field,
                     const sensors::TfBuffer* tf, const QString& fixedFrame) {
  CloudFrame out;
  auto message = readDecoded(session, topic, row);
  out.logTimeNs = message->message.logTimeNs;
  if (!message->error.isEmpty()) return out.error = message->error, out;
  std::string fieldName = field.toStdString();
  if (normalTypeName(session.topics()[topic].type) == "sensor_msgs/LaserScan") {
    auto scan = sensors::laserScanPoints(message->value);
    if (!scan) return out.error = toQt(scan.error().describe()), out;
    out.fields = {QStringLiteral("intensity"), QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")};
    for (const auto& p : *scan) {
      out.xyz.insert(out.xyz.end(), {p.x, p.y, p.z});
      out.values.push_back(fieldName == "x" ? p.x : fieldName == "y" ? p.y : fieldName == "z" ? p.z : p.intensity);
    }
    if (auto h = sensors::headerOf(message->value)) out.frameId = toQt(h->frameId), out.stampNs = h->stampNs;
  } else {
    auto cloud = sensors::readPointCloud(message->value);
    if (!cloud) return out.error = toQt(cloud.error().describe()), out;
    out.frameId = toQt(cloud->header.frameId);
    out.stampNs = cloud->header.stampNs;
    auto channels = cloud->channels(true);
    const sensors::Channel *x = nullptr, *y = nullptr, *z = nullptr, *r = nullptr, *g = nullptr, *b = nullptr,
                           *colour = nullptr;
    for (const auto& c : channels) {
      if (c.name == "x") x = &c;
      else if (c.name == "y") y = &c;
      else if (c.name == "z") z = &c;
      if (c.colourByte >= 0) {
        if (c.name == "r") r = &c;
        if (c.name == "g") g = &c;
        if (c.name == "b") b = &c;
      } else {
        out.fields << toQt(c.name);
        if (c.name == fieldName) colour = &c;
      }
    }
    bool trueColour = r && g && b;
    if (trueColour) out.fields.prepend(kTrueColour);
    if (!x || !y || !z) return out.error = QObject::tr("this cloud has no x, y and z fields"), out;
    bool useRgb = trueColour && field == kTrueColour;
    if (!colour && !useRgb) colour = z;  // a field this cloud lacks: colour by height
    std::size_t n = cloud->size();
    out.xyz.reserve(3 * n);
    if (useRgb) out.rgb.reserve(3 * n);
    else out.values.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      double px = cloud->value(i, *x), py = cloud->value(i, *y), pz = cloud->value(i, *z);
      if (!std::isfinite(px) || !std::isfinite(py) || !std::isfinite(pz)) continue;  // no return
      out.xyz.insert(out.xyz.end(), {static_cast<float>(px), static_cast<float>(py), static_cast<float>(pz)});
      if (useRgb)
        out.rgb.insert(out.rgb.end(),
                       {static_cast<std::uint8_t>(cloud->value(i, *r)), static_cast<std::uint8_t>(cloud->value(i, *g)),
                        static_cast<std::uint8_t>(cloud->value(i, *b))});
      else out.values.push_back(cloud->value(i, *colour));
    }
  }
  // Into the fixed frame, at the cloud's stamp.
  if (tf && !fixedFrame.isEmpty() && !out.frameId.isEmpty()) {
    auto t = tf->lookup(fixedFrame.toStdString(), out.frameId.toStdString(), out.stampNs);
    if (!t) {
      out.warning = QObject::tr("not transformed: %1").arg(toQt(t.error().describe()));
    } else {
      for (std::size_t i = 0; i + 2 < out.xyz.size(); i += 3) {
        auto p = t->apply({out.xyz[i], out.xyz[i + 1], out.xyz[i + 2]});
        for (int k = 0; k < 3; ++k)
          out.xyz[i + static_cast<std::size_t>(k)] = static_cast<float>(p[static_cast<std::size_t>(k)]);
      }
    }
  }
  return out;
}

void cloudColours(const CloudFrame& frame, ColourMap map, double low, double high, std::span<std::uint8_t> rgbOut) {
  if (!frame.rgb.empty()) {
    std::copy_n(frame.rgb.begin(), std::min(frame.rgb.size(), rgbOut.size()), rgbOut.begin());
    return;
  }
  colourize(frame.values, low, high, map, rgbOut, QColor(128, 128, 128));
}

// ---------------------------------------------------------------------------------------
// CloudPanel

namespace {
// An actor drawing its polydata in the colours of its RGB(A) scalars.
struct Drawn {
  vtkNew<vtkPolyData> data;
  vtkNew<vtkPolyDataMapper> mapper;
  vtkNew<vtkActor> actor;
  Drawn() {
    mapper->SetInputData(data);
    mapper->SetColorModeToDirectScalars();
    mapper->ScalarVisibilityOn();
    actor->SetMapper(mapper);
  }
};
}  // namespace

struct CloudPanel::Scene {
  Drawn cloud, grid, axes;
  // A layer's shapes, lines and points: actors of their own, for its line width and point
  // size; kept and reused, as many as layers were drawn.
  struct LayerActors {
    Drawn shapes, lines, points;
  };
  std::vector<std::unique_ptr<LayerActors>> layers;
  std::vector<vtkSmartPointer<vtkBillboardTextActor3D>> labels;
  vtkNew<vtkScalarBarActor> colourBar;  // the field's colours and their values
  vtkNew<vtkLookupTable> colourTable;
  Scene() {
    colourBar->SetLookupTable(colourTable);
    colourBar->SetNumberOfLabels(5);
    colourBar->SetLabelFormat("%.4g");
    colourBar->SetMaximumWidthInPixels(70);
    colourBar->SetMaximumHeightInPixels(260);
    colourBar->SetPosition(0.88, 0.08);
    colourBar->SetVisibility(false);
    axes.actor->GetProperty()->SetLineWidth(2);
  }
};

namespace {

// The layers' geometry: RGBA floats per vertex.
void fillRgba(vtkPolyData* data, const std::vector<float>& xyz, const std::vector<float>& rgba, int size) {
  std::vector<std::uint8_t> bytes(rgba.size());
  for (std::size_t i = 0; i < rgba.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(std::clamp(rgba[i], 0.0f, 1.0f) * 255 + 0.5f);
  fillCells(data, xyz, bytes.data(), bytes.size(), 4, size);
}

}  // namespace

bool CloudPanel::shows(const QString& type) {
  auto k = sensors::kindOf(type.toStdString());
  return k == sensors::SensorKind::PointCloud || k == sensors::SensorKind::LaserScan;
}

CloudPanel::CloudPanel(Document* document, QWidget* parent)
    : Panel(parent),
      document_(document),
      mailbox_(Mailbox::create(this)),
      scene_(std::make_unique<Scene>()),
      reader_(std::make_unique<NewestRead<std::vector<CloudFrame>>>(this)),
      view_(new VtkView(this)),
      topic_(new TopicChoice(this)),
      field_(new QComboBox(this)),
      range_(new ColourRange(tr("Colour map for the field's values"), this)),
      pointSize_(new QSpinBox(this)),
      accumulate_(new QSpinBox(this)),
      decay_(new QDoubleSpinBox(this)),
      fixedFrame_(new QComboBox(this)),
      grid_(new QCheckBox(tr("Grid"), this)),
      triads_(new QCheckBox(tr("TF frames"), this)),
      follow_(new QComboBox(this)),
      status_(new QLabel(this)),
      layerStatus_(new QLabel(this)),
      layers_(new SceneLayers(this)) {
  layOutControls();
  setUpScene();
  connectControls();
  connect(view_, &VtkView::rendered, this, [this] {
    const int change = std::exchange(putOff_, 0);
    if (change & kRebuild) rebuild();  // with the layers
    else if (change & kLayers) rebuildLayers();
    if (change & kFollow) followFrame();
  });
  sessionChanged();
}

// The controls, in short rows so that the panel fits beside the other docks.
void CloudPanel::layOutControls() {
  topic_->setMinimumContentsLength(10);
  topic_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  field_->setToolTip(tr("Colour by this field (rgb: the cloud's own colours)"));
  pointSize_->setRange(1, 10);
  pointSize_->setValue(2);
  pointSize_->setPrefix(tr("size "));
  accumulate_->setRange(1, 100);
  accumulate_->setPrefix(tr("last "));
  accumulate_->setSuffix(tr(" frames"));
  accumulate_->setToolTip(tr("Accumulate the last N frames (in the fixed frame)"));
  decay_->setRange(0, 600);
  decay_->setDecimals(2);
  decay_->setSingleStep(0.5);
  decay_->setPrefix(tr("decay "));
  decay_->setSuffix(tr(" s"));
  decay_->setSpecialValueText(tr("no decay"));
  decay_->setToolTip(tr("Show only the frames of the last seconds before the playhead (at most the last N)"));
  fixedFrame_->setToolTip(tr("Fixed frame: clouds are moved into it through /tf at their stamp"));
  follow_->setObjectName(QStringLiteral("follow"));
  follow_->setToolTip(tr("The camera moves with this frame as the playhead moves (in the fixed frame)"));
  follow_->addItem(tr("follow no frame"), QString());
  grid_->setChecked(true);
  triads_->setChecked(true);
  auto button = [this](const QString& text, auto fn) {
    auto* b = new QToolButton(this);
    b->setText(text);
    connect(b, &QToolButton::clicked, this, fn);
    return b;
  };
  auto* first = new QHBoxLayout;
  first->addWidget(topic_, 1);
  first->addWidget(new QLabel(tr("Colour:"), this));
  first->addWidget(field_);
  auto* second = new QHBoxLayout;
  second->addWidget(range_);
  second->addWidget(pointSize_);
  second->addStretch(1);
  auto* third = new QHBoxLayout;
  third->addWidget(new QLabel(tr("Fixed frame:"), this));
  third->addWidget(fixedFrame_, 1);
  third->addWidget(follow_, 1);
  third->addWidget(accumulate_);
  third->addWidget(decay_);
  third->addWidget(grid_);
  third->addWidget(triads_);
  auto* fourth = new QHBoxLayout;
  fourth->addWidget(button(tr("Save Frame…"), [this] {
    if (frames_.empty()) return;
    askAndSave(tr("Save This Frame As"),
               QStringLiteral("%1_%2.pcd").arg(topic().mid(1).replace('/', '_')).arg(frames_.back().stampNs),
               messageFileFilters(*document_, topic()), [this](const QString& path) { saveFrame(path); });
  }));
  fourth->addStretch(1);
  auto* layersButton = new QToolButton(this);
  layersButton->setText(tr("Layers"));
  layersButton->setToolTip(
      tr("Topics drawn with the cloud: markers, paths, poses, odometry, maps, polygons, "
         "camera frustums"));
  layersButton->setPopupMode(QToolButton::InstantPopup);
  layersButton->setMenu(layersMenu());
  fourth->addWidget(layersButton);
  fourth->addWidget(button(tr("Reset View"), &CloudPanel::resetView));
  fourth->addWidget(button(tr("Top"), &CloudPanel::topView));
  fourth->addWidget(button(tr("Side"), &CloudPanel::sideView));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  for (auto* row : {first, second, third, fourth}) layout->addLayout(row);
  layout->addWidget(view_, 1);
  layout->addWidget(status_);
  layout->addWidget(layerStatus_);
  layerStatus_->setWordWrap(true);
  layerStatus_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layerStatus_->hide();
}

// The grid, axes and cloud actors on a dark background.
void CloudPanel::setUpScene() {
  auto scene = view_->lockScene();
  vtkRenderer* renderer = view_->renderer();
  renderer->SetBackground(0.12, 0.12, 0.14);
  renderer->AddActor(scene_->grid.actor);
  renderer->AddActor(scene_->axes.actor);
  renderer->AddActor(scene_->cloud.actor);
  renderer->AddActor2D(scene_->colourBar);
  scene_->cloud.actor->GetProperty()->SetPointSize(static_cast<float>(pointSize_->value()));
  Lines grid;
  for (int i = -10; i <= 10; ++i) {
    grid.add({double(i), -10, 0}, {double(i), 10, 0}, QColor(70, 70, 78));
    grid.add({-10, double(i), 0}, {10, double(i), 0}, QColor(70, 70, 78));
  }
  fill(scene_->grid.data, grid.xyz, grid.rgb, true);
}

void CloudPanel::connectControls() {
  auto reread = [this] {
    ++version_;
    frames_.clear();
    refresh();
  };
  connect(topic_, &TopicChoice::chosen, this, [this, reread] {
    emit titleChanged(topic());
    cameraSet_ = false;
    reread();
  });
  connect(field_, &QComboBox::currentIndexChanged, this, reread);
  connect(fixedFrame_, &QComboBox::currentIndexChanged, this, reread);
  connect(decay_, &QDoubleSpinBox::valueChanged, this, [this] {
    reader_->reset();
    refresh();
  });
  connect(accumulate_, &QSpinBox::valueChanged, this, [this] {
    reader_->reset();  // the frames now wanted: read those not shown yet
    refresh();
  });
  connect(range_, &ColourRange::changed, this, &CloudPanel::rebuild);
  connect(pointSize_, &QSpinBox::valueChanged, this, [this](int size) {
    auto scene = view_->lockScene();
    scene_->cloud.actor->GetProperty()->SetPointSize(static_cast<float>(size));
    view_->render();
  });
  connect(grid_, &QCheckBox::toggled, this, [this](bool on) {
    auto scene = view_->lockScene();
    scene_->grid.actor->SetVisibility(on);
    view_->render();
  });
  connect(triads_, &QCheckBox::toggled, this, &CloudPanel::rebuild);
  connect(follow_, &QComboBox::currentIndexChanged, this, [this] {
    followed_.reset();
    followFrame();
  });
  connect(document_, &Document::playheadChanged, this, &CloudPanel::followFrame);
  connect(document_, &Document::playheadChanged, this, &CloudPanel::refresh);
  connect(document_, &Document::playheadChanged, this, &CloudPanel::rebuildLayers);
  connect(document_, &Document::playingChanged, this, [this] {
    const int before = drawEvery_;
    paceDrawing();  // started: thinned at once if need be; stopped: every point again
    if (drawEvery_ == before) return;
    rebuild();
    showStatus();
  });
  connect(layers_, &SceneLayers::changed, this, [this] {
    ++layersVersion_;
    rebuildLayers();
  });
}

CloudPanel::~CloudPanel() {
  mailbox_->close();
  auto scene = view_->lockScene();  // after the frame being drawn
  scene_.reset();
}

void CloudPanel::sessionChanged() {
  // PointCloud2 before LaserScan by default.
  topic_->refill(
      document_->topics(), [](const TopicInfo& t) { return CloudPanel::shows(t.type); },
      [](const TopicInfo& t) { return sensors::kindOf(t.type.toStdString()) == sensors::SensorKind::PointCloud; });
  frames_.clear();
  reader_->reset();
  tf_.reset();
  cameraSet_ = false;
  emit titleChanged(topic());
  layers_->setTopics(layers_->topics(), document_->session());
  ++layersVersion_;
  loadTf();
  refresh();
}

void CloudPanel::loadTf() {
  QString keep = pendingFrame_.isEmpty() ? fixedFrame_->currentData().toString() : pendingFrame_;
  QString keepFollow = pendingFollow_.isEmpty() ? follow_->currentData().toString() : pendingFollow_;
  {
    QSignalBlocker block(fixedFrame_);
    fixedFrame_->clear();
    fixedFrame_->addItem(tr("(sensor frame)"), QString());
  }
  {
    QSignalBlocker block(follow_);
    follow_->clear();
    follow_->addItem(tr("follow no frame"), QString());
  }
  followed_.reset();
  auto session = document_->session();
  if (!session) return;
  auto mailbox = mailbox_;
  // All of /tf and /tf_static into a buffer, on a pool thread (they are small messages).
  startInPool([session, mailbox, keep, keepFollow, this] {
    auto buffer = readTransforms(*session);
    mailbox->post([this, buffer, session, keep, keepFollow] {
      if (session != document_->session()) return;
      tf_ = buffer;
      std::vector<std::pair<QString, QString>> frames;
      for (const auto& f : buffer->frames()) frames.emplace_back(toQt(f), toQt(f));
      {
        QSignalBlocker block(follow_);
        if (refillChoice(follow_, tr("follow no frame"), frames, keepFollow)) pendingFollow_.clear();
      }
      if (refillChoice(fixedFrame_, tr("(sensor frame)"), frames, keep) && !keep.isEmpty()) {
        pendingFrame_.clear();
        ++version_;
        frames_.clear();
        refresh();
      }
    });
  });
}

void CloudPanel::setTopic(const QString& name) {
  topic_->ask(name);
  sessionChanged();
}

QString CloudPanel::status() const { return status_->text(); }
QString CloudPanel::layerStatus() const { return layerStatus_->text(); }
// The panel's topic, also while the open recording lacks it.
QString CloudPanel::topic() const { return topic_->topic(); }

std::size_t CloudPanel::pointsDrawn() const {
  std::size_t n = 0;
  for (const auto& f : frames_) n += f.size();
  return n;
}

std::size_t CloudPanel::pointsOnScreen() const {
  auto scene = view_->lockScene();
  return static_cast<std::size_t>(scene_->cloud.data->GetNumberOfPoints());
}

// Drawing 100,000 points takes Mesa's software renderer 30-50 ms on the GUI thread: at 10x
// playback that stalls the window with every frame. While playing, a drawing over the budget
// halves the points drawn next (every 2nd, 4th, 8th), one under a third of it doubles them
// again (a drawing has a fixed part, so fewer points gain less each time: the gap keeps it
// from flipping back and forth); every point once playing stops. A GPU draws them in a few
// ms: nothing is thinned there.
void CloudPanel::paceDrawing() {
  if (!document_->isPlaying()) {
    drawEvery_ = 1;
    return;
  }
  const qint64 took = view_->lastRenderMs();
  if (took >= frameBudgetMs_ && drawEvery_ < 8) drawEvery_ *= 2;
  else if (3 * took < frameBudgetMs_ && drawEvery_ > 1) drawEvery_ /= 2;
}

void CloudPanel::refresh() {
  auto s = document_->session();
  if (!s || topic_->currentIndex() < 0) {
    // Never the points of a recording that is no longer open.
    frames_.clear();
    rebuild();
    status_->setText(topic_->noTopicText(
        s != nullptr, tr("This recording has no point cloud or laser scan topics; Layers draws its markers, "
                         "paths, poses and maps.")));
    return;
  }
  auto id = static_cast<session::TopicId>(topic_->currentData().toUInt());
  auto row = s->atOrBefore(id, document_->playheadNs());
  if (!row && !s->index(id).empty()) row = 0;
  if (!row) return;
  s->prefetch({&id, 1}, document_->playheadNs(), 1'000'000'000);
  auto session = document_->session();
  QString field = pendingField_.isEmpty() ? field_->currentText() : pendingField_;
  if (field.isEmpty()) field = QStringLiteral("intensity");
  QString fixed = fixedFrame_->currentData().toString();
  auto tf = tf_;
  // The last N messages at or before the playhead, wherever it came from, or with a decay time
  // those of its last seconds (N at most): those shown already are kept, the others read.
  const std::size_t n = static_cast<std::size_t>(accumulate_->value()), last = *row;
  std::size_t first = last + 1 >= n ? last + 1 - n : 0;
  if (decay_->value() > 0) {
    auto since = s->atOrAfter(id, document_->playheadNs() - static_cast<qint64>(decay_->value() * 1e9) + 1);
    first = std::max(first, std::min(since.value_or(last), last));
  }
  std::vector<std::size_t> missing;
  for (std::size_t r = first; r <= last; ++r)
    if (std::none_of(frames_.begin(), frames_.end(), [r](const CloudFrame& f) { return f.row == r; }))
      missing.push_back(r);
  int version = version_;
  reader_->want(
      {s.get(), static_cast<int>(id), last, version_},
      [session, id, missing, field, tf, fixed] {
        std::vector<CloudFrame> read;
        for (std::size_t r : missing) {
          read.push_back(readCloud(*session, id, r, field, tf.get(), fixed));
          read.back().row = r;
        }
        return read;
      },
      [this, version, first, last](const ReadKey&, std::vector<CloudFrame> fresh) {
        if (reader_->shown().session != document_->session().get() || version != version_) return;
        bool failed = std::any_of(fresh.begin(), fresh.end(), [](const CloudFrame& f) { return !f.error.isEmpty(); });
        showFrames(std::move(fresh), first, last);
        // Asked for with other frames at hand (N changed meanwhile): read what is still missing.
        if (!failed && frames_.size() < last - first + 1) {
          reader_->reset();
          refresh();
        }
      });
}

void CloudPanel::showFrames(std::vector<CloudFrame> fresh, std::size_t first, std::size_t last) {
  for (const auto& frame : fresh)
    if (!frame.error.isEmpty()) {
      status_->setText(frame.error);
      emit frameShown();
      return;
    }
  std::deque<CloudFrame> frames;
  for (auto& f : frames_)
    if (f.row >= first && f.row <= last) frames.push_back(std::move(f));
  for (auto& f : fresh)
    if (std::none_of(frames.begin(), frames.end(), [&](const CloudFrame& g) { return g.row == f.row; }))
      frames.push_back(std::move(f));
  std::sort(frames.begin(), frames.end(), [](const CloudFrame& a, const CloudFrame& b) { return a.row < b.row; });
  frames_ = std::move(frames);
  if (frames_.empty()) return;
  const CloudFrame& newest = frames_.back();
  // The colour choices this cloud offers, keeping the current one.
  QString current = pendingField_.isEmpty() ? field_->currentText() : pendingField_;
  if (field_->count() != newest.fields.size() || [&] {
        for (int i = 0; i < field_->count(); ++i)
          if (field_->itemText(i) != newest.fields[i]) return true;
        return false;
      }()) {
    QSignalBlocker block(field_);
    field_->clear();
    field_->addItems(newest.fields);
    int i = field_->findText(current);
    if (i < 0) i = field_->findText(QStringLiteral("intensity"));
    if (i < 0) i = field_->findText(QStringLiteral("z"));
    field_->setCurrentIndex(std::max(0, i));
    if (field_->currentText() == current) pendingField_.clear();
  }
  paceDrawing();
  rebuild();
  showStatus();
  if (!cameraSet_ && pointsDrawn() > 0) {
    resetView();
    cameraSet_ = true;
  }
  emit frameShown();
}

void CloudPanel::showStatus() {
  if (frames_.empty()) return;
  const CloudFrame& newest = frames_.back();
  qint64 origin = document_->startNs();
  status_->setText(
      tr("%1 points in %n frame(s) · %2 · stamp %3", nullptr, static_cast<int>(frames_.size()))
          .arg(pointsDrawn())
          .arg(newest.frameId.isEmpty() ? QStringLiteral("–") : newest.frameId)
          .arg(formatStamp(newest.stampNs, TimeDisplay::Relative, origin, document_->endNs())) +
      (newest.warning.isEmpty() ? QString() : QStringLiteral(" · ") + newest.warning) +
      (drawEvery_ > 1 ? QStringLiteral(" · ") + tr("1 in %1 points drawn while playing").arg(drawEvery_) : QString()));
}

void CloudPanel::rebuild() {
  auto scene = lockScene(kRebuild);
  if (!scene.owns_lock()) return;
  // Colour range over what is shown, unless the user fixed it.
  double low = range_->low(), high = range_->high();
  if (range_->autoRange()) {
    low = std::numeric_limits<double>::infinity();
    high = -low;
    for (const auto& f : frames_)
      for (double v : f.values)
        if (std::isfinite(v)) low = std::min(low, v), high = std::max(high, v);
    if (!std::isfinite(low)) low = 0, high = 1;
    range_->showAutoRange(low, high);
  }
  // The colour bar: the map over [low, high], titled by the field (hidden for true colour).
  const bool colourByField = !frames_.empty() && frames_.back().rgb.empty() && high > low;
  scene_->colourBar->SetVisibility(colourByField);
  if (colourByField) {
    scene_->colourTable->SetNumberOfTableValues(256);
    for (int i = 0; i < 256; ++i) {
      QColor c = colourAt(range_->map(), i / 255.0);
      scene_->colourTable->SetTableValue(i, c.redF(), c.greenF(), c.blueF(), 1.0);
    }
    scene_->colourTable->SetRange(low, high);
    scene_->colourBar->SetTitle(field_->currentText().toUtf8().constData());
  }
  std::vector<float> xyz;
  std::vector<std::uint8_t> rgb;
  xyz.reserve(3 * pointsDrawn());
  rgb.resize(3 * pointsDrawn());
  std::size_t at = 0;
  ColourMap map = range_->map();
  for (const auto& f : frames_) {
    xyz.insert(xyz.end(), f.xyz.begin(), f.xyz.end());
    cloudColours(f, map, low, high, std::span(rgb).subspan(3 * at, 3 * f.size()));
    at += f.size();
  }
  if (drawEvery_ > 1) {  // thinned in place: every k-th point and its colour
    const std::size_t k = static_cast<std::size_t>(drawEvery_), n = xyz.size() / 3;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; i += k, ++kept)
      for (std::size_t c = 0; c < 3; ++c) {
        xyz[3 * kept + c] = xyz[3 * i + c];
        rgb[3 * kept + c] = rgb[3 * i + c];
      }
    xyz.resize(3 * kept);
    rgb.resize(3 * kept);
  }
  fill(scene_->cloud.data, xyz, rgb, false);
  sceneLogTimeNs_ = frames_.empty() ? 0 : frames_.back().logTimeNs;
  // Axes of the fixed frame (1 m) and a triad for every TF frame at the playhead.
  Lines axes;
  axes.add({0, 0, 0}, {1, 0, 0}, Qt::red);
  axes.add({0, 0, 0}, {0, 1, 0}, Qt::green);
  axes.add({0, 0, 0}, {0, 0, 1}, QColor(60, 110, 255));
  QString fixed = fixedFrame_->currentData().toString();
  if (triads_->isChecked() && tf_ && !fixed.isEmpty()) {
    for (const auto& name : tf_->frames()) {
      auto t = tf_->lookup(fixed.toStdString(), name, document_->playheadNs());
      if (!t || toQt(name) == fixed) continue;
      auto o = t->apply({0, 0, 0});
      axes.add(o, t->apply({0.3, 0, 0}), Qt::red);
      axes.add(o, t->apply({0, 0.3, 0}), Qt::green);
      axes.add(o, t->apply({0, 0, 0.3}), QColor(60, 110, 255));
    }
  }
  fill(scene_->axes.data, axes.xyz, axes.rgb, true);
  view_->render();  // the layers below may be unchanged, and render nothing themselves
  rebuildLayers();
}

void CloudPanel::rebuildLayers() {
  QString fixed = fixedFrame_->currentData().toString();
  // Drawn once per playhead and settings: the cloud's arrival after a step asks again.
  auto key = std::tuple{document_->playheadNs(), fixed, layersVersion_, tf_.get()};
  if (key == layersBuilt_) return;
  auto scene = lockScene(kLayers);
  if (!scene.owns_lock()) return;
  layersBuilt_ = key;
  layerNotes_.clear();
  auto parts = layers_->geometryAt(document_->playheadNs(), tf_.get(), fixed.toStdString(), layerNotes_);
  vtkRenderer* renderer = view_->renderer();
  while (scene_->layers.size() < parts.size()) {
    auto& added = *scene_->layers.emplace_back(std::make_unique<Scene::LayerActors>());
    for (Drawn* d : {&added.shapes, &added.lines, &added.points}) renderer->AddActor(d->actor);
  }
  layerTriangles_ = layerPoints_ = 0;
  std::vector<const scene::Geometry::Label*> labels;
  for (std::size_t i = 0; i < scene_->layers.size(); ++i) {
    auto& actors = *scene_->layers[i];
    static const scene::Geometry kNone;
    const scene::Geometry& g = i < parts.size() ? parts[i].geometry : kNone;
    fillRgba(actors.shapes.data, g.triangles, g.triangleColours, 3);
    fillRgba(actors.lines.data, g.lines, g.lineColours, 2);
    fillRgba(actors.points.data, g.points, g.pointColours, 1);
    if (i < parts.size()) {
      actors.lines.actor->GetProperty()->SetLineWidth(parts[i].lineWidth);
      actors.points.actor->GetProperty()->SetPointSize(parts[i].pointSize);
    }
    layerTriangles_ += g.triangleCount();
    layerPoints_ += g.points.size() / 3;
    for (const auto& l : g.labels) labels.push_back(&l);
  }
  // Labels: actors kept and reused (making one costs more than moving it), the first 200.
  const std::size_t shown = std::min<std::size_t>(labels.size(), 200);
  while (scene_->labels.size() < shown) {
    vtkNew<vtkBillboardTextActor3D> text;
    text->GetTextProperty()->SetFontSize(14);
    text->GetTextProperty()->SetJustificationToCentered();
    renderer->AddActor(text);
    scene_->labels.emplace_back(text.Get());
  }
  for (std::size_t i = 0; i < scene_->labels.size(); ++i) {
    auto& text = scene_->labels[i];
    text->SetVisibility(i < shown);
    if (i >= shown) continue;
    const auto& l = *labels[i];
    if (std::string(text->GetInput() ? text->GetInput() : "") != l.text) text->SetInput(l.text.c_str());
    text->SetPosition(l.position[0], l.position[1], l.position[2]);
    text->GetTextProperty()->SetColor(l.colour.r, l.colour.g, l.colour.b);
  }
  // What the layers could not draw, in view under the cloud's status.
  layerStatus_->setText(layerNotes_.join(QLatin1Char('\n')));
  layerStatus_->setVisible(!layerNotes_.isEmpty());
  view_->render();
}

// The scene's lock (vtk_view.hpp). While playing, none if a frame is being drawn: `change`
// is then made once it is shown, and the GUI thread never waits for the render thread.
std::unique_lock<std::recursive_mutex> CloudPanel::lockScene(int change) {
  auto lock = document_->isPlaying() ? view_->tryLockScene() : view_->lockScene();
  if (!lock.owns_lock()) putOff_ |= change;
  return lock;
}

QMenu* CloudPanel::layersMenu() {
  auto* menu = new QMenu(this);
  // Filled when it opens: the recording's topics the scene draws, and the markers' namespaces.
  connect(menu, &QMenu::aboutToShow, this, [this, menu] {
    menu->clear();
    QStringList chosen = layers_->topics();
    for (const auto& t : document_->topics()) {
      if (!SceneLayers::drawable(t.type) || t.name == topic()) continue;
      QAction* a = menu->addAction(QStringLiteral("%1  (%2)").arg(t.name, t.type));
      a->setCheckable(true);
      a->setChecked(chosen.contains(t.name));
      connect(a, &QAction::toggled, this, [this, name = t.name](bool on) {
        QStringList now = layers_->topics();
        if (on) now << name;
        else now.removeAll(name);
        setLayers(now);
      });
    }
    if (menu->isEmpty()) menu->addAction(tr("This recording has no markers, paths, poses or maps."))->setEnabled(false);
    menu->addSeparator();
    QAction* settings = menu->addAction(tr("Layer Settings…"));
    settings->setEnabled(!layers_->topics().isEmpty());
    connect(settings, &QAction::triggered, this, [this] { showLayerSettings(); });
    auto spaces = layers_->namespaces();
    if (spaces.empty()) return;
    QMenu* ns = menu->addMenu(tr("Namespaces and Entities"));
    constexpr std::size_t kListed = 100;  // a scene of many entities: the first ones
    std::size_t listed = 0;
    for (const auto& name : spaces) {
      if (listed++ == kListed) {
        ns->addAction(tr("… and %n more", nullptr, static_cast<int>(spaces.size() - kListed)))->setEnabled(false);
        break;
      }
      QAction* a = ns->addAction(name.empty() ? tr("(no namespace)") : toQt(name));
      a->setCheckable(true);
      a->setChecked(!layers_->hiddenNamespaces().count(name));
      connect(a, &QAction::toggled, this, [this, name](bool on) {
        auto hidden = layers_->hiddenNamespaces();
        if (on) hidden.erase(name);
        else hidden.insert(name);
        layers_->setHiddenNamespaces(hidden);
        ++layersVersion_;
        rebuildLayers();
      });
    }
  });
  return menu;
}

void CloudPanel::setLayers(const QStringList& topics) {
  layers_->setTopics(topics, document_->session());
  ++layersVersion_;
  rebuildLayers();
}

QStringList CloudPanel::layers() const { return layers_->topics(); }

void CloudPanel::setLayerLook(const QString& topic, const LayerLook& look) {
  layers_->setLook(topic, look);
  ++layersVersion_;
  rebuildLayers();
}

QDialog* CloudPanel::showLayerSettings() {
  auto* dialog = new LayerSettingsDialog(
      layers_,
      [this] {
        ++layersVersion_;
        rebuildLayers();
      },
      this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->show();
  return dialog;
}

QString CloudPanel::colourBarText() const {
  auto scene = view_->lockScene();
  if (!scene_->colourBar->GetVisibility()) return {};
  const double* r = scene_->colourTable->GetRange();
  return QStringLiteral("%1 %2 – %3").arg(QString::fromUtf8(scene_->colourBar->GetTitle())).arg(r[0]).arg(r[1]);
}
std::size_t CloudPanel::layerItemsDrawn() const { return layers_->itemsDrawn(); }

void CloudPanel::setHiddenNamespaces(const QStringList& namespaces) {
  std::set<std::string> hidden;
  for (const auto& n : namespaces) hidden.insert(n.toStdString());
  layers_->setHiddenNamespaces(hidden);
  ++layersVersion_;
  rebuildLayers();
}

void CloudPanel::saveFrame(const QString& path) {
  if (!document_->session() || frames_.empty() || topic_->currentIndex() < 0)
    return emit saved(path, tr("%1: no cloud is shown").arg(path));
  saveMessage(this, document_->session(), topic(), frames_.back().logTimeNs, path);
}

void CloudPanel::resetView() { lookFrom({-12, -12, 9}, {0, 0, 1}); }

// The camera keeps its place relative to the followed frame: it moves by as much as the
// frame's origin moved in the fixed frame since the last playhead (RViz's target frame).
void CloudPanel::followFrame() {
  const QString frame = follow_->currentData().toString(), fixed = fixedFrame_->currentData().toString();
  if (!tf_ || frame.isEmpty() || fixed.isEmpty()) return followed_.reset();
  auto t = tf_->lookup(fixed.toStdString(), frame.toStdString(), document_->playheadNs());
  if (!t) return followed_.reset();
  const auto origin = t->apply({0, 0, 0});
  auto scene = lockScene(kFollow);
  if (!scene.owns_lock()) return;
  vtkCamera* c = view_->renderer()->GetActiveCamera();
  double focal[3], position[3];
  c->GetFocalPoint(focal);
  c->GetPosition(position);
  // At first the camera looks at the frame; then it moves with it.
  const auto from = followed_.value_or(std::array<double, 3>{focal[0], focal[1], focal[2]});
  for (int i = 0; i < 3; ++i) {
    focal[i] += origin[i] - from[i];
    position[i] += origin[i] - from[i];
  }
  c->SetFocalPoint(focal);
  c->SetPosition(position);
  view_->renderer()->ResetCameraClippingRange();
  followed_ = origin;
  view_->render();
}
void CloudPanel::topView() { lookFrom({0, 0, 30}, {0, 1, 0}); }
void CloudPanel::sideView() { lookFrom({0, -30, 0}, {0, 0, 1}); }

void CloudPanel::lookFrom(std::array<double, 3> position, std::array<double, 3> up) {
  auto scene = view_->lockScene();
  vtkRenderer* r = view_->renderer();
  vtkCamera* c = r->GetActiveCamera();
  c->SetFocalPoint(0, 0, 0);
  c->SetPosition(position.data());
  c->SetViewUp(up.data());
  // Framed on what is drawn — the clouds, the layers, the frames — not on the grid, unless
  // nothing else is there, nor on the labels: a billboard's bounds are its last drawing's
  // pixels seen from the last camera (none before it is drawn), not a place in the scene.
  const bool grid = scene_->grid.actor->GetVisibility();
  scene_->grid.actor->SetVisibility(false);
  std::vector<vtkTypeBool> labelled;
  for (auto& label : scene_->labels) labelled.push_back(label->GetVisibility()), label->SetVisibility(false);
  double bounds[6];
  r->ComputeVisiblePropBounds(bounds);
  scene_->grid.actor->SetVisibility(grid);
  for (std::size_t i = 0; i < labelled.size(); ++i) scene_->labels[i]->SetVisibility(labelled[i]);
  if (bounds[0] > bounds[1]) scene_->grid.data->GetBounds(bounds);
  r->ResetCamera(bounds);
  followed_.reset();
  followFrame();
  view_->render();
}

QJsonObject CloudPanel::saveSettings() const {
  QJsonObject s{{QStringLiteral("topic"), topic()},
                {QStringLiteral("field"), field_->currentText()},
                {QStringLiteral("pointSize"), pointSize_->value()},
                {QStringLiteral("accumulate"), accumulate_->value()},
                {QStringLiteral("decaySeconds"), decay_->value()},
                {QStringLiteral("fixedFrame"), fixedFrame_->currentData().toString()},
                {QStringLiteral("followFrame"), follow_->currentData().toString()},
                {QStringLiteral("grid"), grid_->isChecked()},
                {QStringLiteral("tfFrames"), triads_->isChecked()},
                {QStringLiteral("layers"), QJsonArray::fromStringList(layers_->topics())}};
  QJsonArray hidden;
  for (const auto& n : layers_->hiddenNamespaces()) hidden.append(toQt(n));
  s.insert(QStringLiteral("hiddenNamespaces"), hidden);
  QJsonObject looks;  // only those set: a layout stays short
  for (const auto& [topic, look] : layers_->looks()) {
    QJsonObject l{{QStringLiteral("visible"), look.visible}, {QStringLiteral("size"), look.size}};
    if (look.colour.isValid()) l.insert(QStringLiteral("colour"), look.colour.name());
    if (look.costmap) l.insert(QStringLiteral("costmap"), true);
    looks.insert(topic, l);
  }
  s.insert(QStringLiteral("layerLooks"), looks);
  range_->save(s);
  return s;
}

void CloudPanel::restoreSettings(const QJsonObject& s) {
  range_->restore(s);
  pointSize_->setValue(s.value(QStringLiteral("pointSize")).toInt(2));
  accumulate_->setValue(s.value(QStringLiteral("accumulate")).toInt(1));
  decay_->setValue(s.value(QStringLiteral("decaySeconds")).toDouble(0));
  grid_->setChecked(s.value(QStringLiteral("grid")).toBool(true));
  triads_->setChecked(s.value(QStringLiteral("tfFrames")).toBool(true));
  pendingField_ = s.value(QStringLiteral("field")).toString();
  pendingFrame_ = s.value(QStringLiteral("fixedFrame")).toString();
  pendingFollow_ = s.value(QStringLiteral("followFrame")).toString();
  QStringList hidden;
  for (const auto& n : s.value(QStringLiteral("hiddenNamespaces")).toArray()) hidden << n.toString();
  setHiddenNamespaces(hidden);
  const QJsonObject looks = s.value(QStringLiteral("layerLooks")).toObject();
  for (auto it = looks.begin(); it != looks.end(); ++it) {
    const QJsonObject l = it.value().toObject();
    LayerLook look;
    look.visible = l.value(QStringLiteral("visible")).toBool(true);
    look.size = std::max(0.0, l.value(QStringLiteral("size")).toDouble(0));
    if (l.contains(QStringLiteral("colour"))) look.colour = QColor(l.value(QStringLiteral("colour")).toString());
    look.costmap = l.value(QStringLiteral("costmap")).toBool(false);
    layers_->setLook(it.key(), look);
  }
  QStringList layers;
  for (const auto& l : s.value(QStringLiteral("layers")).toArray()) layers << l.toString();
  layers_->setTopics(layers, nullptr);  // read when the topic is set, below
  setTopic(s.value(QStringLiteral("topic")).toString());
}

}  // namespace bagscope::widgets
