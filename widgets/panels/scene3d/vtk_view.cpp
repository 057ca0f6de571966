#include "widgets/panels/scene3d/vtk_view.hpp"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QPainter>
#include <QThread>
#include <QWheelEvent>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <optional>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>

namespace bagscope::widgets {
namespace {

// The interactor's event for pressing or releasing a mouse button; 0 (none) for other buttons.
unsigned long buttonEvent(Qt::MouseButton button, bool press) {
  switch (button) {
    case Qt::LeftButton: return press ? vtkCommand::LeftButtonPressEvent : vtkCommand::LeftButtonReleaseEvent;
    case Qt::MiddleButton: return press ? vtkCommand::MiddleButtonPressEvent : vtkCommand::MiddleButtonReleaseEvent;
    case Qt::RightButton: return press ? vtkCommand::RightButtonPressEvent : vtkCommand::RightButtonReleaseEvent;
    default: return vtkCommand::NoEvent;
  }
}

// OpenGL 3.2 core, what VTK needs; no multisampling (Mesa's software renderer has none).
QSurfaceFormat vtkFormat() {
  QSurfaceFormat f;
  f.setRenderableType(QSurfaceFormat::OpenGL);
  f.setVersion(3, 2);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setRedBufferSize(8);
  f.setGreenBufferSize(8);
  f.setBlueBufferSize(8);
  f.setAlphaBufferSize(8);
  f.setDepthBufferSize(24);
  f.setStencilBufferSize(0);
  f.setSamples(0);
  return f;
}

// One view renders at a time: VTK's text rendering keeps process-wide caches (FreeType's
// faces, the text renderer), which two views' threads must not use at once.
std::mutex& renderingMutex() {
  static std::mutex m;
  return m;
}

}  // namespace

struct VtkView::Impl {
  VtkView* widget = nullptr;
  // Declared before VTK's objects, which are released in the context before it goes.
  QOffscreenSurface surface;                // made on the GUI thread, drawn to by the render thread
  QThread thread;                           // the render thread
  std::unique_ptr<QOpenGLContext> context;  // lives on `thread` once made
  mutable std::recursive_mutex scene;       // see lockScene()
  vtkNew<vtkGenericOpenGLRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkGenericRenderWindowInteractor> interactor;
  vtkNew<vtkInteractorStyleTrackballCamera> style;
  vtkNew<vtkCallbackCommand> observer;

  // The GUI thread's.
  bool noGl = false;     // no OpenGL 3.2 context could be made
  bool wanted = true;    // the scene changed since the frame being drawn or shown was asked for
  bool drawing = false;  // a frame is being drawn
  QSize drawnAt;         // the device pixels the last frame asked for was drawn at
  QImage frame;          // the frame shown
  // Handed from the render thread to the GUI thread: the frame drawn.
  struct Drawn {
    QImage image;         // null for an empty widget
    bool failed = false;  // no OpenGL 3.2 context
  };
  std::mutex doneMutex;
  std::condition_variable doneChanged;
  std::optional<Drawn> done;
  std::atomic<qint64> lastRenderMs{0};
  // The render thread's.
  bool made = false;    // the context was made (or could not be)
  bool usable = false;  // and can be used
  bool ready = false;   // VTK set up in it

  // VTK asks about and for the context (on the render thread), and the interactor for a new
  // frame (on the GUI thread).
  static void onEvent(vtkObject*, unsigned long event, void* self, void* callData) {
    auto* impl = static_cast<Impl*>(self);
    QOpenGLContext* context = impl->context.get();
    switch (event) {
      case vtkCommand::WindowMakeCurrentEvent:
        if (context && QOpenGLContext::currentContext() != context) context->makeCurrent(&impl->surface);
        break;
      case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = context && QOpenGLContext::currentContext() == context;
        break;
      case vtkCommand::RenderEvent: impl->widget->render(); break;
      default: break;
    }
  }

