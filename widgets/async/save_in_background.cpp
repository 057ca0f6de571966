#include "widgets/async/save_in_background.hpp"

#include <QFileInfo>

#include <optional>
#include <vector>

#include "core/export/export.hpp"
#include "core/session/session.hpp"
#include "widgets/async/background.hpp"
#include "widgets/async/mailbox.hpp"
#include "widgets/panels/panel.hpp"
#include "widgets/qt_text.hpp"
#include "widgets/shell/document.hpp"

namespace bagscope::widgets {

namespace {

// "pcd", "jpg", "jpeg", …: the file suffixes of a format (its extension, and its name).
QStringList suffixesOf(const exporters::FormatInfo& f) {
  QStringList out{QString::fromLatin1(f.extension)};
  if (QLatin1String(f.name) != QLatin1String(f.extension)) out << QString::fromLatin1(f.name);
  return out;
}

// The formats that write one file per message of `type`.
std::vector<exporters::FormatInfo> messageFormats(const std::string& type) {
  std::vector<exporters::FormatInfo> out;
  for (const auto& f : exporters::formats())
    if (exporters::filePerMessage(f.format, type)) out.push_back(f);
  return out;
}

}  // namespace

QString messageFileFilters(const Document& document, const QString& topic) {
  const TopicInfo* info = document.topicByName(topic);
  QStringList filters;
  for (const auto& f : messageFormats(info ? info->type.toStdString() : std::string()))
    filters << QStringLiteral("%1 (*.%2)").arg(QString::fromLatin1(f.label), suffixesOf(f).join(QStringLiteral(" *.")));
  return filters.join(QStringLiteral(";;"));
}

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
  auto id = session->findTopic(topic.toStdString());
  if (!id) return emit panel->saved(path, Panel::tr("%1: the recording has no topic %2").arg(path, topic));
  const std::string& type = session->topics()[*id].type;
  exporters::ExportOptions o;
  std::optional<exporters::Format> format;
  QStringList suffixes;
  for (const auto& f : messageFormats(type)) {
    if (suffixesOf(f).contains(file.suffix().toLower())) format = f.format;
    suffixes << QLatin1Char('.') + suffixesOf(f).join(QStringLiteral(", ."));
  }
  if (!format)
    return emit panel->saved(path, Panel::tr("%1: a %2 message is saved as %3, not “.%4”")
                                       .arg(path, toQt(type), suffixes.join(QStringLiteral(", ")), file.suffix()));
  o.format = *format;
  o.topics = {topic.toStdString()};
  o.startNs = o.endNs = logTimeNs;
  o.outDir = toPath(file.absolutePath());
  o.nameTemplate = file.fileName().toStdString();  // templates are UTF-8
  o.overwrite = true;
  saveInBackground(panel, path, [session = std::move(session), o]() -> Result<void> {
    exporters::ExportReport report;
    if (auto r = exporters::exportSession(*session, "frame", o, report); !r) return r;
    if (report.files.empty())  // say why: the reasons the exporter counted
      return fileError(ErrorCode::Decode, report.errors.empty()
                                              ? (report.skipped.empty() ? std::string("nothing was written")
                                                                        : report.skipped.begin()->first)
                                              : report.errors.front());
    return {};
  });
}

}  // namespace bagscope::widgets
