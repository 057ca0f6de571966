// Point cloud files: PCD v0.7 (ascii, binary, binary_compressed), PLY 1.0 (ascii,
// binary_little_endian), KITTI .bin, NumPy .npy structured arrays; and the LZF codec
// that PCD's binary_compressed needs.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/json_text.hpp"
#include "export.hpp"

namespace bagscope::exporters {
namespace {

using sensors::PointCloud;
using sensors::PointType;

// The value of an output channel at point i, as the channel's type (normalised: float).
struct Sample {
  const PointCloud& cloud;
  const OutputChannel& out;
  double scale;
  double get(std::size_t i) const {
    double v = cloud.value(i, out.channel);
    return out.normalise ? v * scale : v;
  }
};

PointType outputType(const OutputChannel& c) { return c.normalise ? PointType::Float32 : c.channel.type; }

// Little-endian bytes of v as `type` (the machines Bagscope runs on are little-endian).
void appendAs(PointType type, double v, std::string& out) {
  auto put = [&](auto x) { out.append(reinterpret_cast<const char*>(&x), sizeof x); };
  switch (type) {
    case PointType::Int8: put(static_cast<std::int8_t>(v)); break;
    case PointType::UInt8: put(static_cast<std::uint8_t>(v)); break;
    case PointType::Int16: put(static_cast<std::int16_t>(v)); break;
    case PointType::UInt16: put(static_cast<std::uint16_t>(v)); break;
    case PointType::Int32: put(static_cast<std::int32_t>(v)); break;
    case PointType::UInt32: put(static_cast<std::uint32_t>(v)); break;
    case PointType::Float32: put(static_cast<float>(v)); break;
    case PointType::Float64: put(v); break;
  }
}

void appendText(PointType type, double v, std::string& out) {
  if (type == PointType::Float32 || type == PointType::Float64) {
    if (std::isnan(v)) out += "nan";
    else if (std::isinf(v)) out += v > 0 ? "inf" : "-inf";
    else appendJsonDouble(type == PointType::Float32 ? static_cast<double>(static_cast<float>(v)) : v, out);
  } else {
    out += std::to_string(static_cast<long long>(v));
  }
}

// The packed rgb(a) of PCD stays a 4-byte value: its bits, not a number.
bool packedColour(const OutputChannel& c) { return c.channel.colourByte < 0 && (c.name == "rgb" || c.name == "rgba"); }

std::vector<Sample> samplers(const PointCloud& cloud, const std::vector<OutputChannel>& channels) {
  std::vector<Sample> s;
  for (const auto& c : channels) {
    double scale = 1;
    if (c.normalise) {
      double peak = 0;
      for (std::size_t i = 0; i < cloud.size(); ++i) {
        double v = cloud.value(i, c.channel);
        if (std::isfinite(v)) peak = std::max(peak, v);
      }
      scale = peak > 0 ? 1 / peak : 1;
    }
    s.push_back({cloud, c, scale});
  }
  return s;
}

std::size_t keptCount(const PointCloud& cloud, const std::vector<bool>& keep) {
  return keep.empty() ? cloud.size() : static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true));
}

}  // namespace

Result<std::vector<OutputChannel>> chooseChannels(const PointCloud& cloud, const ExportOptions& options) {
  bool pcd = options.format == Format::Pcd;
  auto all = cloud.channels(!pcd);  // PCL and Open3D read colour from a packed rgb field
  std::vector<OutputChannel> out;
  auto isIntensity = [](const std::string& n) { return n == "intensity" || n == "i"; };
  if (options.fields.empty()) {
    for (const auto& c : all) out.push_back({c, c.name, options.normaliseIntensity && isIntensity(c.name)});
    return out;
  }
  for (const auto& spec : options.fields) {
    auto eq = spec.find('=');
    std::string from = spec.substr(0, eq), to = eq == std::string::npos ? from : spec.substr(eq + 1);
    auto it = std::find_if(all.begin(), all.end(), [&](const sensors::Channel& c) { return c.name == from; });
    if (it == all.end()) {
      std::string names;
      for (const auto& c : all) names += (names.empty() ? "" : ", ") + c.name;
      return makeError(ErrorCode::InvalidArgument, "the cloud has no field '" + from + "' (it has " + names + ")");
    }
    out.push_back({*it, to, options.normaliseIntensity && isIntensity(from)});
  }
  return out;
}

