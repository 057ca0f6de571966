#pragma once
// VtkView: VTK rendering in a Qt 6 widget (Debian's VTK Qt module is built for Qt 5). A
// vtkGenericOpenGLRenderWindow renders into its own framebuffer, in an OpenGL context of the
// view's own on an offscreen surface, on a thread of the view's own; the frame is read back
// into an image that the widget paints. So the GUI thread never waits for a frame: a
// software renderer (Mesa's llvmpipe: remote desktops, VMs, CI) takes 20-50 ms for a
// 100,000-point cloud. Renders asked for while one is drawn become one render after it
// (the newest scene wins; none queue). Not a QOpenGLWidget either: one of those makes Qt
// compose the whole window through OpenGL at every repaint of any widget in it.
//
// VTK is not thread-safe: whoever touches the scene (the renderer, its actors, their data,
// the camera) holds lockScene() meanwhile; the render thread holds it while it renders.
// Mouse and wheel events go to a trackball-camera interactor in device pixels.
//
// Only widgets/*.cpp that draw with VTK include this; it names VTK types by declaration.

#include <QImage>
#include <QPointF>
#include <QWidget>

#include <array>
#include <memory>
#include <mutex>

class vtkRenderer;

namespace bagscope::widgets {

class VtkView : public QWidget {
  Q_OBJECT

public:
  explicit VtkView(QWidget* parent = nullptr);
  ~VtkView() override;

  /// The scene's lock: held while the render thread draws (one frame at most). Recursive.
  using SceneLock = std::unique_lock<std::recursive_mutex>;
  [[nodiscard]] SceneLock lockScene() const;
  /// The lock if no frame is being drawn, else an unowned one (check owns_lock()).
  [[nodiscard]] SceneLock tryLockScene() const;
  vtkRenderer* renderer() const;
  /// Asks for a frame (after scene changes): drawn on the render thread, at once or after
  /// the one being drawn; asks made meanwhile become one.
  void render();
  /// The scene as it is now, drawn if it changed since the last frame (tests). Waits.
  QImage frame();
  /// Zooms by `factor` (> 1: closer) toward the point under `at` (widget pixels), which stays
  /// under it, as the wheel does (RViz, Foxglove): the trackball's own wheel zoom aims at the
  /// centre only.
  void zoomAt(QPointF at, double factor);
  /// Where world point `p` shows in the widget (pixels from the top left).
  QPointF toWidget(const std::array<double, 3>& p) const;
  /// The world point under `at` on the camera's focal plane.
  std::array<double, 3> underPointer(QPointF at) const;
  std::array<double, 3> focalPoint() const;
  std::array<double, 3> cameraPosition() const;
  /// How long VTK took to draw the last frame (ms): on a software renderer, a 100,000-point
  /// cloud takes tens of milliseconds, and the panel thins what it draws while playing.
  qint64 lastRenderMs() const;

signals:
  /// A frame was drawn and is shown: scene changes put off while it was drawn can be made.
  void rendered();

protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void showEvent(QShowEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bagscope::widgets
