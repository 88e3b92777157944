#include "metrics/process.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace petstore::metrics {

namespace {

// /proc/self/stat's fields from the third on (after "pid (comm)", whose
// name may hold spaces and parentheses): field n of proc(5) is at n - 3.
std::vector<std::string> stat_fields() {
  std::ifstream in("/proc/self/stat");
  std::string line;
  std::getline(in, line);
  const auto close = line.rfind(')');
  std::istringstream rest(close == std::string::npos ? std::string() : line.substr(close + 2));
  std::vector<std::string> out;
  for (std::string f; rest >> f;) {
    out.push_back(f);
  }
  if (out.size() < 22) {
    throw std::runtime_error("/proc/self/stat: unexpected format");
  }
  return out;
}

double field(const std::vector<std::string>& fields, int n) {
  return std::stod(fields.at(static_cast<std::size_t>(n - 3)));
}

double boot_time() {
  std::ifstream in("/proc/stat");
  for (std::string key; in >> key;) {
    if (key == "btime") {
      double t = 0;
      in >> t;
      return t;
    }
    in.ignore(1 << 20, '\n');
  }
  return 0;
}

std::vector<Sample> one(double v) {
  return {{{}, v}};
}

}  // namespace

void register_process_metrics(Registry& registry) {
  const auto ticks = static_cast<double>(::sysconf(_SC_CLK_TCK));
  const auto page = static_cast<double>(::sysconf(_SC_PAGESIZE));
  registry.collect("process_cpu_seconds_total", "User and system CPU time spent, in seconds.", "counter", {},
                   [ticks] {
                     const auto f = stat_fields();
                     return one((field(f, 14) + field(f, 15)) / ticks);
                   });
  registry.collect("process_resident_memory_bytes", "Resident memory size, in bytes.", "gauge", {},
                   [page] { return one(field(stat_fields(), 24) * page); });
  registry.collect("process_virtual_memory_bytes", "Virtual memory size, in bytes.", "gauge", {},
                   [] { return one(field(stat_fields(), 23)); });
  registry.collect("process_threads", "Threads of the process.", "gauge", {},
                   [] { return one(field(stat_fields(), 20)); });
  const double started = boot_time() + field(stat_fields(), 22) / ticks;
  registry.collect("process_start_time_seconds", "Start time of the process since the epoch, in seconds.",
                   "gauge", {}, [started] { return one(started); });
  registry.collect("process_open_fds", "Open file descriptors.", "gauge", {}, [] {
    double n = 0;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) {
      static_cast<void>(e);
      ++n;
    }
    return one(n);
  });
  registry.collect("process_max_fds", "The limit of open file descriptors.", "gauge", {}, [] {
    rlimit l{};
    ::getrlimit(RLIMIT_NOFILE, &l);
    return one(static_cast<double>(l.rlim_cur));
  });
}

}  // namespace petstore::metrics
