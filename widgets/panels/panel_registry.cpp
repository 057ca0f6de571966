#include "widgets/panels/panel_registry.hpp"

#include <QCoreApplication>

#include <algorithm>

#include "widgets/panels/diagnostics_panel.hpp"
#include "widgets/panels/image_panel.hpp"
#include "widgets/panels/log_panel.hpp"
#include "widgets/panels/map_panel.hpp"
#include "widgets/panels/messages_panel.hpp"
#include "widgets/panels/plot/plot_panel.hpp"
#include "widgets/panels/scene3d/cloud_panel.hpp"
#include "widgets/panels/tf_tree_panel.hpp"

namespace bagscope::widgets {
namespace {

template <class P>
Panel* make(Document* document) {
  return new P(document);
}

const PanelType kPanelTypes[] = {
    {PlotPanel::kKind, QT_TRANSLATE_NOOP("PanelType", "Plot"), QT_TRANSLATE_NOOP("PanelType", "New &Plot"),
     QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+P"), nullptr, make<PlotPanel>, nullptr},
    {ImagePanel::kKind, QT_TRANSLATE_NOOP("PanelType", "Image"), QT_TRANSLATE_NOOP("PanelType", "New &Image Viewer"),
     QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+I"), QT_TRANSLATE_NOOP("PanelType", "Show in Image Viewer"),
     make<ImagePanel>, ImagePanel::shows},
    {CloudPanel::kKind, QT_TRANSLATE_NOOP("PanelType", "3D View"), QT_TRANSLATE_NOOP("PanelType", "New &3D View"),
     QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+D"), QT_TRANSLATE_NOOP("PanelType", "Show in 3D View"),
     make<CloudPanel>, CloudPanel::shows},
    {LogPanel::kKind, QT_TRANSLATE_NOOP("PanelType", "Log"), QT_TRANSLATE_NOOP("PanelType", "New &Log"),
     QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+L"), QT_TRANSLATE_NOOP("PanelType", "Show in Log"), make<LogPanel>,
     LogPanel::shows},
    {DiagnosticsPanel::kKind, QT_TRANSLATE_NOOP("PanelType", "Diagnostics"),
     QT_TRANSLATE_NOOP("PanelType", "New Dia&gnostics"), QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+G"),
     QT_TRANSLATE_NOOP("PanelType", "Show in Diagnostics"), make<DiagnosticsPanel>, DiagnosticsPanel::shows},
    {TfTreePanel::kKind, QT_TRANSLATE_NOOP("PanelType", "TF Tree"), QT_TRANSLATE_NOOP("PanelType", "New &TF Tree"),
     QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+T"), nullptr, make<TfTreePanel>, nullptr},
    {MessagesPanel::kKind, QT_TRANSLATE_NOOP("PanelType", "Messages"),
     QT_TRANSLATE_NOOP("PanelType", "New &Messages List"), QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+M"),
     QT_TRANSLATE_NOOP("PanelType", "Show in Messages List"), make<MessagesPanel>, MessagesPanel::shows},
    {MapPanel::kKind, QT_TRANSLATE_NOOP("PanelType", "Map"), QT_TRANSLATE_NOOP("PanelType", "New Ma&p (GPS)"),
     QT_TRANSLATE_NOOP("PanelType", "Ctrl+Shift+A"), QT_TRANSLATE_NOOP("PanelType", "Show on Map"), make<MapPanel>,
     MapPanel::shows},
};

}  // namespace

std::span<const PanelType> panelTypes() { return kPanelTypes; }

const PanelType* panelType(const QString& kind) {
  auto it = std::find_if(std::begin(kPanelTypes), std::end(kPanelTypes),
                         [&](const PanelType& t) { return kind == QLatin1String(t.kind); });
  return it == std::end(kPanelTypes) ? nullptr : &*it;
}

QString translated(const char* text) { return QCoreApplication::translate("PanelType", text); }

}  // namespace bagscope::widgets
