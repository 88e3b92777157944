#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "journal/format.h"

namespace petstore::tools::journal {

// An owned file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd();
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_ = -1;
};

struct TopicSpec {
  std::string name;
  int partitions = 0;
  bool operator==(const TopicSpec&) const = default;
};

// The journal's directory:
//   <dir>/topics                          "<topic> <partitions>" per line
//   <dir>/journal/<topic>/<partition>.log the records, in the format of format.h
// Topics are recorded by any thread; records are appended by one (the
// Recorder). Every method throws std::runtime_error on an I/O failure.
class Store {
 public:
  explicit Store(std::filesystem::path dir);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

  // The topics recorded so far, in the order they were first recorded.
  [[nodiscard]] std::vector<TopicSpec> topics() const;
  // Records a topic (durably) unless it is already recorded with the same
  // partition count; a different count throws.
  void record_topic(const TopicSpec& topic);

  // Reads one partition's journal, calling `on_record` for each record, and
  // returns how many there are: the next offset. A damaged tail (a torn
  // frame after a crash, a bad CRC) is cut off, and the bytes cut are kept
  // beside the file as <partition>.log.damaged-<time> and logged.
  std::int64_t load(const std::string& topic, std::int32_t partition,
                    const std::function<void(const RecordView&)>& on_record);

  // Appends encoded frames to a partition's journal (written, not yet synced).
  void append(const std::string& topic, std::int32_t partition, std::string_view frames);
  // fdatasync()s every journal written since the last sync.
  void sync();

 private:
  [[nodiscard]] std::filesystem::path partition_path(const std::string& topic, std::int32_t partition) const;
  int open_for_append(const std::string& topic, std::int32_t partition);

  std::filesystem::path dir_;
  mutable std::mutex topics_mutex_;
  std::vector<TopicSpec> topics_;
  std::map<std::pair<std::string, std::int32_t>, Fd> files_;
  std::vector<int> dirty_;
};

}  // namespace petstore::tools::journal