  double dpr() const { return widget->devicePixelRatioF(); }
  QSize devicePixels() const {
    return {static_cast<int>(widget->width() * dpr()), static_cast<int>(widget->height() * dpr())};
  }
  void setEventPosition(const QPointF& p, Qt::KeyboardModifiers m) {
    interactor->SetEventInformationFlipY(static_cast<int>(p.x() * dpr()), static_cast<int>(p.y() * dpr()),
                                         (m & Qt::ControlModifier) ? 1 : 0, (m & Qt::ShiftModifier) ? 1 : 0);
  }

  // GUI thread: draws the scene as it is now on the render thread, unless a frame is being
  // drawn (then wanted stays set, and take() asks again).
  void start() {
    if (drawing || noGl) return;
    if (!context) {  // the first frame: the surface, and the context on a thread of its own
      surface.setFormat(vtkFormat());
      surface.create();
      if (!surface.isValid()) {
        noGl = true;
        widget->update();
        return;
      }
      context = std::make_unique<QOpenGLContext>();
      context->setFormat(vtkFormat());
      context->moveToThread(&thread);
      thread.setObjectName(QStringLiteral("3D view"));
      thread.start(QThread::LowPriority);
    }
    drawing = true;
    wanted = false;
    const QSize size = drawnAt = devicePixels();
    const double ratio = dpr();
    QMetaObject::invokeMethod(
        context.get(), [this, size, ratio] { draw(size, ratio); }, Qt::QueuedConnection);
  }

  // Render thread: renders the scene at `size` and reads the frame back for take().
  void draw(QSize size, double ratio) {
    Drawn drawn;
    {
      VtkView::SceneLock lock(scene);
      std::lock_guard<std::mutex> alone(renderingMutex());
      if (!made) {
        made = true;
        // Below the GUI thread, which must win a core when both want one; a software
        // renderer's threads, made with the context, inherit it. (QThread's priorities do
        // this elsewhere; on Linux they leave the nice value as it is.)
#ifdef __linux__
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 5);
#endif
        usable = context->create();
      }
      drawn.failed = !usable || !context->makeCurrent(&surface);
      if (!drawn.failed && !size.isEmpty()) drawn.image = renderAndRead(size, ratio);
    }
    {
      std::lock_guard<std::mutex> lock(doneMutex);
      done = std::move(drawn);
    }
    doneChanged.notify_all();
    QMetaObject::invokeMethod(
        widget, [this] { take(true); }, Qt::QueuedConnection);
  }

  QImage renderAndRead(QSize size, double ratio) {
    if (!ready) {
      window->SetOwnContext(false);
      window->SetForceMaximumHardwareLineWidth(1);
      window->SetReadyForRendering(true);
      window->OpenGLInitContext();
      if (!interactor->GetInitialized()) interactor->Initialize();
      ready = true;
    }
    interactor->UpdateSize(size.width(), size.height());
    window->SetSize(size.width(), size.height());
    // VTK re-reads the GL state it caches (ours since it last drew), and puts it back after.
    window->GetState()->Reset();
    window->GetState()->Push();
    QElapsedTimer timer;
    timer.start();
    window->Render();
    lastRenderMs = timer.elapsed();
    window->GetState()->Pop();
    context->makeCurrent(&surface);  // rendering may have switched contexts
    // The frame is in VTK's display framebuffer. VTK leaves alpha as it rendered it (0 for
    // the background): make it opaque, then read the rows (bottom up) into the image.
    auto* f = context->extraFunctions();
    vtkOpenGLFramebufferObject* drawn = window->GetDisplayFramebuffer();
    const int w = std::min(drawn->GetLastSize()[0], size.width()), h = std::min(drawn->GetLastSize()[1], size.height());
    f->glBindFramebuffer(GL_FRAMEBUFFER, drawn->GetFBOIndex());
    f->glDisable(GL_SCISSOR_TEST);
    const GLenum buffers[1] = {GL_COLOR_ATTACHMENT0};
    f->glDrawBuffers(1, buffers);
    f->glReadBuffer(GL_COLOR_ATTACHMENT0);
    f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    f->glClearColor(0, 0, 0, 1);
    f->glViewport(0, 0, w, h);
    f->glClear(GL_COLOR_BUFFER_BIT);
    f->glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    QImage read(w, h, QImage::Format_RGBA8888);
    f->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    f->glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, read.bits());
    f->glBindFramebuffer(GL_FRAMEBUFFER, 0);
    QImage image = read.mirrored();
    image.setDevicePixelRatio(ratio);
    return image;
  }

  // GUI thread: shows the frame drawn, if there is one; then, if `next` and the scene changed
  // meanwhile, draws again. False: none was there.
  bool take(bool next) {
    std::optional<Drawn> drawn;
    {
      std::lock_guard<std::mutex> lock(doneMutex);
      drawn.swap(done);
    }
    if (!drawn) return false;
    drawing = false;
    noGl = drawn->failed;  // no OpenGL 3.2 context: said in the widget
    frame = std::move(drawn->image);
    widget->update();
    emit widget->rendered();
    if (next && wanted && widget->isVisible()) start();
    return true;
  }

  // GUI thread: waits for the frame being drawn and shows it.
  void finishDrawing() {
    std::unique_lock<std::mutex> lock(doneMutex);
    doneChanged.wait(lock, [this] { return done.has_value(); });
    lock.unlock();
    take(false);
  }
};

