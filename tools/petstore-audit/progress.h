#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace petstore::audit {

// Progress of a long read on standard error: a bar with events/s redrawn in
// place on a terminal, and a plain line every few seconds otherwise (a CI
// log, a file), so that neither fills with noise.
class Progress {
 public:
  Progress(std::string label, std::int64_t total, bool enabled);
  void advance(std::int64_t n = 1) {
    done_ += n;
    if ((done_ & 0x3ff) == 0) {
      maybe_draw();
    }
  }
  // The last line, with the totals; idempotent.
  void finish();

  [[nodiscard]] std::int64_t done() const { return done_; }
  [[nodiscard]] double rate() const;  // events/s since the start
  [[nodiscard]] double seconds() const;

 private:
  void maybe_draw();
  void draw(bool final);

  std::string label_;
  std::int64_t total_;
  bool enabled_;
  bool tty_;
  bool finished_ = false;
  std::int64_t done_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace petstore::audit
