#include "journal/format.h"

#include <zlib.h>

#include <array>
#include <bit>
#include <cstring>

namespace petstore::tools::journal {
namespace {

static_assert(std::endian::native == std::endian::little, "the journal is written little-endian in place");

template <typename T>
void put(std::string& out, T v) {
  std::array<char, sizeof(T)> bytes{};
  std::memcpy(bytes.data(), &v, sizeof(T));
  out.append(bytes.data(), bytes.size());
}

void put_bytes(std::string& out, const std::optional<std::string_view>& bytes) {
  if (!bytes) {
    put<std::int32_t>(out, -1);
    return;
  }
  put(out, static_cast<std::int32_t>(bytes->size()));
  out.append(*bytes);
}

std::uint32_t crc(std::string_view bytes) {
  return static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

// Reads fields from one frame's body; every read is bounds-checked and a
// failed one leaves `ok` false for good.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}

  template <typename T>
  T get() {
    T v{};
    if (!ok_ || bytes_.size() < sizeof(T)) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, bytes_.data(), sizeof(T));
    bytes_.remove_prefix(sizeof(T));
    return v;
  }

  std::string_view take(std::size_t n) {
    if (!ok_ || bytes_.size() < n) {
      ok_ = false;
      return {};
    }
    const auto out = bytes_.substr(0, n);
    bytes_.remove_prefix(n);
    return out;
  }

  std::optional<std::string_view> nullable_bytes() {
    const auto n = get<std::int32_t>();
    if (n == -1) {
      return std::nullopt;
    }
    if (n < 0) {
      ok_ = false;
      return std::nullopt;
    }
    return take(static_cast<std::size_t>(n));
  }

  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] bool at_end() const { return bytes_.empty(); }

 private:
  std::string_view bytes_;
  bool ok_ = true;
};

}  // namespace

void append_frame(const RecordView& record, std::string& out) {
  const auto start = out.size();
  put<std::uint32_t>(out, 0);  // length and CRC, filled in below
  put<std::uint32_t>(out, 0);
  put(out, record.offset);
  put(out, record.timestamp_ms);
  put_bytes(out, record.key);
  put_bytes(out, record.value);
  put(out, static_cast<std::uint32_t>(record.headers.size()));
  for (const auto& h : record.headers) {
    put(out, static_cast<std::uint32_t>(h.name.size()));
    out.append(h.name);
    put_bytes(out, h.value);
  }
  const auto body = std::string_view(out).substr(start + 8);
  const auto length = static_cast<std::uint32_t>(body.size());
  const auto sum = crc(body);
  std::memcpy(out.data() + start, &length, sizeof length);
  std::memcpy(out.data() + start + 4, &sum, sizeof sum);
}

ScanResult scan(std::string_view file, const std::function<void(const RecordView&)>& on_record) {
  ScanResult result;
  if (!file.starts_with(kMagic)) {
    result.problem = file.empty() ? "empty file" : "not a journal file (no magic)";
    return result;
  }
  std::size_t pos = kMagic.size();
  result.valid_bytes = pos;
  RecordView record;
  while (pos < file.size()) {
    Cursor frame(file.substr(pos));
    const auto length = frame.get<std::uint32_t>();
    const auto sum = frame.get<std::uint32_t>();
    if (!frame.ok() || length > kMaxBody || file.size() - pos - 8 < length) {
      result.problem = "torn frame at byte " + std::to_string(pos);
      return result;
    }
    const auto body = file.substr(pos + 8, length);
    if (crc(body) != sum) {
      result.problem = "CRC mismatch at byte " + std::to_string(pos);
      return result;
    }
    Cursor in(body);
    record.offset = in.get<std::int64_t>();
    record.timestamp_ms = in.get<std::int64_t>();
    record.key = in.nullable_bytes();
    record.value = in.nullable_bytes();
    const auto headers = in.get<std::uint32_t>();
    record.headers.clear();
    // Each header takes at least 8 bytes, so a count beyond what is left is damage.
    if (headers > body.size() / 8) {
      result.problem = "bad header count at byte " + std::to_string(pos);
      return result;
    }
    for (std::uint32_t i = 0; i < headers && in.ok(); ++i) {
      HeaderView h;
      h.name = in.take(in.get<std::uint32_t>());
      h.value = in.nullable_bytes();
      record.headers.push_back(h);
    }
    if (!in.ok() || !in.at_end()) {
      result.problem = "malformed record at byte " + std::to_string(pos);
      return result;
    }
    if (record.offset != static_cast<std::int64_t>(result.records)) {
      result.problem = "offset " + std::to_string(record.offset) + " where " +
                       std::to_string(result.records) + " was expected, at byte " + std::to_string(pos);
      return result;
    }
    on_record(record);
    ++result.records;
    pos += 8 + length;
    result.valid_bytes = pos;
  }
  return result;
}

}  // namespace petstore::tools::journal
