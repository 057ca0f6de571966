#pragma once
// Text and paths between the core (UTF-8 std::string, std::filesystem::path) and Qt.

#include <QCoreApplication>
#include <QFile>
#include <QString>

#include <filesystem>
#include <string_view>

#include "core/base/result.hpp"

namespace bagscope::widgets {

inline QString toQt(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// An error as the app says it: the core's words, and what the user can do in the app's terms
// (the CLI words the same remedy as a flag).
inline QString describeForApp(const Error& error) {
  QString text = toQt(error.describe());
  if (error.remedy == Remedy::Replace)
    text += QCoreApplication::translate("Bagscope", " (not replaced unless \"Replace existing files\" is chosen)");
  return text;
}

// File names go through the platform's own encoding: UTF-16 on Windows (any character, whatever
// the code page), Qt's file-name codec elsewhere.
inline std::filesystem::path toPath(const QString& s) {
#ifdef _WIN32
  return std::filesystem::path(s.toStdWString());
#else
  return std::filesystem::path(QFile::encodeName(s).toStdString());
#endif
}

inline QString fromPath(const std::filesystem::path& p) {
#ifdef _WIN32
  return QString::fromStdWString(p.native());
#else
  return QFile::decodeName(p.native().c_str());
#endif
}

}  // namespace bagscope::widgets
