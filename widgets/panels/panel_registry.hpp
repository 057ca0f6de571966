#pragma once
// The kinds of panel, one row each (panel_registry.cpp): the main window makes panels and
// their docks, restores layouts and fills View ▸ New from here, and the topic list asks which
// panels show a topic. A new panel is its class and one row.

#include <QString>

#include <span>

namespace bagscope::widgets {

class Document;
class Panel;

struct PanelType {
  const char* kind;        ///< as layouts record it: "plot", "image", "cloud"
  const char* title;       ///< the dock's title (translated in the context "PanelType")
  const char* newAction;   ///< View ▸ New … (translated)
  const char* shortcut;    ///< of newAction (translated: other keyboards)
  const char* showAction;  ///< the topic list's "Show in …" for the topics it shows, or null
  Panel* (*create)(Document* document);
  /// Whether it shows a topic of `type` (Panel::setTopic); null for panels of no one topic.
  bool (*shows)(const QString& type);
};

std::span<const PanelType> panelTypes();
/// The type of `kind`, or null (a layout from a newer Bagscope).
const PanelType* panelType(const QString& kind);
/// One of a PanelType's texts, translated.
QString translated(const char* text);

}  // namespace bagscope::widgets
