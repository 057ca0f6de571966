#include "widgets/panels/scene3d/vtk_view.hpp"

#include <QElapsedTimer>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>
#include <QWheelEvent>

#include <cmath>

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
#include <vtkSmartPointer.h>

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

}  // namespace

struct VtkView::Impl {
  VtkView* widget = nullptr;
  vtkNew<vtkGenericOpenGLRenderWindow> window;
  vtkNew<vtkRenderer> renderer;
  vtkNew<vtkGenericRenderWindowInteractor> interactor;
  vtkNew<vtkInteractorStyleTrackballCamera> style;
  vtkNew<vtkCallbackCommand> observer;
  bool ready = false;
  qint64 lastRenderMs = 0;

  // VTK asks about and for the widget's context, and says when a frame is done.
  static void onEvent(vtkObject*, unsigned long event, void* self, void* callData) {
    auto* impl = static_cast<Impl*>(self);
    QOpenGLContext* context = impl->widget->context();
    switch (event) {
      case vtkCommand::WindowMakeCurrentEvent:
        // The context alone: QOpenGLWidget::makeCurrent() would also bind the widget's
        // framebuffer behind VTK's back while VTK is filling its own.
        if (context && QOpenGLContext::currentContext() != context) context->makeCurrent(context->surface());
        break;
      case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = context && QOpenGLContext::currentContext() == context;
        break;
      case vtkCommand::RenderEvent:  // the interactor wants a new frame (camera moved)
        impl->widget->update();
        break;
      default: break;
    }
  }

  double dpr() const { return widget->devicePixelRatioF(); }
  void setEventPosition(const QPointF& p, Qt::KeyboardModifiers m) {
    interactor->SetEventInformationFlipY(static_cast<int>(p.x() * dpr()), static_cast<int>(p.y() * dpr()),
                                         (m & Qt::ControlModifier) ? 1 : 0, (m & Qt::ShiftModifier) ? 1 : 0);
  }
};

QSurfaceFormat VtkView::defaultFormat() {
  QSurfaceFormat f;
  f.setRenderableType(QSurfaceFormat::OpenGL);
  f.setVersion(3, 2);
  f.setProfile(QSurfaceFormat::CoreProfile);
  f.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
  f.setRedBufferSize(8);
  f.setGreenBufferSize(8);
  f.setBlueBufferSize(8);
  f.setAlphaBufferSize(8);
  f.setDepthBufferSize(24);
  f.setStencilBufferSize(0);
  f.setSamples(0);
  return f;
}

VtkView::VtkView(QWidget* parent) : QOpenGLWidget(parent), impl_(std::make_unique<Impl>()) {
  impl_->widget = this;
  setMinimumSize(200, 150);
  setFocusPolicy(Qt::StrongFocus);
  impl_->window->AddRenderer(impl_->renderer);
  impl_->observer->SetClientData(impl_.get());
  impl_->observer->SetCallback(&Impl::onEvent);
  for (auto event : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent})
    impl_->window->AddObserver(event, impl_->observer);
  // The interactor does not render by itself: it asks (RenderEvent) and paintGL renders.
  impl_->interactor->SetRenderWindow(impl_->window);
  impl_->interactor->SetInteractorStyle(impl_->style);
  impl_->interactor->EnableRenderOff();
  impl_->interactor->AddObserver(vtkCommand::RenderEvent, impl_->observer);
  impl_->window->SetReadyForRendering(false);
  // The frame stays in VTK's framebuffer; paintGL copies it into the widget's.
  impl_->window->SetFrameBlitModeToNoBlit();
  impl_->window->SetMultiSamples(0);  // Mesa's software renderer has no multisampled FBOs
}

VtkView::~VtkView() {
  if (context()) disconnect(context(), nullptr, this, nullptr);  // it dies after us: no release then
  makeCurrent();                                                 // VTK releases its GL resources in our context
  impl_->window->Finalize();
  doneCurrent();
}

vtkRenderer* VtkView::renderer() const { return impl_->renderer; }

qint64 VtkView::lastRenderMs() const { return impl_->lastRenderMs; }

