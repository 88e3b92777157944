// Any bytes as a partition's journal file, as the broker program reads it back
// on start (tools/kafka-mock-broker/journal/format.h). Inputs without the
// magic get it prepended, so the fuzzer spends its time on the frames. Every
// record the scan accepts must encode back to the very bytes it came from.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "journal/format.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using petstore::tools::journal::kMagic;
  std::string file(reinterpret_cast<const char*>(data), size);
  if (!file.starts_with(kMagic)) {
    file.insert(0, kMagic);
  }
  std::string again;
  const auto result =
      petstore::tools::journal::scan(file, [&](const petstore::tools::journal::RecordView& r) {
        petstore::tools::journal::append_frame(r, again);
      });
  if (result.valid_bytes < kMagic.size() || result.valid_bytes > file.size() ||
      std::string_view(file).substr(kMagic.size(), result.valid_bytes - kMagic.size()) != again ||
      (result.problem.empty() != (result.valid_bytes == file.size()))) {
    std::abort();
  }
  return 0;
}
