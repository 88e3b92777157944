#include "progress.h"

#include <unistd.h>

#include <algorithm>

namespace petstore::audit {

namespace {
constexpr auto kTtyEvery = std::chrono::milliseconds(100);
constexpr auto kLineEvery = std::chrono::seconds(5);
constexpr int kBarWidth = 30;
}  // namespace

Progress::Progress(std::string label, std::int64_t total, bool enabled)
    : label_(std::move(label)),
      total_(total),
      enabled_(enabled),
      tty_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double Progress::rate() const {
  const auto s = seconds();
  return s > 0 ? static_cast<double>(done_) / s : 0;
}

void Progress::maybe_draw() {
  if (!enabled_) {
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ >= (tty_ ? std::chrono::duration_cast<std::chrono::milliseconds>(kTtyEvery)
                                : std::chrono::duration_cast<std::chrono::milliseconds>(kLineEvery))) {
    last_draw_ = now;
    draw(false);
  }
}

void Progress::draw(bool final) {
  const double fraction =
      total_ > 0 ? std::min(1.0, static_cast<double>(done_) / static_cast<double>(total_)) : 1.0;
  if (tty_) {
    const int filled = static_cast<int>(fraction * kBarWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.append(static_cast<size_t>(kBarWidth - filled), '.');
    std::fprintf(stderr, "\r%s [%s] %3.0f%%  %lld/%lld events  %.0f events/s%s", label_.c_str(), bar.c_str(),
                 fraction * 100, static_cast<long long>(done_), static_cast<long long>(total_), rate(),
                 final ? "\n" : "");
  } else {
    std::fprintf(stderr, "%s: %lld/%lld events (%.0f%%), %.0f events/s%s\n", label_.c_str(),
                 static_cast<long long>(done_), static_cast<long long>(total_), fraction * 100, rate(),
                 final ? ", done" : "");
  }
  std::fflush(stderr);
}

void Progress::finish() {
  if (finished_) {
    return;
  }
  finished_ = true;
  if (enabled_) {
    draw(true);
  }
}

}  // namespace petstore::audit
