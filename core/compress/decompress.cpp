#include "decompress.hpp"

#include <bzlib.h>
#include <lz4frame.h>
#include <zstd.h>
// xxHash's own XXH32, inlined from Debian's header (libxxhash-dev): liblz4's copy of it is
// vectorised badly (multiplications turned into shift chains) and was 45% of reading an lz4
// bag; this one runs at ~9.7 GB/s here.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace bagscope::compress {
namespace {

// The first allocation for an output of claimed size N: N itself when the input could
// plausibly expand to it, else a multiple of the input; the buffer grows as output arrives.
std::size_t initialCapacity(std::size_t inSize, std::size_t claimed) {
  constexpr std::size_t kPlausibleRatio = 64;
  std::size_t plausible = inSize * kPlausibleRatio + 4096;
  return std::min(claimed, plausible);
}

struct Lz4Deleter {
  void operator()(LZ4F_dctx* ctx) const noexcept { LZ4F_freeDecompressionContext(ctx); }
};
struct ZstdDeleter {
  void operator()(ZSTD_DCtx* ctx) const noexcept { ZSTD_freeDCtx(ctx); }
};

// Streams `in` through a decoder `step(in, inLen, out, outLen) -> (consumed, produced, done)`.
// Returns produced size; `error` set for a corrupt stream.
struct StepResult {
  std::size_t consumed = 0;
  std::size_t produced = 0;
  bool done = false;
  const char* error = nullptr;
};

template <typename Step>
std::size_t streamDecode(std::span<const std::byte> in, std::size_t maxSize, ByteBuffer& out, Step&& step,
                         const char*& error, bool& done) {
  std::size_t inPos = 0;
  std::size_t outPos = 0;
  out.resize(initialCapacity(in.size(), maxSize));
  done = false;
  error = nullptr;
  while (true) {
    if (outPos == out.size() && out.size() < maxSize) {
      out.resize(std::min(maxSize, std::max<std::size_t>(out.size() * 2, 4096)));
    }
    // With the output full this still runs once more, with no room, so that the decoder
    // can read the stream's end marker.
    StepResult r = step(in.data() + inPos, in.size() - inPos, out.data() + outPos, out.size() - outPos);
    inPos += r.consumed;
    outPos += r.produced;
    if (r.error) {
      error = r.error;
      break;
    }
    if (r.done) {
      done = true;
      break;
    }
    if (r.consumed == 0 && r.produced == 0) break;  // input exhausted, or output full
  }
  out.resize(outPos);
  return outPos;
}

}  // namespace

struct Decompressor::Contexts {
  std::unique_ptr<LZ4F_dctx, Lz4Deleter> lz4;
  bool lz4Finished = true;  ///< the last frame decoded to its end
  std::unique_ptr<ZSTD_DCtx, ZstdDeleter> zstd;
};

