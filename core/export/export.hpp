#pragma once
// Getting data out: point clouds to PCD / PLY / KITTI .bin / NumPy, images to JPEG / PNG or
// a video, any topic to CSV or a NumPy table. Every file is written under a temporary name
// and renamed when complete; existing files are never replaced unless asked.

#include <array>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>
#include "core/base/stop.hpp"

#include "core/analysis/derive.hpp"
#include "core/base/result.hpp"
#include "core/sensors/sensors.hpp"
#include "core/session/session.hpp"

namespace bagscope::exporters {

// ---- The formats (formats.cpp: the one table the CLI, the app and the exporter read) ------

enum class Format : std::uint8_t { Pcd, Ply, KittiBin, Csv, Jpeg, Png, Mp4, Avi, Npy, Las };

struct ExportOptions;
struct OutputChannel;
namespace detail {
struct TopicWriterSetup;
class TopicWriter;
}  // namespace detail

/// How a cloud format writes one cloud: its bytes, from the chosen channels and the points
/// kept. A format of fixed fields (KITTI, LAS) gets no channels and only finite points.
struct CloudFileWriter {
  Result<std::string> (*write)(const sensors::PointCloud&, const std::vector<OutputChannel>& channels,
                               const std::vector<bool>& keep, const ExportOptions&,
                               const std::string& comment) = nullptr;
  bool fixedFields = false;
  bool packedColour = false;  ///< colour stays one packed rgb(a) field (PCL and Open3D read PCD so)
};

/// How a still-image format writes one image.
struct ImageFileWriter {
  sensors::StillFormat still = sensors::StillFormat::Png;
  /// A CompressedImage of this codec is written as it is, untouched; null: not a still format.
  const char* keepsCodec = nullptr;
};

/// The writer of one file per topic (a table, a video); `setup` outlives it.
using TopicWriterFactory = Result<std::unique_ptr<detail::TopicWriter>> (*)(const detail::TopicWriterSetup& setup);

struct FormatInfo {
  Format format;
  const char* name;       ///< as --format and the settings spell it: "bin"
  const char* alias;      ///< also accepted as a name and a file suffix ("kitti", "jpg"), or null
  const char* extension;  ///< of the files written: "jpg"
  const char* label;      ///< as the app shows it: "KITTI .bin"
  /// The sensor kinds it is made for (bits of 1 << sensors::SensorKind), written a file per
  /// message when `filePerMessage`, else a file per topic.
  std::uint32_t kinds;
  bool filePerMessage;
  /// Also takes a topic of any other type, as one table per topic (CSV, NumPy).
  bool anyTopic;
  /// The ids of the options (formatOptions()) it takes, separated by spaces.
  const char* options;
  CloudFileWriter cloud = {};           ///< set for the cloud formats
  ImageFileWriter image = {};           ///< set for the still-image formats
  TopicWriterFactory topicWriter = {};  ///< set for the formats that write a file per topic
};

/// Every format, in the order the app offers them.
std::span<const FormatInfo> formats();
const FormatInfo& formatInfo(Format format);
/// "pcd", "kitti", "jpg", ...: a name or an alias; the error lists the names.
Result<Format> formatFromName(std::string_view name);
const char* formatName(Format format);
const char* extension(Format format);
/// "pcd, ply, bin, ..., npy": the names, for usage and error texts.
std::string formatNames();

/// Whether a topic of `type` can be exported as `format`.
bool accepts(Format format, std::string_view type);
/// The formats a topic of `type` can be exported to, the ones made for its kind first.
std::vector<Format> formatsFor(std::string_view type);
/// Whether `format` is made for the kind of `type` (clouds, images), not only takes it as a table.
bool madeFor(Format format, std::string_view type);
/// Whether `format` writes a file per message of a `type` topic (else one file per topic).
bool filePerMessage(Format format, std::string_view type);

// ---- The formats' options (format_options.cpp: the one table from which the CLI's flags
// and usage, the wizard's controls, its remembered values and its summary are made) -------

/// Where the app groups an option.
enum class OptionGroup : std::uint8_t { Cloud, Image, Table };
enum class OptionKind : std::uint8_t {
  Flag,      ///< on or off: "true" or ""
  Choice,    ///< one of `choices`
  Whole,     ///< a whole number in [min, max]
  Number,    ///< a number in [min, max]
  Text,      ///< free text, checked by the option's setter
  List,      ///< comma-separated items
  Repeated,  ///< one item per use of the flag (the command line only)
  Frame,     ///< a TF frame of the recording (the app offers those /tf names)
};
struct OptionChoice {
  const char* value;  ///< as the command line and the settings spell it
  const char* label;  ///< as the app shows it
};
struct FormatOption {
  const char* id;     ///< the command line's --id, the app's remembered setting
  const char* alias;  ///< also accepted on the command line, or null
  OptionGroup group;
  OptionKind kind;
  const char* value;        ///< the value's name in usage texts ("Q", "x,y,z,intensity=i"), or null (a flag)
  const char* help;         ///< what it does: the usage line, the app's tooltip
  const char* label;        ///< the app's label (a flag's check box text); null: the command line only
  const char* placeholder;  ///< an empty text box's hint, a number's text at its minimum, or null
  /// How the app's summary says a value other than the default ("fields %1 only"), or null.
  const char* applied;
  std::span<const OptionChoice> choices;
  double min = 0, max = 0;
  /// Sets the option from text the kind has checked; may refuse it (the error says why).
  Result<void> (*set)(ExportOptions& options, std::string_view text) = nullptr;
  /// The option's value as text ("" for a flag that is off, a list joined by commas).
  std::string (*get)(const ExportOptions& options) = nullptr;
};

/// Every option, in the order the app and the usage text show them.
std::span<const FormatOption> formatOptions();
/// The option of id (or alias) `name`, or null.
const FormatOption* findFormatOption(std::string_view name);
/// Whether `format` takes option `id`.
bool takesOption(Format format, std::string_view id);
/// Sets `option` from `text` after checking it against the option's kind (a number in its
/// range, one of its choices); the error says what the option takes.
Result<void> setOption(ExportOptions& options, const FormatOption& option, std::string_view text);

enum class PcdEncoding : std::uint8_t { Ascii, Binary, BinaryCompressed };
enum class TimeColumns : std::uint8_t { LogTime, Stamp, Both };
/// How an aligned table takes a topic's value at a row's time (text and bools: never Linear).
using Fill = analysis::Fill;

struct ExportOptions {
  Format format = Format::Pcd;
  std::vector<std::string> topics;  ///< empty: every topic the format can take
  std::int64_t startNs = std::numeric_limits<std::int64_t>::min();
  std::int64_t endNs = std::numeric_limits<std::int64_t>::max();
  std::uint32_t every = 1;  ///< keep every n-th message of a topic
  std::filesystem::path outDir;
  /// Placeholders {bag} {topic} {index} {stamp_ns} {log_time_ns}; may contain '/'. Empty:
  /// "{bag}_frame_{index}.{ext}" per frame (in a folder per topic when there are several),
  /// "{bag}_{topic}.{ext}" for one file per topic (csv, video, npy of a non-cloud topic).
  std::string nameTemplate;
  bool overwrite = false;
  bool dryRun = false;
  /// In a batch: a recording without any of `topics` is noted and passed over, not an error.
  bool allowMissingTopics = false;

