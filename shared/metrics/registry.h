#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::metrics {

// A metric's label values, in the order of its family's label names.
using Labels = std::vector<std::string>;

class Counter {
 public:
  void inc(double by = 1) { value_.fetch_add(by, std::memory_order_relaxed); }
  [[nodiscard]] double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class Gauge {
 public:
  void set(double v) { value_.store(v, std::memory_order_relaxed); }
  void add(double by) { value_.fetch_add(by, std::memory_order_relaxed); }
  [[nodiscard]] double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0};
};

class Histogram {
 public:
  // `bounds`: the buckets' upper bounds, ascending; +Inf is implied.
  explicit Histogram(std::vector<double> bounds);
  void observe(double v);
  struct Snapshot {
    std::vector<std::uint64_t> cumulative;  // one per bound, then +Inf
    double sum = 0;
  };
  [[nodiscard]] Snapshot snapshot() const;
  [[nodiscard]] const std::vector<double>& bounds() const { return bounds_; }

 private:
  std::vector<double> bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;  // one per bound, then +Inf
  std::atomic<double> sum_{0};
};

// Buckets for request latency, in seconds: 1 ms to 10 s.
std::vector<double> latency_buckets();

// The metrics of one name: one per combination of label values, made on
// first use and kept for the process's life (label values must come from
// small sets: routes, not paths; plans, not keys).
template <typename Metric>
class Family {
 public:
  Family(std::string name, std::string help, std::vector<std::string> label_names,
         std::function<std::unique_ptr<Metric>()> make)
      : name_(std::move(name)),
        help_(std::move(help)),
        label_names_(std::move(label_names)),
        make_(std::move(make)) {}

  Metric& with(const Labels& values) {
    {
      const std::shared_lock lock(mutex_);
      if (const auto it = children_.find(values); it != children_.end()) {
        return *it->second;
      }
    }
    const std::unique_lock lock(mutex_);
    auto& slot = children_[values];
    if (!slot) {
      slot = make_();
    }
    return *slot;
  }

  // Visits every child, under the family's lock.
  template <typename F>
  void each(F&& f) const {
    const std::shared_lock lock(mutex_);
    for (const auto& [labels, metric] : children_) {
      f(labels, *metric);
    }
  }

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] const std::string& help() const { return help_; }
  [[nodiscard]] const std::vector<std::string>& label_names() const { return label_names_; }

 private:
  std::string name_;
  std::string help_;
  std::vector<std::string> label_names_;
  std::function<std::unique_ptr<Metric>()> make_;
  mutable std::shared_mutex mutex_;
  std::map<Labels, std::unique_ptr<Metric>> children_;
};

// A value read when scraped: its label values and the value.
using Sample = std::pair<Labels, double>;

// The process's metrics, rendered in Prometheus' text exposition format
// 0.0.4. Families are registered once by name; asking again for a name
// returns the same family (the type and labels must agree).
class Registry {
 public:
  static Registry& global();

  Family<Counter>& counter(const std::string& name, const std::string& help,
                           std::vector<std::string> label_names = {});
  Family<Gauge>& gauge(const std::string& name, const std::string& help,
                       std::vector<std::string> label_names = {});
  Family<Histogram>& histogram(const std::string& name, const std::string& help,
                               std::vector<std::string> label_names, std::vector<double> bounds);
  // A family whose samples `read` returns at each scrape (what the process
  // already counts elsewhere: /proc, positions). `type` is "gauge" or
  // "counter". Registering a name again replaces its reader.
  void collect(const std::string& name, const std::string& help, std::string type,
               std::vector<std::string> label_names, std::function<std::vector<Sample>()> read);

  // Every family, in order of registration.
  [[nodiscard]] std::string render() const;

 private:
  struct Collected {
    std::string name;
    std::string help;
    std::string type;
    std::vector<std::string> label_names;
    std::function<std::vector<Sample>()> read;
  };
  struct Entry {
    std::string type;
    std::unique_ptr<Family<Counter>> counter;
    std::unique_ptr<Family<Gauge>> gauge;
    std::unique_ptr<Family<Histogram>> histogram;
    std::unique_ptr<Collected> collected;
  };
  Entry& entry(const std::string& name, const std::string& type, const std::vector<std::string>& label_names);
  // The family of `name` in `slot` of its entry, made on first use.
  template <typename Metric>
  Family<Metric>& family(std::unique_ptr<Family<Metric>> Entry::*slot, const std::string& type,
                         const std::string& name, const std::string& help,
                         std::vector<std::string> label_names, std::function<std::unique_ptr<Metric>()> make);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::map<std::string, Entry*, std::less<>> by_name_;
};

// The Content-Type of render()'s text.
inline constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace petstore::metrics
