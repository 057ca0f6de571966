// core/compress: data compressed by the reference libraries decompresses to the original;
// cut, corrupt and lying inputs are errors, never crashes or oversized allocations.

#include <QtTest>

#include <cstring>

#include <bzlib.h>
#include <lz4frame.h>
#include <zstd.h>

#include "core/compress/decompress.hpp"

using namespace bagscope;
using compress::Codec;

namespace {

std::vector<std::byte> sample(std::size_t n) {
  std::vector<std::byte> v(n);
  std::uint32_t x = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 1103515245 + 12345;
    // Half noise, half runs: compressible but not trivially.
    v[i] = static_cast<std::byte>((i / 64) % 2 ? (x >> 24) : (i / 256));
  }
  return v;
}

std::vector<std::byte> compressWith(Codec codec, const std::vector<std::byte>& in) {
  std::vector<std::byte> out;
  switch (codec) {
    case Codec::Lz4Frame: {
      out.resize(LZ4F_compressFrameBound(in.size(), nullptr));
      std::size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), nullptr);
      out.resize(n);
      break;
    }
    case Codec::Zstd: {
      out.resize(ZSTD_compressBound(in.size()));
      out.resize(ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3));
      break;
    }
    case Codec::Bz2: {
      unsigned len = static_cast<unsigned>(in.size() + in.size() / 100 + 600);
      out.resize(len);
      char none = 0;  // bzlib refuses a null source even for 0 bytes
      BZ2_bzBuffToBuffCompress(reinterpret_cast<char*>(out.data()), &len,
                               in.empty() ? &none : const_cast<char*>(reinterpret_cast<const char*>(in.data())),
                               static_cast<unsigned>(in.size()), 9, 0, 0);
      out.resize(len);
      break;
    }
    case Codec::None: out = in; break;
  }
  return out;
}

// One for the whole suite, so that every test also checks that contexts are reset between
// calls (a stale LZ4/zstd state would corrupt the next output).
compress::Decompressor& decompressor() {
  static compress::Decompressor d;
  return d;
}

}  // namespace

class TestCompress : public QObject {
  Q_OBJECT

private slots:
  void roundTripsReferenceOutput_data() {
    QTest::addColumn<int>("codec");
    QTest::addColumn<int>("size");
    for (auto [name, codec] : {std::pair{"lz4", Codec::Lz4Frame}, {"zstd", Codec::Zstd}, {"bz2", Codec::Bz2}}) {
      for (int size : {0, 1, 1000, 3 << 20}) {
        QTest::addRow("%s/%d", name, size) << int(codec) << size;
      }
    }
  }
  void roundTripsReferenceOutput() {
    QFETCH(int, codec);
    QFETCH(int, size);
    auto original = sample(static_cast<std::size_t>(size));
    auto packed = compressWith(Codec(codec), original);
    ByteBuffer out;
    auto r = decompressor().decompress(Codec(codec), packed, original.size(), out);
    QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
    QCOMPARE(out.size(), original.size());
    QVERIFY(std::equal(original.begin(), original.end(), out.data()));
  }

