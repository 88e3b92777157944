#include "metrics/registry.h"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace petstore::metrics {

namespace {

bool valid_name(std::string_view name) {
  if (name.empty()) {
    return false;
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
      return false;
    }
  }
  return true;
}

void append_number(std::string& out, double v) {
  if (std::isnan(v)) {
    out += "NaN";
  } else if (std::isinf(v)) {
    out += v > 0 ? "+Inf" : "-Inf";
  } else {
    std::array<char, 32> buf{};
    const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
    out.append(buf.data(), ec == std::errc() ? end : buf.data());
  }
}

// Backslash and line feed escaped, and the double quote too in a label
// value (`quote`); HELP text keeps its quotes.
void append_escaped(std::string& out, std::string_view text, bool quote) {
  for (const char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

// name{a="x",b="y"[,extra]} value
void append_sample(std::string& out, std::string_view name, const std::vector<std::string>& label_names,
                   const Labels& values, std::string_view extra, double value) {
  out += name;
  if (!label_names.empty() || !extra.empty()) {
    out += '{';
    bool first = true;
    for (std::size_t i = 0; i < label_names.size() && i < values.size(); ++i) {
      if (!first) {
        out += ',';
      }
      first = false;
      out += label_names[i];
      out += "=\"";
      append_escaped(out, values[i], true);
      out += '"';
    }
    if (!extra.empty()) {
      if (!first) {
        out += ',';
      }
      out += extra;
    }
    out += '}';
  }
  out += ' ';
  append_number(out, value);
  out += '\n';
}

void append_header(std::string& out, const std::string& name, const std::string& help,
                   std::string_view type) {
  out += "# HELP ";
  out += name;
  out += ' ';
  append_escaped(out, help, false);
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(new std::atomic<std::uint64_t>[bounds_.size() + 1]) {
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    counts_[i] = 0;
  }
}

void Histogram::observe(double v) {
  std::size_t i = 0;
  while (i < bounds_.size() && v > bounds_[i]) {
    ++i;
  }
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(v, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
  Snapshot s;
  s.cumulative.reserve(bounds_.size() + 1);
  std::uint64_t running = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    s.cumulative.push_back(running);
  }
  s.sum = sum_.load(std::memory_order_relaxed);
  return s;
}

std::vector<double> latency_buckets() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
}

Registry& Registry::global() {
  static Registry registry;
  return registry;
}

Registry::Entry& Registry::entry(const std::string& name, const std::string& type,
                                 const std::vector<std::string>& label_names) {
  if (!valid_name(name)) {
    throw std::invalid_argument("metric name " + name);
  }
  for (const auto& l : label_names) {
    if (!valid_name(l) || l.starts_with("__") || l == "le") {
      std::string what = "label name ";
      what.append(l).append(" of ").append(name);
      throw std::invalid_argument(what);
    }
  }
  if (const auto it = by_name_.find(name); it != by_name_.end()) {
    if (it->second->type != type) {
      throw std::invalid_argument("metric " + name + " registered as " + it->second->type);
    }
    return *it->second;
  }
  auto& e = *entries_.emplace_back(std::make_unique<Entry>());
  e.type = type;
  by_name_[name] = &e;
  return e;
}

template <typename Metric>
Family<Metric>& Registry::family(std::unique_ptr<Family<Metric>> Entry::*slot, const std::string& type,
                                 const std::string& name, const std::string& help,
                                 std::vector<std::string> label_names,
                                 std::function<std::unique_ptr<Metric>()> make) {
  const std::lock_guard lock(mutex_);
  auto& f = entry(name, type, label_names).*slot;
  if (!f) {
    f = std::make_unique<Family<Metric>>(name, help, std::move(label_names), std::move(make));
  }
  return *f;
}

Family<Counter>& Registry::counter(const std::string& name, const std::string& help,
                                   std::vector<std::string> label_names) {
  return family<Counter>(&Entry::counter, "counter", name, help, std::move(label_names),
                         [] { return std::make_unique<Counter>(); });
}

Family<Gauge>& Registry::gauge(const std::string& name, const std::string& help,
                               std::vector<std::string> label_names) {
  return family<Gauge>(&Entry::gauge, "gauge", name, help, std::move(label_names),
                       [] { return std::make_unique<Gauge>(); });
}

Family<Histogram>& Registry::histogram(const std::string& name, const std::string& help,
                                       std::vector<std::string> label_names, std::vector<double> bounds) {
  return family<Histogram>(&Entry::histogram, "histogram", name, help, std::move(label_names),
                           [bounds = std::move(bounds)] { return std::make_unique<Histogram>(bounds); });
}

void Registry::collect(const std::string& name, const std::string& help, std::string type,
                       std::vector<std::string> label_names, std::function<std::vector<Sample>()> read) {
  if (type != "gauge" && type != "counter") {
    throw std::invalid_argument("collected metric " + name + " of type " + type);
  }
  const std::lock_guard lock(mutex_);
  auto& e = entry(name, "collected " + type, label_names);
  e.collected = std::make_unique<Collected>(
      Collected{name, help, std::move(type), std::move(label_names), std::move(read)});
}

std::string Registry::render() const {
  const std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& e : entries_) {
    if (e->counter) {
      const auto& f = *e->counter;
      append_header(out, f.name(), f.help(), "counter");
      f.each([&](const Labels& labels, const Counter& c) {
        append_sample(out, f.name(), f.label_names(), labels, {}, c.value());
      });
    } else if (e->gauge) {
      const auto& f = *e->gauge;
      append_header(out, f.name(), f.help(), "gauge");
      f.each([&](const Labels& labels, const Gauge& g) {
        append_sample(out, f.name(), f.label_names(), labels, {}, g.value());
      });
    } else if (e->histogram) {
      const auto& f = *e->histogram;
      append_header(out, f.name(), f.help(), "histogram");
      f.each([&](const Labels& labels, const Histogram& h) {
        const auto s = h.snapshot();
        std::string le;
        for (std::size_t i = 0; i < s.cumulative.size(); ++i) {
          le = "le=\"";
          append_number(le, i < h.bounds().size() ? h.bounds()[i] : std::numeric_limits<double>::infinity());
          le += '"';
          append_sample(out, f.name() + "_bucket", f.label_names(), labels, le,
                        static_cast<double>(s.cumulative[i]));
        }
        append_sample(out, f.name() + "_sum", f.label_names(), labels, {}, s.sum);
        append_sample(out, f.name() + "_count", f.label_names(), labels, {},
                      static_cast<double>(s.cumulative.back()));
      });
    } else if (e->collected) {
      const auto& c = *e->collected;
      std::vector<Sample> samples;
      try {
        samples = c.read();
      } catch (const std::exception&) {
        continue;  // a reader that cannot read now leaves its family out of this scrape
      }
      append_header(out, c.name, c.help, c.type);
      for (const auto& [labels, value] : samples) {
        append_sample(out, c.name, c.label_names, labels, {}, value);
      }
    }
  }
  return out;
}

}  // namespace petstore::metrics
