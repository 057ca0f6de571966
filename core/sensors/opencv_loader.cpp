// Finds and loads the OpenCV and media modules (see detail/opencv_module.hpp), each once, on
// first use.

#include <string>
#include <vector>

#include "core/base/byte_source.hpp"
#include "core/sensors/detail/opencv_module.hpp"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <dlfcn.h>
#endif

namespace bagscope::sensors::detail {
namespace fs = std::filesystem;
namespace {

#if !defined(BAGSCOPE_OPENCV_MODULE_FILE) || !defined(BAGSCOPE_MEDIA_MODULE_FILE)
constexpr const char* kOpenCvFile = "";
constexpr const char* kMediaFile = "";
template <class Module>
Result<Module*> load(const char*, const char*, const char*) {
  return makeError(ErrorCode::Unsupported,
                   "images and video are not in this build of Bagscope: it was built without OpenCV "
                   "(BAGSCOPE_OPENCV=OFF)");
}
#else
constexpr const char* kOpenCvFile = BAGSCOPE_OPENCV_MODULE_FILE;
constexpr const char* kMediaFile = BAGSCOPE_MEDIA_MODULE_FILE;

// The folder of the library this code is linked into, when it is not the program: the Python
// module (build/python/ beside build/lib/ in the build tree).
fs::path libraryFolder() {
#if defined(_WIN32)
  return {};
#else
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&libraryFolder), &info) == 0 || !info.dli_fname) return {};
  std::error_code ec;
  auto resolved = fs::canonical(info.dli_fname, ec);
  return ec ? fs::path() : resolved.parent_path();
#endif
}

// The module in `file` through its function `entryName`; `what` names it in errors.
template <class Module>
Result<Module*> load(const char* file, const char* entryName, const char* what) {
  // Beside the program (the build tree's bin/ on Windows, any installed Windows layout),
  // lib/bagscope/modules beside bin/ (the build tree and Linux installs, where python3 is in
  // /usr/bin too), a bundle's PlugIns (macOS); then the same beside the Python module.
  std::vector<fs::path> candidates;
  for (const fs::path& folder : {executableFolder(), libraryFolder()}) {
    if (folder.empty()) continue;
    candidates.push_back(folder / file);
    candidates.push_back(folder / ".." / "lib" / "bagscope" / "modules" / file);
    candidates.push_back(folder / ".." / "PlugIns" / file);
  }
  std::string tried;
  for (const auto& path : candidates) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      tried += (tried.empty() ? "" : ", ") + utf8(path.lexically_normal());
      continue;
    }
#if defined(_WIN32)
    HMODULE handle =
        LoadLibraryExW(path.c_str(), nullptr, LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
    void* entry = handle ? reinterpret_cast<void*>(GetProcAddress(handle, entryName)) : nullptr;
    std::string why =
        handle ? "it has no entry point" : systemErrorText({static_cast<int>(GetLastError()), std::system_category()});
#else
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string why = handle ? "it has no entry point" : dlerror();
    void* entry = handle ? dlsym(handle, entryName) : nullptr;
#endif
    // Never unloaded: images and writers made by it live as long as the program.
    if (!entry)
      return makeError(ErrorCode::Unsupported,
                       "the module " + utf8(path.lexically_normal()) + " cannot be loaded: " + why);
    auto* module = reinterpret_cast<Module* (*)(int)>(entry)(kModuleVersion);
    if (!module)
      return makeError(ErrorCode::Unsupported,
                       "the module " + utf8(path.lexically_normal()) + " is of another Bagscope version");
    return module;
  }
  return makeError(ErrorCode::Unsupported,
                   std::string(what) + " (" + file + "), which is not installed: looked in " + tried);
}
#endif

}  // namespace

Result<OpenCvModule*> openCvModule() {
  static const Result<OpenCvModule*> loaded =
      load<OpenCvModule>(kOpenCvFile, kOpenCvModuleEntry, "images need Bagscope's OpenCV module");  // thread-safe, once
  return loaded;
}

Result<MediaModule*> mediaModule() {
  static const Result<MediaModule*> loaded = load<MediaModule>(
      kMediaFile, kMediaModuleEntry, "video and still formats other than JPEG and PNG need Bagscope's media module");
  return loaded;
}

}  // namespace bagscope::sensors::detail