std::string pcdBytes(const PointCloud& cloud, const std::vector<OutputChannel>& channels, const std::vector<bool>& keep,
                     PcdEncoding encoding) {
  std::size_t n = keptCount(cloud, keep);
  bool organized = keep.empty() && cloud.organized();
  std::string fields, sizes, types, counts;
  for (const auto& c : channels) {
    PointType t = packedColour(c) ? PointType::Float32 : outputType(c);
    fields += " " + c.name;
    sizes += " " + std::to_string(sensors::sizeOf(t));
    types += std::string(" ") + (packedColour(c) ? "F" : sensors::pcdTypeLetter(t));
    counts += " 1";
  }
  std::string out = "# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\nFIELDS" + fields + "\nSIZE" + sizes +
                    "\nTYPE" + types + "\nCOUNT" + counts + "\nWIDTH " +
                    std::to_string(organized ? cloud.width : n) + "\nHEIGHT " +
                    std::to_string(organized ? cloud.height : 1) + "\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS " +
                    std::to_string(n) + "\nDATA " +
                    (encoding == PcdEncoding::Ascii ? "ascii" : encoding == PcdEncoding::Binary ? "binary" : "binary_compressed") +
                    "\n";
  auto s = samplers(cloud, channels);
  auto packedBits = [&](std::size_t i, const OutputChannel& c) {
    std::uint32_t bits;
    std::memcpy(&bits, cloud.point(i) + c.channel.offset, 4);
    if (cloud.bigEndian) bits = __builtin_bswap32(bits);
    return bits;
  };
  if (encoding == PcdEncoding::Ascii) {
    for (std::size_t i = 0; i < cloud.size(); ++i) {
      if (!keep.empty() && !keep[i]) continue;
      for (std::size_t k = 0; k < channels.size(); ++k) {
        if (k) out += ' ';
        if (packedColour(channels[k])) {
          float f;
          std::uint32_t bits = packedBits(i, channels[k]);
          std::memcpy(&f, &bits, 4);
          appendText(PointType::Float32, f, out);  // PCL writes packed colour as its float
        } else {
          appendText(outputType(channels[k]), s[k].get(i), out);
        }
      }
      out += '\n';
    }
    return out;
  }
  std::string data;
  std::size_t pointBytes = 0;
  for (const auto& c : channels) pointBytes += sensors::sizeOf(packedColour(c) ? PointType::Float32 : outputType(c));
  data.reserve(n * pointBytes);
  auto appendValue = [&](std::size_t i, std::size_t k) {
    if (packedColour(channels[k])) {
      std::uint32_t bits = packedBits(i, channels[k]);
      data.append(reinterpret_cast<const char*>(&bits), 4);
    } else {
      appendAs(outputType(channels[k]), s[k].get(i), data);
    }
  };
  if (encoding == PcdEncoding::Binary) {
    for (std::size_t i = 0; i < cloud.size(); ++i) {
      if (!keep.empty() && !keep[i]) continue;
      for (std::size_t k = 0; k < channels.size(); ++k) appendValue(i, k);
    }
    return out + data;
  }
  // binary_compressed: field after field (all x, then all y, ...), LZF-compressed, after
  // the compressed and uncompressed sizes.
  for (std::size_t k = 0; k < channels.size(); ++k)
    for (std::size_t i = 0; i < cloud.size(); ++i)
      if (keep.empty() || keep[i]) appendValue(i, k);
  std::string packed = lzfCompress(data);
  auto u32 = [&](std::size_t v) {
    auto x = static_cast<std::uint32_t>(v);
    out.append(reinterpret_cast<const char*>(&x), 4);
  };
  u32(packed.size());
  u32(data.size());
  return out + packed;
}

std::string plyBytes(const PointCloud& cloud, const std::vector<OutputChannel>& channels, const std::vector<bool>& keep,
                     bool ascii, const std::string& comment) {
  static const char* plyType[] = {"", "char", "uchar", "short", "ushort", "int", "uint", "float", "double"};
  std::string out = std::string("ply\nformat ") + (ascii ? "ascii" : "binary_little_endian") + " 1.0\n";
  if (!comment.empty()) out += "comment " + comment + "\n";
  out += "element vertex " + std::to_string(keptCount(cloud, keep)) + "\n";
  for (const auto& c : channels) out += std::string("property ") + plyType[static_cast<int>(outputType(c))] + " " + c.name + "\n";
  out += "end_header\n";
  auto s = samplers(cloud, channels);
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    for (std::size_t k = 0; k < channels.size(); ++k) {
      if (ascii) {
        if (k) out += ' ';
        appendText(outputType(channels[k]), s[k].get(i), out);
      } else {
        appendAs(outputType(channels[k]), s[k].get(i), out);
      }
    }
    if (ascii) out += '\n';
  }
  return out;
}

std::string kittiBytes(const PointCloud& cloud, const std::vector<bool>& keep) {
  // x, y, z, intensity as float32; a cloud without intensity writes 0.
  auto channels = cloud.channels();
  auto find = [&](const char* name) -> const sensors::Channel* {
    for (const auto& c : channels)
      if (c.name == name) return &c;
    return nullptr;
  };
  const sensors::Channel* xyz[] = {find("x"), find("y"), find("z")};
  const sensors::Channel* in = find("intensity");
  if (!in) in = find("i");
  std::string out;
  out.reserve(keptCount(cloud, keep) * 16);
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    for (const auto* c : xyz) appendAs(PointType::Float32, c ? cloud.value(i, *c) : 0.0, out);
    appendAs(PointType::Float32, in ? cloud.value(i, *in) : 0.0, out);
  }
  return out;
}

