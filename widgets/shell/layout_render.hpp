#pragma once
// Rendering a saved layout to files without a person at the screen (`bagscope --render`,
// `bagscope-cli render`): each plot panel of the layout, for each recording, drawn as the app
// draws it, into PNG, SVG or PDF; each image panel as it shows the range's end, into PNG.

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

namespace bagscope::widgets {

struct RenderRequest {
  QString layoutPath;      ///< a layout file (Layout ▸ Export)
  QStringList recordings;  ///< each rendered on its own
  QString outDir;
  QString format = QStringLiteral("png");  ///< png, svg or pdf
  QSize size{1200, 600};
  /// The time range, as the command line gives times: seconds since the epoch, or "+S" after
  /// the recording's start. Unset: the range the layout's plot shows.
  QString start, end;
  bool overwrite = false;
};

/// Renders the request; says on stderr what it wrote and what it could not, and returns the
/// command line's exit code (0, 1 a recording or the layout could not be read, 2 usage, 3 a
/// panel could not be drawn fully, 4 a file could not be written or exists).
int renderLayout(const RenderRequest& request);

}  // namespace bagscope::widgets