VtkView::VtkView(QWidget* parent) : QWidget(parent), impl_(std::make_unique<Impl>()) {
  impl_->widget = this;
  setMinimumSize(200, 150);
  setFocusPolicy(Qt::StrongFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);  // paintEvent covers the widget
  impl_->window->AddRenderer(impl_->renderer);
  impl_->observer->SetClientData(impl_.get());
  impl_->observer->SetCallback(&Impl::onEvent);
  for (auto event : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent})
    impl_->window->AddObserver(event, impl_->observer);
  // The interactor does not render by itself: it asks (RenderEvent), and render() draws.
  impl_->interactor->SetRenderWindow(impl_->window);
  impl_->interactor->SetInteractorStyle(impl_->style);
  impl_->interactor->EnableRenderOff();
  impl_->interactor->AddObserver(vtkCommand::RenderEvent, impl_->observer);
  impl_->window->SetReadyForRendering(false);
  // The frame stays in VTK's framebuffer, from where it is read.
  impl_->window->SetFrameBlitModeToNoBlit();
  impl_->window->SetMultiSamples(0);
}

VtkView::~VtkView() {
  if (!impl_->context) return;
  // After the frame being drawn: VTK releases its GL resources in the context, which goes
  // back to this thread to be deleted with the view.
  Impl* impl = impl_.get();
  QThread* here = QThread::currentThread();
  QMetaObject::invokeMethod(
      impl->context.get(),
      [impl, here] {
        SceneLock lock(impl->scene);
        std::lock_guard<std::mutex> alone(renderingMutex());
        if (impl->ready && impl->context->makeCurrent(&impl->surface)) impl->window->Finalize();
        impl->context->doneCurrent();
        impl->context->moveToThread(here);
      },
      Qt::BlockingQueuedConnection);
  impl->thread.quit();
  impl->thread.wait();
}

VtkView::SceneLock VtkView::lockScene() const { return SceneLock(impl_->scene); }
VtkView::SceneLock VtkView::tryLockScene() const { return SceneLock(impl_->scene, std::try_to_lock); }

vtkRenderer* VtkView::renderer() const { return impl_->renderer; }

qint64 VtkView::lastRenderMs() const { return impl_->lastRenderMs; }

void VtkView::render() {
  impl_->wanted = true;
  if (isVisible()) impl_->start();
}

QImage VtkView::frame() {
  for (;;) {
    if (impl_->drawing) impl_->finishDrawing();
    else if (impl_->noGl || (!impl_->wanted && impl_->drawnAt == impl_->devicePixels())) return impl_->frame;
    else impl_->start();
  }
}

void VtkView::showEvent(QShowEvent*) {
  if (impl_->wanted) impl_->start();
}

void VtkView::resizeEvent(QResizeEvent*) { render(); }