  // Clouds (pcd, ply, bin, npy).
  PcdEncoding pcdEncoding = PcdEncoding::Binary;
  bool plyAscii = false;
  /// Channels to write, in order, each "name" or "name=newname" (PLY/NPY/PCD field names);
  /// empty: all. Colour: a packed rgb/rgba stays packed in PCD, becomes r, g, b(, a) elsewhere.
  std::vector<std::string> fields;
  bool normaliseIntensity = false;  ///< intensity divided by the cloud's maximum (to [0, 1])
  bool dropNaN = false;             ///< leave out points with a non-finite x, y or z (always for bin)
  std::string targetFrame;          ///< transform clouds into this frame with /tf and /tf_static
  /// Clouds' axes remapped after targetFrame: "z,-y,x" makes new x = old z, new y = -old y,
  /// new z = old x (a lidar mounted with another convention). Empty: as they are.
  std::string axes;

  // Images and video.
  int jpegQuality = 95;
  double fps = 0;                   ///< video: 0 = the topic's mean rate
  std::string videoCodec = "h264";  ///< MP4: "h264" (libx264) or "mp4v"
  int crf = 23;                     ///< H.264: libx264's constant rate factor
  std::string preset = "medium";    ///< H.264: libx264's preset
  bool videoStampTime = false;      ///< a video topic's packets remuxed at their header stamps, else log times

