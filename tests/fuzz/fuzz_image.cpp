// libFuzzer target: any bytes as a sensor_msgs/CompressedImage's data, through the JPEG and PNG
// decoders (libjpeg and libpng in the OpenCV module, the media module's imgcodecs for the other
// kinds), and what decodes written back as PNG and JPEG. Every pixel is read, so a decoder that
// left rows outside its buffer is caught.

#include <cstddef>
#include <cstdint>

#include "core/sensors/sensors.hpp"

using namespace bagscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // What readCompressedImage passes on: data that starts as a PNG or a JPEG does.
  const bool png = size >= 4 && data[0] == 0x89 && data[1] == 'P' && data[2] == 'N' && data[3] == 'G';
  if (!png && !(size >= 2 && data[0] == 0xFF && data[1] == 0xD8)) return 0;
  sensors::CompressedFrame frame;
  frame.format = "fuzz";
  frame.codec = png ? "png" : "jpeg";
  frame.bytes = {reinterpret_cast<const std::byte*>(data), size};
  auto image = sensors::decodeCompressed(frame);
  if (!image) return 0;
  unsigned sum = 0;
  const std::size_t rowBytes = static_cast<std::size_t>(image->width) * image->pixelBytes();
  for (int y = 0; y < image->height; ++y)
    for (std::size_t i = 0; i < rowBytes; ++i) sum += static_cast<unsigned>(image->row(y)[i]);
  if (image->width * image->height <= 1 << 20) {  // big ones only cost time
    (void)sensors::encodeImage(*image, sensors::StillFormat::Png);
    (void)sensors::encodeImage(*image, sensors::StillFormat::Jpeg, 90);
  }
  return static_cast<int>(sum & 0);
}
