#include "kafka/message_frame.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace petstore::kafka {
namespace {

void put(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
  out += ',';
}

// Reads one field off the front of `rest`.
std::string_view take(std::string_view& rest) {
  const auto colon = rest.find(':');
  // Twenty digits hold any size_t; a longer length is not ours.
  if (colon == std::string_view::npos || colon == 0 || colon > 20) {
    throw std::invalid_argument("record frame: a field's length is missing");
  }
  std::size_t size = 0;
  const auto* first = rest.data();
  const auto [end, ec] = std::from_chars(first, first + colon, size);
  if (ec != std::errc() || end != first + colon) {
    throw std::invalid_argument("record frame: a field's length is not a number");
  }
  rest.remove_prefix(colon + 1);
  if (size >= rest.size() || rest[size] != ',') {
    throw std::invalid_argument("record frame: a field is cut short");
  }
  const auto field = rest.substr(0, size);
  rest.remove_prefix(size + 1);
  return field;
}

template <typename Int>
Int number(std::string_view text, const char* what) {
  Int value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0) {
    throw std::invalid_argument(std::string("record frame: bad ") + what);
  }
  return value;
}

}  // namespace

std::string frame(const Message& m) {
  std::string out;
  out.reserve(m.topic.size() + m.key.size() + m.value.size() + 64 + m.headers.size() * 48);
  put(out, m.topic);
  put(out, std::to_string(m.partition));
  put(out, std::to_string(m.offset));
  put(out, m.key);
  put(out, m.value);
  for (const auto& h : m.headers) {
    put(out, h.name);
    put(out, h.value);
  }
  return out;
}

Message unframe(std::string_view bytes) {
  Message m;
  m.topic = take(bytes);
  m.partition = number<std::int32_t>(take(bytes), "partition");
  m.offset = number<std::int64_t>(take(bytes), "offset");
  m.key = take(bytes);
  m.value = take(bytes);
  while (!bytes.empty()) {
    if (m.headers.size() == kMaxFramedHeaders) {
      throw std::invalid_argument("record frame: too many headers");
    }
    auto name = take(bytes);
    if (bytes.empty()) {
      throw std::invalid_argument("record frame: a header has no value");
    }
    m.headers.push_back({std::string(name), std::string(take(bytes))});
  }
  return m;
}

}  // namespace petstore::kafka
