#pragma once
// Text from the core (UTF-8 std::string) as Qt text.

#include <QString>

#include <string_view>

namespace bagscope::widgets {

inline QString toQt(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

}  // namespace bagscope::widgets
