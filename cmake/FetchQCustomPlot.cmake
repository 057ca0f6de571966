# QCustomPlot where no system package has it (Windows, macOS): the release's source archive
# (two files, GPL-3.0) built as a static library with the target name Debian's package uses.
include(FetchContent)
FetchContent_Declare(qcustomplot
  URL https://www.qcustomplot.com/release/2.1.1/QCustomPlot-source.tar.gz
  DOWNLOAD_EXTRACT_TIMESTAMP ON)
FetchContent_MakeAvailable(qcustomplot)  # no CMakeLists.txt inside: only downloaded
add_library(qcustomplot_fetched STATIC ${qcustomplot_SOURCE_DIR}/qcustomplot.cpp)
set_target_properties(qcustomplot_fetched PROPERTIES AUTOMOC ON)
target_include_directories(qcustomplot_fetched SYSTEM PUBLIC ${qcustomplot_SOURCE_DIR})
target_link_libraries(qcustomplot_fetched PUBLIC Qt6::Widgets Qt6::PrintSupport)
add_library(QCustomPlotQt6::QCustomPlotQt6 ALIAS qcustomplot_fetched)