void VtkView::initializeGL() {
  auto& w = *impl_->window;
  // Floating or docking the panel moves the widget to another window: Qt destroys this
  // context and makes a new one (initializeGL again). VTK's buffers, shaders and textures
  // belong to the old one: release them there, and VTK makes them anew in the new one.
  connect(
      context(), &QOpenGLContext::aboutToBeDestroyed, this,
      [this] {
        makeCurrent();
        impl_->window->ReleaseGraphicsResources(impl_->window);
        impl_->ready = false;
        doneCurrent();
      },
      Qt::DirectConnection);
  w.SetOwnContext(false);
  w.SetForceMaximumHardwareLineWidth(1);
  w.SetReadyForRendering(true);
  w.OpenGLInitContext();
  if (!impl_->interactor->GetInitialized()) impl_->interactor->Initialize();
  impl_->ready = true;
  resizeGL(width(), height());
}

void VtkView::resizeGL(int w, int h) {
  auto dpr = devicePixelRatioF();
  int dw = static_cast<int>(w * dpr), dh = static_cast<int>(h * dpr);
  impl_->interactor->UpdateSize(dw, dh);
  impl_->window->SetSize(dw, dh);
}

void VtkView::paintGL() {
  if (!impl_->ready) return;
  // Qt bound its own framebuffer since VTK last looked: VTK re-reads the GL state it
  // caches, and puts it back afterwards.
  impl_->window->GetState()->Reset();
  impl_->window->GetState()->Push();
  QElapsedTimer drawing;
  drawing.start();
  impl_->window->Render();
  impl_->lastRenderMs = drawing.elapsed();
  impl_->window->GetState()->Pop();
  makeCurrent();  // rendering may have switched contexts
  // VTK drew into its own framebuffer: copy it into the widget's.
  auto* f = context()->extraFunctions();
  f->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
  const GLenum buffers[1] = {GL_COLOR_ATTACHMENT0};
  f->glDrawBuffers(1, buffers);
  f->glDisable(GL_SCISSOR_TEST);
  int* size = impl_->window->GetRenderFramebuffer()->GetLastSize();
  int dw = static_cast<int>(width() * devicePixelRatioF()), dh = static_cast<int>(height() * devicePixelRatioF());
  impl_->window->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, dw, dh, GL_COLOR_BUFFER_BIT, GL_LINEAR);
  // VTK leaves alpha as it rendered it (0 for the background); Qt composes the widget with
  // its alpha, so make it opaque or the view shows through as black (Mesa).
  GLboolean mask[4];
  f->glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  f->glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
  f->glClearColor(0, 0, 0, 1);
  f->glViewport(0, 0, dw, dh);
  f->glClear(GL_COLOR_BUFFER_BIT);
  f->glColorMask(mask[0], mask[1], mask[2], mask[3]);
}

void VtkView::mousePressEvent(QMouseEvent* e) {
  impl_->setEventPosition(e->position(), e->modifiers());
  if (auto event = buttonEvent(e->button(), true)) impl_->interactor->InvokeEvent(event);
}

void VtkView::mouseMoveEvent(QMouseEvent* e) {
  impl_->setEventPosition(e->position(), e->modifiers());
  impl_->interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
}

void VtkView::mouseReleaseEvent(QMouseEvent* e) {
  impl_->setEventPosition(e->position(), e->modifiers());
  if (auto event = buttonEvent(e->button(), false)) impl_->interactor->InvokeEvent(event);
}

void VtkView::wheelEvent(QWheelEvent* e) {
  if (e->angleDelta().y() == 0) return;
  zoomAt(e->position(), std::pow(1.1, e->angleDelta().y() / 120.0));  // one notch: 10 %
}

QPointF VtkView::toWidget(const std::array<double, 3>& p) const {
  vtkRenderer* r = impl_->renderer;
  r->SetWorldPoint(p[0], p[1], p[2], 1.0);
  r->WorldToDisplay();
  double d[3];
  r->GetDisplayPoint(d);
  return {d[0] / impl_->dpr(), height() - d[1] / impl_->dpr()};  // display y grows upwards
}

std::array<double, 3> VtkView::underPointer(QPointF at) const {
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
  std::array<double, 3> p{};
  impl_->renderer->GetActiveCamera()->GetFocalPoint(p.data());
  return p;
}

std::array<double, 3> VtkView::cameraPosition() const {
  std::array<double, 3> p{};
  impl_->renderer->GetActiveCamera()->GetPosition(p.data());
  return p;
}

void VtkView::zoomAt(QPointF at, double factor) {
  if (factor <= 0 || width() <= 0 || height() <= 0) return;
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
