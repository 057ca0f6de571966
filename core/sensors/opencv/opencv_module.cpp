// bagscope-opencv: the pixel work of the sensors module: colour conversions by OpenCV's
// imgproc, JPEG and PNG by libjpeg and libpng (stills.cpp). Loaded by
// core/sensors/opencv_loader.cpp on the first image; see detail/opencv_module.hpp.

#include <opencv2/imgproc.hpp>

#include "mats.hpp"
#include "stills.hpp"

namespace bagscope::sensors::detail {
namespace {

int colourCode(Conversion c) {
  switch (c) {
    case Conversion::RgbToBgr: return cv::COLOR_RGB2BGR;
    case Conversion::RgbaToBgra: return cv::COLOR_RGBA2BGRA;
    case Conversion::UyvyToBgr: return cv::COLOR_YUV2BGR_UYVY;
    case Conversion::YuyvToBgr: return cv::COLOR_YUV2BGR_YUY2;
    // OpenCV names Bayer patterns by the second row: ROS rggb is OpenCV's BG.
    case Conversion::BayerRggb: return cv::COLOR_BayerBG2BGR;
    case Conversion::BayerBggr: return cv::COLOR_BayerRG2BGR;
    case Conversion::BayerGbrg: return cv::COLOR_BayerGR2BGR;
    case Conversion::BayerGrbg: return cv::COLOR_BayerGB2BGR;
  }
  return cv::COLOR_RGB2BGR;
}

class Module final : public OpenCvModule {
public:
  const char* openCvVersion() override { return CV_VERSION; }

  bool convert(const Image& in, Conversion conversion, Image& out, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat converted;
      cv::cvtColor(asMat(in), converted, colourCode(conversion));
      return toImage(std::move(converted), out, error);
    });
  }

  Decoded decode(std::span<const std::byte> bytes, Image& out, std::string& error) override {
    Decoded result = Decoded::Failed;
    guarded(error, [&] {
      cv::Mat decoded;
      result = decodeStill(bytes, decoded, error);
      if (result == Decoded::Done && !toImage(std::move(decoded), out, error)) result = Decoded::Failed;
      return true;
    });
    return result;
  }

  bool encode(const Image& in, StillFormat format, int jpegQuality, std::string& out, std::string& error) override {
    return guarded(error, [&] {
      cv::Mat pixels = forFormat(asMat(in), format);
      return format == StillFormat::Jpeg ? encodeJpeg(pixels, jpegQuality, out, error) : encodePng(pixels, out, error);
    });
  }
};

}  // namespace
}  // namespace bagscope::sensors::detail

BAGSCOPE_MODULE_EXPORT bagscope::sensors::detail::OpenCvModule* bagscope_opencv_module(int version) {
  static bagscope::sensors::detail::Module module;
  return version == bagscope::sensors::detail::kModuleVersion ? &module : nullptr;
}