void VtkView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QImage& shown = impl_->frame;
  if (shown.isNull() || shown.deviceIndependentSize() != QSizeF(size())) painter.fillRect(rect(), QColor(31, 31, 36));
  if (!shown.isNull()) painter.drawImage(QPointF(0, 0), shown);
  else if (impl_->noGl) {
    painter.setPen(Qt::white);
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                     tr("The 3D view needs OpenGL 3.2, which this system lacks."));
  }
}

void VtkView::mousePressEvent(QMouseEvent* e) {
  auto scene = lockScene();
  impl_->setEventPosition(e->position(), e->modifiers());
  if (auto event = buttonEvent(e->button(), true)) impl_->interactor->InvokeEvent(event);
}

void VtkView::mouseMoveEvent(QMouseEvent* e) {
  auto scene = lockScene();
  impl_->setEventPosition(e->position(), e->modifiers());
  impl_->interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
}

void VtkView::mouseReleaseEvent(QMouseEvent* e) {
  auto scene = lockScene();
  impl_->setEventPosition(e->position(), e->modifiers());
  if (auto event = buttonEvent(e->button(), false)) impl_->interactor->InvokeEvent(event);
}

void VtkView::wheelEvent(QWheelEvent* e) {
  if (e->angleDelta().y() == 0) return;
  zoomAt(e->position(), std::pow(1.1, e->angleDelta().y() / 120.0));  // one notch: 10 %
}

QPointF VtkView::toWidget(const std::array<double, 3>& p) const {
  auto scene = lockScene();
  vtkRenderer* r = impl_->renderer;
  r->SetWorldPoint(p[0], p[1], p[2], 1.0);
  r->WorldToDisplay();
  double d[3];
  r->GetDisplayPoint(d);
  return {d[0] / impl_->dpr(), height() - d[1] / impl_->dpr()};  // display y grows upwards
}

std::array<double, 3> VtkView::underPointer(QPointF at) const {
  auto scene = lockScene();
  vtkRenderer* r = impl_->renderer;
  const auto focal = focalPoint();
  r->SetWorldPoint(focal[0], focal[1], focal[2], 1.0);
  r->WorldToDisplay();
  double depth[3], w[4];
  r->GetDisplayPoint(depth);
  r->SetDisplayPoint(at.x() * impl_->dpr(), (height() - at.y()) * impl_->dpr(), depth[2]);
  r->DisplayToWorld();
  r->GetWorldPoint(w);
  if (w[3] == 0) return focal;
  return {w[0] / w[3], w[1] / w[3], w[2] / w[3]};
}

std::array<double, 3> VtkView::focalPoint() const {
  auto scene = lockScene();
  std::array<double, 3> p{};
  impl_->renderer->GetActiveCamera()->GetFocalPoint(p.data());
  return p;
}

std::array<double, 3> VtkView::cameraPosition() const {
  auto scene = lockScene();
  std::array<double, 3> p{};
  impl_->renderer->GetActiveCamera()->GetPosition(p.data());
  return p;
}

void VtkView::zoomAt(QPointF at, double factor) {
  if (factor <= 0 || width() <= 0 || height() <= 0) return;
  auto scene = lockScene();
  vtkRenderer* r = impl_->renderer;
  vtkCamera* camera = r->GetActiveCamera();
  // Moving focal point and eye toward the point under the pointer by 1 - 1/factor of the
  // way, then closing the distance by `factor`, keeps that point under the pointer.
  const auto pointed = underPointer(at);
  auto focal = focalPoint(), position = cameraPosition();
  const double share = 1.0 - 1.0 / factor;
  for (std::size_t i = 0; i < 3; ++i) {
    const double shift = (pointed[i] - focal[i]) * share;
    focal[i] += shift;
    position[i] += shift;
  }
  camera->SetFocalPoint(focal.data());
  camera->SetPosition(position.data());
  if (camera->GetParallelProjection()) camera->Zoom(factor);
  else camera->Dolly(factor);
  r->ResetCameraClippingRange();
  render();
}

}  // namespace bagscope::widgets