namespace {

std::uint32_t le32(std::span<const std::byte> in, std::size_t at) {
  std::uint32_t v = 0;
  std::memcpy(&v, in.data() + at, 4);  // the file is little-endian, as every supported host
  return v;
}

enum class Checked : std::uint8_t { Match, Mismatch, Unknown };

// Checks the checksums an LZ4 frame carries (each block's, of its stored bytes, and the
// content's, of `out`) as LZ4F would. Unknown when `in` is not one plain frame (a dictionary,
// skippable or further frames): LZ4F then checks them itself.
Checked lz4FrameChecksums(std::span<const std::byte> in, std::span<const std::byte> out) {
  if (in.size() < 7 || le32(in, 0) != 0x184D2204u) return Checked::Unknown;
  auto flags = static_cast<std::uint8_t>(in[4]);
  if (flags & 0x01) return Checked::Unknown;  // a dictionary id
  const bool blockSums = flags & 0x10, contentSum = flags & 0x04;
  std::size_t pos = 7 + ((flags & 0x08) ? 8 : 0);  // magic, FLG, BD, [content size], header checksum
  while (true) {
    if (pos > in.size() || in.size() - pos < 4) return Checked::Unknown;
    std::uint32_t word = le32(in, pos);
    pos += 4;
    if (word == 0) break;  // the end mark
    std::size_t size = word & 0x7FFFFFFFu;
    if (in.size() - pos < size + (blockSums ? 4 : 0)) return Checked::Unknown;
    if (blockSums && XXH32(in.data() + pos, size, 0) != le32(in, pos + size)) return Checked::Mismatch;
    pos += size + (blockSums ? 4 : 0);
  }
  if (contentSum) {
    if (in.size() - pos < 4) return Checked::Unknown;
    if (XXH32(out.data(), out.size(), 0) != le32(in, pos)) return Checked::Mismatch;
    pos += 4;
  }
  return pos == in.size() ? Checked::Match : Checked::Unknown;
}

Result<void> run(Decompressor::Contexts& ctx, Codec codec, std::span<const std::byte> in, std::size_t maxSize,
                 ByteBuffer& out, bool& done, const char*& error, bool checkAfter = false) {
  switch (codec) {
    case Codec::None: {
      std::size_t n = std::min(in.size(), maxSize);
      out.resize(n);
      if (n > 0) std::memcpy(out.data(), in.data(), n);
      done = n == in.size();
      error = nullptr;
      return {};
    }
    case Codec::Lz4Frame: {
      // liblz4 1.9.4's reset keeps a content size of a frame left unfinished (cut, damaged,
      // or a prefix): the next frame without one is then "ERROR_frameSize_wrong". A fresh
      // context after such a frame.
      if (!ctx.lz4 || !ctx.lz4Finished) {
        LZ4F_dctx* raw = nullptr;
        if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION)))
          return makeError(ErrorCode::Io, "cannot create an lz4 decompression context");
        ctx.lz4.reset(raw);
      }
      LZ4F_resetDecompressionContext(ctx.lz4.get());
      LZ4F_decompressOptions_t options{};
      // Content and block checksums are verified: damage the decoder does not notice itself
      // would otherwise reach the messages unseen (a ROS 1 bag has no other check). With
      // `checkAfter` the caller checks them (lz4FrameChecksums), faster than LZ4F would.
      options.skipChecksums = checkAfter ? 1 : 0;
      // When the whole output fits the first allocation it never moves, and LZ4F may
      // decode straight into it instead of through its own buffers.
      options.stableDst = initialCapacity(in.size(), maxSize) == maxSize ? 1 : 0;
      streamDecode(
          in, maxSize, out,
          [&](const std::byte* src, std::size_t srcLen, std::byte* dst, std::size_t dstLen) {
            StepResult r;
            std::size_t dstSize = dstLen, srcSize = srcLen;
            std::size_t hint = LZ4F_decompress(ctx.lz4.get(), dst, &dstSize, src, &srcSize, &options);
            r.consumed = srcSize;
            r.produced = dstSize;
            if (LZ4F_isError(hint)) r.error = LZ4F_getErrorName(hint);
            else if (hint == 0) r.done = true;
            return r;
          },
          error, done);
      ctx.lz4Finished = done && !error;
      return {};
    }
    case Codec::Zstd: {
      if (!ctx.zstd) {
        ctx.zstd.reset(ZSTD_createDCtx());
        if (!ctx.zstd) return makeError(ErrorCode::Io, "cannot create a zstd decompression context");
      }
      ZSTD_DCtx_reset(ctx.zstd.get(), ZSTD_reset_session_only);
      streamDecode(
          in, maxSize, out,
          [&](const std::byte* src, std::size_t srcLen, std::byte* dst, std::size_t dstLen) {
            StepResult r;
            ZSTD_inBuffer ib{src, srcLen, 0};
            ZSTD_outBuffer ob{dst, dstLen, 0};
            std::size_t rc = ZSTD_decompressStream(ctx.zstd.get(), &ob, &ib);
            r.consumed = ib.pos;
            r.produced = ob.pos;
            if (ZSTD_isError(rc)) r.error = ZSTD_getErrorName(rc);
            else if (rc == 0) r.done = true;
            return r;
          },
          error, done);
      return {};
    }
    case Codec::Bz2: {
      bz_stream s{};
      if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK)
        return makeError(ErrorCode::Io, "cannot create a bz2 decompression context");
      streamDecode(
          in, maxSize, out,
          [&](const std::byte* src, std::size_t srcLen, std::byte* dst, std::size_t dstLen) {
            StepResult r;
            // bzlib counts in unsigned int: feed at most 1 GiB per step.
            constexpr std::size_t kStep = std::size_t{1} << 30;
            s.next_in = const_cast<char*>(reinterpret_cast<const char*>(src));
            s.avail_in = static_cast<unsigned>(std::min(srcLen, kStep));
            s.next_out = reinterpret_cast<char*>(dst);
            s.avail_out = static_cast<unsigned>(std::min(dstLen, kStep));
            unsigned inBefore = s.avail_in, outBefore = s.avail_out;
            int rc = BZ2_bzDecompress(&s);
            r.consumed = inBefore - s.avail_in;
            r.produced = outBefore - s.avail_out;
            if (rc == BZ_STREAM_END) r.done = true;
            else if (rc != BZ_OK) r.error = rc == BZ_DATA_ERROR_MAGIC ? "not bz2 data" : "corrupt bz2 data";
            return r;
          },
          error, done);
      BZ2_bzDecompressEnd(&s);
      return {};
    }
  }
  return makeError(ErrorCode::Unsupported, "unknown codec");
}

}  // namespace

