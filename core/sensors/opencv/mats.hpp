#pragma once
// What both modules (bagscope-opencv, bagscope-media) do with OpenCV matrices: views of our
// images, images that keep a matrix, and the 8-bit or 16-bit form a file format takes; and
// how each exports its one entry point.

#include <exception>
#include <string>

#include <opencv2/core.hpp>

#include "core/sensors/detail/opencv_module.hpp"

#if defined(_WIN32)
#define BAGSCOPE_MODULE_EXPORT extern "C" __declspec(dllexport)
#else
#define BAGSCOPE_MODULE_EXPORT extern "C" __attribute__((visibility("default")))
#endif

namespace bagscope::sensors::detail {

/// A view of our pixels (no copy; OpenCV's API takes non-const data).
cv::Mat asMat(const Image& in);
/// The matrix's pixels as an Image that keeps the matrix (and so its buffer) alive.
bool toImage(cv::Mat m, Image& out, std::string& error);
/// 8-bit for JPEG and video; 16-bit kept for PNG; float depth (m) as 16-bit mm in PNG.
cv::Mat forFormat(const cv::Mat& in, StillFormat f);
/// 8-bit BGR, as video encoders take it.
cv::Mat bgr8Of(const Image& in);

/// Runs `work`, turning an OpenCV (or any) exception into `error`.
template <class Work>
bool guarded(std::string& error, Work&& work) {
  try {
    return work();
  } catch (const std::exception& e) {
    error = std::string("OpenCV: ") + e.what();
    return false;
  }
}

}  // namespace bagscope::sensors::detail
