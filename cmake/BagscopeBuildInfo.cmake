# bagscope::build_info: a generated header with the version and how this build was made, for
# `bagscope-cli --version` and the app's About dialog. The commit is read when CMake configures.
find_package(Git QUIET)
set(BAGSCOPE_GIT_COMMIT "")
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE BAGSCOPE_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT BAGSCOPE_GIT_COMMIT)
  set(BAGSCOPE_GIT_COMMIT "unknown")
endif()
set(BAGSCOPE_BUILD_TYPE "${CMAKE_BUILD_TYPE}")
if(NOT BAGSCOPE_BUILD_TYPE)
  set(BAGSCOPE_BUILD_TYPE "multi-config")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_info.hpp.in ${CMAKE_BINARY_DIR}/generated/bagscope/build_info.hpp @ONLY)
add_library(bagscope_build_info INTERFACE)
add_library(bagscope::build_info ALIAS bagscope_build_info)
target_include_directories(bagscope_build_info INTERFACE ${CMAKE_BINARY_DIR}/generated)
