// bagscope-cli render: the layout's plots drawn by the desktop app, without a window. Drawing
// needs Qt, which bagscope-cli does without: the app beside this program does it
// (`bagscope --render`, on Qt's offscreen platform), and its exit code is this command's.

#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "core/base/byte_source.hpp"

#ifdef _WIN32
#include <process.h>
#else
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace bagscope::cli {
namespace {

#ifdef _WIN32
// One argument as the Windows C runtime splits a command line back into argv.
std::wstring quoted(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  std::size_t slashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++slashes;
      continue;
    }
    out.append(c == L'"' ? slashes * 2 + 1 : slashes, L'\\');
    slashes = 0;
    out += c;
  }
  out.append(slashes * 2, L'\\');
  return out + L"\"";
}
#endif

}  // namespace

int runRender(const std::vector<std::string>& args) {
  if (args.empty()) return usageError("render", "needs a layout file and a recording");
  const auto app = executableFolder() / (std::string("bagscope") +
#ifdef _WIN32
                                         ".exe"
#else
                                         ""
#endif
                                        );
  std::error_code ec;
  if (!std::filesystem::is_regular_file(app, ec)) {
    std::fprintf(stderr,
                 "bagscope-cli: render draws with the desktop app, which is not installed beside this program "
                 "(%s)\n",
                 utf8(app).c_str());
    return kFailed;
  }
  std::fflush(stdout);
  std::fflush(stderr);
#ifdef _WIN32
  std::vector<std::wstring> argv{quoted(app.wstring()), L"--render"};
  for (const auto& a : args) argv.push_back(quoted(std::filesystem::u8path(a).wstring()));
  std::vector<const wchar_t*> pointers;
  for (const auto& a : argv) pointers.push_back(a.c_str());
  pointers.push_back(nullptr);
  const intptr_t code = _wspawnv(_P_WAIT, app.wstring().c_str(), pointers.data());
  if (code < 0) {
    std::fprintf(stderr, "bagscope-cli: cannot start %s\n", utf8(app).c_str());
    return kFailed;
  }
  return static_cast<int>(code);
#else
  std::vector<std::string> argv{app.string(), "--render"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> pointers;
  for (auto& a : argv) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  pid_t child = fork();
  if (child == 0) {
    execv(app.c_str(), pointers.data());
    _exit(127);
  }
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) == 127) {
    std::fprintf(stderr, "bagscope-cli: %s did not run to its end\n", utf8(app).c_str());
    return kFailed;
  }
  return WEXITSTATUS(status);
#endif
}

}  // namespace bagscope::cli
