#include "save_in_background.hpp"

#include <QFileInfo>

#include "core/export/export.hpp"
#include "core/session/session.hpp"
#include "panel.hpp"
#include "mailbox.hpp"
#include "qt_text.hpp"

namespace bagscope::widgets {

void saveInBackground(QObject* owner, std::shared_ptr<const session::Session> session,
                      std::function<Result<void>(const session::Session&, std::stop_token)> write,
                      std::function<void(const QString& error)> done) {
  auto mailbox = Mailbox::create(owner);
  QObject::connect(owner, &QObject::destroyed, [mailbox] { mailbox->close(); });
  // The job's handle lives until its result is handled on the owner's thread (set here
  // before the event loop can run that).
  auto job = std::make_shared<std::shared_ptr<session::Job>>();
  *job = session->startJob(
      [session, write = std::move(write)](std::stop_token stop, const session::ProgressFn&) { return write(*session, stop); },
      {},
      [job, mailbox, done = std::move(done)](Result<void> r) {
        QString error = r ? QString() : toQt(r.error().describe());
        mailbox->post([job, done, error] {
          job->reset();
          done(error);
        });
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
  saveInBackground(
      panel, std::move(session),
      [o](const session::Session& s, std::stop_token stop) -> Result<void> {
        exporters::ExportReport report;
        if (auto r = exporters::exportSession(s, "frame", o, report, stop); !r) return r;
        if (report.files.empty())  // say why: the reasons the exporter counted
          return fileError(ErrorCode::Decode, report.errors.empty() ? (report.skipped.empty() ? std::string("nothing was written")
                                                                                                : report.skipped.begin()->first)
                                                                    : report.errors.front());
        return {};
      },
      [panel, path](const QString& error) { emit panel->saved(path, error); });
}

}  // namespace bagscope::widgets
