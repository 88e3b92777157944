#include "journal/store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "log/log.h"

namespace petstore::tools::journal {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path) {
  throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

void write_all(int fd, std::string_view bytes, const fs::path& path) {
  while (!bytes.empty()) {
    const auto n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      fail("write", path);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fail("open", path);
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return std::move(bytes).str();
}

// Makes a new directory entry durable: fsync of the directory holding it.
void sync_dir(const fs::path& dir) {
  const Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd.get() < 0 || ::fsync(fd.get()) != 0) {
    fail("fsync", dir);
  }
}

// Kafka's own rule for topic names; it also keeps them safe as file names.
bool legal_topic(std::string_view name) {
  return !name.empty() && name.size() <= 249 && name != "." && name != ".." &&
         std::ranges::all_of(name, [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == '-';
         });
}

}  // namespace

Fd::~Fd() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) {
      ::close(fd_);
    }
    fd_ = std::exchange(o.fd_, -1);
  }
  return *this;
}

Store::Store(fs::path dir) : dir_(std::move(dir)) {
  fs::create_directories(dir_ / "journal");
  const auto path = dir_ / "topics";
  if (!fs::exists(path)) {
    return;
  }
  std::istringstream lines(read_file(path));
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    TopicSpec t;
    // A line cut short by a crash while it was written is skipped: the topic
    // is recorded again when the broker program next creates it.
    if (fields >> t.name >> t.partitions && legal_topic(t.name) && t.partitions > 0) {
      topics_.push_back(t);
    } else if (!line.empty()) {
      log::warn("journal: ignoring the line '{}' of {}", line, path.string());
    }
  }
}

Store::~Store() = default;

std::vector<TopicSpec> Store::topics() const {
  const std::scoped_lock lock(topics_mutex_);
  return topics_;
}

void Store::record_topic(const TopicSpec& topic) {
  if (!legal_topic(topic.name) || topic.partitions <= 0) {
    throw std::runtime_error("journal: illegal topic '" + topic.name + "'");
  }
  const std::scoped_lock lock(topics_mutex_);
  const auto known = std::ranges::find(topics_, topic.name, &TopicSpec::name);
  if (known != topics_.end()) {
    if (known->partitions != topic.partitions) {
      throw std::runtime_error("journal: topic " + topic.name + " has " + std::to_string(known->partitions) +
                               " partitions in " + dir_.string() + ", not " +
                               std::to_string(topic.partitions));
    }
    return;
  }
  const auto path = dir_ / "topics";
  const Fd fd(::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
  if (fd.get() < 0) {
    fail("open", path);
  }
  write_all(fd.get(), topic.name + " " + std::to_string(topic.partitions) + "\n", path);
  if (::fdatasync(fd.get()) != 0) {
    fail("fdatasync", path);
  }
  fs::create_directories(dir_ / "journal" / topic.name);
  sync_dir(dir_);
  topics_.push_back(topic);
}

fs::path Store::partition_path(const std::string& topic, std::int32_t partition) const {
  return dir_ / "journal" / topic / (std::to_string(partition) + ".log");
}

std::int64_t Store::load(const std::string& topic, std::int32_t partition,
                         const std::function<void(const RecordView&)>& on_record) {
  const auto path = partition_path(topic, partition);
  if (!fs::exists(path)) {
    return 0;
  }
  const auto bytes = read_file(path);
  const auto result = scan(bytes, on_record);
  if (result.problem.empty()) {
    return static_cast<std::int64_t>(result.records);
  }
  if (result.valid_bytes == 0 && !bytes.empty()) {
    throw std::runtime_error("journal: " + path.string() + " is not a journal file (" + result.problem +
                             "); move it away to start that partition empty");
  }
  // Kafka's own log recovery does the same: keep the good prefix, drop the
  // rest. The dropped bytes stay on disk for whoever wants to look.
  const auto stamp =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  const auto aside = path.string() + ".damaged-" + std::to_string(stamp);
  {
    std::ofstream out(aside, std::ios::binary);
    out.write(bytes.data() + result.valid_bytes,
              static_cast<std::streamsize>(bytes.size() - result.valid_bytes));
    if (!out) {
      fail("write", aside);
    }
  }
  if (::truncate(path.c_str(), static_cast<off_t>(result.valid_bytes)) != 0) {
    fail("truncate", path);
  }
  log::warn("journal: {} [{}]: {}; kept {} records, moved the last {} bytes to {}", topic, partition,
            result.problem, result.records, bytes.size() - result.valid_bytes, aside);
  return static_cast<std::int64_t>(result.records);
}

int Store::open_for_append(const std::string& topic, std::int32_t partition) {
  const auto key = std::make_pair(topic, partition);
  if (const auto it = files_.find(key); it != files_.end()) {
    return it->second.get();
  }
  const auto path = partition_path(topic, partition);
  fs::create_directories(path.parent_path());
  Fd fd(::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644));
  if (fd.get() < 0) {
    fail("open", path);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    fail("fstat", path);
  }
  if (st.st_size == 0) {
    write_all(fd.get(), kMagic, path);
    if (::fdatasync(fd.get()) != 0) {
      fail("fdatasync", path);
    }
    sync_dir(path.parent_path());
  }
  const int raw = fd.get();
  files_.emplace(key, std::move(fd));
  return raw;
}

void Store::append(const std::string& topic, std::int32_t partition, std::string_view frames) {
  const int fd = open_for_append(topic, partition);
  write_all(fd, frames, partition_path(topic, partition));
  if (std::ranges::find(dirty_, fd) == dirty_.end()) {
    dirty_.push_back(fd);
  }
}

void Store::sync() {
  for (const int fd : dirty_) {
    if (::fdatasync(fd) != 0) {
      fail("fdatasync", dir_);
    }
  }
  dirty_.clear();
}

}  // namespace petstore::tools::journal
