// See mats.hpp.

#include "mats.hpp"

#include <memory>

#include <opencv2/imgproc.hpp>

namespace bagscope::sensors::detail {
namespace {

int cvDepth(PixelDepth d) {
  switch (d) {
    case PixelDepth::U8: return CV_8U;
    case PixelDepth::S8: return CV_8S;
    case PixelDepth::U16: return CV_16U;
    case PixelDepth::S16: return CV_16S;
    case PixelDepth::S32: return CV_32S;
    case PixelDepth::F32: return CV_32F;
    case PixelDepth::F64: return CV_64F;
  }
  return CV_8U;
}

bool fromCvDepth(int depth, PixelDepth& out) {
  switch (depth) {
    case CV_8U: out = PixelDepth::U8; return true;
    case CV_8S: out = PixelDepth::S8; return true;
    case CV_16U: out = PixelDepth::U16; return true;
    case CV_16S: out = PixelDepth::S16; return true;
    case CV_32S: out = PixelDepth::S32; return true;
    case CV_32F: out = PixelDepth::F32; return true;
    case CV_64F: out = PixelDepth::F64; return true;
  }
  return false;
}

}  // namespace

cv::Mat asMat(const Image& in) {
  return cv::Mat(in.height, in.width, CV_MAKETYPE(cvDepth(in.depth), in.channels), const_cast<std::byte*>(in.data),
                 in.step);
}

bool toImage(cv::Mat m, Image& out, std::string& error) {
  PixelDepth depth;
  if (!fromCvDepth(m.depth(), depth)) return error = "unexpected pixel type from OpenCV", false;
  out = Image{m.cols, m.rows, m.channels(), depth, m.step[0], reinterpret_cast<const std::byte*>(m.data), {}};
  out.owner = std::make_shared<const cv::Mat>(std::move(m));
  return true;
}

cv::Mat forFormat(const cv::Mat& in, StillFormat f) {
  cv::Mat out;
  if (in.depth() == CV_8U) return in;
  if (f == StillFormat::Png) {
    if (in.depth() == CV_16U) return in;
    if (in.depth() == CV_32F) {
      cv::Mat mm;
      in.convertTo(mm, CV_32F, 1000.0);
      cv::patchNaNs(mm, 0);
      mm.convertTo(out, CV_16U);
      return out;
    }
    in.convertTo(out, CV_16U, 1.0, 32768.0);  // 16SC1: offset into unsigned
    return out;
  }
  cv::Mat f32;
  in.convertTo(f32, CV_32F);
  cv::patchNaNs(f32, 0);
  cv::normalize(f32, out, 0, 255, cv::NORM_MINMAX, CV_8U);
  return out;
}

cv::Mat bgr8Of(const Image& in) {
  cv::Mat eight = forFormat(asMat(in), StillFormat::Jpeg), out;
  if (eight.channels() == 1) cv::cvtColor(eight, out, cv::COLOR_GRAY2BGR);
  else if (eight.channels() == 4) cv::cvtColor(eight, out, cv::COLOR_BGRA2BGR);
  else out = eight;
  return out;
}

}  // namespace bagscope::sensors::detail
