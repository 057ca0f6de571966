#include "save_in_background.hpp"

#include <QFileInfo>

#include "core/export/export.hpp"
#include "core/session/session.hpp"
#include "mailbox.hpp"
#include "panel.hpp"
#include "qt_text.hpp"
#include "unexpected_error.hpp"

namespace bagscope::widgets {

void saveInBackground(Panel* panel, const QString& path, std::function<Result<void>()> write) {
  auto mailbox = Mailbox::create(panel);
  QObject::connect(panel, &QObject::destroyed, [mailbox] { mailbox->close(); });
  startInPool([panel, path, mailbox, write = std::move(write)] {
    Result<void> r = runCatching(write);
    QString error = r ? QString() : toQt(r.error().describe());
    mailbox->post([panel, path, error] { emit panel->saved(path, error); });
  });
}

void saveMessage(Panel* panel, std::shared_ptr<const session::Session> session, const QString& topic, qint64 logTimeNs,
                 const QString& path) {
  QFileInfo file(path);
  exporters::ExportOptions o;
  if (auto format = exporters::formatFromName(file.suffix().toLower().toStdString())) o.format = *format;
  else return emit panel->saved(path, toQt(format.error().describe()));
  o.topics = {topic.toStdString()};
  o.startNs = o.endNs = logTimeNs;
  o.outDir = toPath(file.absolutePath());
  o.nameTemplate = file.fileName().toStdString();  // templates are UTF-8
  o.overwrite = true;
  saveInBackground(panel, path, [session = std::move(session), o]() -> Result<void> {
    exporters::ExportReport report;
    if (auto r = exporters::exportSession(*session, "frame", o, report); !r) return r;
    if (report.files.empty())  // say why: the reasons the exporter counted
      return fileError(ErrorCode::Decode, report.errors.empty() ? (report.skipped.empty() ? std::string("nothing was written")
                                                                                            : report.skipped.begin()->first)
                                                                : report.errors.front());
    return {};
  });
}

}  // namespace bagscope::widgets
