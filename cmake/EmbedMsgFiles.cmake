# Writes OUTPUT: a C++ table of every <pkg>/msg/<Type>.msg under DIR, as
# {"pkg/Type", R"(...)"} pairs, so the built-in type store needs no files at run time.
file(GLOB_RECURSE msgs RELATIVE ${DIR} ${DIR}/*/msg/*.msg)
list(SORT msgs)
set(body "")
foreach(rel ${msgs})
  file(READ ${DIR}/${rel} text)
  string(REGEX REPLACE "^([^/]+)/msg/([^/]+)\\.msg$" "\\1/\\2" name ${rel})
  string(APPEND body "    {\"${name}\", R\"BAGSCOPE_MSG(${text})BAGSCOPE_MSG\"},\n")
endforeach()
file(WRITE ${OUTPUT}.tmp "// Generated from resources/ros2-interfaces by cmake/EmbedMsgFiles.cmake. Do not edit.
#include \"core/schema/builtin_types.hpp\"

namespace bagscope::schema::detail {

const std::vector<BuiltinType>& builtinTypeTable() {
  static const std::vector<BuiltinType> kTable = {
${body}  };
  return kTable;
}

}  // namespace bagscope::schema::detail
")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
