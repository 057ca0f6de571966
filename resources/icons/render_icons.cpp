// bagscope-render-icons SVG OUTDIR APP_ID: the app icon at build time, from the one SVG.
// Writes OUTDIR/hicolor/<n>x<n>/apps/APP_ID.png (freedesktop icon theme sizes),
// OUTDIR/bagscope.ico (Windows: executable and installer) and OUTDIR/bagscope.icns (macOS
// bundle). ICO and ICNS hold PNG images, written here so no image plugin or iconutil is needed.

#include <QBuffer>
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgRenderer>

#include <cstdio>
#include <utility>
#include <vector>

namespace {

QByteArray renderPng(QSvgRenderer& svg, int size) {
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  svg.render(&painter);
  painter.end();
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return png;
}

bool save(const QString& path, const QByteArray& bytes) {
  QDir().mkpath(QFileInfo(path).path());
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
    std::fprintf(stderr, "bagscope-render-icons: cannot write %s\n", qPrintable(path));
    return false;
  }
  return true;
}

void putLe16(QByteArray& out, int v) { out.append(char(v & 0xff)).append(char((v >> 8) & 0xff)); }
void putLe32(QByteArray& out, qint64 v) { putLe16(out, int(v & 0xffff)), putLe16(out, int((v >> 16) & 0xffff)); }
void putBe32(QByteArray& out, qint64 v) {
  for (int shift : {24, 16, 8, 0}) out.append(char((v >> shift) & 0xff));
}

// ICO: ICONDIR, one ICONDIRENTRY per image, then the PNGs (Windows Vista and later).
QByteArray ico(const std::vector<std::pair<int, QByteArray>>& images) {
  QByteArray out;
  putLe16(out, 0);
  putLe16(out, 1);  // type: icon
  putLe16(out, int(images.size()));
  qint64 offset = 6 + 16 * qint64(images.size());
  for (const auto& [size, png] : images) {
    out.append(char(size >= 256 ? 0 : size)).append(char(size >= 256 ? 0 : size));  // 0 means 256
    out.append(char(0)).append(char(0));                                            // no palette, reserved
    putLe16(out, 1);                                                                // colour planes
    putLe16(out, 32);                                                               // bits per pixel
    putLe32(out, png.size());
    putLe32(out, offset);
    offset += png.size();
  }
  for (const auto& image : images) out.append(image.second);
  return out;
}

// ICNS: 'icns', total length, then (OSType, length including its 8-byte header, PNG) entries.
QByteArray icns(const std::vector<std::pair<QByteArray, QByteArray>>& entries) {
  QByteArray body;
  for (const auto& [type, png] : entries) {
    body.append(type);
    putBe32(body, png.size() + 8);
    body.append(png);
  }
  QByteArray out("icns");
  putBe32(out, body.size() + 8);
  return out + body;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: bagscope-render-icons SVG OUTDIR APP_ID\n");
    return 2;
  }
  QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
  if (!svg.isValid()) {
    std::fprintf(stderr, "bagscope-render-icons: %s is not a valid SVG\n", argv[1]);
    return 1;
  }
  const QString out = QString::fromLocal8Bit(argv[2]);
  const QString appId = QString::fromLocal8Bit(argv[3]);
  std::vector<std::pair<int, QByteArray>> png;
  for (int size : {16, 22, 24, 32, 48, 64, 128, 256, 512, 1024}) png.emplace_back(size, renderPng(svg, size));
  auto at = [&](int size) {
    for (const auto& [s, bytes] : png)
      if (s == size) return bytes;
    return QByteArray();
  };

  bool ok = true;
  for (const auto& [size, bytes] : png) {
    if (size > 512) continue;  // the theme's largest fixed size
    ok &= save(QStringLiteral("%1/hicolor/%2x%2/apps/%3.png").arg(out).arg(size).arg(appId), bytes);
  }
  ok &= save(out + QStringLiteral("/bagscope.ico"),
             ico({{16, at(16)}, {24, at(24)}, {32, at(32)}, {48, at(48)}, {64, at(64)}, {256, at(256)}}));
  ok &= save(out + QStringLiteral("/bagscope.icns"), icns({{"icp4", at(16)},
                                                           {"icp5", at(32)},
                                                           {"ic11", at(32)},
                                                           {"icp6", at(64)},
                                                           {"ic12", at(64)},
                                                           {"ic07", at(128)},
                                                           {"ic08", at(256)},
                                                           {"ic13", at(256)},
                                                           {"ic09", at(512)},
                                                           {"ic14", at(512)},
                                                           {"ic10", at(1024)}}));
  return ok ? 0 : 1;
}