std::string npyCloudBytes(const PointCloud& cloud, const std::vector<OutputChannel>& channels, const std::vector<bool>& keep) {
  static const char* descr[] = {"", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<f4", "<f8"};
  std::string header = "{'descr': [";
  for (const auto& c : channels) header += "('" + c.name + "', '" + descr[static_cast<int>(outputType(c))] + "'), ";
  bool organized = keep.empty() && cloud.organized();
  header += "], 'fortran_order': False, 'shape': (" +
            (organized ? std::to_string(cloud.height) + ", " + std::to_string(cloud.width)
                       : std::to_string(keptCount(cloud, keep)) + ",") + "), }";
  // NPY 1.0: magic, version, header length; the header padded so that data starts 64-aligned.
  std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  auto len = static_cast<std::uint16_t>(header.size());
  out.append(reinterpret_cast<const char*>(&len), 2);
  out += header;
  auto s = samplers(cloud, channels);
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    for (std::size_t k = 0; k < channels.size(); ++k) appendAs(outputType(channels[k]), s[k].get(i), out);
  }
  return out;
}

// ---- LZF --------------------------------------------------------------------------------
// liblzf's format: a control byte below 32 starts a run of ctrl + 1 literal bytes; above,
// its top 3 bits are the match length - 2 (7: another byte adds to it) and the low 5 bits
// with the next byte the distance - 1 (up to 8192 back).

std::string lzfCompress(std::string_view in) {
  constexpr std::size_t kHashBits = 14, kMaxOff = 1 << 13, kMaxRef = (1 << 8) + (1 << 3);
  std::vector<std::uint32_t> table(std::size_t{1} << kHashBits, 0);  // position + 1 of a 3-byte sequence
  std::string out;
  out.reserve(in.size() + in.size() / 16 + 64);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t n = in.size(), i = 0, litStart = out.size();
  out.push_back(0);  // control byte of the current literal run
  std::size_t lit = 0;
  auto closeLiterals = [&] {
    if (lit) out[litStart] = static_cast<char>(lit - 1);
    else out.pop_back();
  };
  auto hash = [&](std::size_t at) {
    std::uint32_t v = (std::uint32_t{p[at]} << 16) | (std::uint32_t{p[at + 1]} << 8) | p[at + 2];
    return ((v * 2654435761u) >> (32 - kHashBits)) & ((1u << kHashBits) - 1);
  };
  while (i + 2 < n) {
    std::uint32_t h = hash(i);
    std::size_t ref = table[h];
    table[h] = static_cast<std::uint32_t>(i + 1);
    if (ref && i - (ref - 1) - 1 < kMaxOff && i > ref - 1 && std::memcmp(p + ref - 1, p + i, 3) == 0) {
      std::size_t from = ref - 1, off = i - from - 1, len = 3;
      std::size_t maxLen = std::min(kMaxRef, n - i);
      while (len < maxLen && p[from + len] == p[i + len]) ++len;
      closeLiterals();
      std::size_t l = len - 2;
      if (l < 7) {
        out.push_back(static_cast<char>((off >> 8) + (l << 5)));
      } else {
        out.push_back(static_cast<char>((off >> 8) + (7 << 5)));
        out.push_back(static_cast<char>(l - 7));
      }
      out.push_back(static_cast<char>(off & 0xFF));
      i += len;
      litStart = out.size();
      out.push_back(0);
      lit = 0;
      continue;
    }
    out.push_back(static_cast<char>(p[i++]));
    if (++lit == 32) {
      out[litStart] = 31;
      litStart = out.size();
      out.push_back(0);
      lit = 0;
    }
  }
  while (i < n) {
    out.push_back(static_cast<char>(p[i++]));
    if (++lit == 32) {
      out[litStart] = 31;
      litStart = out.size();
      out.push_back(0);
      lit = 0;
    }
  }
  closeLiterals();
  return out;
}

std::optional<std::string> lzfDecompress(std::string_view in, std::size_t size) {
  std::string out;
  out.reserve(size);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  std::size_t i = 0, n = in.size();
  while (i < n) {
    unsigned ctrl = p[i++];
    if (ctrl < 32) {
      std::size_t len = ctrl + 1;
      if (i + len > n || out.size() + len > size) return std::nullopt;
      out.append(in.substr(i, len));
      i += len;
      continue;
    }
    std::size_t len = ctrl >> 5;
    if (len == 7) {
      if (i >= n) return std::nullopt;
      len += p[i++];
    }
    len += 2;
    if (i >= n) return std::nullopt;
    std::size_t back = ((ctrl & 0x1F) << 8) + p[i++] + 1;
    if (back > out.size() || out.size() + len > size) return std::nullopt;
    for (std::size_t k = 0; k < len; ++k) out.push_back(out[out.size() - back]);
  }
  if (out.size() != size) return std::nullopt;
  return out;
}

}  // namespace bagscope::exporters
