// The formats' options: one row each. The command line's flags and usage, the wizard's
// controls, its remembered values and its summary of what applies are all made from this
// table; a format's row names the options it takes (formats.cpp).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include <fast_float/fast_float.h>

#include "export.hpp"

// Marks the app's texts for Qt's lupdate (core itself does not use Qt); the wizard
// translates them in the context "ExportOption".
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, text) text
#endif

namespace bagscope::exporters {
namespace {

using O = ExportOptions;

std::string flagText(bool on) { return on ? "true" : ""; }
bool isOn(std::string_view text) { return text == "true"; }

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}
std::vector<std::string> splitList(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= text.size();) {
    auto comma = std::min(text.find(',', at), text.size());
    auto item = text.substr(at, comma - at);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    at = comma + 1;
  }
  return out;
}

// The shortest text that reads back as `v` ("95", "12.5"), whatever the process' locale (the
// app's may write "12,5"; to_string follows it).
std::string numberText(double v) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}
double numberOf(std::string_view text) {
  double v = 0;
  fast_float::from_chars(text.data(), text.data() + text.size(), v);  // checked by setOption
  return v;
}

// Setters and getters of the common kinds, by the field they set.
template <bool O::*field>
Result<void> setFlag(O& o, std::string_view t) {
  o.*field = isOn(t);
  return {};
}
template <bool O::*field>
std::string getFlag(const O& o) {
  return flagText(o.*field);
}
template <typename N, N O::*field>
Result<void> setNumber(O& o, std::string_view t) {
  o.*field = static_cast<N>(numberOf(t));  // checked against the row's range first
  return {};
}
template <typename N, N O::*field>
std::string getNumber(const O& o) {
  return numberText(static_cast<double>(o.*field));
}

constexpr OptionChoice kPcdEncodings[] = {
    {"binary", QT_TRANSLATE_NOOP("ExportOption", "binary")},
    {"binary_compressed", QT_TRANSLATE_NOOP("ExportOption", "binary_compressed")},
    {"ascii", QT_TRANSLATE_NOOP("ExportOption", "ascii")},
};
constexpr PcdEncoding kPcdEncodingOf[] = {PcdEncoding::Binary, PcdEncoding::BinaryCompressed, PcdEncoding::Ascii};

constexpr OptionChoice kTimeColumns[] = {
    {"both", QT_TRANSLATE_NOOP("ExportOption", "log time and header stamp")},
    {"log", QT_TRANSLATE_NOOP("ExportOption", "log time")},
    {"stamp", QT_TRANSLATE_NOOP("ExportOption", "header stamp")},
};
constexpr TimeColumns kTimeColumnsOf[] = {TimeColumns::Both, TimeColumns::LogTime, TimeColumns::Stamp};

constexpr OptionChoice kVideoCodecs[] = {
    {"h264", QT_TRANSLATE_NOOP("ExportOption", "H.264 (plays everywhere)")},
    {"mp4v", QT_TRANSLATE_NOOP("ExportOption", "MPEG-4 Part 2 (mp4v)")},
};
constexpr OptionChoice kVideoTimes[] = {
    {"log", QT_TRANSLATE_NOOP("ExportOption", "log time")},
    {"stamp", QT_TRANSLATE_NOOP("ExportOption", "header stamp")},
};
// libx264's presets, fastest first.
constexpr OptionChoice kPresets[] = {
    {"ultrafast", "ultrafast"}, {"superfast", "superfast"}, {"veryfast", "veryfast"},
    {"faster", "faster"},       {"fast", "fast"},           {"medium", "medium"},
    {"slow", "slow"},           {"slower", "slower"},       {"veryslow", "veryslow"},
};

// Aligned tables are the command line's (the app's plot exports its series): plain labels.
constexpr OptionChoice kFills[] = {
    {"previous", "the last message at or before"},
    {"linear", "interpolated between messages"},
    {"none", "a message at exactly that time"},
};
constexpr Fill kFillOf[] = {Fill::Previous, Fill::Linear, Fill::None};

template <typename E, std::size_t N>
std::size_t choiceIndex(const E (&of)[N], E value) {
  return static_cast<std::size_t>(std::find(of, of + N, value) - of);
}
template <std::size_t N>
std::size_t choiceIndex(const OptionChoice (&choices)[N], std::string_view text) {
  return static_cast<std::size_t>(
      std::find_if(choices, choices + N, [&](const OptionChoice& c) { return text == c.value; }) - choices);
}

