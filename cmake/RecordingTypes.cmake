# The recording file types Bagscope opens: the one list that the readers' registry
# (bagscope/recording_types.hpp, read by core/storage's containers) and every desktop's file
# association (shared-mime-info XML, the .desktop MimeType, macOS Info.plist, the Windows
# installer's registry keys) are generated from, when CMake configures.
#
# One call per type. MAGIC is what its files start with: what the reader recognises them by
# (core/storage's ContainerFormat takes it from here) and what shared-mime-info matches at
# offset 0 (empty: by name, or by its PARENT type). It stops before the version, so that a file
# of another version goes to its reader, which says so. OPENS is how Windows associates it:
# "default" (a double click opens Bagscope) or "openwith" (listed in Open With only: .db3 is
# any SQLite file).
set(BAGSCOPE_RECORDING_TYPES "")
function(bagscope_recording_type id)
  cmake_parse_arguments(T "" "EXTENSION;MIME;MAGIC;PARENT;UTI;UTI_CONFORMS;OPENS;COMMENT;COMMENT_ZH_CN;COMMENT_JA" "" ${ARGN})
  foreach(key EXTENSION MIME MAGIC PARENT UTI UTI_CONFORMS OPENS COMMENT COMMENT_ZH_CN COMMENT_JA)
    set(BAGSCOPE_RECORDING_${id}_${key} "${T_${key}}" PARENT_SCOPE)
  endforeach()
  set(BAGSCOPE_RECORDING_TYPES ${BAGSCOPE_RECORDING_TYPES} ${id} PARENT_SCOPE)
endfunction()

bagscope_recording_type(ros1
  EXTENSION bag MIME application/x-rosbag MAGIC "#ROSBAG" UTI org.ros.bag UTI_CONFORMS public.data
  OPENS default COMMENT "ROS 1 bag recording" COMMENT_ZH_CN "ROS 1 bag 录制数据" COMMENT_JA "ROS 1 bag 記録")
bagscope_recording_type(mcap
  EXTENSION mcap MIME application/vnd.mcap MAGIC "\\x89MCAP" UTI dev.mcap.mcap UTI_CONFORMS public.data
  OPENS default COMMENT "MCAP recording" COMMENT_ZH_CN "MCAP 录制数据" COMMENT_JA "MCAP 記録")
bagscope_recording_type(rosbag2_sqlite
  EXTENSION db3 MIME application/x-rosbag2-sqlite3 PARENT application/vnd.sqlite3 UTI org.ros.rosbag2.db3
  UTI_CONFORMS public.database OPENS openwith
  COMMENT "ROS 2 bag recording (SQLite)" COMMENT_ZH_CN "ROS 2 bag 录制数据（SQLite）" COMMENT_JA "ROS 2 bag 記録（SQLite）")

# ---- What is generated from the list ----------------------------------------------------
set(BAGSCOPE_MIME_XML_TYPES "")       # <mime-type> elements
set(BAGSCOPE_DESKTOP_MIME_TYPES "")   # the .desktop MimeType value
set(BAGSCOPE_PLIST_UTTYPES "")        # Info.plist UTExportedTypeDeclarations entries
set(BAGSCOPE_PLIST_CONTENT_TYPES "")  # Info.plist LSItemContentTypes entries
set(BAGSCOPE_NSIS_ASSOCIATE "")       # the installer's registry writes
set(BAGSCOPE_NSIS_DISSOCIATE "")      # and the uninstaller's removals
set(BAGSCOPE_CXX_RECORDING_TYPES "")  # rows of the C++ table
foreach(id ${BAGSCOPE_RECORDING_TYPES})
  foreach(key EXTENSION MIME MAGIC PARENT UTI UTI_CONFORMS OPENS COMMENT COMMENT_ZH_CN COMMENT_JA)
    set(${key} "${BAGSCOPE_RECORDING_${id}_${key}}")
  endforeach()
  string(APPEND BAGSCOPE_MIME_XML_TYPES "  <mime-type type=\"${MIME}\">
    <comment>${COMMENT}</comment>
    <comment xml:lang=\"zh_CN\">${COMMENT_ZH_CN}</comment>
    <comment xml:lang=\"ja\">${COMMENT_JA}</comment>\n")
  if(PARENT)
    string(APPEND BAGSCOPE_MIME_XML_TYPES "    <sub-class-of type=\"${PARENT}\"/>\n")
  endif()
  string(APPEND BAGSCOPE_MIME_XML_TYPES "    <generic-icon name=\"application-x-generic\"/>\n")
  if(MAGIC)
    string(APPEND BAGSCOPE_MIME_XML_TYPES "    <magic priority=\"60\">
      <match type=\"string\" offset=\"0\" value=\"${MAGIC}\"/>
    </magic>\n")
  endif()
  string(APPEND BAGSCOPE_MIME_XML_TYPES "    <glob pattern=\"*.${EXTENSION}\"/>\n  </mime-type>\n")
  string(APPEND BAGSCOPE_DESKTOP_MIME_TYPES "${MIME};")
  string(APPEND BAGSCOPE_PLIST_UTTYPES "    <dict>
      <key>UTTypeIdentifier</key><string>${UTI}</string>
      <key>UTTypeDescription</key><string>${COMMENT}</string>
      <key>UTTypeConformsTo</key><array><string>${UTI_CONFORMS}</string></array>
      <key>UTTypeTagSpecification</key>
      <dict><key>public.filename-extension</key><array><string>${EXTENSION}</string></array>
            <key>public.mime-type</key><array><string>${MIME}</string></array></dict>
    </dict>\n")
  string(APPEND BAGSCOPE_PLIST_CONTENT_TYPES "<string>${UTI}</string>")
  if(OPENS STREQUAL "default")
    string(APPEND BAGSCOPE_NSIS_ASSOCIATE "
    WriteRegStr HKCR '.${EXTENSION}' '' 'Bagscope.Recording'")
    string(APPEND BAGSCOPE_NSIS_DISSOCIATE "
    ReadRegStr $0 HKCR '.${EXTENSION}' ''
    StrCmp $0 'Bagscope.Recording' 0 +2
    DeleteRegValue HKCR '.${EXTENSION}' ''")
  else()
    string(APPEND BAGSCOPE_NSIS_ASSOCIATE "
    WriteRegStr HKCR '.${EXTENSION}\\\\OpenWithProgids' 'Bagscope.Recording' ''")
    string(APPEND BAGSCOPE_NSIS_DISSOCIATE "
    DeleteRegValue HKCR '.${EXTENSION}\\\\OpenWithProgids' 'Bagscope.Recording'")
  endif()
  string(APPEND BAGSCOPE_CXX_RECORDING_TYPES "    {\"${id}\", \".${EXTENSION}\", \"${MIME}\", \"${COMMENT}\", \"${MAGIC}\"},\n")
endforeach()

configure_file(${CMAKE_CURRENT_LIST_DIR}/recording_types.hpp.in ${CMAKE_BINARY_DIR}/generated/bagscope/recording_types.hpp @ONLY)
