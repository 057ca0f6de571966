#include "widgets/shell/layouts.hpp"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace bagscope::widgets {
namespace {
constexpr int kFormatVersion = 1;
const QLatin1String kKind("bagscope-layout");
}  // namespace

QJsonObject Layout::toJson() const {
  QJsonObject o;
  o[QStringLiteral("kind")] = kKind;
  o[QStringLiteral("version")] = kFormatVersion;
  o[QStringLiteral("name")] = name;
  o[QStringLiteral("windowState")] = QString::fromLatin1(windowState.toBase64());
  o[QStringLiteral("geometry")] = QString::fromLatin1(geometry.toBase64());
  o[QStringLiteral("panels")] = panels;
  return o;
}

std::optional<Layout> Layout::fromJson(const QJsonObject& o, QString* error) {
  auto fail = [error](const QString& why) {
    if (error) *error = why;
    return std::nullopt;
  };
  if (o.value(QStringLiteral("kind")).toString() != kKind) return fail(QObject::tr("not a Bagscope layout"));
  if (o.value(QStringLiteral("version")).toInt() > kFormatVersion)
    return fail(
        QObject::tr("written by a newer Bagscope (layout version %1)").arg(o.value(QStringLiteral("version")).toInt()));
  Layout l;
  l.name = o.value(QStringLiteral("name")).toString();
  l.windowState = QByteArray::fromBase64(o.value(QStringLiteral("windowState")).toString().toLatin1());
  l.geometry = QByteArray::fromBase64(o.value(QStringLiteral("geometry")).toString().toLatin1());
  l.panels = o.value(QStringLiteral("panels")).toObject();
  return l;
}

std::optional<Layout> Layout::readFile(const QString& path, QString* error) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    if (error) *error = QObject::tr("%1: %2").arg(path, f.errorString());
    return std::nullopt;
  }
  QJsonParseError parse;
  QJsonDocument doc = QJsonDocument::fromJson(f.read(4 << 20), &parse);  // layouts are small
  if (!doc.isObject()) {
    if (error) *error = QObject::tr("%1: not JSON (%2 at offset %3)").arg(path, parse.errorString()).arg(parse.offset);
    return std::nullopt;
  }
  QString why;
  auto layout = fromJson(doc.object(), &why);
  if (!layout && error) *error = QObject::tr("%1: %2").arg(path, why);
  return layout;
}

bool Layout::writeFile(const QString& path, QString* error) const {
  QSaveFile f(path);  // a temporary file, renamed on commit
  if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(toJson()).toJson()) < 0 || !f.commit()) {
    if (error) *error = QObject::tr("%1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

LayoutStore::LayoutStore(QString folder) : folder_(std::move(folder)) {
  if (folder_.isEmpty())
    folder_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/layouts");
}

QString LayoutStore::pathOf(const QString& name) const {
  // Names become file names: keep them to characters every file system takes.
  QString safe = name;
  for (QChar& c : safe)
    if (QStringLiteral("/\\:*?\"<>|").contains(c) || c.unicode() < 32) c = QLatin1Char('_');
  return QDir(folder_).filePath(safe + QStringLiteral(".json"));
}

QStringList LayoutStore::names() const {
  QStringList out;
  for (const QFileInfo& f : QDir(folder_).entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
    if (auto l = Layout::readFile(f.filePath(), nullptr)) out << (l->name.isEmpty() ? f.completeBaseName() : l->name);
  }
  return out;
}

bool LayoutStore::save(const Layout& layout, QString* error) const {
  if (!QDir().mkpath(folder_)) {
    if (error) *error = QObject::tr("cannot create %1").arg(folder_);
    return false;
  }
  return layout.writeFile(pathOf(layout.name), error);
}

std::optional<Layout> LayoutStore::load(const QString& name, QString* error) const {
  return Layout::readFile(pathOf(name), error);
}

bool LayoutStore::remove(const QString& name) const { return QFile::remove(pathOf(name)); }

}  // namespace bagscope::widgets