// "ascii" comes before "pcd-encoding": on the command line `--ascii` also makes PCD text
// unless an encoding follows; in the app, which applies the rows in order, the encoding box
// keeps its own choice.
constexpr FormatOption kOptions[] = {
    {"ascii",
     nullptr,
     OptionGroup::Cloud,
     OptionKind::Flag,
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "PLY (and PCD) as text instead of binary"),
     QT_TRANSLATE_NOOP("ExportOption", "PLY as text (ascii) instead of binary"),
     nullptr,
     nullptr,
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       o.plyAscii = isOn(t);
       if (o.plyAscii) o.pcdEncoding = PcdEncoding::Ascii;
       return {};
     },
     [](const O& o) { return flagText(o.plyAscii); }},
    {"pcd-encoding", nullptr, OptionGroup::Cloud, OptionKind::Choice, "E",
     QT_TRANSLATE_NOOP("ExportOption", "how PCD stores points"), QT_TRANSLATE_NOOP("ExportOption", "PCD encoding:"),
     nullptr, nullptr, kPcdEncodings, 0, 0,
     [](O& o, std::string_view t) -> Result<void> {
       o.pcdEncoding = kPcdEncodingOf[choiceIndex(kPcdEncodings, t)];
       return {};
     },
     [](const O& o) -> std::string { return kPcdEncodings[choiceIndex(kPcdEncodingOf, o.pcdEncoding)].value; }},
    {"fields",
     nullptr,
     OptionGroup::Cloud,
     OptionKind::List,
     "x,y,z,intensity=i",
     QT_TRANSLATE_NOOP("ExportOption",
                       "the fields to write, in order; name=newname renames (PLY, PCD and NumPy field names)"),
     QT_TRANSLATE_NOOP("ExportOption", "Fields:"),
     QT_TRANSLATE_NOOP("ExportOption", "all fields, e.g. x,y,z,intensity=reflectance"),
     QT_TRANSLATE_NOOP("ExportOption", "fields %1 only"),
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       o.fields = splitList(t);
       return {};
     },
     [](const O& o) { return joined(o.fields); }},
    {"drop-nan",
     nullptr,
     OptionGroup::Cloud,
     OptionKind::Flag,
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "leave out points without x, y, z (NaN); always for bin and las"),
     QT_TRANSLATE_NOOP("ExportOption", "Leave out points without x, y, z (NaN)"),
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "points without x, y, z left out"),
     {},
     0,
     0,
     setFlag<&O::dropNaN>,
     getFlag<&O::dropNaN>},
    {"normalise-intensity",
     "normalize-intensity",
     OptionGroup::Cloud,
     OptionKind::Flag,
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "intensity divided by the cloud's maximum (0-1)"),
     QT_TRANSLATE_NOOP("ExportOption", "Intensity divided by the cloud's maximum (0–1)"),
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "intensity normalised"),
     {},
     0,
     0,
     setFlag<&O::normaliseIntensity>,
     getFlag<&O::normaliseIntensity>},
    {"frame",
     nullptr,
     OptionGroup::Cloud,
     OptionKind::Frame,
     "F",
     QT_TRANSLATE_NOOP("ExportOption",
                       "move clouds into this frame (from /tf and /tf_static) at their stamp; empty: as recorded"),
     QT_TRANSLATE_NOOP("ExportOption", "Target frame:"),
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "moved into frame %1"),
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       o.targetFrame = std::string(t);
       return {};
     },
     [](const O& o) { return o.targetFrame; }},
    {"axes",
     nullptr,
     OptionGroup::Cloud,
     OptionKind::Text,
     "z,-y,x",
     QT_TRANSLATE_NOOP(
         "ExportOption",
         "axes remapped after the target frame: z,-y,x makes new x = old z, new y = -old y, new z = old x"),
     QT_TRANSLATE_NOOP("ExportOption", "Axes (new x, y, z):"),
     QT_TRANSLATE_NOOP("ExportOption", "x,y,z (as recorded)"),
     QT_TRANSLATE_NOOP("ExportOption", "axes %1"),
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       std::string text;
       for (char c : t)
         if (c != ' ') text += c;
       if (!text.empty())
         if (auto r = parseAxes(text); !r) return std::move(r).error();
       o.axes = text;
       return {};
     },
     [](const O& o) { return o.axes; }},
    {"quality",
     nullptr,
     OptionGroup::Image,
     OptionKind::Whole,
     "Q",
     QT_TRANSLATE_NOOP("ExportOption", "JPEG quality (default 95)"),
     QT_TRANSLATE_NOOP("ExportOption", "JPEG quality:"),
     nullptr,
     nullptr,
     {},
     0,
     100,
     setNumber<int, &O::jpegQuality>,
     getNumber<int, &O::jpegQuality>},
    {"fps",
     nullptr,
     OptionGroup::Image,
     OptionKind::Number,
     "F",
     QT_TRANSLATE_NOOP("ExportOption", "video frames per second (default: the topic's rate)"),
     QT_TRANSLATE_NOOP("ExportOption", "Video frame rate:"),
     QT_TRANSLATE_NOOP("ExportOption", "the topic's rate"),
     QT_TRANSLATE_NOOP("ExportOption", "video at %1 fps"),
     {},
     0,
     1000,
     setNumber<double, &O::fps>,
     getNumber<double, &O::fps>},
    {"codec", nullptr, OptionGroup::Image, OptionKind::Choice, "C",
     QT_TRANSLATE_NOOP("ExportOption", "the MP4's video codec: h264 (default) or mp4v"),
     QT_TRANSLATE_NOOP("ExportOption", "Video codec:"), nullptr, nullptr, kVideoCodecs, 0, 0,
     [](O& o, std::string_view t) -> Result<void> {
       o.videoCodec = std::string(t);
       return {};
     },
     [](const O& o) { return o.videoCodec; }},
    {"crf",
     nullptr,
     OptionGroup::Image,
     OptionKind::Whole,
     "N",
     QT_TRANSLATE_NOOP("ExportOption", "H.264 quality: constant rate factor, 0 (lossless) to 51 (default 23)"),
     QT_TRANSLATE_NOOP("ExportOption", "H.264 quality (CRF):"),
     nullptr,
     nullptr,
     {},
     0,
     51,
     setNumber<int, &O::crf>,
     getNumber<int, &O::crf>},
    {"preset", nullptr, OptionGroup::Image, OptionKind::Choice, "P",
     QT_TRANSLATE_NOOP("ExportOption", "H.264 speed against size: ultrafast … veryslow (default medium)"),
     QT_TRANSLATE_NOOP("ExportOption", "H.264 preset:"), nullptr, nullptr, kPresets, 0, 0,
     [](O& o, std::string_view t) -> Result<void> {
       o.preset = std::string(t);
       return {};
     },
     [](const O& o) { return o.preset; }},
    {"video-time", nullptr, OptionGroup::Image, OptionKind::Choice, "T",
     QT_TRANSLATE_NOOP("ExportOption",
                       "a video topic's packets (remuxed) at their log times (default) or header stamps"),
     QT_TRANSLATE_NOOP("ExportOption", "Packet times:"), nullptr, nullptr, kVideoTimes, 0, 0,
     [](O& o, std::string_view t) -> Result<void> {
       o.videoStampTime = t == "stamp";
       return {};
     },
     [](const O& o) -> std::string { return o.videoStampTime ? "stamp" : "log"; }},
    {"time", nullptr, OptionGroup::Table, OptionKind::Choice, "T",
     QT_TRANSLATE_NOOP("ExportOption", "the time columns"), QT_TRANSLATE_NOOP("ExportOption", "Time columns:"), nullptr,
     nullptr, kTimeColumns, 0, 0,
     [](O& o, std::string_view t) -> Result<void> {
       o.timeColumns = kTimeColumnsOf[choiceIndex(kTimeColumns, t)];
       return {};
     },
     [](const O& o) -> std::string { return kTimeColumns[choiceIndex(kTimeColumnsOf, o.timeColumns)].value; }},
    {"seconds",
     nullptr,
     OptionGroup::Table,
     OptionKind::Flag,
     nullptr,
     QT_TRANSLATE_NOOP("ExportOption", "times in seconds (else nanoseconds)"),
     QT_TRANSLATE_NOOP("ExportOption", "Times in seconds (else nanoseconds)"),
     nullptr,
     nullptr,
     {},
     0,
     0,
     setFlag<&O::timeInSeconds>,
     getFlag<&O::timeInSeconds>},
    {"array-limit",
     nullptr,
     OptionGroup::Table,
     OptionKind::Whole,
     "N",
     QT_TRANSLATE_NOOP("ExportOption", "variable-length arrays: at most this many columns (default 16)"),
     QT_TRANSLATE_NOOP("ExportOption", "Array columns at most:"),
     nullptr,
     nullptr,
     {},
     0,
     100000,
     setNumber<std::uint32_t, &O::arrayLimit>,
     getNumber<std::uint32_t, &O::arrayLimit>},
    {"field",
     nullptr,
     OptionGroup::Table,
     OptionKind::Repeated,
     "PATH",
     "only these columns, one path per use: pose.position.x, ranges[0:10], markers[:]{id==3}.scale.x, "
     "values[:]{key==\"temp\"}.value",
     nullptr,
     nullptr,
     nullptr,
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       o.paths.emplace_back(t);
       return {};
     },
     [](const O& o) { return joined(o.paths); }},
    {"join",
     nullptr,
     OptionGroup::Table,
     OptionKind::Repeated,
     "TOPIC[:PATH,...]",
     "one table of these topics (one per use; PATH: a column or those under it, as pose.position) on one time axis, "
     "its rows set by on or rate",
     nullptr,
     nullptr,
     nullptr,
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       o.joins.emplace_back(t);
       return {};
     },
     [](const O& o) { return joined(o.joins); }},
    {"on",
     nullptr,
     OptionGroup::Table,
     OptionKind::Text,
     "TOPIC",
     "the aligned table's rows: this topic's log times",
     nullptr,
     nullptr,
     nullptr,
     {},
     0,
     0,
     [](O& o, std::string_view t) -> Result<void> {
       o.alignOn = std::string(t);
       return {};
     },
     [](const O& o) { return o.alignOn; }},
    {"rate",
     nullptr,
     OptionGroup::Table,
     OptionKind::Number,
     "HZ",
     "the aligned table's rows: this many per second, from the first joined message to the last",
     nullptr,
     nullptr,
     nullptr,
     {},
     0,
     1e6,
     setNumber<double, &O::alignRateHz>,
     getNumber<double, &O::alignRateHz>},
    {"fill", nullptr, OptionGroup::Table, OptionKind::Choice, "RULE",
     "how a joined topic's value is taken at a row's time (default previous); never past its last message", nullptr,
     nullptr, nullptr, kFills, 0, 0,
     [](O& o, std::string_view t) -> Result<void> {
       o.fill = kFillOf[choiceIndex(kFills, t)];
       return {};
     },
     [](const O& o) -> std::string { return kFills[choiceIndex(kFillOf, o.fill)].value; }},
};

