// Point cloud files: PCD v0.7 (ascii, binary, binary_compressed), PLY 1.0 (ascii,
// binary_little_endian), KITTI .bin, NumPy .npy structured arrays; and the LZF codec
// that PCD's binary_compressed needs.

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/json_text.hpp"
#include "export.hpp"
#include "table.hpp"

namespace bagscope::exporters {
namespace {

using sensors::PointCloud;
using sensors::PointType;

// How one output channel is written, worked out once per cloud.
struct Plan {
  const PointCloud& cloud;
  const OutputChannel& out;
  double scale;    // normalisation factor
  PointType type;  // as written
  bool packed;     // a packed rgb(a): its 4 bytes as they are (PCD)
  bool direct;     // the bytes in the point are already what is written
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

std::vector<Plan> plansFor(const PointCloud& cloud, const std::vector<OutputChannel>& channels, bool keepPacked) {
  std::vector<Plan> plans;
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
    bool packed = keepPacked && packedColour(c);
    PointType type = packed ? PointType::Float32 : outputType(c);
    bool direct = !cloud.bigEndian && (packed || (!c.normalise && c.channel.colourByte < 0 && type == c.channel.type));
    plans.push_back({cloud, c, scale, type, packed, direct});
  }
  return plans;
}

// Appends point i's channels as binary little-endian values.
void appendPoint(const std::vector<Plan>& plans, std::size_t i, std::string& out) {
  const std::byte* point = plans.empty() ? nullptr : plans.front().cloud.point(i);
  for (const auto& p : plans) {
    if (p.direct) out.append(reinterpret_cast<const char*>(point + p.out.channel.offset), sensors::sizeOf(p.type));
    else if (p.packed) {  // big-endian packed colour
      std::uint32_t bits;
      std::memcpy(&bits, point + p.out.channel.offset, 4);
      bits = __builtin_bswap32(bits);
      out.append(reinterpret_cast<const char*>(&bits), 4);
    } else {
      appendAs(p.type, p.get(i), out);
    }
  }
}

std::size_t keptCount(const PointCloud& cloud, const std::vector<bool>& keep) {
  return keep.empty() ? cloud.size() : static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true));
}

// Calls fn(point) for every kept point, row by row (no division per point).
template <class Fn>
void forEachKeptPoint(const PointCloud& cloud, const std::vector<bool>& keep, Fn&& fn) {
  std::size_t i = 0;
  for (std::uint32_t row = 0; row < cloud.height; ++row) {
    const std::byte* point = cloud.data.data() + std::size_t{row} * cloud.rowStep;
    for (std::uint32_t column = 0; column < cloud.width; ++column, ++i, point += cloud.pointStep)
      if (keep.empty() || keep[i]) fn(point);
  }
}

// One run of `Length` bytes at `offset` of every kept point, to `dst` and every `stride`
// bytes after it: a copy of known size, which the compiler makes a few moves instead of a
// memcpy call per point.
template <std::size_t Length>
void copyRun(const PointCloud& cloud, const std::vector<bool>& keep, std::uint32_t offset, char* dst,
             std::size_t stride) {
  forEachKeptPoint(cloud, keep, [&](const std::byte* point) {
    std::memcpy(dst, point + offset, Length);
    dst += stride;
  });
}

