#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "kafka/handles.h"

namespace petstore::kafka {

// A partition's high watermark, not its last stable offset: the offset after
// the last record written, whether or not its transaction has ended. A
// handle of the transactional producers' default isolation (read_committed)
// is answered the last stable offset, which stops at the first record of
// any open transaction: records committed after it are in the log but not
// yet readable, and a "caught up to the end" taken from that offset would
// miss them. Asked through a read_uncommitted handle made on first use.
class HighWatermark {
 public:
  HighWatermark(std::string brokers, std::string client_id);

  // Throws Unavailable when the partition's leader does not answer in time.
  std::int64_t of(const std::string& topic, std::int32_t partition, int timeout_ms);

 private:
  std::string brokers_;
  std::string client_id_;
  std::once_flag made_;
  HandlePtr rk_;
};

}  // namespace petstore::kafka