bool codecFromName(std::string_view name, Codec& out) {
  if (name == "none" || name.empty()) out = Codec::None;
  else if (name == "bz2") out = Codec::Bz2;
  else if (name == "lz4") out = Codec::Lz4Frame;
  else if (name == "zstd") out = Codec::Zstd;
  else return false;
  return true;
}

const char* codecName(Codec codec) {
  switch (codec) {
    case Codec::None: return "none";
    case Codec::Bz2: return "bz2";
    case Codec::Lz4Frame: return "lz4";
    case Codec::Zstd: return "zstd";
  }
  return "?";
}

std::optional<std::uint64_t> frameContentSize(Codec codec, std::span<const std::byte> in) {
  if (codec == Codec::Zstd) {
    unsigned long long n = ZSTD_getFrameContentSize(in.data(), in.size());
    if (n == ZSTD_CONTENTSIZE_UNKNOWN || n == ZSTD_CONTENTSIZE_ERROR) return std::nullopt;
    return n;
  }
  if (codec == Codec::Lz4Frame) {
    LZ4F_dctx* raw = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&raw, LZ4F_VERSION))) return std::nullopt;
    std::unique_ptr<LZ4F_dctx, Lz4Deleter> ctx(raw);
    LZ4F_frameInfo_t info{};
    std::size_t consumed = in.size();
    if (LZ4F_isError(LZ4F_getFrameInfo(ctx.get(), &info, in.data(), &consumed)) || info.contentSize == 0)
      return std::nullopt;
    return info.contentSize;
  }
  return std::nullopt;
}

Result<void> decompressFile(const std::filesystem::path& in, const std::filesystem::path& out) {
  auto fail = [&](ErrorCode code, std::string why) {
    Error e = makeError(code, std::move(why));
    auto name = in.u8string();
    e.file.assign(name.begin(), name.end());
    return e;
  };
  std::ifstream src(in, std::ios::binary);
  if (!src) return fail(ErrorCode::Io, "cannot open");
  std::ofstream dst(out, std::ios::binary | std::ios::trunc);
  if (!dst) return fail(ErrorCode::Io, "cannot create the decompressed copy");
  std::unique_ptr<ZSTD_DCtx, ZstdDeleter> ctx(ZSTD_createDCtx());
  if (!ctx) return fail(ErrorCode::Io, "cannot create a zstd decompression context");
  std::vector<char> inBuf(ZSTD_DStreamInSize()), outBuf(ZSTD_DStreamOutSize());
  std::size_t last = 0;
  std::uint64_t consumed = 0;
  while (src) {
    src.read(inBuf.data(), static_cast<std::streamsize>(inBuf.size()));
    auto got = static_cast<std::size_t>(src.gcount());
    if (got == 0) break;
    ZSTD_inBuffer ib{inBuf.data(), got, 0};
    while (ib.pos < ib.size) {
      ZSTD_outBuffer ob{outBuf.data(), outBuf.size(), 0};
      last = ZSTD_decompressStream(ctx.get(), &ob, &ib);
      if (ZSTD_isError(last)) {
        Error e = fail(ErrorCode::Format, std::string("zstd data is corrupt: ") + ZSTD_getErrorName(last));
        e.offset = static_cast<std::int64_t>(consumed + ib.pos);
        return e;
      }
      dst.write(outBuf.data(), static_cast<std::streamsize>(ob.pos));
    }
    consumed += got;
  }
  if (last != 0) return fail(ErrorCode::Truncated, "the zstd stream ends early (the file is cut short)");
  if (!dst.flush()) return fail(ErrorCode::Io, "cannot write the decompressed copy");
  return {};
}

std::optional<std::string> implausibleSize(Codec codec, std::uint64_t compressedBytes, std::uint64_t claimed) {
  if (codec == Codec::None) return std::nullopt;  // the bytes are in the file: nothing is inflated
  auto said = [&] { return std::string(codecName(codec)) + " data claims " + std::to_string(claimed) + " bytes"; };
  if (claimed > kMaxUncompressedBytes)
    return said() +
           " uncompressed, more than the 1 GiB a chunk may hold (a damaged size, or a decompression bomb): "
           "it is not inflated";
  // The most each codec can make of its input: lz4 255 bytes a byte (plus a block's worth),
  // zstd a 128 KiB block from a 4-byte RLE block.
  std::uint64_t most = codec == Codec::Lz4Frame ? compressedBytes * 256 + (std::uint64_t{4} << 20)
                       : codec == Codec::Zstd   ? compressedBytes * 32768 + (std::uint64_t{1} << 20)
                                                : kMaxUncompressedBytes;
  if (claimed > most)
    return said() + " from " + std::to_string(compressedBytes) + ", more than " + codecName(codec) +
           " can produce (the size is damaged): it is not inflated";
  return std::nullopt;
}

