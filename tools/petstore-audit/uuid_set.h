#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace petstore::audit {

// A set of 128-bit values (UUIDs as two halves): open addressing with linear
// probing in one flat array. verify remembers every ce_id of the log; a
// node-based std::unordered_set costs a heap node and two cache misses per
// insert there, this one a slot and usually one miss.
class UuidSet {
 public:
  using Value = std::pair<std::uint64_t, std::uint64_t>;

  // Room for about `n` values before the table grows.
  void reserve(size_t n) {
    size_t want = 16;
    while (want < n * 2) {
      want *= 2;
    }
    if (want > slots_.size()) {
      rehash(want);
    }
  }

  // True when `v` was not in the set (and now is).
  bool insert(const Value& v) {
    if (v == kEmpty) {  // the all-zero value marks free slots; it is kept aside
      const bool fresh = !has_zero_;
      has_zero_ = true;
      return fresh;
    }
    if ((size_ + 1) * 2 > slots_.size()) {
      rehash(slots_.empty() ? 16 : slots_.size() * 2);
    }
    if (!place(v)) {
      return false;
    }
    ++size_;
    return true;
  }

  [[nodiscard]] size_t size() const { return size_ + (has_zero_ ? 1 : 0); }

 private:
  static constexpr Value kEmpty{0, 0};

  [[nodiscard]] size_t slot_of(const Value& v) const {
    // UUIDs (version 4) are random already; the multiply spreads any others.
    return static_cast<size_t>((v.first ^ (v.second * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL >> 7) &
           (slots_.size() - 1);
  }

  // Puts `v` in its slot; false when it is there already.
  bool place(const Value& v) {
    for (size_t i = slot_of(v);; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == v) {
        return false;
      }
      if (slots_[i] == kEmpty) {
        slots_[i] = v;
        return true;
      }
    }
  }

  void rehash(size_t count) {
    std::vector<Value> old(count, kEmpty);
    old.swap(slots_);
    for (const auto& v : old) {
      if (v != kEmpty) {
        place(v);
      }
    }
  }

  std::vector<Value> slots_;
  size_t size_ = 0;
  bool has_zero_ = false;
};

}  // namespace petstore::audit
