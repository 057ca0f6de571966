// Finds and loads the OpenCV module (see detail/opencv_module.hpp) once, on first use.

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

#if !defined(BAGSCOPE_OPENCV_MODULE_FILE)
Result<OpenCvModule*> load() {
  return makeError(ErrorCode::Unsupported,
                   "images and video are not in this build of Bagscope: it was built without OpenCV "
                   "(BAGSCOPE_OPENCV=OFF)");
}
#else
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

Result<OpenCvModule*> load() {
  // Beside the program (the build tree's bin/ on Windows, any installed Windows layout),
  // lib/bagscope/modules beside bin/ (the build tree and Linux installs, where python3 is in
  // /usr/bin too), a bundle's PlugIns (macOS); then the same beside the Python module.
  std::vector<fs::path> candidates;
  for (const fs::path& folder : {executableFolder(), libraryFolder()}) {
    if (folder.empty()) continue;
    candidates.push_back(folder / BAGSCOPE_OPENCV_MODULE_FILE);
    candidates.push_back(folder / ".." / "lib" / "bagscope" / "modules" / BAGSCOPE_OPENCV_MODULE_FILE);
    candidates.push_back(folder / ".." / "PlugIns" / BAGSCOPE_OPENCV_MODULE_FILE);
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
    void* entry = handle ? reinterpret_cast<void*>(GetProcAddress(handle, kOpenCvModuleEntry)) : nullptr;
    std::string why =
        handle ? "it has no entry point" : systemErrorText({static_cast<int>(GetLastError()), std::system_category()});
#else
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::string why = handle ? "it has no entry point" : dlerror();
    void* entry = handle ? dlsym(handle, kOpenCvModuleEntry) : nullptr;
#endif
    // Never unloaded: images and writers made by it live as long as the program.
    if (!entry)
      return makeError(ErrorCode::Unsupported,
                       "the OpenCV module " + utf8(path.lexically_normal()) + " cannot be loaded: " + why);
    auto* module = reinterpret_cast<OpenCvModule* (*)(int)>(entry)(kOpenCvModuleVersion);
    if (!module)
      return makeError(ErrorCode::Unsupported,
                       "the OpenCV module " + utf8(path.lexically_normal()) + " is of another Bagscope version");
    return module;
  }
  return makeError(ErrorCode::Unsupported, "images and video need Bagscope's OpenCV module (" +
                                               std::string(BAGSCOPE_OPENCV_MODULE_FILE) +
                                               "), which is not installed: looked in " + tried);
}
#endif

}  // namespace

Result<OpenCvModule*> openCvModule() {
  static const Result<OpenCvModule*> loaded = load();  // thread-safe, once
  return loaded;
}

}  // namespace bagscope::sensors::detail