  // CSV and table NumPy.
  TimeColumns timeColumns = TimeColumns::Both;
  bool timeInSeconds = false;
  std::uint32_t arrayLimit = 16;  ///< variable-length arrays: at most this many columns
  /// CSV: the columns, as message paths (decode::MessagePath: `pose.position.x`,
  /// `markers[:]{id==3}.scale.x`, `ranges[0:10]` as 11 columns); empty: every field. A cell
  /// where a path selects nothing is empty, one where it selects several holds them joined
  /// by ';'.
  std::vector<std::string> paths;
  /// One aligned table instead of a file per topic: each "TOPIC" (every column) or
  /// "TOPIC:PATH,PATH" (those columns and the ones under them: pose.position gives .x .y .z).
  std::vector<std::string> joins;
  std::string alignOn;     ///< the rows are this topic's log times...
  double alignRateHz = 0;  ///< ...or every 1/rate s over the joined topics' span
  Fill fill = Fill::Previous;
};

/// One file written (or, in a dry run, that would be).
struct WrittenFile {
  std::filesystem::path path;
  std::string bag, topic, type;
  std::uint64_t index = 0;  ///< frame number within the topic (after --every)
  std::int64_t logTimeNs = 0;
  std::int64_t stampNs = 0;  ///< header stamp, 0 if none
  std::uint64_t bytes = 0;
};

struct ExportReport {
  std::vector<WrittenFile> files;
  std::uint64_t bytes = 0;
  std::map<std::string, std::uint64_t> skipped;  ///< reason -> messages
  /// Of those, the messages whose type no definition was found for (ErrorCode::
  /// MissingDefinition): the user can add one (each front end says how).
  std::uint64_t missingDefinitions = 0;
  std::vector<std::string> conflicts;  ///< existing files that were not replaced
  /// Set when the name template the user gave names two files alike (nothing was written).
  std::string nameClash;
  std::vector<std::string> errors;  ///< failures (each also counted in skipped)
  bool outputFailed = false;        ///< a file could not be written (not the input's fault)
  std::vector<std::string> notes;   ///< e.g. a cloud layout that changes
  /// For the manifest: camera intrinsics by topic, and sensor frames in the tf tree.
  std::map<std::string, sensors::CameraInfo> cameraInfo;
  std::map<std::string, std::pair<std::string, sensors::Transform>> frames;  ///< frame -> (root, T_root_frame)
};

using ProgressFn = session::ProgressFn;

/// A name template may make sub-folders of the output folder and nothing else: an absolute
/// template, a drive or root, or a ".." part is an error (InvalidArgument) naming it.
Result<void> checkNameTemplate(std::string_view nameTemplate);

/// An axis remap: new axis i = sign[i] * old axis source[i].
struct AxisRemap {
  std::array<int, 3> source{0, 1, 2};
  std::array<double, 3> sign{1, 1, 1};
  std::array<double, 3> apply(const std::array<double, 3>& p) const {
    return {sign[0] * p[source[0]], sign[1] * p[source[1]], sign[2] * p[source[2]]};
  }
};
/// Parses "z,-y,x": three of x, y, z, each once, each with an optional sign. An error says why.
Result<AxisRemap> parseAxes(std::string_view text);

/// `value` (a topic, a bag name) as one safe file-name component on every system: separators,
/// control characters and `<>:"|?*` become '_', "." / ".." and names Windows reserves (CON,
/// NUL, COM1, ...) get a '_' in front, trailing dots and spaces are replaced, at most 200 bytes.
std::string safeFileNameComponent(std::string_view value);

/// A recording's name for {bag}: a file's stem ("run.bag" -> "run"), a rosbag2 folder's
/// name (also for its metadata.yaml or a path ending in '/').
std::string recordingName(const std::filesystem::path& path);

/// Whether a transforms topic holds static transforms: its name says tf_static, or its
/// publishers latched (ROS 1) or offered transient-local durability (ROS 2).
bool isStaticTransforms(const session::Topic& topic);
/// Every transform of the recording, from each topic whose type is transforms
/// (tf2_msgs/TFMessage, tf/tfMessage, foxglove FrameTransform(s)), whatever its name: the
/// static ones, and with `dynamicToo` the others. The one rule for the export, the manifest
/// and the panels.
Result<sensors::TfBuffer> loadTransforms(const session::Session& session, bool dynamicToo, StopToken stop = {});
/// The frames the transforms name (sorted): what clouds can be moved into.
Result<std::vector<std::string>> tfFrames(const session::Session& session, StopToken stop = {});

/// A topic's messages as typed columns, as the CSV export flattens them: "log_time_ns",
/// "stamp_ns" when the type starts with a header, then every field (a.b.c, name[i] with at most
/// `arrayLimit` elements of a variable array). Times are ns. A value a message lacks (a short
/// array) is marked missing. For notebooks (the Python module's dataframe()).
struct TableColumn {
  enum class Kind : std::uint8_t { Int, UInt, Float, Bool, String };
  std::string name;
  Kind kind = Kind::Float;
  std::vector<std::int64_t> ints;    ///< Int and Bool (0/1)
  std::vector<std::uint64_t> uints;  ///< UInt
  std::vector<double> floats;        ///< Float
  std::vector<std::string> texts;    ///< String
  std::vector<bool> missing;         ///< per row; empty when nothing is missing
};
Result<std::vector<TableColumn>> readTable(const session::Session& session, session::TopicId topic,
                                           const session::Selection& range, std::uint32_t arrayLimit = 16,
                                           StopToken stop = {});

/// The aligned table `options.joins` ask for: "log_time_ns" (the rows' times), then
/// "TOPIC/COLUMN" for each chosen column of each joined topic (its stamp_ns unless the time
/// columns are log time only), its values taken by `options.fill`. A cell is missing before a
/// topic's first message and after its last: nothing is extrapolated.
Result<std::vector<TableColumn>> alignedTable(const session::Session& session, const ExportOptions& options,
                                              StopToken stop = {});

/// Exports the session's messages as `options` say; `bag` names the recording in file names
/// and the manifest. Results are appended to `report`. Fails before writing anything when
/// names collide with existing files (listed in report.conflicts) unless overwriting, and when
/// a target frame is not one the transforms name or a cloud topic's frame is not connected to it.
Result<void> exportSession(const session::Session& session, const std::string& bag, const ExportOptions& options,
                           ExportReport& report, StopToken stop = {}, const ProgressFn& progress = {});

/// A plotted series: its name and samples (x: seconds from the start, or another field).
struct Series {
  std::string name;
  std::vector<double> x, y;
  std::vector<std::string> labels;  ///< when set, written for y (a state lane's values)
};
/// Writes `series` as one CSV in long form (pandas: df.pivot(columns="series")): a header
/// `series,<xName>,<yName>`, then a row per sample with `lo <= x <= hi`, numbers as the CSV
/// export writes them (shortest exact form; nan, inf). Atomically, as writeFileAtomically.
Result<void> writeSeriesCsv(const std::filesystem::path& path, const std::vector<Series>& series,
                            std::string_view xName, std::string_view yName, double lo, double hi, bool overwrite);

/// Writes `series` (x: seconds) as one table on one time axis, as `export --join` aligns
/// topics: a row at each sample of series `on` with lo <= x <= hi, every series taken at that
/// time by `fill` (analysis::samplesAt on the times in ns), empty before its first sample and
/// after its last. Header `xName` then the series' names; numbers as writeSeriesCsv writes
/// them. Atomically, as writeFileAtomically.
Result<void> writeAlignedSeriesCsv(const std::filesystem::path& path, const std::vector<Series>& series, std::size_t on,
                                   Fill fill, std::string_view xName, double lo, double hi, bool overwrite);

/// Writes `outDir`/manifest.json listing every file of `report` (atomically).
Result<std::filesystem::path> writeManifest(const ExportReport& report, const ExportOptions& options);

// ---- Writers (used by exportSession; public for tests and the app) ----------------------

/// Channels chosen by `fields` ("name" or "name=newname"); errors name an unknown field.
struct OutputChannel {
  sensors::Channel channel;
  std::string name;  ///< as written
  bool normalise = false;
};
Result<std::vector<OutputChannel>> chooseChannels(const sensors::PointCloud& cloud, const ExportOptions& options);

/// A cloud as bytes of each file format. `keep[i]` says whether point i is written (empty:
/// all, keeping an organized cloud's rows and columns).
std::string pcdBytes(const sensors::PointCloud& cloud, const std::vector<OutputChannel>& channels,
                     const std::vector<bool>& keep, PcdEncoding encoding);
std::string plyBytes(const sensors::PointCloud& cloud, const std::vector<OutputChannel>& channels,
                     const std::vector<bool>& keep, bool ascii, const std::string& comment);
std::string kittiBytes(const sensors::PointCloud& cloud, const std::vector<bool>& keep);
/// The first of `names`, in that order, that one of `channels` has (formats of fixed fields
/// take "intensity", else "i"); null when none.
const sensors::Channel* channelNamed(const std::vector<sensors::Channel>& channels,
                                     std::initializer_list<const char*> names);
/// LAS 1.2, point format 3: x, y, z in millimetres, intensity (rounded, clamped to 16 bits),
/// the cloud's stamp as adjusted standard GPS time, 8-bit r, g, b scaled to 16 bits.
Result<std::string> lasBytes(const sensors::PointCloud& cloud, const std::vector<bool>& keep);
/// Empty when the fields do not fit a NumPy 1.0 header (64 KiB).
std::string npyCloudBytes(const sensors::PointCloud& cloud, const std::vector<OutputChannel>& channels,
                          const std::vector<bool>& keep);

/// A cloud as the bytes of a file of `options.format` (a cloud format), with the chosen
/// fields, without non-finite points when `dropNaN` (always, for fixed fields); PLY
/// writes `comment` in its header.
Result<std::string> cloudFileBytes(const sensors::PointCloud& cloud, const ExportOptions& options,
                                   const std::string& comment);

/// LZF (liblzf's format, as PCD's binary_compressed uses).
std::string lzfCompress(std::string_view in);
/// Empty optional on corrupt input or a size mismatch.
std::optional<std::string> lzfDecompress(std::string_view in, std::size_t size);

/// Writes `bytes` to `path` through a temporary file in the same folder, then renames it.
/// Without `overwrite`, an existing file is not replaced (an error naming it).
Result<void> writeFileAtomically(const std::filesystem::path& path, std::string_view bytes, bool overwrite);

}  // namespace bagscope::exporters
