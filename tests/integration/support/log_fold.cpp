#include "support/log_fold.h"

#include "events/envelope.h"
#include "events/kafka_binding.h"
#include "pets/domain/events.h"
#include "support/stack.h"

namespace petstore::testing {

FoldedLog fold_topics(const std::vector<std::string>& topics) {
  FoldedLog out;
  for (const auto& topic : topics) {
    // read_topic returns partitions interleaved but each in offset order,
    // which is all per-aggregate folding needs.
    for (const auto& m : read_topic(topic)) {
      const auto e = events::from_message(m);
      const auto event = pets::decode(e.type, e.data);
      out.versions[e.aggregate_id()].push_back(e.version);
      pets::evolve(out.state, event, e.version, e.time);
    }
  }
  for (const auto& [id, versions] : out.versions) {
    for (size_t i = 0; i < versions.size(); ++i) {
      if (versions[i] != static_cast<std::int64_t>(i) + 1) {
        std::string list;
        for (const auto v : versions) {
          list += std::to_string(v) + " ";
        }
        out.violations.push_back("aggregate " + std::to_string(id) + " has versions " + list);
        break;
      }
    }
  }
  return out;
}

}  // namespace petstore::testing