  void cutInputIsTruncatedAndPrefixRecoversPart_data() { roundTripsReferenceOutput_data(); }
  void cutInputIsTruncatedAndPrefixRecoversPart() {
    QFETCH(int, codec);
    QFETCH(int, size);
    if (size < 1000) return;  // nothing worth cutting
    auto original = sample(static_cast<std::size_t>(size));
    auto packed = compressWith(Codec(codec), original);
    packed.resize(packed.size() * 3 / 4);
    ByteBuffer out;
    auto r = decompressor().decompress(Codec(codec), packed, original.size(), out);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::Truncated);
    decompressor().decompressPrefix(Codec(codec), packed, original.size(), out);
    QVERIFY(out.size() < original.size());
    QVERIFY(std::equal(out.data(), out.data() + out.size(), original.begin()));
    // Whole blocks come out of a cut stream: lz4 and zstd blocks are small enough that a
    // 3 MB input yields some; bz2's are 900 kB, and 1000 bytes is one block of any codec.
    if (Codec(codec) != Codec::Bz2 && size > 1000) QVERIFY(out.size() > 0);
  }

  void corruptInputIsFormatError() {
    for (Codec codec : {Codec::Lz4Frame, Codec::Zstd, Codec::Bz2}) {
      auto original = sample(100000);
      auto packed = compressWith(codec, original);
      for (std::size_t i = 0; i < 8; ++i) packed[i] ^= std::byte{0x5a};  // break the frame header
      ByteBuffer out;
      auto r = decompressor().decompress(codec, packed, original.size(), out);
      QVERIFY(!r);
      QCOMPARE(r.error().code, ErrorCode::Format);
    }
  }

  // LZ4 frames carry checksums of each block and of the content: damage the decoder cannot
  // see (here, in the checksums themselves) is still an error, for frames with and without
  // a content size, whoever checks them.
  void lz4ChecksumsCatchWhatTheDecoderCannotSee() {
    auto original = sample(3 << 20);
    for (bool withSize : {false, true}) {
      LZ4F_preferences_t prefs{};
      prefs.frameInfo.blockSizeID = LZ4F_max256KB;  // several blocks
      prefs.frameInfo.blockMode = LZ4F_blockIndependent;
      prefs.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled;
      prefs.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled;
      prefs.frameInfo.contentSize = withSize ? original.size() : 0;
      std::vector<std::byte> packed(LZ4F_compressFrameBound(original.size(), &prefs));
      packed.resize(LZ4F_compressFrame(packed.data(), packed.size(), original.data(), original.size(), &prefs));
      ByteBuffer out;
      auto intact = decompressor().decompress(Codec::Lz4Frame, packed, original.size(), out);
      QVERIFY2(intact.has_value(), intact ? "" : intact.error().message.c_str());
      QVERIFY(out.size() == original.size() && std::equal(original.begin(), original.end(), out.data()));

      auto contentSum = packed;
      contentSum[contentSum.size() - 1] ^= std::byte{1};
      auto r = decompressor().decompress(Codec::Lz4Frame, contentSum, original.size(), out);
      QVERIFY(!r);
      QCOMPARE(r.error().code, ErrorCode::Format);

      // The first block's checksum: after the header (7 bytes, 15 with the size) and the block.
      auto blockSum = packed;
      std::size_t header = withSize ? 15 : 7;
      std::uint32_t word = 0;
      std::memcpy(&word, blockSum.data() + header, 4);
      blockSum[header + 4 + (word & 0x7FFFFFFFu)] ^= std::byte{1};
      r = decompressor().decompress(Codec::Lz4Frame, blockSum, original.size(), out);
      QVERIFY(!r);
      QCOMPARE(r.error().code, ErrorCode::Format);
    }
  }

  // liblz4 keeps the content size of a frame left unfinished across its context's reset: the
  // next frame without one failed with ERROR_frameSize_wrong (a cut MCAP lz4 chunk spoiled
  // the next chunk read on that thread).
  void anUnfinishedLz4FrameDoesNotSpoilTheNext() {
    auto original = sample(1 << 20);
    LZ4F_preferences_t sized{};
    sized.frameInfo.contentSize = original.size();
    std::vector<std::byte> withSize(LZ4F_compressFrameBound(original.size(), &sized));
    withSize.resize(LZ4F_compressFrame(withSize.data(), withSize.size(), original.data(), original.size(), &sized));
    withSize.resize(withSize.size() / 2);
    compress::Decompressor d;
    ByteBuffer out;
    d.decompressPrefix(Codec::Lz4Frame, withSize, original.size(), out);
    QVERIFY(out.size() > 0 && out.size() < original.size());
    auto plain = compressWith(Codec::Lz4Frame, original);
    auto r = d.decompress(Codec::Lz4Frame, plain, original.size(), out);
    QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
    QVERIFY(out.size() == original.size() && std::equal(original.begin(), original.end(), out.data()));
  }

  void wrongClaimedSizeIsAnErrorAndAllocatesOnlyWhatIsProduced() {
    auto original = sample(5000);
    auto packed = compressWith(Codec::Lz4Frame, original);
    ByteBuffer out;
    // A header claiming 1 MiB for 5 kB of data must not make us allocate 1 MiB up front.
    auto r = decompressor().decompress(Codec::Lz4Frame, packed, std::size_t{1} << 20, out);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::Truncated);
    QVERIFY(out.capacity() < (std::size_t{1} << 20));
    // Claiming less than the data holds is an error too.
    QVERIFY(!decompressor().decompress(Codec::Lz4Frame, packed, 100, out));
    // Uncompressed data of the wrong size says so in words (not "none data decompressed to").
    auto plain = decompressor().decompress(Codec::None, original, 6000, out);
    QVERIFY(!plain);
    QCOMPARE(QString::fromStdString(plain.error().message),
             QStringLiteral("uncompressed data holds 5000 bytes, its header says 6000"));
  }

  // Decompression bombs: a claimed size past 1 GiB, or past what the codec can make of the
  // bytes given, is refused before anything is inflated.
  void implausibleSizesAreRefusedUninflated() {
    std::vector<std::byte> zeros(std::size_t{64} << 20);
    for (Codec codec : {Codec::Lz4Frame, Codec::Zstd, Codec::Bz2}) {
      auto packed = compressWith(codec, zeros);
      ByteBuffer out;
      QElapsedTimer timer;
      timer.start();
      for (std::uint64_t claim : {(std::uint64_t{1} << 30) + 1, std::uint64_t{4} << 30, ~std::uint64_t{0}}) {
        auto r = decompressor().decompress(codec, packed, static_cast<std::size_t>(claim), out);
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Format);
        QVERIFY2(r.error().message.find("more than the 1 GiB a chunk may hold") != std::string::npos,
                 r.error().message.c_str());
        QCOMPARE(out.size(), std::size_t{0});
        decompressor().decompressPrefix(codec, packed, static_cast<std::size_t>(claim), out);
        QCOMPARE(out.size(), std::size_t{0});
      }
      QVERIFY2(timer.elapsed() < 100, "nothing was to be inflated");
      // What the data really holds is still read.
      QVERIFY(decompressor().decompress(codec, packed, zeros.size(), out));
      QCOMPARE(out.size(), zeros.size());
    }
    // Past the codec's own greatest ratio (lz4: 255 bytes a byte; zstd: 32768).
    auto lz4 = compressWith(Codec::Lz4Frame, sample(5000));
    ByteBuffer out;
    auto r = decompressor().decompress(Codec::Lz4Frame, lz4, lz4.size() * 256 + (std::size_t{5} << 20), out);
    QVERIFY(!r);
    QVERIFY2(r.error().message.find("more than lz4 can produce") != std::string::npos, r.error().message.c_str());
    auto zstd = compressWith(Codec::Zstd, sample(5000));
    r = decompressor().decompress(Codec::Zstd, zstd, zstd.size() * 32768 + (std::size_t{2} << 20), out);
    QVERIFY(!r);
    QVERIFY2(r.error().message.find("more than zstd can produce") != std::string::npos, r.error().message.c_str());
  }

  void knowsCodecNames() {
    Codec c;
    QVERIFY(compress::codecFromName("lz4", c) && c == Codec::Lz4Frame);
    QVERIFY(compress::codecFromName("bz2", c) && c == Codec::Bz2);
    QVERIFY(compress::codecFromName("none", c) && c == Codec::None);
    QVERIFY(!compress::codecFromName("gzip", c));
  }
};

QTEST_GUILESS_MAIN(TestCompress)
#include "tst_compress.moc"