Error sizeMismatch(Codec codec, std::uint64_t got, std::uint64_t expected) {
  // "uncompressed data holds N bytes", not "none data decompressed to N bytes".
  const ErrorCode code = got < expected ? ErrorCode::Truncated : ErrorCode::Format;
  if (codec == Codec::None)
    return makeError(
        code, "uncompressed data holds " + std::to_string(got) + " bytes, its header says " + std::to_string(expected));
  return makeError(code, std::string(codecName(codec)) + " data decompressed to " + std::to_string(got) +
                             " bytes, expected " + std::to_string(expected));
}

Decompressor::Decompressor() : contexts_(std::make_unique<Contexts>()) {}
Decompressor::~Decompressor() = default;

Result<void> Decompressor::decompress(Codec codec, std::span<const std::byte> in, std::size_t expectedSize,
                                      ByteBuffer& out) {
  if (auto why = implausibleSize(codec, in.size(), expectedSize)) {
    out.clear();
    return makeError(ErrorCode::Format, *why);
  }
  bool done = false;
  const char* error = nullptr;
  const bool lz4 = codec == Codec::Lz4Frame;
  if (auto r = run(*contexts_, codec, in, expectedSize, out, done, error, lz4); !r) return r;
  if (lz4 && !error && done) {
    Checked checked = lz4FrameChecksums(in, out.span());
    if (checked == Checked::Mismatch) error = "a checksum does not match (the data is damaged)";
    else if (checked == Checked::Unknown && !run(*contexts_, codec, in, expectedSize, out, done, error))
      return makeError(ErrorCode::Io, "cannot decode lz4 data");
  }
  const std::string what = codec == Codec::None ? std::string("uncompressed") : codecName(codec);
  if (error) return makeError(ErrorCode::Format, what + " data is corrupt: " + error);
  if (out.size() != expectedSize) return sizeMismatch(codec, out.size(), expectedSize);
  if (!done && codec != Codec::None)
    return makeError(ErrorCode::Truncated, what + " stream ends without its end marker");
  return {};
}

void Decompressor::decompressPrefix(Codec codec, std::span<const std::byte> in, std::size_t maxSize, ByteBuffer& out) {
  if (implausibleSize(codec, in.size(), maxSize)) return out.clear();
  bool done = false;
  const char* error = nullptr;
  if (!run(*contexts_, codec, in, maxSize, out, done, error)) out.clear();
}

Result<void> compress(Codec codec, std::span<const std::byte> in, ByteBuffer& out) {
  auto failed = [](std::string what) { return makeError(ErrorCode::Internal, "compression failed: " + what); };
  switch (codec) {
    case Codec::None:
      out.resize(in.size());
      if (!in.empty()) std::memcpy(out.data(), in.data(), in.size());
      return {};
    case Codec::Lz4Frame: {
      LZ4F_preferences_t prefs{};
      prefs.frameInfo.blockSizeID = LZ4F_max4MB;
      prefs.frameInfo.blockMode = LZ4F_blockIndependent;
      prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
      out.resize(LZ4F_compressFrameBound(in.size(), &prefs));
      std::size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &prefs);
      if (LZ4F_isError(n)) return failed(LZ4F_getErrorName(n));
      out.resize(n);
      return {};
    }
    case Codec::Zstd: {
      out.resize(ZSTD_compressBound(in.size()));
      // Level 1, what the MCAP library writes by default (so `ros2 bag record -s mcap`): about
      // twice level 3's speed for a few percent of size.
      std::size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 1);
      if (ZSTD_isError(n)) return failed(ZSTD_getErrorName(n));
      out.resize(n);
      return {};
    }
    case Codec::Bz2: {
      if (in.size() > 0xFFFF0000u) return failed("a bz2 chunk of over 4 GB");
      auto bound = static_cast<unsigned int>(in.size() + in.size() / 100 + 600);
      out.resize(bound);
      unsigned int n = bound;
      int rc = BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &n,
                                        const_cast<char*>(reinterpret_cast<const char*>(in.data())),
                                        static_cast<unsigned int>(in.size()), 9, 0, 0);
      if (rc != BZ_OK) return failed("bzip2 error " + std::to_string(rc));
      out.resize(n);
      return {};
    }
  }
  return failed("unknown codec");
}

}  // namespace bagscope::compress
