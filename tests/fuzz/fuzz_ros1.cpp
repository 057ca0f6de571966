// libFuzzer target: a whole ROS 1 bag through open, time-ordered reading, decoding to JSON,
// the message index, random reads and chunk statistics.

#include <cstddef>
#include <cstdint>

#include "core/storage/source.hpp"
#include "exercise_source.hpp"

using namespace bagscope;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto p = reinterpret_cast<const std::byte*>(data);
  auto source = storage::openSource(memorySource({p, p + size}, "fuzz.bag"));
  if (source) fuzz::exerciseSource(**source, 64);
  return 0;
}
