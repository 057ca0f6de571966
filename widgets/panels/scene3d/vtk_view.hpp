#pragma once
// VtkView: VTK rendering inside a Qt 6 QOpenGLWidget (Debian's VTK Qt module is built for
// Qt 5). The approach of VTK's own QVTKOpenGLNativeWidget: a vtkGenericOpenGLRenderWindow
// that uses the widget's context (make-current / is-current / frame observers), renders
// into its own framebuffer, and is blitted into the widget's framebuffer in paintGL. Mouse
// and wheel events go to a trackball-camera interactor in device pixels.
//
// Only widgets/*.cpp that draw with VTK include this; it names VTK types by declaration.

#include <QOpenGLWidget>
#include <QPointF>
#include <QSurfaceFormat>

#include <array>
#include <memory>

class vtkRenderer;

namespace bagscope::widgets {

class VtkView : public QOpenGLWidget {
  Q_OBJECT

public:
  /// OpenGL 3.2 core, what VTK needs: set as the default before QApplication exists.
  static QSurfaceFormat defaultFormat();

  explicit VtkView(QWidget* parent = nullptr);
  ~VtkView() override;

  vtkRenderer* renderer() const;
  /// Schedules a render (after scene changes).
  void render() { update(); }
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

protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  void wheelEvent(QWheelEvent*) override;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bagscope::widgets
