#include "http/inbox.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace petstore::http {

Inbox::Inbox() : wake_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!wake_) {
    throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
  }
}

void Inbox::post(Item item) {
  bool was_empty = false;
  {
    const std::lock_guard lock(mutex_);
    if (closed_) {
      return;
    }
    // Not "&& !stop_": after a stop the loop still drains responses in
    // progress, and take() has consumed the stop's own signal.
    was_empty = items_.empty();
    items_.push_back(std::move(item));
  }
  if (was_empty) {
    signal();
  }
}

void Inbox::request_stop() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  signal();
}

bool Inbox::take(std::vector<Item>& into) {
  std::uint64_t ignored = 0;
  [[maybe_unused]] const auto n = ::read(wake_.get(), &ignored, sizeof(ignored));
  const std::lock_guard lock(mutex_);
  into.swap(items_);
  return stop_;
}

void Inbox::close() {
  const std::lock_guard lock(mutex_);
  closed_ = true;
  items_.clear();
}

void Inbox::signal() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(wake_.get(), &one, sizeof(one));
}

}  // namespace petstore::http