// Appends every kept point's channels. When all channels are bytes of the point as they
// are, adjacent ones are copied together (x, y, z: one 12-byte copy), a run at a time.
void appendPoints(const std::vector<Plan>& plans, const std::vector<bool>& keep, std::string& out) {
  if (plans.empty()) return;
  const PointCloud& cloud = plans.front().cloud;
  bool direct = std::all_of(plans.begin(), plans.end(), [](const Plan& p) { return p.direct; });
  if (!direct) {
    for (std::size_t i = 0; i < cloud.size(); ++i)
      if (keep.empty() || keep[i]) appendPoint(plans, i, out);
    return;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> runs;  // offset in the point, length
  std::size_t pointBytes = 0;
  for (const auto& p : plans) {
    auto size = static_cast<std::uint32_t>(sensors::sizeOf(p.type));
    if (!runs.empty() && runs.back().first + runs.back().second == p.out.channel.offset) runs.back().second += size;
    else runs.push_back({p.out.channel.offset, size});
    pointBytes += size;
  }
  std::size_t at = out.size();
  out.resize(at + pointBytes * keptCount(cloud, keep));
  char* dst = out.data() + at;
  for (const auto& run : runs) {
    const std::uint32_t offset = run.first, length = run.second;
    switch (length) {  // the usual sizes of a value or of x y z (12), x y z w (16)
      case 1: copyRun<1>(cloud, keep, offset, dst, pointBytes); break;
      case 2: copyRun<2>(cloud, keep, offset, dst, pointBytes); break;
      case 4: copyRun<4>(cloud, keep, offset, dst, pointBytes); break;
      case 8: copyRun<8>(cloud, keep, offset, dst, pointBytes); break;
      case 12: copyRun<12>(cloud, keep, offset, dst, pointBytes); break;
      case 16: copyRun<16>(cloud, keep, offset, dst, pointBytes); break;
      case 24: copyRun<24>(cloud, keep, offset, dst, pointBytes); break;
      default:
        forEachKeptPoint(cloud, keep, [&, to = dst](const std::byte* point) mutable {
          std::memcpy(to, point + offset, length);
          to += pointBytes;
        });
    }
    dst += length;
  }
}

}  // namespace

Result<std::vector<OutputChannel>> chooseChannels(const PointCloud& cloud, const ExportOptions& options) {
  auto all = cloud.channels(!formatInfo(options.format).cloud.packedColour);
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
  auto plans = plansFor(cloud, channels, true);
  std::string fields, sizes, types, counts;
  std::size_t pointBytes = 0;
  for (const auto& p : plans) {
    fields += " " + p.out.name;
    sizes += " " + std::to_string(sensors::sizeOf(p.type));
    types += std::string(" ") + sensors::pcdTypeLetter(p.type);
    counts += " 1";
    pointBytes += sensors::sizeOf(p.type);
  }
  std::string out = "# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\nFIELDS" + fields + "\nSIZE" + sizes +
                    "\nTYPE" + types + "\nCOUNT" + counts + "\nWIDTH " + std::to_string(organized ? cloud.width : n) +
                    "\nHEIGHT " + std::to_string(organized ? cloud.height : 1) + "\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS " +
                    std::to_string(n) + "\nDATA " +
                    (encoding == PcdEncoding::Ascii    ? "ascii"
                     : encoding == PcdEncoding::Binary ? "binary"
                                                       : "binary_compressed") +
                    "\n";
  if (encoding == PcdEncoding::Ascii) {
    std::string value;
    for (std::size_t i = 0; i < cloud.size(); ++i) {
      if (!keep.empty() && !keep[i]) continue;
      for (std::size_t k = 0; k < plans.size(); ++k) {
        if (k) out += ' ';
        if (plans[k].packed) {  // PCL writes a packed colour as the float its bits make
          value.clear();
          appendPoint({plans[k]}, i, value);
          float f;
          std::memcpy(&f, value.data(), 4);
          appendText(PointType::Float32, f, out);
        } else {
          appendText(plans[k].type, plans[k].get(i), out);
        }
      }
      out += '\n';
    }
    return out;
  }
  if (encoding == PcdEncoding::Binary) {
    appendPoints(plans, keep, out);
    return out;
  }
  // binary_compressed: field after field (all x, then all y, ...), LZF-compressed, after
  // the compressed and uncompressed sizes.
  std::string data;
  data.reserve(n * pointBytes);
  for (const auto& p : plans) appendPoints({p}, keep, data);
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
  auto plans = plansFor(cloud, channels, false);
  std::string out = std::string("ply\nformat ") + (ascii ? "ascii" : "binary_little_endian") + " 1.0\n";
  if (!comment.empty()) out += "comment " + comment + "\n";
  out += "element vertex " + std::to_string(keptCount(cloud, keep)) + "\n";
  for (const auto& p : plans)
    out += std::string("property ") + plyType[static_cast<int>(p.type)] + " " + p.out.name + "\n";
  out += "end_header\n";
  if (!ascii) {
    appendPoints(plans, keep, out);
    return out;
  }
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    for (std::size_t k = 0; k < plans.size(); ++k) {
      if (k) out += ' ';
      appendText(plans[k].type, plans[k].get(i), out);
    }
    out += '\n';
  }
  return out;
}

