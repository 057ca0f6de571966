// core/base: digests, JSON text pieces, bounds-checked reads, byte sources.

#include <QtTest>

#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

#include "core/base/byte_cursor.hpp"
#include "core/base/byte_source.hpp"
#include "core/base/digest.hpp"
#include "core/base/job.hpp"
#include "core/base/json_text.hpp"
#include "core/base/stop.hpp"

using namespace bagscope;

namespace {
std::span<const std::byte> bytesOf(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}
}  // namespace

class TestBase : public QObject {
  Q_OBJECT

private slots:
  // A job whose work throws ends with the exception's text as its error; cancelling one
  // stops its work through the token; progress reaches its function, the end always.
  void aJobThatThrowsEndsWithItsError() {
    std::optional<Result<void>> outcome;
    auto job = startJob([](bagscope::StopToken,
                           const ProgressFn&) -> Result<void> { throw std::runtime_error("cv::Exception: bad size"); },
                        {}, [&](Result<void> r) { outcome = std::move(r); });
    job->wait();
    QVERIFY(outcome && !outcome->has_value());
    QCOMPARE(outcome->error().code, ErrorCode::Internal);
    QVERIFY2(outcome->error().describe().find("cv::Exception: bad size") != std::string::npos,
             outcome->error().describe().c_str());
  }

