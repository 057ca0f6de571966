// See stills.hpp. Both libraries report errors by longjmp: the functions that call setjmp
// hold no object with a destructor between it and the library calls, and the callbacks none.

#include "stills.hpp"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <jpeglib.h>
#include <png.h>
#include <zlib.h>

#include <opencv2/imgproc.hpp>

namespace bagscope::sensors::detail {
namespace {

// As readCompressedImage tells them apart: what starts like either is that format's to judge.
bool isJpeg(std::span<const std::byte> b) {
  return b.size() >= 2 && b[0] == std::byte{0xFF} && b[1] == std::byte{0xD8};
}
bool isPng(std::span<const std::byte> b) {
  return b.size() >= 8 && png_sig_cmp(reinterpret_cast<png_const_bytep>(b.data()), 0, 8) == 0;
}

// What a header may claim: 16,384 x 16,384 pixels (1 GB at 16-bit RGBA), so that a few
// damaged or hostile bytes cannot ask for gigabytes; beyond any camera's frame.
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 28;
std::string tooLarge(std::uint64_t width, std::uint64_t height) {
  return "claims " + std::to_string(width) + " x " + std::to_string(height) + " pixels, more than " +
         std::to_string(kMaxPixels) + " (damaged?)";
}

// ---- JPEG

struct JpegErrors {
  jpeg_error_mgr manager;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void jpegFail(j_common_ptr info) {
  auto* e = reinterpret_cast<JpegErrors*>(info->err);
  e->manager.format_message(info, e->message);
  std::longjmp(e->jump, 1);
}
void jpegQuiet(j_common_ptr) {}  // warnings (a cut file: the rest grey) are not printed

JpegErrors* jpegErrors(JpegErrors& e) {
  jpeg_std_error(&e.manager);
  e.manager.error_exit = jpegFail;
  e.manager.output_message = jpegQuiet;
  e.message[0] = '\0';
  return &e;
}

// One or three components into 8-bit grey or BGR; Elsewhere for CMYK and YCCK.
Decoded jpegDecode(std::span<const std::byte> bytes, cv::Mat& out, std::string& error) {
  jpeg_decompress_struct info;
  JpegErrors errors;
  info.err = &jpegErrors(errors)->manager;
  if (setjmp(errors.jump)) {
    jpeg_destroy_decompress(&info);
    error = std::string("is not a readable JPEG: ") + errors.message;
    return Decoded::Failed;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&info, TRUE);
  if (info.num_components != 1 && info.num_components != 3) {  // CMYK, YCCK: imgcodecs converts them
    jpeg_destroy_decompress(&info);
    return Decoded::Elsewhere;
  }
  if (std::uint64_t{info.image_width} * info.image_height > kMaxPixels) {
    jpeg_destroy_decompress(&info);
    error = tooLarge(info.image_width, info.image_height);
    return Decoded::Failed;
  }
  info.out_color_space = info.num_components == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
  jpeg_start_decompress(&info);
  out.create(static_cast<int>(info.output_height), static_cast<int>(info.output_width),
             info.num_components == 1 ? CV_8UC1 : CV_8UC3);
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = out.ptr<unsigned char>(static_cast<int>(info.output_scanline));
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  return Decoded::Done;
}

// ---- PNG

struct PngInput {
  std::span<const std::byte> bytes;
  std::size_t at = 0;
  char message[256];
};

void pngFail(png_structp png, png_const_charp text) {
  auto* in = static_cast<PngInput*>(png_get_error_ptr(png));
  std::snprintf(in->message, sizeof in->message, "%s", text);
  png_longjmp(png, 1);
}
void pngQuiet(png_structp, png_const_charp) {}

void pngRead(png_structp png, png_bytep to, png_size_t length) {
  auto* in = static_cast<PngInput*>(png_get_io_ptr(png));
  if (length > in->bytes.size() - in->at) png_error(png, "the data ends inside the image");
  std::memcpy(to, in->bytes.data() + in->at, length);
  in->at += length;
}

Decoded pngDecode(std::span<const std::byte> bytes, cv::Mat& out, std::string& error) {
  PngInput in{bytes, 0, {}};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &in, pngFail, pngQuiet);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_read_struct(&png, nullptr, nullptr);
    return error = "cannot be decoded: out of memory", Decoded::Failed;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, nullptr);
    error = std::string("is not a readable PNG: ") + in.message;
    return Decoded::Failed;
  }
  png_set_read_fn(png, &in, pngRead);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info), height = png_get_image_height(png, info);
  if (std::uint64_t{width} * height > kMaxPixels) {
    png_destroy_read_struct(&png, &info, nullptr);
    error = tooLarge(width, height);
    return Decoded::Failed;
  }
  const int depth = png_get_bit_depth(png, info), type = png_get_color_type(png, info);
  const bool transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  // Grey, RGB and RGBA of 8 or 16 bits (depth images, camera frames); the rest (palettes,
  // grey with alpha, 1-4 bits, a transparent colour) as imgcodecs expands them.
  if ((depth != 8 && depth != 16) || transparency ||
      (type != PNG_COLOR_TYPE_GRAY && type != PNG_COLOR_TYPE_RGB && type != PNG_COLOR_TYPE_RGB_ALPHA)) {
    png_destroy_read_struct(&png, &info, nullptr);
    return Decoded::Elsewhere;
  }
  const int channels = type == PNG_COLOR_TYPE_GRAY ? 1 : type == PNG_COLOR_TYPE_RGB ? 3 : 4;
  if (channels > 1) png_set_bgr(png);
  if (depth == 16) png_set_swap(png);  // little-endian machines
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  out.create(static_cast<int>(height), static_cast<int>(width), CV_MAKETYPE(depth == 16 ? CV_16U : CV_8U, channels));
  for (int pass = 0; pass < passes; ++pass)
    for (int r = 0; r < out.rows; ++r) png_read_row(png, out.ptr<unsigned char>(r), nullptr);
  png_read_end(png, nullptr);
  png_destroy_read_struct(&png, &info, nullptr);
  return Decoded::Done;
}

