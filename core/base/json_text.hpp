#pragma once
// Pieces of JSON text shared by every writer of JSON in the core.

#include <string>
#include <string_view>

namespace bagscope {

/// Appends `s` as a JSON string literal (quotes included; invalid UTF-8 becomes U+FFFD).
void appendJsonString(std::string_view s, std::string& out);
/// Appends a double in its shortest round-trip form, always recognisable as a float
/// ("1.0", not "1"); NaN and infinities as the strings "nan", "inf", "-inf".
void appendJsonDouble(double v, std::string& out);

}  // namespace bagscope
