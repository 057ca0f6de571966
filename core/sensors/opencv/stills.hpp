#pragma once
// JPEG and PNG by libjpeg(-turbo) and libpng themselves, as OpenCV's imgcodecs calls them
// (same pixels as cv::imdecode(IMREAD_UNCHANGED), same encoder settings as cv::imencode):
// Debian's imgcodecs links ~140 libraries (GDAL among them) that take ~0.1 s to load.

#include <span>
#include <string>

#include <opencv2/core.hpp>

#include "core/sensors/detail/opencv_module.hpp"

namespace bagscope::sensors::detail {

using Decoded = OpenCvModule::Decoded;
/// JPEG (grey or colour) and PNG (grey, RGB or RGBA; 8 or 16 bits) into 8-bit BGR(A) or
/// grey, 16-bit kept. Elsewhere for any other format or kind (CMYK JPEG, palette PNG, …),
/// which imgcodecs decodes; Failed with `error` for damaged data.
Decoded decodeStill(std::span<const std::byte> bytes, cv::Mat& out, std::string& error);

/// 8-bit grey or BGR (BGRA: alpha dropped) to baseline JPEG.
bool encodeJpeg(const cv::Mat& in, int quality, std::string& out, std::string& error);
/// 8- or 16-bit grey, BGR or BGRA to PNG, tuned for speed as imencode is by default.
bool encodePng(const cv::Mat& in, std::string& out, std::string& error);

}  // namespace bagscope::sensors::detail
