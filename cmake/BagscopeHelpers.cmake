# Warnings for Bagscope's own targets: link bagscope::warnings PRIVATE.
add_library(bagscope_warnings INTERFACE)
add_library(bagscope::warnings ALIAS bagscope_warnings)
if(MSVC)
  target_compile_options(bagscope_warnings INTERFACE /W4 /permissive- /utf-8)
  if(BAGSCOPE_WERROR)
    target_compile_options(bagscope_warnings INTERFACE /WX)
  endif()
else()
  target_compile_options(bagscope_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                                     -Wno-sign-conversion)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports std::string concatenation as overlapping memcpy (GCC bug 105651).
    target_compile_options(bagscope_warnings INTERFACE -Wno-restrict)
  endif()
  if(BAGSCOPE_WERROR)
    target_compile_options(bagscope_warnings INTERFACE -Werror)
  endif()
endif()

# bagscope_add_test(NAME storage_ros1 SOURCES ... LIBS ... LABELS core [TIMEOUT 120] [XVFB])
# One QtTest executable per module, registered with CTest. Tests find their fixtures through
# BAGSCOPE_TEST_DATA (tests/data in the source tree). XVFB runs it on a virtual X server
# (xvfb-run, from Debian's xvfb package) with the xcb platform, for tests that need a real
# window system.
function(bagscope_add_test)
  cmake_parse_arguments(T "XVFB" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ENV" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  set(target tst_${T_NAME})
  add_executable(${target} ${T_SOURCES})
  target_link_libraries(${target} PRIVATE ${T_LIBS} Qt6::Test bagscope::warnings)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 flags std::vector growth in the tests' byte writers as overflows (GCC bug 106199).
    target_compile_options(${target} PRIVATE -Wno-stringop-overflow)
  endif()
  target_compile_definitions(${target} PRIVATE
    BAGSCOPE_TEST_DATA="${PROJECT_SOURCE_DIR}/tests/data")
  if(T_XVFB AND (WIN32 OR APPLE))
    add_test(NAME ${T_NAME} COMMAND ${target})  # the desktop session's own display
  elseif(T_XVFB)
    find_program(XVFB_RUN xvfb-run REQUIRED)
    add_test(NAME ${T_NAME} COMMAND ${XVFB_RUN} -a -s "-screen 0 1280x900x24" $<TARGET_FILE:${target}>)
    list(APPEND T_ENV QT_QPA_PLATFORM=xcb)
  else()
    add_test(NAME ${T_NAME} COMMAND ${target})
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT}
                                            ENVIRONMENT "${T_ENV}")
endfunction()
