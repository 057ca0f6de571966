#pragma once
// Walking a subcommand's arguments: an option, then the value it takes, for every parser of
// bagscope-cli (cat, export, filter, …).

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace bagscope::cli {

class Arguments {
public:
  explicit Arguments(const std::vector<std::string>& args) : args_(args) {}
  /// Moves to the next argument; false at the end.
  bool next() { return ++at_ < args_.size(); }
  const std::string& current() const { return args_[at_]; }
  /// The value after the current option (consumed); false when there is none.
  bool value(std::string& out) {
    if (at_ + 1 >= args_.size()) return false;
    out = args_[++at_];
    return true;
  }
  /// The value as a number of at least 0 (consumed); false when it is missing or not one.
  template <typename T>
  bool number(T& out) {
    std::string v;
    if (!value(v)) return false;
    try {
      std::size_t used = 0;
      double d = std::stod(v, &used);
      if (used != v.size() || d < 0) return false;
      out = static_cast<T>(d);
      return true;
    } catch (...) {
      return false;
    }
  }

private:
  const std::vector<std::string>& args_;
  std::size_t at_ = static_cast<std::size_t>(-1);
};

}  // namespace bagscope::cli
