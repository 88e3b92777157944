#pragma once

#include <cstdint>
#include <string>

#include "kafka/handles.h"

namespace petstore::kafka {

// The offsets a consumer group has committed, read from outside the group
// (OffsetFetch): a handle that names the group and never joins it.
class GroupOffsets {
 public:
  GroupOffsets(const std::string& brokers, std::string group);
  ~GroupOffsets();
  GroupOffsets(const GroupOffsets&) = delete;
  GroupOffsets& operator=(const GroupOffsets&) = delete;

  // The group's committed offset in the partition: the offset its members
  // resume at; -1 when none is committed. Throws Unavailable.
  std::int64_t committed(const std::string& topic, std::int32_t partition, int timeout_ms);

 private:
  std::string group_;
  HandlePtr rk_;
};

}  // namespace petstore::kafka