const sensors::Channel* channelNamed(const std::vector<sensors::Channel>& channels,
                                     std::initializer_list<const char*> names) {
  for (const char* name : names)
    for (const auto& c : channels)
      if (c.name == name) return &c;
  return nullptr;
}

std::string kittiBytes(const PointCloud& cloud, const std::vector<bool>& keep) {
  // x, y, z, intensity as float32; a cloud without intensity writes 0.
  auto channels = cloud.channels();
  const sensors::Channel* xyz[] = {channelNamed(channels, {"x"}), channelNamed(channels, {"y"}),
                                   channelNamed(channels, {"z"})};
  const sensors::Channel* in = channelNamed(channels, {"intensity", "i"});
  std::string out;
  out.reserve(keptCount(cloud, keep) * 16);
  for (std::size_t i = 0; i < cloud.size(); ++i) {
    if (!keep.empty() && !keep[i]) continue;
    for (const auto* c : xyz) appendAs(PointType::Float32, c ? cloud.value(i, *c) : 0.0, out);
    appendAs(PointType::Float32, in ? cloud.value(i, *in) : 0.0, out);
  }
  return out;
}

std::string npyCloudBytes(const PointCloud& cloud, const std::vector<OutputChannel>& channels,
                          const std::vector<bool>& keep) {
  static const char* descr[] = {"", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<f4", "<f8"};
  auto plans = plansFor(cloud, channels, false);
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& p : plans) fields.emplace_back(p.out.name, descr[static_cast<int>(p.type)]);
  bool organized = keep.empty() && cloud.organized();
  std::string out =
      detail::npyPreamble(fields, organized ? std::to_string(cloud.height) + ", " + std::to_string(cloud.width)
                                            : std::to_string(keptCount(cloud, keep)) + ",");
  if (out.empty()) return out;  // more fields than a NumPy 1.0 header holds
  appendPoints(plans, keep, out);
  return out;
}

namespace {

// The points with finite x, y and z (empty: the cloud has no x, y, z to judge by).
std::vector<bool> finitePoints(const PointCloud& cloud) {
  const sensors::Channel *x = nullptr, *y = nullptr, *z = nullptr;
  auto channels = cloud.channels(false);
  for (const auto& c : channels) {
    if (c.name == "x") x = &c;
    if (c.name == "y") y = &c;
    if (c.name == "z") z = &c;
  }
  std::vector<bool> keep;
  if (!x || !y || !z) return keep;
  keep.resize(cloud.size());
  for (std::size_t i = 0; i < cloud.size(); ++i)
    keep[i] =
        std::isfinite(cloud.value(i, *x)) && std::isfinite(cloud.value(i, *y)) && std::isfinite(cloud.value(i, *z));
  return keep;
}

}  // namespace

Result<std::string> cloudFileBytes(const PointCloud& cloud, const ExportOptions& options, const std::string& comment) {
  const CloudFileWriter& writer = formatInfo(options.format).cloud;
  if (!writer.write)
    return makeError(ErrorCode::InvalidArgument, std::string(formatName(options.format)) + " is not a cloud format");
  std::vector<bool> keep;
  if (options.dropNaN || writer.fixedFields) keep = finitePoints(cloud);
  std::vector<OutputChannel> channels;
  if (!writer.fixedFields) {
    auto chosen = chooseChannels(cloud, options);
    BAGSCOPE_TRY(chosen);
    channels = std::move(chosen).value();
  }
  return writer.write(cloud, channels, keep, options, comment);
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
  auto literal = [&](unsigned char byte) {
    out.push_back(static_cast<char>(byte));
    if (++lit == 32) {  // a run holds at most 32 literals
      out[litStart] = 31;
      litStart = out.size();
      out.push_back(0);
      lit = 0;
    }
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
    literal(p[i++]);
  }
  while (i < n) literal(p[i++]);
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
