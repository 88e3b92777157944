// Any bytes as log records for petstore-audit verify: records are input
// like any other, written by whoever can produce to the topics. Fields: per
// record, a topic selector, key, value, then header name/value pairs up to an
// empty pair; up to four records, so the sequence and saga rules run too.
#include <cstdint>
#include <map>

#include "fuzz_input.h"
#include "verify.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
  using namespace petstore;
  static const audit::Topics topics = [] {
    audit::Topics t;
    for (const auto& [kind, name] : t.names) {
      t.partitions[name] = 6;
    }
    return t;
  }();
  static const std::vector<std::string> names{"petstore.pets.v1", "petstore.categories.v1",
                                              "petstore.orders.v1", "petstore.inventory.v1",
                                              "petstore.apikeys.v1"};
  fuzz::Fields in(data, size);
  audit::Verifier verifier(topics, {});
  for (int i = 0; i < 4; ++i) {
    const auto selector = in.next();
    kafka::Message m;
    m.topic = names[selector.empty() ? 0 : static_cast<unsigned char>(selector[0]) % names.size()];
    m.partition = selector.size() > 1 ? static_cast<unsigned char>(selector[1]) % 6 : 0;
    m.offset = i;
    m.key = in.next();
    m.value = in.next();
    std::multimap<std::string, std::string> headers;
    fuzz::read_pairs(in, headers, 16);
    for (auto& [name, value] : headers) {
      m.headers.push_back({std::move(name), std::move(value)});
    }
    verifier.add(m, i);
  }
  (void)verifier.finish();
  return 0;
}
