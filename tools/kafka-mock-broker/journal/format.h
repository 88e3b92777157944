#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The broker program's journal: one append-only file per partition holding
// every record the local broker took, in offset order, so that a restart
// restores the same log (docs/local-log.md). This header is the file format
// alone: pure, and fuzzed (fuzz/journal_fuzz.cpp), because a journal file is
// read back after crashes, torn writes and hand edits.
//
// A file is the 8-byte magic followed by frames:
//   u32 body length, u32 CRC-32 of the body (zlib's), body
// and a body is, little-endian:
//   i64 offset, i64 timestamp (ms since the epoch, CreateTime),
//   i32 key length (-1: null key), key bytes,
//   i32 value length (-1: null value), value bytes,
//   u32 header count, then per header:
//     u32 name length, name bytes, i32 value length (-1: null), value bytes.
namespace petstore::tools::journal {

inline constexpr std::string_view kMagic = "PSJRNL01";
// Far above anything the local broker accepts (message.max.bytes is 1 MB):
// a larger length is damage, not a record.
inline constexpr std::uint32_t kMaxBody = 64U * 1024U * 1024U;

struct HeaderView {
  std::string_view name;
  std::optional<std::string_view> value;
};

// One record; the views point into the caller's buffer.
struct RecordView {
  std::int64_t offset = 0;
  std::int64_t timestamp_ms = 0;
  std::optional<std::string_view> key;
  std::optional<std::string_view> value;
  std::vector<HeaderView> headers;
};

// Appends one frame holding `record` to `out`.
void append_frame(const RecordView& record, std::string& out);

// What a scan of a journal file found.
struct ScanResult {
  std::size_t records = 0;
  // Bytes from the start of the file up to the end of the last good frame:
  // the length to truncate a damaged file to. The magic alone for an empty
  // journal; 0 for a file without the magic.
  std::size_t valid_bytes = 0;
  // Empty when the whole file was good; otherwise what stopped the scan
  // (a torn last frame after a crash, a CRC mismatch, an offset out of order).
  std::string problem;
};

// Calls `on_record` for each good frame of `file` (magic included), in order,
// and stops at the first damaged one. The n-th record must have offset n: a
// restore produces the records again into an empty partition, so a journal
// that did not start at 0, or had a gap, would come back with other offsets.
ScanResult scan(std::string_view file, const std::function<void(const RecordView&)>& on_record);

}  // namespace petstore::tools::journal