struct PngOutput {
  std::string* bytes;
  char message[256];
};

void pngWrite(png_structp png, png_bytep from, png_size_t length) {
  bool failed = false;
  try {  // no exception may cross libpng's C frames
    static_cast<PngOutput*>(png_get_io_ptr(png))->bytes->append(reinterpret_cast<const char*>(from), length);
  } catch (...) {
    failed = true;
  }
  if (failed) png_error(png, "out of memory");
}
void pngFlush(png_structp) {}
void pngWriteFail(png_structp png, png_const_charp text) {
  auto* o = static_cast<PngOutput*>(png_get_error_ptr(png));
  std::snprintf(o->message, sizeof o->message, "%s", text);
  png_longjmp(png, 1);
}

}  // namespace

Decoded decodeStill(std::span<const std::byte> bytes, cv::Mat& out, std::string& error) {
  if (isJpeg(bytes)) return jpegDecode(bytes, out, error);
  if (isPng(bytes)) return pngDecode(bytes, out, error);
  return Decoded::Elsewhere;
}

bool encodeJpeg(const cv::Mat& in, int quality, std::string& out, std::string& error) {
  cv::Mat pixels = in;
  if (in.channels() == 4) cv::cvtColor(in, pixels, cv::COLOR_BGRA2BGR);
  if (pixels.depth() != CV_8U || (pixels.channels() != 1 && pixels.channels() != 3))
    return error = "JPEG takes 8-bit grey or colour images", false;
  jpeg_compress_struct info;
  JpegErrors errors;
  unsigned char* buffer = nullptr;
  unsigned long size = 0;
  info.err = &jpegErrors(errors)->manager;
  if (setjmp(errors.jump)) {
    jpeg_destroy_compress(&info);
    std::free(buffer);
    error = std::string("JPEG encoding failed: ") + errors.message;
    return false;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, &buffer, &size);
  info.image_width = static_cast<JDIMENSION>(pixels.cols);
  info.image_height = static_cast<JDIMENSION>(pixels.rows);
  info.input_components = pixels.channels();
  info.in_color_space = pixels.channels() == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
  jpeg_set_defaults(&info);
  info.restart_interval = 0;
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    JSAMPROW row = const_cast<unsigned char*>(pixels.ptr<unsigned char>(static_cast<int>(info.next_scanline)));
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
  out.assign(reinterpret_cast<const char*>(buffer), size);
  std::free(buffer);
  return true;
}

bool encodePng(const cv::Mat& in, std::string& out, std::string& error) {
  const int channels = in.channels();
  if ((in.depth() != CV_8U && in.depth() != CV_16U) || channels == 2 || channels > 4)
    return error = "PNG takes 8- or 16-bit grey, colour or colour with alpha", false;
  out.clear();
  PngOutput o{&out, {}};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &o, pngWriteFail, pngQuiet);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    return error = "PNG encoding failed: out of memory", false;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    error = std::string("PNG encoding failed: ") + o.message;
    return false;
  }
  png_set_write_fn(png, &o, pngWrite, pngFlush);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);  // imencode's defaults: speed
  png_set_compression_level(png, Z_BEST_SPEED);
  png_set_compression_strategy(png, Z_RLE);
  png_set_IHDR(png, info, static_cast<png_uint_32>(in.cols), static_cast<png_uint_32>(in.rows),
               in.depth() == CV_16U ? 16 : 8,
               channels == 1   ? PNG_COLOR_TYPE_GRAY
               : channels == 3 ? PNG_COLOR_TYPE_RGB
                               : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (channels > 1) png_set_bgr(png);
  if (in.depth() == CV_16U) png_set_swap(png);
  for (int r = 0; r < in.rows; ++r) png_write_row(png, in.ptr<unsigned char>(r));
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return true;
}

}  // namespace bagscope::sensors::detail