std::string choiceNames(std::span<const OptionChoice> choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i)
    out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(choices[i].value);
  return out;
}

}  // namespace

std::span<const FormatOption> formatOptions() { return kOptions; }

const FormatOption* findFormatOption(std::string_view name) {
  for (const auto& o : kOptions)
    if (name == o.id || (o.alias && name == o.alias)) return &o;
  return nullptr;
}

bool takesOption(Format format, std::string_view id) {
  std::string_view list = formatInfo(format).options;
  for (std::size_t at = 0; at < list.size();) {
    auto space = std::min(list.find(' ', at), list.size());
    if (list.substr(at, space - at) == id) return true;
    at = space + 1;
  }
  return false;
}

Result<void> setOption(ExportOptions& options, const FormatOption& option, std::string_view text) {
  auto refuse = [&](const std::string& takes) {
    return makeError(ErrorCode::InvalidArgument,
                     std::string(option.id) + " takes " + takes + ", not '" + std::string(text) + "'");
  };
  switch (option.kind) {
    case OptionKind::Flag:
      if (!text.empty() && text != "true") return refuse("true or nothing");
      break;
    case OptionKind::Choice:
      if (std::none_of(option.choices.begin(), option.choices.end(),
                       [&](const OptionChoice& c) { return text == c.value; }))
        return refuse(choiceNames(option.choices));
      break;
    case OptionKind::Whole:
    case OptionKind::Number: {
      double v = 0;
      auto r = fast_float::from_chars(text.data(), text.data() + text.size(), v);
      bool whole = option.kind == OptionKind::Whole;
      if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(v) ||
          v < option.min || v > option.max || (whole && v != std::floor(v)))
        return refuse(std::string(whole ? "a whole number" : "a number") + " from " + numberText(option.min) + " to " +
                      numberText(option.max));
      break;
    }
    case OptionKind::Text:
    case OptionKind::List:
    case OptionKind::Repeated:
    case OptionKind::Frame: break;
  }
  return option.set(options, text);
}

}  // namespace bagscope::exporters
