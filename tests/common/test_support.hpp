#pragma once
// Helpers shared by the test suites: fixture paths and JSON comparison by value.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QSettings>
#include <QStandardPaths>
#include <QString>
#include <QVariant>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/base/byte_source.hpp"

namespace bagscope::test {

/// Settings and app data of this test process in `dir` (a fresh temporary folder), and
/// Qt's standard paths in test mode: runs of the same test at once, or an earlier run,
/// cannot leak remembered choices into it.
inline void isolateSettings(const QString& dir) {
  QStandardPaths::setTestModeEnabled(true);
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
  qputenv("XDG_DATA_HOME", QFile::encodeName(dir + "/data"));
}

inline QString dataPath(const QString& relative) { return QStringLiteral(BAGSCOPE_TEST_DATA "/") + relative; }

/// Reads a .jsonl file into objects; an unreadable file or line fails the calling test.
inline std::vector<QJsonObject> readJsonLines(const QString& path, QString* error) {
  std::vector<QJsonObject> out;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = "cannot open " + path;
    return out;
  }
  int line = 0;
  while (!f.atEnd()) {
    QByteArray text = f.readLine();
    ++line;
    if (text.trimmed().isEmpty()) continue;
    QJsonParseError pe;
    QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
    if (!doc.isObject()) {
      *error = QStringLiteral("%1:%2: %3").arg(path).arg(line).arg(pe.errorString());
      return {};
    }
    out.push_back(doc.object());
  }
  return out;
}

/// The first difference between two JSON values as "path: a != b", or empty when equal.
/// Numbers must agree in kind (integer vs float) and value, exactly.
inline QString jsonDifference(const QJsonValue& a, const QJsonValue& b, const QString& path = "$") {
  auto show = [](const QJsonValue& v) {
    QJsonArray wrap{v};
    QByteArray text = QJsonDocument(wrap).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(text.mid(1, text.size() - 2)).left(120);
  };
  if (a.type() != b.type()) return path + ": " + show(a) + " != " + show(b);
  switch (a.type()) {
    case QJsonValue::Double: {
      QVariant va = a.toVariant(), vb = b.toVariant();
      bool aInt = va.typeId() == QMetaType::LongLong, bInt = vb.typeId() == QMetaType::LongLong;
      if (aInt != bInt) return path + ": " + show(a) + " != " + show(b) + " (integer vs float)";
      bool same = aInt ? a.toInteger() == b.toInteger() : a.toDouble() == b.toDouble();
      return same ? QString() : path + ": " + show(a) + " != " + show(b);
    }
    case QJsonValue::Array: {
      QJsonArray x = a.toArray(), y = b.toArray();
      if (x.size() != y.size()) return path + QStringLiteral(": %1 items != %2 items").arg(x.size()).arg(y.size());
      for (qsizetype i = 0; i < x.size(); ++i) {
        QString d = jsonDifference(x[i], y[i], path + "[" + QString::number(i) + "]");
        if (!d.isEmpty()) return d;
      }
      return {};
    }
    case QJsonValue::Object: {
      QJsonObject x = a.toObject(), y = b.toObject();
      if (x.keys() != y.keys()) return path + ": keys " + x.keys().join(",") + " != " + y.keys().join(",");
      for (auto it = x.begin(); it != x.end(); ++it) {
        QString d = jsonDifference(it.value(), y.value(it.key()), path + "." + it.key());
        if (!d.isEmpty()) return d;
      }
      return {};
    }
    default: return a == b ? QString() : path + ": " + show(a) + " != " + show(b);
  }
}

/// "<unit> N: path: a != b" for the first of `ours` that differs from `expected` (N from 1),
/// the counts when they differ in number, or empty when all are equal.
inline QString firstDifference(const std::vector<QJsonObject>& ours, const std::vector<QJsonObject>& expected,
                               const QString& unit = QStringLiteral("message")) {
  if (ours.size() != expected.size())
    return QStringLiteral("%1 %2s, expected %3").arg(ours.size()).arg(unit).arg(expected.size());
  for (std::size_t i = 0; i < ours.size(); ++i)
    if (QString d = jsonDifference(ours[i], expected[i]); !d.isEmpty())
      return QStringLiteral("%1 %2: %3").arg(unit).arg(i + 1).arg(d);
  return {};
}

inline QJsonObject parseObject(const std::string& text) {
  return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

/// The whole file as bytes (for tests that damage a copy); fails the test if unreadable.
inline std::vector<std::byte> readFileBytes(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
  QByteArray b = f.readAll();
  auto p = reinterpret_cast<const std::byte*>(b.constData());
  return {p, p + b.size()};
}

/// A ByteSource that counts the bytes a reader asks for.
class CountingSource final : public ByteSource {
public:
  explicit CountingSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
  std::uint64_t size() const override { return inner_->size(); }
  const std::string& name() const override { return inner_->name(); }
  Result<void> readAt(std::uint64_t offset, std::span<std::byte> out) const override {
    bytesRead += out.size();
    if (auto us = delayUs.load()) std::this_thread::sleep_for(std::chrono::microseconds(us));
    return inner_->readAt(offset, out);
  }
  mutable std::atomic<std::uint64_t> bytesRead{0};
  std::atomic<int> delayUs{0};  ///< each read takes this long (a slow disk)

private:
  std::unique_ptr<ByteSource> inner_;
};

}  // namespace bagscope::test