  void aJobIsCancelledThroughItsTokenAndReportsItsProgress() {
    std::atomic<int> calls{0};
    std::atomic<double> last{0};
    std::optional<Result<void>> outcome;
    auto job = startJob(
        [](StopToken stop, const ProgressFn& progress) -> Result<void> {
          for (int i = 0; !stop.stop_requested(); ++i) {
            progress(0.001 * (i % 1000));
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
          progress(1.0);
          return makeError(ErrorCode::Cancelled, "stopped");
        },
        [&](double f) {
          ++calls;
          last = f;
        },
        [&](Result<void> r) { outcome = std::move(r); });
    std::this_thread::sleep_for(std::chrono::milliseconds(350));
    QVERIFY(!job->finished());
    job->cancel();
    job->wait();
    QVERIFY(job->finished());
    QVERIFY(outcome && !outcome->has_value() && outcome->error().code == ErrorCode::Cancelled);
    // Throttled to one call per 100 ms, and always the last (1.0).
    QVERIFY2(calls >= 2 && calls <= 7, std::to_string(calls.load()).c_str());
    QCOMPARE(last.load(), 1.0);
  }

  void sha256MatchesFipsVectors() {
    // FIPS 180-4 examples and the empty string.
    QCOMPARE(sha256Hex(bytesOf("")), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    QCOMPARE(sha256Hex(bytesOf("abc")),
             std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    QCOMPARE(sha256Hex(bytesOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
             std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
  }

  void sha256AgreesWithQtOnEveryTailLength() {
    // Lengths around the 55/56/64-byte padding boundaries, checked against Qt's SHA-256.
    for (int n = 0; n < 200; ++n) {
      QByteArray data(n, '\0');
      for (int i = 0; i < n; ++i) data[i] = static_cast<char>(i * 7 + n);
      std::span<const std::byte> s(reinterpret_cast<const std::byte*>(data.constData()), data.size());
      QCOMPARE(QByteArray::fromStdString(sha256Hex(s)),
               QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
    }
  }

  void md5AgreesWithQtOnEveryTailLength() {
    QCOMPARE(md5Hex(bytesOf("")), std::string("d41d8cd98f00b204e9800998ecf8427e"));  // RFC 1321's suite
    QCOMPARE(md5Hex(bytesOf("message digest")), std::string("f96b697d7cb7938d525a2f31aaf161d0"));
    for (int n = 0; n < 200; ++n) {
      QByteArray data(n, '\0');
      for (int i = 0; i < n; ++i) data[i] = static_cast<char>(i * 7 + n);
      std::span<const std::byte> s(reinterpret_cast<const std::byte*>(data.constData()), data.size());
      QCOMPARE(QByteArray::fromStdString(md5Hex(s)), QCryptographicHash::hash(data, QCryptographicHash::Md5).toHex());
    }
  }

  void base64MatchesRfc4648Vectors() {
    const char* in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    const char* out[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; ++i) QCOMPARE(base64(bytesOf(in[i])), std::string(out[i]));
  }

  void jsonStringsEscapeControlsAndReplaceInvalidUtf8() {
    std::string out;
    appendJsonString("a\"b\\c\n\t\x01 こんにちは", out);
    QCOMPARE(out, std::string("\"a\\\"b\\\\c\\n\\t\\u0001 こんにちは\""));
    out.clear();
    appendJsonString(
        "x\xff"
        "y\xc3",
        out);  // a stray byte and a cut 2-byte sequence
    QCOMPARE(out, std::string("\"x\xEF\xBF\xBDy\xEF\xBF\xBD\""));
  }

  void jsonDoublesRoundTripAndStayFloats() {
    auto text = [](double v) {
      std::string s;
      appendJsonDouble(v, s);
      return s;
    };
    QCOMPARE(text(1.0), std::string("1.0"));
    QCOMPARE(text(0.0), std::string("0.0"));
    QCOMPARE(text(-0.0), std::string("-0.0"));
    QCOMPARE(text(-2.5), std::string("-2.5"));
    QCOMPARE(text(static_cast<double>(0.1f)), std::string("0.10000000149011612"));
    QCOMPARE(text(std::numeric_limits<double>::quiet_NaN()), std::string("\"nan\""));
    QCOMPARE(text(-std::numeric_limits<double>::infinity()), std::string("\"-inf\""));
    QCOMPARE(std::stod(text(1e-06)), 1e-06);
    QCOMPARE(std::stod(text(1.2345678901234568e+17)), 1.2345678901234568e+17);
  }

  void cursorNeverReadsPastTheEnd() {
    const std::byte data[6] = {std::byte{1}, std::byte{0}, std::byte{0}, std::byte{0}, std::byte{7}, std::byte{8}};
    ByteCursor c(data);
    std::uint32_t v = 0;
    QVERIFY(c.read(v));
    QCOMPARE(v, 1u);
    QVERIFY(!c.read(v));  // only 2 bytes left
    QCOMPARE(c.pos(), std::size_t{4});
    std::span<const std::byte> s;
    QVERIFY(!c.take(3, s));
    QVERIFY(c.take(2, s));
    QVERIFY(c.atEnd());
    QVERIFY(!c.skip(1));
  }

  void memorySourceRejectsRangesPastTheEnd() {
    auto src = memorySource(std::vector<std::byte>(10), "mem.bag");
    std::byte buf[4];
    QVERIFY(src->readAt(6, buf).has_value());
    auto r = src->readAt(7, buf);
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::Truncated);
    QCOMPARE(r.error().file, std::string("mem.bag"));
    QCOMPARE(r.error().offset, std::int64_t{7});
    QVERIFY(!src->readAt(std::numeric_limits<std::uint64_t>::max() - 1, buf));
  }

  void openingAMissingFileNamesIt() {
    auto r = openFile("/nonexistent/dir/x.bag");
    QVERIFY(!r);
    QCOMPARE(r.error().code, ErrorCode::Io);
    QVERIFY(QString::fromStdString(r.error().describe()).contains("/nonexistent/dir/x.bag"));
  }

  void anErrorSaysItsOffsetOnce() {
    Error e;
    e.message = "chunk at offset 69: lz4 data is corrupt";
    e.file = "x.mcap";
    e.offset = 69;
    QCOMPARE(e.describe(), std::string("'x.mcap': chunk at offset 69: lz4 data is corrupt"));
    e.offset = 6;  // "offset 69" does not name offset 6
    QCOMPARE(e.describe(), std::string("'x.mcap': chunk at offset 69: lz4 data is corrupt (offset 6)"));
    e.message = "bad record";
    e.offset = 4117;
    QCOMPARE(e.describe(), std::string("'x.mcap': bad record (offset 4117)"));
  }

  // Issue #34: the portable stand-ins for std::stop_source and std::jthread behave as those.
  void stopSourcesAndJoiningThreadsBehaveAsTheStandardOnes() {
    bagscope::StopToken never;
    QVERIFY(!never.stop_possible() && !never.stop_requested());
    bagscope::StopSource source;
    bagscope::StopToken token = source.get_token();
    bagscope::StopSource copy = source;  // copies share the state
    QVERIFY(token.stop_possible() && !token.stop_requested());
    QVERIFY(copy.request_stop());
    QVERIFY(!source.request_stop());  // made already
    QVERIFY(token.stop_requested() && source.stop_requested());

    std::atomic<int> seen{0};
    {
      bagscope::JoiningThread worker([&seen](bagscope::StopToken stop) {
        while (!stop.stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        seen = 1;
      });
      QVERIFY(worker.joinable());
    }  // asked to stop and joined here
    QCOMPARE(seen.load(), 1);
    bagscope::JoiningThread plain([&seen] { seen = 2; });  // a function without a token
    plain.join();
    QCOMPARE(seen.load(), 2);
    bagscope::JoiningThread moved(std::move(plain));
    QVERIFY(!moved.joinable());
  }
};

QTEST_GUILESS_MAIN(TestBase)
#include "tst_base.moc"
